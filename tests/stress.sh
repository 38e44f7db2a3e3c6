#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress's inputs: a bad STRESS_SECS, STRESS_SEED or STRESS_FRAGS is
# refused before anything is built or booted; configs/debug.config and
# configs/fault-inject.config, merged over numa-all, give the debug and
# fault injection options the stress relies on; every bounded debugfs
# knob of numa_knob.c is among those the stress writes bad values to.

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
ktap_plan 4

r=0
for secs in abc 0 00 08 -5 10s "" 86401 99999999999999999999; do
	if STRESS_SECS=$secs "$REPO/scripts/stress.sh" >"$tmp/log" 2>&1; then r=1; fi
	grep -qF "STRESS_SECS must be a number of seconds from 1 to 86400, not '$secs'" \
		"$tmp/log" || { echo "# STRESS_SECS='$secs' not refused"; r=1; }
done
[ ! -e "$tmp/build" ] && [ ! -e "$tmp/out" ] || r=1
ktap_result $r "a bad STRESS_SECS is refused, nothing built or booted"

r=0
for seed in abc -1 01 4294967296 99999999999 1e3 " "; do
	if STRESS_SEED=$seed NAME=x "$REPO/scripts/stress.sh" >"$tmp/log" 2>&1; then r=1; fi
	grep -qF "STRESS_SEED must be a number from 0 to 4294967295, not '$seed'" \
		"$tmp/log" || { echo "# STRESS_SEED='$seed' not refused"; r=1; }
done
if STRESS_FRAGS="debug nosuch" NAME=x "$REPO/scripts/stress.sh" >"$tmp/log" 2>&1; then r=1; fi
grep -qF "STRESS_FRAGS: no configs/nosuch.config" "$tmp/log" ||
	{ echo "# STRESS_FRAGS='debug nosuch' not refused"; r=1; }
[ ! -e "$tmp/build" ] && [ ! -e "$tmp/out" ] || r=1
ktap_result $r "a bad STRESS_SEED or STRESS_FRAGS is refused, nothing built or booted"

if [ -f "$KSRC/kernel/sched/Kconfig.numa" ]; then
	r=0
	NAME=dbg CONFIG="numa-all debug fault-inject" OPTS="" "$REPO/scripts/kernel.sh" \
		--configure-only >"$tmp/log" 2>&1 || r=1
	for o in PROVE_LOCKING PROVE_RCU DEBUG_ATOMIC_SLEEP DEBUG_VM DEBUG_LIST KASAN \
		KASAN_GENERIC DEBUG_KMEMLEAK SCHED_DEBUG NUMA_GROUPS NUMA_SWAP HOTPLUG_CPU \
		FAULT_INJECTION FAILSLAB FAIL_PAGE_ALLOC FAULT_INJECTION_DEBUG_FS; do
		grep -qx "CONFIG_$o=y" "$tmp/build/dbg/.config" 2>/dev/null ||
			{ echo "# CONFIG_$o is not on"; r=1; }
	done
	ktap_result $r "numa-all plus the debug and fault-inject fragments has their options"
else
	ktap_skip "numa-all plus the debug and fault-inject fragments has their options" "no tree at KSRC"
fi


r=0
knobs=$(sed -n 's/^\t{ "\([a-z_]*\)", &.*/\1/p' "$REPO/src/kernel/sched/numa_knob.c")
[ -n "$knobs" ] || r=1
for k in $knobs; do
	grep -q "DEBUGFS_DIR \"$k\"" "$REPO/src/tools/testing/selftests/sched/numa/stress.c" || { echo "# $k is not stressed"; r=1; }
done
ktap_result $r "the stress writes bad values to every bounded knob ($(echo $knobs))"

ktap_finished
