//! Judges the parsed attribute and function and turns them into a [`Test`]:
//! the only input generation accepts. Every mistake is recorded in the
//! [`Ctxt`], so one build reports all of them.

use perfmark_options::{Key, Value, MAX_THREAD_COUNTS};
use syn::{
    ConstParam, Expr, ExprArray, ExprLit, ExprUnary, GenericParam, Ident, ItemFn, Lit, LitStr,
    ReturnType, Type, TypeParam, UnOp,
};

use crate::ast::{Function, Param, ParamKind, Primitive};
use crate::attr::{integer_text, tokens_text, Attr, IgnoreAttr, List, Written};
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
    /// The type and const parameters the instances fill in, in the
    /// signature's order (the order of the call's turbofish).
    pub generics: Vec<Generic<'a>>,
    /// One per combination of an element of `types`, of `consts` and of
    /// `threads`, in that order (types outermost); a single one, adding
    /// nothing, when none of them is given.
    pub instances: Vec<Instance<'a>>,
}

/// A generic parameter of the function, filled in by each instance.
#[derive(Debug, Clone, Copy)]
pub enum Generic<'a> {
    /// A type parameter, given by `types`.
    Type(&'a Ident),
    /// A const parameter, given by `consts`.
    Const(&'a Ident),
}

/// One instance of a test: its type, constant and thread count, each
/// `None` when the option is not given.
pub struct Instance<'a> {
    /// What the instance adds to the function's name, in the order type,
    /// constant, thread count: `::u32::16::t2`; empty for the one instance
    /// of a function without `types`, `consts` and `threads`.
    pub segments: String,
    /// The type given to the type parameter.
    pub ty: Option<&'a Type>,
    /// The value given to the const parameter, as written.
    pub konst: Option<&'a Expr>,
    /// The thread count, 0 for the available parallelism.
    pub threads: Option<u64>,
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
    /// `async fn`, its future is. With `threads`, every thread runs it at
    /// once.
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
    let generics = check_generics(cx, attr, function.item);
    let args = match &attr.args {
        Some(array) => Args::Given(array),
        None if attr.written.contains(&Key::Args) => Args::Invalid,
        None => Args::Absent,
    };
    let shape = check_shape(cx, args, function);
    let complexity_ok = check_complexity(cx, attr, shape.as_ref());
    let threads = check_threads(cx, attr, function, shape.as_ref());
    let Generics {
        order,
        types,
        consts,
    } = generics?;
    Some(Test {
        func: function.item,
        options: options?,
        shape: shape.filter(|_| complexity_ok)?,
        krate: match &attr.krate {
            Some(path) => quote::quote!(#path),
            None => quote::quote!(::perfmark),
        },
        generics: order,
        instances: instances(&types, &consts, &threads?),
    })
}

/// Every combination of an element of each list, types outermost; an
/// absent list contributes nothing to the name and `None` to the instance.
fn instances<'a>(
    types: &[Named<&'a Type>],
    consts: &[Named<&'a Expr>],
    threads: &[u64],
) -> Vec<Instance<'a>> {
    /// The elements of a list, or one "not given" for an absent (empty) one.
    fn each<T>(list: &[T]) -> Vec<Option<&T>> {
        if list.is_empty() {
            vec![None]
        } else {
            list.iter().map(Some).collect()
        }
    }
    let mut out = Vec::new();
    for ty in each(types) {
        for konst in each(consts) {
            for count in each(threads) {
                let mut segments = String::new();
                for name in [ty.map(|t| &t.name), konst.map(|c| &c.name)]
                    .into_iter()
                    .flatten()
                {
                    segments.push_str("::");
                    segments.push_str(name);
                }
                if let Some(&count) = count {
                    segments.push_str("::");
                    segments.push_str(&thread_name(count));
                }
                out.push(Instance {
                    segments,
                    ty: ty.map(|t| t.item),
                    konst: konst.map(|c| c.item),
                    threads: count.copied(),
                });
            }
        }
    }
    out
}

/// An element of `types` or `consts` with the name it adds to its tests'.
struct Named<T> {
    item: T,
    name: String,
}

/// The name a thread count adds to its test's: `t4`, or `tmax` for 0
/// (the available parallelism).
fn thread_name(count: u64) -> String {
    if count == 0 {
        "tmax".to_owned()
    } else {
        format!("t{count}")
    }
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
    // Generic parameters are `check_generics`'s.
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

/// The generic parameters of a function and the lists that fill them in.
struct Generics<'a> {
    /// The type and const parameters, in the signature's order.
    order: Vec<Generic<'a>>,
    /// The elements of `types`, named; empty without a type parameter.
    types: Vec<Named<&'a Type>>,
    /// The elements of `consts`, named; empty without a const parameter.
    consts: Vec<Named<&'a Expr>>,
}

/// Checks the function's generic parameters against `types` and `consts`:
/// perfmark fills in one type parameter from `types` and one const
/// parameter from `consts`, each list given exactly when its parameter
/// exists; a lifetime parameter is refused. `None` when anything is wrong
/// (each mistake reported).
fn check_generics<'a>(cx: &Ctxt, attr: &'a Attr, item: &'a ItemFn) -> Option<Generics<'a>> {
    let generics = &item.sig.generics;
    let mut lifetimes = Vec::new();
    let mut type_params: Vec<&TypeParam> = Vec::new();
    let mut const_params: Vec<&ConstParam> = Vec::new();
    let mut order = Vec::new();
    for param in &generics.params {
        match param {
            GenericParam::Lifetime(lifetime) => lifetimes.push(lifetime),
            GenericParam::Type(param) => {
                type_params.push(param);
                order.push(Generic::Type(&param.ident));
            }
            GenericParam::Const(param) => {
                const_params.push(param);
                order.push(Generic::Const(&param.ident));
            }
        }
    }
    let mut ok = true;
    if !lifetimes.is_empty() {
        let message = "a perf test cannot have lifetime parameters: remove them and use elided or \
                       `'static` lifetimes";
        if order.is_empty() {
            cx.error_spanned_by(generics, message);
        } else {
            for lifetime in lifetimes {
                cx.error_spanned_by(lifetime, message);
            }
        }
        ok = false;
    }
    let signature = signature_text(item);
    let type_idents: Vec<&Ident> = type_params.iter().map(|p| &p.ident).collect();
    let const_idents: Vec<&Ident> = const_params.iter().map(|p| &p.ident).collect();
    for (what, idents) in [("type", &type_idents), ("const", &const_idents)] {
        for ident in idents.iter().skip(1) {
            cx.error_spanned_by(
                ident,
                format!(
                    "`{signature}` has {} {what} parameters, and perfmark instantiates one type \
                     parameter (from `types`) and one const parameter (from `consts`): make \
                     `{ident}` concrete",
                    idents.len()
                ),
            );
            ok = false;
        }
    }
    let types = types_for(cx, attr, type_params.first().copied(), item, &signature);
    let consts = consts_for(cx, attr, const_params.first().copied(), item, &signature);
    let (types, consts) = (types?, consts?);
    ok.then_some(Generics {
        order,
        types,
        consts,
    })
}

/// The named elements of `types` for the type parameter `param` (of the
/// function `item`, written `signature`): empty when neither is there;
/// `None` when one comes without the other or a list is refused (reported).
fn types_for<'a>(
    cx: &Ctxt,
    attr: &'a Attr,
    param: Option<&TypeParam>,
    item: &ItemFn,
    signature: &str,
) -> Option<Vec<Named<&'a Type>>> {
    match (param, &attr.types) {
        (Some(_), Some(list)) => check_types(cx, list, &item.sig.ident),
        (Some(param), None) => {
            if !attr.written.contains(&Key::Types) {
                cx.error_spanned_by(
                    &param.ident,
                    format!(
                        "`{signature}` is generic over the type `{}`: name the types to test it \
                         with, as in `types = [u32, String]` (one test per type)",
                        param.ident
                    ),
                );
            }
            None
        }
        (None, Some(list)) => {
            cx.error_spanned_by(
                &list.tokens,
                format!(
                    "`types` is given but `{signature}` has no type parameter to take them: add \
                     one, as in `fn {}<T>`, or remove `types`",
                    item.sig.ident
                ),
            );
            None
        }
        (None, None) => Some(Vec::new()),
    }
}

