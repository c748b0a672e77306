//! The environment a baseline was recorded in, and whether a stored one is
//! comparable with this machine.
//!
//! As the `SystemInfo` of Sestoft's "Microbenchmarks in Java and C#"
//! (2016) prints OS, runtime, CPU, cores and
//! date above every benchmark table, every baseline entry carries a
//! [`Fingerprint`]: a time is only meaningful next to the machine and
//! toolchain that produced it.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The environment of one measurement (fields in alphabetical order, as they
/// appear in the JSON).
///
/// [`Fingerprint::compare`] decides which fields make two fingerprints the
/// "same machine": CPU model, cores, OS, kernel, arch and build profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// `std::env::consts::ARCH`: `x86_64`, `aarch64`, …
    pub arch: String,
    /// Logical cores available to the process (`available_parallelism`,
    /// which honours CPU affinity and cgroup quotas).
    pub cores: usize,
    /// CPU model name (`model name` in /proc/cpuinfo), or `unknown CPU`.
    pub cpu_model: String,
    /// When the measurement was recorded: RFC 3339 in UTC, to the second
    /// (`2026-05-01T12:34:56Z`).
    pub date: String,
    /// Kernel release (/proc/sys/kernel/osrelease), empty when unknown.
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

impl Fingerprint {
    /// The fingerprint of this process, now.
    ///
    /// Reads the CPU model from /proc/cpuinfo and the kernel release from
    /// /proc/sys/kernel/osrelease (Linux; elsewhere they are `unknown CPU`
    /// and empty); the toolchain strings are the caller's, since only the
    /// test binary knows what built it.
    pub fn current(rustc: &str, profile: &str, perfmark_version: &str) -> Fingerprint {
        let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| cpu_model_from_cpuinfo(&info))
            .unwrap_or_else(|| UNKNOWN_CPU.to_owned());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|s| s.trim().to_owned())
            .unwrap_or_default();
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
    /// stored `baseline`.
    ///
    /// The baseline is from the same machine when CPU model, cores, OS,
    /// kernel release, arch and build profile all match: a time measured
    /// on other hardware, another kernel, or another optimization level is
    /// a different quantity, and failing a test on it would be a false
    /// alarm. Differences in rustc, perfmark version and date do not
    /// disqualify (a compiler upgrade is one of the regressions a baseline
    /// is there to catch) but are listed.
    pub fn compare(&self, baseline: &Fingerprint) -> MachineMatch {
        let mut differences = Vec::new();
        let mut disqualifying = false;
        let mut field = |name: &str, then: String, now: String, disqualifies: bool| {
            if then != now {
                differences.push(format!("{name}: {then} in the baseline, {now} here"));
                disqualifying |= disqualifies;
            }
        };
        field(
            "CPU",
            baseline.cpu_model.clone(),
            self.cpu_model.clone(),
            true,
        );
        field(
            "cores",
            baseline.cores.to_string(),
            self.cores.to_string(),
            true,
        );
        field("OS", baseline.os.clone(), self.os.clone(), true);
        field(
            "kernel",
            or_unknown(&baseline.kernel),
            or_unknown(&self.kernel),
            true,
        );
        field("arch", baseline.arch.clone(), self.arch.clone(), true);
        field(
            "profile",
            baseline.profile.clone(),
            self.profile.clone(),
            true,
        );
        field("rustc", baseline.rustc.clone(), self.rustc.clone(), false);
        field(
            "perfmark",
            baseline.perfmark_version.clone(),
            self.perfmark_version.clone(),
            false,
        );
        if baseline.date != self.date {
            differences.push(format!("recorded {}", baseline.date));
        }
        MachineMatch {
            same_machine: !disqualifying,
            baseline_machine: baseline.machine(),
            this_machine: self.machine(),
            differences,
        }
    }

    /// The machine in words: `Intel(R) Xeon(R) CPU @ 2.20GHz, 8 cores, linux
    /// 6.1.0-18-amd64, x86_64, release profile`.
    pub fn machine(&self) -> String {
        let os = if self.kernel.is_empty() {
            self.os.clone()
        } else {
            format!("{} {}", self.os, self.kernel)
        };
        let cores = if self.cores == 1 { "core" } else { "cores" };
        format!(
            "{}, {} {cores}, {os}, {}, {} profile",
            self.cpu_model, self.cores, self.arch, self.profile
        )
    }
}

/// What [`Fingerprint::compare`] found.
///
/// Its [`Display`](fmt::Display) is the line the runner prints beside a
/// regression verdict, e.g. `baseline recorded on AMD EPYC 7B13, 8 cores,
/// linux 6.1, x86_64, release profile; this machine Intel(R) Xeon(R) CPU @
/// 2.20GHz, 2 cores, linux 6.1, x86_64, release profile: not used to fail`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineMatch {
    same_machine: bool,
    baseline_machine: String,
    this_machine: String,
    differences: Vec<String>,
}

