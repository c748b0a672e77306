//! How the body uses its bencher, as far as the code as written shows it:
//! the two mistakes the compiler can be made to refuse.
//!
//! A test hands one routine to the bencher, once. The bencher is lent as
//! `&mut Bencher` (the attribute's contract), so the type system cannot
//! count the calls; what the body's syntax shows is checked here, and the
//! rest stays the runtime's (a second call panics, no call fails the test
//! saying so):
//!
//! - **No use at all.** A body that never names its bencher can hand it
//!   nothing: a compile error. A body that passes it on (`helper(b)`) or
//!   uses it in a macro is left to the runtime.
//! - **Two timing calls in a row.** Two statements of the function's own
//!   block that each call a timing method on the bencher (`b.iter(…)`,
//!   `b.iter_batched(…)`, `b.iter_shared(…)`, `b.to_async(…).iter(…)`, …)
//!   run one after the other on every path that reaches the second: a
//!   compile error at the second. Calls in branches, loops or closures are the runtime's: which
//!   of them run, and how often, the syntax does not say.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Expr, ItemFn, Stmt};

use crate::ctxt::Ctxt;

/// The bencher's methods that take the timed routine (`to_async` leads to
/// the async forms, each of which takes it).
const TIMING_METHODS: [&str; 7] = [
    "iter",
    "iter_shared",
    "iter_batched",
    "iter_batched_ref",
    "iter_per_call",
    "iter_custom",
    "to_async",
];

/// Reports the mistakes the module's doc lists for the bencher parameter
/// `name` (as written: an identifier, or `_`) of `item`. Returns whether
/// there were none.
pub fn check(cx: &Ctxt, item: &ItemFn, name: &str, param: impl ToTokens) -> bool {
    let body = item.block.to_token_stream();
    if name == "_" || !mentions(body, name) {
        cx.error_spanned_by(
            param,
            format!(
                "the bencher `{name}` is never used, so nothing would be timed: hand it the \
                 routine once, as in `b.iter(|| …)`"
            ),
        );
        return false;
    }
    let mut first: Option<&Expr> = None;
    let mut ok = true;
    for stmt in &item.block.stmts {
        let expr = match stmt {
            Stmt::Expr(expr, _) => expr,
            _ => continue,
        };
        if timing_method(expr, name).is_none() {
            continue;
        }
        match first {
            None => first = Some(expr),
            Some(_) => {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "a second timing call on `{name}`: a test hands the bencher one routine, \
                         once, and the call above already did; make a second test for this \
                         routine"
                    ),
                );
                ok = false;
            }
        }
    }
    ok
}

/// The timing method `expr` calls on the bencher `name` (through any chain
/// that starts at it: `b.to_async(e).iter(…)` calls `to_async`), or `None`.
fn timing_method(expr: &Expr, name: &str) -> Option<String> {
    let Expr::MethodCall(call) = expr else {
        return None;
    };
    match &*call.receiver {
        Expr::Path(path) if path.path.is_ident(name) => {
            let method = call.method.to_string();
            TIMING_METHODS.contains(&method.as_str()).then_some(method)
        }
        receiver => timing_method(receiver, name),
    }
}

/// Whether the identifier `name` occurs anywhere in `tokens`, macro
/// arguments included.
fn mentions(tokens: TokenStream, name: &str) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(ident) => ident == name,
        TokenTree::Group(group) => mentions(group.stream(), name),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(source: &str) -> Vec<String> {
        let item: ItemFn = syn::parse_str(source).unwrap();
        let cx = Ctxt::new();
        check(&cx, &item, "b", &item.sig);
        match cx.check() {
            Ok(()) => Vec::new(),
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn one_call_wherever_it_is_passes() {
        for body in [
            "fn t(b: &mut Bencher) { let v = vec![1]; b.iter(|| v.len()); }",
            "fn t(b: &mut Bencher) { b.to_async(BlockOn).iter(async || 1) }",
            "fn t(b: &mut Bencher) { if x() { b.iter(|| 1) } else { b.iter_batched(|| 1, |v| v) } }",
            "fn t(b: &mut Bencher) { helper(b); }",
            "fn t(b: &mut Bencher) { my_macro!(b); }",
            "fn t(b: &mut Bencher) { b.items(4); b.iter(|| 1); }",
        ] {
            assert_eq!(errors(body), Vec::<String>::new(), "{body}");
        }
    }

    #[test]
    fn two_calls_in_a_row_and_an_unused_bencher_are_refused() {
        let two = errors("fn t(b: &mut Bencher) { b.iter(|| 1); b.iter_custom(|n| d(n)); }");
        assert_eq!(two.len(), 1, "{two:?}");
        assert!(two[0].starts_with("a second timing call on `b`"), "{two:?}");
        let chained =
            errors("fn t(b: &mut Bencher) { b.iter(|| 1); b.to_async(BlockOn).iter(async || 1); }");
        assert_eq!(chained.len(), 1, "{chained:?}");
        let unused = errors("fn t(b: &mut Bencher) { let x = 1; drop(x); }");
        assert_eq!(unused.len(), 1, "{unused:?}");
        assert!(unused[0].contains("is never used"), "{unused:?}");
    }
}
