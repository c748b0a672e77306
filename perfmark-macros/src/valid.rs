//! Judges the parsed attribute and function and turns them into a [`Test`]:
//! the only input generation accepts. Every mistake is recorded in the
//! [`Ctxt`], so one build reports all of them.

use syn::{Expr, ExprArray, ExprLit, ExprUnary, ItemFn, Lit, LitStr, ReturnType, Type, UnOp};

use crate::ast::{Function, Param, ParamKind, Primitive};
use crate::attr::{tokens_text, Attr, IgnoreAttr, Key};
use crate::ctxt::Ctxt;
use crate::units::{parse_duration_ns, parse_percent, UnitError};

/// A perf test that passed every check.
pub struct Test<'a> {
    /// The function, emitted unchanged.
    pub func: &'a ItemFn,
    /// The options, in the runtime's units.
    pub options: Options,
    /// How the generated body calls the function.
    pub shape: Shape<'a>,
}

/// The validated options, in the units of the runtime's `TestOptions`.
#[derive(Default)]
pub struct Options {
    /// Limit on the time per iteration, in nanoseconds: finite and > 0.
    pub budget_ns: Option<f64>,
    /// Confidence level, strictly in (0.5, 1).
    pub confidence: Option<f64>,
    /// Tolerance beyond the stored baseline as a fraction, in [0, 1).
    pub regression: Option<f64>,
    /// Target relative half-width of the CI as a fraction, in (0, 1).
    pub precision: Option<f64>,
    /// Cap on the measurement time, in nanoseconds: ≥ 1.
    pub max_time_ns: Option<u64>,
    /// Warm-up time, in nanoseconds (0 allowed).
    pub warmup_ns: Option<u64>,
    /// `ignore` as given.
    pub ignore: Ignore,
}

/// Whether the test is ignored.
#[derive(Default)]
pub enum Ignore {
    /// Not ignored.
    #[default]
    No,
    /// `ignore`.
    Yes,
    /// `ignore = "why"`.
    Because(LitStr),
}

/// The accepted function shapes (DESIGN.md §1).
pub enum Shape<'a> {
    /// `fn f()` / `fn f() -> T`: the body is one iteration.
    Iter,
    /// `fn f(b: &mut Bencher)`: `ty` is the declared bencher type.
    Bencher {
        /// The bencher parameter's type, for the span of a type mismatch.
        ty: &'a Type,
    },
    /// `fn f(n: T)` or `fn f(b: &mut Bencher, n: T)` with `args`.
    Args {
        /// Whether the function takes the bencher first.
        bencher: bool,
        /// `T`, the argument's declared type.
        ty: &'a Type,
        /// One per test, in the order written.
        args: Vec<Arg<'a>>,
    },
}

/// One element of `args`.
pub struct Arg<'a> {
    /// The element as written.
    pub expr: &'a Expr,
    /// The name it adds to the test's (`fib::10`): the element as written,
    /// string literals without their quotes.
    pub name: String,
    /// The element's value when it is a number literal (minus sign allowed).
    pub value: Option<f64>,
    /// A string literal given to a `String` parameter: converted with
    /// `From::from`, as a `String` has no literal of its own.
    pub into_string: bool,
}

/// Checks everything; `None` when anything is wrong (the reasons are in `cx`).
pub fn validate<'a>(cx: &Ctxt, attr: &'a Attr, function: &Function<'a>) -> Option<Test<'a>> {
    let options = check_options(cx, attr);
    check_signature(cx, function);
    let args = match &attr.args {
        Some(array) => Args::Given(array),
        None if attr.written.contains(&Key::Args) => Args::Invalid,
        None => Args::Absent,
    };
    let shape = check_shape(cx, args, function);
    Some(Test {
        func: function.item,
        options: options?,
        shape: shape?,
    })
}

