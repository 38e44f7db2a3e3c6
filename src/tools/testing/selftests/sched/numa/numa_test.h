/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the NUMA balancing selftests (and numa-sched's bench
 * workloads): the topology as sysfs shows it, pinning to a node, where
 * pages are (move_pages(2) in query mode), /proc/vmstat counters,
 * /proc/<pid>/task/<tid>/sched fields, and which options the running
 * kernel has (/proc/config.gz and debugfs sched/features).
 *
 * No libnuma: the two system calls needed are made directly, and
 * everything else is read from sysfs and procfs, as a test of the
 * kernel's own interfaces should.
 */
#ifndef NUMA_TEST_H
#define NUMA_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_setaffinity, CPU_SET */
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES	16
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define VMSTAT_FILE	"/proc/vmstat"
/* Why a test stops when it cannot tell what the kernel has. */
#define NO_CONFIG_MSG	"cannot read the kernel's config: CONFIG_IKCONFIG_PROC\n"
#define PAGE_SZ		4096UL

/* Parse a cpulist ("0-1,4") into @set; returns the number of CPUs. */
static inline int parse_cpulist(const char *s, cpu_set_t *set)
{
	int n = 0;

	CPU_ZERO(set);
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b; a++, n++)
			CPU_SET(a, set);
		s = (*end == ',') ? end + 1 : end;
	}
	return n;
}

static inline int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return (int)n;
}

/* Number of online nodes, from /sys/devices/system/node/online ("0-3"). */
static inline int nr_nodes(void)
{
	char buf[256];
	cpu_set_t set;

	if (read_file("/sys/devices/system/node/online", buf, sizeof(buf)) < 0)
		return -1;
	return parse_cpulist(buf, &set);
}

static inline int node_cpus(int node, cpu_set_t *set)
{
	char path[128], buf[256];

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return parse_cpulist(buf, set);
}

/* Restrict the calling thread to the CPUs of @node. */
static inline int pin_to_node(int node)
{
	cpu_set_t set;

	if (node_cpus(node, &set) <= 0)
		return -1;
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Restrict thread @tid (0: the calling thread) to CPU @cpu. */
static inline int pin_to_cpu(pid_t tid, int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(tid, sizeof(one), &one);
}

/* Allow thread @tid (0: the calling thread) on every CPU again. */
static inline int unpin_tid(pid_t tid)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		CPU_SET(cpu, &set);
	return sched_setaffinity(tid, sizeof(set), &set);
}

static inline int unpin(void)
{
	return unpin_tid(0);
}

/*
 * Count on which node each page of [addr, addr + len) is: move_pages(2)
 * with no target nodes only reports. Pages not present count nowhere, and
 * neither do, in 6.1, pages whose PTE the NUMA scanner has just made
 * PROT_NONE (follow_page() reports them as absent until the next fault):
 * judge residency against the region's size, not against what is seen.
 * @pid 0 is the calling process; another's addresses are its own.
 * Returns the number of pages reported present, -1 on error.
 */
static inline long pages_per_node_pid(pid_t pid, void *addr, size_t len,
				      long counts[MAX_NODES])
{
	unsigned long i, n = len / PAGE_SZ;
	void **pages = calloc(n, sizeof(*pages));
	int *status = calloc(n, sizeof(*status));
	long present = 0;

	memset(counts, 0, sizeof(long) * MAX_NODES);
	if (!pages || !status)
		goto out;
	for (i = 0; i < n; i++)
		pages[i] = (char *)addr + i * PAGE_SZ;
	if (syscall(SYS_move_pages, pid, n, pages, NULL, status, 0)) {
		present = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (status[i] >= 0 && status[i] < MAX_NODES) {
			counts[status[i]]++;
			present++;
		}
	}
out:
	free(pages);
	free(status);
	return present;
}

/*
 * pages_per_node_pid() from /proc/@pid/numa_maps, for the mapping that
 * begins at @addr: the page-table walk behind it counts the pages whose
 * PTE the NUMA scanner made PROT_NONE, which move_pages(2) cannot see. In
 * a region nothing touches any more, that can be every page: stress's
 * victim, its writers paused, showed 0% on the node migrate_pages(2) had
 * just moved it to, for 10 s. The mapping must be a VMA of its own, as
 * region_alloc()'s are: its MADV_NOHUGEPAGE keeps it from merging.
 * Returns the number of pages counted, -1 when no mapping begins at @addr.
 */
