/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of CONFIG_NUMA_GROUPS' arithmetic and join rules, included at
 * the bottom of numa_groups.c (itself part of fair.c) to reach its statics.
 */
#ifdef CONFIG_NUMA_GROUPS_KUNIT_TEST

#include <kunit/test.h>

/* No faults yet, or no total: no weight, and no division by zero. */
static void numa_groups_permille_zero(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, numa_fault_permille(0, 0), 0UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(5, 0), 0UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(0, 5), 0UL);
}

static void numa_groups_permille_ratio(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, numa_fault_permille(1, 4), 250UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(1, 3), 333UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(7, 7), 1000UL);
	/*
	 * Nearby-node scores may push the sum past the total: no clamp,
	 * 6.1's 1000 * 9 / 7, or two such nodes would tie.
	 */
	KUNIT_EXPECT_EQ(test, numa_fault_permille(9, 7), 1285UL);
}

/* Counts where faults * 1000 overflows an unsigned long. */
static void numa_groups_permille_overflow(struct kunit *test)
{
	unsigned long big = ULONG_MAX / 2;

	KUNIT_EXPECT_EQ(test, numa_fault_permille(big, ULONG_MAX), 499UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(ULONG_MAX / 4, big), 499UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(ULONG_MAX - 1, ULONG_MAX),
			999UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(ULONG_MAX, ULONG_MAX), 1000UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(ULONG_MAX, big), 2000UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(ULONG_MAX / 1000 + 1,
						  ULONG_MAX / 1000 * 4), 250UL);
}

/*
 * What numa_fault_permille() computes huge counts with. Given two equal
 * constants, 6.1's x86 asm let the compiler pass the dividend's rax as
 * the divisor, which mulq had overwritten: 7000 / 7000 gave 1 (the
 * series' first patch mends it).
 */
static void numa_groups_permille_div64(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mul_u64_u64_div_u64(7, NUMA_WEIGHT_SCALE, 7), 1000ULL);
	KUNIT_EXPECT_EQ(test, mul_u64_u64_div_u64(3, 3, 9), 1ULL);
}

/* The smaller group joins the bigger; never both, never itself. */
static void numa_groups_join_size(struct kunit *test)
{
	int a, b;
	void *pa = &a, *pb = &b;

	KUNIT_EXPECT_TRUE(test, numa_group_joins(1, pa, 2, pb));
	KUNIT_EXPECT_FALSE(test, numa_group_joins(2, pb, 1, pa));
	KUNIT_EXPECT_FALSE(test, numa_group_joins(3, pa, 2, pb));
	KUNIT_EXPECT_FALSE(test, numa_group_joins(1, pa, 1, pa));
}

/* Equal sizes: exactly one of the two joins the other. */
static void numa_groups_join_tie(struct kunit *test)
{
	int g[2];
	bool ab = numa_group_joins(4, &g[0], 4, &g[1]);
	bool ba = numa_group_joins(4, &g[1], 4, &g[0]);

	KUNIT_EXPECT_NE(test, ab, ba);
	KUNIT_EXPECT_TRUE(test, ab);
}

/* A truncated-PID match is believed within one mm or on a shared mapping. */
static void numa_groups_match_trusted(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, numa_group_match_trusted(true, 0));
	KUNIT_EXPECT_TRUE(test, numa_group_match_trusted(false, TNF_SHARED));
	KUNIT_EXPECT_TRUE(test, numa_group_match_trusted(true, TNF_SHARED));
	KUNIT_EXPECT_FALSE(test, numa_group_match_trusted(false, 0));
	KUNIT_EXPECT_FALSE(test, numa_group_match_trusted(false, TNF_MIGRATED |
							  TNF_FAULT_LOCAL));
}

/*
 * Placement and the migration score agree. current gets fault statistics
 * whose own best node (node 0: 90% of its faults) is not its group's
 * (node 1: three quarters of the group's). The node task_numa_placement()
 * would prefer (numa_group_max_nid(), then numa_group_preferred_nid()) must
 * be the one task_numa_migrate() scores best from anywhere: for a task in
 * a group, group_weight(). Under the seeds' v8 rule (best task + group
 * weight when the two disagree) placement said node 0 and the score node
 * 1; that rule, planted back (with the task's own node as its input, as
 * the glue had it), fails here: placed 0, expected 1, and the best score
 * from every node is node 1's. Every topology type's search is
 * run: sched_numa_topology_type is set for the check and restored.
 */
static void numa_groups_placement_check(struct kunit *test)
{
	static const enum numa_topology_type types[] = {
		NUMA_DIRECT, NUMA_GLUELESS_MESH, NUMA_BACKPLANE,
	};
	enum numa_topology_type saved = sched_numa_topology_type;
	struct task_struct *p = current;
	int dist = sched_max_numa_distance;
	int i, nid, src;

	KUNIT_EXPECT_GT(test, task_weight(p, 0, dist), task_weight(p, 1, dist));
	KUNIT_EXPECT_GT(test, group_weight(p, 1, dist), group_weight(p, 0, dist));

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		unsigned long max_faults = 0;
		int max_nid = NUMA_NO_NODE, placed, best;
		long imp, best_imp;

		sched_numa_topology_type = types[i];

		/*
		 * What task_numa_placement() does for a member: the task's
		 * own best node, then the group's in its place.
		 */
		for_each_online_node(nid) {
			if (task_faults(p, nid) > max_faults) {
				max_faults = task_faults(p, nid);
				max_nid = nid;
			}
		}
		numa_group_max_nid(p, &max_nid, &max_faults);
		placed = numa_group_preferred_nid(p, max_nid);
		KUNIT_EXPECT_EQ_MSG(test, placed, 1, "topology type %d", types[i]);
		KUNIT_EXPECT_EQ(test, max_faults, 3100UL);

		/*
		 * What task_numa_migrate() scores for a member (its group's
		 * weight gain), from each node: the preferred node must win.
		 */
		for_each_node_state(src, N_CPU) {
			best_imp = LONG_MIN;
			best = NUMA_NO_NODE;
			for_each_node_state(nid, N_CPU) {
				imp = group_weight(p, nid, dist) -
				      group_weight(p, src, dist);
				if (imp > best_imp) {
					best_imp = imp;
					best = nid;
				}
			}
			KUNIT_EXPECT_EQ_MSG(test, best, placed,
					    "topology type %d, from node %d",
					    types[i], src);
		}
	}
	sched_numa_topology_type = saved;
}