fn check_options(cx: &Ctxt, attr: &Attr) -> Option<Options> {
    let mut ok = true;
    let budget_ns = given(
        &mut ok,
        attr.budget
            .as_ref()
            .map(|lit| positive_duration_ns(cx, Key::Budget, lit)),
    );
    let max_time_ns = given(
        &mut ok,
        attr.max_time.as_ref().map(|lit| {
            let ns = positive_duration_ns(cx, Key::MaxTime, lit)?;
            whole_ns(cx, Key::MaxTime, lit, ns)
        }),
    );
    let warmup_ns = given(
        &mut ok,
        attr.warmup.as_ref().map(|lit| {
            let ns = duration_ns(cx, Key::Warmup, lit)?;
            whole_ns(cx, Key::Warmup, lit, ns)
        }),
    );
    let regression = given(
        &mut ok,
        attr.regression
            .as_ref()
            .map(|lit| regression_fraction(cx, lit)),
    );
    let precision = given(
        &mut ok,
        attr.precision
            .as_ref()
            .map(|lit| precision_fraction(cx, lit)),
    );
    let confidence = given(
        &mut ok,
        attr.confidence.as_ref().map(|c| {
            if c.value > 0.5 && c.value < 1.0 {
                return Some(c.value);
            }
            cx.error_spanned_by(
                &c.expr,
                format!(
                    "confidence `{}` is out of range: expected {}",
                    tokens_text(&c.expr),
                    Key::Confidence.accepts()
                ),
            );
            None
        }),
    );
    let ignore = match &attr.ignore {
        None => Ignore::No,
        Some(IgnoreAttr::Flag) => Ignore::Yes,
        Some(IgnoreAttr::Reason(reason)) => Ignore::Because(reason.clone()),
    };
    let options = Options {
        budget_ns,
        confidence,
        regression,
        precision,
        max_time_ns,
        warmup_ns,
        ignore,
    };
    ok.then_some(options)
}

/// The value of an option that may be absent (`None`) or given and checked
/// (`Some(checked)`); a failed check clears `ok`.
fn given<T>(ok: &mut bool, option: Option<Option<T>>) -> Option<T> {
    match option {
        Some(None) => {
            *ok = false;
            None
        }
        Some(checked) => checked,
        None => None,
    }
}

/// A duration in nanoseconds, ≥ 0.
fn duration_ns(cx: &Ctxt, key: Key, lit: &LitStr) -> Option<f64> {
    let text = lit.value();
    let why = match parse_duration_ns(&text) {
        Ok(ns) => return Some(ns),
        Err(UnitError::Syntax) => String::new(),
        Err(UnitError::Negative) => "a duration cannot be negative; ".to_owned(),
        Err(UnitError::TooLarge) => "that is too long; ".to_owned(),
    };
    cx.error_spanned_by(
        lit,
        format!(
            "invalid {} `{text}`: {why}expected {}",
            key.name(),
            key.accepts()
        ),
    );
    None
}

/// A duration in nanoseconds, > 0.
fn positive_duration_ns(cx: &Ctxt, key: Key, lit: &LitStr) -> Option<f64> {
    let ns = duration_ns(cx, key, lit)?;
    if ns > 0.0 {
        return Some(ns);
    }
    cx.error_spanned_by(
        lit,
        format!(
            "invalid {} `{}`: it must be greater than zero; expected {}",
            key.name(),
            lit.value(),
            key.accepts()
        ),
    );
    None
}

/// `ns` rounded to whole nanoseconds, as the runtime stores caps; a positive
/// duration that rounds to zero is refused.
fn whole_ns(cx: &Ctxt, key: Key, lit: &LitStr, ns: f64) -> Option<u64> {
    let whole = ns.round();
    // u64::MAX as f64 rounds up to 2^64, so `<` keeps the cast exact.
    let why = if whole >= u64::MAX as f64 {
        "that is too long"
    } else if whole == 0.0 && ns > 0.0 {
        "it rounds to 0 ns; give at least 1ns"
    } else {
        return Some(whole as u64);
    };
    cx.error_spanned_by(
        lit,
        format!(
            "invalid {} `{}`: {why}; expected {}",
            key.name(),
            lit.value(),
            key.accepts()
        ),
    );
    None
}

fn precision_fraction(cx: &Ctxt, lit: &LitStr) -> Option<f64> {
    let text = lit.value();
    let why = match parse_percent(&text) {
        Ok(percent) if percent > 0.0 && percent < 100.0 => return Some(percent / 100.0),
        Ok(percent) if percent <= 0.0 => "a precision of 0% can never be reached; ",
        Ok(_) => "a precision of 100% or more says nothing; ",
        Err(UnitError::Negative) => "a precision cannot be negative; ",
        Err(UnitError::Syntax | UnitError::TooLarge) => "",
    };
    cx.error_spanned_by(
        lit,
        format!(
            "invalid precision `{text}`: {why}expected {}",
            Key::Precision.accepts()
        ),
    );
    None
}

