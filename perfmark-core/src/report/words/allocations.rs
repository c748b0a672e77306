//! Heap allocations in words: the allocation limit's verdict, the sentence
//! of allocations that could not be counted, and the counts and bytes per
//! iteration as every report prints them.

use crate::allocations::said::AllocationsSaid;
use crate::allocations::Allocations;

/// Why allocations may not be counted, and what to do: said by the
/// allocation check and by the run's header.
pub const NOT_COUNTED: &str = "the global allocator is not perfmark's counting allocator; \
     start the binary with `perfmark::main!()`, or with `perfmark::main!(allocator = …)` \
     to wrap your own allocator";

/// What the allocation check said, in one sentence: the limit and what
/// was counted, or that nothing was.
pub fn said(said: &AllocationsSaid) -> String {
    match &said.counted {
        None => not_counted(said.limit),
        Some(counted) => reason(counted, said.limit, !said.fails()),
    }
}

/// The reason a test with a `limit` of allocations per iteration fails
/// when its allocations could not be counted, ending in [`NOT_COUNTED`].
pub fn not_counted(limit: u64) -> String {
    format!(
        "allocations not counted, so the limit of {limit} per iteration cannot be checked: \
         {NOT_COUNTED}"
    )
}

/// The reason in words of the limit check, by `passed` (whether `counted`
/// kept within `limit`): the limit, what was counted, and for a failure
/// where to look.
pub fn reason(counted: &Allocations, limit: u64, passed: bool) -> String {
    let seen = fmt_allocations(counted);
    if passed {
        return format!("within allocation limit {limit}: {seen}");
    }
    format!(
        "over allocation limit {limit}: {seen}, counted over {} untimed iterations of the routine \
         (setup given to iter_batched is not counted; threads the routine starts are); look for \
         Box, Vec, String, format!, collect or clone in the routine, or run this test alone under \
         a heap profiler (valgrind --tool=dhat, heaptrack)",
        counted.iterations
    )
}

/// "1 allocation (48 B) per iteration", "2.5 allocations (1.2 KiB) per
/// iteration", "0 allocations per iteration".
pub fn fmt_allocations(a: &Allocations) -> String {
    let count = fmt_count(a.allocs_per_iter);
    let noun = if a.allocs_per_iter == 1.0 {
        "allocation"
    } else {
        "allocations"
    };
    if a.allocs_per_iter == 0.0 {
        return format!("0 {noun} per iteration");
    }
    format!(
        "{count} {noun} ({}) per iteration",
        fmt_bytes(a.bytes_per_iter)
    )
}

/// A count per iteration: whole numbers as such, fractions to three
/// significant figures (a routine that allocates on one call in 1000
/// shows 0.001).
fn fmt_count(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else if x >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_owned()
    }
}

/// Bytes in binary units: `48 B`, `1.5 KiB`, `3.0 MiB`.
pub fn fmt_bytes(bytes: f64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024.0 {
        return format!("{} B", fmt_count(bytes));
    }
    let mut value = bytes / 1024.0;
    let mut unit = UNITS[0];
    for next in &UNITS[1..] {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = next;
    }
    format!("{value:.1} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allocations::AllocCount;

    fn counted(allocs: u64, bytes: u64, iterations: u64) -> Allocations {
        Allocations::per_iteration(AllocCount { allocs, bytes }, iterations, Some(0))
    }

    #[test]
    fn figures_in_words() {
        assert_eq!(
            fmt_allocations(&counted(0, 0, 100)),
            "0 allocations per iteration"
        );
        assert_eq!(
            fmt_allocations(&counted(100, 4800, 100)),
            "1 allocation (48 B) per iteration"
        );
        assert_eq!(
            fmt_allocations(&counted(250, 256_000, 100)),
            "2.5 allocations (2.5 KiB) per iteration"
        );
        assert_eq!(
            fmt_allocations(&counted(1, 64, 1000)),
            "0.001 allocations (0.064 B) per iteration"
        );
        assert_eq!(fmt_bytes(3.0 * 1024.0 * 1024.0), "3.0 MiB");
    }

    #[test]
    fn one_over_the_limit_fails_and_says_where_to_look() {
        let seen = counted(4096, 4096 * 48, 4096);
        assert_eq!(
            reason(&seen, 1, true),
            "within allocation limit 1: 1 allocation (48 B) per iteration"
        );
        let failed = reason(&seen, 0, false);
        assert!(
            failed.starts_with(
                "over allocation limit 0: 1 allocation (48 B) per iteration, counted over 4096 \
                 untimed iterations of the routine"
            ),
            "{failed}"
        );
        assert!(failed.contains("heap profiler"), "{failed}");
    }
}
