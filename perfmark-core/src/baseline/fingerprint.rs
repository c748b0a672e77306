//! The environment a baseline was recorded in, and whether a stored one is
//! comparable with this machine.
//!
//! As the `SystemInfo` of Sestoft's "Microbenchmarks in Java and C#"
//! (2016) prints OS, runtime, CPU, cores and
//! date above every benchmark table, every baseline entry carries a
//! [`Fingerprint`]: a time is only meaningful next to the machine and
//! toolchain that produced it. Which differences make it meaningless here,
//! and which are only worth a note, [`Fingerprint::compare`] decides when a
//! run compares, not when a baseline is written.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The environment of one measurement (fields in alphabetical order, as they
/// appear in the JSON).
///
/// [`Fingerprint::compare`] decides, when a stored baseline's fingerprint
/// differs from this run's, whether its times are comparable here: another
/// arch, CPU model, core count, OS, profile, or rustc or perfmark minor
/// release makes them incomparable; another kernel or patch release is only
/// noted. The fields stored are the same either way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// `std::env::consts::ARCH`: `x86_64`, `aarch64`, …
    pub arch: String,
    /// Logical cores available to the process (`available_parallelism`,
    /// which honours CPU affinity and cgroup quotas).
    pub cores: usize,
    /// CPU model name (`model name` in /proc/cpuinfo, or what the OS names
    /// elsewhere), or `unknown CPU`.
    pub cpu_model: String,
    /// When the measurement was recorded: RFC 3339 in UTC, to the second
    /// (`2026-05-01T12:34:56Z`).
    pub date: String,
    /// Kernel release (/proc/sys/kernel/osrelease, macOS's
    /// `kern.osrelease`), empty when unknown.
    pub kernel: String,
    /// `std::env::consts::OS`: `linux`, `macos`, …
    pub os: String,
    /// perfmark's version.
    pub perfmark_version: String,
    /// Build profile of the measured code: `release`, `debug`, or a custom
    /// profile's name.
    pub profile: String,
    /// `rustc --version` of the compiler that built the measured code.
    pub rustc: String,
}

/// The placeholder a baseline directory may hold for the CPU model
/// ([`machine_dir`]).
pub const CPU_PLACEHOLDER: &str = "{cpu}";

/// `dir` with every `{cpu}` replaced by a file-name form of `cpu_model`
/// (lowercase letters and digits, other runs of characters as one `-`:
/// `AMD EPYC 7763 64-Core Processor` → `amd-epyc-7763-64-core-processor`),
/// so that machines of several CPU models keep their baselines side by
/// side (`--baseline-dir perf-baselines/{cpu}`) and each run reads and
/// writes its own model's. A `dir` without the placeholder is returned as
/// it is.
pub fn machine_dir(dir: &std::path::Path, cpu_model: &str) -> std::path::PathBuf {
    let text = dir.to_string_lossy();
    if !text.contains(CPU_PLACEHOLDER) {
        return dir.to_path_buf();
    }
    let mut slug = String::new();
    for c in cpu_model.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-');
    let slug = if slug.is_empty() { "unknown-cpu" } else { slug };
    std::path::PathBuf::from(text.replace(CPU_PLACEHOLDER, slug))
}

