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
# "default" (the default) is numa-all numa-none upstream numa-all+off
# numa-all+bind; "all" adds each option off alone and the retry and defer
# variants; "equiv" is numa-default upstream, the Markdown table then
# saying for each metric whether the two columns' ranges overlap. The
# first column is the baseline of the percentages.
#
# BENCH lists the workloads of qemu/workloads/bench.c ("default": numa01
# numa02 multi converge pingpong; "all": the seven), each run BENCH_RUNS
# times (default 3) for BENCH_SECS seconds (default 15) on BENCH_MB MiB
# (default 64), at the tree's default scan rates (BENCH_SCAN_TUNING).
#
# Per column: build (kernel.sh, incremental), initramfs, boot in
# MODE=bench; the guest echoes each setting back and the run is refused
# if one did not take. Then medians with min and max per metric, as text
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
BENCH_RUNS=${BENCH_RUNS:-3}
BENCH_SECS=${BENCH_SECS:-15}
BENCH_MB=${BENCH_MB:-64}
BENCH_SCAN_TUNING=${BENCH_SCAN_TUNING:-scan_delay_ms=1000 scan_period_min_ms=1000 scan_period_max_ms=60000 scan_size_mb=256}
PRISTINE=$WORK/pristine/linux

case "$BENCH_COLUMNS" in
default) BENCH_COLUMNS="numa-all numa-none upstream numa-all+off numa-all+bind" ;;
equiv) BENCH_COLUMNS="numa-default upstream" ;;
all) BENCH_COLUMNS="numa-all no-cpupid no-groups no-swap no-fbq no-migrate-defer numa-none upstream
	numa-all+off numa-all+bind numa-all+retry=100 numa-all+retry=1000 numa-all+defer=0" ;;
esac
case "$BENCH" in
default) BENCH="numa01 numa02 multi converge pingpong" ;;
all) BENCH="numa01 numa01_thread_alloc numa02 numa02_smt converge multi pingpong trade" ;;
esac
for v in BENCH_RUNS BENCH_SECS BENCH_MB; do
	case "${!v}" in
	"" | *[!0-9]* | 0) die "$v must be a positive integer, not '${!v}'" ;;
	esac
done
for w in $BENCH; do
	grep -q "\"$w\"" "$REPO/qemu/workloads/bench.c" ||
		die "no bench workload '$w' (see qemu/workloads/bench.c)"
done

stamp=$(date -u +%Y%m%d-%H%M%S)
RES=$OUT/bench/$stamp
mkdir -p "$RES/logs" "$RES/img"
info "bench: columns: $(echo $BENCH_COLUMNS); workloads: $BENCH; $BENCH_RUNS x ${BENCH_SECS}s each"

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
		off | bind | retry=[0-9]* | defer=[0-9]*) ;;
		*) die "bench column '$col': unknown modifier '$m' (off, bind, retry=MS, defer=N)" ;;
		esac
	done
done

per_run=$((BENCH_SECS + 15))
timeout=$(( $(echo $BENCH | wc -w) * BENCH_RUNS * per_run + 300 ))
for col in $BENCH_COLUMNS; do
	kernel=${col%%+*}
	rest=${col#"$kernel"}
	IFS=+ read -ra mods <<<"${rest#+}"
	sysctl="" debugfs="" args="-s $BENCH_SECS -m $BENCH_MB"
	for m in "${mods[@]}"; do
		case "$m" in
		off) sysctl="$sysctl kernel.numa_balancing=0" ;;
		bind) args="$args -b" ;;
		retry=*) debugfs="$debugfs migrate_retry_ms=${m#retry=}" ;;
		defer=*) sysctl="$sysctl kernel.numa_balancing_migrate_deferred=${m#defer=}" ;;
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
	img=$(IMAGE=$RES/img/$col MODE=bench KSRC=$ksrc KCONFIG=$bdir/$bname/.config \
		TESTS="" BENCH="$BENCH" BENCH_RUNS=$BENCH_RUNS BENCH_ARGS="$args" \
		BENCH_SYSCTL="${sysctl# }" BENCH_DEBUGFS="${debugfs# }" \
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
	for kv in ${sysctl# } ${debugfs# }; do
		grep -qx "bench-setting [a-z]* $kv" "$logs/results.log" ||
			die "bench: $col: the setting $kv did not take ($logs/output.log)"
	done
done

python3 "$here/bench-report.py" "$RES" $BENCH_COLUMNS
ln -sfn "$stamp" "$OUT/bench/latest"
cp "$RES/table.txt" "$OUT/bench/table.txt"
info "bench: results in $RES (table.txt, table.md, results.json, residency-*.png)"
