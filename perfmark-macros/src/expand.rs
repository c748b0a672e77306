//! The pipeline of `#[perf_test]`: parse → validate → generate.

use proc_macro2::{Span, TokenStream};
use syn::{Item, ItemFn};

use crate::ast::Function;
use crate::attr::Attr;
use crate::ctxt::Ctxt;
use crate::{fallback, generate, valid};

/// Expands `#[perf_test(<args>)] <input>`.
///
/// Parses the options and the function into typed models, validates both
/// (collecting every error), and generates the registration only from a
/// validated test. On any error the result is the errors plus `input`
/// unchanged.
pub fn perf_test(args: TokenStream, input: TokenStream) -> TokenStream {
    let item = match parse_fn(input.clone()) {
        Ok(item) => item,
        Err(error) => return fallback::expand(input, error),
    };
    let cx = Ctxt::new();
    let attr = Attr::parse(&cx, args);
    let function = Function::from_syn(&item);
    let test = valid::validate(&cx, &attr, &function);
    match (cx.check(), test) {
        (Ok(()), Some(test)) => generate::expand(&test),
        (Err(error), _) => fallback::expand(input, error),
        (Ok(()), None) => fallback::expand(
            input,
            syn::Error::new(
                Span::call_site(),
                "internal error: `#[perf_test]` refused this function without saying why; please \
                 report it",
            ),
        ),
    }
}

/// The item as a function, or an error saying where `#[perf_test]` goes.
fn parse_fn(input: TokenStream) -> syn::Result<ItemFn> {
    match syn::parse2::<Item>(input)? {
        Item::Fn(item) => Ok(item),
        other => Err(syn::Error::new_spanned(
            other,
            "`#[perf_test]` goes on a function, such as `fn sort_1k(b: &mut Bencher) { … }`",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::{Spacing, TokenTree};
    use quote::quote;

    /// Flattens groups, keeping their contents in order.
    fn flat(stream: TokenStream, out: &mut Vec<TokenTree>) {
        for tree in stream {
            match tree {
                TokenTree::Group(group) => flat(group.stream(), out),
                other => out.push(other),
            }
        }
    }

    /// The first segment of every absolute path (`::x::…`) in `stream`.
    fn absolute_roots(stream: TokenStream) -> Vec<String> {
        let mut tokens = Vec::new();
        flat(stream, &mut tokens);
        let mut roots = Vec::new();
        for i in 0..tokens.len().saturating_sub(2) {
            let leading = match (&tokens[i], &tokens[i + 1]) {
                (TokenTree::Punct(a), TokenTree::Punct(b)) => {
                    a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
                }
                _ => false,
            };
            let after_path = i > 0
                && match &tokens[i - 1] {
                    TokenTree::Ident(_) => true,
                    TokenTree::Punct(p) => p.as_char() == '>' || p.as_char() == ':',
                    _ => false,
                };
            if leading && !after_path {
                roots.push(tokens[i + 2].to_string());
            }
        }
        roots
    }

    #[test]
    fn generated_code_names_only_perfmark_and_core() {
        let out = perf_test(
            quote!(
                budget = "1us",
                confidence = 0.9,
                regression = "2.5%",
                ignore = "x",
                args = ["x", "a b"]
            ),
            quote!(
                fn f(b: &mut Bencher, n: String) {
                    b.iter(|| n.len())
                }
            ),
        );
        let roots = absolute_roots(out.clone());
        assert!(roots.iter().any(|r| r == "perfmark"), "{out}");
        assert!(
            roots.iter().all(|r| r == "perfmark" || r == "core"),
            "{roots:?}"
        );
        let text = out.to_string();
        assert!(text.contains("TestOptions :: NONE"), "{text}");
        assert!(
            text.contains("regression : :: core :: option :: Option :: Some (0.025f64)"),
            "{text}"
        );
        assert_eq!(
            text.matches("inventory :: submit !").count(),
            2,
            "one test per argument"
        );
        assert!(!text.contains("compile_error"), "{text}");
    }

    #[test]
    fn on_error_the_function_is_kept_and_nothing_registered() {
        let function = quote!(
            fn fib(n: u64) -> u64 {
                n
            }
        );
        let out = perf_test(quote!(budget = "1 parsec", args = []), function.clone());
        let text = out.to_string();
        assert_eq!(text.matches("compile_error").count(), 2, "{text}");
        assert!(text.ends_with(&function.to_string()), "{text}");
        assert!(!text.contains("submit"), "{text}");
    }

    #[test]
    fn complexity_records_each_arguments_size() {
        let out = perf_test(
            quote!(complexity = "O(n log n)", args = [10, 100, 1000, N]),
            quote!(
                fn sort(b: &mut Bencher, n: usize) {
                    b.iter(|| n)
                }
            ),
        );
        let text = out.to_string();
        assert!(!text.contains("compile_error"), "{text}");
        assert_eq!(text.matches("record_size").count(), 4, "{text}");
        assert!(
            text.contains("< usize as :: perfmark :: __private :: Size > :: size"),
            "{text}"
        );
        assert!(
            text.contains(
                "complexity : :: core :: option :: Option :: Some (:: perfmark :: __private :: \
                 Complexity :: LinLog)"
            ),
            "{text}"
        );
        // Without `complexity`, no size is asked for.
        let plain = perf_test(
            quote!(args = [10, 100]),
            quote!(
                fn f(n: usize) {}
            ),
        );
        assert!(!plain.to_string().contains("Size"), "{plain}");
    }

    #[test]
    fn complexity_needs_four_sizes() {
        let errors = |attr: TokenStream, function: TokenStream| -> String {
            let text = perf_test(attr, function).to_string();
            assert!(text.contains("compile_error"), "{text}");
            text
        };
        let function = quote!(
            fn f(n: u64) {}
        );
        let text = errors(quote!(complexity = "n", args = [1, 2, 3]), function.clone());
        assert!(
            text.contains(
                "`complexity` needs at least 4 arguments to fit a growth class, and `args` has 3"
            ),
            "{text}"
        );
        let text = errors(
            quote!(complexity = "n"),
            quote!(
                fn f() {}
            ),
        );
        assert!(text.contains("`complexity` needs `args`"), "{text}");
        let text = errors(
            quote!(complexity = "n", args = [0, 10, 100, 1000]),
            function.clone(),
        );
        assert!(text.contains("argument `0` is not a size"), "{text}");
        let text = errors(
            quote!(complexity = "n", args = ["a", "bb", "complexity", "dddd"]),
            quote!(
                fn f(s: &str) {}
            ),
        );
        assert!(text.contains("an argument named `complexity`"), "{text}");
        let text = errors(quote!(complexity = "n^4", args = [1, 2, 3, 4]), function);
        assert!(text.contains("invalid complexity `n^4`"), "{text}");
    }

    #[test]
    fn a_non_function_is_refused() {
        let out = perf_test(
            TokenStream::new(),
            quote!(
                struct S;
            ),
        );
        let text = out.to_string();
        assert!(text.contains("goes on a function"), "{text}");
        assert!(text.ends_with("struct S ;"), "{text}");
    }
}
