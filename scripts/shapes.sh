#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make shapes: which emulated machines this host runs well enough to
# measure. For each NODESxCPUS of SHAPES, make bench's numa-all column
# once (BENCH_RUNS=1) on bench's converge (a thread per CPU, each writing
# a byte of every page of its own 16 MiB region, first touched on the
# next node) and on perf's convergence test of that shape (a process per
# node, a thread per CPU of a node), BENCH_MB being 16 MiB a CPU; then
# one line:
#   wall s       the bench's time, build, boot and power-off included
#   Mpages/s     pages written per second per task, converge's: the
#                speed of one busy vCPU (MTTCG gives each vCPU a host
#                thread; the host's cores are shared by all of them).
#                Comparable across shapes only at one region size: TCG's
#                software TLB makes a larger region slower per page
#   converge     residency % at the end, converged after s (-1: never)
#   perf         perf bench numa's convergence latency (-1: never)
#   console      what the kernel said of a starved machine: clocksource
#                watchdog complaints, and RCU stalls, soft lockups or hung
#                tasks (boot.sh fails the run on those)
#   run          ok, or failed (the guest did not finish, or a report)
# The table goes to stdout and OUT/shapes/STAMP.txt.
#
# Environment: SHAPES (default "2x1 2x2 4x1 2x4 4x2 8x1 4x4"), BENCH_SECS,
# OUT, and make bench's.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

: "${OUT:?}"
SHAPES=${SHAPES:-2x1 2x2 4x1 2x4 4x2 8x1 4x4}
for s in $SHAPES; do
	case "$s" in
	[1-9]x[1-9] | [1-9]x[1-9][0-9] | [1-9][0-9]x[1-9]) ;;
	*) die "SHAPES: '$s' is not NODESxCPUS (2x2, 4x1, ...)" ;;
	esac
	[ "${s%x*}" -ge 2 ] || die "SHAPES: '$s': the workloads need 2 nodes or more"
done

dir=$OUT/shapes
mkdir -p "$dir"
table=$dir/$(date -u +%Y%m%d-%H%M%S).txt
# key LINE NAME: the value of NAME=... in a bench-result line.
key()
{
	local v

	v=$(echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p")
	echo "${v:--}"
}
printf '%-6s %5s %7s %10s %12s %10s %9s %9s  %s\n' shape vCPUs wall_s \
	Mpages/s conv_res_% conv_s perf_s clocksrc run | tee "$table"
for s in $SHAPES; do
	n=${s%x*}
	c=${s#*x}
	log=$dir/bench-$s.log
	info "shapes: $s: make bench, numa-all, converge and perf-${n}x$c once"
	t0=$(date +%s)
	run=ok
	NODES=$n CPUS_PER_NODE=$c BENCH_COLUMNS=numa-all BENCH="converge perf-${n}x$c" \
		BENCH_RUNS=1 BENCH_MB=$((16 * n * c)) "$here/bench.sh" >"$log" 2>&1 || run=failed
	wall=$(($(date +%s) - t0))
	# The bench's results directory: the newest, whether it got to the
	# report or not.
	res=$(ls -td "$OUT"/bench/2*/ | head -n 1)
	out=$res/logs/numa-all/results.log
	[ -f "$out" ] || out=/dev/null
	conv=$(grep '^bench-result workload=converge ' "$out" || true)
	perf=$(grep '^bench-result workload=perf-' "$out" || true)
	# Each sweep writes a task's 16 MiB, 4096 pages.
	speed=-
	[ -z "$conv" ] || speed=$(awk -v s="$(key "$conv" sweeps_per_s)" \
		-v t="$(key "$conv" tasks)" \
		'BEGIN { printf "%.1f", (t > 0 ? s / t * 4096 / 1e6 : -1) }')
	clock=$(grep -c 'clocksource.*\(unstable\|skew\)' "$res/logs/numa-all/console.log" 2>/dev/null || true)
	printf '%-6s %5d %7d %10s %12s %10s %9s %9s  %s\n' "$s" $((n * c)) "$wall" \
		"$speed" "$(key "$conv" residency)" "$(key "$conv" converge_s)" \
		"$(key "$perf" perf_converge_s)" "${clock:-0}" \
		"$run$([ "$run" = ok ] || echo " ($log)")" | tee -a "$table"
done
info "shapes: $table"