/// As [`types_for`], for `consts` and the const parameter `param`.
fn consts_for<'a>(
    cx: &Ctxt,
    attr: &'a Attr,
    param: Option<&ConstParam>,
    item: &ItemFn,
    signature: &str,
) -> Option<Vec<Named<&'a Expr>>> {
    match (param, &attr.consts) {
        (Some(param), Some(array)) => check_consts(cx, array, param, &item.sig.ident),
        (Some(param), None) => {
            if !attr.written.contains(&Key::Consts) {
                cx.error_spanned_by(
                    &param.ident,
                    format!(
                        "`{signature}` is generic over the constant `{}`: name the values to test \
                         it with, as in `consts = [16, 64]` (one test per value)",
                        param.ident
                    ),
                );
            }
            None
        }
        (None, Some(array)) => {
            cx.error_spanned_by(
                array,
                format!(
                    "`consts` is given but `{signature}` has no const parameter to take them: add \
                     one, as in `fn {}<const N: usize>`, or remove `consts`",
                    item.sig.ident
                ),
            );
            None
        }
        (None, None) => Some(Vec::new()),
    }
}

/// `fn name<…>` as a person would write it in a message: type and lifetime
/// parameters by name, const parameters with their type
/// (`fn copy<T, const N: usize>`; `fn copy` without parameters).
fn signature_text(item: &ItemFn) -> String {
    let params: Vec<String> = item
        .sig
        .generics
        .params
        .iter()
        .map(|param| match param {
            GenericParam::Lifetime(param) => tokens_text(&param.lifetime),
            GenericParam::Type(param) => param.ident.to_string(),
            GenericParam::Const(param) => {
                format!("const {}: {}", param.ident, tokens_text(&param.ty))
            }
        })
        .collect();
    if params.is_empty() {
        format!("fn {}", item.sig.ident)
    } else {
        format!("fn {}<{}>", item.sig.ident, params.join(", "))
    }
}