impl Fingerprint {
    /// The fingerprint of this process, now.
    ///
    /// Reads the CPU model and the kernel release as the header names them
    /// (`unknown CPU` and empty where they cannot be read); the toolchain
    /// strings are the caller's, since only the test binary knows what
    /// built it.
    pub fn current(rustc: &str, profile: &str, perfmark_version: &str) -> Fingerprint {
        let cpu_model = crate::platform::cpu_model().unwrap_or_else(|| UNKNOWN_CPU.to_owned());
        let kernel = crate::platform::kernel_release().unwrap_or_default();
        Fingerprint {
            arch: std::env::consts::ARCH.to_owned(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            cpu_model,
            date: rfc3339_utc(SystemTime::now()),
            kernel,
            os: std::env::consts::OS.to_owned(),
            perfmark_version: perfmark_version.to_owned(),
            profile: profile.to_owned(),
            rustc: rustc.to_owned(),
        }
    }

    /// Compares `self`, this run's fingerprint, with the fingerprint of a
    /// stored `baseline`, each differing field in one of two classes.
    ///
    /// *Incomparable*: another architecture, CPU model, core count, OS or
    /// build profile, or a rustc or perfmark of another major or minor
    /// release. A time measured on other hardware, at another optimization
    /// level, from another code generator or by another harness is a
    /// different quantity, and failing a test on it would be a false alarm:
    /// the baseline is not used to fail. A version that does not read as
    /// `major.minor.patch` (its first word beginning with a digit, with an
    /// optional `-pre-release` and `+build`), or a pre-release (nightly,
    /// beta, `-dev`), counts as another release when its string differs:
    /// its number does not say how much changed.
    ///
    /// *Note only*: another kernel release, or a rustc or perfmark patch
    /// release (the same stable major.minor; also the same number built
    /// differently). The baseline is used, and [`MachineMatch::note`] says
    /// what differed. A compiler upgrade within a minor release is one of
    /// the regressions a baseline is there to catch, and a runner's kernel
    /// changes every few weeks. The date always differs and is listed in
    /// [`MachineMatch::differences`] only.
    pub fn compare(&self, baseline: &Fingerprint) -> MachineMatch {
        let fields = [
            ("CPU", &baseline.cpu_model, &self.cpu_model, Class::Machine),
            (
                "cores",
                &baseline.cores.to_string(),
                &self.cores.to_string(),
                Class::Machine,
            ),
            ("OS", &baseline.os, &self.os, Class::Machine),
            (
                "kernel",
                &or_unknown(&baseline.kernel),
                &or_unknown(&self.kernel),
                Class::Kernel,
            ),
            ("arch", &baseline.arch, &self.arch, Class::Machine),
            ("profile", &baseline.profile, &self.profile, Class::Machine),
            ("rustc", &baseline.rustc, &self.rustc, Class::Release),
            (
                "perfmark",
                &baseline.perfmark_version,
                &self.perfmark_version,
                Class::Release,
            ),
        ];
        let mut differences: Vec<Difference> = fields
            .into_iter()
            .filter(|(_, then, now, _)| then != now)
            .map(|(field, then, now, class)| Difference {
                field,
                effect: match class {
                    Class::Machine => Effect::Incomparable,
                    Class::Kernel => Effect::Kernel,
                    Class::Release => match release_change(then, now) {
                        Ok(()) => Effect::PatchRelease,
                        Err(why) => Effect::OtherRelease(why),
                    },
                },
                then: then.clone(),
                now: now.clone(),
            })
            .collect();
        if baseline.date != self.date {
            differences.push(Difference {
                field: "date",
                then: baseline.date.clone(),
                now: self.date.clone(),
                effect: Effect::Date,
            });
        }
        MachineMatch {
            baseline: baseline.clone(),
            here: self.clone(),
            differences,
        }
    }
}

/// What [`Fingerprint::compare`] found: the two fingerprints and each
/// field that differs, with what its difference means.
///
/// Its [`Display`](std::fmt::Display), made by the report's words, is the
/// line the runner prints of a baseline. Not comparable, e.g. `baseline
/// recorded on AMD EPYC 7B13, 8 cores, linux 6.1, x86_64, release profile;
/// this machine Intel(R) Xeon(R) CPU @ 2.20GHz, 2 cores, linux 6.1, x86_64,
/// release profile: not used to fail`; when a rustc or perfmark release is
/// why, both machines name it and the reason follows in parentheses (`…,
/// release profile, rustc 1.95.0 (…): not used to fail (rustc 1.95 in the
/// baseline, 1.96 here: …)`). Comparable with a note-only difference, its
/// `note`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineMatch {
    /// The baseline's fingerprint.
    pub baseline: Fingerprint,
    /// This machine's.
    pub here: Fingerprint,
    /// Every field that differs, in the order CPU, cores, OS, kernel, arch,
    /// profile, rustc, perfmark, date.
    pub differences: Vec<Difference>,
}

