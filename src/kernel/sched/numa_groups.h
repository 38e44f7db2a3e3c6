/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fair.c's NUMA placement asks of CONFIG_NUMA_GROUPS, and the answers
 * it gets when the option is off: a task is then never in a group, so every
 * group statistic reads zero and placement falls back on the task's own
 * faults. Included by fair.c only; the functions live in numa_groups.c,
 * which fair.c includes as part of its own unit to reach its statics.
 */
#ifndef _KERNEL_SCHED_NUMA_GROUPS_H
#define _KERNEL_SCHED_NUMA_GROUPS_H

/* How two tasks stand to each other, for the swap search. */
enum numa_group_relation {
	NUMA_GROUP_NONE,	/* neither task is in a group */
	NUMA_GROUP_SAME,	/* both in the same group */
	NUMA_GROUP_OTHER,	/* in two different groups */
	NUMA_GROUP_MIXED,	/* one in a group, the other not */
};

#ifdef CONFIG_NUMA_GROUPS
static unsigned long group_faults(struct task_struct *p, int nid);
static unsigned long group_weight(struct task_struct *p, int nid, int dist);
static bool task_has_numa_group(struct task_struct *p);
static bool numa_group_spread(struct task_struct *p);
/* Used by the migration search's gates and the swap's gain (numa_swap.h). */
static inline enum numa_group_relation
numa_group_relation(struct task_struct *p, struct task_struct *cur);
static unsigned long numa_group_scan_scale(struct task_struct *p,
					   unsigned long period);
static bool numa_group_migrate_shared(struct task_struct *p, int src_nid,
				      int dst_nid);
static bool numa_group_fault_local(struct task_struct *p, int cpu_node,
				   int mem_node);
static spinlock_t *numa_group_stats_lock(struct task_struct *p);
static void numa_group_account(struct task_struct *p, int mem_idx, int cpu_idx,
			       long diff, long f_diff);
static void numa_group_count_active_nodes(struct task_struct *p);
static void numa_group_max_nid(struct task_struct *p, int *max_nid,
			       unsigned long *max_faults);
static int numa_group_preferred_nid(struct task_struct *p, int nid);
static void task_numa_group(struct task_struct *p, int cpupid, int flags,
			    int *priv);
static void numa_group_leave(struct task_struct *p);
static void numa_group_init_task(struct task_struct *p);
#ifdef CONFIG_SCHED_DEBUG
static void numa_group_node_faults(struct task_struct *p, int nid,
				   unsigned long *shared,
				   unsigned long *private);
#endif
#else /* !CONFIG_NUMA_GROUPS */
static inline unsigned long group_faults(struct task_struct *p, int nid)
{
	return 0;
}

static inline unsigned long group_weight(struct task_struct *p, int nid,
					 int dist)
{
	return 0;
}

static inline bool task_has_numa_group(struct task_struct *p)
{
	return false;
}

static inline bool numa_group_spread(struct task_struct *p)
{
	return false;
}

static inline enum numa_group_relation
numa_group_relation(struct task_struct *p, struct task_struct *cur)
{
	return NUMA_GROUP_NONE;
}

static inline unsigned long numa_group_scan_scale(struct task_struct *p,
						  unsigned long period)
{
	return period;
}

/* Without groups a shared fault that passed the two-stage filter migrates. */
static inline bool numa_group_migrate_shared(struct task_struct *p,
					     int src_nid, int dst_nid)
{
	return true;
}

static inline bool numa_group_fault_local(struct task_struct *p,
					  int cpu_node, int mem_node)
{
	return false;
}

static inline spinlock_t *numa_group_stats_lock(struct task_struct *p)
{
	return NULL;
}

static inline void numa_group_account(struct task_struct *p, int mem_idx,
				      int cpu_idx, long diff, long f_diff)
{
}

static inline void numa_group_count_active_nodes(struct task_struct *p)
{
}

static inline void numa_group_max_nid(struct task_struct *p, int *max_nid,
				      unsigned long *max_faults)
{
}

static inline int numa_group_preferred_nid(struct task_struct *p, int nid)
{
	return nid;
}

static inline void task_numa_group(struct task_struct *p, int cpupid,
				   int flags, int *priv)
{
}

static inline void numa_group_leave(struct task_struct *p)
{
}

static inline void numa_group_init_task(struct task_struct *p)
{
}

static inline void numa_group_node_faults(struct task_struct *p, int nid,
					  unsigned long *shared,
					  unsigned long *private)
{
	*shared = 0;
	*private = 0;
}
#endif /* CONFIG_NUMA_GROUPS */

#endif /* _KERNEL_SCHED_NUMA_GROUPS_H */
