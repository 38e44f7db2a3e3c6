/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of CONFIG_NUMA_FBQ's classification, included at the bottom
 * of numa_fbq.c (itself part of fair.c) to reach its statics.
 */
#ifdef CONFIG_NUMA_FBQ_KUNIT_TEST

#include <kunit/test.h>

/* Any task without a preferred node makes the queue "regular". */
static void numa_fbq_classify_regular(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, fbq_classify(1, 0, 0), regular);
	KUNIT_EXPECT_EQ(test, fbq_classify(3, 2, 2), regular);
	KUNIT_EXPECT_EQ(test, fbq_classify(3, 2, 0), regular);
}

/* Only NUMA tasks, some away from their node: "remote". */
static void numa_fbq_classify_remote(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, fbq_classify(2, 2, 1), remote);
	KUNIT_EXPECT_EQ(test, fbq_classify(2, 2, 0), remote);
}

/* Only tasks at home, or none at all: "all", the last to be robbed. */
static void numa_fbq_classify_all(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, fbq_classify(2, 2, 2), all);
	KUNIT_EXPECT_EQ(test, fbq_classify(0, 0, 0), all);
}

/* The order find_busiest_queue() relies on. */
static void numa_fbq_classify_order(struct kunit *test)
{
	KUNIT_EXPECT_LT(test, regular, remote);
	KUNIT_EXPECT_LT(test, remote, all);
}

/*
 * The counts of a queued task follow its preferred node. A zeroed task
 * that never ran, on a runqueue of its own: task_node() of it is CPU 0's.
 */
static void numa_fbq_account(struct kunit *test)
{
	struct rq *rq = kunit_kzalloc(test, sizeof(*rq), GFP_KERNEL);
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	int home = cpu_to_node(0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rq);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_ASSERT_EQ(test, task_node(p), home);

	p->numa_preferred_nid = home;
	fbq_account_enqueue(rq, p);
	KUNIT_EXPECT_EQ(test, rq->nr_numa_running, 1U);
	KUNIT_EXPECT_EQ(test, rq->nr_preferred_running, 1U);
	fbq_account_dequeue(rq, p);
	KUNIT_EXPECT_EQ(test, rq->nr_numa_running, 0U);
	KUNIT_EXPECT_EQ(test, rq->nr_preferred_running, 0U);

	p->numa_preferred_nid = NUMA_NO_NODE;
	fbq_account_enqueue(rq, p);
	KUNIT_EXPECT_EQ(test, rq->nr_numa_running, 0U);
	KUNIT_EXPECT_EQ(test, rq->nr_preferred_running, 0U);
	fbq_account_dequeue(rq, p);
	KUNIT_EXPECT_EQ(test, rq->nr_numa_running, 0U);

	if (nr_node_ids > 1) {
		p->numa_preferred_nid = (home + 1) % nr_node_ids;
		fbq_account_enqueue(rq, p);
		KUNIT_EXPECT_EQ(test, rq->nr_numa_running, 1U);
		KUNIT_EXPECT_EQ(test, rq->nr_preferred_running, 0U);
		rq->nr_running = 1;
		KUNIT_EXPECT_EQ(test, fbq_classify_rq(rq), remote);
		KUNIT_EXPECT_TRUE(test, fbq_rq_has_misplaced(rq));
		fbq_account_dequeue(rq, p);
	}
}

static struct kunit_case numa_fbq_test_cases[] = {
	KUNIT_CASE(numa_fbq_classify_regular),
	KUNIT_CASE(numa_fbq_classify_remote),
	KUNIT_CASE(numa_fbq_classify_all),
	KUNIT_CASE(numa_fbq_classify_order),
	KUNIT_CASE(numa_fbq_account),
	{}
};

static struct kunit_suite numa_fbq_test_suite = {
	.name = "numa_fbq",
	.test_cases = numa_fbq_test_cases,
};

kunit_test_suite(numa_fbq_test_suite);

#endif /* CONFIG_NUMA_FBQ_KUNIT_TEST */
