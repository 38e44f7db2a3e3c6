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
# Without arguments, what NUMA balancing needs of any machine: two nodes
# or more with CPUs, two or more with memory (a node may have only one
# of the two), and a distance table of 10 to itself and more to any
# other node. With arguments (numa-sched's guest passes its QEMU machine
# through KSELFTEST_TOPOLOGY_SH_ARGS), each figure must be the one
# given: exactly nodes 0 to NODES-1, CPUS_PER_NODE CPUs on each, within
# 20% under MEM_PER_NODE_MB MiB on each, DIST_REMOTE between any two. Seen to fail
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
# The online node ids, one a word: "0-1,4" is "0 1 4".
ids=$(echo "$online" | tr ',' '\n' |
	awk -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) printf "%d ", i }')
nodes=$(echo $ids | wc -w)
[ -n "$NODES" ] || [ "$nodes" -ge 2 ] || ktap_exit_skip "one node online ($online)"
if [ -n "$NODES" ]; then
	ktap_plan 4
	want="0-$((NODES - 1))"
	[ "$NODES" = 1 ] && want=0
	[ "$online" = "$want" ]
	ktap_result $? "nodes online: $online (want $want)"
else
	ktap_plan 3
	ktap_print_msg "nodes online: $online"
fi

# count_list LIST: the number of entries of a cpulist ("0-3,8" is 5).
count_list()
{
	echo "$1" | tr ',' '\n' |
		awk -F- '$1 != "" { n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n + 0 }'
}

# CPUs per node: as given on every node, or at least two nodes with some.
bad=""
with=0
for n in $ids; do
	cpus=$(count_list "$(cat $sys/node$n/cpulist 2>/dev/null)")
	[ "$cpus" = 0 ] || with=$((with + 1))
	[ -z "$CPUS_PER_NODE" ] || [ "$cpus" = "$CPUS_PER_NODE" ] || bad="$bad node$n:$cpus"
done
[ -n "$CPUS_PER_NODE" ] || [ "$with" -ge 2 ] || bad="only $with node(s) with CPUs"
what="CPUs on two nodes or more"
[ -z "$CPUS_PER_NODE" ] || what="$CPUS_PER_NODE CPUs on each node"
[ -z "$bad" ]
ktap_result $? "$what${bad:+ (wrong:$bad)}"

# Memory per node: the firmware and kernel keep some, so allow 20% less.
bad=""
with=0
for n in $ids; do
	kb=$(awk '/MemTotal:/ { print $4 }' $sys/node$n/meminfo 2>/dev/null)
	kb=${kb:-0}
	[ "$kb" = 0 ] || with=$((with + 1))
	[ -z "$MEM_PER_NODE_MB" ] ||
		{ [ "$kb" -gt $((MEM_PER_NODE_MB * 1024 * 8 / 10)) ] &&
		  [ "$kb" -le $((MEM_PER_NODE_MB * 1024)) ]; } || bad="$bad node$n:${kb}kB"
done
[ -n "$MEM_PER_NODE_MB" ] || [ "$with" -ge 2 ] || bad="only $with node(s) with memory"
what="${MEM_PER_NODE_MB:+about $MEM_PER_NODE_MB MiB of memory on each node}"
[ -z "$bad" ]
ktap_result $? "${what:-memory on two nodes or more}${bad:+ (wrong:$bad)}"

# Distances: 10 to itself, DIST_REMOTE (or more than 10) to any other.
bad=""
for n in $ids; do
	have=$(cat $sys/node$n/distance 2>/dev/null)
	ok=1
	set -- $have
	[ $# = "$nodes" ] || ok=0
	for m in $ids; do
		d=${1:-0}
		[ $# = 0 ] || shift
		if [ "$n" = "$m" ]; then
			[ "$d" = 10 ] || ok=0
		elif [ -n "$DIST_REMOTE" ]; then
			[ "$d" = "$DIST_REMOTE" ] || ok=0
		else
			[ "$d" -gt 10 ] || ok=0
		fi
	done
	[ $ok = 1 ] || { bad="$bad node$n"; ktap_print_msg "node$n distances: $have"; }
done
[ -z "$bad" ]
ktap_result $? "SLIT distances 10 local, ${DIST_REMOTE:-more than 10} remote${bad:+ (wrong:$bad)}"

ktap_finished
