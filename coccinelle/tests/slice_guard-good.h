/* Negative example: each feature inside its guard, stubs in the #else. */
struct numa_group;

struct task_struct {
	int prio;
#ifdef CONFIG_NUMA_GROUPS
	struct numa_group *numa_group;
#endif
};

/* Fields may stand under NUMA_BALANCING: the layout stays option-free. */
struct mm_like {
#ifdef CONFIG_NUMA_BALANCING
	struct numa_group *numa_group;
	unsigned int numa_migrate_deferred;
#endif
};

struct rq {
	unsigned int nr_running;
#if defined(CONFIG_NUMA_FBQ)
	unsigned int nr_numa_running;
	unsigned int nr_preferred_running;
#endif
};

#ifdef CONFIG_NUMA_CPUPID
int cpupid_to_cpu(int cpupid);
#endif

#ifdef CONFIG_NUMA_GROUPS
int task_numa_group_id(struct task_struct *p);
#else
static inline int task_numa_group_id(struct task_struct *p)
{
	return 0;
}
#endif

#if IS_ENABLED(CONFIG_NUMA_MIGRATE_DEFER)
extern unsigned int sysctl_numa_balancing_migrate_deferred;
#endif
