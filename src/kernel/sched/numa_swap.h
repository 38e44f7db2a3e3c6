/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fair.c's task_numa_compare() asks of CONFIG_NUMA_SWAP about the task
 * running on a candidate CPU: skip the CPU, move there (that task left
 * be), or swap the two.
 *
 * The gates come first and are the base's, the same with the option on or
 * off, as 6.1's task_numa_compare() applies them before any move to a busy
 * CPU: the task there must be allowed on the migrating task's CPU, a
 * partner going home must not be traded for one that is not, and the gain
 * of the exchange is computed; two unrelated tasks, or two of one group,
 * are not traded while the node has spare capacity, and a move to the busy
 * CPU must beat that exchange as well as the best choice so far. What is
 * left after the gates is the swap branch, the option's own (numa_swap.c);
 * off, it is taken out and the CPU is skipped, so the option's off state
 * is 6.1 with the swap code removed: no task is ever taken as a swap
 * partner, and at each candidate CPU a move is made exactly where 6.1
 * would make one. Over a whole search the two differ as the swap's
 * absence makes them: a swap 6.1 would have chosen neither raises the bar
 * for later candidates nor ends the search, so the search may go on to a
 * move elsewhere, on the preferred node or on another.
 *
 * Included by fair.c after struct task_numa_env, in every configuration.
 */
#ifndef _KERNEL_SCHED_NUMA_SWAP_H
#define _KERNEL_SCHED_NUMA_SWAP_H

/* What task_numa_compare() does with the task running on a candidate CPU. */
enum numa_swap_verdict {
	NUMA_SWAP_SKIP,		/* neither swap with it nor move there */
	NUMA_SWAP_MOVE,		/* move the task there, leave the other be */
	NUMA_SWAP_TAKE,		/* swap the two tasks */
};

/* @cur, running on a CPU of the destination, may trade places with env->p. */
static inline bool task_numa_partner(struct task_numa_env *env,
				     struct task_struct *cur)
{
	return cpumask_test_cpu(env->src_cpu, cur->cpus_ptr);
}

/*
 * @imp is env->p's gain from the move; add @cur's gain from going the
 * other way, with a little hysteresis against swaps for tiny differences
 * and a bonus for sending @cur home. LONG_MIN: no exchange to weigh.
 */
static long task_numa_exchange_gain(struct task_numa_env *env,
				    struct task_struct *cur,
				    long taskimp, long imp)
{
	enum numa_group_relation rel = numa_group_relation(env->p, cur);
	int dist = env->dist;

	switch (rel) {
	case NUMA_GROUP_NONE:
	case NUMA_GROUP_SAME:
		/*
		 * Within one group, or between two tasks of no group, a swap
		 * with spare capacity around only trades one task's locality
		 * for the other's: the load balancer's business, not ours.
		 */
		if (env->dst_stats.node_type == node_has_spare)
			return LONG_MIN;
		imp = taskimp + task_weight(cur, env->src_nid, dist) -
		      task_weight(cur, env->dst_nid, dist);
		if (rel == NUMA_GROUP_SAME)
			imp -= imp / 16;
		break;
	case NUMA_GROUP_OTHER:
		imp += group_weight(cur, env->src_nid, dist) -
		       group_weight(cur, env->dst_nid, dist);
		break;
	case NUMA_GROUP_MIXED:
		imp += task_weight(cur, env->src_nid, dist) -
		       task_weight(cur, env->dst_nid, dist);
		break;
	}

	/* Discourage taking a task off its preferred node ... */
	if (cur->numa_preferred_nid == env->dst_nid)
		imp -= imp / 16;
	/* ... and encourage sending one to it. */
	if (cur->numa_preferred_nid == env->src_nid)
		imp += imp / 8;

	return imp;
}

#ifdef CONFIG_NUMA_SWAP
static enum numa_swap_verdict numa_swap_take(struct task_numa_env *env,
					     struct task_struct *cur, long imp);
static int numa_swap_tasks(struct task_struct *p, struct task_numa_env *env);
#else /* !CONFIG_NUMA_SWAP */
static inline enum numa_swap_verdict
numa_swap_take(struct task_numa_env *env, struct task_struct *cur, long imp)
{
	return NUMA_SWAP_SKIP;
}

/* Never reached: without NUMA_SWAP no swap partner is ever chosen. */
static inline int numa_swap_tasks(struct task_struct *p,
				  struct task_numa_env *env)
{
	WARN_ON_ONCE(1);
	WRITE_ONCE(cpu_rq(env->best_cpu)->numa_migrate_on, 0);
	put_task_struct(env->best_task);
	return -EINVAL;
}
#endif /* CONFIG_NUMA_SWAP */

/*
 * @cur runs on the candidate CPU; @moveimp is env->p's gain from moving
 * there, which @maymove allows. *imp becomes the gain the verdict was
 * reached with: the exchange's, unless the CPU is skipped at the first
 * two gates. Under rcu_read_lock(), as task_numa_compare() calls it.
 */
static enum numa_swap_verdict
task_numa_busy_verdict(struct task_numa_env *env, struct task_struct *cur,
		       long taskimp, long *imp, long moveimp, bool maymove)
{
	struct task_struct *best = env->best_task;

	if (!task_numa_partner(env, cur))
		return NUMA_SWAP_SKIP;

	/* A partner going home beats one that is not. */
	if (best && best->numa_preferred_nid == env->src_nid &&
	    cur->numa_preferred_nid != env->src_nid)
		return NUMA_SWAP_SKIP;

	*imp = task_numa_exchange_gain(env, cur, taskimp, *imp);
	if (*imp == LONG_MIN)
		return NUMA_SWAP_SKIP;

	if (maymove && moveimp > *imp && moveimp > env->best_imp)
		return NUMA_SWAP_MOVE;

	/* The swap branch; without it, the task stays out of @cur's way. */
	if (!numa_feature(NUMA_SWAP))
		return NUMA_SWAP_SKIP;
	return numa_swap_take(env, cur, *imp);
}

#endif /* _KERNEL_SCHED_NUMA_SWAP_H */
