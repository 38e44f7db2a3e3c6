// Negative example: every path puts the reference or hands it over.
struct numa_group;
struct task_struct { struct numa_group *numa_group; };
int get_numa_group(struct numa_group *grp);
void put_numa_group(struct numa_group *grp);
int busy(void);

int join(struct task_struct *p, struct numa_group *grp)
{
	if (!get_numa_group(grp))
		goto no_join;
	if (busy()) {
		put_numa_group(grp);
		return -2;
	}
	rcu_assign_pointer(p->numa_group, grp);
	return 0;
no_join:
	return -1;
}

int peek(struct numa_group *grp)
{
	int ret = 0;

	if (get_numa_group(grp)) {
		ret = busy();
		put_numa_group(grp);
	}
	return ret;
}
