//! Collects every error of one expansion, so the user sees all of their
//! mistakes in one build instead of one per build (serde_derive's
//! `internals/ctxt.rs` habit).

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// Error sink shared by the parse and validation steps.
///
/// Every check reports through `&Ctxt` and carries on, so independent
/// mistakes are all reported. [`Ctxt::check`] must be called once at the end:
/// dropping an unchecked context panics, so no error can be lost silently.
#[derive(Debug)]
pub struct Ctxt {
    /// `None` once [`Ctxt::check`] has run.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// A context with no error yet.
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error spanning `tokens` (from their first to their last token).
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error made by syn (a parse error, or one built by hand).
    pub fn syn_error(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    /// Consumes the context: `Ok` when nothing was recorded, else every
    /// recorded error combined into one (each keeps its own span).
    pub fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let mut errors = errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}

impl Default for Ctxt {
    fn default() -> Self {
        Ctxt::new()
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // Checking on every path is the invariant this type exists for; a
        // panic here (while not already unwinding) is a bug in the macro.
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}
