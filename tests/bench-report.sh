#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-report.py's statistics on made-up runs: the 95% interval
# of the median (order statistics from 6 runs, the bootstrap below), a
# difference reported only where the intervals part, and the "what each
# option buys" row of a COLUMN+NO_NUMA_X pair.
#
# Seen to fail: with the interval taken as [min, max] whatever n (the
# ranks for 10 runs are 2 and 9), and with every difference printed as a
# percentage (the overlapping pair lost its "(~)"), with perf_converge_s
# -1 read as a value (no claims row), with rows of no values printed and
# with a run that never converged counted as converged (0 of 6: 100%).

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"
report=$here/../scripts/bench-report.py
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ktap_header
ktap_plan 6

# runs COLUMN WORKLOAD KEY VALUE...: one bench-result line per value.
runs()
{
	local col=$1 w=$2 key=$3 v

	shift 3
	mkdir -p "$tmp/r/logs/$col"
	for v in "$@"; do
		echo "bench-result workload=$w $key=$v" >>"$tmp/r/logs/$col/output.log"
	done
}

py()
{
	python3 -c "import importlib.util as u, sys
s = u.spec_from_file_location('r', '$report'); m = u.module_from_spec(s); s.loader.exec_module(m)
$1"
}

# Ranks of the order-statistics interval: n=6 -> 1..6, n=10 -> 2..9,
# n=20 -> 6..15 (the binomial table's), and a bootstrap below 6.
got=$(py "
for n in (6, 10, 20):
    lo, hi, how = m.median_ci(list(range(1, n + 1)))
    print(n, int(lo), int(hi), how)
print(m.median_ci([1.0, 2.0, 3.0, 4.0, 5.0])[2])")
want=$'6 1 6 order statistics\n10 2 9 order statistics\n20 6 15 order statistics\nbootstrap'
[ "$got" = "$want" ]
ktap_result $? "95% interval of the median: ranks 1-6, 2-9, 6-15 for 6, 10, 20 runs; bootstrap for 5 ($(echo $got))"

# A: 10 runs around 100; B: around 200 (apart); C: around 101 (overlapping).
runs A trade residency 95 96 97 98 99 101 102 103 104 105
runs B trade residency 195 196 197 198 199 201 202 203 204 205
runs C trade residency 96 97 98 99 100 102 103 104 105 106
python3 "$report" "$tmp/r" A B C >"$tmp/out" 2>/dev/null
grep -q '^Residency % (end).* 100 *200 (+100%) *101 (~)$' "$tmp/out"
ktap_result $? "a change is printed where the intervals part, (~) where they overlap"

# claim ON OFF: the claims row of numa-all (ON: its residencies on trade)
# against numa-all+NO_NUMA_SWAP (OFF), 6 runs each from the given start.
claim()
{
	rm -rf "$tmp/r"
	runs numa-all trade residency $(seq "$1" $(($1 + 5)))
	runs numa-all+NO_NUMA_SWAP trade residency $(seq "$2" $(($2 + 5)))
	python3 "$report" "$tmp/r" numa-all numa-all+NO_NUMA_SWAP >/dev/null 2>&1
}

claim 90 50
grep -q '^| NUMA_SWAP | .* | trade, residency | 92.5 \[90, 95\] | 52.5 \[50, 55\] | holds |$' "$tmp/r/table.md"
ktap_result $? "the claims table: NUMA_SWAP on against off, the claim holds"

claim 50 51
grep -q '| no difference measured |$' "$tmp/r/table.md"
ktap_result $? "a claim whose effect is within the intervals: no difference measured"

# perf-PxT: converged after 3..8 s with NUMA_GROUPS, never (-1) without;
# trade has no perf rows.
rm -rf "$tmp/r"
runs numa-all perf-2x2 perf_converge_s 3 4 5 6 7 8
runs numa-all+NO_NUMA_GROUPS perf-2x2 perf_converge_s -1 -1 -1 -1 -1 -1
runs numa-all trade residency 90 91 92 93 94 95
runs numa-all+NO_NUMA_GROUPS trade residency 90 91 92 93 94 95
python3 "$report" "$tmp/r" numa-all numa-all+NO_NUMA_GROUPS >"$tmp/out" 2>/dev/null
grep -q '^perf: converged after s *5.5 *never (higher)$' "$tmp/out" &&
	grep -q '^| NUMA_GROUPS | .* | perf-2x2, perf_converged_pct | 100 \[61.0, 100\] | 0 \[0, 39.0\] | holds |$' "$tmp/r/table.md" &&
	[ "$(grep -c '^perf: converged after s' "$tmp/out")" = 1 ]
ktap_result $? "perf-PxT: a run that never converged counts as never; 6 of 6 against 0 of 6 (Wilson); no perf rows under trade"

# One run a column: no interval, so no change is printed and no claim
# is judged (seen to fail: "+100%" printed from two single runs).
rm -rf "$tmp/r"
runs numa-all trade residency 50
runs numa-all+NO_NUMA_SWAP trade residency 100
python3 "$report" "$tmp/r" numa-all numa-all+NO_NUMA_SWAP >"$tmp/out" 2>/dev/null
grep -q '^Residency % (end) *50 *100$' "$tmp/out" &&
	grep -q '| one run: no interval |$' "$tmp/r/table.md"
ktap_result $? "one run a column: no change printed, the claim not judged"

ktap_finished
