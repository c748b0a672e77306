use super::*;
use crate::observe::{Fixed, Switches};

/// A reading of a 2-CPU machine: `run_ms`/`wait_ms` of the thread,
/// `busy`/`idle`/`steal` ticks of each CPU (10 ms each), the process's
/// CPU time.
#[allow(clippy::too_many_arguments)]
fn reading(
    at_ms: f64,
    run_ms: u64,
    wait_ms: u64,
    involuntary: u64,
    busy: [u64; 2],
    idle: [u64; 2],
    steal: [u64; 2],
    own_cpu_ms: u64,
) -> Reading {
    let cpu = |i: usize| format!("{} 0 0 {} 0 0 0 {} 0 0", busy[i], idle[i], steal[i]);
    let all = format!(
        "{} 0 0 {} 0 0 0 {} 0 0",
        busy[0] + busy[1],
        idle[0] + idle[1],
        steal[0] + steal[1]
    );
    Reading::take(&Fixed {
        schedstat: Some(format!(
            "{} {} 10\n",
            run_ms * 1_000_000,
            wait_ms * 1_000_000
        )),
        sched: Some("se.nr_migrations   :   3\n".to_owned()),
        stat: Some(format!("cpu  {all}\ncpu0 {}\ncpu1 {}\n", cpu(0), cpu(1))),
        loadavg: Some("1.50 1.0 1.0 3/90 1234\n".to_owned()),
        switches: Some(Switches {
            voluntary: 2,
            involuntary,
        }),
        process_cpu_ns: Some(own_cpu_ms * 1_000_000),
        mono_ns: at_ms * 1e6,
        unix_s: 1.7e9 + at_ms / 1e3,
    })
}

#[test]
fn a_quiet_second_is_not_disturbed() {
    // One second: the thread runs 996 ms, waits 2 ms; the machine's
    // busy time is the process's own (the thread's 996 ms) plus 14 ms
    // of daemons; 250 involuntary switches (every tick) change nothing.
    let a = reading(0.0, 0, 0, 0, [0, 0], [0, 0], [0, 0], 0);
    let b = reading(1000.0, 996, 2, 250, [100, 1], [0, 99], [0, 0], 996);
    let i = Interference::between(&a, &b);
    assert_eq!(i.wall_s, 1.0);
    assert_eq!(i.run_s, Some(0.996));
    assert_eq!(i.wait_s, Some(0.002));
    assert_eq!(i.involuntary_switches, Some(250));
    assert_eq!(i.migrations, Some(0));
    assert!((i.other_cpu_s.unwrap() - 0.014).abs() < 1e-9);
    assert_eq!(i.waited_s, Some(0.002));
    assert_eq!(i.steal, Some(0.0));
    assert!((i.lost_share.unwrap() - 0.002).abs() < 1e-9);
    assert!(!i.disturbed);
    assert_eq!(i.warning(), None);
    assert_eq!(i.cpus.len(), 2);
    assert_eq!(i.cpus[0].busy, 1.0);
    assert_eq!(i.load_before, Some(1.5));
}

#[test]
fn a_competing_loop_disturbs_and_the_warning_gives_the_figures() {
    // Two busy loops and the test on two CPUs: the thread runs 2/3 of
    // the second and waits 1/3; the loops used 1.33 CPU-s.
    let a = reading(0.0, 0, 0, 0, [0, 0], [0, 0], [0, 0], 0);
    let b = reading(1000.0, 667, 333, 310, [100, 100], [0, 0], [0, 0], 667);
    let i = Interference::between(&a, &b);
    assert!((i.lost_share.unwrap() - 0.333).abs() < 1e-9);
    assert!(i.disturbed);
    assert_eq!(
        i.warning().unwrap(),
        "33% of this test's time was taken by other work (waited 0.33 s for a CPU, \
         steal 0.0%, 310 involuntary switches); its figures may be off"
    );
}

