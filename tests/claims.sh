#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# configs/claims.tsv, the table make bench judges: a claim for every
# option of Kconfig.numa (its KUnit switches aside), every row's ten
# fields, its columns' kernels in configs/ (or upstream), its workload in
# qemu/workloads/bench.c, its metric and mechanism counters printed by
# bench.c's bench-result line, its direction higher, lower or equal:M.
#
# Seen to fail: with the NUMA_FBQ row removed (case 1) and with its
# metric spelt xnode_move (case 3).

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"
REPO=$(realpath "$here/..")
CLAIMS=${CLAIMS:-$REPO/configs/claims.tsv}
bench=$REPO/qemu/workloads/bench.c

rows()
{
	awk -F'\t' '!/^#/ && NF && $1 != "claim"' "$CLAIMS"
}

ktap_header
ktap_plan 4

missing=""
for o in $(sed -n 's/^config \(NUMA_[A-Z0-9_]*\)$/\1/p' "$REPO/Kconfig.numa" | grep -v '_KUNIT_TEST$'); do
	rows | cut -f1 | grep -qx "$o" || missing="$missing $o"
done
[ -z "$missing" ]
ktap_result $? "every option of Kconfig.numa has a claim${missing:+ (none for$missing)}"

bad=$(rows | awk -F'\t' 'NF != 10 || ($8 != "higher" && $8 != "lower" && $8 !~ /^equal:[0-9.]+$/)')
[ -z "$bad" ]
ktap_result $? "every row: ten fields, better higher, lower or equal:M${bad:+ (not: $bad)}"

# printed KEY: bench.c prints "KEY=" (or counts /proc/vmstat's numa_KEY),
# or bench-report.py derives it (DERIVED).
printed()
{
	[ "$1" = converged_pct ] || grep -q "[ \"]$1=" "$bench" || grep -q "\"numa_$1\"" "$bench" ||
		grep -q "^    \"$1\": lambda" "$REPO/scripts/bench-report.py"
}
bad=""
while IFS=$'\t' read -r claim on off w secs scan metric better mech text; do
	for k in $metric ${mech//,/ }; do
		printed "$k" || bad="$bad $claim:$k"
	done
done < <(rows)
[ -z "$bad" ]
ktap_result $? "every metric and mechanism counter is printed by bench.c${bad:+ (not:$bad)}"

bad=""
while IFS=$'\t' read -r claim on off w secs scan metric better mech text; do
	for col in "$on" "$off"; do
		k=${col%%+*}
		[ "$k" = upstream ] || [ -f "$REPO/configs/$k.config" ] || bad="$bad $claim:$k"
	done
	case "$w" in
	perf-*) ;;
	*) grep -q "\"$w\"" "$bench" || bad="$bad $claim:$w" ;;
	esac
	case "$secs" in
	"" | *[!0-9]*) bad="$bad $claim:secs" ;;
	esac
done < <(rows)
[ -z "$bad" ]
ktap_result $? "every row's kernels are in configs/, its workload in bench.c${bad:+ (not:$bad)}"

ktap_finished