static inline long pages_per_node_maps(pid_t pid, void *addr,
				       long counts[MAX_NODES])
{
	char path[64], *line = NULL, *tok, *save;
	unsigned long start;
	long present = -1, n;
	size_t size = 0;
	int node;
	FILE *f;

	memset(counts, 0, sizeof(long) * MAX_NODES);
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (getline(&line, &size, f) > 0) {
		if (sscanf(line, "%lx ", &start) != 1 ||
		    start != (unsigned long)addr)
			continue;
		present = 0;
		for (tok = strtok_r(line, "\n ", &save); tok;
		     tok = strtok_r(NULL, "\n ", &save)) {
			if (sscanf(tok, "N%d=%ld", &node, &n) != 2 ||
			    node < 0 || node >= MAX_NODES)
				continue;
			counts[node] += n;
			present += n;
		}
		break;
	}
	free(line);
	fclose(f);
	return present;
}

/* pages_per_node_pid() of the calling process. */
static inline long pages_per_node(void *addr, size_t len, long counts[MAX_NODES])
{
	return pages_per_node_pid(0, addr, len, counts);
}

/*
 * pages_per_node(), once at least 90% of the region is seen: pages the
 * scanner has just made PROT_NONE come back at their next fault, within
 * milliseconds for a region that is being written. Gives up after 2 s
 * and returns what it saw last.
 */
static inline long pages_per_node_settled(void *addr, size_t len, long counts[MAX_NODES])
{
	long present = 0;
	int i;

	for (i = 0; i < 40; i++) {
		present = pages_per_node(addr, len, counts);
		if (present < 0 || present * 10 >= (long)(len / PAGE_SZ) * 9)
			break;
		usleep(50 * 1000);
	}
	return present;
}

/* One counter of /proc/vmstat, -1 when absent. */
static inline long long vmstat(const char *name)
{
	FILE *f = fopen(VMSTAT_FILE, "r");
	char key[64];
	long long val, ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2) {
		if (!strcmp(key, name)) {
			ret = val;
			break;
		}
	}
	fclose(f);
	return ret;
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* /proc/<tid>/sched of any task (every thread has /proc/<tid>), or NULL. */
static inline FILE *sched_file_open(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/sched", tid);
	return fopen(path, "r");
}

/*
 * The value of "field" in /proc/<tid>/sched, for the lines
 * "field : value" printed by kernel/sched/debug.c. Returns 0 if found.
 */
static inline int sched_field(pid_t tid, const char *field, long long *val)
{
	char line[256];
	size_t len = strlen(field);
	FILE *f = sched_file_open(tid);
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		if (strncmp(p, field, len))
			continue;
		p += len;
		while (*p == ' ')
			p++;
		if (*p != ':')
			continue;
		*val = strtoll(p + 1, NULL, 10);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/*
 * Set debugfs sched/numa_balancing/@name to @val; when @old is not NULL,
 * first save the value it had there (32 bytes). Returns 0 on success.
 */
static inline int balancing_knob(const char *name, char *old, const char *val)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/sched/numa_balancing/%s", name);
	if (old) {
		if (read_file(path, old, 32) < 0)
			return -1;
		old[strcspn(old, "\n")] = '\0';
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%s\n", val);
	return fclose(f);
}

/*
 * The running kernel's configuration: /proc/config.gz (CONFIG_IKCONFIG_PROC,
 * which this directory's config asks for), else /boot/config-<release>.
 * Returns an open stream of its text, NULL when neither can be read.
 */
static inline FILE *kernel_config_open(bool *piped)
{
	char path[128];
	struct utsname u;

	*piped = !access("/proc/config.gz", R_OK);
	if (*piped)
		return popen("gzip -dc /proc/config.gz", "r");
	if (uname(&u))
		return NULL;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	return fopen(path, "r");
}

/*
 * CONFIG_<name> in the running kernel's configuration: 'y' or 'm' when
 * set, 'n' for "# CONFIG_<name> is not set", 0 when the file does not name
 * it (its dependencies unmet, or a kernel that has no such option), -1
 * when there is no configuration to read.
 */
static inline int kernel_config(const char *name)
{
	char line[256], set[80], unset[96];
	int ret = 0;
	bool piped;
	FILE *f = kernel_config_open(&piped);

	if (!f)
		return -1;
	snprintf(set, sizeof(set), "CONFIG_%s=", name);
	snprintf(unset, sizeof(unset), "# CONFIG_%s is not set\n", name);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, set, strlen(set))) {
			ret = line[strlen(set)];
			break;
		}
		if (!strcmp(line, unset)) {
			ret = 'n';
			break;
		}
	}
	if (piped) {
		/* Read to the end: gzip must not die of SIGPIPE. */
		while (fgets(line, sizeof(line), f))
			;
		if (pclose(f))
			return -1;
	} else {
		fclose(f);
	}
	return ret;
}

