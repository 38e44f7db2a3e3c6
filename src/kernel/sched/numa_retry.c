// SPDX-License-Identifier: GPL-2.0
/*
 * The periodic retry of the migration to the preferred node (base, always
 * on with NUMA_BALANCING; the 2013 series' "sched: numa: Retry migration
 * of tasks to CPU on a preferred node"), and its knob.
 *
 * A task whose preferred node could not take it retries every
 * min(1s, scan period / 16), the tree's adaptive interval. debugfs
 * sched/numa_balancing/migrate_retry_ms fixes the interval instead, so
 * that the cover letter's "periodretry" comparison can be reproduced
 * without a rebuild: 0 (the default) keeps the adaptive interval, 1 to
 * NUMA_RETRY_MS_MAX sets one in milliseconds. Any other write (negative,
 * non-numeric, empty, too large) fails with -EINVAL and leaves the value
 * as it was.
 *
 * Part of fair.c's unit (included before numa_migrate_preferred()).
 */
#include <linux/debugfs.h>
#include <linux/uaccess.h>

#include "numa.h"

#define NUMA_RETRY_MS_MAX	60000

static unsigned int numa_migrate_retry_ms;

/* When @p, current, should try for its preferred node again. */
static unsigned long numa_retry_interval(struct task_struct *p)
{
	unsigned int ms = READ_ONCE(numa_migrate_retry_ms);

	if (ms)
		return max(1UL, msecs_to_jiffies(ms));
	return min_t(unsigned long, HZ, msecs_to_jiffies(p->numa_scan_period) / 16);
}

#ifdef CONFIG_SCHED_DEBUG
static ssize_t numa_retry_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	unsigned int ms;
	int ret;

	/* Not a number, negative, or past UINT_MAX (-ERANGE): all -EINVAL. */
	ret = kstrtouint_from_user(ubuf, count, 10, &ms);
	if (ret || ms > NUMA_RETRY_MS_MAX)
		return -EINVAL;
	WRITE_ONCE(numa_migrate_retry_ms, ms);
	*ppos += count;
	return count;
}

static int numa_retry_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", READ_ONCE(numa_migrate_retry_ms));
	return 0;
}

static int numa_retry_open(struct inode *inode, struct file *file)
{
	return single_open(file, numa_retry_show, NULL);
}

static const struct file_operations numa_retry_fops = {
	.open		= numa_retry_open,
	.read		= seq_read,
	.write		= numa_retry_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

void numa_retry_debugfs_init(struct dentry *dir)
{
	debugfs_create_file("migrate_retry_ms", 0644, dir, NULL, &numa_retry_fops);
}
#endif /* CONFIG_SCHED_DEBUG */
