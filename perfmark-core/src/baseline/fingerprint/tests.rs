use super::*;
use std::time::Duration;

use crate::report::words::baseline::STILL_USED;

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

fn stored() -> Fingerprint {
    Fingerprint {
        arch: "x86_64".to_owned(),
        cores: 4,
        cpu_model: "AMD EPYC 7B13".to_owned(),
        date: "2026-05-01T12:34:56Z".to_owned(),
        kernel: "6.18.44-fc-v657".to_owned(),
        os: "linux".to_owned(),
        perfmark_version: "0.1.0".to_owned(),
        profile: "release".to_owned(),
        rustc: "rustc 1.95.0 (59807616e 2026-04-14)".to_owned(),
    }
}

#[test]
fn release_numbers_are_read_from_version_strings() {
    let number = |v| Release::parse(v).map(|r| (r.number, r.pre_release));
    assert_eq!(
        number("rustc 1.95.0 (59807616e 2026-04-14)"),
        Some(((1, 95, 0), false))
    );
    assert_eq!(
        number("rustc 1.97.0-nightly (a1b2c3d4e 2026-05-30)"),
        Some(((1, 97, 0), true))
    );
    assert_eq!(
        number("rustc 1.96.0-beta.3 (0123abcde 2026-05-20)"),
        Some(((1, 96, 0), true))
    );
    assert_eq!(number("0.1.0"), Some(((0, 1, 0), false)));
    assert_eq!(number("0.2.0-dev"), Some(((0, 2, 0), true)));
    assert_eq!(number("1.2.3+build.7"), Some(((1, 2, 3), false)));
    assert_eq!(number("01.02.03"), Some(((1, 2, 3), false)));
    for unreadable in [
        "",
        "rustc (unknown version)",
        "rustc 1.95",
        "1.95.0.1",
        "1.95.x",
        "1.95.-1",
        "1.95.0-",
        "1..0",
        "99999999999999999999.0.0",
    ] {
        assert_eq!(number(unreadable), None, "{unreadable:?}");
    }
    assert_eq!(
        Release::parse("rustc 1.97.0-nightly (a 2026-05-30)").map(|r| r.word),
        Some("1.97.0-nightly")
    );
}

