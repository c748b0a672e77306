#!/usr/bin/env python3
"""Instruction-count verdicts at the default count tolerance, repeated:
`python3 xtask/scripts/count_campaign.py [ROUNDS]` (default 20), after
`cargo test --release --test instructions` has built the fixture's counting
binaries (target/fixtures/counts-base and counts-head). Each round the base
records a baseline (--save-baseline --instructions), then base and head are
checked against it (stored), the head is paired with the base, and the base
with itself; prints each test's verdicts per kind of run, the function named
first for `two_parts`, which recordings varied, and the counting time.
Needs valgrind; run it alone."""
import json, os, subprocess, sys, time, collections
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
fx = os.path.join(root, 'tests/fixtures/basic')
B = os.path.join(root, 'target/fixtures/counts-base')
H = os.path.join(root, 'target/fixtures/counts-head')
N = int(sys.argv[1]) if len(sys.argv) > 1 else 20
TESTS = ['sum_1000', 'scaled', 'nudged', 'two_parts', 'hashed']
work = os.path.join(root, 'target', 'count-campaign')
env = {k: v for k, v in os.environ.items() if not k.startswith('PERFMARK_')}
env['PERFMARK_NO_LOCK'] = '1'

def run(exe, args, rd):
    subprocess.run(['rm', '-rf', rd])
    t = time.time()
    p = subprocess.run([exe, '--instructions', '--report-dir', rd] + args + TESTS, cwd=fx, env=env,
                       capture_output=True, text=True)
    rep = json.load(open(os.path.join(rd, 'report.json')))
    return p.returncode, {t['name']: t for t in rep['tests']}, time.time() - t

tally = collections.defaultdict(collections.Counter)
first_named = collections.Counter()
times = []
nondet = collections.Counter()
for i in range(N):
    bl = f'{work}/bl'
    subprocess.run(['rm', '-rf', bl])
    rc, rep, dt = run(B, ['--save-baseline', '--baseline-dir', bl], f'{work}/rec')
    for name, t in rep.items():
        ins = t.get('instructions') or {}
        if not ins.get('deterministic', True): nondet[name] += 1
        times.append(ins.get('elapsed_s'))
    for label, exe, args, key in [
        ('stored base', B, ['--baseline-dir', bl], 'baseline'),
        ('stored head', H, ['--baseline-dir', bl], 'baseline'),
        ('paired head', H, ['--compare-with', B], 'base'),
        ('paired base', B, ['--compare-with', B], 'base')]:
        rc, rep, dt = run(exe, args, f'{work}/run')
        for name in TESTS:
            ins = (rep.get(name) or {}).get('instructions') or {}
            c = ins.get(key)
            if c is None:
                tally[(label, name)]['missing'] += 1; continue
            tally[(label, name)][f"{c['change']} ({(c['ratio']-1)*100:+.2f}%)" if c['change'] != 'unchanged' or name != 'hashed' else 'unchanged'] += 1
            if name == 'two_parts' and c.get('functions'):
                first_named[(label, c['functions'][0]['function'])] += 1
            times.append(ins.get('elapsed_s'))
    print(f'round {i+1} done', file=sys.stderr, flush=True)
for (label, name), c in sorted(tally.items()):
    print(f'| {label} | {name} | ' + ', '.join(f'{k}: {v}' for k, v in c.most_common()) + ' |')
print('first named for two_parts:', dict(first_named))
print('nondeterministic in recordings:', dict(nondet))
ts = sorted(t for t in times if t is not None)
if ts:
    print(f'counting wall time per test and side: median {ts[len(ts)//2]:.2f} s, p90 {ts[int(len(ts)*0.9)]:.2f} s, max {ts[-1]:.2f} s, n={len(ts)}')
