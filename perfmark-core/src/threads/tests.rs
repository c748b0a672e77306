use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::*;

#[test]
fn a_team_runs_every_iteration_on_every_thread() {
    let plan = TeamPlan::new(3, None);
    let hits = AtomicU64::new(0);
    let mut samples = Vec::new();
    let placement = with_team(&plan, &|| hits.fetch_add(1, Ordering::Relaxed), |run| {
        for iters in [10, 1000, 7] {
            samples.push(run(iters));
        }
    });
    assert_eq!(hits.load(Ordering::Relaxed), 3 * (10 + 1000 + 7));
    assert!(!placement.apart, "no CPUs given: not held");
    for s in &samples {
        assert_eq!(s.each.len(), 3);
        let longest = s.each.iter().max().unwrap();
        assert!(s.total >= *longest, "{s:?}");
    }
}

#[test]
fn a_sample_lasts_until_the_slowest_thread_ends() {
    // Each thread sleeps per iteration; the sample is at least one
    // thread's time, and far below the three threads' sum.
    let plan = TeamPlan::new(3, None);
    let mut sample = None;
    with_team(
        &plan,
        &|| std::thread::sleep(Duration::from_millis(5)),
        |run| {
            sample = Some(run(4));
        },
    );
    let s = sample.unwrap();
    assert!(s.total >= Duration::from_millis(20), "{s:?}");
    assert!(s.total < Duration::from_millis(55), "{s:?}");
}

#[test]
fn a_helpers_panic_reaches_the_measuring_thread() {
    let plan = TeamPlan::new(2, None);
    let ran = std::panic::catch_unwind(|| {
        with_team(
            &plan,
            &|| {
                if std::thread::current().name() == Some("perfmark-team-1") {
                    panic!("the helper broke");
                }
            },
            |run| {
                run(5);
            },
        )
    });
    let payload = ran.expect_err("the helper's panic is resumed");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"the helper broke"));
}

#[test]
fn per_thread_times_are_medians_per_iteration() {
    let mut times = TeamTimes::new(2);
    for ns in [100u64, 300, 200] {
        let each = vec![Duration::from_nanos(ns * 10), Duration::from_nanos(ns * 20)];
        let total = times.keep(
            10,
            TeamSample {
                total: Duration::from_nanos(ns * 20),
                each,
            },
        );
        assert_eq!(total, Duration::from_nanos(ns * 20));
    }
    assert_eq!(times.per_thread_ns(3), [200.0, 400.0]);
    assert_eq!(times.per_thread_ns(1), [200.0, 400.0]);
}

#[test]
fn a_team_record_writes_its_placement_as_its_own_fields() {
    let record = ThreadsRecord::alone("lock".to_owned(), vec![3], 8);
    let text = serde_json::to_string(&record).unwrap();
    assert_eq!(
        text,
        r#"{"function":"lock","count":1,"cpus":[3],"apart":true,"candidates":8,"per_thread_ns":[]}"#
    );
    let back: ThreadsRecord = serde_json::from_str(&text).unwrap();
    assert_eq!(back, record);
}
