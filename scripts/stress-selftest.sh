#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress-selftest: prove that make stress fails on planted bugs, in
# a scratch clone of this repository with a scratch WORK (its own tree and
# builds, side by side like the real ones, so that ccache serves most of
# the build). The plants of STRESS_SELFTEST_PLANTS (default all but
# noinject), one run each of STRESS_SELFTEST_SECS (default 90) seconds:
#   - freed: put_numa_group() counts the group freed but never frees it.
#     The "live" counter cannot see it; kmemleak must, and name a NUMA
#     balancing function in the backtrace;
#   - unput: numa_group_leave() drops its reference without putting it.
#     "live" must stay above the groups in use;
#   - isolated: a leak on the allocation failure path of a NUMA
#     migration: when the target page cannot be allocated (-ENOMEM in
#     migrate_pages_batch(), MR_NUMA_MISPLACED only), the page is taken
#     off the list its caller puts back, and stays isolated for good.
#     Only injected failures reach it; "no page left isolated" must fail;
#   - crash: a bad argument crashes the kernel: mbind(2) and
#     set_mempolicy(2) with MPOL_F_NUMA_BALANCING and a mode other than
#     MPOL_BIND hit a BUG_ON() instead of -EINVAL. The fuzzer must reach
#     it, and the host must report the kernel's BUG.
#   - errno: mbind(2) and set_mempolicy(2) refuse MPOL_F_STATIC_NODES with
#     MPOL_F_RELATIVE_NODES with EBUSY, an errno their manual pages do
#     not give; the fuzzer's errno check must fail;
#   - noinject (not in the default set: it is not caught): the test
#     itself leaves failslab and fail_page_alloc ignoring GFP_KERNEL and
#     highmem allocations (their defaults), so that the balancing paths'
#     allocations never meet fail-nth. The count of failures injected
#     should then be 0; it was 2 (2026-12-06: the debug kernel's own
#     GFP_NOWAIT allocations in the victims, presumably), and the check
#     passed. The count shows that failures are injected, not where; the
#     isolated plant shows that they reach a balancing path;
#   - nomigrate: migrate_misplaced_page() never migrates: the long-lived
#     victim cannot take its memory back, and its check must fail.
#   - hang: the fuzz process's fuzzing thread ends with pthread_exit()
#     after its calls, as an oops in a call would end it, and its writers
#     write on: the fuzz worker must name the process (its seed and last
#     call) and fail, not wait until it is killed.
# Each run must fail, on its own check. isolated, crash, errno and
# nomigrate plant upstream code: a patch of the scratch tree's own, added
# to its series.

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

# replace_once FILE FROM TO: the exact text FROM of FILE, found once, by TO.
replace_once()
{
	python3 - "$@" <<'EOC'
import sys
path, old, new = sys.argv[1:]
src = open(path).read()
if src.count(old) != 1:
	sys.exit(1)
open(path, "w").write(src.replace(old, new))
EOC
}

# unplant: the scratch clone as it was, no plant in its files or series.
unplant()
{
	git checkout -q -- .
	rm -rf patches/plant
}

# plant NAME FROM TO: replace the exact text FROM of numa_groups.c by TO.
plant()
{
	unplant
	replace_once "$groups" "$2" "$3" || die "plant $1: the code to replace is gone from $groups"
}

# plant_file NAME FILE FROM TO: the same in another file of the clone.
plant_file()
{
	unplant
	replace_once "$2" "$3" "$4" || die "plant $1: the code to replace is gone from $2"
}

export WORK=$SCRATCH/work
export KSRC=$WORK/linux BUILD=$WORK/build OUT=$WORK/out STRESS_SECS
PLANTS=${STRESS_SELFTEST_PLANTS:-freed unput isolated crash errno nomigrate hang}

# plant_tree NAME FILE FROM TO: the exact text FROM of the kernel tree's
# FILE replaced by TO, as a patch on top of the series (the previous
# plant's patch dropped first).
plant_tree()
{
	local wt=$SCRATCH/plant-wt

	unplant
	make -s tree >/dev/null
	git -C "$KSRC" worktree remove --force "$wt" 2>/dev/null || true
	git -C "$KSRC" worktree add -q --detach "$wt" HEAD
	replace_once "$wt/$2" "$3" "$4" || die "plant $1: the code to replace is gone from $2"
	git -C "$wt" -c user.name=plant -c user.email=plant@example.org \
		commit -q -a -m "plant: $1"
	mkdir -p patches/plant
	git -C "$wt" format-patch -q -1 -o "$PWD/patches/plant"
	echo "plant/$(basename patches/plant/*.patch)" >>patches/series
	git -C "$KSRC" worktree remove --force "$wt"
}

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

want()
{
	case " $PLANTS " in *" $1 "*) return 0 ;; esac
	return 1
}

ok=1
if want freed; then
plant freed "		atomic_long_inc(&numa_groups_freed);
		kfree_rcu(grp, rcu);" "		atomic_long_inc(&numa_groups_freed);"
