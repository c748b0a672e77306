use super::*;

fn scheduler(value: u64) -> Option<Capacity> {
    Some(Capacity {
        value,
        source: CapacitySource::Scheduler,
    })
}

fn khz(value: u64) -> Option<Capacity> {
    Some(Capacity {
        value,
        source: CapacitySource::MaxFrequencyKhz,
    })
}

#[test]
fn the_kernels_cpu_lists_are_read_as_it_writes_them() {
    assert_eq!(
        parse_list("0-3,8,10-11\n"),
        Some(vec![0, 1, 2, 3, 8, 10, 11])
    );
    assert_eq!(parse_list("5"), Some(vec![5]));
    assert_eq!(parse_list(""), Some(vec![]));
    assert_eq!(parse_list("3,1-2,2"), Some(vec![1, 2, 3]));
    assert_eq!(parse_list("3-1"), None);
    assert_eq!(parse_list("a-b"), None);
    assert_eq!(parse_list("0-"), None);
    assert_eq!(parse_list("0-999999999"), None);
}

#[test]
fn alike_or_unknown_cores_are_one_kind() {
    let allowed = [0, 1, 2, 3];
    assert_eq!(
        fastest_kind(&allowed, None, |_| None),
        (allowed.to_vec(), None)
    );
    assert_eq!(
        fastest_kind(&allowed, None, |_| scheduler(1024)),
        (allowed.to_vec(), None)
    );
    // One CPU without a reading: nothing is known of the kinds.
    let partly = |c: usize| if c == 2 { None } else { scheduler(1024 >> c) };
    assert_eq!(
        fastest_kind(&allowed, None, partly),
        (allowed.to_vec(), None)
    );
}

#[test]
fn favoured_cores_that_boost_a_little_higher_are_not_a_kind_of_their_own() {
    // Intel's "turbo boost max 3.0": two cores at 5.0 GHz, the rest 4.8.
    let freq = |c: usize| {
        if c < 2 {
            khz(5_000_000)
        } else {
            khz(4_800_000)
        }
    };
    let (cpus, kind) = fastest_kind(&[0, 1, 2, 3, 4, 5], None, freq);
    assert_eq!(cpus, vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(kind, None);
}

#[test]
fn big_cores_are_chosen_over_little_ones_and_named() {
    // Arm big.LITTLE: four little cores (capacity 446), four big (1024).
    let cap = |c: usize| {
        if c < 4 {
            scheduler(446)
        } else {
            scheduler(1024)
        }
    };
    let (cpus, kind) = fastest_kind(&[0, 1, 2, 3, 4, 5, 6, 7], None, cap);
    assert_eq!(cpus, vec![4, 5, 6, 7]);
    let kind = kind.expect("a kind is named");
    assert_eq!(kind.name, "capacity 1024");
    assert_eq!(kind.left_out, 4);
    // Frequencies tell the kinds apart where capacities are not given.
    let freq = |c: usize| {
        if c.is_multiple_of(2) {
            khz(5_400_000)
        } else {
            khz(4_200_000)
        }
    };
    let (cpus, kind) = fastest_kind(&[0, 1, 2, 3], None, freq);
    assert_eq!(cpus, vec![0, 2]);
    assert_eq!(kind.unwrap().name, "max 5400 MHz");
}

#[test]
fn the_kernels_hybrid_split_wins_and_follows_the_allowed_set() {
    let kinds = vec![
        ("cpu_core".to_owned(), vec![0, 1, 2, 3]),
        ("cpu_atom".to_owned(), vec![4, 5, 6, 7]),
    ];
    let (cpus, kind) = fastest_kind(&[2, 3, 4, 5, 6], Some(&kinds), |_| scheduler(1));
    assert_eq!(cpus, vec![2, 3]);
    assert_eq!(
        kind,
        Some(CoreKind {
            name: "cpu_core".to_owned(),
            left_out: 3
        })
    );
    // Allowed only efficiency cores: those, and they are all one kind.
    let (cpus, kind) = fastest_kind(&[5, 6], Some(&kinds), |_| None);
    assert_eq!((cpus, kind), (vec![5, 6], None));
}

#[test]
fn a_draw_picks_among_the_candidates_only() {
    let cpus = Cpus {
        allowed: vec![0, 1, 2, 3, 4, 5],
        candidates: vec![2, 3, 5],
        kind: None,
    };
    let mut state = 7u64;
    let mut first = [0usize; 6];
    for _ in 0..300 {
        let order = cpus.shuffled(|| crate::worker::splitmix64(&mut state));
        // Each candidate once: pairs spread over the CPUs evenly.
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [2, 3, 5]);
        first[order[0]] += 1;
    }
    assert_eq!(first[0] + first[1] + first[4], 0);
    assert!(first[2] > 70 && first[3] > 70 && first[5] > 70, "{first:?}");
    assert_eq!(cpus.nothing_to_choose(), None);
    let one = Cpus {
        allowed: vec![7],
        candidates: vec![7],
        kind: None,
    };
    assert_eq!(one.nothing_to_choose(), Some(NotPinned::OneCpu));
}

