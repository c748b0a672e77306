//! `cargo perfmark`: see the crate's README or `cargo perfmark --help`.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(cargo_perfmark::cli::main(std::env::args().skip(1)))
}
