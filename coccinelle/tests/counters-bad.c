// Positive example: statistics updated by hand.
struct sched_statistics { unsigned long nr_failed_migrations_hot, wait_sum; };
struct task_struct { struct sched_statistics stats; };
struct pglist_data { long vm_stat[8]; };

void account(struct task_struct *p, struct pglist_data *pgdat, int item)
{
	p->stats.nr_failed_migrations_hot++;	/* expect */
	p->stats.wait_sum += 10;	/* expect */
	__this_cpu_inc(vm_event_states.event[item]);	/* expect */
	atomic_long_inc(&pgdat->vm_stat[item]);	/* expect */
}
