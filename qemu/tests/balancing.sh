#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# NUMA balancing is built, enabled and tunable: the sysctl reads 1 (the
# kernel enables it by default on a machine with more than one node), the
# debugfs knobs hold the values the guest init wrote (the other tests rely
# on the short scan periods), and /proc/vmstat has its counters.
#
# In a kernel built without CONFIG_NUMA_BALANCING (a reference row of
# make matrix), the other tests skip and this one checks that nothing of
# it is there: no sysctls, ours included, no debugfs directory, no
# counters.

. /lib/numa-sched/ktap.sh
. /etc/numa-sched.conf

dbg=/sys/kernel/debug/sched/numa_balancing

ktap_header

case " $FEATURES " in
*" NUMA_BALANCING=n "*)
	ktap_plan 1
	bad=""
	for f in /proc/sys/kernel/numa_balancing \
		/proc/sys/kernel/numa_balancing_migrate_deferred $dbg; do
		[ ! -e "$f" ] || bad="$bad $f"
	done
	for c in numa_pte_updates numa_hint_faults numa_pages_migrated \
		numa_migrate_deferred numa_task_swapped; do
		! grep -q "^$c " /proc/vmstat || bad="$bad $c"
	done
	[ -z "$bad" ]
	ktap_result $? "without NUMA_BALANCING: no sysctl, debugfs or vmstat of it${bad:+ present:$bad}"
	ktap_finished
	;;
esac

ktap_plan 3

v=$(cat /proc/sys/kernel/numa_balancing 2>/dev/null)
[ "$v" = 1 ]
ktap_result $? "kernel.numa_balancing is 1 (read: ${v:-missing})"

bad=""
for kv in $SCAN_TUNING; do
	k=${kv%%=*}
	v=$(cat $dbg/$k 2>/dev/null)
	[ "$v" = "${kv#*=}" ] || bad="$bad $k=${v:-missing}"
done
[ -z "$bad" ]
ktap_result $? "debugfs scan tuning in effect ($SCAN_TUNING)${bad:+ wrong:$bad}"

bad=""
for c in numa_pte_updates numa_hint_faults numa_hint_faults_local numa_pages_migrated; do
	grep -q "^$c " /proc/vmstat || bad="$bad $c"
done
[ -z "$bad" ]
ktap_result $? "/proc/vmstat has the NUMA balancing counters${bad:+ missing:$bad}"

ktap_finished