/*
 * Lend current (the test's kthread) empty fault statistics: skips the
 * test when it has some already, false when there is no memory. Between
 * this and numa_groups_test_take_back() nothing may abort the test (no
 * KUNIT_ASSERT, no skip), or the kthread would exit holding them.
 */
static bool numa_groups_test_lend(struct kunit *test)
{
	struct task_struct *p = current;

	if (rcu_access_pointer(p->numa_group) || p->numa_faults)
		kunit_skip(test, "the test's task has NUMA statistics already");
	p->numa_faults = kcalloc(NR_NUMA_HINT_FAULT_BUCKETS * nr_node_ids,
				 sizeof(unsigned long), GFP_KERNEL);
	if (!p->numa_faults) {
		KUNIT_FAIL(test, "no memory for the statistics");
		return false;
	}
	return true;
}

/* Take back what was lent, and the group current may have got since. */
static void numa_groups_test_take_back(void)
{
	struct task_struct *p = current;
	unsigned long *faults = p->numa_faults;

	if (rcu_access_pointer(p->numa_group))
		numa_group_leave(p);
	/* Cleared before the free: the load balancer may read them. */
	p->numa_faults = NULL;
	p->total_numa_faults = 0;
	kfree(faults);
}

static void numa_groups_placement_agrees(struct kunit *test)
{
	struct task_struct *p = current;
	struct numa_group *ng;

	if (nr_node_ids < 2 || !node_state(0, N_CPU) || !node_state(1, N_CPU))
		kunit_skip(test, "needs nodes 0 and 1 with CPUs");
	if (!numa_groups_test_lend(test))
		return;

	/* The task: 900 private faults on node 0, 100 on node 1. */
	p->numa_faults[task_faults_idx(NUMA_MEM, 0, 1)] = 900;
	p->numa_faults[task_faults_idx(NUMA_MEM, 1, 1)] = 100;
	p->total_numa_faults = 1000;

	ng = numa_group_create(p);
	if (ng) {
		/* The other members: 3000 shared faults on node 1. */
		ng->faults[task_faults_idx(NUMA_MEM, 1, 0)] += 3000;
		ng->total_faults += 3000;
		numa_groups_placement_check(test);
		ng->faults[task_faults_idx(NUMA_MEM, 1, 0)] -= 3000;
		ng->total_faults -= 3000;
	} else {
		KUNIT_FAIL(test, "no memory for the group");
	}
	numa_groups_test_take_back();
}

/*
 * A record that names no CPU (in memory tiering, a page's record may hold
 * its last access time) finds no task: no group is made or joined, and no
 * runqueue is read. 6.1 made the faulting task a group of its own first,
 * then read the runqueue of that CPU number, past the end of the per-CPU
 * areas (fixes/0002). Seen to fail with the cpupid_valid() exit taken out
 * of task_numa_group(): an Oops on the NULL curr of an impossible CPU's
 * runqueue (its per-CPU offset points at the per-CPU template in init
 * memory: NULL at boot, whatever is there once init memory is freed).
 */
static void numa_groups_record_names_no_cpu(struct kunit *test)
{
	struct task_struct *p = current;
	int rec, priv = 0;

	if (nr_cpu_ids > LAST__CPU_MASK)
		kunit_skip(test, "every CPU number of the record is a CPU");
	if (!numa_groups_test_lend(test))
		return;

	/* The record's CPU field: the first number that is no CPU. */
	rec = cpu_pid_to_cpupid(nr_cpu_ids, p->pid);
	KUNIT_EXPECT_FALSE(test, cpupid_valid(rec));
	task_numa_group(p, rec, 0, &priv);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(p->numa_group));
	KUNIT_EXPECT_EQ(test, priv, 0);
	numa_groups_test_take_back();
}

static struct kunit_case numa_groups_test_cases[] = {
	KUNIT_CASE(numa_groups_permille_zero),
	KUNIT_CASE(numa_groups_permille_ratio),
	KUNIT_CASE(numa_groups_permille_overflow),
	KUNIT_CASE(numa_groups_permille_div64),
	KUNIT_CASE(numa_groups_join_size),
	KUNIT_CASE(numa_groups_join_tie),
	KUNIT_CASE(numa_groups_match_trusted),
	KUNIT_CASE(numa_groups_placement_agrees),
	KUNIT_CASE(numa_groups_record_names_no_cpu),
	{}
};

static struct kunit_suite numa_groups_test_suite = {
	.name = "numa_groups",
	.test_cases = numa_groups_test_cases,
};

kunit_test_suite(numa_groups_test_suite);

#endif /* CONFIG_NUMA_GROUPS_KUNIT_TEST */
