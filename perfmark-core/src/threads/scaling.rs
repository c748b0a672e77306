//! How a function's time grew with its thread counts: the scaling line of
//! `report.json` and the page, made from the tests of one function that
//! differ only in their `threads` instance (`f::t1`, `f::t2`, `f::t4`).

use serde::Serialize;

/// One function's times over its thread counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct ScalingLine {
    /// The tests' name without the thread segment (`lock::counter` for
    /// `lock::counter::t1`, `lock::counter::t4`).
    pub function: String,
    /// One point per thread count, fewest threads first.
    pub points: Vec<ScalingPoint>,
}

/// One thread count of a [`ScalingLine`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct ScalingPoint {
    /// The test's name.
    pub test: String,
    /// Threads that ran the routine at once.
    pub threads: usize,
    /// Time per iteration per thread, ns (the test's estimate).
    pub ns_per_iter: f64,
    /// `ns_per_iter` over the line's first point's: 1 where threads share
    /// nothing, above 1 where they contend.
    pub ratio: f64,
}

/// The scaling lines of `tests` (each its name, its scaling line's name
/// ([`super::ThreadsRecord::function`]), its thread count and its time per
/// iteration in ns, in run order): the tests of one line form it when
/// there are at least two. Lines in the order of their first test; points
/// by thread count.
pub fn scaling_lines<'a>(
    tests: impl IntoIterator<Item = (&'a str, &'a str, usize, f64)>,
) -> Vec<ScalingLine> {
    let mut lines: Vec<ScalingLine> = Vec::new();
    for (name, function, threads, ns) in tests {
        let point = ScalingPoint {
            test: name.to_owned(),
            threads,
            ns_per_iter: ns,
            ratio: f64::NAN,
        };
        match lines.iter_mut().find(|l| l.function == function) {
            Some(line) => line.points.push(point),
            None => lines.push(ScalingLine {
                function: function.to_owned(),
                points: vec![point],
            }),
        }
    }
    lines.retain(|l| l.points.len() >= 2);
    for line in &mut lines {
        line.points.sort_by_key(|p| p.threads);
        let first = line.points[0].ns_per_iter;
        for p in &mut line.points {
            p.ratio = p.ns_per_iter / first;
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tests_of_one_line_form_it_by_thread_count() {
        let lines = scaling_lines([
            ("lock::t4", "lock", 4, 80.0),
            ("lock::t1", "lock", 1, 20.0),
            ("lock::t2", "lock", 2, 40.0),
            ("sum::t2::t1", "sum::t1", 2, 10.0),
            ("sum::t1::t1", "sum::t1", 1, 10.0),
            ("sum::t1::t2", "sum::t2", 1, 100.0),
            ("alone::t4", "alone", 4, 1.0),
        ]);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0].function, "lock");
        let threads: Vec<usize> = lines[0].points.iter().map(|p| p.threads).collect();
        assert_eq!(threads, [1, 2, 4]);
        let ratios: Vec<f64> = lines[0].points.iter().map(|p| p.ratio).collect();
        assert_eq!(ratios, [1.0, 2.0, 4.0]);
        // An argument named like a thread count is the argument.
        assert_eq!(lines[1].function, "sum::t1");
        assert_eq!(lines[1].points[0].test, "sum::t1::t1");
        assert_eq!(lines[1].points[1].ratio, 1.0);
    }
}
