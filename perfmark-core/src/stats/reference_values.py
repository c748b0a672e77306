#!/usr/bin/env python3
"""Reference values for perfmark's special functions and quantiles.

Writes `reference_values.rs` beside this script: the true values, computed
with mpmath at 40 significant digits and rounded once to the nearest f64,
that `statrs_agreement.rs` holds perfmark's own functions to (relative
error at most 1e-10). statrs is the broad check over a seeded grid; this
table is the arbiter where statrs itself is off (its χ² quantile stops at an
absolute 1e-9, its t quantile comes from an inverse incomplete beta that
fails at df < 1 in the deep tails and at df above about 1e3, and its
incomplete beta loses digits at large df).

Run from anywhere: `python3 perfmark-core/src/stats/reference_values.py`
(needs mpmath; about a minute of CPU). Every quantile is found by a
bracketing root finder on the logarithm of the tail and then checked: the
tail at x (1 - 1e-14) and at x (1 + 1e-14) must lie either side of the
target, so each value is right to 1e-14 whatever the solver did.
"""

import os

import mpmath as mp

mp.mp.dps = 40

HALF = mp.mpf(1) / 2

# Probabilities: both tails down to 5e-8 (confidence 0.9999999, two-sided)
# and the body; every one an f64, taken exactly by mpmath.
PS = [5e-8, 1e-7, 1e-6, 1e-4, 1e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 0.4, 0.6,
      0.75, 0.9, 0.95, 0.975, 0.99, 0.999, 1 - 1e-4, 1 - 1e-6, 1 - 1e-7,
      1 - 5e-8]

# Degrees of freedom 0.5 to 1e7, fractional ones included; 1100 is where
# the χ² quantiles once disagreed with statrs, the large ones where the t
# tail did.
DFS = [0.5, 0.55, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 7.3, 10.0, 29.5,
       100.0, 237.2, 1000.0, 1100.0, 3423.4, 1e4, 44656.5, 1e5, 3.4e5, 1e6,
       2.17e6, 1e7]

# Values below this are left out: their f64 is denormal or zero.
SMALLEST = mp.mpf('1e-290')


def t_sf(t, df):
    """P(T > t) for t >= 0: ½ I_x(ν/2, ½), x = ν / (ν + t²), computed both
    as I_x and as 1 − I_{1−x}(½, ν/2) and checked to agree."""
    x = df / (df + t * t)
    y = t * t / (df + t * t)
    try:
        direct = mp.betainc(df / 2, HALF, 0, x, regularized=True) / 2
    except mp.libmp.NoConvergence:
        # mpmath's series gives up only far out in the tail: check that the
        # leading term x^a y^½ / (a B(a, ½)) is below any f64 there.
        a = df / 2
        lead = a * mp.log(x) + mp.log(y) / 2 - mp.log(a) - mp.log(mp.beta(a, HALF))
        assert lead < mp.log(mp.mpf('1e-300')), (t, df)
        return mp.mpf(0)
    if y < HALF and direct > mp.mpf("1e-5"):
        other = (1 - mp.betainc(HALF, df / 2, 0, y, regularized=True)) / 2
        assert abs(direct - other) <= mp.mpf('1e-25') * direct, (t, df)
    return direct


def t_upper_tail(t, df):
    return t_sf(t, df) if t >= 0 else 1 - t_sf(-t, df)


def gamma_lower_series(a, z):
    """P(a, z) = zᵃ e⁻ᶻ / Γ(a + 1) · ₁F₁(1; a + 1; z), for z <= a (where it
    is at most about ½, so 1 − P keeps its digits)."""
    front = mp.exp(a * mp.log(z) - z - mp.loggamma(a + 1))
    return front * mp.hyp1f1(1, a + 1, z, maxterms=10**7)


def gamma_upper(a, z):
    """Q(a, z) for z > a: mpmath's own, or where its series gives up (large
    a), Legendre's continued fraction by the modified Lentz method."""
    try:
        return mp.gammainc(a, z, mp.inf, regularized=True)
    except mp.libmp.NoConvergence:
        pass
    tiny = mp.mpf('1e-300')
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10**7):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if d == 0 else d
        c = b + an / c
        c = tiny if c == 0 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < mp.mpf('1e-36'):
            return mp.exp(a * mp.log(z) - z - mp.loggamma(a)) * h
    raise AssertionError((a, z))


