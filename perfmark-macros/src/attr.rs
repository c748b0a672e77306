//! The options of `#[perf_test(...)]` as written, parsed with
//! `syn::meta::parser` into one documented struct (divan's
//! `attr_options.rs`).
//!
//! This step checks the syntax only: which keys exist, that none is given
//! twice, and that each value is the right kind of token (a string, a float,
//! a list). Whether the value makes sense (a known unit, a level in range)
//! is `valid.rs`'s job. Every mistake is recorded in the [`Ctxt`] and the
//! parse carries on, so all of them are reported together.

use proc_macro2::{TokenStream, TokenTree};
use syn::parse::Parser;
use syn::{Expr, ExprArray, ExprLit, ExprUnary, Lit, LitFloat, LitStr, Path, UnOp};

use crate::ctxt::Ctxt;

/// `#[perf_test(...)]`'s options, each `None` when not given.
#[derive(Default)]
pub struct Attr {
    /// `budget = "50ns"`: a duration string, checked by `valid.rs`.
    pub budget: Option<LitStr>,
    /// `confidence = 0.95`: a float literal (a minus sign is kept so that the
    /// range check, not the parser, explains why it is wrong).
    pub confidence: Option<Confidence>,
    /// `regression = "5%"`: a percentage string, the tolerance beyond the
    /// stored baseline.
    pub regression: Option<LitStr>,
    /// `precision = "1%"`: a percentage string.
    pub precision: Option<LitStr>,
    /// `max_time = "2s"`: a duration string.
    pub max_time: Option<LitStr>,
    /// `warmup = "300ms"`: a duration string.
    pub warmup: Option<LitStr>,
    /// `args = [e1, e2, …]`: the array expression, elements as written.
    pub args: Option<ExprArray>,
    /// `ignore` or `ignore = "why"`.
    pub ignore: Option<IgnoreAttr>,
    /// Every key written, valid or not: validation then does not report an
    /// option as missing when it was given with a wrong value.
    pub written: Vec<Key>,
}

/// `confidence = <float literal>` as written.
pub struct Confidence {
    /// The literal (with its minus sign, if any), for error spans.
    pub expr: Expr,
    /// Its value.
    pub value: f64,
}

/// `ignore` as written.
pub enum IgnoreAttr {
    /// `ignore` alone.
    Flag,
    /// `ignore = "why"`.
    Reason(LitStr),
}

/// Every key `#[perf_test]` knows, including the ones not supported yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Budget,
    Confidence,
    Precision,
    MaxTime,
    Warmup,
    Args,
    Ignore,
    Regression,
    Allocs,
    Complexity,
    Measure,
}

/// The keys accepted today, in the order the documentation lists them.
const SUPPORTED: [Key; 8] = [
    Key::Budget,
    Key::Confidence,
    Key::Regression,
    Key::Precision,
    Key::MaxTime,
    Key::Warmup,
    Key::Args,
    Key::Ignore,
];

/// Keys of the contract (DESIGN.md §1) that a later release implements.
const LATER: [Key; 3] = [Key::Allocs, Key::Complexity, Key::Measure];