/// The regression tolerance as a fraction (`"5%"` is `0.05`), in [0, 1).
///
/// `0%` is allowed: any statistically significant slowdown then fails. 100%
/// and more are refused: the verdict compares the point ratio new/baseline
/// with `1 + tolerance` (docs/regression-rule.md), so such a tolerance would
/// pass a test that became twice as slow, which no one means by it.
fn regression_fraction(cx: &Ctxt, lit: &LitStr) -> Option<f64> {
    let text = lit.value();
    let why = match parse_percent(&text) {
        Ok(percent) if percent < 100.0 => return Some(percent / 100.0),
        Ok(_) => "a tolerance of 100% or more would pass a test that became twice as slow; ",
        Err(UnitError::Negative) => "a tolerance cannot be negative; ",
        Err(UnitError::Syntax | UnitError::TooLarge) => "",
    };
    cx.error_spanned_by(
        lit,
        format!(
            "invalid regression `{text}`: {why}expected {}",
            Key::Regression.accepts()
        ),
    );
    None
}

/// Refuses the signature's modifiers that perfmark cannot call.
fn check_signature(cx: &Ctxt, function: &Function<'_>) {
    let sig = &function.item.sig;
    // `const fn` is accepted: called at run time, as here, it is an ordinary
    // call, and its result goes through `black_box` like any other; refusing
    // it would only make users remove a qualifier that changes nothing.
    if let Some(token) = &sig.asyncness {
        cx.error_spanned_by(
            token,
            "`async fn` cannot be a perf test: perfmark times synchronous code; make it a plain \
             `fn` and run the future to completion inside the timed routine",
        );
    }
    if let Some(token) = &sig.unsafety {
        cx.error_spanned_by(
            token,
            "`unsafe fn` cannot be a perf test: perfmark cannot uphold its safety contract; make \
             it a safe `fn` with an `unsafe` block inside",
        );
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(
            abi,
            "an `extern` function cannot be a perf test: remove the ABI, perfmark calls it as a \
             Rust `fn`",
        );
    }
    if !sig.generics.params.is_empty() {
        let only_lifetimes = sig
            .generics
            .params
            .iter()
            .all(|p| matches!(p, syn::GenericParam::Lifetime(_)));
        let message = if only_lifetimes {
            "a perf test cannot have lifetime parameters: remove them and use elided or `'static` \
             lifetimes"
        } else {
            "a perf test cannot be generic: perfmark has no way to choose the generic parameters; \
             remove them and use concrete types (one `#[perf_test]` per type)"
        };
        cx.error_spanned_by(&sig.generics, message);
    }
    if let Some(variadic) = &sig.variadic {
        cx.error_spanned_by(variadic, "a perf test cannot be variadic: remove the `...`");
    }
    if let Some(receiver) = function.receiver {
        cx.error_spanned_by(
            receiver,
            "a perf test cannot be a method: remove the `self` parameter and make it a free \
             function outside the `impl` block",
        );
    }
}

/// `args` as far as the shape is concerned.
#[derive(Clone, Copy)]
enum Args<'a> {
    /// Not written.
    Absent,
    /// Written with a wrong value, already reported: the shape check must
    /// not add "no values" on top.
    Invalid,
    /// Written as a list.
    Given(&'a ExprArray),
}

