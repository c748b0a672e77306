use super::*;
use crate::baseline::compare::inputs::test_run as run;

#[test]
fn the_spreads_between_processes_of_both_sides_are_pooled_never_below_the_prior() {
    let rule = RegressionRule::new(0.95, 0.05)
        .unwrap()
        .with_prior(Spread { sd: 0.025, df: 4.0 })
        .unwrap();
    let mut b = BaselineEstimate::from_runs(&[run(100.0, 99.0, 101.0)]).unwrap();
    b.processes = Some(Spread { sd: 0.10, df: 4.0 });
    let now = Spread { sd: 0.20, df: 4.0 };
    let both = rule.test_spread_with(&b, Some(now));
    let expected = ((4.0 * 0.01 + 4.0 * 0.04) / 8.0f64).sqrt();
    assert!((both.spread.sd - expected).abs() < 1e-12, "{both:?}");
    // The processes widen the sd; the df stay the prior's.
    assert_eq!(both.spread.df, 4.0);
    assert_eq!(both.source, TestSpreadSource::Processes { runs: 1, df: 8 });
    // Quiet processes never lower the spread below the prior.
    b.processes = Some(Spread { sd: 0.001, df: 4.0 });
    let quiet = rule.test_spread_with(&b, Some(Spread { sd: 0.001, df: 4.0 }));
    assert_eq!((quiet.spread.sd, quiet.spread.df), (0.025, 4.0));
    assert_eq!(quiet.source, TestSpreadSource::Prior);
    // And a wide spread measured now makes a slowdown of its size no
    // failure: the run's processes said they move that much.
    let mut plain = BaselineEstimate::from_runs(&[run(100.0, 99.0, 101.0)]).unwrap();
    let slower = run(130.0, 129.0, 131.0);
    assert!(compare(&plain, &slower, &rule).unwrap().verdict.fails());
    let wide = slower.with_processes(Some(Spread { sd: 0.15, df: 4.0 }));
    plain.processes = Some(Spread { sd: 0.15, df: 4.0 });
    assert!(!compare(&plain, &wide, &rule).unwrap().verdict.fails());
}

#[test]
fn processes_never_lower_the_threshold_the_prior_sets() {
    // One recorded run, a prior of 7.5% on 4 df, processes of 8.5% on
    // 4 df a side: pooled in with their degrees of freedom, the t·sd
    // threshold fell to 14.6% from the prior's 16.0%. Every level and
    // every process spread: the threshold with processes is at least
    // the one without.
    use crate::stats::dist::t_quantile;
    for confidence in [0.95, 0.99, 0.999] {
        let rule = RegressionRule::new(confidence, 0.05)
            .unwrap()
            .with_prior(Spread { sd: 0.075, df: 4.0 })
            .unwrap();
        let threshold = |s: Spread| t_quantile(confidence, s.df) * s.sd;
        for sd_p in [0.001, 0.05, 0.07, 0.075, 0.08, 0.085, 0.1, 0.3] {
            let mut b = BaselineEstimate::from_runs(&[run(100.0, 99.0, 101.0)]).unwrap();
            let without = rule.test_spread(&b).spread;
            b.processes = Some(Spread { sd: sd_p, df: 4.0 });
            let with = rule
                .test_spread_with(&b, Some(Spread { sd: sd_p, df: 4.0 }))
                .spread;
            assert!(
                threshold(with) >= threshold(without) - 1e-12,
                "{confidence} {sd_p}: {with:?} against {without:?}"
            );
        }
    }
}

