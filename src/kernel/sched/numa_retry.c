// SPDX-License-Identifier: GPL-2.0
/*
 * The periodic retry of the migration to the preferred node (base, always
 * on with NUMA_BALANCING; the 2013 series' "sched: numa: Retry migration
 * of tasks to CPU on a preferred node"), and its knob.
 *
 * A task whose preferred node could not take it retries every
 * min(1s, scan period / 16), the tree's adaptive interval. debugfs
 * sched/numa_balancing/migrate_retry_ms fixes the interval instead, so
 * that the cover letter's "periodretry" comparison can be reproduced
 * without a rebuild: 0 (the default) keeps the adaptive interval, 1 to
 * NUMA_RETRY_MS_MAX sets one in milliseconds (the file is numa_knob.c's).
 *
 * Also here, as bookkeeping of the base's preferred node: the count of
 * its changes since boot, in debugfs sched/numa_balancing/preferred_changes
 * (numa_knob.c's). A placement rule that disagrees with the score of the
 * migration search shows there: every scan pass, the one sets a node and
 * the other takes it back.
 *
 * Part of fair.c's unit (included before numa_migrate_preferred()).
 */

#define NUMA_RETRY_MS_MAX	60000

static unsigned int numa_migrate_retry_ms;

/* When @p, current, should try for its preferred node again. */
static unsigned long numa_retry_interval(struct task_struct *p)
{
	unsigned int ms = READ_ONCE(numa_migrate_retry_ms);

	if (ms)
		return max(1UL, msecs_to_jiffies(ms));
	return min_t(unsigned long, HZ, msecs_to_jiffies(p->numa_scan_period) / 16);
}

static atomic_long_t numa_preferred_changes;

/* Every change of a task's preferred node goes through here. */
static void numa_set_preferred(struct task_struct *p, int nid)
{
	atomic_long_inc(&numa_preferred_changes);
	fbq_set_preferred(p, nid);
}
