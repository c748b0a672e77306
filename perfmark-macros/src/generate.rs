//! Turns a validated [`Test`] into the function plus its registration: one
//! `::perfmark::__private::PerfTest` per test, submitted with `inventory`.
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
use syn::{Ident, Type};

use crate::valid::{Arg, Ignore, Options, Shape, Test};

/// The function unchanged, then its registration (with the function's `cfg`
/// attributes, so that a test compiled out is not registered either).
pub fn expand(test: &Test<'_>) -> TokenStream {
    let func = test.func;
    let pm = &test.krate;
    let fn_name = func.sig.ident.unraw().to_string();
    let cfgs = func.attrs.iter().filter(|attr| attr.path().is_ident("cfg"));
    let options = options(&test.options, pm);
    let submits = entries(test)
        .into_iter()
        .map(|entry| submit(pm, &fn_name, &options, entry));
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

/// The entry of each test `test` registers: one for a function without
/// `args`, else one per element of `args`, in the order written.
fn entries(test: &Test<'_>) -> Vec<Entry> {
    let ident = &test.func.sig.ident;
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
        } => args
            .iter()
            .map(|arg| args_entry(test, &bencher, declared, arg, *takes_bencher))
            .collect(),
    }
}

/// The entry of the `args` element `arg`, for a parameter declared as
/// `ty`: its name and its value when it is a number, and its body
/// ([`args_body`]).
fn args_entry(
    test: &Test<'_>,
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
        &test.func.sig.ident,
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
    ident: &Ident,
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
/// this code.
fn options(options: &Options, pm: &TokenStream) -> TokenStream {
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
