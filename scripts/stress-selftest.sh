#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress-selftest: prove that make stress fails on planted leaks, in
# a scratch clone of this repository with a scratch WORK (its own tree and
# builds, side by side like the real ones, so that ccache serves most of
# the build). Two plants, one run each of STRESS_SELFTEST_SECS (default
# 90) seconds:
#   - freed: put_numa_group() counts the group freed but never frees it.
#     The "live" counter cannot see it; kmemleak must, and name a NUMA
#     balancing function in the backtrace;
#   - unput: numa_group_leave() drops its reference without putting it.
#     "live" must stay above the groups in use.
# Each run must fail, on its own check.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
SCRATCH=${SCRATCH:-/var/tmp/numa-sched-scratch}
STRESS_SECS=${STRESS_SELFTEST_SECS:-90}
rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"
git clone -q "$REPO" "$SCRATCH/repo"
cd "$SCRATCH/repo"
groups=src/kernel/sched/numa_groups.c

# plant NAME FROM TO: replace the exact text FROM of numa_groups.c by TO.
plant()
{
	git checkout -q -- "$groups"
	python3 - "$groups" "$2" "$3" <<'EOC' || die "plant $1: the code to replace is gone from $groups"
import sys
path, old, new = sys.argv[1:]
src = open(path).read()
if src.count(old) != 1:
	sys.exit(1)
open(path, "w").write(src.replace(old, new))
EOC
}

export WORK=$SCRATCH/work
export KSRC=$WORK/linux BUILD=$WORK/build OUT=$WORK/out STRESS_SECS

# run NAME: make stress on the planted tree; its log in SCRATCH/NAME.log.
run()
{
	info "stress-selftest: $1 (${STRESS_SECS}s)"
	if make -s stress >"$SCRATCH/$1.log" 2>&1; then
		echo "numa-sched: make stress passed with the '$1' plant" >&2
		return 1
	fi
	grep -A8 'stress figures' "$SCRATCH/$1.log" || true
}

ok=1
plant freed "		atomic_long_inc(&numa_groups_freed);
		kfree_rcu(grp, rcu);" "		atomic_long_inc(&numa_groups_freed);"
run freed || ok=0
grep -q '^\[.*\] \[FAILED\] kmemleak: nothing from NUMA balancing' "$SCRATCH/freed.log" &&
	grep -q '^\[.*\] \[PASSED\] no numa_group leaked' "$SCRATCH/freed.log" ||
	{ echo "numa-sched: kmemleak did not catch the unfreed groups alone" >&2; ok=0; }

plant unput "	RCU_INIT_POINTER(p->numa_group, NULL);
	put_numa_group(grp);
}" "	RCU_INIT_POINTER(p->numa_group, NULL);
}"
run unput || ok=0
grep -q '^\[.*\] \[FAILED\] no numa_group leaked' "$SCRATCH/unput.log" ||
	{ echo "numa-sched: the groups never put were not caught" >&2; ok=0; }

[ "$ok" = 1 ] && echo "stress-selftest: both planted leaks were caught"
[ "$ok" = 1 ]