def chi2_lower(x, df):
    a, z = df / 2, x / 2
    if z <= a:
        return gamma_lower_series(a, z)
    return 1 - gamma_upper(a, z)


def chi2_upper(x, df):
    a, z = df / 2, x / 2
    if z <= a:
        return 1 - gamma_lower_series(a, z)
    return gamma_upper(a, z)


def solve(tail, target, rising, guess):
    """The x > 0 with tail(x) = target, tail monotone (rising or falling);
    found on u = ln x, then checked to 1e-14 relative."""
    ln_target = mp.log(target)

    def g(u):
        value = tail(mp.exp(u))
        # a tail that underflows is far below the target, on either side
        return mp.log(value) - ln_target if value > 0 else mp.mpf(-1e6)

    sign = 1 if rising else -1
    low = high = mp.log(guess)
    step = mp.mpf(1)
    # expand until g(low) and g(high) bracket 0 (g rises with u when rising)
    while sign * g(low) > 0:
        low -= step
        step *= 2
    step = mp.mpf(1)
    while sign * g(high) < 0:
        high += step
        step *= 2
    # the Illinois variant of regula falsi, every third step a bisection
    gl, gh = g(low), g(high)
    for i in range(1000):
        if high - low < mp.mpf('1e-25'):
            break
        mid = low - gl * (high - low) / (gh - gl)
        if not (low < mid < high) or i % 3 == 2:
            mid = (low + high) / 2
        gm = g(mid)
        if gm == 0:
            low = high = mid
            break
        if sign * gm < 0:
            low, gl = mid, gm
            gh /= 2
        else:
            high, gh = mid, gm
            gl /= 2
    x = mp.exp((low + high) / 2)
    below, above = tail(x * (1 - mp.mpf('1e-14'))), tail(x * (1 + mp.mpf('1e-14')))
    if rising:
        assert below <= target <= above, (target, x)
    else:
        assert above <= target <= below, (target, x)
    return x


def t_quantile(p, df):
    p = mp.mpf(p)
    tail = p if p < HALF else 1 - p
    guess = max(mp.mpf('0.1'), -mp.sqrt(2) * mp.erfinv(2 * tail - 1))
    t = solve(lambda t: t_sf(t, df), tail, False, guess)
    return -t if p < HALF else t


def chi2_quantile(p, df):
    p = mp.mpf(p)
    guess = max(df, 1)
    if p <= HALF:
        return solve(lambda x: chi2_lower(x, df), p, True, guess)
    return solve(lambda x: chi2_upper(x, df), 1 - p, False, guess)


def normal_quantile(p):
    return mp.sqrt(2) * mp.erfinv(2 * mp.mpf(p) - 1)


def binomial_cdf(k, n, s):
    """P(X <= k) for X ~ Binomial(n, s): the sum of the probabilities from
    20 standard deviations below k (or below the mean, if lower) up (the terms below are under 1e-80 of
    the sum), each from the last by the ratio (n − j) s / ((j + 1)(1 − s))."""
    if k < 0:
        return mp.mpf(0)
    if k >= n:
        return mp.mpf(1)
    s = mp.mpf(s)
    sd = mp.sqrt(n * s * (1 - s))
    j = max(0, int(min(k, n * s) - 20 * sd - 20))
    term = mp.exp(mp.loggamma(n + 1) - mp.loggamma(j + 1) - mp.loggamma(n - j + 1)
                  + j * mp.log(s) + (n - j) * mp.log(1 - s))
    ratio = s / (1 - s)
    total = mp.mpf(0)
    while True:
        total += term
        if j == k:
            return total
        term *= (n - j) * ratio / (j + 1)
        j += 1


def binomial_quantile(p, n, s):
    """The smallest k with P(X <= k) >= p, by bisection on the counts
    between 15 standard deviations either side of the mean."""
    p = mp.mpf(p)
    sd = mp.sqrt(n * mp.mpf(s) * (1 - mp.mpf(s)))
    low = max(-1, int(n * s - 15 * sd) - 15)
    high = min(n, int(n * s + 15 * sd) + 15)
    assert binomial_cdf(low, n, s) < p <= binomial_cdf(high, n, s), (p, n, s)
    while high - low > 1:
        mid = (low + high) // 2
        if binomial_cdf(mid, n, s) >= p:
            high = mid
        else:
            low = mid
    return high