/// Names each element of `types`: the type as written, without whitespace
/// but for a space between two words (`Vec<u8>`, `[u8;64]`,
/// `&'static str`). Refuses an empty list and two elements of one name
/// (reported); `None` then.
fn check_types<'a>(cx: &Ctxt, list: &'a List<Type>, ident: &Ident) -> Option<Vec<Named<&'a Type>>> {
    if list.elems.is_empty() {
        cx.error_spanned_by(
            &list.tokens,
            "`types` is empty: give at least one type, as in `types = [u32, String]`",
        );
        return None;
    }
    let mut ok = true;
    let mut named: Vec<Named<&Type>> = Vec::new();
    for ty in &list.elems {
        let name = compact(&tokens_text(ty));
        if named.iter().any(|n| n.name == name) {
            duplicate(cx, ty, "type", "type", &name, &format!("{ident}::{name}"));
            ok = false;
            continue;
        }
        named.push(Named { item: ty, name });
    }
    ok.then_some(named)
}

/// Reports a list element written twice: a `what` ("type", "constant",
/// …) written `written`, which would name the test `test` a second time;
/// `unit` is what the sentence calls one element ("type", "value",
/// "count", "argument").
fn duplicate(
    cx: &Ctxt,
    at: impl quote::ToTokens,
    what: &str,
    unit: &str,
    written: &str,
    test: &str,
) {
    cx.error_spanned_by(
        at,
        format!(
            "duplicate {what} `{written}`: each {unit} names a test (`{test}`), so each must be \
             different"
        ),
    );
}

/// `text` without its spaces, but for those between two words, which
/// removing would join (`&'static str`).
fn compact(text: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let between_words = i > 0 && word(Some(chars[i - 1])) && word(chars.get(i + 1).copied());
        if !c.is_whitespace() || between_words {
            out.push(c);
        }
    }
    out
}

