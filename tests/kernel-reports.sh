#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of scripts/kernel-reports.sh: each kind of kernel report in a
# console log is caught, and the same words inside ordinary messages are
# not.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

check=$here/../scripts/kernel-reports.sh
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

clean='[    0.000000] Linux version 6.1.192-numa-sched
[    0.412000] Spectre V2 : WARNING: Unprivileged eBPF is enabled with eIBRS on, data leaks possible via Spectre v2 BHB attacks!
[    0.500000] please report a bug: nothing to see here
[    0.600000] x86/cpu: BUG: words in the middle of a line
numa-sched: test 1/4: topology.sh
numa-sched: guest done'

# expect NAME STATUS LINE...: the log is the clean boot plus the lines.
expect()
{
	local name=$1 want=$2 rc

	shift 2
	{ echo "$clean"; printf '%s\n' "$@"; } >"$tmp/log"
	if "$check" "$tmp/log" >"$tmp/out"; then rc=0; else rc=$?; fi
	# Not a bare test: set -e would end the script before "not ok".
	if [ "$rc" = "$want" ]; then ktap_result 0 "$name"; else ktap_result 1 "$name"; fi
}

ktap_header
ktap_plan 15

# The eBPF line above starts with a subsystem prefix, not with the header.
expect "a clean boot passes" 0
expect "WARNING: with a timestamp" 1 \
	"[   12.345678] WARNING: CPU: 1 PID: 73 at kernel/sched/fair.c:2710 task_numa_fault+0x1/0x2"
expect "BUG: without a timestamp" 1 "BUG: unable to handle page fault for address: 0000000000000008"
expect "Oops" 1 "[    3.000000] Oops: 0000 [#1] PREEMPT SMP NOPTI"
expect "kernel BUG at" 1 "[    3.000000] kernel BUG at mm/migrate.c:123!"
expect "lockdep" 1 "[    3.000000] WARNING: possible circular locking dependency detected"
expect "KASAN" 1 "[    3.000000] BUG: KASAN: use-after-free in task_numa_group+0x10/0x20"
expect "RCU stall" 1 "[   30.000000] rcu: INFO: rcu_sched self-detected stall on CPU"
expect "hung task" 1 "[  150.000000] INFO: task numa:88 blocked for more than 120 seconds."
expect "general protection fault" 1 "[    3.000000] general protection fault, probably for non-canonical address"
expect "panic" 1 "[    3.000000] Kernel panic - not syncing: Fatal exception"
expect "kmemleak" 1 "[  400.000000] kmemleak: 3 new suspected memory leaks (see /sys/kernel/debug/kmemleak)"
expect "lockdep's non-static key" 1 "[    3.000000] INFO: trying to register non-static key."

{ echo "$clean"; echo "[    3.000000] BUG: KASAN: slab-out-of-bounds in numa_group_x"
  echo "[    4.000000] WARNING: CPU: 0 PID: 1 at kernel/sched/fair.c:1 y"; } >"$tmp/log"
"$check" "$tmp/log" >"$tmp/out" || true
r=0
grep -qx 'numa-sched: the kernel reported 2 problem(s):' "$tmp/out" || r=1
ktap_result $r "the count of reports comes first"

echo '^[0-9]+:\[ *[0-9.]+\] WARNING: CPU: 1 PID: 73 at drivers/harmless' >"$tmp/allow"
{ echo "$clean"; echo "[    1.000000] WARNING: CPU: 1 PID: 73 at drivers/harmless.c:1 x"; } >"$tmp/log"
r=0
ALLOW=$tmp/allow "$check" "$tmp/log" >"$tmp/out" || r=1
ktap_result $r "ALLOW lists a known harmless report"

ktap_finished