#[test]
fn every_field_is_in_its_class() {
    type Change = (&'static str, fn(&mut Fingerprint), bool);
    // (field, the change, whether the baseline stays comparable)
    let changes: [Change; 16] = [
        ("arch", |f| f.arch = "aarch64".to_owned(), false),
        (
            "CPU",
            |f| f.cpu_model = "Intel(R) Xeon(R)".to_owned(),
            false,
        ),
        ("cores", |f| f.cores = 2, false),
        ("OS", |f| f.os = "macos".to_owned(), false),
        ("profile", |f| f.profile = "bench".to_owned(), false),
        (
            "rustc minor",
            |f| f.rustc = "rustc 1.96.0 (a 2026-05-28)".to_owned(),
            false,
        ),
        (
            "rustc major",
            |f| f.rustc = "rustc 2.95.0 (a 2030-01-01)".to_owned(),
            false,
        ),
        (
            "perfmark minor",
            |f| f.perfmark_version = "0.2.0".to_owned(),
            false,
        ),
        (
            "perfmark major",
            |f| f.perfmark_version = "1.1.0".to_owned(),
            false,
        ),
        ("kernel", |f| f.kernel = "6.18.44-fc-v669".to_owned(), true),
        ("kernel unknown", |f| f.kernel.clear(), true),
        ("kernel major", |f| f.kernel = "7.0.1".to_owned(), true),
        (
            "rustc patch",
            |f| f.rustc = "rustc 1.95.2 (b 2026-05-02)".to_owned(),
            true,
        ),
        (
            "rustc rebuilt",
            |f| f.rustc = "rustc 1.95.0 (59807616e 2026-04-14) (Fedora)".to_owned(),
            true,
        ),
        (
            "perfmark patch",
            |f| f.perfmark_version = "0.1.3".to_owned(),
            true,
        ),
        ("date", |f| f.date = "2027-01-01T00:00:00Z".to_owned(), true),
    ];
    let baseline = stored();
    for (what, change, comparable) in changes {
        let mut here = stored();
        change(&mut here);
        let m = here.compare(&baseline);
        assert_eq!(m.is_comparable(), comparable, "{what}: {m}");
        assert_eq!(m.differences().len(), 1, "{what}: {:?}", m.differences());
        let noted = comparable && what != "date";
        assert_eq!(m.note().is_some(), noted, "{what}: {m}");
        let words = m.to_string();
        if let Some(note) = m.note() {
            assert_eq!(words, note);
            assert!(note.ends_with(STILL_USED), "{what}: {note}");
        } else if comparable {
            assert!(
                words.starts_with("baseline recorded on this machine"),
                "{words}"
            );
        } else {
            assert!(words.contains(": not used to fail"), "{what}: {words}");
        }
    }
    // Both sides' versions matter, whichever was unreadable.
    for (then, now) in [
        ("rustc (unknown version)", "rustc 1.95.0"),
        ("rustc 1.95.0", "rustc 1.95"),
    ] {
        let (mut old, mut new) = (stored(), stored());
        (old.rustc, new.rustc) = (then.to_owned(), now.to_owned());
        let m = new.compare(&old);
        assert!(!m.is_comparable(), "{then} -> {now}");
    }
}

#[test]
fn a_kernel_patch_is_noted_and_the_baseline_used() {
    let mut here = stored();
    here.kernel = "6.18.44-fc-v669".to_owned();
    here.date = "2026-06-01T00:00:00Z".to_owned();
    let m = here.compare(&stored());
    assert!(m.is_comparable());
    let note = "baseline recorded under kernel 6.18.44-fc-v657, now 6.18.44-fc-v669: still \
                used (a kernel, rustc or perfmark patch release does not make times \
                incomparable)";
    assert_eq!(m.note().as_deref(), Some(note));
    assert_eq!(m.to_string(), note);
    // With another CPU as well, the baseline is not used and there is
    // no note: the sentence names both machines, kernels included.
    here.cpu_model = "Intel(R) Xeon(R)".to_owned();
    let m = here.compare(&stored());
    assert_eq!(m.note(), None);
    assert_eq!(
        m.to_string(),
        "baseline recorded on AMD EPYC 7B13, 4 cores, linux 6.18.44-fc-v657, x86_64, release \
         profile; this machine Intel(R) Xeon(R), 4 cores, linux 6.18.44-fc-v669, x86_64, \
         release profile: not used to fail"
    );
}

#[test]
fn an_unreadable_or_pre_release_version_is_incomparable_and_says_why() {
    let mut here = stored();
    here.rustc = "rustc (unknown version)".to_owned();
    assert_eq!(
        here.compare(&stored()).to_string(),
        "baseline recorded on AMD EPYC 7B13, 4 cores, linux 6.18.44-fc-v657, x86_64, release \
         profile, rustc 1.95.0 (59807616e 2026-04-14); this machine AMD EPYC 7B13, 4 cores, \
         linux 6.18.44-fc-v657, x86_64, release profile, rustc (unknown version): not used \
         to fail (rustc version \"rustc (unknown version)\" does not read as \
         major.minor.patch, so any change of it counts)"
    );
    // Two nightlies of one number are different compilers.
    let (mut old, mut new) = (stored(), stored());
    old.rustc = "rustc 1.97.0-nightly (a1b2c3d4e 2026-05-01)".to_owned();
    new.rustc = "rustc 1.97.0-nightly (f5e6d7c8b 2026-05-30)".to_owned();
    let m = new.compare(&old);
    assert!(!m.is_comparable());
    assert!(
        m.to_string().ends_with(
            "not used to fail (rustc 1.97.0-nightly is a pre-release, whose number does not \
             pin what it is, so any change of it counts)"
        ),
        "{m}"
    );
    // The same nightly on both sides: nothing differs.
    assert!(old.compare(&old).is_comparable());
    // perfmark's own pre-release, and a patch and a minor release at once.
    new = stored();
    new.perfmark_version = "0.1.1-dev".to_owned();
    assert!(!new.compare(&stored()).is_comparable());
    new.perfmark_version = "0.1.1".to_owned();
    new.rustc = "rustc 1.96.0 (a 2026-05-28)".to_owned();
    let m = new.compare(&stored());
    assert!(!m.is_comparable());
    assert!(
        m.to_string().contains(
            ", rustc 1.96.0 (a 2026-05-28): not used to fail (rustc 1.95 in the baseline, 1.96 \
         here: another major or minor release may change the times)"
        ),
        "{m}"
    );
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

#[test]
fn a_cpu_placeholder_names_the_model_in_a_file_name_form() {
    use std::path::Path;
    let dir = Path::new("perf-baselines/{cpu}");
    assert_eq!(
        machine_dir(dir, "AMD EPYC 7763 64-Core Processor"),
        Path::new("perf-baselines/amd-epyc-7763-64-core-processor")
    );
    assert_eq!(
        machine_dir(dir, "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz"),
        Path::new("perf-baselines/intel-r-xeon-r-platinum-8370c-cpu-2-80ghz")
    );
    assert_eq!(
        machine_dir(dir, " ()"),
        Path::new("perf-baselines/unknown-cpu")
    );
    // Without the placeholder the directory is the user's, as given.
    assert_eq!(
        machine_dir(Path::new("mine/{x}"), "AMD EPYC"),
        Path::new("mine/{x}")
    );
}
