/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the scheduler needs from the NUMA balancing feature slices outside
 * fair.c: declarations, and static inline stubs for the options that are
 * off, so that callers carry no #ifdef. See Kconfig.numa and
 * Documentation/scheduler/sched-numa-features.rst.
 */
#ifndef _KERNEL_SCHED_NUMA_H
#define _KERNEL_SCHED_NUMA_H

#include <linux/printk.h>
#include <linux/sched/sysctl.h>

/*
 * Is option @x (NUMA_CPUPID, NUMA_GROUPS, NUMA_SWAP, NUMA_FBQ) built in and
 * on in debugfs sched/features? Off either way, the code it gates takes
 * the path of a kernel built without it. Without CONFIG_SCHED_DEBUG the
 * features are constants and this folds to IS_ENABLED(CONFIG_x).
 */
#define numa_feature(x)	(IS_ENABLED(CONFIG_##x) && sched_feat(x))

#ifdef CONFIG_NUMA_CPUPID
/* Every numa_balancing mode can keep what it needs in the page record. */
static inline int numa_cpupid_check_mode(int mode)
{
	return 0;
}
#else
/*
 * Memory tiering (numa_balancing mode 2) keeps each page's last scan time
 * in the page record. Without NUMA_CPUPID the record is a node id, a few
 * bits too narrow to hold a useful time: refuse the mode instead of
 * degrading it silently.
 */
static inline int numa_cpupid_check_mode(int mode)
{
	if (mode & NUMA_BALANCING_MEMORY_TIERING) {
		pr_warn_ratelimited("numa_balancing: memory tiering (mode 2) needs CONFIG_NUMA_CPUPID\n");
		return -EINVAL;
	}
	return 0;
}
#endif /* CONFIG_NUMA_CPUPID */

struct dentry;

#if defined(CONFIG_NUMA_GROUPS) && defined(CONFIG_SCHED_DEBUG)
void numa_groups_debugfs_init(struct dentry *dir);
#else
static inline void numa_groups_debugfs_init(struct dentry *dir)
{
}
#endif

#if defined(CONFIG_NUMA_FBQ) && defined(CONFIG_SCHED_DEBUG)
void numa_fbq_debugfs_init(struct dentry *dir);
#else
static inline void numa_fbq_debugfs_init(struct dentry *dir)
{
}
#endif

#ifdef CONFIG_SCHED_DEBUG
void numa_knobs_debugfs_init(struct dentry *dir);
#else
static inline void numa_knobs_debugfs_init(struct dentry *dir)
{
}
#endif

/* The slices' files in debugfs sched/numa_balancing/ (kernel/sched/debug.c). */
static inline void numa_debugfs_init(struct dentry *dir)
{
	numa_knobs_debugfs_init(dir);
	numa_groups_debugfs_init(dir);
	numa_fbq_debugfs_init(dir);
}

#endif /* _KERNEL_SCHED_NUMA_H */
