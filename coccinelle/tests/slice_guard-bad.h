/* Positive example: feature code outside its guard in a shared header. */
struct numa_group;

struct task_struct {
	int prio;
	struct numa_group *numa_group;	/* expect */
#ifdef CONFIG_NUMA_SWAP
	int numa_swap_count;
#endif
};

struct rq {
	unsigned int nr_running;
#ifdef CONFIG_NUMA_SWAP
	unsigned int nr_numa_running;	/* expect */
#endif
};

int cpupid_to_cpu(int cpupid);	/* expect */

static inline int task_numa_group_id(struct task_struct *p)	/* expect */
{
	return 0;
}

extern unsigned int sysctl_numa_balancing_migrate_deferred;	/* expect */

/* NUMA_BALANCING is a guard for fields only, never for functions. */
#ifdef CONFIG_NUMA_BALANCING
void numa_group_free(struct numa_group *grp);	/* expect */
#endif
