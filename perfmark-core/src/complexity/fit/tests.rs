use super::*;

/// Exact times `t(n)` at `sizes`, each with a ±1% CI.
fn points(sizes: &[f64], t: impl Fn(f64) -> f64) -> Vec<SizedTime> {
    sizes
        .iter()
        .map(|&size| {
            let ns = t(size);
            SizedTime {
                size,
                ns,
                ci: Interval {
                    low: ns * 0.99,
                    high: ns * 1.01,
                    confidence: 0.95,
                },
            }
        })
        .collect()
}

const DECADES: [f64; 4] = [100.0, 1000.0, 10_000.0, 100_000.0];

#[test]
fn exact_power_laws_give_their_exponent_and_class() {
    for (class, k) in [
        (Complexity::Constant, 0.0),
        (Complexity::Linear, 1.0),
        (Complexity::Quadratic, 2.0),
        (Complexity::Cubic, 3.0),
    ] {
        let fit = fit_growth(&points(&DECADES, |n| 3.0 * n.powf(k)), class, 0.95).unwrap();
        assert!((fit.exponent - k).abs() < 1e-9, "{class:?}: {fit:?}");
        assert!((fit.excess).abs() < 1e-9, "{class:?}: {fit:?}");
        assert!(!fit.fails(), "{class:?}");
        assert_eq!(fit.fitted, class, "{fit:?}");
        assert!(fit.exponent_ci.contains(k));
    }
}

#[test]
fn n_log_n_is_fitted_and_holds() {
    let fit = fit_growth(
        &points(&DECADES, |n| 2.0 * n * n.log2()),
        Complexity::LinLog,
        0.95,
    )
    .unwrap();
    assert_eq!(fit.fitted, Complexity::LinLog, "{fit:?}");
    assert!(fit.excess.abs() < 1e-9);
    assert!(fit.declared_exponent > 1.05 && fit.declared_exponent < 1.2);
    assert!(!fit.fails());
    // Declared n, it is n log n: a log factor stays under the margin.
    let as_linear = fit_growth(
        &points(&DECADES, |n| 2.0 * n * n.log2()),
        Complexity::Linear,
        0.95,
    )
    .unwrap();
    assert!(!as_linear.fails(), "{as_linear:?}");
    assert_eq!(as_linear.fitted, Complexity::LinLog);
}

#[test]
fn a_whole_power_too_many_fails() {
    let fit = fit_growth(&points(&DECADES, |n| 0.5 * n * n), Complexity::Linear, 0.95).unwrap();
    assert!(fit.fails(), "{fit:?}");
    assert!((fit.excess - 1.0).abs() < 1e-9);
    assert!(fit.excess_low > MARGIN);
    assert!(fit.detectable_excess < 1.0);
    assert_eq!(fit.fitted, Complexity::Quadratic);
}

#[test]
fn a_constant_cost_flattens_but_never_fails() {
    // 10 µs per call plus 1 ns per element: flat, then linear.
    let fit = fit_growth(
        &points(&DECADES, |n| 10_000.0 + n),
        Complexity::Linear,
        0.95,
    )
    .unwrap();
    assert!(fit.excess < 0.0 && !fit.fails(), "{fit:?}");
    let linear = fit.candidates[2];
    assert_eq!(linear.class, Complexity::Linear);
    assert!((linear.constant_ns - 10_000.0).abs() < 1e-6, "{linear:?}");
    assert!((linear.coefficient_ns - 1.0).abs() < 1e-9, "{linear:?}");
    assert!(linear.relative_rms < 1e-9);
    assert_eq!(fit.fitted, Complexity::Linear);
}

#[test]
fn close_sizes_cannot_detect_and_say_so() {
    let fit = fit_growth(
        &points(&[100.0, 110.0, 120.0, 130.0], |n| n * n),
        Complexity::Linear,
        0.95,
    )
    .unwrap();
    assert!(fit.detectable_excess > 1.0, "{fit:?}");
    assert!(!fit.fails());
}

#[test]
fn scattered_points_widen_the_interval() {
    let mut scattered = points(&DECADES, |n| n);
    scattered[1].ns *= 1.5;
    scattered[2].ns /= 1.5;
    let tidy = fit_growth(&points(&DECADES, |n| n), Complexity::Linear, 0.95).unwrap();
    let fit = fit_growth(&scattered, Complexity::Linear, 0.95).unwrap();
    assert!(fit.exponent_ci.width() > 2.0 * tidy.exponent_ci.width());
    assert!(fit.residual_sd > tidy.residual_sd);
}

#[test]
fn bad_inputs_are_refused() {
    let good = points(&DECADES, |n| n);
    assert_eq!(
        fit_growth(&good[..3], Complexity::Linear, 0.95),
        Err(GrowthError::TooFewSizes { distinct: 3 })
    );
    let mut repeated = good.clone();
    repeated[3].size = 100.0;
    assert_eq!(
        fit_growth(&repeated, Complexity::Linear, 0.95),
        Err(GrowthError::TooFewSizes { distinct: 3 })
    );
    let mut zero = good.clone();
    zero[0].size = 0.0;
    assert!(matches!(
        fit_growth(&zero, Complexity::Linear, 0.95),
        Err(GrowthError::BadSize { .. })
    ));
    let mut fast = good;
    fast[0].ns = 0.0;
    let error = fit_growth(&fast, Complexity::Linear, 0.95).unwrap_err();
    assert!(error.to_string().contains("too fast to time"), "{error}");
}
