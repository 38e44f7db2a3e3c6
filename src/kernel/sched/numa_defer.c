// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_NUMA_MIGRATE_DEFER: see numa_defer.h. Part of fair.c's unit.
 *
 * sysctl kernel.numa_balancing_migrate_deferred: how many shared page
 * migrations a task skips after the filter skipped one because the page
 * was shared. Default 16 (the series' value), accepted 0 (never defer) to
 * NUMA_DEFER_MAX; a negative, non-numeric or larger write fails with
 * -EINVAL and leaves the value unchanged.
 */
#include <linux/sysctl.h>

#define NUMA_DEFER_MAX	65535

static unsigned int sysctl_numa_balancing_migrate_deferred = 16;
static unsigned int numa_defer_max = NUMA_DEFER_MAX;

/*
 * @p is current: its count needs no lock. Without PIDs (the NUMA_CPUPID
 * feature off) every fault is private and nothing arms.
 */
static inline void numa_defer_arm(struct task_struct *p, int last_cpupid)
{
	if (numa_feature(NUMA_CPUPID) && !cpupid_match_pid(p, last_cpupid))
		p->numa_migrate_deferred =
			READ_ONCE(sysctl_numa_balancing_migrate_deferred);
}

static inline bool numa_defer_skip(struct task_struct *p)
{
	if (!p->numa_migrate_deferred)
		return false;
	p->numa_migrate_deferred--;
	count_vm_event(NUMA_MIGRATE_DEFERRED);
	return true;
}

static inline void numa_defer_fork(struct task_struct *p)
{
	p->numa_migrate_deferred = 0;
}

#ifdef CONFIG_SYSCTL
static struct ctl_table numa_defer_sysctls[] = {
	{
		.procname	= "numa_balancing_migrate_deferred",
		.data		= &sysctl_numa_balancing_migrate_deferred,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &numa_defer_max,
	},
	{}
};

static int __init numa_defer_sysctl_init(void)
{
	register_sysctl_init("kernel", numa_defer_sysctls);
	return 0;
}
late_initcall(numa_defer_sysctl_init);
#endif /* CONFIG_SYSCTL */

#include "numa_defer_test.h"
