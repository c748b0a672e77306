//! Code layout in the builds `cargo perfmark compare` makes.
//!
//! Where code lands is not how fast it runs, yet it moves the time: a hot
//! loop moved by a few bytes (code added elsewhere, another link order)
//! can take 20% longer or shorter with no instruction of it changed
//! (Mytkowicz, Diwan, Hauswirth and Sweeney, "Producing wrong data without
//! doing anything obviously wrong!", ASPLOS 2009). A paired comparison of
//! two builds would call that a regression.
//!
//! Both sides of a comparison are therefore built with every function
//! aligned to [`FUNCTION_ALIGNMENT`] bytes (LLVM's `-align-all-functions`):
//! a function that a change did not touch then starts at the same offset
//! within a cache line and a fetch block in both builds, whatever moved
//! before it, so its loops keep their alignment.
//!
//! What alignment cannot pin (the absolute addresses that branch
//! predictors and caches index, which functions share a page) is drawn at
//! random instead: each perf test target is linked again several times
//! with its functions in another order ([`crate::cargo::draw_layouts`], the linker's
//! `--shuffle-sections`), and a comparison pairs a different link of each
//! side in every process pair, so that layout moves the spread between
//! pairs, not the verdict. Curtsinger and Berger's Stabilizer
//! ("Stabilizer: statistically sound performance evaluation", ASPLOS 2013)
//! re-randomizes a whole program's layout for the same reason.

use std::ffi::OsString;

/// How many links of each side `cargo perfmark compare` draws by default:
/// one for every process pair of a comparison that runs to its last look,
/// so that no two pairs share a link and the pairs stay independent draws
/// of layout.
pub const DEFAULT_LAYOUTS: usize = 10;

/// The alignment of every function in a comparison's builds, as a power
/// of two: 2⁶ = 64 bytes, a cache line, and a multiple of the instruction
/// fetch and decoded-instruction-cache windows of current x86-64 and
/// Arm cores (16 and 32 bytes).
pub const FUNCTION_ALIGNMENT_LOG2: u32 = 6;

/// [`FUNCTION_ALIGNMENT_LOG2`] in bytes.
pub const FUNCTION_ALIGNMENT: u64 = 1 << FUNCTION_ALIGNMENT_LOG2;

/// The rustc flags that pin the layout.
pub fn pinning_flags() -> [String; 2] {
    [
        "-C".to_owned(),
        format!("llvm-args=-align-all-functions={FUNCTION_ALIGNMENT_LOG2}"),
    ]
}

/// How a build gets [`pinning_flags`] on top of the user's own flags.
///
/// rustc's flags come from the first of `CARGO_ENCODED_RUSTFLAGS`,
/// `RUSTFLAGS` and cargo's configuration (`build.rustflags`) that is set.
/// When one of the variables is, the flags are added to it; otherwise
/// they go in as `--config build.rustflags=[…]`, which cargo appends to
/// the configuration files' `build.rustflags`. (A configuration that sets
/// `target.<triple>.rustflags` instead takes precedence over
/// `build.rustflags`, and the build is then not pinned.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pinning {
    /// Set `CARGO_ENCODED_RUSTFLAGS` to this (flags separated by 0x1f).
    EncodedRustflags(String),
    /// Pass `--config` and this to cargo.
    Config(String),
}

impl Pinning {
    /// The pinning for a cargo run whose environment holds
    /// `encoded` (`CARGO_ENCODED_RUSTFLAGS`) and `plain` (`RUSTFLAGS`).
    pub fn for_env(encoded: Option<OsString>, plain: Option<OsString>) -> Pinning {
        let ours = pinning_flags();
        let user: Option<Vec<String>> = match (encoded, plain) {
            (Some(e), _) => Some(
                e.to_string_lossy()
                    .split('\u{1f}')
                    .filter(|f| !f.is_empty())
                    .map(str::to_owned)
                    .collect(),
            ),
            (None, Some(p)) => Some(
                p.to_string_lossy()
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect(),
            ),
            (None, None) => None,
        };
        match user {
            Some(mut flags) => {
                flags.extend(ours);
                Pinning::EncodedRustflags(flags.join("\u{1f}"))
            }
            None => Pinning::Config(format!("build.rustflags={:?}", ours)),
        }
    }

    /// The pinning for this process's environment.
    pub fn from_env() -> Pinning {
        Pinning::for_env(
            std::env::var_os("CARGO_ENCODED_RUSTFLAGS"),
            std::env::var_os("RUSTFLAGS"),
        )
    }

    /// Applies it to a cargo command (before the subcommand's own
    /// arguments are added: `--config` goes right after `cargo`).
    pub fn apply(&self, cargo: &mut std::process::Command) {
        match self {
            Pinning::EncodedRustflags(flags) => {
                cargo.env("CARGO_ENCODED_RUSTFLAGS", flags);
                cargo.env_remove("RUSTFLAGS");
            }
            Pinning::Config(value) => {
                cargo.arg("--config").arg(value);
            }
        }
    }
}

/// The linker flag that lays out `.text.*` sections in the order `seed`
/// draws (rust-lld and LLVM's lld; seeds 0 and −1 mean "a random seed"
/// and "reversed" to lld, so a seed here is at least 1).
pub fn shuffle_flag(seed: u64) -> String {
    format!("link-arg=-Wl,--shuffle-sections=.text.*={}", seed.max(1))
}

/// The seed of link `k` (0-based) of a side: the head's are 1, 2, 3…, the
/// base's 1001, 1002…, so that the two sides of a pair never share an
/// order, and a comparison run again reuses its links (cargo keeps them
/// while the code is unchanged).
pub fn seed_for(side: perfmark_core::Side, k: usize) -> u64 {
    let first = match side {
        perfmark_core::Side::Head => 1,
        perfmark_core::Side::Base => 1001,
    };
    first + k as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_user_flags_the_pinning_is_appended_to_the_configuration() {
        assert_eq!(
            Pinning::for_env(None, None),
            Pinning::Config(
                "build.rustflags=[\"-C\", \"llvm-args=-align-all-functions=6\"]".to_owned()
            )
        );
    }

    #[test]
    fn user_flags_from_either_variable_are_kept_before_the_pinning() {
        let pinned = "-C\u{1f}target-cpu=native\u{1f}-C\u{1f}llvm-args=-align-all-functions=6";
        assert_eq!(
            Pinning::for_env(None, Some("-C  target-cpu=native ".into())),
            Pinning::EncodedRustflags(pinned.to_owned())
        );
        assert_eq!(
            Pinning::for_env(Some("-C\u{1f}target-cpu=native".into()), Some("-O".into())),
            Pinning::EncodedRustflags(pinned.to_owned())
        );
    }
}
