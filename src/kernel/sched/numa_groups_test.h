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
	/* Nearby-node scores may push the sum past the total: clamp. */
	KUNIT_EXPECT_EQ(test, numa_fault_permille(9, 7), 1000UL);
}

/* Counts where faults * 1000 overflows an unsigned long. */
static void numa_groups_permille_overflow(struct kunit *test)
{
	unsigned long big = ULONG_MAX / 2;

	KUNIT_EXPECT_EQ(test, numa_fault_permille(big, ULONG_MAX), 499UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(ULONG_MAX / 4, big), 499UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(ULONG_MAX - 1, ULONG_MAX),
			999UL);
	KUNIT_EXPECT_EQ(test, numa_fault_permille(ULONG_MAX / 1000 + 1,
						  ULONG_MAX / 1000 * 4), 250UL);
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

static struct kunit_case numa_groups_test_cases[] = {
	KUNIT_CASE(numa_groups_permille_zero),
	KUNIT_CASE(numa_groups_permille_ratio),
	KUNIT_CASE(numa_groups_permille_overflow),
	KUNIT_CASE(numa_groups_join_size),
	KUNIT_CASE(numa_groups_join_tie),
	KUNIT_CASE(numa_groups_match_trusted),
	{}
};

static struct kunit_suite numa_groups_test_suite = {
	.name = "numa_groups",
	.test_cases = numa_groups_test_cases,
};

kunit_test_suite(numa_groups_test_suite);

#endif /* CONFIG_NUMA_GROUPS_KUNIT_TEST */
