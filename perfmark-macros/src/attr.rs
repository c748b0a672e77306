//! The options of `#[perf_test(...)]` as written, parsed with
//! `syn::meta::parser` into one documented struct (divan's
//! `attr_options.rs`).
//!
//! This step checks the syntax only: which keys exist (the table of
//! `perfmark-options`), that none is given twice, and that each value is the
//! token form its option's kind takes (a string, a float, a list). Whether the value makes sense (a known unit, a level in range)
//! is `valid.rs`'s job. Every mistake is recorded in the [`Ctxt`] and the
//! parse carries on, so all of them are reported together.

use perfmark_options::{Key, Kind};
use proc_macro2::{Group, TokenStream, TokenTree};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::parse::discouraged::Speculative;
use syn::parse::{ParseStream, Parser};
use syn::{Expr, ExprArray, ExprLit, ExprUnary, Lit, LitFloat, LitInt, LitStr, Path, Type, UnOp};

use crate::ctxt::Ctxt;

/// `#[perf_test(...)]`'s options, each `None` (or absent) when not given.
/// Which keys exist, and the token form each takes, come from the table of
/// `perfmark-options`.
#[derive(Default)]
pub struct Attr {
    /// The options whose value the table checks (`budget = "50ns"`,
    /// `confidence = 0.95`, …), in the order written.
    pub values: Vec<(Key, Written)>,
    /// `args = [e1, e2, …]`: the array expression, elements as written.
    pub args: Option<ExprArray>,
    /// `types = [T1, T2, …]`: each element a type.
    pub types: Option<List<Type>>,
    /// `consts = [c1, c2, …]`: the array expression, elements as written.
    pub consts: Option<ExprArray>,
    /// `threads = [n1, n2, …]`, or `threads = n` taken as `[n]`: elements
    /// as written.
    pub threads: Option<List<Expr>>,
    /// `ignore` or `ignore = "why"`.
    pub ignore: Option<IgnoreAttr>,
    /// Every key written, valid or not: validation then does not report an
    /// option as missing when it was given with a wrong value.
    pub written: Vec<Key>,
    /// `crate = path`: the path to perfmark, for a crate that renamed its
    /// dependency.
    pub krate: Option<syn::Path>,
}

/// A value of the token form its option takes, not checked yet.
pub enum Written {
    /// A string literal: a duration, a percentage or a growth class.
    Str(LitStr),
    /// A float literal (a minus sign is kept so that the range check, not
    /// the parser, explains why it is wrong).
    Number {
        /// The literal, with its minus sign if any, for error spans.
        expr: Expr,
        /// Its value.
        value: f64,
    },
    /// An integer literal (`allocs = 0`), with its minus sign if any.
    Integer {
        /// The literal, with its minus sign if any, for error spans.
        expr: Expr,
        /// Its digits as written, minus sign included, suffix and
        /// underscores left out (`-1`, `1000` for `1_000u64`).
        digits: String,
    },
}

/// A list option as written, `key = [e1, e2, …]`.
pub struct List<T> {
    /// The option's key, for errors about the option as a whole.
    pub key: Path,
    /// The value as written (the brackets and what they hold), for errors
    /// about the list.
    pub tokens: TokenStream,
    /// The elements, in the order written.
    pub elems: Vec<T>,
}

/// `ignore` as written.
pub enum IgnoreAttr {
    /// `ignore` alone.
    Flag,
    /// `ignore = "why"`.
    Reason(LitStr),
}

/// The value part of one option, whatever its form.
enum Value {
    /// `key` alone.
    Flag,
    /// `key = <expression>`.
    Expr(Expr),
    /// `key(…)`: never accepted, kept for the error span.
    List(TokenTree),
    /// `key = [ … ]` for an option whose elements are not expressions
    /// (`types`): the bracketed group, its elements parsed by the option.
    Brackets(Group),
}