impl Key {
    /// The key as written in the attribute.
    pub fn name(self) -> &'static str {
        match self {
            Key::Budget => "budget",
            Key::Confidence => "confidence",
            Key::Precision => "precision",
            Key::MaxTime => "max_time",
            Key::Warmup => "warmup",
            Key::Args => "args",
            Key::Ignore => "ignore",
            Key::Regression => "regression",
            Key::Allocs => "allocs",
            Key::Complexity => "complexity",
            Key::Measure => "measure",
        }
    }

    /// What the option accepts, completing "expected …" in error messages.
    pub fn accepts(self) -> &'static str {
        match self {
            Key::Budget | Key::MaxTime => {
                "a positive duration string such as \"50ns\", \"1.5 us\", \"2ms\" or \"1s\" \
                 (units: ns, us, µs, ms, s)"
            }
            Key::Warmup => {
                "a duration string such as \"0s\", \"300ms\" or \"1.5 s\" (units: ns, us, µs, ms, s)"
            }
            Key::Confidence => "a float literal strictly between 0.5 and 1, such as 0.95 or 0.99",
            Key::Regression => {
                "a percentage string at least 0% and below 100%, such as \"5%\", \"2.5%\" or \"0%\""
            }
            Key::Precision => {
                "a percentage string above 0% and below 100%, such as \"1%\" or \"0.5%\""
            }
            Key::Args => "a list of arguments such as `args = [10, 100, 1000]`",
            Key::Ignore => "`ignore` alone or `ignore = \"reason\"`",
            Key::Allocs | Key::Complexity | Key::Measure => "nothing yet",
        }
    }

    /// For an option of the contract that is not implemented yet: what it
    /// waits for.
    fn not_supported_yet(self) -> Option<&'static str> {
        match self {
            Key::Allocs => Some("allocation counting comes with a later perfmark release"),
            Key::Complexity => Some("complexity checks come with a later perfmark release"),
            Key::Measure => Some("cpu-time measurement comes with a later perfmark release"),
            _ => None,
        }
    }

    fn from_path(path: &Path) -> Option<Key> {
        let ident = path.get_ident()?;
        SUPPORTED
            .into_iter()
            .chain(LATER)
            .find(|key| ident == key.name())
    }
}

/// The value part of one option, whatever its form.
enum Value {
    /// `key` alone.
    Flag,
    /// `key = <expression>`.
    Expr(Expr),
    /// `key(…)`: never accepted, kept for the error span.
    List(TokenTree),
}

impl Attr {
    /// Parses the attribute's tokens. Every mistake is recorded in `cx`; the
    /// options that were written correctly are returned either way.
    pub fn parse(cx: &Ctxt, tokens: TokenStream) -> Attr {
        let mut attr = Attr::default();
        let parser = syn::meta::parser(|meta| {
            // Consume the value first, whatever the key: the parse then goes
            // on to the next option even after an unknown or duplicate key.
            let value = if meta.input.peek(syn::Token![=]) {
                Value::Expr(meta.value()?.parse()?)
            } else if meta.input.peek(syn::token::Paren) {
                Value::List(meta.input.parse()?)
            } else {
                Value::Flag
            };
            let Some(key) = Key::from_path(&meta.path) else {
                cx.error_spanned_by(&meta.path, unknown_key_message(&meta.path));
                return Ok(());
            };
            if attr.written.contains(&key) {
                cx.error_spanned_by(
                    &meta.path,
                    format!(
                        "duplicate option `{}`: it is already given; keep one",
                        key.name()
                    ),
                );
                return Ok(());
            }
            attr.written.push(key);
            if let Some(reason) = key.not_supported_yet() {
                cx.error_spanned_by(
                    &meta.path,
                    format!("`{}` is not supported yet: {reason}; remove it", key.name()),
                );
                return Ok(());
            }
            let path = &meta.path;
            match key {
                Key::Budget => attr.budget = string_value(cx, key, path, value),
                Key::Regression => attr.regression = string_value(cx, key, path, value),
                Key::Precision => attr.precision = string_value(cx, key, path, value),
                Key::MaxTime => attr.max_time = string_value(cx, key, path, value),
                Key::Warmup => attr.warmup = string_value(cx, key, path, value),
                Key::Confidence => attr.confidence = confidence_value(cx, path, value),
                Key::Args => attr.args = args_value(cx, path, value),
                Key::Ignore => attr.ignore = ignore_value(cx, path, value),
                Key::Allocs | Key::Complexity | Key::Measure => {}
            }
            Ok(())
        });
        if let Err(error) = parser.parse2(tokens) {
            cx.syn_error(error);
        }
        attr
    }
}

/// Records the error for a value of the wrong form: a missing value is
/// reported on the key, a wrong one on the value.
fn wrong_value(cx: &Ctxt, key: Key, path: &Path, value: &Value) {
    match value {
        Value::Flag => cx.error_spanned_by(
            path,
            format!(
                "option `{}` needs a value: expected {}",
                key.name(),
                key.accepts()
            ),
        ),
        Value::Expr(expr) => cx.error_spanned_by(
            expr,
            format!(
                "invalid {} `{}`: expected {}",
                key.name(),
                tokens_text(expr),
                key.accepts()
            ),
        ),
        Value::List(list) => cx.error_spanned_by(
            list,
            format!(
                "invalid {}: write `{} = value`, not `{}(…)`; expected {}",
                key.name(),
                key.name(),
                key.name(),
                key.accepts()
            ),
        ),
    }
}

