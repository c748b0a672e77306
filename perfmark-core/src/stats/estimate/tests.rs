use super::*;

#[test]
fn samples_in_groups_get_an_interval_over_the_groups() {
    // Seeded simulation: 6 processes of 6 slices, each process off by
    // a lasting factor of sd 5%, slices noisy by 1%. The serial
    // interval is often unbounded or far too narrow; the interval over
    // groups covers the true median (1.0) about as often as it says.
    let mut g = crate::stats::seeded::SeededNormal(31);
    let mut normal = || g.next();
    let (mut covered, mut bounded, reps) = (0, 0, 1000);
    for _ in 0..reps {
        let mut xs = Vec::new();
        let mut groups = Vec::new();
        for g in 0..6 {
            let offset = 0.05 * normal();
            for _ in 0..6 {
                xs.push((offset + 0.01 * normal()).exp());
                groups.push(g);
            }
        }
        let e = estimate_in_groups(&xs, &groups, 0.95, Statistic::Median);
        bounded += usize::from(e.ci.low.is_finite() && e.ci.high.is_finite());
        covered += usize::from(e.ci.contains(1.0));
        assert_eq!(e.effective_n, 6.0);
        assert_eq!(e.point, estimate_with(&xs, 0.95, Statistic::Median).point);
    }
    assert_eq!(bounded, reps);
    assert!(
        (910..=990).contains(&covered),
        "covered {covered} of {reps}"
    );
    // One group, or groups of another length: the serial estimate.
    let xs = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let serial = estimate_with(&xs, 0.95, Statistic::Median);
    for groups in [&[0; 6][..], &[0, 1][..]] {
        let e = estimate_in_groups(&xs, groups, 0.95, Statistic::Median);
        assert_eq!(
            (e.point, e.ci, e.effective_n),
            (serial.point, serial.ci, serial.effective_n)
        );
    }
}

#[test]
fn median_interval_uses_order_statistics() {
    // 0..=99 shuffled deterministically: median 49.5; iid offset
    // 1.96·√100/2 = 9.8 ranks around 49.5 → ranks 39.7 and 59.3.
    let xs: Vec<f64> = (0..100).map(|i| ((i * 37) % 100) as f64).collect();
    let e = estimate_with(&xs, 0.95, Statistic::Median);
    assert_eq!(e.point, 49.5);
    assert!((e.naive_ci.low - 39.7).abs() < 0.01, "{:?}", e.naive_ci);
    assert!((e.naive_ci.high - 59.3).abs() < 0.01, "{:?}", e.naive_ci);
    assert!(e.ci.contains(e.point));
    assert_eq!(e.n, 100);
}

#[test]
fn a_series_that_switches_state_gets_a_bounded_median_interval() {
    // 400 samples at 100, then 400 at 110: the signs around the median
    // form one step, so order statistics cannot bound it; the batch
    // medians (100 ×5, 110 ×5) do, and the interval spans the two states.
    let xs: Vec<f64> = (0..800)
        .map(|i| if i < 400 { 100.0 } else { 110.0 } + (i % 7) as f64 * 0.01)
        .collect();
    let e = estimate_with(&xs, 0.95, Statistic::Median);
    assert!(e.effective_n < 10.0, "{e:?}");
    assert!(e.ci.low.is_finite() && e.ci.high.is_finite(), "{e:?}");
    assert!(e.ci.low < 101.0 && e.ci.high > 109.0, "{e:?}");
    assert!(e.ci.width() < 30.0, "{e:?}");
}

#[test]
fn mean_interval_matches_the_t_formula() {
    let xs = [1.0, 2.0, 3.0, 4.0, 5.0, 4.0, 2.0, 5.0, 1.0, 3.0];
    let e = estimate_with(&xs, 0.95, Statistic::Mean);
    // mean 3, sd √(20/9), t_{9, .975} = 2.262157
    let half = 2.262157 * (20.0f64 / 9.0).sqrt() / 10f64.sqrt();
    assert!((e.naive_ci.low - (3.0 - half)).abs() < 1e-5);
    assert!((e.naive_ci.high - (3.0 + half)).abs() < 1e-5);
}

#[test]
fn correlated_samples_widen_the_interval() {
    // slow drift in blocks of 10: strongly correlated neighbours
    let xs: Vec<f64> = (0..200)
        .map(|i| 100.0 + ((i / 10) * 7 % 13) as f64)
        .collect();
    for statistic in Statistic::ALL {
        let e = estimate_with(&xs, 0.95, statistic);
        assert!(e.effective_n < 100.0, "{statistic}: {e:?}");
        assert!(
            e.ci.width() > 1.3 * e.naive_ci.width(),
            "{statistic}: {e:?}"
        );
    }
}

#[test]
fn remove_upper_ignores_spikes() {
    let mut xs: Vec<f64> = (0..100).map(|i| 100.0 + (i % 10) as f64).collect();
    xs[17] = 5000.0;
    xs[63] = 9000.0;
    let e = estimate_with(&xs, 0.95, Statistic::MeanRemoveUpper);
    assert!(e.point < 105.0 && e.point > 103.0, "{e:?}");
    assert!(estimate_with(&xs, 0.95, Statistic::Mean).point > 200.0);
}

#[test]
fn degenerate_inputs() {
    for statistic in Statistic::ALL {
        let none = estimate_with(&[], 0.95, statistic);
        assert!(none.point.is_nan() && none.ci.width().is_infinite());
        let one = estimate_with(&[5.0], 0.95, statistic);
        assert_eq!(one.point, 5.0);
        assert!(one.ci.contains(5.0) && one.ci.width().is_infinite());
        let two = estimate_with(&[5.0, 7.0], 0.95, statistic);
        assert_eq!(two.point, 6.0);
        assert!(two.ci.contains(6.0));
        let flat = estimate_with(&[3.0; 40], 0.95, statistic);
        assert_eq!((flat.ci.low, flat.ci.high), (3.0, 3.0));
        assert_eq!(flat.ci.relative_half_width(3.0), 0.0);
    }
    // 95% median needs 6 samples: 5 is unbounded, 8 is not
    assert!(estimate(&[4.0, 1.0, 5.0, 2.0, 3.0], 0.95)
        .ci
        .width()
        .is_infinite());
    let eight = estimate(&[4.0, 1.0, 7.0, 2.0, 8.0, 3.0, 6.0, 5.0], 0.95);
    assert!(eight.ci.width().is_finite(), "{eight:?}");
    // a trend is serial correlation: the same values in order cannot bound the median
    let trend = estimate(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], 0.95);
    assert!(trend.naive_ci.width().is_finite() && trend.ci.width().is_infinite());
}

#[test]
fn statistic_names() {
    for s in Statistic::ALL {
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            format!("\"{}\"", s.as_str())
        );
    }
    assert_eq!(Statistic::default(), Statistic::Median);
}
