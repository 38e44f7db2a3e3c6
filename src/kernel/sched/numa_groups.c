// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_NUMA_GROUPS: tasks that share memory are placed together.
 *
 * Threads of a parallel program rarely split their data on page
 * boundaries, so tasks that cooperate "false-share" pages, and placing each
 * by its own faults scatters them. The 2013 series ("sched: numa: Use
 * {cpu, pid} to create task groups for shared faults" and its follow-ups)
 * chains such tasks into numa_groups through the {cpu,pid} page record of
 * CONFIG_NUMA_CPUPID: on a shared fault, the task now running on the CPU
 * stored in the page is taken to be the page's last user if the low bits of
 * its PID match, and the two tasks' groups merge, the smaller group joining
 * the bigger one. The group sums its members' fault statistics, and those
 * weigh in the choice of each member's preferred node.
 *
 * Decisions of this slice, where the seeds leave room:
 *  - False matches. Only 8 bits of the PID are kept, so the task found on
 *    the CPU may be a stranger with a colliding PID. A join is taken only
 *    between threads of one address space, or on a page of a shared
 *    (VM_SHARED) mapping that more than one process maps (TNF_SHARED): the
 *    only ways two tasks can really write the same page. Any other match is
 *    refused, counted, and the fault is treated as private, since it is no
 *    evidence of sharing.
 *  - Read-only pages (shared library text, COW pages after fork, mappings
 *    without write permission) never group: mm marks their faults
 *    TNF_NO_GROUP, else everybody who links to libc ends up in one group.
 *  - Placement: 6.1's rule, one rule everywhere. A member's preferred
 *    node is where its group's faults are, found the way the migration
 *    search scores it (group_weight(), which counts nearby nodes on a
 *    glueless mesh, and a search down the hierarchy of a backplane
 *    machine); task_numa_migrate() and the swap search score moves by the
 *    same group weights. The seeds' last word (v8 patch 49: the best sum of
 *    task and group weight when the two disagree) was dropped: with a
 *    search scoring by the group only, it made the preferred node flip
 *    between two answers every scan pass, and two processes sharing a
 *    machine no longer traded places (6.1's comment: placement must agree
 *    with group_weight "otherwise workloads might not converge").
 *  - Weights are per-mille of faults (1000), for the task and the group
 *    alike (v8 patch 54); here computed without overflow on huge counts.
 *  - Kept from 6.1: statistics guarded by the group's lock rather than
 *    atomics (v8 patch 62), the CPU-use half of the statistics and the
 *    "active nodes" of a group spread over several nodes, which slow down
 *    migrations between those nodes. Not kept: the per-group task list of
 *    the seeds (nothing walks it; 6.1 dropped it too).
 *
 * Off, a task has no group pointer, nothing here is built, and placement
 * weighs the task's own faults only (see numa_groups.h for the stubs).
 * Built in, the scheduler feature NO_NUMA_GROUPS has placement decide the
 * same way at run time: no group is created or joined, and none is read;
 * groups formed before live on, unread, until their members exit.
 *
 * The lifetime rules: a group is refcounted, one reference per member task;
 * p->numa_group changes only under p == current (joining happens in the
 * task's own fault path, leaving in exec or when the dead task is freed)
 * and is read under RCU by others; the group is freed after a grace period.
 * The group's lock guards nr_tasks and the statistics.
 */
#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/seq_file.h>

#include "numa.h"

/*
 * Task and group weights are per-mille of the faults, so that the two can be
 * compared and added whatever the sizes of the task and its group.
 */
#define NUMA_WEIGHT_SCALE	1000

/*
 * A node with more than 1/ACTIVE_NODE_FRACTION of the faults of the busiest
 * node is one of the group's active nodes: the group is spread over them
 * and memory moves between them only for clear gains.
 */
#define ACTIVE_NODE_FRACTION	3

struct numa_group {
	refcount_t refcount;

	spinlock_t lock;	/* nr_tasks, faults, total_faults */
	int nr_tasks;
	pid_t gid;
	int active_nodes;

	struct rcu_head rcu;
	unsigned long total_faults;
	unsigned long max_faults_cpu;
	/*
	 * The sums of the members' averaged statistics, in the layout of
	 * the first half of p->numa_faults (see task_faults_idx()): memory
	 * faults per node (NUMA_MEM), then the same weighted by CPU use
	 * (NUMA_CPU), which says where the group runs rather than where its
	 * memory is.
	 */
	unsigned long faults[];
};

/* Groups created and freed, joins taken and refused, since boot. */
static atomic_long_t numa_groups_created;
static atomic_long_t numa_groups_freed;
static atomic_long_t numa_groups_joined;
static atomic_long_t numa_groups_refused;

/*
 * p->numa_group may be read by p itself, or by whoever holds p's runqueue
 * lock while p is not running (p cannot change its group then).
 */
static struct numa_group *deref_task_numa_group(struct task_struct *p)
{
	return rcu_dereference_check(p->numa_group, p == current ||
		(lockdep_is_held(__rq_lockp(task_rq(p))) && !READ_ONCE(p->on_cpu)));
}

/* Only the task itself changes its group: it may read it without RCU. */
static struct numa_group *deref_curr_numa_group(struct task_struct *p)
{
	return rcu_dereference_protected(p->numa_group, p == current);
}

/*
 * The group that weighs in @p's decisions: none while the NUMA_GROUPS
 * scheduler feature is off. A group formed before still sums its members'
 * statistics then (a member leaving takes back what it added), and is
 * freed when its last member goes; only nothing reads it.
 */
static struct numa_group *placing_task_numa_group(struct task_struct *p)
{
	return numa_feature(NUMA_GROUPS) ? deref_task_numa_group(p) : NULL;
}

static struct numa_group *placing_curr_numa_group(struct task_struct *p)
{
	return numa_feature(NUMA_GROUPS) ? deref_curr_numa_group(p) : NULL;
}

/*
 * faults/total in per-mille: 6.1's 1000 * faults / total wherever that
 * cannot overflow, and safe from overflow on huge counts. Not clamped:
 * with the nearby-node scores of a backplane or glueless mesh topology,
 * faults may exceed total, and 6.1 compares such weights.
 */
static inline unsigned long numa_fault_permille(unsigned long faults,
						unsigned long total)
{
	if (!total)
		return 0;
	if (faults <= ULONG_MAX / NUMA_WEIGHT_SCALE)
		return faults * NUMA_WEIGHT_SCALE / total;
	return mul_u64_u64_div_u64(faults, NUMA_WEIGHT_SCALE, total);
}

/*
 * Whether @my_grp should merge into @grp. The smaller group joins the
 * bigger one, as it has less to lose; of two groups of one size, the one
 * at the lower address joins, so that two tasks faulting on each other's
 * pages at once do not both move.
 */
static inline bool numa_group_joins(int my_nr_tasks, const void *my_grp,
				    int nr_tasks, const void *grp)
{
	if (my_grp == grp)
		return false;
	if (my_nr_tasks != nr_tasks)
		return my_nr_tasks < nr_tasks;
	return my_grp < grp;
}

/*
 * Whether a PID match is believed: the two tasks share an address space,
 * or the page belongs to a shared mapping used by several processes.
 */
static inline bool numa_group_match_trusted(bool same_mm, int flags)
{
	return same_mm || (flags & TNF_SHARED);
}

pid_t task_numa_group_id(struct task_struct *p)
{
	struct numa_group *ng;
	pid_t gid = 0;

	rcu_read_lock();
	ng = rcu_dereference(p->numa_group);
	if (ng)
		gid = ng->gid;
	rcu_read_unlock();

	return gid;
}

static unsigned long group_faults(struct task_struct *p, int nid)
{
	struct numa_group *ng = placing_task_numa_group(p);

	if (!ng)
		return 0;

	return ng->faults[task_faults_idx(NUMA_MEM, nid, 0)] +
	       ng->faults[task_faults_idx(NUMA_MEM, nid, 1)];
}

static unsigned long group_faults_cpu(struct numa_group *ng, int nid)
{
	return ng->faults[task_faults_idx(NUMA_CPU, nid, 0)] +
	       ng->faults[task_faults_idx(NUMA_CPU, nid, 1)];
}

/* The group's memory faults of one kind (priv 0: shared, 1: private). */
static unsigned long group_faults_kind(struct numa_group *ng, int priv)
{
	unsigned long faults = 0;
	int nid;

	for_each_online_node(nid)
		faults += ng->faults[task_faults_idx(NUMA_MEM, nid, priv)];

	return faults;
}

static bool numa_is_active_node(int nid, struct numa_group *ng)
{
	return group_faults_cpu(ng, nid) * ACTIVE_NODE_FRACTION >
	       ng->max_faults_cpu;
}

/* The group's share of faults on and near @nid, per-mille. */
static unsigned long group_weight(struct task_struct *p, int nid, int dist)
{
	struct numa_group *ng = placing_task_numa_group(p);
	unsigned long faults;

	if (!ng)
		return 0;

	faults = group_faults(p, nid) + score_nearby_nodes(p, nid, dist, false);
	return numa_fault_permille(faults, ng->total_faults);
}

static bool task_has_numa_group(struct task_struct *p)
{
	return numa_feature(NUMA_GROUPS) && rcu_access_pointer(p->numa_group);
}

/*
 * Whether current task @p's group runs on several nodes: then other nodes
 * than the preferred one are worth a look, to consolidate the group.
 */
static bool numa_group_spread(struct task_struct *p)
{
	struct numa_group *ng = placing_curr_numa_group(p);

	return ng && ng->active_nodes > 1;
}

/* Caller holds rcu_read_lock(); @p is current. */
static inline enum numa_group_relation
numa_group_relation(struct task_struct *p, struct task_struct *cur)
{
	struct numa_group *p_ng = deref_curr_numa_group(p);
	struct numa_group *cur_ng = rcu_dereference(cur->numa_group);

	if (!numa_feature(NUMA_GROUPS))
		return NUMA_GROUP_NONE;
	if (p_ng == cur_ng)
		return p_ng ? NUMA_GROUP_SAME : NUMA_GROUP_NONE;
	return p_ng && cur_ng ? NUMA_GROUP_OTHER : NUMA_GROUP_MIXED;
}

/*
 * Scale a scan period with the group: the more tasks share the group's
 * memory and the more of its faults are shared, the less each member
 * needs to scan, since every member's scan covers the same pages.
 */
static unsigned long numa_group_scan_scale(struct task_struct *p,
					   unsigned long period)
{
	struct numa_group *ng;

	if (!numa_feature(NUMA_GROUPS))
		return period;

	rcu_read_lock();
	ng = rcu_dereference(p->numa_group);
	if (ng) {
		unsigned long shared = group_faults_kind(ng, 0);
		unsigned long private = group_faults_kind(ng, 1);

		period *= refcount_read(&ng->refcount);
		period *= shared + 1;
		period /= private + shared + 1;
	}
	rcu_read_unlock();

	return period;
}

/*
 * A shared page passed the two-stage filter: move it towards @dst_nid if
 * the group runs there clearly more than on @src_nid, or if the group's
 * CPU use per memory fault is higher there, with 3/4 hysteresis:
 *
 *   faults_cpu(dst)   3   faults_cpu(src)
 *   --------------- * - > ---------------
 *   faults_mem(dst)   4   faults_mem(src)
 */
static bool numa_group_migrate_shared(struct task_struct *p, int src_nid,
				      int dst_nid)
{
	struct numa_group *ng = placing_curr_numa_group(p);
	unsigned long src_cpu, dst_cpu;

	/* The group is not set up yet: nothing argues against the move. */
	if (!ng)
		return true;

	src_cpu = group_faults_cpu(ng, src_nid);
	dst_cpu = group_faults_cpu(ng, dst_nid);
	if (dst_cpu > src_cpu * ACTIVE_NODE_FRACTION)
		return true;

	return dst_cpu * group_faults(p, src_nid) * 3 >
	       src_cpu * group_faults(p, dst_nid) * 4;
}

/*
 * A shared fault within the nodes a spread-out group actively uses counts
 * as local, so that the scan rate can slow down once the group settles.
 */
static bool numa_group_fault_local(struct task_struct *p, int cpu_node,
				   int mem_node)
{
	struct numa_group *ng = placing_curr_numa_group(p);

	return ng && ng->active_nodes > 1 &&
	       numa_is_active_node(cpu_node, ng) &&
	       numa_is_active_node(mem_node, ng);
}

/*
 * task_numa_placement() folds the task's new faults into its group's
 * statistics under this lock, so that members doing the same at once do
 * not lose each other's updates.
 */
static spinlock_t *numa_group_stats_lock(struct task_struct *p)
{
	struct numa_group *ng = deref_curr_numa_group(p);

	return ng ? &ng->lock : NULL;
}

/* Caller holds numa_group_stats_lock(p). */
static void numa_group_account(struct task_struct *p, int mem_idx, int cpu_idx,
			       long diff, long f_diff)
{
	struct numa_group *ng = deref_curr_numa_group(p);

	if (!ng)
		return;

	ng->faults[mem_idx] += diff;
	ng->faults[cpu_idx] += f_diff;
	ng->total_faults += diff;
}

/*
 * Count the nodes the group runs on, judged by where its hinting faults
 * come from rather than where its memory sits. Caller holds the stats lock.
 */
static void numa_group_count_active_nodes(struct task_struct *p)
{
	struct numa_group *ng = deref_curr_numa_group(p);
	unsigned long faults, max_faults = 0;
	int nid, active = 0;

	if (!ng)
		return;

	for_each_node_state(nid, N_CPU)
		max_faults = max(max_faults, group_faults_cpu(ng, nid));

	for_each_node_state(nid, N_CPU) {
		faults = group_faults_cpu(ng, nid);
		if (faults * ACTIVE_NODE_FRACTION > max_faults)
			active++;
	}

	ng->max_faults_cpu = max_faults;
	ng->active_nodes = active;
}

/*
 * In a group, the candidate node is the one of the group's most memory
 * faults, not the task's own: *@max_nid and *@max_faults are replaced by
 * the group's. The order of nodes and the strict comparison are those of
 * the task's own search, so ties go the same way. Caller holds the stats
 * lock.
 */
static void numa_group_max_nid(struct task_struct *p, int *max_nid,
			       unsigned long *max_faults)
{
	unsigned long faults;
	int nid;

	if (!placing_curr_numa_group(p))
		return;

	*max_nid = NUMA_NO_NODE;
	*max_faults = 0;
	for_each_online_node(nid) {
		faults = group_faults(p, nid);
		if (faults > *max_faults) {
			*max_faults = faults;
			*max_nid = nid;
		}
	}
}

/* The node of best group_weight(), nearby nodes counted; else @nid. */
static int numa_group_best_weight_nid(struct task_struct *p, int nid)
{
	int dist = sched_max_numa_distance;
	unsigned long weight, best = 0;
	int node;

	for_each_node_state(node, N_CPU) {
		weight = group_weight(p, node, dist);
		if (weight > best) {
			best = weight;
			nid = node;
		}
	}
	return nid;
}

/*
 * On a backplane machine, narrow the candidates down the distance
 * hierarchy: at each distance the nodes fall into sets of nodes closer
 * than it to each other; keep the set with the most group faults, and go
 * on inside it. At the smallest distance every set is a single node, and
 * the winner of the last round is the answer. @nid if no faults at all.
 */
static int numa_group_backplane_nid(struct task_struct *p, int nid)
{
	nodemask_t candidates = node_states[N_CPU];
	int dist;

	for (dist = sched_max_numa_distance; dist > LOCAL_DISTANCE; dist--) {
		nodemask_t best_set = NODE_MASK_NONE;
		unsigned long best = 0;
		int a, b;

		if (!find_numa_distance(dist))
			continue;

		for_each_node_mask(a, candidates) {
			nodemask_t set = NODE_MASK_NONE;
			unsigned long faults = 0;

			/* @a and the candidates near it form a set: take them out. */
			for_each_node_mask(b, candidates) {
				if (node_distance(a, b) >= dist)
					continue;
				faults += group_faults(p, b);
				node_set(b, set);
				node_clear(b, candidates);
			}
			if (faults > best) {
				best = faults;
				best_set = set;
				nid = a;
			}
		}
		if (!best)
			break;
		candidates = best_set;
	}
	return nid;
}

/*
 * The preferred node of a task in a group, from @nid, the node of the
 * group's most faults (numa_group_max_nid()). It must agree with the
 * group_weight() that task_numa_migrate() scores moves by. Where all nodes
 * are equally far apart, @nid is that node; where they are not, nearby
 * faults count too.
 */
static int numa_group_preferred_nid(struct task_struct *p, int nid)
{
	if (!placing_curr_numa_group(p))
		return nid;

	switch (sched_numa_topology_type) {
	case NUMA_DIRECT:
		return nid;
	case NUMA_GLUELESS_MESH:
		return numa_group_best_weight_nid(p, nid);
	case NUMA_BACKPLANE:
	default:
		return numa_group_backplane_nid(p, nid);
	}
}

static bool get_numa_group(struct numa_group *grp)
{
	return refcount_inc_not_zero(&grp->refcount);
}

static void put_numa_group(struct numa_group *grp)
{
	if (refcount_dec_and_test(&grp->refcount)) {
		atomic_long_inc(&numa_groups_freed);
		kfree_rcu(grp, rcu);
	}
}

/* A group of one, @p, holding @p's statistics so far. */
static struct numa_group *numa_group_create(struct task_struct *p)
{
	int nr = NR_NUMA_HINT_FAULT_STATS * nr_node_ids;
	struct numa_group *grp;
	int i;

	grp = kzalloc(struct_size(grp, faults, nr), GFP_KERNEL | __GFP_NOWARN);
	if (!grp)
		return NULL;

	refcount_set(&grp->refcount, 1);
	spin_lock_init(&grp->lock);
	grp->nr_tasks = 1;
	grp->gid = p->pid;
	grp->active_nodes = 1;

	for (i = 0; i < nr; i++)
		grp->faults[i] = p->numa_faults[i];
	grp->total_faults = p->total_numa_faults;

	atomic_long_inc(&numa_groups_created);
	rcu_assign_pointer(p->numa_group, grp);
	return grp;
}

/* Move current task @p, and its statistics, from @from into @to. */
static void numa_group_move(struct task_struct *p, struct numa_group *from,
			    struct numa_group *to)
{
	int nr = NR_NUMA_HINT_FAULT_STATS * nr_node_ids;
	int i;

	WARN_ON_ONCE(irqs_disabled());
	double_lock_irq(&from->lock, &to->lock);

	for (i = 0; i < nr; i++) {
		from->faults[i] -= p->numa_faults[i];
		to->faults[i] += p->numa_faults[i];
	}
	from->total_faults -= p->total_numa_faults;
	to->total_faults += p->total_numa_faults;
	from->nr_tasks--;
	to->nr_tasks++;

	spin_unlock(&from->lock);
	spin_unlock_irq(&to->lock);

	rcu_assign_pointer(p->numa_group, to);
	atomic_long_inc(&numa_groups_joined);
	put_numa_group(from);
}

/*
 * Current task @p took a shared fault on a page last used from @cpupid:
 * join the group of that user if it is found and the match is believed.
 * *priv is set when the match was refused, the fault being no evidence of
 * sharing then.
 */
static void task_numa_group(struct task_struct *p, int cpupid, int flags,
			    int *priv)
{
	struct numa_group *grp, *my_grp;
	struct task_struct *tsk;
	bool join = false;

	/* NUMA_GROUPS off: a task joins no group, and creates none. */
	if (!numa_feature(NUMA_GROUPS))
		return;
	/*
	 * A record that names no CPU (memory tiering keeps a page's access
	 * time there) finds no task: do not make a group for nothing, nor
	 * read past the runqueues. 6.1 did both; fixed before this slice.
	 */
	if (!cpupid_valid(cpupid))
		return;

	my_grp = deref_curr_numa_group(p);
	if (unlikely(!my_grp)) {
		my_grp = numa_group_create(p);
		if (!my_grp)
			return;
	}

	rcu_read_lock();
	tsk = rcu_dereference(cpu_rq(cpupid_to_cpu(cpupid))->curr);
	if (!cpupid_match_pid(tsk, cpupid))
		goto unlock;

	grp = rcu_dereference(tsk->numa_group);
	if (!grp ||
	    !numa_group_joins(my_grp->nr_tasks, my_grp, grp->nr_tasks, grp))
		goto unlock;

	if (!numa_group_match_trusted(tsk->mm == p->mm, flags)) {
		atomic_long_inc(&numa_groups_refused);
		*priv = 1;
		goto unlock;
	}

	/* The group may be on its way out: join only while it lives. */
	join = get_numa_group(grp);
unlock:
	rcu_read_unlock();

	if (join)
		numa_group_move(p, my_grp, grp);
}

/* @p leaves its group: @p is current (exec) or dead and being freed. */
static void numa_group_leave(struct task_struct *p)
{
	struct numa_group *grp = rcu_dereference_raw(p->numa_group);
	unsigned long flags;
	int i;

	if (!grp)
		return;

	spin_lock_irqsave(&grp->lock, flags);
	for (i = 0; i < NR_NUMA_HINT_FAULT_STATS * nr_node_ids; i++)
		grp->faults[i] -= p->numa_faults[i];
	grp->total_faults -= p->total_numa_faults;
	grp->nr_tasks--;
	spin_unlock_irqrestore(&grp->lock, flags);

	RCU_INIT_POINTER(p->numa_group, NULL);
	put_numa_group(grp);
}

static void numa_group_init_task(struct task_struct *p)
{
	RCU_INIT_POINTER(p->numa_group, NULL);
}

#ifdef CONFIG_SCHED_DEBUG
/* For /proc/PID/sched; caller holds rcu_read_lock(). */
static void numa_group_node_faults(struct task_struct *p, int nid,
				   unsigned long *shared,
				   unsigned long *private)
{
	struct numa_group *ng = rcu_dereference(p->numa_group);

	*shared = ng ? ng->faults[task_faults_idx(NUMA_MEM, nid, 0)] : 0;
	*private = ng ? ng->faults[task_faults_idx(NUMA_MEM, nid, 1)] : 0;
}

/*
 * sched/numa_balancing/groups in debugfs: groups alive, created and freed
 * since boot, joins taken and PID matches refused. A leak shows as "live"
 * staying above the number of groups of the tasks still alive.
 */
static int numa_groups_show(struct seq_file *m, void *v)
{
	long created = atomic_long_read(&numa_groups_created);
	long freed = atomic_long_read(&numa_groups_freed);

	seq_printf(m, "live %ld\n", created - freed);
	seq_printf(m, "created %ld\n", created);
	seq_printf(m, "freed %ld\n", freed);
	seq_printf(m, "joined %ld\n", atomic_long_read(&numa_groups_joined));
	seq_printf(m, "refused %ld\n", atomic_long_read(&numa_groups_refused));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(numa_groups);

void numa_groups_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("groups", 0444, dir, NULL, &numa_groups_fops);
}
#endif /* CONFIG_SCHED_DEBUG */

#ifdef CONFIG_NUMA_GROUPS_KUNIT_TEST
#include "numa_groups_test.h"
#endif