fn string_value(cx: &Ctxt, key: Key, path: &Path, value: Value) -> Option<LitStr> {
    match value {
        Value::Expr(Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        })) => Some(lit),
        other => {
            wrong_value(cx, key, path, &other);
            None
        }
    }
}

fn confidence_value(cx: &Ctxt, path: &Path, value: Value) -> Option<Confidence> {
    if let Value::Expr(expr) = &value {
        let float = match expr {
            Expr::Lit(ExprLit {
                lit: Lit::Float(lit),
                ..
            }) => float_value(lit),
            Expr::Unary(ExprUnary {
                op: UnOp::Neg(_),
                expr: inner,
                ..
            }) => match &**inner {
                Expr::Lit(ExprLit {
                    lit: Lit::Float(lit),
                    ..
                }) => float_value(lit).map(|v| -v),
                _ => None,
            },
            _ => None,
        };
        if let Some(value) = float {
            return Some(Confidence {
                expr: expr.clone(),
                value,
            });
        }
    }
    wrong_value(cx, Key::Confidence, path, &value);
    None
}

fn float_value(lit: &LitFloat) -> Option<f64> {
    lit.base10_parse::<f64>().ok()
}

fn args_value(cx: &Ctxt, path: &Path, value: Value) -> Option<ExprArray> {
    match value {
        Value::Expr(Expr::Array(array)) => Some(array),
        other => {
            wrong_value(cx, Key::Args, path, &other);
            None
        }
    }
}

fn ignore_value(cx: &Ctxt, path: &Path, value: Value) -> Option<IgnoreAttr> {
    match value {
        Value::Flag => Some(IgnoreAttr::Flag),
        Value::Expr(Expr::Lit(ExprLit {
            lit: Lit::Str(reason),
            ..
        })) => Some(IgnoreAttr::Reason(reason)),
        other => {
            wrong_value(cx, Key::Ignore, path, &other);
            None
        }
    }
}

fn unknown_key_message(path: &Path) -> String {
    let written = tokens_text(path);
    let accepted: Vec<&str> = SUPPORTED.iter().map(|key| key.name()).collect();
    let (last, rest) = accepted.split_last().expect("SUPPORTED is not empty");
    let mut message = format!(
        "unknown option `{written}`: accepted options are {} and {last}",
        rest.join(", ")
    );
    // A near miss is most likely a typo of an accepted key.
    let closest = SUPPORTED
        .iter()
        .map(|key| (edit_distance(&written, key.name()), key.name()))
        .min();
    if let Some((distance, name)) = closest {
        if distance <= 2 && distance < written.len() {
            message.push_str(&format!("; did you mean `{name}`?"));
        }
    }
    message
}

