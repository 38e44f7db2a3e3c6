#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: locality and cost of each feature, side by side with the
# upstream tree, balancing off and manual binding, in one run.
#
# BENCH_COLUMNS lists the kernels and modes, one column each:
#   NAME              a configs/ fragment's kernel (numa-all, no-swap, ...)
#   upstream          the unmodified 6.1 tree, same base config
#   COLUMN+off        with kernel.numa_balancing=0
#   COLUMN+bind       the workloads bind their threads and memory themselves
#   COLUMN+retry=MS   with debugfs migrate_retry_ms=MS (0: adaptive)
#   COLUMN+defer=N    with kernel.numa_balancing_migrate_deferred=N
#   COLUMN+NO_NUMA_X  with the option NUMA_X (CPUPID, GROUPS, SWAP, FBQ),
#                     built in, turned off at run time in sched/features:
#                     the same binary with and without it
#   COLUMN+t=N        the workloads run N threads (default: one per CPU)
# "default" (the default) is the same-binary ablation: numa-all, then
# numa-all with each option turned off at run time (NO_NUMA_CPUPID,
# NO_NUMA_GROUPS, NO_NUMA_SWAP, NO_NUMA_FBQ; defer=0 for
# NUMA_MIGRATE_DEFER), which fills the "what each option buys" table;
# "compile" is numa-all, each option off at build time, numa-none,
# upstream, numa-all+off and numa-all+bind; "all" is both with the retry
# variants; "equiv" is numa-default upstream, the Markdown table then
# saying for each metric whether the two columns' 95% intervals overlap.
# The first column is the baseline of the comparisons.
#
# BENCH lists the workloads of qemu/workloads/bench.c and perf-PxT
# ("default": trade multi pingpong and perf-NODESxCPUS_PER_NODE, the
# workloads of the claims), perf-PxT being perf bench
# numa mem's convergence test with P processes of T threads
# (qemu/workloads/perf-numa; "perf": perf-NODESxCPUS_PER_NODE and one
# thread more per process; "all": the eight of bench.c and those), each run
# BENCH_RUNS times (default 6: from 6 runs the interval of the median is
# the distribution-free one) for BENCH_SECS seconds (default 15) on
# BENCH_MB MiB (default 64), at the tree's default scan rates
# (BENCH_SCAN_TUNING), on NODES x CPUS_PER_NODE.
#
# Per column: build (kernel.sh, incremental), initramfs, boot in
# MODE=bench; the guest echoes each setting back and the run is refused
# if one did not take. Then medians with their 95% intervals, a change
# marked only where the intervals do not overlap, as text
# (the 2013 cover letter's shape), Markdown and JSON in
# OUT/bench/STAMP/, residency-over-time plots (gnuplot) there too, and
# OUT/bench/table.txt pointing at the latest.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${BUILD:?}" "${OUT:?}" "${WORK:?}"
: "${NODES:?}" "${CPUS_PER_NODE:?}" "${MEM_PER_NODE_MB:?}" "${DIST_REMOTE:?}"
BENCH_COLUMNS=${BENCH_COLUMNS:-default}
BENCH=${BENCH:-default}
BENCH_RUNS=${BENCH_RUNS:-6}
BENCH_SECS=${BENCH_SECS:-15}
BENCH_MB=${BENCH_MB:-64}
BENCH_SCAN_TUNING=${BENCH_SCAN_TUNING:-scan_delay_ms=1000 scan_period_min_ms=1000 scan_period_max_ms=60000 scan_size_mb=256}
PRISTINE=$WORK/pristine/linux

case "$BENCH_COLUMNS" in
default) BENCH_COLUMNS="numa-all numa-all+NO_NUMA_CPUPID numa-all+NO_NUMA_GROUPS
	numa-all+NO_NUMA_SWAP numa-all+NO_NUMA_FBQ numa-all+defer=0" ;;
compile) BENCH_COLUMNS="numa-all no-cpupid no-groups no-swap no-fbq no-migrate-defer numa-none upstream
	numa-all+off numa-all+bind" ;;
equiv) BENCH_COLUMNS="numa-default upstream" ;;
all) BENCH_COLUMNS="numa-all numa-all+NO_NUMA_CPUPID numa-all+NO_NUMA_GROUPS
	numa-all+NO_NUMA_SWAP numa-all+NO_NUMA_FBQ numa-all+defer=0
	no-cpupid no-groups no-swap no-fbq no-migrate-defer numa-none upstream
	numa-all+off numa-all+bind numa-all+retry=100 numa-all+retry=1000" ;;
esac
# perf's convergence tests at this machine's size: a process per node
# with a thread per CPU of a node, then one thread more than a node has.
perf_fit="perf-${NODES}x$CPUS_PER_NODE"
perf_set="$perf_fit perf-${NODES}x$((CPUS_PER_NODE + 1))"
case "$BENCH" in
default) BENCH="trade multi pingpong $perf_fit" ;;
perf) BENCH=$perf_set ;;
all) BENCH="numa01 numa01_thread_alloc numa02 numa02_smt converge multi pingpong trade $perf_set" ;;
esac
for v in BENCH_RUNS BENCH_SECS BENCH_MB; do
	case "${!v}" in
	"" | *[!0-9]* | 0) die "$v must be a positive integer, not '${!v}'" ;;
	esac
done
perf=""
for w in $BENCH; do
	case "$w" in
	perf-[1-9]x[1-9] | perf-[1-9]x[1-9][0-9] | perf-[1-9][0-9]x[1-9] | perf-[1-9][0-9]x[1-9][0-9])
		perf=y ;;
	perf-*) die "bench workload '$w': perf workloads are perf-PxT, P processes of T threads" ;;
	*) grep -q "\"$w\"" "$REPO/qemu/workloads/bench.c" ||
		die "no bench workload '$w' (see qemu/workloads/bench.c, or perf-PxT)" ;;
	esac
