/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit tests of CONFIG_NUMA_MIGRATE_DEFER: what arms a task's count, how
 * the count is spent and counted, and the sysctl's bounds. Included at the
 * bottom of numa_defer.c (itself part of fair.c) to reach its statics.
 *
 * The task is a zeroed task_struct with a PID of its own; the global
 * sysctl is saved and restored around the cases that set it.
 *
 * Seen to fail (make kunit): numa_defer_arm() arming on the task's own
 * pages too (arming), and numa_defer_skip() not counting (counting).
 */
#ifdef CONFIG_NUMA_MIGRATE_DEFER_KUNIT_TEST

#include <kunit/test.h>

static struct task_struct *numa_defer_test_task(struct kunit *test)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	p->pid = 1234;
	return p;
}

/*
 * A fault on a page another task touched last arms the count with the
 * sysctl's value; one on the task's own page does not, nor one when
 * NUMA_CPUPID is turned off in sched/features (every fault is private).
 */
static void numa_defer_arming(struct kunit *test)
{
	unsigned int saved = READ_ONCE(sysctl_numa_balancing_migrate_deferred);
	struct task_struct *p = numa_defer_test_task(test);
	int other = cpu_pid_to_cpupid(0, p->pid + 1);
	int own = cpu_pid_to_cpupid(0, p->pid);

	WRITE_ONCE(sysctl_numa_balancing_migrate_deferred, 5);
	numa_defer_arm(p, own);
	KUNIT_EXPECT_EQ(test, p->numa_migrate_deferred, 0U);

	numa_defer_arm(p, other);
	KUNIT_EXPECT_EQ(test, p->numa_migrate_deferred,
			numa_feature(NUMA_CPUPID) ? 5U : 0U);

	/* Arming again starts over from the sysctl's value. */
	WRITE_ONCE(sysctl_numa_balancing_migrate_deferred, 2);
	numa_defer_arm(p, other);
	KUNIT_EXPECT_EQ(test, p->numa_migrate_deferred,
			numa_feature(NUMA_CPUPID) ? 2U : 0U);

	/* A sysctl of 0 never defers. */
	WRITE_ONCE(sysctl_numa_balancing_migrate_deferred, 0);
	numa_defer_arm(p, other);
	KUNIT_EXPECT_EQ(test, p->numa_migrate_deferred, 0U);

	WRITE_ONCE(sysctl_numa_balancing_migrate_deferred, saved);
}

static unsigned long numa_defer_test_events(void)
{
#ifdef CONFIG_VM_EVENT_COUNTERS
	unsigned long ev[NR_VM_EVENT_ITEMS];

	all_vm_events(ev);
	return ev[NUMA_MIGRATE_DEFERRED];
#else
	return 0;
#endif
}

/*
 * An armed count skips exactly that many migrations, each one counted in
 * numa_migrate_deferred, then none; a fork starts with none.
 */
static void numa_defer_counting(struct kunit *test)
{
	struct task_struct *p = numa_defer_test_task(test);
	unsigned long before = numa_defer_test_events();
	int i;

	p->numa_migrate_deferred = 3;
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, numa_defer_skip(p));
	KUNIT_EXPECT_EQ(test, p->numa_migrate_deferred, 0U);
	KUNIT_EXPECT_FALSE(test, numa_defer_skip(p));
	KUNIT_EXPECT_EQ(test, p->numa_migrate_deferred, 0U);
	if (IS_ENABLED(CONFIG_VM_EVENT_COUNTERS))
		KUNIT_EXPECT_EQ(test, numa_defer_test_events() - before, 3UL);

	p->numa_migrate_deferred = 7;
	numa_defer_fork(p);
	KUNIT_EXPECT_EQ(test, p->numa_migrate_deferred, 0U);
	KUNIT_EXPECT_FALSE(test, numa_defer_skip(p));
}

#ifdef CONFIG_SYSCTL
/* Write @s through a copy of the sysctl's table entry that sets @val. */
static int numa_defer_test_write(unsigned int *val, const char *s)
{
	struct ctl_table t = numa_defer_sysctls[0];
	char buf[32];
	size_t len = strscpy(buf, s, sizeof(buf));
	loff_t pos = 0;

	t.data = val;
	return t.proc_handler(&t, 1, buf, &len, &pos);
}

/* 0 to NUMA_DEFER_MAX are taken; a bad write fails and changes nothing. */
static void numa_defer_sysctl_bounds(struct kunit *test)
{
	unsigned int val = 16;

	KUNIT_EXPECT_EQ(test, numa_defer_test_write(&val, "0"), 0);
	KUNIT_EXPECT_EQ(test, val, 0U);
	KUNIT_EXPECT_EQ(test, numa_defer_test_write(&val, "65535"), 0);
	KUNIT_EXPECT_EQ(test, val, 65535U);
	KUNIT_EXPECT_EQ(test, numa_defer_test_write(&val, "65536"), -EINVAL);
	KUNIT_EXPECT_EQ(test, numa_defer_test_write(&val, "-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, numa_defer_test_write(&val, "x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, val, 65535U);
}
#endif /* CONFIG_SYSCTL */

static struct kunit_case numa_defer_test_cases[] = {
	KUNIT_CASE(numa_defer_arming),
	KUNIT_CASE(numa_defer_counting),
#ifdef CONFIG_SYSCTL
	KUNIT_CASE(numa_defer_sysctl_bounds),
#endif
	{}
};

static struct kunit_suite numa_defer_test_suite = {
	.name = "numa_defer",
	.test_cases = numa_defer_test_cases,
};

kunit_test_suite(numa_defer_test_suite);

#endif /* CONFIG_NUMA_MIGRATE_DEFER_KUNIT_TEST */
