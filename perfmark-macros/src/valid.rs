//! Judges the parsed attribute and function and turns them into a [`Test`]:
//! the only input generation accepts. Every mistake is recorded in the
//! [`Ctxt`], so one build reports all of them.

use perfmark_options::{Key, Value};
use syn::{Expr, ExprArray, ExprLit, ExprUnary, ItemFn, Lit, LitStr, ReturnType, Type, UnOp};

use crate::ast::{Function, Param, ParamKind, Primitive};
use crate::attr::{tokens_text, Attr, IgnoreAttr, Written};
use crate::ctxt::Ctxt;

/// A perf test that passed every check.
pub struct Test<'a> {
    /// The function, emitted unchanged.
    pub func: &'a ItemFn,
    /// The options, in the runtime's units.
    pub options: Options,
    /// How the generated body calls the function.
    pub shape: Shape<'a>,
    /// The path to perfmark the generated code names: `crate = …`, else
    /// `::perfmark`.
    pub krate: proc_macro2::TokenStream,
}

/// The validated options, in the units of the runtime's `TestOptions`.
#[derive(Default)]
pub struct Options {
    /// Each option given with a value, checked by the table of
    /// `perfmark-options` (which names the field it goes to), in the order
    /// written.
    pub values: Vec<(Key, Value)>,
    /// `ignore` as given.
    pub ignore: Ignore,
}