#[test]
fn the_tests_own_threads_are_not_other_work() {
    // The measuring thread waits 400 ms for the test's own threads:
    // the process used all the CPU time there was, other processes
    // none, so nothing counts.
    let a = reading(0.0, 0, 0, 0, [0, 0], [0, 0], [0, 0], 0);
    let b = reading(1000.0, 600, 400, 90, [100, 100], [0, 0], [0, 0], 2000);
    let i = Interference::between(&a, &b);
    assert_eq!(i.wait_s, Some(0.4));
    assert_eq!(i.other_cpu_s, Some(0.0));
    assert_eq!(i.waited_s, Some(0.0));
    assert!(!i.disturbed);
}

#[test]
fn a_quiet_machine_does_not_charge_a_multithreaded_tests_wait_to_others() {
    // The measuring thread waits 400 ms for the test's own threads,
    // which ran 1,310 ms; other processes used 90 ms (a daemon, the
    // parent, tick rounding). Charging the wait to them up to their
    // 90 ms would call 9% of the second lost; they competed for 90 of
    // the 1,400 ms that kept the thread waiting, so about 26 ms is
    // theirs.
    let a = reading(0.0, 0, 0, 0, [0, 0], [0, 0], [0, 0], 0);
    let b = reading(1000.0, 600, 400, 90, [100, 100], [0, 0], [0, 0], 1910);
    let i = Interference::between(&a, &b);
    assert!((i.other_cpu_s.unwrap() - 0.09).abs() < 1e-9, "{i:?}");
    let charged = 0.4 * 90.0 / 1400.0;
    assert!((i.waited_s.unwrap() - charged).abs() < 1e-9, "{i:?}");
    assert!(!i.disturbed);
    // The same wait with a busy loop beside the test: the loop used a
    // whole CPU-second of the 1.4 s of competition, and is charged for
    // most of the wait.
    let b = reading(1000.0, 600, 400, 300, [100, 100], [0, 0], [0, 0], 1000);
    let i = Interference::between(&a, &b);
    assert!((i.waited_s.unwrap() - 0.4 * 1000.0 / 1400.0).abs() < 1e-9);
    assert!(i.disturbed);
}

#[test]
fn steal_is_estimated_from_the_machines_steal_rate() {
    // The hypervisor stole 10% of the CPUs' wanted time: a thread that
    // ran 900 ms lost about 100 ms more.
    let a = reading(0.0, 0, 0, 0, [0, 0], [0, 0], [0, 0], 0);
    let b = reading(1000.0, 900, 0, 5, [90, 0], [0, 100], [10, 0], 900);
    let i = Interference::between(&a, &b);
    assert!((i.stolen_s.unwrap() - 0.1).abs() < 1e-9, "{i:?}");
    assert!((i.steal.unwrap() - 0.05).abs() < 1e-9);
    assert!((i.cpus[0].steal - 0.1).abs() < 1e-9);
    assert!(i.disturbed);
    assert!(
        i.warning().unwrap().contains("steal 10%"),
        "{:?}",
        i.warning()
    );
}

#[test]
fn a_short_test_needs_ten_milliseconds_lost() {
    // 40 ms, 3 ms of it waiting for a busy daemon: 7.5%, but one
    // wake-up, not interference worth a warning.
    let a = reading(0.0, 0, 0, 0, [0, 0], [0, 0], [0, 0], 0);
    let b = reading(40.0, 37, 3, 1, [4, 1], [0, 3], [0, 0], 37);
    let i = Interference::between(&a, &b);
    assert!(i.lost_share.unwrap() > LOST_SHARE_THRESHOLD);
    assert!(!i.disturbed);
}

#[test]
fn missing_sources_leave_their_figures_out() {
    let bare = |at_ms: f64| {
        Reading::take(&Fixed {
            schedstat: Some(format!("{} 0 1", (at_ms * 1e6) as u64)),
            mono_ns: at_ms * 1e6,
            ..Fixed::default()
        })
    };
    let i = Interference::between(&bare(0.0), &bare(500.0));
    assert_eq!(i.run_s, Some(0.5));
    assert_eq!(i.steal, None);
    assert_eq!(i.other_cpu_s, None);
    assert_eq!(i.involuntary_switches, None);
    assert_eq!(i.migrations, None);
    assert!(i.cpus.is_empty());
    assert_eq!(i.lost_share, Some(0.0));
    let none = Interference::between(&Reading::default(), &Reading::default());
    assert_eq!(none.lost_share, None);
    assert!(!none.disturbed);
}

