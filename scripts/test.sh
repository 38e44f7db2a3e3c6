#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make test: the host-side unit tests, then the default kernel's build
# and TESTS_2X2 on 2 nodes x 2 CPUs, then the boot matrix's covering
# subset (make matrix MATRIX_SET=cover, rerun from scratch: its row with
# all options on is the default kernel's whole suite on NODES x
# CPUS_PER_NODE), then a short make stress (TEST_STRESS_SECS, default
# 180: the debug kernel under load), then the static gate (make check).
# Each stage's results are judged by the tree's KTAP parser; this adds
# them up and ends with "N passed, N failed". TEST_MATRIX=all runs the whole matrix instead,
# TEST_MATRIX=none only the default kernel's suite.
# A stage that fails without results (a build error, a guest that
# crashed or hung) counts as one failure of its own.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

: "${OUT:?}" "${TESTS_2X2:?}"
mkdir -p "$OUT"
passed=0
failed=0

# count LOG: add the kunit.py parse summaries of LOG (a guest run has
# two: KUnit's and the in-guest suite's) to the totals; false if none.
count()
{
	grep -q 'Ran [0-9]* tests\?:' "$1" 2>/dev/null || return 1
	passed=$((passed + $(ktap_count "$1" passed)))
	failed=$((failed + $(ktap_count "$1" failed) + $(ktap_count "$1" errors)))
}

stage()
{
	local name=$1 log=$OUT/test-$1.log rc

	shift
	info "=== $name"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	if ! count "$log" && [ "$rc" != 0 ]; then
		failed=$((failed + 1))
		echo "numa-sched: $name failed before reporting results" >&2
	elif [ "$rc" != 0 ] && ! grep -q 'failed: [1-9]\|errors: [1-9]' "$log"; then
		# Results all passed, yet the stage failed: a kernel report or
		# a guest that did not finish. Count it.
		failed=$((failed + 1))
	fi
	return "$rc"
}

stage unit make -s --no-print-directory unit
if stage kernel make -s --no-print-directory kernel; then
	# Tests that need more than one CPU per node (the balancer's NUMA
	# classes), on a second machine shape.
	stage guest-2x2 make -s --no-print-directory boot NODES=2 CPUS_PER_NODE=2 \
		TESTS="$TESTS_2X2"
	case "${TEST_MATRIX:-cover}" in
	none) stage guest make -s --no-print-directory boot ;;
	all | cover) stage matrix make -s --no-print-directory matrix \
		MATRIX_SET="${TEST_MATRIX:-cover}" MATRIX_FRESH=1 ;;
	*) die "TEST_MATRIX must be cover, all or none" ;;
	esac
	stage stress make -s --no-print-directory stress \
		STRESS_SECS="${TEST_STRESS_SECS:-180}"
	stage check make -s --no-print-directory check
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
