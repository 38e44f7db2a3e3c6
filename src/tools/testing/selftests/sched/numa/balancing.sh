#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# balancing.sh [KNOB=VALUE...]
#
# NUMA balancing is built, enabled and tunable: the sysctl reads 1 (the
# kernel enables it by default on a machine with more than one node), the
# debugfs knobs of sched/numa_balancing hold the values given (numa-sched's
# guest passes the short scan periods the other tests rely on, through
# KSELFTEST_BALANCING_SH_ARGS; without arguments, each knob holds a
# number), and /proc/vmstat has its counters.
#
# In a kernel built without CONFIG_NUMA_BALANCING (a reference row of
# make matrix), the other tests skip and this one checks that nothing of
# it is there: no sysctls, ours included, no debugfs directory, no
# counters. Which kernel it is comes from /proc/config.gz.
# Seen to fail (all three cases) on the kernel without NUMA_BALANCING
# said to have it (numa-sched's make boot FAKE_CONFIG=NUMA_BALANCING=y).

. "$(dirname "$0")/ktap.sh"

dbg=/sys/kernel/debug/sched/numa_balancing

ktap_header

# The kernel's configuration, as numa_test.h's kernel_config() reads it.
if [ -r /proc/config.gz ]; then
	config="gzip -dc /proc/config.gz"
elif [ -r "/boot/config-$(uname -r)" ]; then
	config="cat /boot/config-$(uname -r)"
else
	ktap_exit_fail "no /proc/config.gz (CONFIG_IKCONFIG_PROC) nor /boot/config-$(uname -r)"
fi
balancing=$($config | sed -n 's/^CONFIG_NUMA_BALANCING=//p')

case "$balancing" in
y) ;;
*)
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
if [ $# -gt 0 ]; then
	for kv in "$@"; do
		k=${kv%%=*}
		v=$(cat "$dbg/$k" 2>/dev/null)
		[ "$v" = "${kv#*=}" ] || bad="$bad $k=${v:-missing}"
	done
	what="debugfs scan tuning in effect ($*)"
else
	for f in scan_delay_ms scan_period_min_ms scan_period_max_ms scan_size_mb; do
		v=$(cat "$dbg/$f" 2>/dev/null)
		case "$v" in
		"" | *[!0-9]*) bad="$bad $f=${v:-missing}" ;;
		esac
	done
	what="debugfs scan knobs hold numbers"
fi
[ -z "$bad" ]
ktap_result $? "$what${bad:+ wrong:$bad}"

bad=""
for c in numa_pte_updates numa_hint_faults numa_hint_faults_local numa_pages_migrated; do
	grep -q "^$c " /proc/vmstat || bad="$bad $c"
done
[ -z "$bad" ]
ktap_result $? "/proc/vmstat has the NUMA balancing counters${bad:+ missing:$bad}"

ktap_finished
