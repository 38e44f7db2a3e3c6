#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# make bench's statistics, exact where the runs are few: fisher_greater()
# compares two shares of runs (converged or not), rank_sum_greater()
# asks whether one kernel's values tend to be larger than another's
# (Wilcoxon-Mann-Whitney, ties counted exactly), hodges_lehmann() says by
# how much, with a distribution-free interval, ratio_of_medians() says it
# as a ratio, with a seeded bootstrap interval, holm() adjusts the p-values
# of a table of claims for their number, tost() asks whether two kernels
# are the same within a margin and verdict() turns a claim's two one-sided
# p-values into its word. Standard library only.
#
# Usage: benchstat.py selftest (checks the known answers, prints "ok")

import math
import random
import statistics
import sys


def fisher_greater(k1, n1, k2, n2):
    """One-sided Fisher exact test: k1 of n1 against k2 of n2.

    The p-value that group 1's success rate is higher than group 2's:
    P(X >= k1) for X, group 1's successes, hypergeometric with the table's
    margins fixed.
    """
    n, k = n1 + n2, k1 + k2
    tail = sum(math.comb(k, i) * math.comb(n - k, n1 - i)
               for i in range(k1, min(n1, k) + 1))
    return tail / math.comb(n, n1)


def subset_sums(values, n):
    """How many size-n subsets of values (integers >= 0) have each sum.

    A list indexed by the sum. The dynamic programme over (subset size,
    sum), the counts Python ints, so exact however many subsets.
    """
    counts = [[0] * (n * max(values, default=0) + 1) for _ in range(n + 1)]
    top = [0] * (n + 1)
    counts[0][0] = 1
    big = len(values)
    for i, r in enumerate(values, 1):
        # A size of k after i values needs n - k of the big - i left.
        for k in range(min(i, n), max(1, n - (big - i)) - 1, -1):
            src, dst, t = counts[k - 1], counts[k], top[k - 1]
            dst[r:r + t + 1] = [a + b for a, b in zip(dst[r:r + t + 1], src[:t + 1])]
            top[k] = max(top[k], t + r)
    return counts[n]


def rank_sum_greater(x, y):
    """One-sided exact Wilcoxon-Mann-Whitney test: is x larger than y?

    The p-value P(W >= w) for w the rank sum of x in the pooled runs and W
    that of a random len(x) of them, all equally likely. Tied values share
    their midrank (doubled, to stay integers); no normal approximation.
    """
    pooled = sorted(list(x) + list(y))
    rank2 = {}
    i = 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j] == pooled[i]:
            j += 1
        rank2[pooled[i]] = i + 1 + j          # (i + 1) + j, twice the midrank
        i = j
    w = sum(rank2[v] for v in x)
    counts = subset_sums([rank2[v] for v in pooled], len(x))
    return sum(counts[w:]) / math.comb(len(pooled), len(x))


def hodges_lehmann(x, y, level=0.95):
    """The shift x - y and its distribution-free interval, (shift, lo, hi).

    The shift is the median of the len(x) * len(y) differences x_i - y_j;
    the interval [d(k), d(mn + 1 - k)] of the sorted differences, k the
    largest with P(U <= k - 1) <= (1 - level) / 2 for the Mann-Whitney U
    (exact, no ties). Too few runs for that level: lo, hi = -inf, +inf.
    """
    m, n = len(x), len(y)
    d = sorted(a - b for a in x for b in y)
    shift = statistics.median(d)
    # U = the rank sum of x (ranks 0..m+n-1) less its least, m(m-1)/2.
    counts = subset_sums(list(range(m + n)), m)[m * (m - 1) // 2:]
    total, below, k = math.comb(m + n, m), 0, 0
    for u, c in enumerate(counts):
        below += c
        if below / total > (1 - level) / 2:
            break
        k = u + 1
    if k == 0:
        return shift, -math.inf, math.inf
    return shift, d[k - 1], d[m * n - k]


def ratio_of_medians(x, y, level=0.95, reps=10000, seed=2013):
    """median(x) / median(y) and a percentile bootstrap interval of it.

    x and y resampled independently, seeded so that a report is
    reproducible from its runs. (None, None, None) when median(y) is 0.
    """
    my = statistics.median(y)
    if my == 0:
        return None, None, None
    rng = random.Random(seed)
    ratios = []
    for _ in range(reps):
        by = statistics.median(rng.choices(y, k=len(y)))
        bx = statistics.median(rng.choices(x, k=len(x)))
        if by != 0:
            ratios.append(bx / by)
    ratios.sort()
    tail = (1 - level) / 2
    lo = ratios[int(tail * len(ratios))]
    hi = ratios[int((1 - tail) * len(ratios)) - 1]
    return statistics.median(x) / my, lo, hi


def holm(pvalues):
    """Holm-Bonferroni adjusted p-values, in the order given.

    Step-down: the j-th smallest of m times (m - j + 1), made monotone by
    a running maximum and capped at 1. None stays None and is not counted
    among the m tests.
    """
    order = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    adjusted = list(pvalues)
    running = 0.0
    for j, (p, i) in enumerate(order):
        running = max(running, min(1.0, (len(order) - j) * p))
        adjusted[i] = running
    return adjusted


def tost(x, y, margin, alpha=0.05):
    """Two one-sided tests: are x and y the same within +-margin?

    Done as: the (1 - 2 alpha) Hodges-Lehmann interval of x - y lies
    inside (-margin, +margin), margin in the data's units. Returns
    (equivalent, shift, lo, hi).
    """
    shift, lo, hi = hodges_lehmann(x, y, 1 - 2 * alpha)
    return -margin < lo and hi < margin, shift, lo, hi


def verdict(p_claimed, p_other, alpha=0.05):
    """A claim's word from its two one-sided adjusted p-values.

    "holds" when the claimed direction is significant, "refuted" when the
    other one is, "no difference measured" otherwise.
    """
    if p_claimed < alpha:
        return "holds"
    if p_other < alpha:
        return "refuted"
    return "no difference measured"


if __name__ == "__main__":
    if sys.argv[1:] != ["selftest"]:
        sys.exit("usage: benchstat.py selftest")
    assert abs(fisher_greater(6, 6, 1, 6) - 7 / 924) < 1e-12
    assert rank_sum_greater([4, 5, 6], [1, 2, 3]) == 0.05
    assert hodges_lehmann([4, 5, 6], [1, 2, 3])[0] == 3
    assert [round(p, 12) for p in holm([0.01, 0.04, 0.03])] == [0.03, 0.06, 0.06]
    print("ok")
