//! Turns a validated [`Test`] into the function plus its registration: one
//! `::perfmark::__private::PerfTest` per test, submitted with `inventory`:
//! one per instance (a type of `types`, a value of `consts`, a count of
//! `threads`) and, for `args`, per argument of each.
//!
//! Everything generated lives in `const _: () = { … };` and names locals
//! with `Span::mixed_site()`, so nothing can collide with the user's names,
//! and it refers only to `::core::…` paths and to perfmark's, through the
//! path `crate = …` gives (`::perfmark` unless told: a crate that renames
//! its dependency, `pm = { package = "perfmark", … }`, writes
//! `#[perf_test(crate = pm)]`).

use perfmark_options::{Measure, Value};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens as _};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};
use syn::{Expr, ExprUnary, Ident, Type, UnOp};

use crate::valid::{Arg, Generic, Ignore, Instance, Options, Shape, Test};

/// The function unchanged, then its registration (with the function's `cfg`
/// attributes, so that a test compiled out is not registered either).
///
/// Each instance's tests are registered under the function's identifier
/// followed by the instance's segments (`fn_name: "sort::u32::t2"`), so
/// that an argument is always the name's last segment and the tests of one
/// instance form one complexity group.
pub fn expand(test: &Test<'_>) -> TokenStream {
    let func = test.func;
    let pm = &test.krate;
    let ident = func.sig.ident.unraw().to_string();
    let cfgs = func.attrs.iter().filter(|attr| attr.path().is_ident("cfg"));
    let submits = test.instances.iter().flat_map(|instance| {
        let fn_name = format!("{ident}{}", instance.segments);
        let options = options(&test.options, instance.threads, pm);
        entries(test, instance)
            .into_iter()
            .map(move |entry| submit(pm, &fn_name, &options, entry))
    });
    quote! {
        #func
        #(#cfgs)*
        const _: () = {
            #(#submits)*
        };
    }
}

/// What one test's registration has of its own: its argument's name and
/// value (`None` each without `args`), and its body.
struct Entry {
    arg: TokenStream,
    arg_value: TokenStream,
    body: TokenStream,
}

/// The bencher a generated body takes: its name (mixed-site), its type,
/// and the forms the body times with (the bencher, or its async forms
/// for an `async fn`).
struct BencherTokens {
    name: Ident,
    ty: TokenStream,
    forms: TokenStream,
}