def f64(value):
    """The nearest f64, in Rust's shortest round-trip spelling."""
    text = repr(float(value))
    return text if ('e' in text or '.' in text or 'inf' in text) else text + '.0'


def table(name, doc, columns, rows):
    lines = [f'/// {doc}', f'pub(super) const {name}: &[{columns}] = &[']
    for row in rows:
        lines.append('    (' + ', '.join(row) + '),')
    lines.append('];')
    return '\n'.join(lines)


def main():
    out = []
    xs = [1e-3, 0.1, 0.25, 0.5, 0.75, 1.5, 2.5, 3.7, 9.99, 10.5, 29.5,
          100.3, 1e4 + 0.5, 5e6, 1e7]
    out.append(table('LN_GAMMA', '`(x, ln Γ(x))`.', '(f64, f64)',
                     [(f64(x), f64(mp.loggamma(x))) for x in xs]))
    out.append(table('DIGAMMA', '`(x, ψ(x))`, away from the root of ψ at 1.4616….',
                     '(f64, f64)', [(f64(x), f64(mp.digamma(x))) for x in xs]))
    # (not 1e-300 or 1e-100: 2p − 1 rounds to −1 at 40 digits)
    ps = PS + [1e-20, 1e-10, 0.075, 0.925]
    out.append(table('NORMAL_QUANTILE', '`(p, z_p)`.', '(f64, f64)',
                     [(f64(p), f64(normal_quantile(p))) for p in ps]))
    rows = [(f64(p), f64(df), f64(t_quantile(p, mp.mpf(df)))) for df in DFS for p in PS]
    out.append(table('T_QUANTILE', '`(p, df, t)`: Student\'s t quantile.',
                     '(f64, f64, f64)', rows))
    ts = [-8.0, -3.0, -1.0, -0.3, 0.01, 0.3, 1.0, 1.96, 3.0, 5.0, 7.2, 10.0,
          30.0, 1e3, 1e6]
    rows = []
    for df in DFS:
        for t in ts:
            value = t_upper_tail(mp.mpf(t), mp.mpf(df))
            if value > SMALLEST:
                rows.append((f64(t), f64(df), f64(value)))
    for t in ts:
        value = mp.erfc(mp.mpf(t) / mp.sqrt(2)) / 2
        if value > SMALLEST:
            rows.append((f64(t), 'f64::INFINITY', f64(value)))
    out.append(table('T_UPPER_TAIL', '`(t, df, P(T > t))`.', '(f64, f64, f64)', rows))
    rows = [(f64(p), f64(df), f64(chi2_quantile(p, mp.mpf(df)))) for df in DFS for p in PS]
    out.append(table('CHI_SQUARED_QUANTILE', '`(p, df, x)`: the χ² quantile.',
                     '(f64, f64, f64)', rows))
    rows = []
    for df in DFS:
        for ratio in [1e-3, 0.1, 0.5, 0.9, 1.0, 1.1, 1.5, 2.0, 5.0]:
            x = df * ratio
            value = chi2_upper(mp.mpf(x), mp.mpf(df))
            if value > SMALLEST:
                rows.append((f64(x), f64(df), f64(value)))
    out.append(table('CHI_SQUARED_UPPER_TAIL', '`(x, df, P(X > x))`.',
                     '(f64, f64, f64)', rows))
    rows = []
    for n in [1, 7, 20, 1000, 99_999, 1_000_000]:
        for s in [1e-6, 0.05, 0.5, 0.95]:
            # not ½: at s = ½ and odd n, P(X ≤ (n − 1)/2) is exactly ½, a
            # tie that rounding decides either way
            for p in [1e-7, 0.025, 0.4, 0.975, 1 - 1e-7]:
                rows.append((f64(p), str(n), f64(s), str(binomial_quantile(p, n, s))))
    out.append(table('BINOMIAL_QUANTILE', '`(p, trials, success, k)`: the smallest k with P(X ≤ k) ≥ p.',
                     '(f64, u64, f64, u64)', rows))
    header = ('//! Generated by `reference_values.py` (mpmath, 40 digits, each value\n'
              '//! rounded once to the nearest f64): do not edit, rerun the script.\n'
              '//! `statrs_agreement.rs` holds perfmark\'s functions to these.\n\n'
              '#![allow(clippy::approx_constant, clippy::excessive_precision, clippy::unreadable_literal)]\n')
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'reference_values.rs')
    with open(path, 'w') as f:
        f.write(header + '\n' + '\n\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
