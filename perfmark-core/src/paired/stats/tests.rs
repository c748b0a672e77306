use super::*;
use crate::stats::seeded::SeededNormal;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn estimate_matches_a_hand_computation() {
    // Three pairs of two slice pairs each, no order effect: the centers
    // are 0.1, 0.2, 0.3; mean 0.2, sd 0.1, se 0.1/√3, t(0.95; 2) =
    // 2.919986.
    let pairs = vec![vec![0.1, 0.1], vec![0.2, 0.2], vec![0.3, 0.3]];
    let est = paired_estimate(&pairs, 0.95).unwrap();
    let se = 0.1 / 3f64.sqrt();
    let half = 2.919_986 * se;
    assert!(close(est.log_ratio, 0.2, 1e-12));
    assert!(close(est.ratio, 0.2f64.exp(), 1e-12));
    assert!(close(est.between_pair_sd, 0.1, 1e-12));
    assert!(close(est.log_se, se, 1e-12));
    assert_eq!(est.df, 2.0);
    assert!(close(est.lower_one_sided, (0.2 - half).exp(), 1e-6));
    assert!(close(est.upper_one_sided, (0.2 + half).exp(), 1e-6));
    assert!(close(est.lower_one_sided, 1.031_91, 1e-5));
    assert!(close(est.interval.confidence, 0.90, 1e-12));
    // t = 0.2 / se = √12 with 2 df, whose upper tail is
    // 1/2 − t / (2·√(2 + t²)) = 1/2 − √12 / (2·√14) = 0.037090.
    assert!(close(est.p_slower, 0.037_090, 1e-6), "{}", est.p_slower);
    assert_eq!(est.slices, 6);
    assert_eq!(est.process_pairs, 3);
    assert_eq!(est.within_pair_sd, 0.0);
    assert_eq!(est.order_effect, 0.0);
}

#[test]
fn abba_cancels_the_order_effect_and_reports_it() {
    // Truth 0.05; a side running second is 0.02 slower: head-second
    // slice pairs (even k) read 0.07, head-first ones (odd k) 0.03.
    let pair = |offset: f64| vec![0.07 + offset, 0.03 + offset, 0.07 + offset, 0.03 + offset];
    let pairs = vec![pair(-0.01), pair(0.0), pair(0.01)];
    for center in [PairCenter::QuadMedian, PairCenter::Mean] {
        let est = paired_estimate_with(&pairs, 0.95, center).unwrap();
        assert!(close(est.log_ratio, 0.05, 1e-12), "{center:?}");
        assert!(close(est.order_effect, 0.02, 1e-12));
        assert!(close(est.within_pair_sd, 0.0, 1e-12));
    }
}

#[test]
fn the_quad_median_ignores_one_disturbed_slice() {
    // One slice pair of the middle process pair hit by an interrupt in
    // its head slice (+40%): the median of quads does not move, the mean
    // does.
    let mut pairs = vec![vec![0.0; 6], vec![0.0; 6], vec![0.0; 6]];
    pairs[1][3] = 0.4;
    let median = paired_estimate(&pairs, 0.95).unwrap();
    let mean = paired_estimate_with(&pairs, 0.95, PairCenter::Mean).unwrap();
    assert_eq!(median.log_ratio, 0.0);
    assert!(close(mean.log_ratio, 0.4 / 6.0 / 3.0, 1e-12));
}

#[test]
fn estimate_needs_two_pairs() {
    assert!(paired_estimate(&[], 0.95).is_none());
    assert!(paired_estimate(&[vec![0.1, 0.2]], 0.95).is_none());
    assert!(paired_estimate(&[vec![0.1], vec![], vec![f64::NAN]], 0.95).is_none());
    // Identical pairs: a zero-width interval, decided by the sign.
    let est = paired_estimate(&[vec![0.1], vec![0.1]], 0.95).unwrap();
    assert_eq!(est.lower_one_sided, est.upper_one_sided);
    assert_eq!(est.p_slower, 0.0);
}

