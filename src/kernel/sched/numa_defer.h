/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CONFIG_NUMA_MIGRATE_DEFER: after a shared page's migration is skipped,
 * skip the task's next shared page migrations too.
 *
 * The two-stage filter of should_numa_migrate_memory() skips a migration
 * when the page's last {cpu,pid} record names another node. When that
 * record was another task's (the page is shared), the faulting task also
 * skips its next sysctl kernel.numa_balancing_migrate_deferred shared page
 * migrations unconditionally (the 2013 series' "sched: numa: skip some
 * page migrations after a shared fault"): shared memory then stays where
 * it is and the tasks move near it, rather than the pages bouncing
 * between the nodes of the tasks that share them. A private fault is
 * never deferred. /proc/vmstat numa_migrate_deferred counts the
 * migrations skipped this way.
 *
 * Off: no sysctl, no per-task count, no counter; every shared fault that
 * passes the filter is judged on its own.
 *
 * Included by fair.c, with numa_defer.c, before should_numa_migrate_memory().
 */
#ifndef _KERNEL_SCHED_NUMA_DEFER_H
#define _KERNEL_SCHED_NUMA_DEFER_H

#ifdef CONFIG_NUMA_MIGRATE_DEFER
static inline void numa_defer_arm(struct task_struct *p, int last_cpupid);
static inline bool numa_defer_skip(struct task_struct *p);
static inline void numa_defer_fork(struct task_struct *p);
#else /* !CONFIG_NUMA_MIGRATE_DEFER */
static inline void numa_defer_arm(struct task_struct *p, int last_cpupid)
{
}

static inline bool numa_defer_skip(struct task_struct *p)
{
	return false;
}

static inline void numa_defer_fork(struct task_struct *p)
{
}
#endif /* CONFIG_NUMA_MIGRATE_DEFER */

#endif /* _KERNEL_SCHED_NUMA_DEFER_H */