/*
 * Whether the kernel was built with CONFIG_<name>=y: 1 or 0, -1 when its
 * configuration cannot be read.
 */
static inline int feature_built(const char *name)
{
	int v = kernel_config(name);

	return v < 0 ? -1 : v == 'y';
}

/*
 * The unmodified 6.1 tree: NUMA balancing, with the features of the 2013
 * series under no option of ours (its configuration has no
 * CONFIG_NUMA_CPUPID line at all, where ours has one either way).
 */
static inline bool kernel_upstream(void)
{
	return kernel_config("NUMA_BALANCING") == 'y' && !kernel_config("NUMA_CPUPID");
}

/*
 * Whether scheduler feature @name is off in debugfs sched/features
 * ("NO_<name>" listed): an option built in and turned off at run time.
 */
static inline bool sched_feature_off(const char *name)
{
	char buf[4096], want[64];

	if (read_file("/sys/kernel/debug/sched/features", buf, sizeof(buf)) < 0)
		return false;
	snprintf(want, sizeof(want), "NO_%s", name);
	for (char *tok = strtok(buf, "\n "); tok; tok = strtok(NULL, "\n ")) {
		if (!strcmp(tok, want))
			return true;
	}
	return false;
}

/*
 * Whether the kernel behaves as with CONFIG_<name>: built with it, and the
 * scheduler feature of that name (the options that have one) not turned
 * off at run time. Tests of behaviour ask this; tests of what the build
 * adds (a debugfs file, a sysctl) ask feature_built(). Returns 1 or 0, -1
 * when the kernel's configuration cannot be read.
 */
static inline int feature_enabled(const char *name)
{
	int built = feature_built(name);

	if (built > 0 && sched_feature_off(name))
		return 0;
	return built;
}

/*
 * For a test's main(), after kselftest.h and ksft_print_header(): a kernel
 * built without CONFIG_NUMA_BALANCING (the matrix's reference row) has
 * nothing these tests look at; balancing.sh checks that state instead.
 */
#define SKIP_WITHOUT_BALANCING()					\
	do {								\
		int balancing_ = feature_enabled("NUMA_BALANCING");	\
									\
		if (balancing_ < 0)					\
			ksft_exit_fail_msg(NO_CONFIG_MSG);		\
		if (!balancing_)					\
			ksft_exit_skip("kernel built without CONFIG_NUMA_BALANCING\n"); \
	} while (0)

/*
 * For a feature test's main(), after kselftest.h: the KTAP header, a skip
 * without NUMA balancing (SKIP_WITHOUT_BALANCING()) or with fewer than two
 * nodes, a failure when the kernel's configuration cannot be read, and a
 * line saying whether CONFIG_<name> is on.
 * Evaluates to feature_enabled(@name): 1 when the option is built in and
 * not turned off at run time, else 0.
 */
#define FEATURE_TEST_START(name)					\
	({								\
		const char *name_ = (name);				\
		int nodes_ = nr_nodes(), on_ = feature_enabled(name_);	\
		int built_ = feature_built(name_);			\
									\
		ksft_print_header();					\
		SKIP_WITHOUT_BALANCING();				\
		if (nodes_ < 2)						\
			ksft_exit_skip("needs 2 nodes, found %d\n", nodes_); \
		if (on_ < 0)						\
			ksft_exit_fail_msg(NO_CONFIG_MSG);		\
		ksft_print_msg("CONFIG_%s is %s%s\n", name_,		\
			       built_ > 0 ? "on" : "off",		\
			       built_ > 0 && !on_ ?			\
			       ", turned off in sched/features" : ""); \
		on_;							\
	})

