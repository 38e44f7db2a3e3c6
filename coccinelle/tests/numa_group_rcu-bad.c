// Positive example: plain accesses to the RCU-protected pointer.
struct numa_group { int gid; };
struct task_struct { struct numa_group *numa_group; };

int gid_of(struct task_struct *p)
{
	struct numa_group *ng = p->numa_group;	/* expect */

	return ng ? ng->gid : 0;
}

void leave(struct task_struct *p)
{
	p->numa_group = 0;	/* expect */
}

int grouped(struct task_struct *p)
{
	return p->numa_group != 0;	/* expect */
}