done

# Parse and check every column first: a typo should not cost a build.
for col in $BENCH_COLUMNS; do
	kernel=${col%%+*}
	if [ "$kernel" != upstream ] && [ ! -f "$REPO/configs/$kernel.config" ]; then
		die "bench column '$col': no kernel '$kernel' (configs/*.config or upstream)"
	fi
	rest=${col#"$kernel"}
	IFS=+ read -ra mods <<<"${rest#+}"
	for m in "${mods[@]}"; do
		case "$m" in
		# perf-PxT says its own threads and binds nothing: under bind
		# and t=N it does not run (its cells stay empty).
		off | bind | retry=[0-9]* | defer=[0-9]* | t=[1-9] | t=[1-9][0-9]) ;;
		NO_NUMA_*)
			numa_sched_features "$KSRC" | grep -qx "${m#NO_}" ||
				die "bench column '$col': ${m#NO_} has no scheduler feature (have: $(numa_sched_features "$KSRC" | tr '\n' ' '))"
			if [ "$kernel" = upstream ] || ! grep -qx "CONFIG_${m#NO_}=y" "$REPO/configs/$kernel.config"; then
				die "bench column '$col': $kernel is not built with CONFIG_${m#NO_} (its fragment does not say =y)"
			fi ;;
		*) die "bench column '$col': unknown modifier '$m' (off, bind, retry=MS, defer=N, NO_NUMA_<option>, t=N)" ;;
		esac
	done
done

stamp=$(date -u +%Y%m%d-%H%M%S)
RES=$OUT/bench/$stamp
mkdir -p "$RES/logs" "$RES/img"
info "bench: columns: $(echo $BENCH_COLUMNS); workloads: $BENCH; $BENCH_RUNS x ${BENCH_SECS}s each"

if [ -n "$perf" ]; then
	info "bench: building the tree's perf (scripts/perf.sh)"
	PERF=$("$here/perf.sh") || die "bench: perf-PxT workloads need perf bench numa"
	export PERF
fi

per_run=$((BENCH_SECS + 15))
timeout=$(( $(echo $BENCH | wc -w) * BENCH_RUNS * per_run + 300 ))
for col in $BENCH_COLUMNS; do
	kernel=${col%%+*}
	rest=${col#"$kernel"}
	IFS=+ read -ra mods <<<"${rest#+}"
	sysctl="" debugfs="" sfeat="" args="-s $BENCH_SECS -m $BENCH_MB"
	for m in "${mods[@]}"; do
		case "$m" in
		off) sysctl="$sysctl kernel.numa_balancing=0" ;;
		bind) args="$args -b" ;;
		retry=*) debugfs="$debugfs migrate_retry_ms=${m#retry=}" ;;
		defer=*) sysctl="$sysctl kernel.numa_balancing_migrate_deferred=${m#defer=}" ;;
		NO_NUMA_*) sfeat="$sfeat $m" ;;
		t=*) args="$args -t ${m#t=}" ;;
		esac
	done
	if [ "$kernel" = upstream ]; then
		pristine_tree "$KSRC" "$PRISTINE"
		ksrc=$PRISTINE bdir=$(dirname "$PRISTINE")/build bname=pristine config=""
	else
		ksrc=$KSRC bdir=$BUILD bname=$kernel config=$kernel
	fi
	logs=$RES/logs/$col
	mkdir -p "$logs"
	info "bench: $col: building $bname"
	KSRC=$ksrc BUILD=$bdir NAME=$bname CONFIG=$config OPTS="" \
		"$here/kernel.sh" >"$logs/build.log" 2>&1 || {
		tail -n 20 "$logs/build.log" >&2
		die "bench: $col: the build failed ($logs/build.log)"
	}
	img=$(IMAGE=$RES/img/$col MODE=bench KSRC=$ksrc SELFTESTS_KSRC=$KSRC KCONFIG=$bdir/$bname/.config \
		TESTS="" BENCH="$BENCH" BENCH_RUNS=$BENCH_RUNS BENCH_ARGS="$args" \
		BENCH_SYSCTL="${sysctl# }" BENCH_DEBUGFS="${debugfs# }" SCHED_FEATURES="${sfeat# }" \
		SCAN_TUNING="$BENCH_SCAN_TUNING" "$here/initramfs.sh")
	info "bench: $col: booting (at most ${timeout}s)"
	MODE=bench KSRC=$ksrc KERNEL=$bdir/$bname/arch/x86/boot/bzImage \
		KCONFIG=$bdir/$bname/.config INITRD=$img LOGDIR=$logs TIMEOUT=$timeout \
		"$here/boot.sh" >"$logs/boot.log" 2>&1 || {
		tail -n 30 "$logs/boot.log" >&2
		die "bench: $col: the guest failed ($logs)"
	}
	# The serial line ends in CR LF.
	tr -d '\r' <"$logs/output.log" >"$logs/results.log"
	grep -q '^bench-done' "$logs/results.log" || die "bench: $col: the guest did not finish its runs ($logs/output.log)"
	for kv in ${sysctl# } ${debugfs# } ${sfeat# }; do
		grep -qx "bench-setting [a-z]* $kv" "$logs/results.log" ||
			die "bench: $col: the setting $kv did not take ($logs/output.log)"
	done
done

python3 "$here/bench-report.py" "$RES" $BENCH_COLUMNS
ln -sfn "$stamp" "$OUT/bench/latest"
cp "$RES/table.txt" "$OUT/bench/table.txt"
info "bench: results in $RES (table.txt, table.md, results.json, residency-*.png)"
