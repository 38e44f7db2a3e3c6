// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_NUMA_FBQ: what does not sit on the hot path; see numa_fbq.h.
 * Part of fair.c's unit (included at its end).
 *
 * debugfs sched/numa_balancing/fbq shows each online CPU's counts and
 * class, one line per CPU:
 *
 *   cpu 2 node 1 nr_running 3 nr_numa_running 2 nr_preferred_running 1 class regular
 *
 * The counts are read without the runqueue lock: each is exact when read,
 * but a line is not a snapshot of one instant, and neither is the file.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "numa.h"

#ifdef CONFIG_SCHED_DEBUG
static const char * const fbq_type_names[] = {
	[regular]	= "regular",
	[remote]	= "remote",
	[all]		= "all",
};

static int numa_fbq_show(struct seq_file *m, void *v)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);
		/* Unlocked: each word is read once, whole; see the top. */
		unsigned int nr = READ_ONCE(rq->nr_running);
		unsigned int nr_numa = READ_ONCE(rq->nr_numa_running);
		unsigned int nr_pref = READ_ONCE(rq->nr_preferred_running);

		seq_printf(m, "cpu %d node %d nr_running %u nr_numa_running %u nr_preferred_running %u class %s\n",
			   cpu, cpu_to_node(cpu), nr, nr_numa, nr_pref,
			   fbq_type_names[fbq_classify(nr, nr_numa, nr_pref)]);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(numa_fbq);

void numa_fbq_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("fbq", 0444, dir, NULL, &numa_fbq_fops);
}
#endif /* CONFIG_SCHED_DEBUG */

#include "numa_fbq_test.h"