impl Attr {
    /// Parses the attribute's tokens. Every mistake is recorded in `cx`; the
    /// options that were written correctly are returned either way.
    pub fn parse(cx: &Ctxt, tokens: TokenStream) -> Attr {
        let mut attr = Attr::default();
        let parser = syn::meta::parser(|meta| {
            // Consume the value first, whatever the key: the parse then goes
            // on to the next option even after an unknown or duplicate key.
            let value = Value::parse(&meta, meta.path.is_ident("types"))?;
            if meta.path.is_ident("crate") {
                attr.set_crate(cx, &meta.path, value);
            } else if let Some(key) = attr.new_key(cx, &meta.path) {
                attr.set_value(cx, key, &meta.path, value);
            }
            Ok(())
        });
        if let Err(error) = parser.parse2(tokens) {
            cx.syn_error(error);
        }
        attr
    }

    /// Sets `crate = path` from `value`; records an error when it is given
    /// twice or is not a plain path.
    fn set_crate(&mut self, cx: &Ctxt, path: &Path, value: Value) {
        match value {
            _ if self.krate.is_some() => cx.error_spanned_by(
                path,
                "duplicate option `crate`: it is already given; keep one",
            ),
            Value::Expr(Expr::Path(p)) if p.qself.is_none() && p.attrs.is_empty() => {
                self.krate = Some(p.path);
            }
            _ => cx.error_spanned_by(
                path,
                "option `crate` takes the path perfmark is known by in this crate, \
                 such as `crate = pm` for `pm = { package = \"perfmark\", … }`",
            ),
        }
    }

    /// The option `path` names, recorded as written; `None`, with the error
    /// recorded, when it is unknown or already given.
    fn new_key(&mut self, cx: &Ctxt, path: &Path) -> Option<Key> {
        let Some(key) = path
            .get_ident()
            .and_then(|i| Key::from_name(&i.to_string()))
        else {
            let message = perfmark_options::unknown_option_message(&tokens_text(path));
            cx.error_spanned_by(path, message);
            return None;
        };
        if self.written.contains(&key) {
            cx.error_spanned_by(
                path,
                format!(
                    "duplicate option `{}`: it is already given; keep one",
                    key.name()
                ),
            );
            return None;
        }
        self.written.push(key);
        Some(key)
    }

    /// Keeps `value` for `key` when it is of the token form `key`'s kind
    /// takes; records an error otherwise.
    fn set_value(&mut self, cx: &Ctxt, key: Key, path: &Path, value: Value) {
        match key.spec().kind {
            Kind::Duration(_)
            | Kind::WholeDuration(_)
            | Kind::Percent(_)
            | Kind::Clock
            | Kind::Growth => {
                if let Some(lit) = string_value(cx, key, path, value) {
                    self.values.push((key, Written::Str(lit)));
                }
            }
            Kind::Level(_) => {
                if let Some(number) = number_value(cx, key, path, value) {
                    self.values.push((key, number));
                }
            }
            Kind::Count(_) => {
                if let Some(integer) = integer_value(cx, key, path, value) {
                    self.values.push((key, integer));
                }
            }
            Kind::ScaledCount(_) => {
                let written = match value {
                    Value::Expr(Expr::Lit(ExprLit {
                        lit: Lit::Str(lit), ..
                    })) => Some(Written::Str(lit)),
                    other => integer_value(cx, key, path, other),
                };
                if let Some(written) = written {
                    self.values.push((key, written));
                }
            }
            Kind::List => self.args = array_value(cx, key, path, value),
            Kind::Consts => self.consts = array_value(cx, key, path, value),
            Kind::Types => self.types = types_value(cx, path, value),
            Kind::Threads(_) => self.threads = threads_value(cx, path, value),
            Kind::FlagOrText => self.ignore = ignore_value(cx, path, value),
        }
    }
}

