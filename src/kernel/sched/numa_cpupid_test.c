// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the {cpu,pid} page record of CONFIG_NUMA_CPUPID: the
 * encode/decode helpers of <linux/numa_cpupid.h> and the record kept in a
 * real page's flags.
 *
 * The record keeps the low LAST__PID_SHIFT bits of a PID: two PIDs that
 * differ by a multiple of 256 match, and a PID whose low bits are all ones
 * reads back as "unset". Both are accepted trade-offs of the 2013 series;
 * the tests pin them down so that a change to the encoding shows.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/page_cpupid.h>
#include <linux/topology.h>

/* PIDs around the truncation boundaries and up to PID_MAX_LIMIT. */
static const int test_pids[] = {
	0, 1, 2, 127, 128, 254, 256, 257, 511, 4096, 32767, 32768,
	100000, PID_MAX_LIMIT - 1,
};

/* Every CPU number the record can hold encodes and decodes unchanged. */
static void numa_cpupid_round_trip(struct kunit *test)
{
	int cpu, i;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		for (i = 0; i < ARRAY_SIZE(test_pids); i++) {
			int pid = test_pids[i];
			int cpupid = cpu_pid_to_cpupid(cpu, pid);

			KUNIT_EXPECT_EQ(test, cpupid_to_cpu(cpupid), cpu);
			KUNIT_EXPECT_EQ(test, cpupid_to_pid(cpupid), pid & LAST__PID_MASK);
			KUNIT_EXPECT_EQ(test, cpupid & ~LAST_CPUPID_MASK, 0);
		}
	}
}

/* The node is derived from the recorded CPU. */
static void numa_cpupid_node(struct kunit *test)
{
	int cpu;

	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, cpupid_to_nid(cpu_pid_to_cpupid(cpu, 42)),
				cpu_to_node(cpu));
}

static void numa_cpupid_unset(struct kunit *test)
{
	int cpu, i;

	KUNIT_EXPECT_TRUE(test, cpupid_pid_unset(NUMA_CPUPID_UNSET));
	KUNIT_EXPECT_TRUE(test, cpupid_cpu_unset(NUMA_CPUPID_UNSET));
	KUNIT_EXPECT_TRUE(test, cpupid_pid_unset(-1));
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		for (i = 0; i < ARRAY_SIZE(test_pids); i++) {
			int pid = test_pids[i];

			KUNIT_EXPECT_EQ(test, cpupid_pid_unset(cpu_pid_to_cpupid(cpu, pid)),
					(pid & LAST__PID_MASK) == LAST__PID_MASK);
		}
		/* A task whose low PID bits are all ones looks like no task. */
		KUNIT_EXPECT_TRUE(test, cpupid_pid_unset(cpu_pid_to_cpupid(cpu, 255)));
		KUNIT_EXPECT_TRUE(test, cpupid_pid_unset(cpu_pid_to_cpupid(cpu, 511)));
	}
}

static void numa_cpupid_match(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(test_pids); i++) {
		int pid = test_pids[i];
		int cpupid = cpu_pid_to_cpupid(0, pid);

		KUNIT_EXPECT_TRUE(test, __cpupid_match_pid(pid, cpupid));
		/* Truncation: pid and pid + 256 are the same task to the record. */
		KUNIT_EXPECT_TRUE(test, __cpupid_match_pid(pid + 256, cpupid));
		KUNIT_EXPECT_TRUE(test, __cpupid_match_pid(pid + 3 * 256, cpupid));
		KUNIT_EXPECT_FALSE(test, __cpupid_match_pid(pid + 1, cpupid));
		KUNIT_EXPECT_FALSE(test, __cpupid_match_pid(pid + 255, cpupid));
	}
}

/* The record in a real page: exchange, read back, reset. */
static void numa_cpupid_page_record(struct kunit *test)
{
	struct page *page = alloc_page(GFP_KERNEL);
	int a = cpu_pid_to_cpupid(0, 1234), b = cpu_pid_to_cpupid(NR_CPUS - 1, 77);
	unsigned long others;
	int nid;

	KUNIT_ASSERT_NOT_NULL(test, page);
	nid = page_to_nid(page);
	others = page->flags & ~(LAST_CPUPID_MASK << LAST_CPUPID_PGSHIFT);
	/* A freshly allocated page was reset when it was freed or initialised. */
	KUNIT_EXPECT_TRUE(test, cpupid_pid_unset(page_cpupid_last(page)));
	KUNIT_EXPECT_EQ(test, page_cpupid_xchg_last(page, a), NUMA_CPUPID_UNSET);
	KUNIT_EXPECT_EQ(test, page_cpupid_last(page), a);
	KUNIT_EXPECT_EQ(test, page_cpupid_xchg_last(page, b), a);
	KUNIT_EXPECT_EQ(test, page_cpupid_last(page), b);
	/* The node and the rest of page->flags are left alone. */
	KUNIT_EXPECT_EQ(test, page_to_nid(page), nid);
	KUNIT_EXPECT_EQ(test, page->flags & ~(LAST_CPUPID_MASK << LAST_CPUPID_PGSHIFT), others);
	page_cpupid_reset_last(page);
	KUNIT_EXPECT_TRUE(test, cpupid_pid_unset(page_cpupid_last(page)));
	__free_page(page);
}

static struct kunit_case numa_cpupid_cases[] = {
	KUNIT_CASE(numa_cpupid_round_trip),
	KUNIT_CASE(numa_cpupid_node),
	KUNIT_CASE(numa_cpupid_unset),
	KUNIT_CASE(numa_cpupid_match),
	KUNIT_CASE(numa_cpupid_page_record),
	{}
};

static struct kunit_suite numa_cpupid_suite = {
	.name = "numa_cpupid",
	.test_cases = numa_cpupid_cases,
};

kunit_test_suite(numa_cpupid_suite);

MODULE_LICENSE("GPL");
