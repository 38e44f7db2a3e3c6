#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress's inputs: a bad STRESS_SECS is refused before anything is
# built or booted; configs/debug.config, merged over numa-all, gives the
# debug options the stress relies on; every bounded debugfs knob of
# numa_knob.c is among those the stress writes bad values to.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"
REPO=$(realpath "$here/..")
WORK=${WORK:-/var/tmp/numa-sched}
KSRC=${KSRC:-$WORK/linux}
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export KSRC OUT=$tmp/out BUILD=$tmp/build NODES=4 CPUS_PER_NODE=1

ktap_header
ktap_plan 3

r=0
for secs in abc 0 00 08 -5 10s "" 86401 99999999999999999999; do
	if STRESS_SECS=$secs "$REPO/scripts/stress.sh" >"$tmp/log" 2>&1; then r=1; fi
	grep -qF "STRESS_SECS must be a number of seconds from 1 to 86400, not '$secs'" \
		"$tmp/log" || { echo "# STRESS_SECS='$secs' not refused"; r=1; }
done
[ ! -e "$tmp/build" ] && [ ! -e "$tmp/out" ] || r=1
ktap_result $r "a bad STRESS_SECS is refused, nothing built or booted"

if [ -f "$KSRC/kernel/sched/Kconfig.numa" ]; then
	r=0
	NAME=dbg CONFIG="numa-all debug" OPTS="" "$REPO/scripts/kernel.sh" --configure-only \
		>"$tmp/log" 2>&1 || r=1
	for o in PROVE_LOCKING PROVE_RCU DEBUG_ATOMIC_SLEEP DEBUG_VM DEBUG_LIST KASAN \
		KASAN_GENERIC DEBUG_KMEMLEAK SCHED_DEBUG NUMA_GROUPS NUMA_SWAP HOTPLUG_CPU; do
		grep -qx "CONFIG_$o=y" "$tmp/build/dbg/.config" 2>/dev/null ||
			{ echo "# CONFIG_$o is not on"; r=1; }
	done
	ktap_result $r "numa-all plus configs/debug.config has the debug options"
else
	ktap_skip "numa-all plus configs/debug.config has the debug options" "no tree at KSRC"
fi

r=0
knobs=$(sed -n 's/^\t{ "\([a-z_]*\)", &.*/\1/p' "$REPO/src/kernel/sched/numa_knob.c")
[ -n "$knobs" ] || r=1
for k in $knobs; do
	grep -q "DEBUGFS_DIR \"$k\"" "$REPO/src/tools/testing/selftests/sched/numa/stress.c" || { echo "# $k is not stressed"; r=1; }
done
ktap_result $r "the stress writes bad values to every bounded knob ($(echo $knobs))"

ktap_finished
