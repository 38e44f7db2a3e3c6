#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-selftest: prove that make check fails on a planted bug of each
# kind it exists for, in a scratch clone of this repository with a scratch
# WORK (its own kernel tree and builds, side by side like the real ones,
# so that ccache serves most of the builds):
#   - a slice that takes a numa_group reference and leaks it (coccinelle);
#   - a glue patch dereferencing a __user pointer in fair.c (sparse);
#   - the same patch with "if(" (a checkpatch ERROR).
# Each must be reported by its own check, and make check must fail.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
SCRATCH=${SCRATCH:-/var/tmp/numa-sched-scratch}
rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"
git clone -q "$REPO" "$SCRATCH/repo"
cd "$SCRATCH/repo"

mkdir -p src/kernel/sched
cat >src/kernel/sched/numa_planted.c <<'EOC'
// SPDX-License-Identifier: GPL-2.0
/* Planted by check-selftest: a reference that one path leaks. */
static int numa_planted_join(struct numa_group *grp, int busy)
{
	if (!get_numa_group(grp))
		return -1;
	if (busy)
		return -2;
	put_numa_group(grp);
	return 0;
}
EOC

mkdir -p patches/planted
cat >patches/planted/0001-planted.patch <<'EOC'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: numa-sched maintainers <numa-sched@example.org>
Date: Fri, 27 Sep 2013 14:26:45 +0000
Subject: [PATCH] sched/fair: planted bugs for check-selftest

A __user pointer dereferenced in kernel code, and a missing space.

Signed-off-by: numa-sched maintainers <numa-sched@example.org>
---
 kernel/sched/fair.c | 7 +++++++
 1 file changed, 7 insertions(+)

diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c
--- a/kernel/sched/fair.c
+++ b/kernel/sched/fair.c
@@ -56,6 +56,13 @@
 #include "stats.h"
 #include "autogroup.h"
 
+int numa_planted_sparse(int __user *u);
+int numa_planted_sparse(int __user *u)
+{
+	if(u)
+		return *u;
+	return 0;
+}
 /*
  * Targeted preemption latency for CPU-bound tasks:
  *
EOC
printf '\n# planted\nplanted/0001-planted.patch\n' >>patches/series

export WORK=$SCRATCH/work
export KSRC=$WORK/linux BUILD=$WORK/build OUT=$WORK/out
set +e
make -s check >"$SCRATCH/check.log" 2>&1
rc=$?
set -e
cat "$SCRATCH/check.log"

ok=1
[ "$rc" != 0 ] || { echo "numa-sched: make check passed on planted bugs" >&2; ok=0; }
grep -q '^not ok [0-9]* our-coccinelle-rules' "$SCRATCH/check.log" &&
	grep -q 'numa_planted.c: numa_group reference not put' "$SCRATCH/check.log" ||
	{ echo "numa-sched: the leaked reference was not reported" >&2; ok=0; }
grep -q '^not ok [0-9]* sparse' "$SCRATCH/check.log" &&
	grep -q 'fair.c: .*noderef' "$SCRATCH/check.log" ||
	{ echo "numa-sched: sparse did not report the __user dereference" >&2; ok=0; }
grep -q '^not ok [0-9]* checkpatch' "$SCRATCH/check.log" &&
	grep -q 'ERROR:SPACING' "$SCRATCH/check.log" ||
	{ echo "numa-sched: checkpatch did not report the spacing error" >&2; ok=0; }
[ "$ok" = 1 ] && echo "check-selftest: every planted bug was caught"
[ "$ok" = 1 ]
