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
    let ident = &func.sig.ident;
    let fn_name = ident.unraw().to_string();
    let cfgs = func.attrs.iter().filter(|attr| attr.path().is_ident("cfg"));
    let options = options(&test.options, pm);
    let bencher = Ident::new("bencher", Span::mixed_site());
    let bencher_ty = quote!(&mut #pm::__private::Bencher);
    let sized = test.options.declares_complexity();
    // An `async fn`'s future is one iteration, awaited on perfmark's own
    // executor through the bencher's async forms.
    let forms = if func.sig.asyncness.is_some() {
        quote!(#bencher.to_async(#pm::__private::BlockOn))
    } else {
        quote!(#bencher)
    };

    // (argument name, argument value, body) of each test.
    let entries: Vec<(TokenStream, TokenStream, TokenStream)> = match &test.shape {
        // The body is one iteration; `iter` passes its result through
        // `black_box`, so the work cannot be optimized away (Sestoft's
        // Mark2 in "Microbenchmarks in Java and C#"; Boyer's `preventDce`
        // in `bb.util.Benchmark`).
        Shape::Iter => vec![(
            none(),
            none(),
            quote!(|#bencher: #bencher_ty| #forms.iter(#ident)),
        )],
        Shape::Bencher { ty } => {
            // Spanned at the declared bencher type, so a wrong type is
            // reported there.
            let located = Ident::new("bencher", Span::mixed_site().located_at(ty.span()));
            let body = quote!(|#located: #bencher_ty| #ident(#located));
            vec![(none(), none(), body)]
        }
        Shape::Args {
            bencher: takes_bencher,
            ty,
            args,
        } => args
            .iter()
            .map(|arg| {
                let name = arg.name.as_str();
                let value = match arg.value {
                    Some(value) => {
                        let value = Literal::f64_suffixed(value);
                        quote!(::core::option::Option::Some(#value))
                    }
                    None => none(),
                };
                let body = args_body(
                    pm,
                    ident,
                    (&bencher, &bencher_ty, &forms),
                    ty,
                    arg,
                    *takes_bencher,
                    sized,
                );
                (quote!(::core::option::Option::Some(#name)), value, body)
            })
            .collect(),
    };

    let submits = entries.into_iter().map(|(arg, arg_value, body)| {
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
    });
    quote! {
        #func
        #(#cfgs)*
        const _: () = {
            #(#submits)*
        };
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
    (bencher, bencher_ty, forms): (&Ident, &TokenStream, &TokenStream),
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
