#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: locality and cost of each feature, side by side with the
# upstream tree, balancing off and manual binding; and, with
# BENCH_COLUMNS=claims, a verdict on each seed claim of configs/claims.tsv.
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
# "claims" (the default) takes the columns, workloads, run lengths and
# scan knobs from configs/claims.tsv (BENCH_CLAIMS: which of its claims,
# default all) and ends in one verdict per claim; "default" is numa-all
# and numa-all with each option turned off at run time; "compile" is
# numa-all, each option off at build time, numa-none, upstream,
# numa-all+off and numa-all+bind; "all" is both with the retry variants;
# "equiv" is numa-default upstream. The first column is the baseline of
# the table's comparisons.
#
# BENCH lists the workloads of qemu/workloads/bench.c and perf-PxT
# (outside claims mode; "default": trade multi pingpong and
# perf-NODESxCPUS_PER_NODE), perf-PxT being perf bench numa mem's
# convergence test with P processes of T threads
# (qemu/workloads/perf-numa; "perf": perf-NODESxCPUS_PER_NODE and one
# thread more per process; "all": those of bench.c and those), each run
# BENCH_RUNS times (default 12) for BENCH_SECS seconds (default 15) on
# BENCH_MB MiB (default 64), at the tree's default scan rates
# (BENCH_SCAN_TUNING), on NODES x CPUS_PER_NODE.
#
# Runs are interleaved: the columns of one kernel take turns within one
# boot (A B, then B A: the order alternates from run to run), and the
# kernels take turns by boots, BENCH_ROUNDS boots each (default 1 for
# one kernel, 2 for more), the runs shared out among them. Run R of
# every column has the seed BENCH_SEED + R (default BENCH_SEED: the
# date's day number), the start jitter of bench.c -S: the pair of runs a
# claim compares starts alike, and any run can be replayed.
#
# BENCH_RESUME=DIR finishes a bench that stopped, in its results
# directory DIR: with the same settings (and BENCH_SEED), the boots whose
# plan is unchanged and whose runs all ended are kept, the others run.
#
# Sequential: with BENCH_MAX_RUNS above BENCH_RUNS, the bench goes on by
# rounds of the same size while a claim is undecided (no difference
# measured, not measurable, not shown equivalent), up to BENCH_MAX_RUNS.
# Its p-values are then nominal: looking more than once spends more
# than the 5%, so say so where they are quoted.
#
# Every kernel gets configs/bench.config (trace events, SCHEDSTATS), so
# that the mechanism counters are there. Per kernel: build (kernel.sh,
# incremental), then per boot an initramfs whose /etc/bench.plan lists
# its runs (qemu/init); a setting that does not take is a "bench-error"
# from the guest and fails the bench. Then scripts/bench-report.py:
# table.txt, table.md, results.json, claims.md (the verdicts) and plots
# in OUT/bench/STAMP/, OUT/bench/latest pointing at it.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${BUILD:?}" "${OUT:?}" "${WORK:?}"
: "${NODES:?}" "${CPUS_PER_NODE:?}" "${MEM_PER_NODE_MB:?}" "${DIST_REMOTE:?}"
BENCH_COLUMNS=${BENCH_COLUMNS:-claims}
BENCH=${BENCH:-default}
BENCH_RUNS=${BENCH_RUNS:-12}
BENCH_CLAIMS=${BENCH_CLAIMS:-}
BENCH_SEED=${BENCH_SEED:-$(( $(date +%s) / 86400 ))}
BENCH_MAX_RUNS=${BENCH_MAX_RUNS:-$BENCH_RUNS}
CLAIMS=$REPO/configs/claims.tsv
BENCH_SECS=${BENCH_SECS:-15}
BENCH_MB=${BENCH_MB:-64}
BENCH_SCAN_TUNING=${BENCH_SCAN_TUNING:-scan_delay_ms=1000 scan_period_min_ms=1000 scan_period_max_ms=60000 scan_size_mb=256}
PRISTINE=$WORK/pristine/linux

# cells: "COLUMN|WORKLOAD|SECS|SCAN" (SCAN: comma-separated knobs, -).
cells=""
if [ "$BENCH_COLUMNS" = claims ]; then
	known=$(awk -F'\t' '!/^#/ && $1 != "claim" { print $1 }' "$CLAIMS")
	for c in $BENCH_CLAIMS; do
		echo "$known" | grep -qxF "$c" || die "BENCH_CLAIMS: no claim '$c' in configs/claims.tsv (have: $(echo $known))"
	done
	cells=$(awk -F'\t' -v want=" $BENCH_CLAIMS " '
		!/^#/ && $1 != "claim" && (want == "  " || index(want, " " $1 " ")) {
			print $2 "|" $4 "|" $5 "|" $6; print $3 "|" $4 "|" $5 "|" $6 }' "$CLAIMS" | awk '!seen[$0]++')
	BENCH_COLUMNS=$(echo "$cells" | cut -d'|' -f1 | awk '!seen[$0]++')
	BENCH=$(echo "$cells" | cut -d'|' -f2 | awk '!seen[$0]++')
