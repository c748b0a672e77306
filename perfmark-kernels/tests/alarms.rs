//! The suite of `cargo xtask alarms`: ten kernels whose work is scaled by
//! the environment variable `PERFMARK_ALARM_SCALE` (read once; 1.0 when
//! unset), so the experiment can run unchanged code and code made exactly
//! 5%, 10% or 20% slower against one recorded baseline.
//!
//! Each test calls its kernel `reps(20)` times per iteration: 20 calls at
//! scale 1.0, 21 at 1.05, 22 at 1.10, 24 at 1.20 — the slowdown is exact in
//! work, not approximate in input size.
//!
//! Six kernels come from the library; three are defined in this file
//! ([`interpret`], [`longest_collatz`], [`count_tokens`]) because their
//! speed depends on where their code lands: an interpreter's dispatch is an
//! indirect branch per instruction, and the Collatz chains and a
//! tokenizer's state machine are short loops of data-dependent branches,
//! all of which the branch predictors and the instruction fetch index by
//! address (Mytkowicz, Diwan, Hauswirth and Sweeney, "Producing wrong data
//! without doing anything obviously wrong!"). The tenth,
//! [`pointer_chase_64m`], waits on main memory at every step: the test that
//! follows the core's speed least.
//!
//! For the paired experiment (`cargo xtask alarms --paired`) two builds must
//! differ in their code, not in their environment; three variables are
//! read at compile time (`option_env!`):
//!
//! - `PERFMARK_ALARM_SCALE_BUILD`: a scale that wins over the variable;
//! - `PERFMARK_ALARM_LAYOUT_BUILD` (any value): compiles in an unrelated
//!   function that shifts the code's layout without changing the work;
//! - `PERFMARK_ALARM_PAD_BUILD` (a whole number of bytes; 0 when unset):
//!   the size of [`layout_pad`], a function of one-byte no-ops placed
//!   before every other function of this file, the three kernels above
//!   among them, so that they land that many bytes further on with no
//!   instruction of theirs changed. Where every function is aligned (as
//!   `cargo perfmark compare` builds, to 64 bytes), they move by the
//!   padding rounded up to the alignment: 32 and 48 bytes move nothing,
//!   64 and 80 one cache line. Every build calls it once, so every build
//!   links it in, at its size.
//!
//! A kernel's work is the same in every build but the scaled ones.

use std::sync::OnceLock;

use perfmark::{black_box, perf_test, Bencher};
use perfmark_kernels::livermore::LivermoreData;
use perfmark_kernels::logchain::log_chain;
use perfmark_kernels::math::multiply;
use perfmark_kernels::primes::count_primes_sequential;
use perfmark_kernels::rng::SplitMix64;
use perfmark_kernels::search::BinarySearch;
use perfmark_kernels::sorting::QuicksortInput;

const SEED: u64 = 0xA1A2_0001;

/// The size of [`layout_pad`] in bytes: `PERFMARK_ALARM_PAD_BUILD` at
/// compile time, 0 when unset.
const PAD: usize = match option_env!("PERFMARK_ALARM_PAD_BUILD") {
    Some(text) => parse_bytes(text),
    None => 0,
};

/// A whole number of bytes in decimal; anything else fails the build.
const fn parse_bytes(text: &str) -> usize {
    let digits = text.as_bytes();
    assert!(
        !digits.is_empty(),
        "PERFMARK_ALARM_PAD_BUILD: expected a whole number of bytes such as 32"
    );
    let mut n = 0usize;
    let mut i = 0;
    while i < digits.len() {
        assert!(
            digits[i].is_ascii_digit(),
            "PERFMARK_ALARM_PAD_BUILD: expected a whole number of bytes such as 32"
        );
        n = n * 10 + (digits[i] - b'0') as usize;
        i += 1;
    }
    n
}

/// [`PAD`] bytes of no-ops and a return, placed before every other function
/// of this file, so that its size moves them all. rustc emits a codegen
/// unit's functions in the order of their source, or of their mangled
/// names (as rustc 1.95 does here, all of this file's functions in one
/// unit): this one is defined first, and its name is the file's only one
/// of ten characters, so it mangles to `…6alarms10layout_pad…`, ahead of
/// every other length prefix (2–9, and 11 and up). Called once per
/// process (from [`reps`]) in every build, so that every build links it
/// in.
#[inline(never)]
fn layout_pad() {
    // SAFETY: the directive emits PAD one-byte no-ops (0x90), which run
    // straight through to the function's return; they touch no memory, no
    // stack and no flags.
    unsafe {
        core::arch::asm!(
            ".fill {n}, 1, 0x90",
            n = const PAD,
            options(nomem, nostack, preserves_flags)
        )
    }
}