/// Matches the parameters against the accepted shapes.
fn check_shape<'a>(cx: &Ctxt, args: Args<'a>, function: &Function<'a>) -> Option<Shape<'a>> {
    let mut ok = true;
    let mut params = function.params.iter().peekable();
    for param in &function.params {
        if param.kind == ParamKind::ImplTrait {
            cx.error_spanned_by(
                param.ty,
                "a perf test cannot be generic, and an `impl Trait` parameter is a generic one: \
                 use a concrete type",
            );
            ok = false;
        }
    }
    // The bencher comes first when there is one.
    let bencher = match params.peek().map(|p| p.kind) {
        Some(ParamKind::MutRef) => params.next(),
        Some(ParamKind::BencherNotMut) => {
            let param = params.next().expect("peeked");
            cx.error_spanned_by(
                param.ty,
                format!(
                    "take the bencher as `{}: &mut Bencher`: it is lent mutably for the test",
                    param.name()
                ),
            );
            ok = false;
            Some(param)
        }
        _ => None,
    };
    let value = params.next();
    for extra in params {
        cx.error_spanned_by(
            extra.typed,
            format!(
                "unexpected parameter `{}`: a perf test takes at most a bencher `b: &mut Bencher` \
                 and then one argument given by `args = [...]`",
                extra.name()
            ),
        );
        ok = false;
    }
    if let (Some(_), ReturnType::Type(_, ty)) = (bencher, &function.item.sig.output) {
        cx.error_spanned_by(
            ty,
            "a perf test that takes the bencher returns nothing: hand the timed routine's result \
             to the bencher (`b.iter(|| …)`) and remove the return type",
        );
        ok = false;
    }
    let ident = &function.item.sig.ident;
    let shape = match (value, args) {
        (_, Args::Invalid) => return None,
        (None, Args::Absent) => match bencher {
            Some(param) => Shape::Bencher { ty: param.ty },
            None => Shape::Iter,
        },
        (Some(param), Args::Absent) => {
            cx.error_spanned_by(
                param.typed,
                format!(
                    "parameter `{}` has no values: list them with `args`, as in \
                     `#[perf_test(args = [10, 100])]`, or remove the parameter",
                    param.name()
                ),
            );
            return None;
        }
        (None, Args::Given(array)) => {
            cx.error_spanned_by(
                array,
                format!(
                    "`args` is given but `{ident}` has no parameter to take them: add one, as in \
                     `fn {ident}(n: u64)` or `fn {ident}(b: &mut Bencher, n: u64)`"
                ),
            );
            return None;
        }
        (Some(param), Args::Given(array)) => Shape::Args {
            bencher: bencher.is_some(),
            ty: param.ty,
            args: check_args(cx, array, param, ident)?,
        },
    };
    ok.then_some(shape)
}

/// Names each `args` element and checks its literal kind against the
/// parameter's type; duplicates are refused because they would give two
/// tests the same name.
fn check_args<'a>(
    cx: &Ctxt,
    array: &'a ExprArray,
    param: &Param<'_>,
    ident: &syn::Ident,
) -> Option<Vec<Arg<'a>>> {
    if array.elems.is_empty() {
        cx.error_spanned_by(
            array,
            "`args` is empty: give at least one argument, as in `args = [10, 100]`",
        );
        return None;
    }
    let mut ok = true;
    let mut args: Vec<Arg<'a>> = Vec::new();
    for expr in &array.elems {
        let literal = LiteralKind::of(expr);
        if let (ParamKind::Value(Some(primitive)), Some(literal)) = (param.kind, literal) {
            if let Some(expected) = mismatch(primitive, literal, expr) {
                cx.error_spanned_by(
                    expr,
                    format!(
                        "argument `{}` does not fit parameter `{}: {}`: expected {expected}, \
                         found {}",
                        tokens_text(expr),
                        param.name(),
                        tokens_text(param.ty),
                        literal.describe()
                    ),
                );
                ok = false;
                continue;
            }
        }
        let name = match expr {
            Expr::Lit(ExprLit {
                lit: Lit::Str(lit), ..
            }) => lit.value(),
            _ => tokens_text(expr),
        };
        if args.iter().any(|arg| arg.name == name) {
            cx.error_spanned_by(
                expr,
                format!(
                    "duplicate argument `{name}`: each argument names a test (`{ident}::{name}`), \
                     so each must be different"
                ),
            );
            ok = false;
            continue;
        }
        let into_string = param.kind == ParamKind::Value(Some(Primitive::String))
            && literal == Some(LiteralKind::Str);
        args.push(Arg {
            expr,
            name,
            value: number_value(expr),
            into_string,
        });
    }
    ok.then_some(args)
}

/// The kind of a literal `args` element (a leading minus sign included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LiteralKind {
    Int { negative: bool },
    Float,
    Str,
    ByteStr,
    CStr,
    Byte,
    Char,
    Bool,
}

