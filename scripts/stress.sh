#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress: the feature slices under load on a debug kernel. Builds
# the row CONFIG/OPTS names, as make kernel and the matrix do (default
# numa-all), with the fragments of STRESS_FRAGS on top (default "debug
# fault-inject": configs/debug.config's lockdep, KASAN, kmemleak,
# DEBUG_VM, and configs/fault-inject.config's failslab and
# fail_page_alloc), boots it on NODES x CPUS_PER_NODE and runs the
# selftest sched/numa/stress for STRESS_SECS seconds: fork/exec/exit
# storms of grouped tasks, thread churn, swaps while tasks exit, CPU
# hotplug, memory pressure, bad knob writes, a system call fuzzer and
# allocation failures injected in victims writing memory NUMA balancing
# moves, all at once (see
# the test's header for what it judges). STRESS_FRAGS= stresses the row's
# own kernel: the build of make kernel (or of the matrix, with its NAME).
#
# The run fails on any failed check in the guest and on any kernel report
# in the console log (boot.sh, scripts/kernel-reports.sh). At the end it
# prints the figures: the guest's "stress-figures" lines, the failures
# injected off the balancing paths that the kernel printed, and the
# number of kernel reports found. The guest prints its seed; STRESS_SEED
# replays the draws of a run.
#
# Environment: as make boot (CONFIG, OPTS, NAME, NODES, CPUS_PER_NODE),
# plus STRESS_SECS (1 to 86400, default 600), STRESS_SEED (0 to
# 4294967295, default: the guest draws one), STRESS_FRAGS.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

: "${OUT:?}" "${BUILD:?}" "${KSRC:?}"
# Set but empty (make stress STRESS_SECS=) is a bad value, not the default.
STRESS_SECS=${STRESS_SECS-600}
STRESS_FRAGS=${STRESS_FRAGS-debug fault-inject}
STRESS_SEED=${STRESS_SEED:-}
CONFIG=${CONFIG-numa-all}
OPTS=${OPTS:-}
# Plain decimal (no sign, no leading 0: bash reads 08 as bad octal), and
# at most a day, so that the arithmetic below cannot wrap.
case "$STRESS_SECS" in
"" | *[!0-9]* | 0*) bad=1 ;;
*) [ ${#STRESS_SECS} -le 5 ] && [ "$STRESS_SECS" -le 86400 ] && bad=0 || bad=1 ;;
esac
[ "$bad" = 0 ] ||
	die "STRESS_SECS must be a number of seconds from 1 to 86400, not '$STRESS_SECS'"
case "$STRESS_SEED" in
"") ;;
*[!0-9]* | 0?*) die "STRESS_SEED must be a number from 0 to 4294967295, not '$STRESS_SEED'" ;;
*) [ ${#STRESS_SEED} -le 10 ] && [ "$STRESS_SEED" -le 4294967295 ] ||
	die "STRESS_SEED must be a number from 0 to 4294967295, not '$STRESS_SEED'" ;;
esac
read -ra frags <<<"$STRESS_FRAGS"
for f in "${frags[@]}"; do
	[ -f "$here/../configs/$f.config" ] ||
		die "STRESS_FRAGS: no configs/$f.config (fragments: $(cd "$here/../configs" && ls *.config | sed 's/\.config$//' | tr '\n' ' '))"
done

: "${NAME:?}"
name=$NAME
for f in "${frags[@]}"; do
	name=$name+$f
done
config=$CONFIG
[ ${#frags[@]} = 0 ] || config="${config:+$config }${frags[*]}"
export CONFIG="$config" OPTS NAME=$name KCONFIG=$BUILD/$name/.config
export STRESS_SECS STRESS_SEED TESTS=stress
# The guest's own limit leaves time for the settling checks and two
# kmemleak scans; the host's for a debug kernel's slow boot on TCG.
export TEST_TIMEOUT=$((STRESS_SECS + 600))
TIMEOUT=$((STRESS_SECS + 1200))

"$here/kernel.sh"
img=$(MODE=test IMAGE="$OUT/initramfs-stress" "$here/initramfs.sh")
logdir=$OUT/logs/stress-$name-${NODES}x${CPUS_PER_NODE}
info "stress: $name for ${STRESS_SECS}s"
rc=0
MODE=test KERNEL=$BUILD/$name/arch/x86/boot/bzImage INITRD=$img LOGDIR=$logdir \
	TIMEOUT=$TIMEOUT "$here/boot.sh" || rc=$?

reports=$("$here/kernel-reports.sh" "$logdir/console.log" 2>/dev/null |
	sed -n 's/^numa-sched: the kernel reported \([0-9]*\) problem.*/\1/p')
echo "numa-sched: stress figures ($name, ${STRESS_SECS}s, $NODES x $CPUS_PER_NODE):"
grep -o 'seed [0-9]* (replay: STRESS_SEED=[0-9]*)' "$logdir/output.log" | sed 's/^/    /' || true
grep -o 'stress-figures: .*' "$logdir/output.log" | sed 's/^stress-figures: /    /' || true
echo "    failures injected off the balancing paths (printed by the kernel): $(grep -c 'FAULT_INJECTION: forcing a failure' "$logdir/console.log" 2>/dev/null || true)"
echo "    kernel reports in the console log: ${reports:-0}"
[ "$rc" = 0 ] && info "stress: passed" || echo "numa-sched: stress: FAILED (logs in $logdir)" >&2
exit "$rc"