#[test]
fn pooled_spread_weighs_prior_and_measurement() {
    let rule = RegressionRule::new(0.95, 0.05)
        .unwrap()
        .with_prior(Spread { sd: 0.02, df: 4.0 })
        .unwrap();
    let mut b = BaselineEstimate::from_runs(&[run(100.0, 99.0, 101.0)]).unwrap();
    let prior = rule.test_spread(&b);
    assert_eq!(
        (prior.spread, prior.source),
        (Spread { sd: 0.02, df: 4.0 }, TestSpreadSource::Prior)
    );
    b.runs = 5;
    b.spread = Some(Spread { sd: 0.04, df: 4.0 });
    let pooled = rule.test_spread(&b);
    // (4·0.0004 + 4·0.0016) / 8 = 0.001.
    assert!((pooled.spread.sd - 0.001f64.sqrt()).abs() < 1e-12);
    assert_eq!(pooled.spread.df, 8.0);
    assert_eq!(pooled.source, TestSpreadSource::Pooled { runs: 5 });
    let known = rule
        .with_prior(Spread {
            sd: 0.02,
            df: f64::INFINITY,
        })
        .unwrap();
    assert_eq!(known.test_spread(&b).source, TestSpreadSource::Prior);
}

#[test]
fn the_formula_is_the_documented_one() {
    // One-run baseline, prior 2% with infinite weight: z quantile.
    let rule = RegressionRule::new(0.95, 0.05)
        .unwrap()
        .with_prior(Spread {
            sd: 0.02,
            df: f64::INFINITY,
        })
        .unwrap();
    let base = BaselineEstimate::from_runs(&[run(100.0, 100.0, 100.0)]).unwrap();
    let cur = run(110.0, 110.0, 110.0);
    let c = compare(&base, &cur, &rule).unwrap();
    let se = (0.02f64.powi(2) * 2.0).sqrt();
    assert!((c.log_se - se).abs() < 1e-12);
    let low = (1.1f64.ln() - 1.644_853_6 * se).exp();
    assert!((c.ci.low - low).abs() < 1e-6, "{} vs {low}", c.ci.low);
    assert!((c.ci.confidence - 0.9).abs() < 1e-12);
    assert_eq!(c.verdict, Outcome::Regressed);
}

#[test]
fn the_prior_is_a_floor_unless_asked_otherwise() {
    // Five runs that agree within 0.1%: pooled with a 2% prior of
    // weight 4 the spread is about 1.4%; as a floor (the default) the
    // prior lifts it back to 2%.
    let runs: Vec<RunEstimate> = [100.0, 100.1, 99.9, 100.05, 99.95]
        .iter()
        .map(|&p| run(p, p * 0.999, p * 1.001))
        .collect();
    let b = BaselineEstimate::from_runs(&runs).unwrap();
    let rule = RegressionRule::new(0.95, 0.05).unwrap();
    assert!(rule.prior_is_floor);
    let pooled = rule.prior_as_floor(false).test_spread(&b);
    assert!(
        pooled.spread.sd < 0.75 * DEFAULT_BETWEEN_RUN_SD
            && pooled.spread.sd > 0.5 * DEFAULT_BETWEEN_RUN_SD,
        "{pooled:?}"
    );
    assert_eq!(pooled.spread.df, DEFAULT_PRIOR_DF + 4.0);
    let floored = rule.test_spread(&b);
    assert_eq!(floored.spread.sd, DEFAULT_BETWEEN_RUN_SD);
    assert_eq!(floored.spread.df, DEFAULT_PRIOR_DF + 4.0);
}