impl Options {
    /// Whether `complexity` is declared: each argument's size is then
    /// recorded for the check.
    pub fn declares_complexity(&self) -> bool {
        self.values.iter().any(|(key, _)| *key == Key::Complexity)
    }
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

/// The accepted function shapes (the README's "Function shapes").
pub enum Shape<'a> {
    /// `fn f()` / `fn f() -> T`: the body is one iteration; for an
    /// `async fn`, its future is.
    Iter,
    /// `fn f(b: &mut Bencher)`: `ty` is the declared bencher type.
    Bencher {
        /// The bencher parameter's type, for the span of a type mismatch.
        ty: &'a Type,
    },
    /// `fn f(n: T)` or `fn f(b: &mut Bencher, n: T)` with `args` (an
    /// `async fn` without the bencher).
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
    let complexity_ok = check_complexity(cx, attr, shape.as_ref());
    Some(Test {
        func: function.item,
        options: options?,
        shape: shape.filter(|_| complexity_ok)?,
        krate: match &attr.krate {
            Some(path) => quote::quote!(#path),
            None => quote::quote!(::perfmark),
        },
    })
}

/// Fewest `args` a `complexity` check fits a growth class over: a line
/// through log-time against log-size has two parameters, and the check
/// needs at least two more points to judge its fit.
pub const MIN_COMPLEXITY_ARGS: usize = 4;

/// `complexity` fits the time's growth over the sizes of `args`: it needs
/// `args`, at least [`MIN_COMPLEXITY_ARGS`] of them, literal sizes of at
/// least 1, and no argument named `complexity` (the name of the check's own
/// test). Whether each argument converts to a size is the compiler's to
/// say: the generated code asks for `perfmark::Size` on the parameter's
/// type. Returns whether all is well.
fn check_complexity(cx: &Ctxt, attr: &Attr, shape: Option<&Shape<'_>>) -> bool {
    if !attr.written.contains(&Key::Complexity) {
        return true;
    }
    match &attr.args {
        None if attr.written.contains(&Key::Args) => true, // reported already
        None => {
            report_complexity_without_args(cx, attr);
            false
        }
        Some(array) if array.elems.len() < MIN_COMPLEXITY_ARGS => {
            cx.error_spanned_by(
                array,
                format!(
                    "`complexity` needs at least {MIN_COMPLEXITY_ARGS} arguments to fit a growth \
                     class, and `args` has {}: give more sizes, spread over a wide range, \
                     {COMPLEXITY_EXAMPLE}",
                    array.elems.len()
                ),
            );
            false
        }
        Some(_) => match shape {
            Some(Shape::Args { args, .. }) => check_sizes(cx, args),
            _ => true,
        },
    }
}

/// How `args` for a `complexity` check is written, for the errors.
const COMPLEXITY_EXAMPLE: &str = "as in `args = [1000, 10000, 100000, 1000000]`";

/// Reports `complexity` given without `args`, at the `complexity` value.
fn report_complexity_without_args(cx: &Ctxt, attr: &Attr) {
    let literal = attr.values.iter().find_map(|(key, written)| match written {
        Written::Str(lit) if *key == Key::Complexity => Some(lit),
        _ => None,
    });
    if let Some(literal) = literal {
        cx.error_spanned_by(
            literal,
            format!(
                "`complexity` needs `args`: the sizes to fit the time's growth over, at least \
                 {MIN_COMPLEXITY_ARGS} of them, {COMPLEXITY_EXAMPLE}, and a parameter to take \
                 them"
            ),
        );
    }
}

/// Checks that every argument of a `complexity` test is a size (a number
/// literal, when it is one, of at least 1) and none is named
/// `complexity`; reports each that is not. Returns whether all are.
fn check_sizes(cx: &Ctxt, args: &[Arg<'_>]) -> bool {
    let mut ok = true;
    for arg in args {
        if arg.value.is_some_and(|v| v < 1.0) {
            cx.error_spanned_by(
                arg.expr,
                format!(
                    "argument `{}` is not a size: with `complexity`, each argument is a size of at \
                     least 1",
                    arg.name
                ),
            );
            ok = false;
        }
        if arg.name == "complexity" {
            cx.error_spanned_by(
                arg.expr,
                "an argument named `complexity` would take the name of the complexity check's own \
                 test; rename it",
            );
            ok = false;
        }
    }
    ok
}

/// Checks every value with the table's grammar and ranges; the table's
/// error says what is wrong and what is accepted, at the value's span.
fn check_options(cx: &Ctxt, attr: &Attr) -> Option<Options> {
    let mut ok = true;
    let mut values = Vec::new();
    for (key, written) in &attr.values {
        let checked = match written {
            Written::Str(lit) => key
                .parse(&lit.value())
                .map_err(|error| cx.error_spanned_by(lit, error)),
            Written::Number { expr, value } => key
                .check_number(*value, &tokens_text(expr))
                .map_err(|error| cx.error_spanned_by(expr, error)),
            Written::Integer { expr, digits } => key
                .check_integer(digits)
                .map_err(|error| cx.error_spanned_by(expr, error)),
        };
        match checked {
            Ok(value) => values.push((*key, value)),
            Err(()) => ok = false,
        }
    }
    let ignore = match &attr.ignore {
        None => Ignore::No,
        Some(IgnoreAttr::Flag) => Ignore::Yes,
        Some(IgnoreAttr::Reason(reason)) => Ignore::Because(reason.clone()),
    };
    ok.then_some(Options { values, ignore })
}

/// Refuses the signature's modifiers that perfmark cannot call.
fn check_signature(cx: &Ctxt, function: &Function<'_>) {
    let sig = &function.item.sig;
    // `const fn` is accepted: called at run time, as here, it is an ordinary
    // call, and its result goes through `black_box` like any other; refusing
    // it would only make users remove a qualifier that changes nothing.
    // `async fn` is accepted: each call's future is one iteration, run on
    // perfmark's own executor (`check_shape` refuses a bencher beside it).
    if let syn::Safety::Unsafe(token) = &sig.safety {
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
    let (bencher, value, mut ok) = split_params(cx, function);
    if let Some(param) = bencher {
        ok &= check_bencher(cx, function, param);
    }
    let shape = shape_of(cx, args, bencher, value, function)?;
    ok.then_some(shape)
}

/// The bencher parameter (first, when there is one) and the value
/// parameter of `function`, and whether all its parameters are accepted:
/// an `impl Trait` parameter, a bencher not taken `&mut` and a parameter
/// past those two are reported.
fn split_params<'f, 'a>(
    cx: &Ctxt,
    function: &'f Function<'a>,
) -> (Option<&'f Param<'a>>, Option<&'f Param<'a>>, bool) {
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
    (bencher, value, ok)
}

/// Whether `function` may take the bencher `param`: not as an `async fn`,
/// with no return type, and using it as `crate::timing` checks (when taken
/// `&mut`). Each mistake is reported.
fn check_bencher(cx: &Ctxt, function: &Function<'_>, param: &Param<'_>) -> bool {
    let mut ok = true;
    if function.item.sig.asyncness.is_some() {
        // The future of an `async fn` is what is timed, one per iteration;
        // a bencher given to it could only be used inside that future,
        // where its forms (which block the thread to run their own loops)
        // would be nested in perfmark's executor.
        cx.error_spanned_by(
            param.typed,
            format!(
                "an `async fn` perf test cannot take the bencher `{}`: its future is one \
                 iteration, run on perfmark's executor; to choose the executor or a form, make \
                 it a plain `fn` and hand the bencher's `to_async` an async routine, as in \
                 `b.to_async(perfmark::BlockOn).iter(async || …)`",
                param.name()
            ),
        );
        ok = false;
    } else if param.kind == ParamKind::MutRef {
        ok &= crate::timing::check(cx, function.item, &param.name(), param.typed);
    }
    if let ReturnType::Type(_, ty) = &function.item.sig.output {
        cx.error_spanned_by(
            ty,
            "a perf test that takes the bencher returns nothing: hand the timed routine's result \
             to the bencher (`b.iter(|| …)`) and remove the return type",
        );
        ok = false;
    }
    ok
}

/// The shape of a function taking `bencher` and `value` given `args`;
/// `None` when `args` is invalid (already reported), when the value
/// parameter and `args` come without each other, or when an element of
/// `args` is refused ([`check_args`]); each of these last is reported.
fn shape_of<'a>(
    cx: &Ctxt,
    args: Args<'a>,
    bencher: Option<&Param<'a>>,
    value: Option<&Param<'a>>,
    function: &Function<'a>,
) -> Option<Shape<'a>> {
    let ident = &function.item.sig.ident;
    match (value, args) {
        (_, Args::Invalid) => None,
        (None, Args::Absent) => Some(match bencher {
            Some(param) => Shape::Bencher { ty: param.ty },
            None => Shape::Iter,
        }),
        (Some(param), Args::Absent) => {
            cx.error_spanned_by(
                param.typed,
                format!(
                    "parameter `{}` has no values: list them with `args`, as in \
                     `#[perf_test(args = [10, 100])]`, or remove the parameter",
                    param.name()
                ),
            );
            None
        }
        (None, Args::Given(array)) => {
            cx.error_spanned_by(
                array,
                format!(
                    "`args` is given but `{ident}` has no parameter to take them: add one, as in \
                     `fn {ident}(n: u64)` or `fn {ident}(b: &mut Bencher, n: u64)`"
                ),
            );
            None
        }
        (Some(param), Args::Given(array)) => Some(Shape::Args {
            bencher: bencher.is_some(),
            ty: param.ty,
            args: check_args(cx, array, param, ident)?,
        }),
    }
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
        if !check_literal(cx, expr, literal, param) {
            ok = false;
            continue;
        }
        let name = arg_name(expr);
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

/// Checks that the `args` element `expr`, a literal of kind `literal`
/// when it is one, fits the parameter's primitive type (anything else is
/// the compiler's to check); reports it when not. Returns whether it fits.
fn check_literal(cx: &Ctxt, expr: &Expr, literal: Option<LiteralKind>, param: &Param<'_>) -> bool {
    let (ParamKind::Value(Some(primitive)), Some(literal)) = (param.kind, literal) else {
        return true;
    };
    let Some(expected) = mismatch(primitive, literal, expr) else {
        return true;
    };
    cx.error_spanned_by(
        expr,
        format!(
            "argument `{}` does not fit parameter `{}: {}`: expected {expected}, found {}",
            tokens_text(expr),
            param.name(),
            tokens_text(param.ty),
            literal.describe()
        ),
    );
    false
}

/// The name an `args` element adds to its test's: the element as written,
/// a string literal without its quotes.
fn arg_name(expr: &Expr) -> String {
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        }) => lit.value(),
        _ => tokens_text(expr),
    }
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
    use quote::quote;

    /// The checked values of the attribute `tokens`, or the error messages.
    fn options(tokens: proc_macro2::TokenStream) -> Result<Vec<(Key, Value)>, Vec<String>> {
        let cx = Ctxt::new();
        let attr = Attr::parse(&cx, tokens);
        let options = check_options(&cx, &attr);
        match cx.check() {
            Ok(()) => Ok(options.expect("no error, so options").values),
            Err(error) => Err(error.into_iter().map(|e| e.to_string()).collect()),
        }
    }

    #[test]
    fn values_are_checked_by_the_table_in_the_order_written() {
        assert_eq!(
            options(quote!(
                warmup = "0s",
                regression = "2.5 %",
                confidence = 0.99
            )),
            Ok(vec![
                (Key::Warmup, Value::U64(0)),
                (Key::Regression, Value::F64(0.025)),
                (Key::Confidence, Value::F64(0.99)),
            ])
        );
    }

    #[test]
    fn every_refused_value_is_reported_with_the_tables_message() {
        let errors = options(quote!(
            regression = "150%",
            budget = "-5ns",
            confidence = -0.3,
            precision = "1"
        ))
        .unwrap_err();
        let expected: Vec<String> = [
            Key::Regression.parse("150%").unwrap_err(),
            Key::Budget.parse("-5ns").unwrap_err(),
            Key::Confidence.check_number(-0.3, "-0.3").unwrap_err(),
            Key::Precision.parse("1").unwrap_err(),
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(errors, expected);
        assert!(errors[0].starts_with("invalid regression `150%`: a tolerance of 100% or more"));
        assert!(errors[2].starts_with("confidence `-0.3` is out of range: expected a float"));
    }
}
