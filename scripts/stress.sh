#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress: the feature slices under load on a debug kernel. Builds
# STRESS_CONFIG (default "numa-all debug": every option on, plus
# configs/debug.config's lockdep, KASAN, kmemleak, DEBUG_VM), boots it on
# NODES x CPUS_PER_NODE and runs the selftest sched/numa/stress for STRESS_SECS seconds:
# fork/exec/exit storms of grouped tasks, thread churn, swaps while tasks
# exit, CPU hotplug, memory pressure and bad knob writes, all at once
# (see the test's header for what it judges).
#
# The run fails on any failed check in the guest and on any kernel report
# in the console log (boot.sh, scripts/kernel-reports.sh). At the end it
# prints the figures: the guest's "stress-figures" lines and the number of
# kernel reports found.
#
# Environment: as make boot, plus STRESS_SECS (1 to 86400, default 600), STRESS_CONFIG.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

: "${OUT:?}" "${BUILD:?}" "${KSRC:?}"
# Set but empty (make stress STRESS_SECS=) is a bad value, not the default.
STRESS_SECS=${STRESS_SECS-600}
STRESS_CONFIG=${STRESS_CONFIG:-numa-all debug}
# Plain decimal (no sign, no leading 0: bash reads 08 as bad octal), and
# at most a day, so that the arithmetic below cannot wrap.
case "$STRESS_SECS" in
"" | *[!0-9]* | 0*) bad=1 ;;
*) [ ${#STRESS_SECS} -le 5 ] && [ "$STRESS_SECS" -le 86400 ] && bad=0 || bad=1 ;;
esac
[ "$bad" = 0 ] ||
	die "STRESS_SECS must be a number of seconds from 1 to 86400, not '$STRESS_SECS'"

name=$(echo "$STRESS_CONFIG" | tr -s ' ' '+')
export CONFIG=$STRESS_CONFIG OPTS="" NAME=$name KCONFIG=$BUILD/$name/.config
export STRESS_SECS TESTS=stress
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
grep -o 'stress-figures: .*' "$logdir/output.log" | sed 's/^stress-figures: /    /' || true
echo "    kernel reports in the console log: ${reports:-0}"
[ "$rc" = 0 ] && info "stress: passed" || echo "numa-sched: stress: FAILED (logs in $logdir)" >&2
exit "$rc"