/// A fingerprint field that differs between a baseline and this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The field, as named in words: `CPU`, `cores`, `OS`, `kernel`,
    /// `arch`, `profile`, `rustc`, `perfmark`, `date`.
    pub field: &'static str,
    /// Its value in the baseline (`unknown` for an empty kernel).
    pub then: String,
    /// Its value here.
    pub now: String,
    /// What the difference means for the baseline.
    pub effect: Effect,
}

/// What a field's difference means for a baseline
/// ([`Fingerprint::compare`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Times are incomparable: another machine or build profile.
    Incomparable,
    /// Another kernel release: noted, the baseline used.
    Kernel,
    /// A rustc or perfmark patch release: noted, the baseline used.
    PatchRelease,
    /// A rustc or perfmark of another release: incomparable, for this
    /// reason.
    OtherRelease(ReleaseChange),
    /// The recording date: among the differences only.
    Date,
}

/// Why a rustc or perfmark version change makes times incomparable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReleaseChange {
    /// This version does not read as major.minor.patch.
    Unreadable {
        /// The version string.
        version: String,
    },
    /// A pre-release, whose number does not pin what it is.
    PreRelease {
        /// The version's number word: `1.97.0-nightly`.
        word: String,
    },
    /// Another major or minor release.
    OtherMinor {
        /// `major.minor` in the baseline.
        then: (u64, u64),
        /// `major.minor` here.
        now: (u64, u64),
    },
}

impl MachineMatch {
    /// Whether the baseline may be used to fail a test: no field of the
    /// incomparable class differs ([`Fingerprint::compare`]).
    pub fn is_comparable(&self) -> bool {
        self.differences.iter().all(|d| {
            matches!(
                d.effect,
                Effect::Kernel | Effect::PatchRelease | Effect::Date
            )
        })
    }

    /// Whether the baseline is comparable and something differed that
    /// earns a note: another kernel, or a rustc or perfmark patch release.
    pub fn has_note(&self) -> bool {
        self.is_comparable() && self.notes().next().is_some()
    }

    /// The note-only differences: another kernel, a rustc or perfmark
    /// patch release.
    pub fn notes(&self) -> impl Iterator<Item = &Difference> {
        self.differences
            .iter()
            .filter(|d| matches!(d.effect, Effect::Kernel | Effect::PatchRelease))
    }

    /// Every field that differs, in the order of [`Fingerprint::compare`].
    /// Empty when nothing differs.
    #[cfg(feature = "tool")]
    pub fn differences(&self) -> &[Difference] {
        &self.differences
    }
}

/// The class of a fingerprint field ([`Fingerprint::compare`]).
#[derive(Debug, Clone, Copy)]
enum Class {
    /// Any difference makes times incomparable.
    Machine,
    /// Any difference is a note.
    Kernel,
    /// A version: a patch release is a note, anything else incomparable.
    Release,
}

/// A release number read from a version string ([`Release::parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Release<'a> {
    /// The word it was read from: `1.97.0-nightly`.
    word: &'a str,
    /// `major.minor.patch`.
    number: (u64, u64, u64),
    /// Whether the number has a pre-release suffix (`-nightly`, `-beta.3`,
    /// `-dev`).
    pre_release: bool,
}