/// Names each element of `consts` (as written) and checks it is a value a
/// const parameter takes: an integer, `bool` or `char` literal that fits
/// `param`'s type, or the path of a constant. Refuses an empty list and
/// duplicates; each mistake is reported, and `None` returned.
fn check_consts<'a>(
    cx: &Ctxt,
    array: &'a ExprArray,
    param: &ConstParam,
    ident: &Ident,
) -> Option<Vec<Named<&'a Expr>>> {
    if array.elems.is_empty() {
        cx.error_spanned_by(
            array,
            "`consts` is empty: give at least one value, as in `consts = [16, 64]`",
        );
        return None;
    }
    let primitive = crate::ast::primitive(&param.ty);
    let mut ok = true;
    let mut named: Vec<Named<&Expr>> = Vec::new();
    for expr in &array.elems {
        if !check_const_value(cx, expr, param, primitive) {
            ok = false;
            continue;
        }
        let name = tokens_text(expr);
        if named.iter().any(|n| n.name == name) {
            duplicate(
                cx,
                expr,
                "constant",
                "value",
                &name,
                &format!("{ident}::{name}"),
            );
            ok = false;
            continue;
        }
        named.push(Named { item: expr, name });
    }
    ok.then_some(named)
}

/// Whether `expr`, a `consts` element, is a value `param` takes: an
/// integer, `bool` or `char` literal that fits its type (`primitive`, when
/// it is one), or the path of a constant; reports why not.
fn check_const_value(
    cx: &Ctxt,
    expr: &Expr,
    param: &ConstParam,
    primitive: Option<Primitive>,
) -> bool {
    let literal = LiteralKind::of(expr);
    let is_path = matches!(expr, Expr::Path(path) if path.qself.is_none() && path.attrs.is_empty());
    let fits = match literal {
        Some(LiteralKind::Int { .. } | LiteralKind::Bool | LiteralKind::Char) => true,
        Some(_) => false,
        None => is_path,
    };
    if !fits {
        cx.error_spanned_by(
            expr,
            format!(
                "invalid consts element `{}`: expected an integer, `bool` or `char` literal \
                 (`16`, `-1`, `true`, `'a'`) or the path of a constant (`SMALL`); for an \
                 expression, define a `const` and name it",
                tokens_text(expr)
            ),
        );
        return false;
    }
    if let (Some(primitive), Some(literal)) = (primitive, literal) {
        if let Some(expected) = mismatch(primitive, literal, expr) {
            cx.error_spanned_by(
                expr,
                format!(
                    "constant `{}` does not fit parameter `const {}: {}`: expected {expected}, \
                     found {}",
                    tokens_text(expr),
                    param.ident,
                    tokens_text(&param.ty),
                    literal.describe()
                ),
            );
            return false;
        }
    }
    true
}

/// The thread counts of `threads` (empty without the option), each
/// checked by the table's range, at most [`MAX_THREAD_COUNTS`] of them and
/// no two alike; and the test must be one whose routine can run on several
/// threads: not an `async fn`, not timed by the CPU clock, and for `args`,
/// taking the bencher. `None` when anything is wrong (each mistake
/// reported).
fn check_threads(
    cx: &Ctxt,
    attr: &Attr,
    function: &Function<'_>,
    shape: Option<&Shape<'_>>,
) -> Option<Vec<u64>> {
    let Some(list) = &attr.threads else {
        // Written with a wrong value: reported already.
        return (!attr.written.contains(&Key::Threads)).then(Vec::new);
    };
    let mut ok = check_threaded_shape(cx, attr, list, function, shape);
    if list.elems.is_empty() {
        cx.error_spanned_by(
            &list.tokens,
            "`threads` is empty: give at least one thread count, as in `threads = [1, 2, 4]`",
        );
        return None;
    }
    if list.elems.len() > MAX_THREAD_COUNTS {
        cx.error_spanned_by(
            &list.tokens,
            format!(
                "`threads` has {} thread counts, and a test takes at most {MAX_THREAD_COUNTS} (one \
                 test each)",
                list.elems.len()
            ),
        );
        ok = false;
    }
    let ident = &function.item.sig.ident;
    let mut counts = Vec::new();
    for expr in &list.elems {
        match check_thread_count(cx, expr, &counts, ident) {
            Some(count) => counts.push(count),
            None => ok = false,
        }
    }
    ok.then_some(counts)
}

