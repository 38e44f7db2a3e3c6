#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make test: the host-side unit tests, then the default kernel's build,
# then the boot matrix's covering rows (make matrix MATRIX_SET=cover: every
# option on and off, the default kernel's whole suite on 4 nodes of one
# CPU and the balancer's NUMA classes on 2 nodes of 2, FBQ on and off;
# rows whose inputs did not change since they passed are kept), then two
# short make stress runs: the debug kernel with fault injection on 4x1
# (TEST_STRESS_SECS, default 150), and the last-nid kernel (NUMA_CPUPID off,
# the matrix's cgSFd build, no debug options: no second debug build) on 2x2
# (TEST_STRESS2_SECS, default 90); then the static gate (make check).
#
# Every stage's KTAP documents are judged by the tree's own parser
# (kunit.py parse), which leaves its JSON in the stage's KTAP_JSON_DIR;
# the totals are the cases of those documents (scripts/ktap-count.py),
# and the run ends with "N passed, N failed". A stage that fails and
# whose documents show no failure (a build error, a guest that crashed or
# hung, a kernel report) counts as one failure of its own.
#
# TEST_MATRIX=all runs the whole matrix instead, none only the default
# kernel's suite (4x1).

set -u

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

: "${OUT:?}"
RESULTS=$OUT/test-results
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
passed=0
failed=0
t0=$(date +%s)

stage()
{
	local name=$1 log=$RESULTS/$1.log dir=$RESULTS/$1 rc p=0 f=0 s e start

	shift
	info "=== $name"
	start=$(date +%s)
	KTAP_JSON_DIR=$dir "$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	set -- "$dir"/*.json
	if [ -f "$1" ]; then
		read -r p f s e < <(ktap_counts "$@")
		f=$((f + e))
	fi
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "numa-sched: $name failed (status $rc) with no failed test in its results" >&2
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	info "=== $name: $p passed, $f failed, $(( $(date +%s) - start ))s"
	printf '%s\t%s\t%s\t%s\n' "$name" "$p" "$f" "$(( $(date +%s) - start ))" >>"$RESULTS/times.tsv"
	return "$rc"
}

export KTAP_JSON_DIR
stage unit make -s --no-print-directory unit
if stage kernel make -s --no-print-directory kernel; then
	case "${TEST_MATRIX:-cover}" in
	none) stage guest make -s --no-print-directory boot ;;
	all | cover) stage matrix make -s --no-print-directory matrix \
		MATRIX_SET="${TEST_MATRIX:-cover}" ;;
	*) die "TEST_MATRIX must be cover, all or none" ;;
	esac
	stage stress make -s --no-print-directory stress \
		STRESS_SECS="${TEST_STRESS_SECS:-150}"
	# The matrix's row cgSFd: its build directory, CONFIG and OPTS.
	bname=
	IFS='|' read -r bname config opts < <("$here/matrix.sh" --list |
		awk -F'\t' '$1 == "cgSFd" { print $2 "|" $3 "|" $4 }')
	if [ -n "$bname" ]; then
		stage stress-lastnid make -s --no-print-directory stress \
			NAME="$bname" CONFIG="$config" OPTS="$opts" STRESS_FRAGS= \
			NODES=2 CPUS_PER_NODE=2 STRESS_SECS="${TEST_STRESS2_SECS:-90}"
	else
		echo "numa-sched: no row cgSFd in configs/matrix.tsv: the last-nid stress did not run" >&2
		failed=$((failed + 1))
	fi
	stage check make -s --no-print-directory check
fi
info "ccache: $(ccache_hits)"
info "stages (name, passed, failed, seconds):"
sed 's/^/    /' "$RESULTS/times.tsv" >&2
info "make test took $(( $(date +%s) - t0 ))s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
