/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests that an option's off state is 6.1 with that feature's code
 * taken out, and that the two ways of being off decide alike: built
 * without the option, and built in but turned off at run time (NO_NUMA_x
 * in debugfs sched/features). Included at the bottom of fair.c, in every
 * configuration with NUMA balancing, so that the same cases run on every
 * kernel of the matrix.
 *
 * Each case asks a decision function of fair.c about a constructed task
 * and runqueue or search state, and expects 6.1's verdict when the option
 * is on and the off verdict when it is not. Where the option is built in
 * and SCHED_DEBUG lets it be switched, the case turns it off with the
 * same sched_feat_set() a write to sched/features calls, asks again and
 * expects the off verdict, then turns it back on: one expected value for
 * both off states, checked in the kernel built without the option and in
 * the one built with it.
 *
 * Seen to fail (make kunit, and the matrix's cgsfd row) on the slices of
 * 827d8e2, whose off states were not 6.1 without the feature:
 * balancer_all_home and balancer_mate_away (1 for -1: off resisted every
 * move off the preferred node), and swap_spare, swap_pinned,
 * swap_exchange_wins and swap_partner_home (NUMA_SWAP_MOVE for
 * NUMA_SWAP_SKIP: off moved past 6.1's gates). swap_partner_home also
 * fails on a task_numa_busy_verdict() that takes the swap branch whatever
 * the option says (TAKE for SKIP).
 */
#ifdef CONFIG_NUMA_OFF_KUNIT_TEST

#include <kunit/test.h>

#ifdef CONFIG_SCHED_DEBUG
/*
 * Turn scheduler feature @name ("NO_NUMA_FBQ", "NUMA_FBQ") on or off as a
 * write to debugfs sched/features does. False when it cannot be switched
 * at run time, which makes a case check the compile-time state alone.
 */
static bool numa_off_test_feat(struct kunit *test, const char *name)
{
	char buf[24];
	int ret;

	strscpy(buf, name, sizeof(buf));
	cpus_read_lock();
	ret = sched_feat_set(buf);
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, ret, 0);
	return !ret;
}
#else
static bool numa_off_test_feat(struct kunit *test, const char *name)
{
	return false;
}
#endif

/*
 * Ask @ask(@arg) as the kernel is: 6.1's @on_val is expected when option
 * @name is on, @off_val when it is off (not built, or turned off at run
 * time). Where it is on and can be switched, turn it off, ask again and
 * expect @off_val, then turn it back on.
 */
static void numa_off_expect(struct kunit *test, const char *name, bool on,
			    long (*ask)(void *arg), void *arg,
			    long on_val, long off_val)
{
	char off[24];

	KUNIT_EXPECT_EQ_MSG(test, ask(arg), on ? on_val : off_val,
			    "%s %s", name, on ? "on" : "off");
	if (!on)
		return;
	snprintf(off, sizeof(off), "NO_%s", name);
	if (!numa_off_test_feat(test, off))
		return;
	KUNIT_EXPECT_EQ_MSG(test, ask(arg), off_val,
			    "%s turned off at run time", name);
	numa_off_test_feat(test, name);
}

/* migrate_degrades_locality()'s load balancing pass from node A to B. */
struct numa_off_lb {
	struct lb_env env;
	struct task_struct *p;
};

static void numa_off_test_lb(struct kunit *test, struct numa_off_lb *t)
{
	size_t size = sizeof(*t->p->numa_faults) * NR_NUMA_HINT_FAULT_STATS *
		      nr_node_ids;
	int cpu, src_cpu = -1, dst_cpu = -1;

	if (!static_branch_likely(&sched_numa_balancing))
		kunit_skip(test, "NUMA balancing is not enabled");
	for_each_online_cpu(cpu) {
		if (src_cpu < 0)
			src_cpu = cpu;
		else if (cpu_to_node(cpu) != cpu_to_node(src_cpu))
			dst_cpu = cpu;
	}
	if (dst_cpu < 0)
		kunit_skip(test, "needs CPUs on 2 nodes");

	memset(&t->env, 0, sizeof(t->env));
	t->env.sd = kunit_kzalloc(test, sizeof(*t->env.sd), GFP_KERNEL);
	t->env.src_rq = kunit_kzalloc(test, sizeof(*t->env.src_rq), GFP_KERNEL);
	t->p = kunit_kzalloc(test, sizeof(*t->p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->env.sd);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->env.src_rq);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->p);
	t->p->numa_faults = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->p->numa_faults);

	t->env.sd->flags = SD_NUMA;
	t->env.src_cpu = src_cpu;
	t->env.dst_cpu = dst_cpu;
	t->env.idle = CPU_NOT_IDLE;
	/* The task runs on its preferred node, the balancer's source. */
	t->p->numa_preferred_nid = cpu_to_node(src_cpu);
}

