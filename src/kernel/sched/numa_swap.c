// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_NUMA_SWAP: when a task's preferred node is full, swap it with a
 * task there.
 *
 * A task whose memory sits on a node where every CPU is busy can only get
 * there by taking some other task's place. The 2013 series ("sched: numa:
 * Introduce migrate_swap()" and its follow-ups, v8 patches 37-41) evaluates
 * the task running on each CPU of the preferred node: the exchange is worth
 * it when the sum of both tasks' locality gains (their task weights, and
 * their group weights when both are in different groups) beats the best so
 * far by a margin, and does not unbalance the two nodes' load beyond the
 * NUMA domain's imbalance margin. The chosen pair is exchanged by
 * migrate_swap(), which stops exactly the two CPUs involved. When the
 * preferred node can take the task neither by a move nor by a swap, the
 * other nodes of the system are searched too, limited to the nodes where
 * the task's or its group's locality improves (that search is the base's,
 * for moves as well).
 *
 * The gates a candidate passes first (numa_swap.h) are the base's, kept
 * with the option off, as 6.1 applies them before any move to a busy CPU:
 * a swap partner is any task that may run on the migrating task's CPU, as
 * in 6.1; exiting tasks and the idle task were already left out as
 * "nothing running there". Kernel threads are not refused: a kthread has
 * no fault statistics, so its own gain from the exchange weighs nothing,
 * and NUMA_TASK_SWAP is a global vmstat event that never looks at the
 * partner's mm (upstream's per-memcg counter of 6.16-rc1 did, and was
 * reverted for it).
 *
 * /proc/vmstat counts the task moves (numa_task_migrated, base) and the
 * swaps (numa_task_swapped) NUMA balancing makes; the tracepoints
 * sched_move_numa, sched_swap_numa and sched_stick_numa fire as upstream.
 *
 * Off, the NUMA code never calls migrate_swap() and numa_task_swapped
 * stays 0: 6.1's task_numa_compare() with the swap branch taken out. A
 * task moves to its preferred node, or to another node that improves its
 * locality, where 6.1 would move it, candidate by candidate: to an idle
 * CPU, or in place of a busy CPU's task that passes every gate 6.1
 * applies before a move (it may run on the task's CPU, an exchange with it
 * would gain less than the move, and the two are not unrelated tasks on a
 * node with spare capacity), when the move does not unbalance the two
 * nodes' load; where 6.1 would have swapped, the search goes on. Built in, the
 * scheduler feature NO_NUMA_SWAP has the search decide the same way at
 * run time (a swap already chosen still completes).
 */

/*
 * The swap branch of task_numa_compare(): @cur passed the gates of
 * task_numa_busy_verdict() (numa_swap.h) and the exchange gains @imp.
 */
static enum numa_swap_verdict numa_swap_take(struct task_numa_env *env,
					     struct task_struct *cur, long imp)
{
	struct task_struct *best = env->best_task;
	long load, src_load, dst_load;

	/* Prefer a partner going home to one that is not. */
	if (best && cur->numa_preferred_nid == env->src_nid &&
	    best->numa_preferred_nid != env->src_nid)
		return NUMA_SWAP_TAKE;

	/* Small gains only make tasks ping-pong between nodes. */
	if (imp < SMALLIMP || imp <= env->best_imp + SMALLIMP / 2)
		return NUMA_SWAP_SKIP;

	/* Keep the two nodes' load within the domain's imbalance margin. */
	load = task_h_load(env->p) - task_h_load(cur);
	if (!load)
		return NUMA_SWAP_TAKE;
	dst_load = env->dst_stats.load + load;
	src_load = env->src_stats.load - load;
	if (load_too_imbalanced(src_load, dst_load, env))
		return NUMA_SWAP_SKIP;

	return NUMA_SWAP_TAKE;
}

/* Exchange current task @p and env->best_task, then drop the reference. */
static int numa_swap_tasks(struct task_struct *p, struct task_numa_env *env)
{
	int ret;

	ret = migrate_swap(p, env->best_task, env->best_cpu, env->src_cpu);
	WRITE_ONCE(cpu_rq(env->best_cpu)->numa_migrate_on, 0);

	if (ret)
		trace_sched_stick_numa(p, env->src_cpu, env->best_task,
				       env->best_cpu);
	else
		count_vm_event(NUMA_TASK_SWAP);
	put_task_struct(env->best_task);
	return ret;
}

#include "numa_swap_test.h"