impl BencherTokens {
    /// The bencher of `test`'s bodies.
    fn of(test: &Test<'_>) -> BencherTokens {
        let pm = &test.krate;
        let name = Ident::new("bencher", Span::mixed_site());
        // An `async fn`'s future is one iteration, awaited on perfmark's own
        // executor through the bencher's async forms.
        let forms = if test.func.sig.asyncness.is_some() {
            quote!(#name.to_async(#pm::__private::BlockOn))
        } else {
            quote!(#name)
        };
        BencherTokens {
            ty: quote!(&mut #pm::__private::Bencher),
            name,
            forms,
        }
    }
}

/// The entry of each test of `instance`: one for a function without
/// `args`, else one per element of `args`, in the order written.
fn entries(test: &Test<'_>, instance: &Instance<'_>) -> Vec<Entry> {
    let callee = callee(test, instance);
    let ident = &callee;
    let bencher = BencherTokens::of(test);
    let (name, ty, forms) = (&bencher.name, &bencher.ty, &bencher.forms);
    let single = |body| {
        vec![Entry {
            arg: none(),
            arg_value: none(),
            body,
        }]
    };
    match &test.shape {
        // The body is one iteration; `iter` passes its result through
        // `black_box`, so the work cannot be optimized away (Sestoft's
        // Mark2 in "Microbenchmarks in Java and C#"; Boyer's `preventDce`
        // in `bb.util.Benchmark`).
        // With `threads`, the body runs on every thread at once: `iter_shared`
        // takes an `Fn + Sync`, as a function item is.
        Shape::Iter if instance.threads.is_some() => {
            single(quote!(|#name: #ty| #forms.iter_shared(#ident)))
        }
        Shape::Iter => single(quote!(|#name: #ty| #forms.iter(#ident))),
        Shape::Bencher { ty: declared } => {
            // Spanned at the declared bencher type, so a wrong type is
            // reported there.
            let located = Ident::new("bencher", Span::mixed_site().located_at(declared.span()));
            single(quote!(|#located: #ty| #ident(#located)))
        }
        Shape::Args {
            bencher: takes_bencher,
            ty: declared,
            args,
        } => {
            let declared = substitute(declared, &test.generics, instance);
            args.iter()
                .map(|arg| args_entry(test, ident, &bencher, &declared, arg, *takes_bencher))
                .collect()
        }
    }
}

/// The function as the body calls it: its identifier, and for a generic
/// function the instance's type and constant in the signature's order
/// (`sort::<u32, 16>`).
fn callee(test: &Test<'_>, instance: &Instance<'_>) -> TokenStream {
    let ident = &test.func.sig.ident;
    if test.generics.is_empty() {
        return quote!(#ident);
    }
    let arguments = test.generics.iter().map(|generic| match generic {
        Generic::Type(_) => instance
            .ty
            .expect("a type parameter is given its type")
            .to_token_stream(),
        Generic::Const(_) => const_argument(
            instance
                .konst
                .expect("a const parameter is given its value"),
        ),
    });
    quote!(#ident::<#(#arguments),*>)
}

/// A `consts` element as a generic argument: a negative literal goes in
/// braces, which a generic argument needs around an expression; a literal
/// or a path does not (braces there draw the `unused_braces` lint).
fn const_argument(value: &Expr) -> TokenStream {
    match value {
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_), ..
        }) => quote!({ #value }),
        _ => value.to_token_stream(),
    }
}

/// `ty` with the function's type and const parameters replaced by the
/// instance's type and value (`Vec<T>` as `Vec<u32>`, `[u8; N]` as
/// `[u8; 16]`); every other token keeps its span.
fn substitute(ty: &Type, generics: &[Generic<'_>], instance: &Instance<'_>) -> Type {
    let mut substitute = Substitute {
        ty: None,
        konst: None,
    };
    for generic in generics {
        match *generic {
            Generic::Type(ident) => substitute.ty = ident_with(ident, instance.ty),
            Generic::Const(ident) => substitute.konst = ident_with(ident, instance.konst),
        }
    }
    let mut ty = ty.clone();
    substitute.visit_type_mut(&mut ty);
    ty
}

fn ident_with<'a, T>(ident: &'a Ident, with: Option<&'a T>) -> Option<(&'a Ident, &'a T)> {
    with.map(|with| (ident, with))
}

/// Replaces a path that is exactly a generic parameter's identifier: as a
/// type (`Vec<T>`, and a const argument, which syn reads as a type:
/// `Array<N>`) and as an expression (`[u8; N]`).
struct Substitute<'a> {
    ty: Option<(&'a Ident, &'a Type)>,
    konst: Option<(&'a Ident, &'a Expr)>,
}

impl VisitMut for Substitute<'_> {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::Path(path) = ty {
            if path.qself.is_none() {
                if let Some((_, with)) = self.ty.filter(|(i, _)| path.path.is_ident(*i)) {
                    *ty = with.clone();
                    return;
                }
                if let Some((_, value)) = self.konst.filter(|(i, _)| path.path.is_ident(*i)) {
                    *ty = Type::Verbatim(const_argument(value));
                    return;
                }
            }
        }
        visit_mut::visit_type_mut(self, ty);
    }

    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        if let Expr::Path(path) = expr {
            if let Some((_, value)) = self
                .konst
                .filter(|(i, _)| path.qself.is_none() && path.path.is_ident(*i))
            {
                *expr = Expr::Verbatim(const_argument(value));
                return;
            }
        }
        visit_mut::visit_expr_mut(self, expr);
    }
}

/// The entry of the `args` element `arg`, for a parameter of the type `ty`
/// (as declared, with the instance's type and value in place of the
/// function's parameters), calling `callee`: its name and its value when
/// it is a number, and its body ([`args_body`]).
fn args_entry(
    test: &Test<'_>,
    callee: &TokenStream,
    bencher: &BencherTokens,
    ty: &Type,
    arg: &Arg<'_>,
    takes_bencher: bool,
) -> Entry {
    let name = arg.name.as_str();
    let arg_value = match arg.value {
        Some(value) => {
            let value = Literal::f64_suffixed(value);
            quote!(::core::option::Option::Some(#value))
        }
        None => none(),
    };
    let body = args_body(
        &test.krate,
        callee,
        bencher,
        ty,
        arg,
        takes_bencher,
        test.options.declares_complexity(),
    );
    Entry {
        arg: quote!(::core::option::Option::Some(#name)),
        arg_value,
        body,
    }
}

/// The `inventory` submission of one test of the function `fn_name`, with
/// its `options` and `entry`.
fn submit(pm: &TokenStream, fn_name: &str, options: &TokenStream, entry: Entry) -> TokenStream {
    let Entry {
        arg,
        arg_value,
        body,
    } = entry;
    quote! {
        #pm::__private::inventory::submit! {
            #pm::__private::PerfTest {
                module_path: ::core::module_path!(),
                fn_name: #fn_name,
                arg: #arg,
                arg_value: #arg_value,
                file: ::core::file!(),
                line: ::core::line!(),
                options: #options,
                body: #body,
            }
        }
    }
}

/// The body of one `args` test. The argument is made once, outside the
/// timing, bound to the declared type (with the element's span, so a wrong
/// element is reported where it is written); without a bencher, each
/// iteration gets a fresh clone, made by the untimed setup of
/// `iter_batched` (of `forms`: the bencher, or its async forms for an
/// `async fn`). With `complexity` (`sized`), the argument's size is
/// recorded first, through `perfmark::Size` named at the parameter's type,
/// so a type that is not a size is reported there.
fn args_body(
    pm: &TokenStream,
    ident: &TokenStream,
    BencherTokens {
        name: bencher,
        ty: bencher_ty,
        forms,
    }: &BencherTokens,
    ty: &Type,
    arg: &Arg<'_>,
    takes_bencher: bool,
    sized: bool,
) -> TokenStream {
    let elem = arg.expr;
    let value = if arg.into_string {
        quote_spanned!(elem.span()=> ::core::convert::From::from(#elem))
    } else {
        quote!(#elem)
    };
    let var = Ident::new("arg", Span::mixed_site());
    let bind = quote_spanned!(elem.span()=> let #var: #ty = #value;);
    let size = if sized {
        let size = quote_spanned!(ty.span()=> <#ty as #pm::__private::Size>::size(&#var));
        quote!(#pm::__private::record_size(#bencher, #size);)
    } else {
        TokenStream::new()
    };
    let run = if takes_bencher {
        quote!(#ident(#bencher, #var);)
    } else {
        // Named through the declared type, spanned at it: a `T` that is not
        // `Clone` is reported there.
        let setup = quote_spanned!(ty.span()=> || <#ty as ::core::clone::Clone>::clone(&#var));
        quote!(#forms.iter_batched(#setup, #ident);)
    };
    quote! {
        |#bencher: #bencher_ty| {
            #bind
            #size
            #run
        }
    }
}

/// `TestOptions { <given fields>, ..TestOptions::NONE }`: fields not given
/// keep the runtime's "not given", and options added later do not break
/// this code. `threads` is the instance's thread count, where `threads` is
/// given.
fn options(options: &Options, threads: Option<u64>, pm: &TokenStream) -> TokenStream {
    let some = |value: TokenStream| quote!(::core::option::Option::Some(#value));
    let mut fields = Vec::new();
    for (key, value) in &options.values {
        let field = key
            .spec()
            .field
            .expect("an option with a value has a field");
        let tokens = match *value {
            Value::F64(value) => Literal::f64_suffixed(value).into_token_stream(),
            Value::U64(value) => Literal::u64_suffixed(value).into_token_stream(),
            Value::Class(class) => {
                let variant = Ident::new(class.variant_name(), Span::call_site());
                quote!(#pm::__private::Complexity::#variant)
            }
            Value::Measure(measure) => {
                let variant = Ident::new(
                    match measure {
                        Measure::Wall => "Wall",
                        Measure::Cpu => "Cpu",
                    },
                    Span::call_site(),
                );
                quote!(#pm::__private::Measure::#variant)
            }
        };
        fields.push((field, some(tokens)));
    }
    if let Some(threads) = threads {
        fields.push((
            "threads",
            some(Literal::u64_suffixed(threads).into_token_stream()),
        ));
    }
    match &options.ignore {
        Ignore::No => {}
        Ignore::Yes => fields.push(("ignore", quote!(#pm::__private::Ignore::Yes))),
        Ignore::Because(reason) => {
            fields.push(("ignore", quote!(#pm::__private::Ignore::Because(#reason))))
        }
    }
    let fields = fields.into_iter().map(|(name, value)| {
        let name = Ident::new(name, Span::call_site());
        quote!(#name: #value,)
    });
    quote! {
        #pm::__private::TestOptions {
            #(#fields)*
            ..#pm::__private::TestOptions::NONE
        }
    }
}

fn none() -> TokenStream {
    quote!(::core::option::Option::None)
}
