//! `cargo xtask compare [REV] [-- TEST ARGS]`: this workspace as it is (the
//! head) against REV (the base, default `HEAD`: your uncommitted change
//! against the last commit), each perf test binary paired with its twin
//! and measured slice by slice (`--compare-with`). Exits 101 on any
//! regression. `--layouts N`: links of each side (default 10). The work is `cargo perfmark compare`'s
//! ([`cargo_perfmark::compare::compare_rev`]).

use cargo_perfmark::cargo::{Selection, Workspace};

pub fn run(args: &[String]) -> Result<(), String> {
    let (ours, test_args) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut ours = ours.to_vec();
    let layouts = crate::take_count(
        &mut ours,
        "--layouts",
        cargo_perfmark::layout::DEFAULT_LAYOUTS,
    )?;
    let rev = match ours.as_slice() {
        [] => "HEAD",
        [rev] if !rev.starts_with('-') => rev.as_str(),
        _ => {
            return Err(format!(
                "compare takes one revision, --layouts N and, after `--`, the test binaries' \
                 arguments: cargo xtask compare [REV] [--layouts N] [-- ARGS]; got {ours:?}"
            ))
        }
    };
    let ws = Workspace::locate(&crate::perfrun::workspace_root()).map_err(|e| e.to_string())?;
    let code =
        cargo_perfmark::compare::compare_rev(&ws, rev, &Selection::default(), layouts, test_args)
            .map_err(|e| e.to_string())?;
    if code != 0 {
        std::process::exit(code.into());
    }
    Ok(())
}
