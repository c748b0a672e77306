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
    use perfmark_options::Key;
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

    /// The expansion's text, asserting it has no error.
    fn expanded(attr: TokenStream, function: TokenStream) -> String {
        let text = perf_test(attr, function).to_string();
        assert!(!text.contains("compile_error"), "{text}");
        text
    }

    /// The expansion's error messages, asserting there is one at least.
    fn refused(attr: TokenStream, function: TokenStream) -> Vec<String> {
        let text = perf_test(attr, function).to_string();
        assert!(!text.contains("submit"), "{text}");
        let messages: Vec<String> = text
            .split("compile_error ! {")
            .skip(1)
            .map(|rest| {
                let start = rest.find('"').expect("a message") + 1;
                let end = rest[start..].find("\" }").expect("its end") + start;
                rest[start..end].replace("\\\"", "\"")
            })
            .collect();
        assert!(!messages.is_empty(), "{text}");
        messages
    }

    /// The `fn_name` of every registration, in order.
    fn fn_names(text: &str) -> Vec<String> {
        text.split("fn_name : \"")
            .skip(1)
            .map(|rest| rest[..rest.find('"').expect("closing quote")].to_owned())
            .collect()
    }

    #[test]
    fn one_test_per_type_const_thread_count_and_argument() {
        let text = expanded(
            quote!(
                args = [10, 100],
                threads = [1, 0],
                consts = [16, SMALL],
                types = [u32, Vec<u8>]
            ),
            quote!(
                fn sort<const N: usize, T: Ord>(b: &mut Bencher, n: Vec<[T; N]>) {
                    b.iter_shared(|| n.len())
                }
            ),
        );
        assert_eq!(text.matches("inventory :: submit !").count(), 16, "{text}");
        let names = fn_names(&text);
        let mut expected = Vec::new();
        for ty in ["u32", "Vec<u8>"] {
            for konst in ["16", "SMALL"] {
                for threads in ["t1", "tmax"] {
                    let name = format!("sort::{ty}::{konst}::{threads}");
                    // One registration per argument, each under the instance's name.
                    expected.extend([name.clone(), name]);
                }
            }
        }
        assert_eq!(names, expected);
        // The signature's order: the const parameter first.
        assert!(
            text.contains("sort :: < 16 , u32 > (bencher , arg)"),
            "{text}"
        );
        assert!(text.contains("sort :: < SMALL , Vec < u8 > >"), "{text}");
        // The argument's type, with the instance's type and value in place.
        assert!(
            text.contains("let arg : Vec < [u32 ; 16] > = 10 ;"),
            "{text}"
        );
        assert!(
            text.contains("let arg : Vec < [Vec < u8 > ; SMALL] > = 100 ;"),
            "{text}"
        );
        assert_eq!(
            text.matches("threads : :: core :: option :: Option :: Some (1u64)")
                .count(),
            8
        );
        assert_eq!(
            text.matches("threads : :: core :: option :: Option :: Some (0u64)")
                .count(),
            8
        );
        assert_eq!(
            text.matches("arg : :: core :: option :: Option :: Some (\"10\")")
                .count(),
            8
        );
    }

    #[test]
    fn a_body_without_bencher_runs_on_every_thread_with_threads() {
        let text = expanded(
            quote!(threads = 4, types = [u8]),
            quote!(
                fn count<T: Default>() -> T {
                    T::default()
                }
            ),
        );
        assert_eq!(fn_names(&text), ["count::u8::t4"]);
        assert!(
            text.contains("bencher . iter_shared (count :: < u8 >)"),
            "{text}"
        );
        let plain = expanded(
            quote!(types = [u8, u16]),
            quote!(
                fn count<T: Default>() -> T {
                    T::default()
                }
            ),
        );
        assert_eq!(fn_names(&plain), ["count::u8", "count::u16"]);
        assert!(
            plain.contains("bencher . iter (count :: < u16 >)"),
            "{plain}"
        );
        assert!(!plain.contains("threads :"), "{plain}");
    }

    #[test]
    fn names_and_calls_of_every_shape() {
        // A negative constant goes in braces in the turbofish, and the
        // parameter's type takes it too.
        let text = expanded(
            quote!(consts = [-1, 3], args = [1]),
            quote!(
                fn shift<const N: i8>(n: Wrapper<N>) {}
            ),
        );
        assert_eq!(fn_names(&text), ["shift::-1", "shift::3"]);
        assert!(text.contains("shift :: < { - 1 } >"), "{text}");
        assert!(
            text.contains("let arg : Wrapper < { - 1 } > = 1 ;"),
            "{text}"
        );
        assert!(
            text.contains("iter_batched (|| < Wrapper < 3 > as"),
            "{text}"
        );
        // The bencher shape, with the type's spaces left out of the name
        // but between two words.
        let text = expanded(
            quote!(types = [[u8; 64], &'static str]),
            quote!(
                fn fill<T>(b: &mut Bencher) {
                    b.iter(|| 1)
                }
            ),
        );
        assert_eq!(fn_names(&text), ["fill::[u8;64]", "fill::&'static str"]);
        assert!(text.contains("fill :: < [u8 ; 64] > (bencher)"), "{text}");
        // An async fn over types.
        let text = expanded(
            quote!(types = [u32]),
            quote!(
                async fn fetch<T: Default>() -> T {
                    T::default()
                }
            ),
        );
        assert!(text.contains(". iter (fetch :: < u32 >)"), "{text}");
        // Complexity sizes the substituted type.
        let text = expanded(
            quote!(types = [u64], args = [1, 2, 3, 4], complexity = "n"),
            quote!(
                fn scan<T>(b: &mut Bencher, n: T) {
                    b.iter(|| 1)
                }
            ),
        );
        assert!(
            text.contains("< u64 as :: perfmark :: __private :: Size > :: size"),
            "{text}"
        );
        assert_eq!(fn_names(&text), ["scan::u64"; 4]);
    }

    #[test]
    fn generic_parameters_need_their_lists() {
        let errors = refused(
            TokenStream::new(),
            quote!(
                fn make<T: Default, const N: usize>() -> T {
                    T::default()
                }
            ),
        );
        assert_eq!(
            errors,
            [
                "`fn make<T, const N: usize>` is generic over the type `T`: name the types to \
                 test it with, as in `types = [u32, String]` (one test per type)",
                "`fn make<T, const N: usize>` is generic over the constant `N`: name the values \
                 to test it with, as in `consts = [16, 64]` (one test per value)"
            ]
        );
        let errors = refused(
            quote!(types = [u8], consts = [1]),
            quote!(
                fn plain() {}
            ),
        );
        assert!(
            errors[0].starts_with("`types` is given but `fn plain` has no type"),
            "{errors:?}"
        );
        assert!(
            errors[1].starts_with("`consts` is given but `fn plain` has no const"),
            "{errors:?}"
        );
        let errors = refused(
            quote!(types = [u8]),
            quote!(
                fn two<T, U>() {}
            ),
        );
        assert_eq!(
            errors,
            ["`fn two<T, U>` has 2 type parameters, and perfmark instantiates one type parameter \
              (from `types`) and one const parameter (from `consts`): make `U` concrete"]
        );
        let errors = refused(
            quote!(types = [u8]),
            quote!(
                fn borrow<'a, T>() {}
            ),
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("a perf test cannot have lifetime parameters"));
    }

    #[test]
    fn list_elements_are_checked() {
        let function = quote!(
            fn f<T, const N: usize>() {}
        );
        let errors = refused(quote!(types = [], consts = []), function.clone());
        assert!(errors[0].starts_with("`types` is empty"), "{errors:?}");
        assert!(errors[1].starts_with("`consts` is empty"), "{errors:?}");
        let errors = refused(
            quote!(
                types = [u32, 5, u32],
                consts = [16, -1, 16, N * 2, 1.5, "x"]
            ),
            function.clone(),
        );
        assert_eq!(
            errors,
            [
                "invalid types element `5`: expected a type, such as `u32`, `String` or `Vec<u8>`",
                "constant `-1` does not fit parameter `const N: usize`: expected a non-negative \
                 integer literal such as 10, found a negative integer literal",
                "duplicate constant `16`: each value names a test (`f::16`), so each must be \
                 different",
                "invalid consts element `N*2`: expected an integer, `bool` or `char` literal \
                 (`16`, `-1`, `true`, `'a'`) or the path of a constant (`SMALL`); for an \
                 expression, define a `const` and name it",
                "invalid consts element `1.5`: expected an integer, `bool` or `char` literal \
                 (`16`, `-1`, `true`, `'a'`) or the path of a constant (`SMALL`); for an \
                 expression, define a `const` and name it",
                "invalid consts element `\"x\"`: expected an integer, `bool` or `char` literal \
                 (`16`, `-1`, `true`, `'a'`) or the path of a constant (`SMALL`); for an \
                 expression, define a `const` and name it",
            ]
        );
        let errors = refused(quote!(types = [u32, u32], consts = [1]), function.clone());
        assert_eq!(
            errors,
            ["duplicate type `u32`: each type names a test (`f::u32`), so each must be different"]
        );
        let errors = refused(quote!(types = u32, consts = 1), function);
        assert!(
            errors[0].starts_with("invalid types `u32`: expected a list of types"),
            "{errors:?}"
        );
        assert!(
            errors[1].starts_with("invalid consts `1`: expected a list of constant"),
            "{errors:?}"
        );
    }

    #[test]
    fn thread_counts_are_checked() {
        let function = quote!(
            fn f() {}
        );
        let errors = refused(quote!(threads = [2, 2, -1, 1025, 1.5, x]), function.clone());
        let accepts = Key::Threads.accepts();
        assert_eq!(
            errors,
            [
                "duplicate thread count `2`: each count names a test (`f::t2`), so each must be \
                 different"
                    .to_owned(),
                format!(
                    "invalid threads `-1`: a thread count cannot be negative; expected {accepts}"
                ),
                format!(
                    "invalid threads `1025`: perfmark runs at most 1024 threads at once; \
                     expected {accepts}"
                ),
                format!("invalid threads `1.5`: expected {accepts}"),
                format!("invalid threads `x`: expected {accepts}"),
            ]
        );
        let many: Vec<u64> = (1..=65).collect();
        let errors = refused(quote!(threads = [#(#many),*]), function.clone());
        assert_eq!(
            errors,
            ["`threads` has 65 thread counts, and a test takes at most 64 (one test each)"]
        );
        let errors = refused(quote!(threads = []), function.clone());
        assert!(errors[0].starts_with("`threads` is empty"), "{errors:?}");
        let errors = refused(quote!(threads = "4"), function);
        assert!(
            errors[0].starts_with("invalid threads `\"4\"`: expected"),
            "{errors:?}"
        );
    }

    #[test]
    fn threads_need_a_routine_the_threads_can_share() {
        let errors = refused(
            quote!(threads = [2], args = [10]),
            quote!(
                fn f(n: u64) {}
            ),
        );
        assert_eq!(
            errors,
            [
                "with `threads`, a test with `args` takes the bencher and hands it the routine \
              itself: write `fn f(b: &mut Bencher, n: u64)` and call `b.iter_shared(|| …)`, so \
              that the test chooses what the threads share of the argument and what each makes \
              of its own"
            ]
        );
        let errors = refused(
            quote!(threads = [2]),
            quote!(
                async fn f() {}
            ),
        );
        assert!(
            errors[0].starts_with("`threads` cannot time an `async fn`"),
            "{errors:?}"
        );
        let errors = refused(
            quote!(threads = [2], measure = "cpu"),
            quote!(
                fn f() {}
            ),
        );
        assert!(
            errors[0].starts_with("`measure = \"cpu\"` cannot time a `threads` test"),
            "{errors:?}"
        );
        // The bencher and `args` with it are accepted.
        let text = expanded(
            quote!(threads = [1, 2], args = [10]),
            quote!(
                fn f(b: &mut Bencher, n: u64) {
                    b.iter_shared(|| n)
                }
            ),
        );
        assert_eq!(fn_names(&text), ["f::t1", "f::t2"]);
    }
}
