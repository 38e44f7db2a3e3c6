#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench's and make shapes' inputs: a bad workload, column, count or
# shape is refused with a message naming it, before anything is built;
# and qemu/workloads/perf-numa, run on the host (with a perf that only
# prints its arguments), refuses a bad shape, skips under -b, and
# gives perf its share of the memory.
#
# Seen to fail: with perf-numa passing the whole of -m to each process
# (-P 64 for perf-4x1: the OOM killer's case in the guest).

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"
REPO=$(realpath "$here/..")
WORK=${WORK:-/var/tmp/numa-sched}
export KSRC=${KSRC:-$WORK/linux}
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export WORK BUILD=$tmp/build OUT=$tmp/out NODES=2 CPUS_PER_NODE=2 \
	MEM_PER_NODE_MB=512 DIST_REMOTE=20

ktap_header
[ -f "$KSRC/kernel/sched/features.h" ] || ktap_exit_skip "no kernel tree in $KSRC (make tree)"
ktap_plan 10

# refused WHAT PATTERN VAR=VALUE...: scripts/bench.sh (or shapes.sh) with
# those settings exits non-zero, says PATTERN, builds nothing and leaves
# no results directory (one was left before: seen to fail).
refused()
{
	local script=$1 want=$2

	shift 2
	env "$@" "$REPO/scripts/$script" >"$tmp/log" 2>&1 && return 1
	grep -q -- "$want" "$tmp/log" && ! grep -q building "$tmp/log" &&
		[ ! -d "$tmp/build" ] && [ ! -d "$tmp/out/bench" ]
}

refused bench.sh "perf workloads are perf-PxT" BENCH=perf-0x2 BENCH_COLUMNS=numa-all
ktap_result $? "BENCH=perf-0x2: refused, perf workloads are perf-PxT"
refused bench.sh "no bench workload 'nosuch'" BENCH=nosuch BENCH_COLUMNS=numa-all
ktap_result $? "BENCH=nosuch: refused"
refused bench.sh "NUMA_NOPE has no scheduler feature" BENCH=trade BENCH_COLUMNS=numa-all+NO_NUMA_NOPE
ktap_result $? "a column turning off an option that has no scheduler feature: refused"
refused bench.sh "BENCH_RUNS must be a positive integer" BENCH=trade BENCH_RUNS=0 BENCH_COLUMNS=numa-all
ktap_result $? "BENCH_RUNS=0: refused"
refused bench.sh "BENCH_CLAIMS: no claim 'NUMA_NOPE'" BENCH_CLAIMS="NUMA_SWAP NUMA_NOPE"
ktap_result $? "BENCH_CLAIMS naming no claim of configs/claims.tsv: refused"
refused bench.sh "BENCH_ROUNDS must be 1 to BENCH_RUNS" BENCH_CLAIMS=default=6.1 BENCH_RUNS=4 BENCH_ROUNDS=5
ktap_result $? "BENCH_ROUNDS above BENCH_RUNS: refused"
refused shapes.sh "the workloads need 2 nodes" SHAPES="2x2 1x4"
ktap_result $? "SHAPES with a one-node machine: refused before the first shape runs"

# perf-numa on the host: a perf that prints its arguments.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "args: $*"\n' >"$tmp/bin/perf"
chmod +x "$tmp/bin/perf"
pn()
{
	(cd "$tmp" && PATH=$tmp/bin:$PATH sh "$REPO/qemu/workloads/perf-numa" "$@")
}

pn perf-2y2 >"$tmp/log" 2>&1
[ $? = 2 ] && grep -q usage "$tmp/log"
ktap_result $? "perf-numa perf-2y2: usage, exit status 2"
out=$(pn perf-2x2 -s 5 -m 64 -b 2>/dev/null)
[ $? = 0 ] && [ -z "$out" ]
ktap_result $? "perf-numa under -b: no run, no result, exit status 0"
out=$(pn perf-4x1 -s 5 -m 64 2>&1)
echo "$out" | grep -q '^perf: args: bench numa mem -p 4 -t 1 -P 16 -s 5 ' &&
	echo "$out" | grep -q '^bench-result workload=perf-4x1 .* tasks=4 .* perf_converge_s=-1 '
ktap_result $? "perf-numa perf-4x1 -m 64: perf gets -P 16 each; no convergence reported is never (-1)"

ktap_finished