#[test]
fn the_minimum_detectable_slowdown_is_where_the_rule_fails_nine_times_in_ten() {
    // One-run baseline, prior 2% known, no tolerance: se = 2%·√2 and
    // the significance threshold is z·se with z = 1.645.
    let rule = RegressionRule::new(0.95, 0.0)
        .unwrap()
        .with_prior(Spread {
            sd: 0.02,
            df: f64::INFINITY,
        })
        .unwrap();
    let base = BaselineEstimate::from_runs(&[run(100.0, 100.0, 100.0)]).unwrap();
    let c = compare(&base, &run(100.0, 100.0, 100.0), &rule).unwrap();
    let se = 0.02 * 2f64.sqrt();
    let expected = (1.644_853_6 * se + 1.281_551_6 * se).exp() - 1.0;
    assert!(
        (c.min_detectable_slowdown - expected).abs() < 1e-6,
        "{} vs {expected}",
        c.min_detectable_slowdown
    );
    // A wide tolerance binds instead of the significance threshold.
    let wide = RegressionRule {
        tolerance: 0.30,
        ..rule
    };
    let c = compare(&base, &run(100.0, 100.0, 100.0), &wide).unwrap();
    let expected = (1.3f64.ln() + 1.281_551_6 * se).exp() - 1.0;
    assert!((c.min_detectable_slowdown - expected).abs() < 1e-6);
    // A comparison that can see nothing says so.
    let blind = compare(&base, &run(300.0, 200.0, f64::INFINITY), &rule).unwrap();
    assert_eq!(blind.min_detectable_slowdown, f64::INFINITY);
}

#[test]
fn verdicts_cover_every_branch() {
    // A quiet machine's prior: 2% between runs, weight 4.
    let rule = RegressionRule::new(0.95, 0.05)
        .unwrap()
        .with_prior(Spread { sd: 0.02, df: 4.0 })
        .unwrap();
    let base = BaselineEstimate::from_runs(&[run(100.0, 99.9, 100.1)]).unwrap();
    let tight = |p: f64| run(p, p * 0.999, p * 1.001);
    let verdict = |p: f64| compare(&base, &tight(p), &rule).unwrap().verdict;
    assert_eq!(verdict(100.0), Outcome::NoSignificantChange);
    assert_eq!(verdict(115.0), Outcome::Regressed);
    assert_eq!(verdict(85.0), Outcome::Improved);
    // A tolerance wider than the significance threshold leaves room for
    // significant changes within it.
    let wide = RegressionRule::new(0.95, 0.30)
        .unwrap()
        .with_prior(Spread { sd: 0.02, df: 4.0 })
        .unwrap();
    let with = |p: f64| compare(&base, &tight(p), &wide).unwrap().verdict;
    assert_eq!(with(115.0), Outcome::SlowerWithinTolerance);
    assert_eq!(with(85.0), Outcome::FasterWithinTolerance);
    assert!(Outcome::Regressed.fails());
    assert!(!Outcome::Improved.fails());
}

#[test]
fn an_infinite_interval_is_never_significant() {
    let rule = RegressionRule::new(0.95, 0.05).unwrap();
    let base = BaselineEstimate::from_runs(&[run(100.0, 99.0, 101.0)]).unwrap();
    let cur = run(300.0, 200.0, f64::INFINITY);
    let c = compare(&base, &cur, &rule).unwrap();
    assert_eq!(c.verdict, Outcome::NoSignificantChange);
    assert_eq!((c.ci.low, c.ci.high), (0.0, f64::INFINITY));
    assert!(c.reason().contains("+inf%"), "{}", c.reason());
}

#[test]
fn invalid_rules_and_baselines_are_errors_that_say_what_is_accepted() {
    let err = RegressionRule::new(0.5, 0.05).unwrap_err();
    assert!(err.to_string().contains("between 0.5 and 1"), "{err}");
    let err = RegressionRule::new(0.95, -0.1).unwrap_err();
    assert!(err.to_string().contains("tolerance"), "{err}");
    let rule = RegressionRule::new(0.95, 0.05).unwrap();
    assert!(rule.with_prior(Spread { sd: 0.0, df: 4.0 }).is_err());
    assert!(rule.with_prior(Spread { sd: 0.02, df: 0.0 }).is_err());
    let base = BaselineEstimate {
        point_ns: 10.0,
        runs: 0,
        within_log_se: 0.0,
        spread: None,
        processes: None,
    };
    let err = compare(&base, &run(1.0, 0.9, 1.1), &rule).unwrap_err();
    assert!(err.to_string().contains("at least 1"), "{err}");
}
