// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded knobs in debugfs sched/numa_balancing/ (base, always on with
 * NUMA_BALANCING and SCHED_DEBUG).
 *
 * debugfs_create_u32() takes any value, and one is fatal: in this tree a
 * write of 0 to scan_size_mb makes task_nr_scan_windows() divide by zero
 * at the next scan of any task (fixed upstream after 6.1). Others are
 * silently wrong: 4294967296 is stored as 0, and a period of billions of
 * milliseconds overflows the int arithmetic of update_task_scan_period().
 * A knob here takes a decimal number between its minimum and its
 * maximum; any other write (negative, not a number, empty, out of range,
 * longer than 23 bytes) fails with -EINVAL and leaves the value as it was.
 *
 *   scan_size_mb       MB of address space marked per scan, 1 to 65536;
 *   scan_delay_ms, scan_period_min_ms, scan_period_max_ms,
 *   hot_threshold_ms   0 to NUMA_KNOB_MS_MAX, an hour (these four and
 *                      scan_size_mb replace the tree's plain u32 files);
 *   migrate_retry_ms   the retry interval of numa_retry.c, 0 (adaptive)
 *                      to NUMA_RETRY_MS_MAX.
 *
 * And one read-only count, preferred_changes (numa_retry.c's).
 *
 * Part of fair.c's unit (included after numa_retry.c).
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "numa.h"

#ifdef CONFIG_SCHED_DEBUG

#define NUMA_SCAN_SIZE_MB_MAX	65536
#define NUMA_KNOB_MS_MAX	(60 * 60 * MSEC_PER_SEC)
/* A write's bytes: "4294967295\n" with room for a few leading zeros. */
#define NUMA_KNOB_BUF_LEN	24

struct numa_knob {
	const char	*name;
	unsigned int	*val;
	unsigned int	min;
	unsigned int	max;
};

static const struct numa_knob numa_knobs[] = {
	{ "scan_delay_ms", &sysctl_numa_balancing_scan_delay, 0, NUMA_KNOB_MS_MAX },
	{ "scan_period_min_ms", &sysctl_numa_balancing_scan_period_min, 0, NUMA_KNOB_MS_MAX },
	{ "scan_period_max_ms", &sysctl_numa_balancing_scan_period_max, 0, NUMA_KNOB_MS_MAX },
	{ "scan_size_mb", &sysctl_numa_balancing_scan_size, 1, NUMA_SCAN_SIZE_MB_MAX },
	{ "hot_threshold_ms", &sysctl_numa_balancing_hot_threshold, 0, NUMA_KNOB_MS_MAX },
	{ "migrate_retry_ms", &numa_migrate_retry_ms, 0, NUMA_RETRY_MS_MAX },
};

static ssize_t numa_knob_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	const struct numa_knob *knob = m->private;
	char buf[NUMA_KNOB_BUF_LEN];
	unsigned int val;

	/*
	 * kstrtouint_from_user() would parse the first bytes of a longer
	 * write and take "1" followed by junk past them: refuse it whole.
	 */
	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	/* Not a number, negative, or past UINT_MAX (-ERANGE): all -EINVAL. */
	if (kstrtouint(buf, 10, &val) || val < knob->min || val > knob->max)
		return -EINVAL;
	WRITE_ONCE(*knob->val, val);
	*ppos += count;
	return count;
}

static int numa_knob_show(struct seq_file *m, void *v)
{
	const struct numa_knob *knob = m->private;

	seq_printf(m, "%u\n", READ_ONCE(*knob->val));
	return 0;
}

static int numa_knob_open(struct inode *inode, struct file *file)
{
	return single_open(file, numa_knob_show, inode->i_private);
}

static const struct file_operations numa_knob_fops = {
	.open		= numa_knob_open,
	.read		= seq_read,
	.write		= numa_knob_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* preferred_changes: read-only, numa_retry.c's count. */
static int numa_preferred_changes_get(void *data, u64 *val)
{
	*val = atomic_long_read(&numa_preferred_changes);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(numa_preferred_changes_fops,
			 numa_preferred_changes_get, NULL, "%llu\n");

void numa_knobs_debugfs_init(struct dentry *dir)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(numa_knobs); i++)
		debugfs_create_file(numa_knobs[i].name, 0644, dir,
				    (void *)&numa_knobs[i], &numa_knob_fops);
	debugfs_create_file_unsafe("preferred_changes", 0444, dir, NULL,
				   &numa_preferred_changes_fops);
}

#endif /* CONFIG_SCHED_DEBUG */