/* The source runqueue runs @nr tasks, @nr_home of them on their node. */
static void numa_off_test_rq(struct rq *rq, unsigned int nr,
			     unsigned int nr_home)
{
	rq->nr_running = nr;
#ifdef CONFIG_NUMA_FBQ
	rq->nr_numa_running = nr;
	rq->nr_preferred_running = nr_home;
#endif
}

static long numa_off_test_degrades(void *arg)
{
	struct numa_off_lb *t = arg;
	long ret;

	rcu_read_lock();
	ret = migrate_degrades_locality(t->p, &t->env);
	rcu_read_unlock();
	return ret;
}

/*
 * Every task of the source runqueue is home: one of them must go, and
 * cache hotness decides (-1), on or off.
 */
static void numa_off_balancer_all_home(struct kunit *test)
{
	struct numa_off_lb t;

	numa_off_test_lb(test, &t);
	numa_off_test_rq(t.env.src_rq, 2, 2);
	numa_off_expect(test, "NUMA_FBQ", numa_feature(NUMA_FBQ),
			numa_off_test_degrades, &t, -1, -1);
}

/*
 * A runqueue-mate runs away from its node and could go instead: on, the
 * well-placed task's departure degrades locality (1); off, nothing knows
 * of the mate, and cache hotness decides (-1).
 */
static void numa_off_balancer_mate_away(struct kunit *test)
{
	struct numa_off_lb t;

	numa_off_test_lb(test, &t);
	numa_off_test_rq(t.env.src_rq, 2, 1);
	numa_off_expect(test, "NUMA_FBQ", numa_feature(NUMA_FBQ),
			numa_off_test_degrades, &t, 1, -1);
}

/*
 * task_numa_compare()'s question about the task @cur running on a CPU of
 * node 1, for current's move from node 0 that gains @taskimp, the best so
 * far having gained @best_imp. current is a kthread: no group, no faults.
 */
struct numa_off_swap {
	struct task_struct *cur;
	struct task_struct *best;	/* the partner chosen so far, if any */
	enum numa_type node_type;
	long taskimp;
	long best_imp;
};

static long numa_off_test_swap(void *arg)
{
	struct numa_off_swap *q = arg;
	struct task_numa_env env;
	enum numa_swap_verdict v;
	long imp = q->taskimp;

	memset(&env, 0, sizeof(env));
	env.p = current;
	env.src_cpu = 0;
	env.src_nid = 0;
	env.dst_nid = 1;
	env.dist = LOCAL_DISTANCE;
	env.best_cpu = -1;
	env.best_task = q->best;
	env.best_imp = q->best_imp;
	env.dst_stats.node_type = q->node_type;

	rcu_read_lock();
	v = task_numa_busy_verdict(&env, q->cur, q->taskimp, &imp, q->taskimp,
				   true);
	rcu_read_unlock();
	return v;
}

/* Expect 6.1's verdict @on_val with NUMA_SWAP, @off_val without. */
static void numa_off_expect_swap(struct kunit *test, struct numa_off_swap *q,
				 enum numa_swap_verdict on_val,
				 enum numa_swap_verdict off_val)
{
	numa_off_expect(test, "NUMA_SWAP", numa_feature(NUMA_SWAP),
			numa_off_test_swap, q, on_val, off_val);
}

static struct task_struct *numa_off_test_task(struct kunit *test)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	p->numa_preferred_nid = NUMA_NO_NODE;
	cpumask_setall(&p->cpus_mask);
	p->cpus_ptr = &p->cpus_mask;
	return p;
}

/*
 * Two unrelated tasks, and room on the node: 6.1 neither swaps nor moves
 * onto the busy CPU (an idle one of the node is the move's place).
 */
