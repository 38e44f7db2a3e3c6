/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of the partner filter and the gain of an exchange
 * (numa_swap.h), included at the bottom of numa_swap.c (itself part of
 * fair.c) to reach its statics. The verdicts with the option off are
 * numa_off_test.h's.
 *
 * The migrating task is current (a kthread: no numa_group, no faults),
 * as in task_numa_migrate(); the partners are zeroed task_structs that
 * never ran: no numa_group either, so the two are unrelated
 * (NUMA_GROUP_NONE), and no fault statistics unless a case gives some.
 * The gain is asked under rcu_read_lock(), as task_numa_compare() does.
 *
 * Seen to fail (make kunit): task_numa_partner() taking any task
 * (partner_affinity), and task_numa_exchange_gain() leaving out the
 * partner's own gain (gain_partner: 100 for 1100 and -900).
 */
#ifdef CONFIG_NUMA_SWAP_KUNIT_TEST

#include <kunit/test.h>

static struct task_struct *numa_swap_test_task(struct kunit *test)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	p->numa_preferred_nid = NUMA_NO_NODE;
	cpumask_setall(&p->cpus_mask);
	p->cpus_ptr = &p->cpus_mask;
	return p;
}

/* current's move from node 0 to node 1, the destination full. */
static void numa_swap_test_env(struct task_numa_env *env)
{
	memset(env, 0, sizeof(*env));
	env->p = current;
	env->src_cpu = 0;
	env->src_nid = 0;
	env->dst_nid = 1;
	env->dist = LOCAL_DISTANCE;
	env->dst_stats.node_type = node_fully_busy;
}

/* A partner must be allowed on the migrating task's CPU: pinned, never. */
static void numa_swap_partner_affinity(struct kunit *test)
{
	struct task_struct *cur = numa_swap_test_task(test);
	struct task_numa_env env;

	numa_swap_test_env(&env);
	KUNIT_EXPECT_TRUE(test, task_numa_partner(&env, cur));

	cpumask_clear(&cur->cpus_mask);
	KUNIT_EXPECT_FALSE(test, task_numa_partner(&env, cur));

	if (nr_cpu_ids > 1) {
		cpumask_set_cpu(1, &cur->cpus_mask);
		KUNIT_EXPECT_FALSE(test, task_numa_partner(&env, cur));
		env.src_cpu = 1;
		KUNIT_EXPECT_TRUE(test, task_numa_partner(&env, cur));
	}
}

static long numa_swap_test_gain(struct task_numa_env *env,
				struct task_struct *cur, long taskimp, long imp)
{
	rcu_read_lock();
	imp = task_numa_exchange_gain(env, cur, taskimp, imp);
	rcu_read_unlock();
	return imp;
}

/* Unrelated tasks and spare capacity there: the balancer's job, no swap. */
static void numa_swap_gain_spare(struct kunit *test)
{
	struct task_struct *cur = numa_swap_test_task(test);
	struct task_numa_env env;

	numa_swap_test_env(&env);
	env.dst_stats.node_type = node_has_spare;
	KUNIT_EXPECT_EQ(test, numa_swap_test_gain(&env, cur, 100, 100), LONG_MIN);
}

/*
 * The partner's preferred node: taking it off its node costs 1/16 of the
 * gain, sending it home adds 1/8, anywhere else leaves the gain as is.
 */
static void numa_swap_gain_preferred(struct kunit *test)
{
	struct task_struct *cur = numa_swap_test_task(test);
	struct task_numa_env env;

	numa_swap_test_env(&env);
	KUNIT_EXPECT_EQ(test, numa_swap_test_gain(&env, cur, 160, 0), 160L);

	cur->numa_preferred_nid = env.dst_nid;
	KUNIT_EXPECT_EQ(test, numa_swap_test_gain(&env, cur, 160, 0), 150L);

	cur->numa_preferred_nid = env.src_nid;
	KUNIT_EXPECT_EQ(test, numa_swap_test_gain(&env, cur, 160, 0), 180L);
}

/*
 * Two unrelated tasks: the gain is the migrating task's plus the
 * partner's own, from going the other way. A partner with all its faults
 * on the source node gains its whole weight (1000); one with all of them
 * on the destination loses it.
 */
static void numa_swap_gain_partner(struct kunit *test)
{
	struct task_struct *cur = numa_swap_test_task(test);
	struct task_numa_env env;
	size_t size = sizeof(*cur->numa_faults) * NR_NUMA_HINT_FAULT_STATS *
		      nr_node_ids;

	if (nr_node_ids < 2)
		kunit_skip(test, "needs 2 nodes, has %u", nr_node_ids);
	/* Elsewhere the nearby nodes' faults add to the weights. */
	if (sched_numa_topology_type != NUMA_DIRECT)
		kunit_skip(test, "needs nodes all at one distance");
	numa_swap_test_env(&env);
	cur->numa_faults = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cur->numa_faults);

	cur->numa_faults[task_faults_idx(NUMA_MEM, env.src_nid, 1)] = 40;
	cur->total_numa_faults = 40;
	KUNIT_EXPECT_EQ(test, numa_swap_test_gain(&env, cur, 100, 0), 1100L);

	cur->numa_faults[task_faults_idx(NUMA_MEM, env.src_nid, 1)] = 0;
	cur->numa_faults[task_faults_idx(NUMA_MEM, env.dst_nid, 1)] = 40;
	KUNIT_EXPECT_EQ(test, numa_swap_test_gain(&env, cur, 100, 0), -900L);
}

static struct kunit_case numa_swap_test_cases[] = {
	KUNIT_CASE(numa_swap_partner_affinity),
	KUNIT_CASE(numa_swap_gain_spare),
	KUNIT_CASE(numa_swap_gain_preferred),
	KUNIT_CASE(numa_swap_gain_partner),
	{}
};

static struct kunit_suite numa_swap_test_suite = {
	.name = "numa_swap",
	.test_cases = numa_swap_test_cases,
};

kunit_test_suite(numa_swap_test_suite);

#endif /* CONFIG_NUMA_SWAP_KUNIT_TEST */
