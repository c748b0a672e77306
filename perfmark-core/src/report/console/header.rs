//! The lines before the tests: the platform, the timer and the noise
//! floor, the machine lock, start-up, and in a paired comparison the two
//! builds and how their layouts were drawn.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use super::Console;
use crate::baseline::run_spreads::Prior;
use crate::cpus::{Cpus, NotPinned};
use crate::platform::{EnvironmentWarning, Platform};
use crate::report::fmt::fmt_ns;
use crate::report::words::{environment, runner};
use crate::report::{FamilyWise, Startup};

impl<O: Write, E: Write> Console<O, E> {
    /// The header: perfmark and the platform (Peter Sestoft's SystemInfo,
    /// "Microbenchmarks in Java and C#" (2016)), the timers and the noise
    /// floor, a word when the build is not `measuring`, the run's
    /// `warnings`, and where the reports go with the command that draws
    /// their page (`cargo perfmark report DIR`, the path quoted for a shell
    /// where it needs to be).
    pub fn header(
        &mut self,
        p: &Platform,
        noise_floor: Option<f64>,
        measuring: bool,
        warnings: &[EnvironmentWarning],
        report_dir: &Path,
    ) {
        if !self.pretty() {
            return;
        }
        let kernel = p
            .kernel
            .as_deref()
            .map(|k| format!(" {k}"))
            .unwrap_or_default();
        self.say(format_args!(
            "perfmark {} · {}{kernel} {} · {} · {} cores · {} · {} build",
            p.perfmark_version, p.os, p.arch, p.cpu_model, p.cores, p.rustc, p.profile
        ));
        let floor = match noise_floor {
            Some(f) => format!("noise floor {:.2}% (LFSR task, robust spread)", f * 100.0),
            None => "noise floor not measured".to_owned(),
        };
        self.say(format_args!(
            "timer: Instant, resolution {}, overhead {} per read · {floor}",
            fmt_ns(p.clock.resolution_ns),
            fmt_ns(p.clock.overhead_ns)
        ));
        if let Some(cpu) = &p.cpu_clock {
            self.say(format_args!(
                "cpu timer (measure = \"cpu\"): thread CPU time, resolution {}, overhead {} per read",
                fmt_ns(cpu.resolution_ns),
                fmt_ns(cpu.overhead_ns)
            ));
        }
        if !measuring {
            self.say(format_args!("unoptimized build: tests run as smoke tests and are not measured; run `cargo test --release` (or set PERFMARK_FORCE=1)"));
        }
        for w in warnings {
            self.say(format_args!("warning: {}", environment::words(w)));
        }
        let dir = report_dir.display().to_string();
        self.say(format_args!(
            "reports: {dir} (the page: cargo perfmark report {})",
            shell_word(&dir)
        ));
    }

    /// The run waited `waited` for the machine-wide lock at `path`.
    pub fn lock_waited(&mut self, waited: Duration, path: &Path) {
        if !self.pretty() {
            return;
        }
        self.say(format_args!(
            "machine lock: waited {:.2} s for another perfmark run measuring on this machine ({})",
            waited.as_secs_f64(),
            path.display()
        ));
    }

    /// What the start-up cost (under nextest, where every test pays it).
    pub fn startup(&mut self, startup: &Startup) {
        self.header_line(&startup.line());
    }

    /// Compare mode's header: the base build (its first link) and how
    /// many links of each build the process pairs draw from.
    pub fn comparing(&mut self, base: &Path, head_links: usize, base_links: usize) {
        if !self.pretty() {
            return;
        }
        let links = if head_links == 1 && base_links == 1 {
            String::new()
        } else {
            format!(
                "; layouts drawn from {head_links} links of the head and {base_links} of the \
                 base"
            )
        };
        self.say(format_args!(
            "comparing with base {} (paired, slice by slice{links}; stored baselines not read)",
            base.display()
        ));
    }

    /// In a comparison, once: when each build comes in one link, that the
    /// linker's placement of code is the same in every process pair (so
    /// not in the spread), and what draws it; nothing with more links.
    pub fn layout_not_drawn(&mut self, head_links: usize, base_links: usize) {
        if head_links > 1 || base_links > 1 || !self.pretty() {
            return;
        }
        self.say(format_args!(
            "note: one link of each build: where the linker placed the code is the same in \
             every process pair, so a change in layout alone can read as a change in speed \
             (cargo perfmark compare links each build several times, its functions in other \
             orders, and pairs across the links)"
        ));
    }

    /// In a comparison, once: when the builds' code layout is not pinned
    /// alike (not both built as `cargo perfmark compare` builds them), what
    /// that means for the verdicts; nothing when both are pinned.
    pub fn layout_not_pinned(&mut self, head_pinned: bool, base_pinned: bool) {
        let which = match (head_pinned, base_pinned) {
            (false, false) => "neither build has its code layout pinned",
            (true, false) => "the base has its code layout pinned and the head does not",
            (false, true) => "the head has its code layout pinned and the base does not",
            (true, true) => return,
        };
        if !self.pretty() {
            return;
        }
        self.say(format_args!(
            "note: {which} (cargo perfmark compare builds both with every function aligned to \
             {} bytes): a change of a few percent can be where code landed, not its speed",
            crate::worker::layout::PINNED_ALIGNMENT
        ));
    }

    /// How the run's verdicts are decided: `verdicts: ` and the
    /// family-wise correction, or its absence.
    pub fn verdicts(&mut self, family: FamilyWise) {
        self.header_line(&format!("verdicts: {}", runner::verdicts(family)));
    }

    /// The prior between-run spread the regression rule starts from, and
    /// where it comes from.
    pub fn prior(&mut self, prior: &Prior) {
        self.header_line(&prior.header());
    }

    /// How each measurement is held on the CPUs: process pairs when
    /// `paired`, else test threads; or why nothing is (`not_pinned`).
    pub fn placement(&mut self, cpus: &Cpus, not_pinned: Option<&NotPinned>, paired: bool) {
        self.header_line(&cpus.header(not_pinned, paired));
    }

    /// A line of the header, as it is.
    fn header_line(&mut self, line: &str) {
        if !self.pretty() {
            return;
        }
        self.say(format_args!("{line}"));
    }
}

/// `text` as one word of a POSIX shell command line: as it is when it holds
/// only characters no shell treats specially, else in single quotes.
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%=".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn a_path_is_quoted_only_where_a_shell_would_split_or_expand_it() {
        assert_eq!(shell_word("target/perfmark/perf"), "target/perfmark/perf");
        assert_eq!(shell_word("/home/me/my crate/t"), "'/home/me/my crate/t'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word("$HOME"), "'$HOME'");
        assert_eq!(shell_word(""), "''");
    }
}