impl LiteralKind {
    fn of(expr: &Expr) -> Option<LiteralKind> {
        match expr {
            Expr::Lit(ExprLit { lit, .. }) => Some(match lit {
                Lit::Int(_) => LiteralKind::Int { negative: false },
                Lit::Float(_) => LiteralKind::Float,
                Lit::Str(_) => LiteralKind::Str,
                Lit::ByteStr(_) => LiteralKind::ByteStr,
                Lit::CStr(_) => LiteralKind::CStr,
                Lit::Byte(_) => LiteralKind::Byte,
                Lit::Char(_) => LiteralKind::Char,
                Lit::Bool(_) => LiteralKind::Bool,
                _ => return None,
            }),
            Expr::Unary(ExprUnary {
                op: UnOp::Neg(_),
                expr,
                ..
            }) => match LiteralKind::of(expr)? {
                LiteralKind::Int { negative: false } => Some(LiteralKind::Int { negative: true }),
                LiteralKind::Float => Some(LiteralKind::Float),
                _ => None,
            },
            _ => None,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            LiteralKind::Int { negative: false } => "an integer literal",
            LiteralKind::Int { negative: true } => "a negative integer literal",
            LiteralKind::Float => "a float literal",
            LiteralKind::Str => "a string literal",
            LiteralKind::ByteStr => "a byte string literal",
            LiteralKind::CStr => "a C string literal",
            LiteralKind::Byte => "a byte literal",
            LiteralKind::Char => "a character literal",
            LiteralKind::Bool => "a boolean literal",
        }
    }
}

/// What `primitive` expects when the literal `expr` (of kind `literal`)
/// cannot be one; `None` when it fits.
fn mismatch(primitive: Primitive, literal: LiteralKind, expr: &Expr) -> Option<String> {
    use LiteralKind as L;
    let fits = match primitive {
        Primitive::SignedInt => matches!(literal, L::Int { .. }),
        Primitive::UnsignedInt => literal == L::Int { negative: false },
        Primitive::Float => literal == L::Float,
        Primitive::Bool => literal == L::Bool,
        Primitive::Char => literal == L::Char,
        Primitive::Str | Primitive::String => literal == L::Str,
    };
    if fits {
        return None;
    }
    Some(match (primitive, literal) {
        (Primitive::SignedInt, _) => "an integer literal such as 10 or -10".to_owned(),
        (Primitive::UnsignedInt, _) => "a non-negative integer literal such as 10".to_owned(),
        (Primitive::Float, L::Int { .. }) => match number_value(expr) {
            Some(value) => format!("a float literal such as `{value:.1}`"),
            None => "a float literal such as 1.5".to_owned(),
        },
        (Primitive::Float, _) => "a float literal such as 1.5".to_owned(),
        (Primitive::Bool, _) => "`true` or `false`".to_owned(),
        (Primitive::Char, _) => "a character literal such as 'a'".to_owned(),
        (Primitive::Str | Primitive::String, _) => "a string literal such as \"abc\"".to_owned(),
    })
}

/// The value of a number literal element, negative ones included.
fn number_value(expr: &Expr) -> Option<f64> {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(lit), ..
        }) => lit.base10_digits().parse().ok(),
        Expr::Lit(ExprLit {
            lit: Lit::Float(lit),
            ..
        }) => lit.base10_digits().parse().ok(),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => number_value(expr).map(|v| -v),
        _ => None,
    }
    .filter(|v: &f64| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Span;

    /// The regression fraction of `text`, or the error messages.
    fn regression(text: &str) -> Result<f64, Vec<String>> {
        let cx = Ctxt::new();
        let fraction = regression_fraction(&cx, &LitStr::new(text, Span::call_site()));
        match cx.check() {
            Ok(()) => Ok(fraction.expect("no error, so a value")),
            Err(error) => {
                assert!(fraction.is_none(), "{text:?}: an error and a value");
                Err(error.into_iter().map(|e| e.to_string()).collect())
            }
        }
    }

    #[test]
    fn regression_percentages_become_fractions() {
        assert_eq!(regression("5%"), Ok(0.05));
        assert_eq!(regression("2.5%"), Ok(0.025));
        assert_eq!(regression("2.5 %"), Ok(0.025));
        assert_eq!(regression("0%"), Ok(0.0));
        assert_eq!(regression("99.5%"), Ok(99.5 / 100.0));
    }

    #[test]
    fn regression_out_of_range_or_malformed_is_refused() {
        let accepts = Key::Regression.accepts();
        let cases = [
            (
                "150%",
                "a tolerance of 100% or more would pass a test that became twice as slow; ",
            ),
            (
                "100%",
                "a tolerance of 100% or more would pass a test that became twice as slow; ",
            ),
            ("-5%", "a tolerance cannot be negative; "),
            ("5", ""),
            ("0.05", ""),
            ("5 percent", ""),
            ("", ""),
        ];
        for (text, why) in cases {
            assert_eq!(
                regression(text),
                Err(vec![format!(
                    "invalid regression `{text}`: {why}expected {accepts}"
                )]),
                "{text:?}"
            );
        }
    }
}