fi
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

[ "$BENCH_MAX_RUNS" -ge "$BENCH_RUNS" ] 2>/dev/null ||
	die "BENCH_MAX_RUNS must be a number not below BENCH_RUNS ($BENCH_RUNS), not '$BENCH_MAX_RUNS'"
for v in BENCH_SEED ${BENCH_ROUNDS:+BENCH_ROUNDS}; do
	case "${!v}" in
	"" | *[!0-9]*) die "$v must be a number, not '${!v}'" ;;
	esac
done
BENCH_SEED=$((10#$BENCH_SEED))
# Claims are judged in claims mode only: a hand-named set's runs need not
# have a claim's length and scan knobs.
claims_arg=()
if [ -z "$cells" ]; then
	for col in $BENCH_COLUMNS; do
		for w in $BENCH; do
			# perf-PxT says its own threads and binds nothing: not
			# run under bind or t=N (its cells stay empty).
			case "$w+$col+" in
			perf-*+bind+* | perf-*+t=*) continue ;;
			esac
			cells="$cells$col|$w|$BENCH_SECS|-
"
		done
	done
else
	claims_arg=(--claims "$CLAIMS")
fi
kernels=$(for col in $BENCH_COLUMNS; do echo "${col%%+*}"; done | awk '!seen[$0]++')
nk=$(echo "$kernels" | wc -l)
BENCH_ROUNDS=${BENCH_ROUNDS:-$([ "$nk" = 1 ] && echo 1 || echo 2)}
[ "$BENCH_ROUNDS" -ge 1 ] && [ "$BENCH_ROUNDS" -le "$BENCH_RUNS" ] ||
	die "BENCH_ROUNDS must be 1 to BENCH_RUNS ($BENCH_RUNS), not '$BENCH_ROUNDS'"

stamp=$(date -u +%Y%m%d-%H%M%S)
RES=$OUT/bench/$stamp
if [ -n "${BENCH_RESUME:-}" ]; then
	[ -d "$BENCH_RESUME/logs" ] || die "BENCH_RESUME=$BENCH_RESUME: not a bench's results directory"
	RES=$(abspath "$BENCH_RESUME") stamp=$(basename "$RES")
fi
mkdir -p "$RES/logs"
info "bench: columns: $(echo $BENCH_COLUMNS); workloads: $(echo $BENCH); $BENCH_RUNS runs each in $BENCH_ROUNDS round(s); seed $BENCH_SEED"

if [ -n "$perf" ]; then
	info "bench: building the tree's perf (scripts/perf.sh)"
	PERF=$("$here/perf.sh") || die "bench: perf-PxT workloads need perf bench numa"
	export PERF
fi

# plan_line CELL RUN: the guest's line for run RUN of CELL (qemu/init).
plan_line()
{
	local col w secs scan kernel rest m kv sysctl="" debugfs="" feats="" args

	IFS='|' read -r col w secs scan <<<"$1"
	args="-s $secs -m $BENCH_MB"
	kernel=${col%%+*}
	rest=${col#"$kernel"}
	IFS=+ read -ra mods <<<"${rest#+}"
	for m in "${mods[@]}"; do
		case "$m" in
		off) sysctl="$sysctl kernel.numa_balancing=0" ;;
		bind) args="$args -b" ;;
		retry=*) debugfs="$debugfs migrate_retry_ms=${m#retry=}" ;;
		defer=*) sysctl="$sysctl kernel.numa_balancing_migrate_deferred=${m#defer=}" ;;
		NO_NUMA_*) feats="$feats $m" ;;
		t=*) args="$args -t ${m#t=}" ;;
		esac
	done
	# The tree's scan knobs, then the cell's own.
	for kv in $BENCH_SCAN_TUNING $(echo "${scan#-}" | tr , ' '); do
		debugfs="$(echo " $debugfs" | tr ' ' '\n' | grep -v "^${kv%%=*}=" | tr '\n' ' ') $kv"
	done
	echo "$col|$w|$2|$((BENCH_SEED + $2))|$(echo $feats)|$(echo $sysctl)|$(echo $debugfs)|$args"
}

# Build every kernel first: a failed build should not cost a bench.
declare -A ksrc_of bdir_of bname_of
for kernel in $kernels; do
	if [ "$kernel" = upstream ]; then
		pristine_tree "$KSRC" "$PRISTINE"
		ksrc=$PRISTINE bdir=$(dirname "$PRISTINE")/build
	else
		ksrc=$KSRC bdir=$BUILD
	fi
	bname=bench-$kernel config="bench"
	[ "$kernel" = upstream ] || config="$kernel bench"
	ksrc_of[$kernel]=$ksrc bdir_of[$kernel]=$bdir bname_of[$kernel]=$bname
	mkdir -p "$RES/logs/$kernel"
	info "bench: building $kernel ($bname)"
	KSRC=$ksrc BUILD=$bdir NAME=$bname CONFIG=$config OPTS="" \
		"$here/kernel.sh" >"$RES/logs/$kernel/build.log" 2>&1 || {
		tail -n 20 "$RES/logs/$kernel/build.log" >&2
		die "bench: $kernel: the build failed ($RES/logs/$kernel/build.log)"
	}
