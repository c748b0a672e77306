//! The growth classes `complexity = "…"` declares, and the function of the
//! size each one stands for.
//!
//! The classes and their functions are Google Benchmark's (`BigO` and
//! `FittingCurve` in its `src/complexity.cc`): 1, log₂ n, n, n log₂ n, n², n³.
//! Google Benchmark fits them to report the best one; perfmark also checks
//! the one a test declares (perfmark-core's `stats::growth`).

use std::fmt;

/// A growth class, from the slowest-growing to the fastest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Complexity {
    /// `"1"`: constant time.
    Constant,
    /// `"log n"`.
    Log,
    /// `"n"`.
    Linear,
    /// `"n log n"`.
    LinLog,
    /// `"n^2"`.
    Quadratic,
    /// `"n^3"`.
    Cubic,
}

impl Complexity {
    /// Every class, from the slowest-growing to the fastest.
    pub const ALL: [Complexity; 6] = [
        Complexity::Constant,
        Complexity::Log,
        Complexity::Linear,
        Complexity::LinLog,
        Complexity::Quadratic,
        Complexity::Cubic,
    ];

    /// The class as written in the attribute: `1`, `log n`, `n`, `n log n`,
    /// `n^2`, `n^3`.
    pub fn as_str(self) -> &'static str {
        match self {
            Complexity::Constant => "1",
            Complexity::Log => "log n",
            Complexity::Linear => "n",
            Complexity::LinLog => "n log n",
            Complexity::Quadratic => "n^2",
            Complexity::Cubic => "n^3",
        }
    }

    /// The variant's name, for code that names it (`LinLog`).
    pub fn variant_name(self) -> &'static str {
        match self {
            Complexity::Constant => "Constant",
            Complexity::Log => "Log",
            Complexity::Linear => "Linear",
            Complexity::LinLog => "LinLog",
            Complexity::Quadratic => "Quadratic",
            Complexity::Cubic => "Cubic",
        }
    }

    /// The class's function of the size `n` (n ≥ 1): 1, log₂ n, n,
    /// n·log₂ n, n², n³. The logarithm is taken of `max(n, 2)`, so that it
    /// is never 0: a size of 1 counts as 2 for the log factor (a routine's
    /// time is never 0 at n = 1, and a model through 0 there would be
    /// forced through the origin).
    pub fn growth(self, n: f64) -> f64 {
        let log = n.max(2.0).log2();
        match self {
            Complexity::Constant => 1.0,
            Complexity::Log => log,
            Complexity::Linear => n,
            Complexity::LinLog => n * log,
            Complexity::Quadratic => n * n,
            Complexity::Cubic => n * n * n,
        }
    }
}

impl fmt::Display for Complexity {
    /// `O(n log n)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "O({})", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_growth() {
        let names: Vec<&str> = Complexity::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(names, ["1", "log n", "n", "n log n", "n^2", "n^3"]);
        assert_eq!(Complexity::LinLog.to_string(), "O(n log n)");
        assert_eq!(Complexity::Log.growth(1024.0), 10.0);
        assert_eq!(Complexity::LinLog.growth(8.0), 24.0);
        assert_eq!(Complexity::Log.growth(1.0), 1.0);
        assert_eq!(Complexity::Cubic.growth(10.0), 1000.0);
        assert_eq!(Complexity::Constant.growth(1e9), 1.0);
        assert!(Complexity::ALL.windows(2).all(|w| w[0] < w[1]));
    }
}
