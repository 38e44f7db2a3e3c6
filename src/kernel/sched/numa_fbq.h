/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CONFIG_NUMA_FBQ: the load balancer passes over runqueues whose tasks
 * already run where NUMA balancing wants them.
 *
 * Each runqueue counts its queued fair tasks that have a preferred node
 * (nr_numa_running) and those of them on a CPU of that node
 * (nr_preferred_running); enqueue and dequeue keep the counts exact, and
 * a task whose preferred node changes is requeued (sched_setnuma()) so
 * that they stay so. From the counts, a runqueue or a group of CPUs is
 * classified, from the most to the least willing to give tasks away:
 *
 *   regular: it runs some task without a preferred node;
 *   remote:  every task has a preferred node, some run away from it;
 *   all:     every task runs on its preferred node.
 *
 * At NUMA domain levels the busiest group's class bounds the balance
 * pass: find_busiest_queue() passes over runqueues of a higher class, so
 * tasks that do not care about placement are pulled first, misplaced ones
 * next, well-placed ones last (the 2013 series' "sched: numa: Avoid
 * migrating tasks that are placed on their preferred node"). The counts
 * also tell migrate_degrades_locality() whether a task on its preferred
 * node has a runqueue-mate that could go instead: only then does it call
 * the task's departure a loss of locality (1); when every task there is
 * home, one of them must go and cache hotness decides (-1).
 *
 * Off, struct rq has no such counts, every runqueue is alike to the
 * balancer, and a new preferred node is simply recorded. Nothing then
 * tells a well-placed task with a misplaced runqueue-mate from one
 * without: leaving the preferred node gets no NUMA verdict (-1, as in
 * 6.1 when the counts show no mate that could go instead), and
 * task_hot() decides, as for any task. That is the balancer without the
 * knowledge this option brings: resisting every departure from the
 * preferred node, without knowing that another task could go instead, is
 * what the 2013 series kept behind NUMA_RESIST_LOWER, off by default,
 * because it "has the potential to prevent a task ever migrating to a new
 * node due to CPU overload". Built in, the scheduler feature NO_NUMA_FBQ
 * has the balancer and migrate_degrades_locality() decide the same way at
 * run time; the counts are still kept, so that they are exact when the
 * feature comes back on.
 *
 * Included by fair.c in every configuration (find_busiest_queue() asks for
 * the class even without NUMA balancing); the hot-path pieces are static
 * inline, as they were in fair.c. numa_fbq.c adds the debugfs file.
 */
#ifndef _KERNEL_SCHED_NUMA_FBQ_H
#define _KERNEL_SCHED_NUMA_FBQ_H

/* The classes, in the order find_busiest_queue() compares them. */
enum fbq_type { regular, remote, all };

#ifdef CONFIG_NUMA_FBQ
/* The class of @nr_running tasks of which @nr_numa care, @nr_preferred are home. */
static inline enum fbq_type fbq_classify(unsigned int nr_running,
					 unsigned int nr_numa,
					 unsigned int nr_preferred)
{
	if (nr_running > nr_numa)
		return regular;
	if (nr_running > nr_preferred)
		return remote;
	return all;
}

static inline enum fbq_type fbq_classify_rq(struct rq *rq)
{
	/* "regular" is never passed over, whatever the group's class. */
	if (!numa_feature(NUMA_FBQ))
		return regular;
	return fbq_classify(rq->nr_running, rq->nr_numa_running,
			    rq->nr_preferred_running);
}

/* @p is being queued on @rq, or taken off it: both under rq->lock. */
static inline void fbq_account_enqueue(struct rq *rq, struct task_struct *p)
{
	rq->nr_numa_running += p->numa_preferred_nid != NUMA_NO_NODE;
	rq->nr_preferred_running += p->numa_preferred_nid == task_node(p);
}

static inline void fbq_account_dequeue(struct rq *rq, struct task_struct *p)
{
	rq->nr_numa_running -= p->numa_preferred_nid != NUMA_NO_NODE;
	rq->nr_preferred_running -= p->numa_preferred_nid == task_node(p);
}

/*
 * Is @rq known to run a task that is not on its preferred node, or has
 * none, and could leave instead of a well-placed one?
 */
static inline bool fbq_rq_has_misplaced(struct rq *rq)
{
	return numa_feature(NUMA_FBQ) &&
	       rq->nr_running > rq->nr_preferred_running;
}

/* Record @p's new preferred node, requeuing it so the counts follow. */
static inline void fbq_set_preferred(struct task_struct *p, int nid)
{
	sched_setnuma(p, nid);
}
#else /* !CONFIG_NUMA_FBQ */
/* Groups are all "all" and runqueues "regular": none is passed over. */
static inline enum fbq_type fbq_classify_rq(struct rq *rq)
{
	return regular;
}

static inline void fbq_account_enqueue(struct rq *rq, struct task_struct *p)
{
}

static inline void fbq_account_dequeue(struct rq *rq, struct task_struct *p)
{
}

/* Without the counts, no task is known to be able to go instead. */
static inline bool fbq_rq_has_misplaced(struct rq *rq)
{
	return false;
}

#ifdef CONFIG_NUMA_BALANCING
static inline void fbq_set_preferred(struct task_struct *p, int nid)
{
	WRITE_ONCE(p->numa_preferred_nid, nid);
}
#endif
#endif /* CONFIG_NUMA_FBQ */

#endif /* _KERNEL_SCHED_NUMA_FBQ_H */
