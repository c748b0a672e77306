//! Sestoft's arithmetic micro-kernels: `multiply` and the Mark7 table of
//! math functions.
//!
//! Source: Peter Sestoft, "Practical Concurrent and Parallel
//! Programming 4" (2016) and his note "Microbenchmarks in Java and C#".
//! Both kernels take the loop counter `i` as input and use only its low
//! eight bits (`i & 0xFF`), so that the result depends on `i` (nothing can
//! be hoisted out of the loop or cached) while staying in a fixed, safe
//! range.

/// Floating-point multiplications per call of [`multiply`].
pub const MULTIPLY_FLOPS: u64 = 20;

/// Sestoft's `multiply`: one integer operation (`i & 0xFF`), one int→double
/// conversion, and 20 floating-point multiplications (one by 1.1, then 19
/// to form the 20th power).
///
/// Returns (1.1 · (i mod 256))^20, exactly as the left-to-right product
/// rounds. Sestoft's back-of-the-envelope estimate is "at least 20 × 0.4 =
/// 8 ns" on a 2.4 GHz machine; he measured about 30 ns in Java.
#[inline]
pub fn multiply(i: u32) -> f64 {
    let x = 1.1 * f64::from(i & 0xFF);
    x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x
}

/// The math functions of Sestoft's Mark7 table, each applied to an argument
/// derived from `i & 0xFF` exactly as in his lambdas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MathFn {
    /// `10^(0.1 · (i & 0xFF))`.
    Pow,
    /// `e^(0.1 · (i & 0xFF))`.
    Exp,
    /// `ln(0.1 + 0.1 · (i & 0xFF))`.
    Log,
    /// `sin(0.1 · (i & 0xFF))`.
    Sin,
    /// `cos(0.1 · (i & 0xFF))`.
    Cos,
    /// `tan(0.1 · (i & 0xFF))`.
    Tan,
    /// `asin((i & 0xFF) / 256)`.
    Asin,
    /// `acos((i & 0xFF) / 256)`.
    Acos,
    /// `atan((i & 0xFF) / 256)`.
    Atan,
}

impl MathFn {
    /// Every function, in the order of Sestoft's table.
    pub const ALL: [MathFn; 9] = [
        MathFn::Pow,
        MathFn::Exp,
        MathFn::Log,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Tan,
        MathFn::Asin,
        MathFn::Acos,
        MathFn::Atan,
    ];

    /// The function's name as in Sestoft's table (`"pow"`, `"exp"`, …).
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Pow => "pow",
            MathFn::Exp => "exp",
            MathFn::Log => "log",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Tan => "tan",
            MathFn::Asin => "asin",
            MathFn::Acos => "acos",
            MathFn::Atan => "atan",
        }
    }

    /// The function named `name` (one of [`MathFn::name`]'s values), or
    /// `None` for any other name.
    pub fn from_name(name: &str) -> Option<MathFn> {
        MathFn::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Applies the function to the argument Sestoft derives from `i`: one
    /// call of the math function plus one or two multiply/adds to form its
    /// argument.
    #[inline]
    pub fn apply(self, i: u32) -> f64 {
        let k = f64::from(i & 0xFF);
        match self {
            MathFn::Pow => 10.0f64.powf(0.1 * k),
            MathFn::Exp => (0.1 * k).exp(),
            MathFn::Log => (0.1 + 0.1 * k).ln(),
            MathFn::Sin => (0.1 * k).sin(),
            MathFn::Cos => (0.1 * k).cos(),
            MathFn::Tan => (0.1 * k).tan(),
            MathFn::Asin => (k / 256.0).asin(),
            MathFn::Acos => (k / 256.0).acos(),
            MathFn::Atan => (k / 256.0).atan(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiply_is_the_twentieth_power() {
        assert_eq!(multiply(0), 0.0);
        assert_eq!(multiply(256), 0.0, "only the low 8 bits count");
        let x: f64 = 1.1 * 10.0;
        let want = 11.0f64.powi(20);
        assert!(
            (multiply(10) - want).abs() <= 1e-13 * want,
            "{}",
            multiply(10)
        );
        assert!((multiply(266) - x.powi(20)).abs() <= 1e-13 * want);
        assert!(multiply(255).is_finite());
    }

    #[test]
    fn names_round_trip() {
        for f in MathFn::ALL {
            assert_eq!(MathFn::from_name(f.name()), Some(f));
        }
        assert_eq!(MathFn::from_name("sqrt"), None);
    }

    #[test]
    fn known_values() {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
        // i = 10: arguments 1.0 (0.1 · 10) and 10/256.
        assert!(close(MathFn::Pow.apply(10), 10.0));
        assert!(close(MathFn::Exp.apply(10), std::f64::consts::E));
        assert!(close(MathFn::Log.apply(9), 0.0));
        assert!(close(MathFn::Sin.apply(0), 0.0));
        assert!(close(MathFn::Cos.apply(0), 1.0));
        assert!(close(MathFn::Tan.apply(0), 0.0));
        assert!(close(MathFn::Asin.apply(128), std::f64::consts::FRAC_PI_6));
        assert!(close(MathFn::Acos.apply(128), std::f64::consts::FRAC_PI_3));
        assert!(close(MathFn::Atan.apply(0), 0.0));
        // sin² + cos² = 1 and tan = sin / cos over the whole input range.
        for i in 0..256 {
            let (s, c, t) = (
                MathFn::Sin.apply(i),
                MathFn::Cos.apply(i),
                MathFn::Tan.apply(i),
            );
            assert!(close(s * s + c * c, 1.0));
            assert!((t - s / c).abs() <= 1e-9 * t.abs().max(1.0), "i = {i}");
            assert!(close(
                MathFn::Asin.apply(i) + MathFn::Acos.apply(i),
                std::f64::consts::FRAC_PI_2
            ));
        }
    }

    #[test]
    fn every_input_gives_a_finite_value() {
        for f in MathFn::ALL {
            for i in 0..256 {
                assert!(f.apply(i).is_finite(), "{}({i})", f.name());
            }
        }
    }
}
