// Negative example: the same accesses through the RCU accessors.
struct numa_group { int gid; };
struct task_struct { struct numa_group *numa_group; };

int gid_of(struct task_struct *p)
{
	struct numa_group *ng;
	int gid = 0;

	rcu_read_lock();
	ng = rcu_dereference(p->numa_group);
	if (ng)
		gid = ng->gid;
	rcu_read_unlock();
	return gid;
}

void leave(struct task_struct *p)
{
	RCU_INIT_POINTER(p->numa_group, 0);
}

int grouped(struct task_struct *p)
{
	return rcu_access_pointer(p->numa_group) != 0;
}

struct numa_group *own(struct task_struct *p)
{
	return rcu_dereference_protected(p->numa_group, p == current);
}