impl Value {
    /// Consumes the value part of the option `meta` is at, whatever its form.
    /// With `brackets`, a value in brackets is kept as tokens (its elements
    /// are types, which an expression cannot hold), and any other is parsed
    /// as a type (so that `types = Vec<u8>` is not a parse error of its own).
    fn parse(meta: &ParseNestedMeta<'_>, brackets: bool) -> syn::Result<Value> {
        Ok(if meta.input.peek(syn::Token![=]) {
            let input = meta.value()?;
            if brackets && input.peek(syn::token::Bracket) {
                match input.parse()? {
                    TokenTree::Group(group) => Value::Brackets(group),
                    _ => unreachable!("a bracket was peeked"),
                }
            } else if brackets {
                let fork = input.fork();
                match fork.parse::<Type>() {
                    Ok(ty) if fork.is_empty() || fork.peek(syn::Token![,]) => {
                        input.advance_to(&fork);
                        Value::Expr(Expr::Verbatim(ty.into_token_stream()))
                    }
                    _ => Value::Expr(input.parse()?),
                }
            } else {
                Value::Expr(input.parse()?)
            }
        } else if meta.input.peek(syn::token::Paren) {
            Value::List(meta.input.parse()?)
        } else {
            Value::Flag
        })
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
        Value::Brackets(group) => cx.error_spanned_by(
            group,
            format!(
                "invalid {} `{}`: expected {}",
                key.name(),
                tokens_text(group),
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

fn number_value(cx: &Ctxt, key: Key, path: &Path, value: Value) -> Option<Written> {
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
            return Some(Written::Number {
                expr: expr.clone(),
                value,
            });
        }
    }
    wrong_value(cx, key, path, &value);
    None
}

/// An integer literal, minus sign allowed (so that the range check, not
/// the parser, says a count cannot be negative).
fn integer_value(cx: &Ctxt, key: Key, path: &Path, value: Value) -> Option<Written> {
    if let Value::Expr(expr) = &value {
        if let Some(digits) = integer_text(expr) {
            return Some(Written::Integer {
                expr: expr.clone(),
                digits,
            });
        }
    }
    wrong_value(cx, key, path, &value);
    None
}

fn int_digits(lit: &LitInt) -> String {
    lit.base10_digits().to_owned()
}

fn float_value(lit: &LitFloat) -> Option<f64> {
    lit.base10_parse::<f64>().ok()
}

/// The list `key = [e1, e2, …]` of expressions (`args`, `consts`).
fn array_value(cx: &Ctxt, key: Key, path: &Path, value: Value) -> Option<ExprArray> {
    match value {
        Value::Expr(Expr::Array(array)) => Some(array),
        other => {
            wrong_value(cx, key, path, &other);
            None
        }
    }
}

/// `types = [T1, T2, …]`: each element is parsed as a type; one that is
/// not is reported and the list refused (its other elements still checked).
fn types_value(cx: &Ctxt, path: &Path, value: Value) -> Option<List<Type>> {
    let Value::Brackets(group) = value else {
        wrong_value(cx, Key::Types, path, &value);
        return None;
    };
    let mut ok = true;
    let parser = |input: ParseStream<'_>| {
        let mut elems = Vec::new();
        while !input.is_empty() {
            let fork = input.fork();
            let at_element_end =
                |stream: ParseStream<'_>| stream.is_empty() || stream.peek(syn::Token![,]);
            match fork.parse::<Type>() {
                Ok(ty) if at_element_end(&fork) => {
                    input.advance_to(&fork);
                    elems.push(ty);
                }
                _ => {
                    let written = skip_element(input)?;
                    cx.error_spanned_by(
                        &written,
                        format!(
                            "invalid types element `{}`: expected a type, such as `u32`, \
                             `String` or `Vec<u8>`",
                            tokens_text(&written)
                        ),
                    );
                    ok = false;
                }
            }
            if !input.is_empty() {
                input.parse::<syn::Token![,]>()?;
            }
        }
        Ok(elems)
    };
    match parser.parse2(group.stream()) {
        Ok(elems) if ok => Some(List {
            key: path.clone(),
            tokens: group.into_token_stream(),
            elems,
        }),
        Ok(_) => None,
        Err(error) => {
            cx.syn_error(error);
            None
        }
    }
}

/// Consumes the tokens of one list element, up to the next comma outside
/// any group, and returns them.
fn skip_element(input: ParseStream<'_>) -> syn::Result<TokenStream> {
    input.step(|cursor| {
        let mut rest = *cursor;
        let mut written = TokenStream::new();
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, TokenTree::Punct(p) if p.as_char() == ',') {
                break;
            }
            written.extend([tree]);
            rest = next;
        }
        Ok((written, rest))
    })
}