/*
 * For a test's main(): one test of the plan skipped, as "ok N NAME # SKIP
 * REASON", the form the kernel's KTAP parser (kunit.py) reads.
 * kselftest.h's ksft_test_result_skip() prints "ok N # SKIP REASON",
 * which the parser does not take for a result line, so a skip in the
 * middle of a plan would throw the numbering of the next tests off.
 */
#define test_skip(name, fmt, ...)					\
	do {								\
		ksft_cnt.ksft_xskip++;					\
		printf("ok %d %s # SKIP " fmt, ksft_test_num(), name,	\
		       ##__VA_ARGS__);					\
	} while (0)

/*
 * A task's NUMA fault averages, summed over the nodes: the task_private
 * and task_shared fields of the "numa_faults node=..." lines of
 * /proc/<tid>/sched (any task: /proc/<tid> exists for every thread, listed
 * or not). Returns 0, or -1 if the file is missing.
 */
static inline int task_numa_faults(pid_t tid, long *priv, long *shared)
{
	char line[256];
	unsigned long tp, ts, gp, gs;
	FILE *f = sched_file_open(tid);
	int n;

	*priv = *shared = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "numa_faults node=%d task_private=%lu task_shared=%lu group_private=%lu group_shared=%lu",
			   &n, &tp, &ts, &gp, &gs) == 5) {
			*priv += tp;
			*shared += ts;
		}
	}
	fclose(f);
	return 0;
}

/*
 * The "current_node=<n>, numa_group_id=<gid>" line of /proc/<tid>/sched:
 * where the task runs and its numa_group (0: none). Returns 0, or -1.
 */
