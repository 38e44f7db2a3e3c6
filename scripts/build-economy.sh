#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The build economy of the feature options, read off a finished build: for
# each option of Kconfig.numa, the objects whose compilation depends on it.
# fixdep records, in each object's .cmd file, the CONFIG symbols that the
# preprocessor saw in the source and every header it included
# ("$(wildcard include/config/NUMA_GROUPS)"); kbuild recompiles exactly
# those objects when the symbol changes, and ccache sees their text change.
# An option that gates a header nearly every file includes (a field of
# task_struct, an item of vm_event_item) shows up in hundreds of objects,
# and then every option set is a whole new kernel to compile.
#
# KTAP, one case per option: at most ECONOMY_MAX objects (default 10).
# NUMA_CPUPID is the one exception, reported but not judged: the width of
# the page record in page->flags is its feature, and mm.h shows it to
# everyone.
#
#   build-economy.sh O [SYMBOL...]     (default: the options of Kconfig.numa)
#
# Planted (README): run for NUMA_BALANCING, which gates task_struct's
# fields, it counts every object that includes <linux/sched.h> and fails;
# on the tree before the NUMA_GROUPS and NUMA_MIGRATE_DEFER fields moved
# under NUMA_BALANCING, those two options failed the same way.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

O=${1:?usage: build-economy.sh BUILD_DIR [SYMBOL...]}
shift
MAX=${ECONOMY_MAX:-10}
EXEMPT=${ECONOMY_EXEMPT-NUMA_CPUPID}
[ -f "$O/vmlinux" ] || { echo "numa-sched: error: $O holds no finished build" >&2; exit 1; }
if [ $# = 0 ]; then
	set -- $(numa_features)
fi

ktap_header
ktap_plan $#
for sym in "$@"; do
	objs=$(find "$O" -name '.*.o.cmd' -print0 |
		xargs -0 grep -l -F "include/config/$sym)" | sed "s|^$O/||; s|/\.\([^/]*\)\.cmd$|/\1|" | sort)
	n=$(printf '%s' "$objs" | grep -c . || true)
	echo "# $sym: $n objects: $(echo $objs | cut -c1-200)"
	case " $EXEMPT " in
	*" $sym "*) ktap_skip "$sym: $n objects depend on it" "the page record's width is the feature" ;;
	*) [ "$n" -le "$MAX" ]
	   ktap_result $? "$sym: $n objects depend on it (at most $MAX)" ;;
	esac
done
ktap_finished