/// The thread count `expr`, an element of `threads`, checked by the
/// table's range and against the `counts` before it; reports why not.
fn check_thread_count(cx: &Ctxt, expr: &Expr, counts: &[u64], ident: &Ident) -> Option<u64> {
    let Some(digits) = integer_text(expr) else {
        cx.error_spanned_by(
            expr,
            format!(
                "invalid threads `{}`: expected {}",
                tokens_text(expr),
                Key::Threads.accepts()
            ),
        );
        return None;
    };
    match Key::Threads.check_integer(&digits) {
        Ok(Value::U64(count)) if counts.contains(&count) => {
            let test = format!("{ident}::{}", thread_name(count));
            duplicate(cx, expr, "thread count", "count", &tokens_text(expr), &test);
            None
        }
        Ok(Value::U64(count)) => Some(count),
        Ok(other) => unreachable!("a thread count is a U64, not {other:?}"),
        Err(error) => {
            cx.error_spanned_by(expr, error);
            None
        }
    }
}

/// Whether the test's routine can run on several threads at once (see
/// [`check_threads`]); reports each reason it cannot, at `threads` (or at
/// the clock that cannot time it).
fn check_threaded_shape(
    cx: &Ctxt,
    attr: &Attr,
    list: &List<Expr>,
    function: &Function<'_>,
    shape: Option<&Shape<'_>>,
) -> bool {
    let mut ok = true;
    let ident = &function.item.sig.ident;
    if function.item.sig.asyncness.is_some() {
        cx.error_spanned_by(
            &list.key,
            format!(
                "`threads` cannot time an `async fn`: its threads run one synchronous routine \
                 together; make `{ident}` a plain `fn` that takes `b: &mut Bencher` and hands the \
                 routine to `b.iter_shared(|| …)`"
            ),
        );
        ok = false;
    }
    if let Some(Shape::Args {
        bencher: false, ty, ..
    }) = shape
    {
        let name = function
            .params
            .last()
            .map_or_else(|| "n".to_owned(), Param::name);
        cx.error_spanned_by(
            &list.key,
            format!(
                "with `threads`, a test with `args` takes the bencher and hands it the routine \
                 itself: write `fn {ident}(b: &mut Bencher, {name}: {})` and call \
                 `b.iter_shared(|| …)`, so that the test chooses what the threads share of the \
                 argument and what each makes of its own",
                tokens_text(ty)
            ),
        );
        ok = false;
    }
    let cpu = attr.values.iter().find_map(|(key, written)| match written {
        Written::Str(lit) if *key == Key::Measure && lit.value() == "cpu" => Some(lit),
        _ => None,
    });
    if let Some(cpu) = cpu {
        cx.error_spanned_by(
            cpu,
            "`measure = \"cpu\"` cannot time a `threads` test: a sample of several threads is \
             timed by the wall clock, from their common start to the last one's end, and a \
             thread's CPU time would leave out the waiting that contention is; remove `measure`",
        );
        ok = false;
    }
    ok
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
            let generic = match param.ty {
                Type::ImplTrait(it) => format!(
                    "`fn {}<T: {}>({}: T)`",
                    function.item.sig.ident,
                    tokens_text(&it.bounds),
                    param.name()
                ),
                _ => "`fn f<T: Trait>(n: T)`".to_owned(),
            };
            cx.error_spanned_by(
                param.ty,
                format!(
                    "an `impl Trait` parameter is a generic one that perfmark cannot name: use a \
                     concrete type, or a type parameter and the types to test it with, as in \
                     {generic} with `types = [u32, u64]`"
                ),
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
            duplicate(
                cx,
                expr,
                "argument",
                "argument",
                &name,
                &format!("{ident}::{name}"),
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