static inline int task_numa_ids(pid_t tid, int *node, int *gid)
{
	char line[256];
	FILE *f = sched_file_open(tid);
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "current_node=%d, numa_group_id=%d", node, gid) == 2) {
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* mbind(2)'s mode and 5.12's flag, spelt here: older libc headers lack it. */
#define MPOL_BIND_		2
#define MPOL_F_NUMA_BALANCING_	0x2000

/*
 * Bind [addr, addr + len) to the nodes of @mask, and let NUMA balancing
 * scan it: it takes hinting faults there, but cannot move the pages out
 * of @mask. (Without the flag, a mapping with a policy of its own is not
 * scanned; 6.1 scans shared memory only with it.)
 */
static inline int region_bind(void *addr, size_t len, unsigned long mask)
{
	return syscall(SYS_mbind, addr, len, MPOL_BIND_ | MPOL_F_NUMA_BALANCING_,
		       &mask, sizeof(mask) * 8, 0);
}

/* An anonymous, page-aligned private region, not yet touched. */
static inline void *region_alloc(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* Small pages: a THP would move as one and blur the counts. */
	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

/* Write one byte per page: a write fault, or a NUMA hinting fault. */
static inline void region_touch(void *addr, size_t len, unsigned char v)
{
	volatile unsigned char *p = addr;
	size_t off;

	for (off = 0; off < len; off += PAGE_SZ)
		p[off] = v;
}

/* Read one byte per page: a read fault, or a NUMA hinting fault. */
static inline unsigned char region_read(const void *addr, size_t len)
{
	const volatile unsigned char *p = addr;
	unsigned char sum = 0;
	size_t off;

	for (off = 0; off < len; off += PAGE_SZ)
		sum += p[off];
	return sum;
}

/*
 * Set the @n knobs @names to @vals, saving each old value in @saved (32
 * bytes each) for balancing_knobs_restore(). On a failure the knobs
 * already set are restored and -1 is returned, with @names[*@failed].
 */
static inline int balancing_knobs_set(const char *const *names,
				      const char *const *vals, int n,
				      char (*saved)[32], int *failed)
{
	int i, j;

	for (i = 0; i < n; i++) {
		if (balancing_knob(names[i], saved[i], vals[i])) {
			for (j = 0; j < i; j++)
				balancing_knob(names[j], NULL, saved[j]);
			*failed = i;
			return -1;
		}
	}
	return 0;
}

static inline void balancing_knobs_restore(const char *const *names, int n,
					   char (*saved)[32])
{
	int i;

	for (i = 0; i < n; i++)
		balancing_knob(names[i], NULL, saved[i]);
}

/* Write @s to @path: 0, or the errno of the failed write. */
static inline int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* The number at the start of @path, -1 when unreadable. */
static inline long read_long(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* debugfs sched/numa_balancing/groups (CONFIG_NUMA_GROUPS): "name value" lines. */
#define GROUPS_FILE	"/sys/kernel/debug/sched/numa_balancing/groups"

/* The value of line @name of GROUPS_FILE, -1 when absent. */
static inline long groups_stat(const char *name)
{
	char buf[512], *p;
	size_t len = strlen(name);

	if (read_file(GROUPS_FILE, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, name, len) && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
	}
	return -1;
}

/* Distinct non-zero numa_group_ids among every task of the system. */
static inline int groups_in_use(void)
{
	int gids[1024], nr = 0, i;
	struct dirent *pe, *te;
	DIR *proc = opendir("/proc");

	if (!proc)
		return -1;
	while ((pe = readdir(proc))) {
		char path[300];
		DIR *task;

		if (pe->d_name[0] < '1' || pe->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", pe->d_name);
		task = opendir(path);
		if (!task)
			continue;
		while ((te = readdir(task))) {
			int node, gid;

			if (te->d_name[0] < '1' || te->d_name[0] > '9')
				continue;
			if (task_numa_ids(atoi(te->d_name), &node, &gid) || !gid)
				continue;
			for (i = 0; i < nr && gids[i] != gid; i++)
				;
			if (i == nr && nr < (int)ARRAY_SIZE(gids))
				gids[nr++] = gid;
		}
		closedir(task);
	}
	closedir(proc);
	return nr;
}

/* debugfs sched/numa_balancing/fbq (CONFIG_NUMA_FBQ): one line per online CPU. */
#define FBQ_FILE	"/sys/kernel/debug/sched/numa_balancing/fbq"

struct fbq_sums {
	int cpus;		/* lines read */
	long numa, preferred;	/* sums over the CPUs */
	bool sane;		/* preferred <= numa <= running on every line */
};

static inline int fbq_read_sums(struct fbq_sums *s)
{
	char buf[8192], *line;
	int cpu, node;
	unsigned int nr, numa, pref;

	memset(s, 0, sizeof(*s));
	s->sane = true;
	if (read_file(FBQ_FILE, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (sscanf(line, "cpu %d node %d nr_running %u nr_numa_running %u nr_preferred_running %u",
			   &cpu, &node, &nr, &numa, &pref) != 5) {
			printf("# unexpected line: %s\n", line);
			return -1;
		}
		if (pref > numa || numa > nr || nr > 1000000) {
			printf("# insane: %s\n", line);
			s->sane = false;
		}
		s->cpus++;
		s->numa += numa;
		s->preferred += pref;
	}
	return 0;
}

/*
 * Occupy every CPU of @node but its first @spare with a busy child pinned
 * to it. Their pids are appended to @pids (room for @max), *@nr counting
 * them. Returns *@nr, or -1 when one could not be started; those that
 * were are in @pids all the same, for kill_children().
 */
static inline int spin_on_node(int node, int spare, pid_t *pids, int max, int *nr)
{
	cpu_set_t set;
	int cpu;

	if (node_cpus(node, &set) < 0)
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		pid_t pid;

		if (!CPU_ISSET(cpu, &set) || spare-- > 0)
			continue;
		if (*nr >= max)
			return -1;
		pid = fork();
		if (pid < 0)
			return -1;
		if (!pid) {
			/* Not beyond the test, even when a timeout kills it. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			pin_to_cpu(0, cpu);
			for (;;)
				;
		}
		pids[(*nr)++] = pid;
	}
	return *nr;
}

/* spin_on_node() on every CPU of nodes [@first, @last]. */
static inline int spin_on_nodes(int first, int last, pid_t *pids, int max, int *nr)
{
	int node;

	for (node = first; node <= last; node++) {
		if (spin_on_node(node, 0, pids, max, nr) < 0)
			return -1;
	}
	return *nr;
}

/* SIGKILL and reap the children in @pids[0..*nr), leaving *nr at 0. */
static inline void kill_children(pid_t *pids, int *nr)
{
	while (*nr > 0) {
		pid_t pid = pids[--*nr];

		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

#endif /* NUMA_TEST_H */
