// Negative example: the same through the tree's helpers.
struct sched_statistics { unsigned long nr_failed_migrations_hot, wait_sum; };
struct task_struct { struct sched_statistics stats; };
struct pglist_data { long vm_stat[8]; };

void account(struct task_struct *p, struct pglist_data *pgdat, int item)
{
	schedstat_inc(p->stats.nr_failed_migrations_hot);
	__schedstat_add(p->stats.wait_sum, 10);
	count_vm_event(item);
	count_vm_numa_events(item, 2);
	mod_node_page_state(pgdat, item, 1);
}
