//! The function under `#[perf_test]`, as written: its signature split into
//! the parts whose shape `valid.rs` judges (the shapes the README lists under
//! "Function shapes").

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{FnArg, ItemFn, Pat, PatType, Receiver, Type};

/// A `#[perf_test]` function, before any check.
pub struct Function<'a> {
    /// The item exactly as written; generation emits it unchanged.
    pub item: &'a ItemFn,
    /// `self`, `&self`, …: present only on a method, which is refused.
    pub receiver: Option<&'a Receiver>,
    /// The typed parameters, in order.
    pub params: Vec<Param<'a>>,
}

/// One typed parameter.
pub struct Param<'a> {
    /// `pat: ty` as written, for error spans.
    pub typed: &'a PatType,
    /// The declared type.
    pub ty: &'a Type,
    /// What the type makes of the parameter.
    pub kind: ParamKind,
}

/// How a parameter's type classifies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `&mut _`: the form of the bencher parameter.
    MutRef,
    /// A type naming `Bencher`, but not taken as `&mut` (`Bencher`, `&Bencher`).
    BencherNotMut,
    /// A type containing `impl Trait`: a generic parameter in disguise.
    ImplTrait,
    /// Anything else: a value, which only `args` can provide.
    Value(Option<Primitive>),
}

/// Types whose literals the macro knows, so that an `args` element of the
/// wrong literal kind gets a clear message of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Primitive {
    /// `i8` … `i128`, `isize`.
    SignedInt,
    /// `u8` … `u128`, `usize`.
    UnsignedInt,
    /// `f32`, `f64`.
    Float,
    /// `bool`.
    Bool,
    /// `char`.
    Char,
    /// `&str` (any lifetime).
    Str,
    /// `String` (also written `std::string::String` or `alloc::string::String`).
    String,
}

impl<'a> Function<'a> {
    /// Splits `item`'s signature into receiver and classified parameters.
    pub fn from_syn(item: &'a ItemFn) -> Self {
        let mut receiver = None;
        let mut params = Vec::new();
        for input in &item.sig.inputs {
            match input {
                FnArg::Receiver(r) => receiver = Some(r),
                FnArg::Typed(typed) => params.push(Param {
                    typed,
                    ty: &typed.ty,
                    kind: classify(&typed.ty),
                }),
            }
        }
        Function {
            item,
            receiver,
            params,
        }
    }
}

impl Param<'_> {
    /// The parameter's name for messages: its identifier, or the pattern as
    /// written (`(a, b)`).
    pub fn name(&self) -> String {
        match &*self.typed.pat {
            Pat::Ident(pat) => pat.ident.to_string(),
            other => crate::attr::tokens_text(other),
        }
    }
}

fn classify(ty: &Type) -> ParamKind {
    if contains_impl(ty.to_token_stream()) {
        return ParamKind::ImplTrait;
    }
    match ty {
        Type::Reference(reference) if reference.mutability.is_some() => ParamKind::MutRef,
        Type::Reference(reference) if names_bencher(&reference.elem) => ParamKind::BencherNotMut,
        _ if names_bencher(ty) => ParamKind::BencherNotMut,
        _ => ParamKind::Value(primitive(ty)),
    }
}

/// True when `ty` is a path ending in `Bencher` (`Bencher`, `perfmark::Bencher`).
fn names_bencher(ty: &Type) -> bool {
    match ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "Bencher"),
        Type::Paren(inner) => names_bencher(&inner.elem),
        _ => false,
    }
}

fn contains_impl(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|tree| match tree {
        TokenTree::Ident(ident) => ident == "impl",
        TokenTree::Group(group) => contains_impl(group.stream()),
        _ => false,
    })
}

/// The primitive `ty` names, if any: the types whose literals the macro knows.
pub fn primitive(ty: &Type) -> Option<Primitive> {
    match ty {
        Type::Reference(reference) if reference.mutability.is_none() => match &*reference.elem {
            Type::Path(path) if path.qself.is_none() && path.path.is_ident("str") => {
                Some(Primitive::Str)
            }
            _ => None,
        },
        Type::Path(path) if path.qself.is_none() => {
            let segments: Vec<String> = path
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            if path.path.segments.iter().any(|s| !s.arguments.is_none()) {
                return None;
            }
            let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
            match segments.as_slice() {
                ["i8" | "i16" | "i32" | "i64" | "i128" | "isize"] => Some(Primitive::SignedInt),
                ["u8" | "u16" | "u32" | "u64" | "u128" | "usize"] => Some(Primitive::UnsignedInt),
                ["f32" | "f64"] => Some(Primitive::Float),
                ["bool"] => Some(Primitive::Bool),
                ["char"] => Some(Primitive::Char),
                ["String"] | ["std" | "alloc", "string", "String"] => Some(Primitive::String),
                _ => None,
            }
        }
        Type::Paren(inner) => primitive(&inner.elem),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(ty: &str) -> ParamKind {
        classify(&syn::parse_str(ty).unwrap())
    }

    #[test]
    fn classifies_parameters() {
        assert_eq!(kind("&mut Bencher"), ParamKind::MutRef);
        assert_eq!(kind("&mut perfmark::Bencher"), ParamKind::MutRef);
        assert_eq!(kind("&mut Vec<u8>"), ParamKind::MutRef);
        assert_eq!(kind("Bencher"), ParamKind::BencherNotMut);
        assert_eq!(kind("&perfmark::Bencher"), ParamKind::BencherNotMut);
        assert_eq!(kind("impl Into<u64>"), ParamKind::ImplTrait);
        assert_eq!(kind("Vec<impl Copy>"), ParamKind::ImplTrait);
        assert_eq!(kind("u64"), ParamKind::Value(Some(Primitive::UnsignedInt)));
        assert_eq!(kind("i8"), ParamKind::Value(Some(Primitive::SignedInt)));
        assert_eq!(kind("f32"), ParamKind::Value(Some(Primitive::Float)));
        assert_eq!(kind("&'static str"), ParamKind::Value(Some(Primitive::Str)));
        assert_eq!(
            kind("std::string::String"),
            ParamKind::Value(Some(Primitive::String))
        );
        assert_eq!(kind("Vec<u64>"), ParamKind::Value(None));
        assert_eq!(kind("&[u8]"), ParamKind::Value(None));
        assert_eq!(kind("my::u64"), ParamKind::Value(None));
    }
}