/// An estimate of `ratio` with one-sided bounds `low` and `high`, from 40
/// slices in 4 process pairs (the words' tests use it too).
pub(crate) fn estimate_at(ratio: f64, low: f64, high: f64) -> PairedEstimate {
    let mut est = paired_estimate(&[vec![0.0], vec![0.1]], 0.95).unwrap();
    est.ratio = ratio;
    est.lower_one_sided = low;
    est.upper_one_sided = high;
    est.interval.low = low;
    est.interval.high = high;
    est.slices = 40;
    est.process_pairs = 4;
    est.log_ratio = ratio.ln();
    est.layout_sd = 0.0;
    est
}

/// Pairs whose builds each draw a layout (a lasting shift of sd
/// `layout_sd`) and whose slices add noise of sd `noise`, with a true log
/// ratio `change`: six slice pairs a pair, as the slice policy takes.
fn layout_pairs(
    g: &mut SeededNormal,
    pairs: usize,
    change: f64,
    layout_sd: f64,
    noise: f64,
) -> Vec<Vec<f64>> {
    (0..pairs)
        .map(|_| {
            let placed = layout_sd * (g.next() - g.next());
            (0..6).map(|_| change + placed + noise * g.next()).collect()
        })
        .collect()
}

#[test]
fn the_layout_spread_is_recovered_from_the_pairs() {
    // Seeded simulation: 400 comparisons of 10 pairs each, one build's
    // layout sd 5% and slice noise 1%; the median estimate is near 5%,
    // and with no layout effect it is near 0.
    let mut g = SeededNormal(21);
    let mut with = Vec::new();
    let mut without = Vec::new();
    for _ in 0..400 {
        let est = paired_estimate(&layout_pairs(&mut g, 10, 0.0, 0.05, 0.01), 0.95).unwrap();
        with.push(est.layout_sd);
        let est = paired_estimate(&layout_pairs(&mut g, 10, 0.0, 0.0, 0.01), 0.95).unwrap();
        without.push(est.layout_sd);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (with, without) = (median(&mut with), median(&mut without));
    assert!(
        (0.042..0.056).contains(&with),
        "layout sd 5% read as {with}"
    );
    assert!(without < 0.004, "no layout effect read as {without}");
}

#[test]
fn a_layout_only_change_is_not_failed_and_is_called_so() {
    // Seeded simulation: the head and the base are the same code, each
    // process pair drawing both builds' layouts (sd 6%, the interpreter
    // kernel's order of size); 2,000 comparisons at 99.75% one-sided with
    // a 5% tolerance. Failures must stay below the nominal 0.25%, and most
    // undecided outcomes are named as the layout's.
    let mut g = SeededNormal(22);
    let (mut failed, mut layout, mut runs) = (0, 0, 0);
    for _ in 0..2000 {
        let est = paired_estimate(&layout_pairs(&mut g, 10, 0.0, 0.06, 0.01), 0.9975).unwrap();
        let v = decide(&est, true, 0.9975, 0.05);
        runs += 1;
        failed += usize::from(v.fails());
        layout += usize::from(v.change == Outcome::WithinLayoutSpread);
    }
    assert!(
        failed <= 5,
        "{failed} of {runs} layout-only comparisons failed"
    );
    assert!(
        layout > runs / 2,
        "only {layout} of {runs} called within the layout spread"
    );
}

#[test]
fn a_change_beyond_the_layout_spread_is_decided() {
    // +25% with a layout sd of 3%: clear of the layout, a regression.
    let mut g = SeededNormal(23);
    let mut regressed = 0;
    for _ in 0..200 {
        let est = paired_estimate(
            &layout_pairs(&mut g, 10, 0.25f64.ln_1p(), 0.03, 0.01),
            0.9975,
        )
        .unwrap();
        regressed += usize::from(decide(&est, true, 0.9975, 0.05).change == Outcome::Regressed);
    }
    assert!(regressed >= 196, "+25% regressed {regressed} of 200 times");
}

#[test]
fn decide_covers_every_outcome() {
    let d = |r, lo, hi| decide(&estimate_at(r, lo, hi), true, 0.95, 0.05).change;
    assert_eq!(d(1.081, 1.060, 1.103), Outcome::Regressed);
    // Significant and beyond the tolerance on the point, though the
    // interval reaches into the band: still a regression.
    assert_eq!(d(1.06, 1.01, 1.11), Outcome::Regressed);
    // Beyond the tolerance but not significant.
    assert_eq!(d(1.06, 0.99, 1.13), Outcome::Inconclusive);
    // Significant, within tolerance, interval reaching beyond it: a clear
    // change, too small to fail, and said so.
    assert_eq!(d(1.03, 1.01, 1.06), Outcome::SlowerWithinTolerance);
    assert_eq!(d(0.953, 0.944, 0.963), Outcome::FasterWithinTolerance);
    assert_eq!(d(1.02, 1.01, 1.04), Outcome::Unchanged);
    assert_eq!(d(1.00, 0.98, 1.02), Outcome::Unchanged);
    assert_eq!(d(0.92, 0.90, 0.94), Outcome::Improved);
    assert_eq!(d(0.97, 0.94, 0.99), Outcome::FasterWithinTolerance);
    assert_eq!(d(0.97, 0.94, 1.01), Outcome::Inconclusive);
    let v = decide(&estimate_at(1.081, 1.060, 1.103), true, 0.95, 0.05);
    assert!(v.fails() && v.significantly_slower);
    assert!(!decide(&estimate_at(0.92, 0.90, 0.94), true, 0.95, 0.05).fails());
    // Undecided, with layout the larger part of the spread and the point
    // within what the 4 layout units drawn average to: the layout's.
    let mut est = estimate_at(1.06, 0.99, 1.13);
    est.layout_sd = 0.05;
    est.between_pair_sd = 0.05;
    assert_eq!(
        decide(&est, true, 0.95, 0.05).change,
        Outcome::WithinLayoutSpread
    );
    // No links drawn: the same spread is the process pairs', not layout's.
    assert_eq!(
        decide(&est, false, 0.95, 0.05).change,
        Outcome::Inconclusive
    );
    // The point beyond 2·√(2/4)·layout_sd (7.1%): not the layout's. (One
    // layout's spread, 2·√2·layout_sd = 14.1%, would have called it so.)
    est.log_ratio = 1.09f64.ln();
    assert_eq!(decide(&est, true, 0.95, 0.05).change, Outcome::Inconclusive);
    // Layout less than half the spread between pairs: not the layout's.
    est.log_ratio = 1.06f64.ln();
    est.between_pair_sd = 0.11;
    assert_eq!(decide(&est, true, 0.95, 0.05).change, Outcome::Inconclusive);
    // A significant slowdown within the tolerance is never the layout's.
    let mut est = estimate_at(1.03, 1.01, 1.06);
    est.layout_sd = 0.05;
    est.between_pair_sd = 0.05;
    assert_eq!(
        decide(&est, true, 0.95, 0.05).change,
        Outcome::SlowerWithinTolerance
    );
    // A decided outcome stays decided, whatever the layout.
    let mut est = estimate_at(1.081, 1.060, 1.103);
    est.layout_sd = 0.05;
    assert_eq!(decide(&est, true, 0.95, 0.05).change, Outcome::Regressed);
}

#[test]
fn look_schedule_splits_alpha() {
    let s = LookSchedule::equal(4, 12, 2);
    assert_eq!(s.pairs(), &[4, 6, 8, 10, 12]);
    assert!(close(s.shares().iter().sum::<f64>(), 1.0, 1e-12));
    assert!(close(s.confidence_at(0, 0.95), 0.99, 1e-12));
    assert_eq!(s.look_for(4), Some(0));
    assert_eq!(s.look_for(3), Some(0));
    assert_eq!(s.look_for(5), Some(1));
    assert_eq!(s.look_for(13), None);
    assert!(close(s.adjusted_p(2, 0.004), 0.02, 1e-12));
    assert_eq!(s.adjusted_p(2, 0.5), 1.0);
    assert_eq!(LookSchedule::equal(4, 9, 2).pairs(), &[4, 6, 8, 9]);
    assert_eq!(LookSchedule::equal(5, 5, 2).pairs(), &[5]);
}

#[test]
fn serde_names_are_snake_case() {
    let json = serde_json::to_string(&Outcome::Inconclusive).unwrap();
    assert_eq!(json, "\"inconclusive\"");
    let json = serde_json::to_string(&PairCenter::QuadMedian).unwrap();
    assert_eq!(json, "\"quad_median\"");
}

/// Pairs whose head is faster in some layouts and slower in others (a
/// routine whose speed depends on where its data or loop lands, as a
/// haystack's offset decides which path a search takes): `fast` or `slow`
/// by the pair's layout, six slice pairs each with 2% noise. The links
/// are drawn in turn (pair `p` runs link `p mod k`), half of them fast:
/// the pairs alternate, from a side drawn per comparison.
fn sign_flipping_pairs(g: &mut SeededNormal, pairs: usize, fast: f64, slow: f64) -> Vec<Vec<f64>> {
    let first = usize::from(g.next() > 0.0);
    (0..pairs)
        .map(|p| {
            let change: f64 = if (p + first) % 2 == 0 { fast } else { slow };
            (0..6).map(|_| change.ln() + 0.02 * g.next()).collect()
        })
        .collect()
}

#[test]
fn a_change_whose_sign_depends_on_the_build_is_said_and_never_failed() {
    let mut g = SeededNormal(0x5eed_3880);
    for (fast, slow) in [(0.85, 1.25), (0.90, 1.40), (0.95, 1.60)] {
        let (mut sign, mut layout, mut failed, mut would_fail) = (0, 0, 0, 0);
        for _ in 0..1000 {
            let pairs = sign_flipping_pairs(&mut g, 10, fast, slow);
            let est = paired_estimate(&pairs, 0.95).unwrap();
            let v = decide(&est, true, 0.95, 0.05);
            sign += usize::from(v.change == Outcome::SignDependsOnBuild);
            layout += usize::from(v.change == Outcome::WithinLayoutSpread);
            failed += usize::from(v.fails());
            would_fail += usize::from(est.lower_one_sided > 1.0 && est.ratio > 1.05);
        }
        eprintln!(
            "{fast}/{slow}: sign depends {sign}, within layout {layout}, failed {failed} of \
             1000; without the sign rule {would_fail} would fail"
        );
        assert_eq!(failed, 0, "{fast}/{slow}");
        assert!(sign + layout >= 990, "{fast}/{slow}: {sign} + {layout}");
    }
    // The range the pairs read is the estimate's, for the words.
    let est = paired_estimate(&sign_flipping_pairs(&mut g, 10, 0.95, 1.60), 0.95).unwrap();
    let v = decide(&est, true, 0.95, 0.05);
    assert_eq!(v.change, Outcome::SignDependsOnBuild);
    assert!(
        est.center_range.0 < 0.0 && est.center_range.1 > 0.0,
        "{:?}",
        est.center_range
    );
}

#[test]
fn a_real_slowdown_that_layout_moves_is_still_caught() {
    // +10% in every layout, layout sd 2%, slice noise 2%: every pair reads
    // the head slower, so the sign does not depend on the build.
    let mut g = SeededNormal(0x5eed_3881);
    let (mut caught, mut flagged) = (0, 0);
    for _ in 0..1000 {
        let pairs = layout_pairs(&mut g, 10, 1.10f64.ln(), 0.02, 0.02);
        let est = paired_estimate(&pairs, 0.95).unwrap();
        let v = decide(&est, true, 0.95, 0.05);
        caught += usize::from(v.fails());
        flagged += usize::from(v.change == Outcome::SignDependsOnBuild);
    }
    assert_eq!(flagged, 0);
    assert!(caught >= 950, "{caught}");
}