/// Calls per iteration: `base` × the scale, rounded.
fn reps(base: u32) -> u32 {
    static SCALE: OnceLock<f64> = OnceLock::new();
    let scale = *SCALE.get_or_init(|| {
        if option_env!("PERFMARK_ALARM_LAYOUT_BUILD").is_some() {
            black_box(unrelated(black_box(3)));
        }
        layout_pad();
        let text = option_env!("PERFMARK_ALARM_SCALE_BUILD")
            .map(str::to_owned)
            .or_else(|| std::env::var("PERFMARK_ALARM_SCALE").ok())
            .unwrap_or_else(|| "1.0".to_owned());
        text.parse::<f64>()
            .ok()
            .filter(|s| *s > 0.0 && s.is_finite())
            .unwrap_or_else(|| {
                panic!("PERFMARK_ALARM_SCALE={text:?}: expected a positive number such as 1.05")
            })
    });
    (f64::from(base) * scale).round() as u32
}

/// An unrelated change: code that is linked in (and run once) in the
/// layout-shifting build only, moving what follows it in the binary.
#[inline(never)]
fn unrelated(seed: u64) -> u64 {
    let mut table = [0u64; 64];
    for (i, slot) in table.iter_mut().enumerate() {
        *slot = seed.wrapping_mul(i as u64 + 1).rotate_left(i as u32 % 63) ^ 0x9E37_79B9;
    }
    table
        .iter()
        .fold(seed, |a, &x| a.wrapping_mul(31).wrapping_add(x))
}

/// A bytecode of eight instructions on two registers, run `rounds` times
/// over `code`: one indirect jump (the `match`'s table) per instruction.
#[inline(never)]
fn interpret(code: &[u8], rounds: u32) -> u64 {
    let (mut acc, mut aux) = (1u64, 7u64);
    for _ in 0..rounds {
        for &op in code {
            match op & 7 {
                0 => acc = acc.wrapping_mul(3),
                1 => acc = acc.wrapping_add(aux),
                2 => acc ^= acc >> 5,
                3 => acc = acc.rotate_left(7),
                4 => aux = aux.wrapping_add(acc & 0xff),
                5 => acc = acc.wrapping_sub(aux),
                6 => aux ^= acc.rotate_right(13),
                _ => acc = acc.wrapping_mul(aux | 1),
            }
        }
    }
    acc ^ aux
}

/// The start below `n` (at least 2) of the longest Collatz chain, the
/// smallest such, and its length in steps down to 1 (an odd step
/// `x → 3x + 1` and the halving that always follows it are taken together
/// and counted as two).
#[inline(never)]
fn longest_collatz(n: u64) -> (u64, u32) {
    let mut best = (1, 0);
    for start in 2..n {
        let (mut x, mut steps) = (start, 0u32);
        while x > 1 {
            if x & 1 == 0 {
                x >>= 1;
                steps += 1;
            } else {
                x = (3 * x + 1) >> 1;
                steps += 2;
            }
        }
        if steps > best.1 {
            best = (start, steps);
        }
    }
    best
}

/// The words and the numbers in `text`: a state machine of three states
/// (between tokens, in a word, in a number) stepped once per byte. A word
/// starts with a letter or `_` and goes on with those and digits; a number
/// is digits and dots.
#[inline(never)]
fn count_tokens(text: &[u8]) -> (u32, u32) {
    #[derive(Clone, Copy)]
    enum State {
        Gap,
        Word,
        Number,
    }
    let (mut words, mut numbers) = (0, 0);
    let mut state = State::Gap;
    for &c in text {
        state = match (state, c) {
            (State::Word, b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'0'..=b'9') => State::Word,
            (State::Number, b'0'..=b'9' | b'.') => State::Number,
            (_, b'a'..=b'z' | b'A'..=b'Z' | b'_') => {
                words += 1;
                State::Word
            }
            (_, b'0'..=b'9') => {
                numbers += 1;
                State::Number
            }
            _ => State::Gap,
        };
    }
    (words, numbers)
}

