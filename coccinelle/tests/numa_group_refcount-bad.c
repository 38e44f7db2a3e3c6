// Positive example: the early return leaks the reference.
struct numa_group;
struct task_struct { struct numa_group *numa_group; };
int get_numa_group(struct numa_group *grp);
void put_numa_group(struct numa_group *grp);
int busy(void);

int join(struct task_struct *p, struct numa_group *grp)
{
	if (!get_numa_group(grp))	/* expect */
		return -1;
	if (busy())
		return -2;
	put_numa_group(grp);
	return 0;
}

int peek(struct numa_group *grp)
{
	int ret = 0;

	if (get_numa_group(grp)) {	/* expect */
		ret = busy();
		if (ret)
			return ret;
		put_numa_group(grp);
	}
	return ret;
}

int join_cond(struct task_struct *p, struct numa_group *grp, int join)
{
	if (join && !get_numa_group(grp))	/* expect */
		goto no_join;
	if (busy())
		return -2;
	rcu_assign_pointer(p->numa_group, grp);
	return 0;
no_join:
	return -1;
}