fn slice(wall_ms: f64, wait_ms: f64) -> ThreadObservation {
    ThreadObservation {
        wall_ns: wall_ms * 1e6,
        run_ns: Some((wall_ms - wait_ms) * 1e6),
        wait_ns: Some(wait_ms * 1e6),
        involuntary_switches: Some(2),
        voluntary_switches: Some(0),
        migrations: Some(0),
    }
}

#[test]
fn paired_figures_show_a_side_hit_more_than_the_other() {
    let pairs: Vec<SlicePairObservation> = (0..8)
        .map(|k| SlicePairObservation {
            pair: k / 4,
            head_first: k % 2 == 1,
            base: Some(slice(10.0, 0.1)),
            head: Some(slice(10.0, if k < 4 { 3.9 } else { 0.1 })),
        })
        .collect();
    let p = PairedInterference::new(pairs);
    assert_eq!(p.head.slices, 8);
    assert_eq!(p.head.disturbed_slices, 4);
    assert_eq!(p.base.disturbed_slices, 0);
    assert_eq!(p.head.involuntary_switches, Some(16));
    assert!((p.head.lost_share.unwrap() - 16.0 / 80.0).abs() < 1e-9);
    let (head, base) = p.asymmetry().unwrap();
    assert!((head - 0.2).abs() < 1e-9 && base < 0.05, "{head} {base}");

    let even = PairedInterference::new(vec![SlicePairObservation {
        pair: 0,
        head_first: false,
        base: Some(slice(10.0, 3.0)),
        head: Some(slice(10.0, 3.0)),
    }]);
    assert_eq!(even.asymmetry(), None);
    // A worker that does not report slices: no figures, no warning.
    let old = PairedInterference::new(vec![SlicePairObservation {
        pair: 0,
        head_first: false,
        base: None,
        head: None,
    }]);
    assert_eq!(old.head.slices, 0);
    assert_eq!(old.head.lost_share, None);
    assert_eq!(old.asymmetry(), None);
}

#[test]
fn compare_mode_adds_the_slices_of_both_sides() {
    let a = reading(0.0, 0, 0, 0, [0, 0], [0, 0], [0, 0], 0);
    let b = reading(1000.0, 5, 0, 0, [100, 100], [0, 0], [0, 0], 1000);
    let pairs = vec![SlicePairObservation {
        pair: 0,
        head_first: false,
        base: Some(slice(100.0, 20.0)),
        head: Some(slice(100.0, 0.0)),
    }];
    let i = Interference::of_slices(&a, &b, PairedInterference::new(pairs));
    assert!((i.wall_s - 0.2).abs() < 1e-12);
    assert!((i.lost_share.unwrap() - 0.1).abs() < 1e-9);
    assert!(i.disturbed);
    assert!(i
        .warning()
        .unwrap()
        .starts_with("10% of this test's timed slices' time"));
}

#[test]
fn figures_round_trip_through_json() {
    let a = reading(0.0, 0, 0, 0, [0, 0], [0, 0], [0, 0], 0);
    let b = reading(1000.0, 667, 333, 310, [100, 100], [0, 0], [0, 0], 667);
    let i = Interference::between(&a, &b);
    let text = serde_json::to_string(&i).unwrap();
    let back: Interference = serde_json::from_str(&text).unwrap();
    assert_eq!(back, i);
    // A slice's figures from a worker that knows fewer fields read.
    let s: ThreadObservation = serde_json::from_str(r#"{"wall_ns": 5.0}"#).unwrap();
    assert_eq!(s.wall_ns, 5.0);
    assert_eq!(s.wait_ns, None);
}