impl MachineMatch {
    /// Whether the baseline may be used to fail a test.
    pub fn is_same_machine(&self) -> bool {
        self.same_machine
    }

    /// Every field that differs, one phrase each (`cores: 8 in the
    /// baseline, 2 here`), in the order CPU, cores, OS, kernel, arch,
    /// profile, rustc, perfmark, date. Empty when nothing differs.
    pub fn differences(&self) -> &[String] {
        &self.differences
    }
}

impl fmt::Display for MachineMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.same_machine {
            return write!(
                f,
                "baseline recorded on {}; this machine {}: not used to fail",
                self.baseline_machine, self.this_machine
            );
        }
        f.write_str("baseline recorded on this machine")?;
        if !self.differences.is_empty() {
            write!(f, " ({})", self.differences.join("; "))?;
        }
        Ok(())
    }
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
/// collapsed to one space. `None` when the text names none.
pub fn cpu_model_from_cpuinfo(cpuinfo: &str) -> Option<String> {
    let find = |wanted: &str| {
        cpuinfo.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
            (key.trim() == wanted && !value.is_empty()).then_some(value)
        })
    };
    find("model name")
        .or_else(|| find("Model"))
        .or_else(|| find("Hardware"))
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
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(secs: i64) -> String {
        let t = if secs >= 0 {
            UNIX_EPOCH + Duration::from_secs(secs as u64)
        } else {
            UNIX_EPOCH - Duration::from_secs(secs.unsigned_abs())
        };
        rfc3339_utc(t)
    }

    #[test]
    fn dates_match_known_instants() {
        // Checked against `date -u -d @SECS +%Y-%m-%dT%H:%M:%SZ`.
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(951_868_799), "2000-02-29T23:59:59Z");
        assert_eq!(at(1_709_251_199), "2024-02-29T23:59:59Z");
        assert_eq!(at(4_107_542_400), "2100-03-01T00:00:00Z");
        assert_eq!(at(253_402_300_799), "9999-12-31T23:59:59Z");
        assert_eq!(at(-1), "1969-12-31T23:59:59Z");
        assert_eq!(at(-2_208_988_800), "1900-01-01T00:00:00Z");
        let half_before = UNIX_EPOCH - Duration::from_millis(500);
        assert_eq!(rfc3339_utc(half_before), "1969-12-31T23:59:59Z");
        let half_after = UNIX_EPOCH + Duration::from_millis(1500);
        assert_eq!(rfc3339_utc(half_after), "1970-01-01T00:00:01Z");
    }

    #[test]
    fn every_day_of_four_centuries_is_consecutive() {
        // Walk day by day from 1900 to 2300: the calendar must advance by
        // exactly one day each time, with February 29 only in leap years.
        let mut previous = civil_from_days(-25_567); // 1900-01-01
        assert_eq!(previous, (1900, 1, 1));
        for days in -25_566..120_000 {
            let (y, m, d) = civil_from_days(days);
            let (py, pm, pd) = previous;
            let next_day = (y, m, d) == (py, pm, pd + 1);
            let next_month = d == 1 && ((y == py && m == pm + 1) || (y == py + 1 && m == 1));
            assert!(next_day || next_month, "{previous:?} -> {:?}", (y, m, d));
            if m == 2 && d == 29 {
                assert!(
                    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0),
                    "{y} is not a leap year"
                );
            }
            previous = (y, m, d);
        }
    }

    #[test]
    fn cpu_model_is_read_from_cpuinfo_text() {
        let x86 = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 85\n\
                   model name\t: Intel(R) Xeon(R) CPU   @ 2.20GHz\nflags\t\t: fpu\n\n\
                   processor\t: 1\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n";
        assert_eq!(
            cpu_model_from_cpuinfo(x86).as_deref(),
            Some("Intel(R) Xeon(R) CPU @ 2.20GHz")
        );
        let arm = "processor\t: 0\nBogoMIPS\t: 108.00\n\nHardware\t: BCM2835\n\
                   Model\t\t: Raspberry Pi 4 Model B Rev 1.4\n";
        assert_eq!(
            cpu_model_from_cpuinfo(arm).as_deref(),
            Some("Raspberry Pi 4 Model B Rev 1.4")
        );
        assert_eq!(
            cpu_model_from_cpuinfo("processor\t: 0\nmodel name\t:\n"),
            None
        );
        assert_eq!(cpu_model_from_cpuinfo(""), None);
    }
}
