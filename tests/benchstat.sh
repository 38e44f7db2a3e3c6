#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/benchstat.py on known answers: Fisher's 6 of 6 against 1 of 6,
# the exact rank-sum test (with ties, against every subset counted here),
# the Hodges-Lehmann shift and interval, Holm's adjustment, the
# equivalence test, the three verdicts and the seeded ratio of medians.
#
# Seen to fail: with fisher_greater summing P(X > k1) (6 of 6 against 1
# of 6 gave 0, 0 of 6 against 6 of 6 0.9989), with holm without its
# running maximum ([0.03, 0.04, 0.06]), with tied values ranked by their
# first place, not their midrank (0.2338 against the enumeration's
# 0.2186), and with the Hodges-Lehmann k one too high or too low (ranks
# 7 30 39 106 44 101, 5 32 37 108 42 103; the [7, 13] and [-3, 3] cases
# passed regardless, the differences there being tied). Each failed its
# own case only.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"
stat=$here/../scripts/benchstat.py

ktap_header
ktap_plan 11

py()
{
	python3 -c "import importlib.util as u, sys
s = u.spec_from_file_location('b', '$stat'); m = u.module_from_spec(s); s.loader.exec_module(m)
$1"
}

# got WANT CODE: the code's output is WANT; got holds what it printed.
check()
{
	got=$(py "$2" 2>&1)
	[ "$got" = "$1" ]
}

check '0.0076 1.0' "
print(round(m.fisher_greater(6, 6, 1, 6), 4), m.fisher_greater(0, 6, 6, 6))"
ktap_result $? "Fisher one-sided: 6 of 6 against 1 of 6 is 0.0076, 0 of 6 against 6 of 6 is 1 ($got)"

check '0.05 1.0 1.0' "
print(m.rank_sum_greater([4, 5, 6], [1, 2, 3]), m.rank_sum_greater([1, 2, 3], [4, 5, 6]),
      m.rank_sum_greater([1, 1, 1], [1, 1, 1]))"
ktap_result $? "rank sum: 0.05 for 3 above 3, 1 the other way and for all tied ($got)"

# The ties' p-value by brute force: midranks and every 5 of the 11.
check 'same' "
import itertools
from fractions import Fraction
x, y = [1, 2, 2, 3, 5], [0, 1, 2, 2, 2, 4]
pool = sorted(x + y)
mid = {v: Fraction(pool.index(v) + 1 + len(pool) - pool[::-1].index(v), 2) for v in pool}
w = sum(mid[v] for v in x)
subs = list(itertools.combinations([mid[v] for v in pool], len(x)))
want = sum(sum(s) >= w for s in subs) / len(subs)
got = m.rank_sum_greater(x, y)
print('same' if got == want and 0 < want < 1 else (got, want))"
ktap_result $? "rank sum with ties: the exact p-value, as every subset counted gives it ($got)"

check '3 -inf inf' "
s, lo, hi = m.hodges_lehmann([4, 5, 6], [1, 2, 3])
print(s, lo, hi)"
ktap_result $? "Hodges-Lehmann: shift 3 for 4..6 against 1..3, no 95% interval from 3 runs ($got)"

check '10.0 7 13' "
print(*m.hodges_lehmann(list(range(10, 22)), list(range(12))))"
ktap_result $? "Hodges-Lehmann: 10..21 against 0..11, the 95% interval [7, 13] excludes 0 ($got)"

check '0.0 -3 3' "
print(*m.hodges_lehmann(list(range(12)), list(range(12))))"
ktap_result $? "Hodges-Lehmann: identical samples, the interval [-3, 3] holds 0 ($got)"

# Differences a i - j all distinct, so that lo and hi give their ranks:
# k - 1 is the tables' critical U, 5 for 6 and 6 runs at 95% (two-sided),
# 37 for 12 and 12 at 95%, 42 for 12 and 12 at 90% (TOST's).
check '6 31 38 107 43 102' "
ranks = []
for a, level in ((6, 0.95), (12, 0.95), (12, 0.90)):
    x, y = [a * i for i in range(a)], list(range(a))
    d = sorted(p - q for p in x for q in y)
    s, lo, hi = m.hodges_lehmann(x, y, level)
    ranks += [d.index(lo) + 1, d.index(hi) + 1]
print(*ranks)"
ktap_result $? "Hodges-Lehmann: the interval's ranks, k = 6, 38 and 43 ($got)"

check '[0.03, 0.06, 0.06] [0.03, None, 0.06, 0.06]' "
r = lambda ps: [None if p is None else round(p, 12) for p in ps]
print(r(m.holm([0.01, 0.04, 0.03])), r(m.holm([0.01, None, 0.04, 0.03])))"
ktap_result $? "Holm: [0.01, 0.04, 0.03] to [0.03, 0.06, 0.06], None passed and not counted ($got)"

check 'True False False' "
a, b, c = list(range(100, 112)), list(range(101, 113)), list(range(120, 132))
print(m.tost(a, b, 5)[0], m.tost(a, b, 0.5)[0], m.tost(a, c, 5)[0])"
ktap_result $? "TOST: 100..111 and 101..112 the same within 5, not within 0.5; 120..131 not within 5 ($got)"

check 'holds refuted no difference measured' "
print(m.verdict(0.01, 0.99), m.verdict(0.99, 0.01), m.verdict(0.2, 0.8))"
ktap_result $? "verdict: holds, refuted, no difference measured ($got)"

check 'True True 1.667 (None, None, None)' "
x, y = [5, 6, 7, 8, 9, 10], [2, 3, 4, 5, 6, 7]
a, b = m.ratio_of_medians(x, y), m.ratio_of_medians(x, y)
print(a == b, a[1] <= a[0] <= a[2], round(a[0], 3), m.ratio_of_medians(x, [0, 0, 1]))"
ktap_result $? "ratio of medians: the same twice (seeded), its interval holds it, none over a median of 0 ($got)"

ktap_finished