impl<'a> Release<'a> {
    /// The release named by `version`: its first word that begins with a
    /// digit (`1.95.0` of `rustc 1.95.0 (59807616e 2026-04-14)`, `0.1.0` of
    /// perfmark's version), as `major.minor.patch` with an optional
    /// `-pre-release` and `+build` suffix (SemVer's grammar, leading zeros
    /// tolerated). `None` when there is no such word (`rustc (unknown
    /// version)`) or it has not three numeric parts (`1.95`, `1.95.x`).
    fn parse(version: &'a str) -> Option<Release<'a>> {
        let word = version
            .split_whitespace()
            .find(|w| w.starts_with(|c: char| c.is_ascii_digit()))?;
        let without_build = word.split_once('+').map_or(word, |(w, _)| w);
        let (core, pre_release) = match without_build.split_once('-') {
            Some((_, "")) => return None,
            Some((core, _)) => (core, true),
            None => (without_build, false),
        };
        let mut parts = core.split('.').map(|part| {
            part.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| part.parse::<u64>().ok())
                .flatten()
        });
        let (Some(Some(major)), Some(Some(minor)), Some(Some(patch)), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return None;
        };
        Some(Release {
            word,
            number: (major, minor, patch),
            pre_release,
        })
    }
}

/// Whether a version `then` in a baseline and `now` here, two different
/// strings, leave times comparable: `Ok` for the same stable major.minor,
/// else why not.
fn release_change(then: &str, now: &str) -> Result<(), ReleaseChange> {
    fn read(version: &str) -> Result<Release<'_>, ReleaseChange> {
        Release::parse(version).ok_or_else(|| ReleaseChange::Unreadable {
            version: version.to_owned(),
        })
    }
    let (old, new) = (read(then)?, read(now)?);
    if let Some(pre) = [old, new].into_iter().find(|r| r.pre_release) {
        return Err(ReleaseChange::PreRelease {
            word: pre.word.to_owned(),
        });
    }
    let ((old_major, old_minor, _), (new_major, new_minor, _)) = (old.number, new.number);
    if (old_major, old_minor) != (new_major, new_minor) {
        return Err(ReleaseChange::OtherMinor {
            then: (old_major, old_minor),
            now: (new_major, new_minor),
        });
    }
    Ok(())
}

/// What [`Fingerprint::current`] records when the CPU model is not known.
const UNKNOWN_CPU: &str = "unknown CPU";

fn or_unknown(s: &str) -> String {
    if s.is_empty() {
        "unknown".to_owned()
    } else {
        s.to_owned()
    }
}

/// The CPU model named in the text of /proc/cpuinfo: the first `model name`
/// (x86), else `Model` or `Hardware` (ARM boards), with runs of blanks
/// collapsed to one space, else the first core's `CPU implementer` and
/// `CPU part` (Linux on arm64 servers names nothing else: without them a
/// Neoverse N1 and a V2 of the same core count would read as one machine).
/// `None` when the text names none.
pub fn cpu_model_from_cpuinfo(cpuinfo: &str) -> Option<String> {
    let find = |wanted: &str| {
        cpuinfo.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
            (key.trim() == wanted && !value.is_empty()).then_some(value)
        })
    };
    let arm_part = || {
        let implementer = find("CPU implementer")?;
        let part = find("CPU part")?;
        Some(format!("CPU implementer {implementer} part {part}"))
    };
    find("model name")
        .or_else(|| find("Model"))
        .or_else(|| find("Hardware"))
        .or_else(arm_part)
}

/// `time` as RFC 3339 in UTC, to the whole second: `2026-05-01T12:34:56Z`.
/// Times before 1970 are handled; sub-second digits are dropped (rounded
/// toward the past).
pub fn rfc3339_utc(time: SystemTime) -> String {
    let secs: i64 = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
        Err(before) => {
            let before = before.duration();
            // Round toward the past: 0.5 s before the epoch is 23:59:59.
            let whole = i64::try_from(before.as_secs()).unwrap_or(i64::MAX);
            -whole - i64::from(before.subsec_nanos() > 0)
        }
    };
    let days = secs.div_euclid(86_400);
    let of_day = secs.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// Proleptic Gregorian (year, month, day) of the day `days` after
/// 1970-01-01: Howard Hinnant's `civil_from_days`, which counts in 400-year
/// eras (146,097 days) starting on March 1st so that leap days fall at the
/// end of each year.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097); // [0, 146096]
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153; // [0, 11], 0 = March
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // Both are in range by construction: day in [1, 31], month in [1, 12].
    (year, month as u32, day as u32)
}

#[cfg(test)]
mod tests;