/// Levenshtein distance between two short strings, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// Tokens as a person would write them, for messages and test names: a space
/// only between two words (`&'static str`, `N * 2` as `N*2`) and after a
/// comma or semicolon (`vec![1, 2]`).
pub fn tokens_text<T: quote::ToTokens>(tokens: T) -> String {
    fn push(out: &mut String, stream: TokenStream, after_word: &mut bool) {
        for tree in stream {
            match tree {
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                        proc_macro2::Delimiter::Brace => ("{", "}"),
                        proc_macro2::Delimiter::Bracket => ("[", "]"),
                        proc_macro2::Delimiter::None => ("", ""),
                    };
                    out.push_str(open);
                    *after_word = false;
                    push(out, group.stream(), after_word);
                    out.push_str(close);
                    *after_word = false;
                }
                TokenTree::Ident(_) | TokenTree::Literal(_) => {
                    if *after_word {
                        out.push(' ');
                    }
                    out.push_str(&tree.to_string());
                    *after_word = true;
                }
                TokenTree::Punct(punct) => {
                    out.push(punct.as_char());
                    if matches!(punct.as_char(), ',' | ';') {
                        out.push(' ');
                    }
                    *after_word = false;
                }
            }
        }
    }
    let mut out = String::new();
    push(&mut out, tokens.into_token_stream(), &mut false);
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse(tokens: TokenStream) -> (Attr, Vec<String>) {
        let cx = Ctxt::new();
        let attr = Attr::parse(&cx, tokens);
        let errors = match cx.check() {
            Ok(()) => Vec::new(),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        };
        (attr, errors)
    }

    #[test]
    fn every_option_parses() {
        let (attr, errors) = parse(quote! {
            budget = "50ns", confidence = 0.99, regression = "2.5%", precision = "1%",
            max_time = "2s", warmup = "300ms", args = [1, -2, "x"], ignore = "slow"
        });
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(attr.budget.unwrap().value(), "50ns");
        assert_eq!(attr.confidence.unwrap().value, 0.99);
        assert_eq!(attr.regression.unwrap().value(), "2.5%");
        assert_eq!(attr.args.unwrap().elems.len(), 3);
        assert!(matches!(attr.ignore, Some(IgnoreAttr::Reason(r)) if r.value() == "slow"));
    }

    #[test]
    fn all_mistakes_are_collected() {
        let (attr, errors) = parse(quote! {
            budgte = "1ns", budget = 50, confidence = "0.9", warmup = "1s", warmup = "2s",
            regression = 5, measure = "cpu", ignore(x)
        });
        assert_eq!(errors.len(), 7, "{errors:?}");
        assert!(errors[0].starts_with("unknown option `budgte`: accepted options are budget,"));
        assert!(
            errors[0].ends_with("did you mean `budget`?"),
            "{}",
            errors[0]
        );
        assert!(errors[1].starts_with("invalid budget `50`: expected a positive duration"));
        assert!(errors[2].starts_with("invalid confidence `\"0.9\"`: expected a float literal"));
        assert_eq!(
            errors[3],
            "duplicate option `warmup`: it is already given; keep one"
        );
        assert!(errors[4].starts_with("invalid regression `5`: expected a percentage string"));
        assert!(errors[5].starts_with("`measure` is not supported yet"));
        assert!(errors[6].starts_with("invalid ignore: write `ignore = value`"));
        assert_eq!(attr.warmup.unwrap().value(), "1s");
        assert!(attr.regression.is_none());
    }

    #[test]
    fn regression_is_accepted_and_the_later_options_refused() {
        let (attr, errors) = parse(quote!(regression = "0%"));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(attr.regression.unwrap().value(), "0%");

        let (_, errors) = parse(quote!(regression));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("option `regression` needs a value: expected a percentage"));

        for later in [
            quote!(allocs = 0),
            quote!(complexity = "n"),
            quote!(measure = "cpu"),
        ] {
            let (_, errors) = parse(later.clone());
            assert_eq!(errors.len(), 1, "{later}: {errors:?}");
            assert!(errors[0].contains("is not supported yet"), "{errors:?}");
        }
    }

    #[test]
    fn unknown_keys_list_the_accepted_ones_and_near_misses() {
        let (_, errors) = parse(quote!(regresion = "5%"));
        assert_eq!(
            errors,
            [
                "unknown option `regresion`: accepted options are budget, confidence, \
                 regression, precision, max_time, warmup, args and ignore; did you mean \
                 `regression`?"
            ]
        );
    }

    #[test]
    fn negative_confidence_is_kept_for_the_range_check() {
        let (attr, errors) = parse(quote!(confidence = -0.3));
        assert!(errors.is_empty());
        assert_eq!(attr.confidence.unwrap().value, -0.3);
    }

    #[test]
    fn text_of_tokens() {
        assert_eq!(tokens_text(quote!(&'static str)), "&'static str");
        assert_eq!(tokens_text(quote!(vec![1, 2])), "vec![1, 2]");
        assert_eq!(tokens_text(quote!(-5)), "-5");
        assert_eq!(tokens_text(quote!(Size::Small)), "Size::Small");
        assert_eq!(tokens_text(quote!(N * 2)), "N*2");
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("budget", "budget"), 0);
        assert_eq!(edit_distance("budgte", "budget"), 2);
        assert_eq!(edit_distance("warm_up", "warmup"), 1);
        assert_eq!(edit_distance("", "args"), 4);
    }
}