#[test]
fn the_record_says_where_and_why_not() {
    let cpus = Cpus {
        allowed: vec![0, 1, 2, 3],
        candidates: vec![0, 1],
        kind: Some(CoreKind {
            name: "cpu_core".to_owned(),
            left_out: 2,
        }),
    };
    let words = cpus.record(vec![1], None).words();
    assert!(
        words.starts_with("pinned to CPU 1 (of 2 of 4 allowed)"),
        "{words}"
    );
    assert!(
        words.contains("cpu_core") && words.contains("2 slower CPUs left unused"),
        "{words}"
    );
    let pairs = cpus.record(vec![1, 0, 1], None).words();
    assert!(
        pairs.starts_with("each process pair pinned to one CPU: 1, 0, 1"),
        "{pairs}"
    );
    let off = cpus.record(vec![3], Some(NotPinned::TurnedOff)).words();
    assert!(
        off.starts_with("not pinned (pinning turned off (--no-pin)); ran on CPU 3"),
        "{off}"
    );
    let json = serde_json::to_value(cpus.record(vec![], Some(NotPinned::OneCpu))).unwrap();
    assert_eq!(json["not_pinned"], "one_cpu");
    assert_eq!(json["allowed"], 4);
}

#[cfg(target_os = "linux")]
#[test]
fn a_thread_pinned_here_stays_on_its_cpu() {
    let cpus = Cpus::detect().expect("Linux reads its allowed set");
    assert!(!cpus.allowed.is_empty());
    let placed = std::thread::spawn(move || {
        let placed = pin_current_thread(&cpus);
        // Work long enough for the scheduler to have moved an unpinned
        // thread; the pinned one is on its CPU at every look.
        let mut moved = 0;
        if let Placed::Pinned(cpu) = placed {
            for _ in 0..2_000 {
                std::hint::black_box((0..1_000u64).sum::<u64>());
                moved += usize::from(sys::current() != Some(cpu));
            }
        }
        (placed, moved, cpus)
    })
    .join()
    .unwrap();
    match placed {
        (Placed::Pinned(cpu), moved, cpus) => {
            assert!(cpus.candidates.contains(&cpu));
            assert_eq!(moved, 0);
        }
        (Placed::Free(NotPinned::OneCpu, _), _, cpus) => assert_eq!(cpus.allowed.len(), 1),
        (other, _, _) => panic!("not pinned: {other:?}"),
    }
}

#[test]
fn the_header_says_how_measurements_are_held_and_which_kind() {
    let alike = Cpus {
        allowed: vec![0, 1],
        candidates: vec![0, 1],
        kind: None,
    };
    assert!(alike
        .header(None, false)
        .contains("each test held on one CPU"));
    assert!(alike
        .header(None, true)
        .contains("drawn per pair (2 allowed CPUs)"));
    let off = alike.header(Some(&NotPinned::TurnedOff), false);
    assert!(off.contains("not pinned, pinning turned off"), "{off}");
    let hybrid = Cpus {
        allowed: vec![0, 1, 2],
        candidates: vec![0],
        kind: Some(CoreKind {
            name: "cpu_core".to_owned(),
            left_out: 2,
        }),
    };
    let line = hybrid.header(None, false);
    assert!(
        line.contains("(1 of 3 allowed CPUs)") && line.contains("cpu_core"),
        "{line}"
    );
}
