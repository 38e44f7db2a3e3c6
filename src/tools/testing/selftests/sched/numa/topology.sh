#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# topology.sh [NODES CPUS_PER_NODE MEM_PER_NODE_MB DIST_REMOTE]
#
# The machine is what NUMA balancing needs, and what its description says:
# nodes online, CPUs and memory on each, and a SLIT with 10 on the
# diagonal and a larger distance elsewhere. Without a distance table the
# kernel builds no NUMA sched domain and nothing that places tasks by node
# would ever run, so this test guards all the others.
#
# With arguments (numa-sched's guest passes its QEMU machine through
# KSELFTEST_TOPOLOGY_SH_ARGS), each figure must be the one given: exactly
# NODES nodes, CPUS_PER_NODE CPUs on each, within 20% under
# MEM_PER_NODE_MB MiB on each, DIST_REMOTE between any two. Seen to fail
# (cases 1, 2 and 4; 3 too once it was mended) on 4x1 booted with
# numa=off: one node of 4 CPUs and 2 GiB, no distance table.

. "$(dirname "$0")/ktap.sh"

sys=/sys/devices/system/node

case $# in
0) ;;
4)	for v in "$@"; do
		case "$v" in
		"" | *[!0-9]*) echo "topology.sh: not a number: '$v'" >&2; exit 1 ;;
		esac
	done ;;
*)	echo "usage: topology.sh [NODES CPUS_PER_NODE MEM_PER_NODE_MB DIST_REMOTE]" >&2
	exit 1 ;;
esac
NODES=${1:-}
CPUS_PER_NODE=${2:-}
MEM_PER_NODE_MB=${3:-}
DIST_REMOTE=${4:-}

ktap_header
online=$(cat $sys/online)
nodes=$(echo "$online" | tr ',' '\n' |
	awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n + 0 }')
[ -n "$NODES" ] || [ "$nodes" -ge 2 ] || ktap_exit_skip "one node online ($online)"
[ -n "$NODES" ] || NODES=$nodes
ktap_plan 4

want="0-$((NODES - 1))"
[ "$NODES" = 1 ] && want=0
[ "$online" = "$want" ]
ktap_result $? "nodes online: $online (want $want)"

# CPUs per node: count the CPUs in each cpulist.
bad=""
for n in $(seq 0 $((NODES - 1))); do
	cpus=$(tr ',' '\n' <$sys/node$n/cpulist 2>/dev/null |
		awk -F- '$1 != "" { n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n + 0 }')
	if [ -n "$CPUS_PER_NODE" ]; then
		[ "$cpus" = "$CPUS_PER_NODE" ] || bad="$bad node$n:$cpus"
	else
		[ "$cpus" -ge 1 ] || bad="$bad node$n:$cpus"
	fi
done
[ -z "$bad" ]
ktap_result $? "${CPUS_PER_NODE:-some} CPUs on each node${bad:+ (wrong:$bad)}"

# Memory per node: the firmware and kernel keep some, so allow 20% less.
bad=""
for n in $(seq 0 $((NODES - 1))); do
	kb=$(awk '/MemTotal:/ { print $4 }' $sys/node$n/meminfo 2>/dev/null)
	if [ -n "$MEM_PER_NODE_MB" ]; then
		[ "${kb:-0}" -gt $((MEM_PER_NODE_MB * 1024 * 8 / 10)) ] &&
			[ "$kb" -le $((MEM_PER_NODE_MB * 1024)) ] || bad="$bad node$n:${kb}kB"
	else
		[ "${kb:-0}" -gt 0 ] || bad="$bad node$n:${kb}kB"
	fi
done
what="${MEM_PER_NODE_MB:+about $MEM_PER_NODE_MB MiB of }memory on each node"
[ -z "$bad" ]
ktap_result $? "$what${bad:+ (wrong:$bad)}"

# Distances: 10 on the diagonal, DIST_REMOTE (or more than 10) elsewhere.
bad=""
for n in $(seq 0 $((NODES - 1))); do
	have=$(cat $sys/node$n/distance 2>/dev/null)
	m=0
	for d in $have; do
		if [ $n = $m ]; then
			[ "$d" = 10 ] || bad="$bad node$n:[$have]"
		elif [ -n "$DIST_REMOTE" ]; then
			[ "$d" = "$DIST_REMOTE" ] || bad="$bad node$n:[$have]"
		else
			[ "$d" -gt 10 ] || bad="$bad node$n:[$have]"
		fi
		m=$((m + 1))
	done
	[ "$m" = "$NODES" ] || bad="$bad node$n:[$have]"
done
bad=$(for b in $bad; do echo "$b"; done | sort -u | xargs)
[ -z "$bad" ]
ktap_result $? "SLIT distances 10 local, ${DIST_REMOTE:-more than 10} remote${bad:+ (wrong:$bad)}"

ktap_finished
