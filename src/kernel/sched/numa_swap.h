/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fair.c's task_numa_migrate() asks of CONFIG_NUMA_SWAP, and the
 * answers when the option is off: no task is ever taken as a swap partner,
 * and a busy CPU takes the migrating task only as a move into spare
 * capacity. The search itself, of the preferred node and then of the other
 * nodes, is the base's and the same either way.
 * Included by fair.c after struct task_numa_env; the functions live in
 * numa_swap.c, part of fair.c's unit.
 */
#ifndef _KERNEL_SCHED_NUMA_SWAP_H
#define _KERNEL_SCHED_NUMA_SWAP_H

/* What task_numa_compare() does with the task running on a candidate CPU. */
enum numa_swap_verdict {
	NUMA_SWAP_SKIP,		/* neither swap with it nor move there */
	NUMA_SWAP_MOVE,		/* move the task there, leave the other be */
	NUMA_SWAP_TAKE,		/* swap the two tasks */
};

/* Without swaps: move there if the move beats the best found so far. */
static inline enum numa_swap_verdict
numa_move_verdict(struct task_numa_env *env, long moveimp, bool maymove)
{
	return maymove && moveimp > env->best_imp ? NUMA_SWAP_MOVE :
						    NUMA_SWAP_SKIP;
}

#ifdef CONFIG_NUMA_SWAP
static enum numa_swap_verdict numa_swap_compare(struct task_numa_env *env,
						struct task_struct *cur,
						long taskimp, long *imp,
						long moveimp, bool maymove);
static int numa_swap_tasks(struct task_struct *p, struct task_numa_env *env);
#else /* !CONFIG_NUMA_SWAP */
static inline enum numa_swap_verdict
numa_swap_compare(struct task_numa_env *env, struct task_struct *cur,
		  long taskimp, long *imp, long moveimp, bool maymove)
{
	return numa_move_verdict(env, moveimp, maymove);
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

#endif /* _KERNEL_SCHED_NUMA_SWAP_H */
