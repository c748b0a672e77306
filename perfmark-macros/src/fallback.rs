//! What the macro emits when the input is invalid (thiserror's `fallback.rs`
//! habit).

use proc_macro2::TokenStream;
use quote::quote;

/// The errors as `compile_error!`s followed by the item exactly as written.
///
/// Keeping the item means the rest of the crate still finds the function, so
/// the only errors the user sees are the ones that explain the mistake, not
/// a second wave of "cannot find function" errors. No test is registered.
pub fn expand(input: TokenStream, error: syn::Error) -> TokenStream {
    let errors = error.into_compile_error();
    quote! {
        #errors
        #input
    }
}