static void numa_off_swap_spare(struct kunit *test)
{
	struct numa_off_swap q = { .node_type = node_has_spare, .taskimp = 100 };

	q.cur = numa_off_test_task(test);
	numa_off_expect_swap(test, &q, NUMA_SWAP_SKIP, NUMA_SWAP_SKIP);
}

/* A task that may not run on the migrating task's CPU blocks the CPU. */
static void numa_off_swap_pinned(struct kunit *test)
{
	struct numa_off_swap q = { .node_type = node_fully_busy, .taskimp = 100 };

	q.cur = numa_off_test_task(test);
	cpumask_clear(&q.cur->cpus_mask);
	numa_off_expect_swap(test, &q, NUMA_SWAP_SKIP, NUMA_SWAP_SKIP);
}

/*
 * The exchange gains as much as the move (the task there loses nothing by
 * leaving), so 6.1 does not move; on, the swap is no better than the best
 * so far by SMALLIMP / 2 either. (Stopping there matters: past it,
 * numa_swap_take() asks task_h_load() of the partner, which a task that
 * never ran cannot answer with FAIR_GROUP_SCHED.)
 */
static void numa_off_swap_exchange_wins(struct kunit *test)
{
	struct numa_off_swap q = { .node_type = node_fully_busy, .taskimp = 100,
				   .best_imp = 90 };

	q.cur = numa_off_test_task(test);
	numa_off_expect_swap(test, &q, NUMA_SWAP_SKIP, NUMA_SWAP_SKIP);
}

/*
 * The task there would go home (node 0) by the exchange, and the partner
 * chosen so far would not: on, 6.1 takes the swap at once; off, the swap
 * branch is gone, and the move gains less than the exchange, so the CPU is
 * skipped. The one case whose answers differ: it fails if the swap branch
 * is not gated, at run time or at build time.
 */
static void numa_off_swap_partner_home(struct kunit *test)
{
	struct numa_off_swap q = { .node_type = node_fully_busy, .taskimp = 100 };

	q.cur = numa_off_test_task(test);
	q.cur->numa_preferred_nid = 0;
	q.best = numa_off_test_task(test);
	numa_off_expect_swap(test, &q, NUMA_SWAP_TAKE, NUMA_SWAP_SKIP);
}

/*
 * The task there has all its faults where it runs: the exchange would
 * cost it its whole weight, and the move wins, on and off.
 */
static void numa_off_swap_move_wins(struct kunit *test)
{
	struct numa_off_swap q = { .node_type = node_fully_busy, .taskimp = 100 };
	size_t size = sizeof(*q.cur->numa_faults) * NR_NUMA_HINT_FAULT_STATS *
		      nr_node_ids;

	if (nr_node_ids < 2)
		kunit_skip(test, "needs 2 nodes, has %u", nr_node_ids);
	/* Elsewhere the nearby nodes' faults add to the weights. */
	if (sched_numa_topology_type != NUMA_DIRECT)
		kunit_skip(test, "needs nodes all at one distance");
	q.cur = numa_off_test_task(test);
	q.cur->numa_faults = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, q.cur->numa_faults);
	q.cur->numa_faults[task_faults_idx(NUMA_MEM, 1, 1)] = 40;
	q.cur->total_numa_faults = 40;
	numa_off_expect_swap(test, &q, NUMA_SWAP_MOVE, NUMA_SWAP_MOVE);
}

static struct kunit_case numa_off_test_cases[] = {
	KUNIT_CASE(numa_off_balancer_all_home),
	KUNIT_CASE(numa_off_balancer_mate_away),
	KUNIT_CASE(numa_off_swap_spare),
	KUNIT_CASE(numa_off_swap_pinned),
	KUNIT_CASE(numa_off_swap_exchange_wins),
	KUNIT_CASE(numa_off_swap_partner_home),
	KUNIT_CASE(numa_off_swap_move_wins),
	{}
};

static struct kunit_suite numa_off_test_suite = {
	.name = "numa_off",
	.test_cases = numa_off_test_cases,
};

kunit_test_suite(numa_off_test_suite);

#endif /* CONFIG_NUMA_OFF_KUNIT_TEST */