/// `threads = [n1, n2, …]`, or one integer literal alone, taken as a list
/// of one (its elements are checked by validation).
fn threads_value(cx: &Ctxt, path: &Path, value: Value) -> Option<List<Expr>> {
    let list = |tokens: TokenStream, elems| List {
        key: path.clone(),
        tokens,
        elems,
    };
    match value {
        Value::Expr(Expr::Array(array)) => {
            let tokens = array.to_token_stream();
            Some(list(tokens, array.elems.into_iter().collect()))
        }
        Value::Expr(expr) if integer_text(&expr).is_some() => {
            Some(list(expr.to_token_stream(), vec![expr]))
        }
        other => {
            wrong_value(cx, Key::Threads, path, &other);
            None
        }
    }
}

/// The digits of an integer literal, minus sign included (`-1`, `1000`
/// for `1_000u64`); `None` for anything else.
pub fn integer_text(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(lit), ..
        }) => Some(int_digits(lit)),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(ExprLit {
                lit: Lit::Int(lit), ..
            }) => Some(format!("-{}", int_digits(lit))),
            _ => None,
        },
        _ => None,
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

    /// The string literal written for `key`, if any.
    fn string(attr: &Attr, key: Key) -> Option<String> {
        attr.values.iter().find_map(|(k, written)| match written {
            Written::Str(lit) if *k == key => Some(lit.value()),
            _ => None,
        })
    }

    /// The float literal written for `key`, if any.
    fn number(attr: &Attr, key: Key) -> Option<f64> {
        attr.values.iter().find_map(|(k, written)| match written {
            Written::Number { value, .. } if *k == key => Some(*value),
            _ => None,
        })
    }

    #[test]
    fn every_option_parses() {
        let (attr, errors) = parse(quote! {
            budget = "50ns", confidence = 0.99, regression = "2.5%", precision = "1%",
            max_time = "2s", warmup = "300ms", args = [1, -2, "x"], ignore = "slow"
        });
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(string(&attr, Key::Budget).as_deref(), Some("50ns"));
        assert_eq!(number(&attr, Key::Confidence), Some(0.99));
        assert_eq!(string(&attr, Key::Regression).as_deref(), Some("2.5%"));
        assert_eq!(string(&attr, Key::Warmup).as_deref(), Some("300ms"));
        assert_eq!(attr.values.len(), 6);
        assert_eq!(attr.args.unwrap().elems.len(), 3);
        assert!(matches!(attr.ignore, Some(IgnoreAttr::Reason(r)) if r.value() == "slow"));
    }

    #[test]
    fn all_mistakes_are_collected() {
        let (attr, errors) = parse(quote! {
            budgte = "1ns", budget = 50, confidence = "0.9", warmup = "1s", warmup = "2s",
            regression = 5, measure = cpu, ignore(x)
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
        assert!(errors[5].starts_with("invalid measure `cpu`: expected \"wall\""));
        assert!(errors[6].starts_with("invalid ignore: write `ignore = value`"));
        assert_eq!(string(&attr, Key::Warmup).as_deref(), Some("1s"));
        assert!(string(&attr, Key::Regression).is_none());
    }

    #[test]
    fn regression_is_accepted() {
        let (attr, errors) = parse(quote!(regression = "0%"));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(string(&attr, Key::Regression).as_deref(), Some("0%"));

        let (_, errors) = parse(quote!(regression));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("option `regression` needs a value: expected a percentage"));
    }

    #[test]
    fn allocs_takes_an_integer_and_measure_a_string() {
        let (attr, errors) = parse(quote!(allocs = 0, measure = "cpu"));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(string(&attr, Key::Measure).as_deref(), Some("cpu"));
        let digits = |attr: &Attr| {
            attr.values.iter().find_map(|(k, written)| match written {
                Written::Integer { digits, .. } if *k == Key::Allocs => Some(digits.clone()),
                _ => None,
            })
        };
        assert_eq!(digits(&attr).as_deref(), Some("0"));
        let (attr, errors) = parse(quote!(allocs = -1_000u64));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(digits(&attr).as_deref(), Some("-1000"));

        let (_, errors) = parse(quote!(allocs = "0", measure = cpu));
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("invalid allocs `\"0\"`: expected a whole number"));
        assert!(errors[1].starts_with("invalid measure `cpu`: expected \"wall\""));
        let (_, errors) = parse(quote!(allocs = 1.5));
        assert!(errors[0].starts_with("invalid allocs `1.5`: expected a whole number"));
    }

    #[test]
    fn complexity_is_a_string() {
        let (attr, errors) = parse(quote!(complexity = "O(n log n)", args = [1, 2, 3, 4]));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            string(&attr, Key::Complexity).as_deref(),
            Some("O(n log n)")
        );
        let (_, errors) = parse(quote!(complexity = n));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("invalid complexity `n`: expected a growth class string"),
            "{errors:?}"
        );
    }

    #[test]
    fn unknown_keys_list_the_accepted_ones_and_near_misses() {
        let (_, errors) = parse(quote!(regresion = "5%"));
        assert_eq!(
            errors,
            [
                "unknown option `regresion`: accepted options are budget, confidence, \
                 regression, precision, max_time, warmup, args, types, consts, threads, ignore, \
                 allocs, instructions, count_regression, complexity, measure and crate; did \
                 you mean `regression`?"
            ]
        );
    }

    #[test]
    fn negative_confidence_is_kept_for_the_range_check() {
        let (attr, errors) = parse(quote!(confidence = -0.3));
        assert!(errors.is_empty());
        assert_eq!(number(&attr, Key::Confidence), Some(-0.3));
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
    fn instructions_take_an_integer_or_a_string() {
        let (attr, errors) = parse(quote!(instructions = 2000));
        assert!(errors.is_empty(), "{errors:?}");
        assert!(matches!(
            &attr.values[..],
            [(Key::Instructions, Written::Integer { digits, .. })] if digits == "2000"
        ));
        let (attr, errors) = parse(quote!(instructions = "1.5M"));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(string(&attr, Key::Instructions).as_deref(), Some("1.5M"));
        let (_, errors) = parse(quote!(instructions = 1.5));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("invalid instructions `1.5`: expected a whole number"));
    }

    #[test]
    fn crate_takes_a_path_once() {
        let (attr, errors) = parse(quote!(crate = pm, budget = "1us"));
        assert!(errors.is_empty(), "{errors:?}");
        let path = attr.krate.expect("a path");
        assert!(path.is_ident("pm"));
        let (attr, errors) = parse(quote!(crate = ::my::perfmark));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(tokens_text(attr.krate.unwrap()), "::my::perfmark");
        let (_, errors) = parse(quote!(crate = "pm"));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("option `crate` takes the path perfmark is known by"));
        let (_, errors) = parse(quote!(crate = pm, crate = pm));
        assert!(
            errors[0].starts_with("duplicate option `crate`"),
            "{errors:?}"
        );
    }
}