#[perf_test]
fn log_chain_20(b: &mut Bencher) {
    let n = reps(20);
    b.iter(|| (0..n).fold(black_box(100.5), |x, _| log_chain(x) + 100.0));
}

#[perf_test]
fn multiply_table(b: &mut Bencher) {
    let n = reps(20);
    b.iter(|| (0..n * 10).map(|i| multiply(black_box(i))).sum::<f64>());
}

#[perf_test]
fn quicksort_1k(b: &mut Bencher) {
    let input = QuicksortInput::new(1000, SEED);
    let mut buf = Vec::with_capacity(1000);
    let n = reps(20);
    b.iter(|| {
        let mut checksum = 0u32;
        for _ in 0..n {
            checksum = checksum.wrapping_add(input.run(&mut buf)[black_box(7)]);
        }
        checksum
    });
}

#[perf_test]
fn binary_search(b: &mut Bencher) {
    let search = BinarySearch::new(1 << 16, 256, SEED);
    let n = reps(20);
    // `run` is pure: without the black box the compiler may call it once
    // and multiply, and the work would not scale with `n` (the +5% build
    // read 3% *faster* than the base before this).
    b.iter(|| (0..n).map(|_| black_box(&search).run()).sum::<usize>());
}

#[perf_test]
fn livermore_inner_product(b: &mut Bencher) {
    let data = LivermoreData::new(1001, SEED);
    let n = reps(20);
    b.iter(|| (0..n).map(|_| black_box(&data).kernel3()).sum::<f64>());
}

#[perf_test]
fn count_primes(b: &mut Bencher) {
    let n = reps(20);
    b.iter(|| {
        (0..n)
            .map(|_| count_primes_sequential(black_box(2_000)))
            .sum::<u64>()
    });
}

#[perf_test]
fn interpreter(b: &mut Bencher) {
    let mut rng = SplitMix64::new(SEED);
    let code: Vec<u8> = (0..64).map(|_| rng.next_u64() as u8).collect();
    let n = reps(20);
    // The code and the round count pass through a black box at every call,
    // so that the compiler cannot run the (pure) interpreter once and
    // multiply.
    b.iter(|| {
        (0..n).fold(0u64, |a, _| {
            a.wrapping_add(interpret(black_box(&code), black_box(16)))
        })
    });
}

#[perf_test]
fn collatz_300(b: &mut Bencher) {
    assert_eq!(longest_collatz(300), (231, 127), "the known longest chain");
    let n = reps(20);
    b.iter(|| {
        (0..n)
            .map(|_| longest_collatz(black_box(300)).1)
            .sum::<u32>()
    });
}

#[perf_test]
fn tokens_4k(b: &mut Bencher) {
    assert_eq!(
        count_tokens(b"let x1 = 42 + y_2.5;"),
        (3, 2),
        "a known count"
    );
    // Source-like text: letters, digits, spaces and punctuation drawn at
    // random, so that the branches of the state machine are hard to
    // predict.
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz_0123456789    .,;=+()";
    let mut rng = SplitMix64::new(SEED);
    let text: Vec<u8> = (0..4096)
        .map(|_| ALPHABET[(rng.next_u64() % ALPHABET.len() as u64) as usize])
        .collect();
    let n = reps(20);
    b.iter(|| {
        (0..n)
            .map(|_| count_tokens(black_box(&text)).0)
            .sum::<u32>()
    });
}

perfmark::main!();

/// A chase through a random cycle of 16 Mi slots (64 MiB, twice the last
/// level cache of the reference machine): each step waits for main memory,
/// so the test is bound by memory latency, not by the core's speed, and
/// shows how much such a test follows perfmark's machine-state reference
/// (which is bound by the core's).
#[perf_test]
fn pointer_chase_64m(b: &mut Bencher) {
    const SLOTS: usize = 1 << 24;
    // Sattolo's shuffle: one cycle through every slot.
    let mut next: Vec<u32> = (0..SLOTS as u32).collect();
    let mut rng = SplitMix64::new(SEED);
    for i in (1..SLOTS).rev() {
        let j = (rng.next_u64() % i as u64) as usize;
        next.swap(i, j);
    }
    let steps = 20 * reps(20) as usize;
    let mut at = 0u32;
    b.iter(|| {
        for _ in 0..steps {
            at = next[black_box(at) as usize];
        }
        at
    });
}