run freed || ok=0
grep -q '^\[.*\] \[FAILED\] kmemleak: nothing from NUMA balancing' "$SCRATCH/freed.log" &&
	grep -q '^\[.*\] \[PASSED\] no numa_group leaked' "$SCRATCH/freed.log" ||
	{ echo "numa-sched: kmemleak did not catch the unfreed groups alone" >&2; ok=0; }
fi

if want unput; then
plant unput "	RCU_INIT_POINTER(p->numa_group, NULL);
	put_numa_group(grp);
}" "	RCU_INIT_POINTER(p->numa_group, NULL);
}"
run unput || ok=0
grep -q '^\[.*\] \[FAILED\] no numa_group leaked' "$SCRATCH/unput.log" ||
	{ echo "numa-sched: the groups never put were not caught" >&2; ok=0; }
fi

if want isolated; then
plant_tree isolated mm/migrate.c "				} else if (!no_split_folio_counting) {
					nr_failed++;
				}

				stats->nr_failed_pages += nr_pages + nr_retry_pages;" \
"				} else if (!no_split_folio_counting) {
					nr_failed++;
				}
				if (reason == MR_NUMA_MISPLACED)
					list_del(&folio->lru);

				stats->nr_failed_pages += nr_pages + nr_retry_pages;"
run isolated || ok=0
grep -q '^\[.*\] \[FAILED\] no page left isolated' "$SCRATCH/isolated.log" ||
	{ echo "numa-sched: the page left isolated was not caught" >&2; ok=0; }
fi

if want crash; then
plant_tree crash mm/mempolicy.c "		if (*mode != MPOL_BIND)
			return -EINVAL;
		*flags |= (MPOL_F_MOF | MPOL_F_MORON);" \
"		BUG_ON(*mode != MPOL_BIND);
		*flags |= (MPOL_F_MOF | MPOL_F_MORON);"
run crash || ok=0
grep -qE 'kernel BUG at [./]*(linux/)?mm/mempolicy.c' "$SCRATCH/crash.log" ||
	{ echo "numa-sched: the crash on a bad argument was not reported" >&2; ok=0; }
fi

if want errno; then
plant_tree errno mm/mempolicy.c "	if ((*flags & MPOL_F_STATIC_NODES) && (*flags & MPOL_F_RELATIVE_NODES))
		return -EINVAL;" "	if ((*flags & MPOL_F_STATIC_NODES) && (*flags & MPOL_F_RELATIVE_NODES))
		return -EBUSY;"
run errno || ok=0
grep -q '^\[.*\] \[FAILED\] fuzz: .* calls, each a success or a documented errno' "$SCRATCH/errno.log" &&
	grep -q 'errno 16 (Device or resource busy), not documented' "$SCRATCH/errno.log" ||
	{ echo "numa-sched: the undocumented errno was not caught" >&2; ok=0; }
fi

if want noinject; then
plant_file noinject src/tools/testing/selftests/sched/numa/stress_inject.c \
	'	{ .path = FAILSLAB "ignore-gfp-wait", .val = "N" },
	{ .path = FAIL_PAGE_ALLOC "ignore-gfp-wait", .val = "N" },
	{ .path = FAIL_PAGE_ALLOC "ignore-gfp-highmem", .val = "N" },' \
	'	{ .path = FAILSLAB "ignore-gfp-wait", .val = "Y" },
	{ .path = FAIL_PAGE_ALLOC "ignore-gfp-wait", .val = "Y" },
	{ .path = FAIL_PAGE_ALLOC "ignore-gfp-highmem", .val = "Y" },'
run noinject || ok=0
grep -q '^\[.*\] \[FAILED\] allocation failures injected in the victims: 0' "$SCRATCH/noinject.log" ||
	{ echo "numa-sched: a run that injected nothing was not caught" >&2; ok=0; }
fi

if want nomigrate; then
plant_tree nomigrate mm/migrate.c "	int nr_pages = thp_nr_pages(page);

	/*
	 * Don't migrate file pages" "	int nr_pages = thp_nr_pages(page);

	goto out;
	/*
	 * Don't migrate file pages"
run nomigrate || ok=0
grep -q '^\[.*\] \[FAILED\] the long-lived victim still writes and takes its memory back' "$SCRATCH/nomigrate.log" ||
	{ echo "numa-sched: a victim that could not take its memory back was not caught" >&2; ok=0; }
fi

if want hang; then
plant_file hang src/tools/testing/selftests/sched/numa/stress_fuzz.c \
	'	writers_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(w[i], NULL);' \
	'	pthread_exit(NULL);
	writers_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(w[i], NULL);'
run hang || ok=0
grep -q '^\[.*\] \[FAILED\] every worker ran and stopped' "$SCRATCH/hang.log" &&
	grep -q 'fuzz: process seed [0-9]* did not end 30 s after the load stopped' "$SCRATCH/hang.log" ||
	{ echo "numa-sched: a fuzz process that never ended was not named" >&2; ok=0; }
fi

unplant
[ "$ok" = 1 ] && echo "stress-selftest: every plant was caught ($PLANTS)"
[ "$ok" = 1 ]
