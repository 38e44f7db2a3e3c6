/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record NUMA balancing keeps in each page of who touched it last.
 *
 * Every NUMA hinting fault exchanges the page's record (a field of
 * page->flags, LAST_CPUPID_*, or page->_last_cpupid when the flags are
 * full) for the faulting task's. What the record holds depends on
 * CONFIG_NUMA_CPUPID:
 *
 *  - on: the CPU the task ran on and the low LAST__PID_SHIFT (8) bits of
 *    its PID. The node is derived from the CPU, so the two-stage migration
 *    filter still works by node; the PID tells a private fault (same task
 *    as last time) from a shared one, and the CPU lets NUMA_GROUPS find
 *    the other task: whoever runs on that CPU now, if its PID matches.
 *    PIDs that agree in their low 8 bits collide; the seeds accept that,
 *    and the group code checks for it before it trusts a match.
 *
 *  - off: the node only, as before the 2013 series, in NODES_SHIFT + 1
 *    bits: one more than a node id needs, so that the unset record below
 *    is no node's. The helpers keep their names so that the fault paths
 *    need no #ifdef: a "cpupid" is then a node id, every PID matches
 *    (every fault is private), and there is no CPU to look a task up on.
 *    The migration path applies the two-stage filter to the unset record
 *    as to any other node that is not the destination, as the last-nid
 *    kernels did: a page's first fault never moves it.
 *
 * An all-ones record is "unset": a page never faulted on, just freed, or
 * reused after copy-on-write. Its first fault counts as private. With
 * the {cpu,pid} record, a task whose truncated PID is all ones looks like
 * an unset record too: its faults are private whoever touched the page
 * before.
 *
 * Included from <linux/mm.h>, after page_to_nid() and cpu_to_node().
 */
#ifndef _LINUX_NUMA_CPUPID_H
#define _LINUX_NUMA_CPUPID_H

#ifdef CONFIG_NUMA_BALANCING
#define NUMA_CPUPID_UNSET	(-1 & LAST_CPUPID_MASK)
#endif

#if defined(CONFIG_NUMA_BALANCING) && defined(CONFIG_NUMA_CPUPID)

static inline int cpu_pid_to_cpupid(int cpu, int pid)
{
	return (cpu & LAST__CPU_MASK) << LAST__PID_SHIFT | (pid & LAST__PID_MASK);
}

static inline int cpupid_to_pid(int cpupid)
{
	return cpupid & LAST__PID_MASK;
}

static inline int cpupid_to_cpu(int cpupid)
{
	return (cpupid >> LAST__PID_SHIFT) & LAST__CPU_MASK;
}

static inline int cpupid_to_nid(int cpupid)
{
	return cpu_to_node(cpupid_to_cpu(cpupid));
}

/* No task recorded: the page's next fault is its first. */
static inline bool cpupid_pid_unset(int cpupid)
{
	return cpupid_to_pid(cpupid) == LAST__PID_MASK;
}

static inline bool cpupid_cpu_unset(int cpupid)
{
	return cpupid_to_cpu(cpupid) == LAST__CPU_MASK;
}

/* Does @pid, truncated as the record truncates it, match the record? */
static inline bool __cpupid_match_pid(pid_t pid, int cpupid)
{
	return (pid & LAST__PID_MASK) == cpupid_to_pid(cpupid);
}

#define cpupid_match_pid(task, cpupid) __cpupid_match_pid((task)->pid, cpupid)

#elif defined(CONFIG_NUMA_BALANCING) /* !NUMA_CPUPID: the record is the last node */

static inline int cpu_pid_to_cpupid(int cpu, int pid)
{
	return cpu_to_node(cpu) & LAST_CPUPID_MASK;
}

static inline int cpupid_to_pid(int cpupid)
{
	return -1;
}

/* No CPU is recorded: no task can be looked up from a page. */
static inline int cpupid_to_cpu(int cpupid)
{
	return -1;
}

static inline int cpupid_to_nid(int cpupid)
{
	return cpupid;
}

static inline bool cpupid_pid_unset(int cpupid)
{
	return (cpupid & LAST_CPUPID_MASK) == NUMA_CPUPID_UNSET;
}

static inline bool cpupid_cpu_unset(int cpupid)
{
	return true;
}

/* Without PIDs every fault is private. */
static inline bool __cpupid_match_pid(pid_t pid, int cpupid)
{
	return true;
}

#define cpupid_match_pid(task, cpupid) __cpupid_match_pid((task)->pid, cpupid)

#else /* !CONFIG_NUMA_BALANCING: no record at all */

static inline int cpu_pid_to_cpupid(int cpu, int pid)
{
	return -1;
}

static inline int cpupid_to_pid(int cpupid)
{
	return -1;
}

static inline int cpupid_to_cpu(int cpupid)
{
	return -1;
}

static inline int cpupid_to_nid(int cpupid)
{
	return -1;
}

static inline bool cpupid_pid_unset(int cpupid)
{
	return true;
}

static inline bool cpupid_match_pid(struct task_struct *task, int cpupid)
{
	return false;
}

#endif /* CONFIG_NUMA_BALANCING && CONFIG_NUMA_CPUPID */

#endif /* _LINUX_NUMA_CPUPID_H */
