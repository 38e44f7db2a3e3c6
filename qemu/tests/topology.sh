#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest sees the machine the host runner described: the number of
# nodes, CPUs and memory per node, and the SLIT distances. Without a
# distance table the kernel builds no NUMA sched domain and nothing that
# places tasks by node would ever run, so this test guards all the others.

. /lib/numa-sched/ktap.sh
. /etc/numa-sched.conf

sys=/sys/devices/system/node

ktap_header
ktap_plan 4

want="0-$((NODES - 1))"
[ "$NODES" = 1 ] && want=0
online=$(cat $sys/online)
[ "$online" = "$want" ]
ktap_result $? "nodes online: $online (want $want)"

# CPUs per node: count the CPUs in each cpulist.
bad=""
for n in $(seq 0 $((NODES - 1))); do
	cpus=$(tr ',' '\n' <$sys/node$n/cpulist |
		awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n + 0 }')
	[ "$cpus" = "$CPUS_PER_NODE" ] || bad="$bad node$n:$cpus"
done
[ -z "$bad" ]
ktap_result $? "$CPUS_PER_NODE CPUs on each node${bad:+ (wrong:$bad)}"

# Memory per node: the firmware and kernel keep some, so allow 20% less.
bad=""
for n in $(seq 0 $((NODES - 1))); do
	kb=$(awk '/MemTotal:/ { print $4 }' $sys/node$n/meminfo)
	[ "$kb" -gt $((MEM_PER_NODE_MB * 1024 * 8 / 10)) ] &&
		[ "$kb" -le $((MEM_PER_NODE_MB * 1024)) ] || bad="$bad node$n:${kb}kB"
done
[ -z "$bad" ]
ktap_result $? "about $MEM_PER_NODE_MB MiB on each node${bad:+ (wrong:$bad)}"

# Distances: 10 on the diagonal, DIST_REMOTE elsewhere.
bad=""
for n in $(seq 0 $((NODES - 1))); do
	want=""
	for m in $(seq 0 $((NODES - 1))); do
		if [ $n = $m ]; then want="$want 10"; else want="$want $DIST_REMOTE"; fi
	done
	have=$(cat $sys/node$n/distance)
	[ "$have" = "${want# }" ] || bad="$bad node$n:[$have]"
done
[ -z "$bad" ]
ktap_result $? "SLIT distances 10 local, $DIST_REMOTE remote${bad:+ (wrong:$bad)}"

ktap_finished
