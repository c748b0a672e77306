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
    // Linux on an arm64 server (AWS Graviton2): no model name.
    let neoverse = "processor\t: 0\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd\n\
                    CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\n\
                    CPU part\t: 0xd0c\nCPU revision\t: 1\n\n\
                    processor\t: 1\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n";
    assert_eq!(
        cpu_model_from_cpuinfo(neoverse).as_deref(),
        Some("CPU implementer 0x41 part 0xd0c")
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