done

: >"$RES/bench.log"
per_round=$(( (BENCH_RUNS + BENCH_ROUNDS - 1) / BENCH_ROUNDS ))
next=1 round=0
while [ "$next" -le "$BENCH_MAX_RUNS" ]; do
	if [ "$next" -gt "$BENCH_RUNS" ]; then
		undecided=$(python3 "$here/bench-report.py" --undecided "${claims_arg[@]}" "$RES" $BENCH_COLUMNS) ||
			die "bench: bench-report.py --undecided failed"
		[ "$undecided" != 0 ] || break
		info "bench: $undecided claim(s) undecided after $((next - 1)) runs: $per_round more"
	fi
	round=$((round + 1))
	order=$kernels
	[ $((round % 2)) = 1 ] || order=$(echo "$kernels" | tac)
	first=$next
	last=$(( next + per_round - 1 ))
	limit=$BENCH_RUNS
	[ "$next" -le "$BENCH_RUNS" ] || limit=$BENCH_MAX_RUNS
	[ "$last" -le "$limit" ] || last=$limit
	next=$((last + 1))
	for kernel in $order; do
		mine=$(echo "$cells" | awk -F'|' -v k="$kernel" 'NF && ($1 == k || index($1, k "+") == 1)')
		[ -n "$mine" ] || continue
		plan=$RES/logs/$kernel/plan-$round
		: >"$plan.new"
		secs=0
		for r in $(seq "$first" "$last"); do
			list=$mine
			[ $((r % 2)) = 1 ] || list=$(echo "$mine" | tac)
			while read -r cell; do
				plan_line "$cell" "$r" >>"$plan.new"
				secs=$(( secs + $(echo "$cell" | cut -d'|' -f3) + 20 ))
			done <<<"$list"
		done
		logs=$RES/logs/$kernel/round-$round
		mkdir -p "$logs"
		# Resuming: a boot with this plan that finished is not run again.
		if cmp -s "$plan.new" "$plan" && grep -q '^bench-done' "$logs/results.log" 2>/dev/null &&
		   [ "$(grep -c '^bench-result' "$logs/results.log")" = "$(wc -l <"$plan")" ]; then
			rm "$plan.new"
			info "bench: round $round, runs $first-$last, $kernel: done before, kept ($logs)"
			cat "$logs/results.log" >>"$RES/bench.log"
			continue
		fi
		mv "$plan.new" "$plan"
		ksrc=${ksrc_of[$kernel]} bdir=${bdir_of[$kernel]} bname=${bname_of[$kernel]}
		# SELFTESTS_KSRC first: a prefix assignment sees the ones before it.
		img=$(SELFTESTS_KSRC=$KSRC IMAGE=$RES/img-$kernel-$round MODE=bench KSRC=$ksrc \
			KCONFIG=$bdir/$bname/.config TESTS="" BENCH_PLAN=$plan \
			SCAN_TUNING="$BENCH_SCAN_TUNING" "$here/initramfs.sh")
		timeout=$((secs + 300))
		info "bench: round $round, runs $first-$last, $kernel: $(wc -l <"$plan") runs (at most ${timeout}s)"
		MODE=bench KSRC=$ksrc KERNEL=$bdir/$bname/arch/x86/boot/bzImage \
			KCONFIG=$bdir/$bname/.config INITRD=$img LOGDIR=$logs TIMEOUT=$timeout \
			"$here/boot.sh" >"$logs/boot.log" 2>&1 || {
			tail -n 30 "$logs/boot.log" >&2
			die "bench: $kernel: the guest failed ($logs)"
		}
		rm -f "$img"
		# The serial line ends in CR LF.
		tr -d '\r' <"$logs/output.log" >"$logs/results.log"
		! grep '^bench-error' "$logs/results.log" >&2 ||
			die "bench: $kernel: a setting did not take ($logs/output.log)"
		grep -q '^bench-done' "$logs/results.log" ||
			die "bench: $kernel: the guest did not finish its runs ($logs/output.log)"
		[ "$(grep -c '^bench-result' "$logs/results.log")" = "$(wc -l <"$plan")" ] ||
			die "bench: $kernel: $(wc -l <"$plan") runs planned, $(grep -c '^bench-result' "$logs/results.log") results ($logs/output.log)"
		cat "$logs/results.log" >>"$RES/bench.log"
	done
done

python3 "$here/bench-report.py" "${claims_arg[@]}" "$RES" $BENCH_COLUMNS
ln -sfn "$stamp" "$OUT/bench/latest"
cp "$RES/table.txt" "$OUT/bench/table.txt"
info "bench: results in $RES (table.txt, table.md, claims.md, results.json, plots)"
