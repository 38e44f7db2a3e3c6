// SPDX-License-Identifier: GPL-2.0
/*
 * The feature slices under load for SECONDS (the first argument, default
 * 60; make stress: STRESS_SECS, through KSELFTEST_STRESS_ARGS), best on a
 * debug kernel with fault injection (numa-sched's configs/debug.config
 * and configs/fault-inject.config). SEED (the second argument; make
 * stress: STRESS_SEED) seeds every worker's draws; the run prints it.
 * Workers, each a process of its own, all at once:
 *
 *   storm     fork/exec/exit: a process of three writer threads, plus a
 *             second process sharing a writable region with it (shared
 *             memory bound to every node with MPOL_F_NUMA_BALANCING, which
 *             6.1 scans), plus forks from inside them; each ends by exit,
 *             by exec (from the leader or from another thread, which then
 *             takes its place), or by SIGKILL. Two such workers.
 *   churn     one process of four writer threads (a big group) creating
 *             and joining short-lived threads that write the same buffer.
 *   swap      pairs of busy processes, each with its memory bound to the
 *             other's starting node (what makes NUMA_SWAP trade them), both
 *             killed after 1-4 s, in random order: swaps while tasks exit.
 *   hotplug   a random CPU (not 0) offlined and onlined through sysfs.
 *   pressure  a node's free memory allocated with MPOL_PREFERRED: the node
 *             fills to its low watermark and the rest spills over; held,
 *             freed. Meanwhile NUMA migrations to it are
 *             refused (6.1 wants the high watermark plus the pages free).
 *             A swap pair bound to that node may need memory there, and
 *             the OOM killer, confined to the node, then kills: the
 *             filler first (oom_score_adj 1000), a swap mover, a short
 *             injection victim or a fuzz process next (500, ending soon
 *             anyway), the long-lived victim then (100), every other task
 *             of the test last (-999: still a candidate, so that a lone
 *             one never leaves the OOM killer without a victim). Seen
 *             before this order (make test on a fresh machine, 120 s):
 *             with the filler already killed and its memory not yet
 *             back, a second kill confined to node 1 took the churn
 *             worker, and "every worker ran and stopped" failed.
 *   knobs     every NUMA balancing sysctl and debugfs knob written with bad
 *             values (negative, huge, out of range, non-numeric, empty,
 *             scan_size_mb=0 among them); each write must fail and leave
 *             the value as it was. Now and then valid writes too: balancing
 *             off and on, scan_size_mb at 1 and back.
 *   fuzz      system calls with arguments valid and invalid on memory
 *             being scanned (stress_fuzz.c).
 *   inject    allocation failures on the balancing paths, through
 *             fail-nth, in victims writing memory they must take back
 *             (stress_inject.c).
 *
 * Then, with the load gone:
 *   - each worker ran and made progress;
 *   - every bad write was refused, and each knob holds its first value;
 *   - numa_groups: "live" returns to the groups of tasks still alive;
 *   - per-runqueue nr_numa_running and nr_preferred_running return to
 *     this process's own share;
 *   - every CPU is online again;
 *   - every fuzzed call succeeded or failed with a documented errno;
 *   - failures were injected (a kernel with fault injection), and no
 *     victim ended badly;
 *   - the long-lived victim, at least half its memory moved back where
 *     it began (migrate_pages(2)), still writes and takes its memory to
 *     its node again;
 *   - no page stays isolated for migration (nr_isolated_*: a page taken
 *     off the LRU on a failure path and never put back);
 *   - kmemleak (when built in) finds nothing allocated by NUMA balancing
 *     code: no backtrace naming a function with "numa" in it.
 * The host fails the run on any kernel report in the console log
 * (lockdep, KASAN, BUG, WARNING, RCU stalls, hung tasks): see
 * scripts/kernel-reports.sh. "stress-figures:" lines give the counts.
 */
#include <pthread.h>
#include <sys/prctl.h>
#include "stress.h"
#include "../../kselftest.h"

#define SYSCTL_DIR	"/proc/sys/kernel/"
#define DEBUGFS_DIR	"/sys/kernel/debug/sched/numa_balancing/"
#define KMEMLEAK_FILE	"/sys/kernel/debug/kmemleak"
#define MPOL_PREFERRED_	1
#define BUF_LEN		((size_t)2 << 20)
#define SWAP_LEN	((size_t)8 << 20)
#define SETTLE_S	30
#define MAX_CPUS	64

struct figures *fig;
int nodes;
unsigned int seed_;
static double deadline;

bool running(void)
{
	return !fig->stop && now() < deadline;
}

/* A writer thread's loop: one byte a page until @stop is set. */
struct writer {
	pthread_t thread;
	char *mem;
	size_t len;
	volatile int stop;
	int ms;			/* > 0: also stop after that long */
};

static void *write_loop(void *arg)
{
	struct writer *w = arg;
	double end = w->ms > 0 ? now() + w->ms / 1000.0 : 1e18;
	unsigned char v = 0;

	while (!w->stop && now() < end)
		region_touch(w->mem, w->len, v++);
	return NULL;
}

/* A shared region NUMA balancing scans: bound to every node. */
static char *shared_region(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (region_bind(p, len, (1UL << nodes) - 1)) {
		munmap(p, len);
		return NULL;
	}
	return p;
}

enum storm_end { END_EXIT, END_EXEC, END_KILL };

/* execve() of this program in its --exit mode; returns only on failure. */
void *exec_self(void *arg)
{
	static char *const argv[] = { "stress", "--exit", NULL };

	(void)arg;
	execv("/proc/self/exe", argv);
	_exit(1);
}

/*
 * The storm's process: three threads writing a private buffer and a
 * shared one, a sibling process writing the shared one too, a few forks
 * that exit at once; it ends as @end says after @ms.
 */
static void storm_process(enum storm_end end, int ms)
{
	struct writer w[3] = {};
	char *priv = region_alloc(BUF_LEN), *shared = shared_region(BUF_LEN);
	pid_t sib, self = getpid();
	int i;

	if (!priv || !shared)
		_exit(1);
	sib = fork();
	if (!sib) {
		unsigned char v = 0;

		/* Killed with this process, even if it ended already. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != self)
			_exit(0);
		for (;;)
			region_touch(shared, BUF_LEN, v++);
	}
	if (sib > 0)
		add(&fig->forks, 1);
	for (i = 0; i < 3; i++) {
		w[i].mem = i ? priv : shared;
		w[i].len = BUF_LEN;
		if (pthread_create(&w[i].thread, NULL, write_loop, &w[i]))
			_exit(1);
		add(&fig->threads, 1);
	}
	/*
	 * Forks from a task that is (or is about to be) in a group: this
	 * thread writes the shared region too, between the forks.
	 */
	for (i = 0; i < 3; i++) {
		double until = now() + ms / 4000.0;
		unsigned char v = 0;
		pid_t c;

		while (now() < until)
			region_touch(shared, BUF_LEN, v++);
		c = fork();
		if (!c)
			_exit(0);
		if (c > 0) {
			add(&fig->forks, 1);
			waitpid(c, NULL, 0);
		}
	}
	msleep(ms / 4);
	if (end == END_EXEC) {
		/*
		 * execve() ends the other threads; from a thread that is not
		 * the leader (half of the time), that thread takes the
		 * leader's place (de_thread()).
		 */
		pthread_t t;

		if (rnd(0, 1) && !pthread_create(&t, NULL, exec_self, NULL))
			for (;;)
				pause();
		exec_self(NULL);
	}
	if (end == END_KILL)
		for (;;)
			pause();
	add(&fig->exits, 1);
	exit(0);	/* exit_group with the threads still writing */
}

static int worker_storm(void)
{
	while (running()) {
		enum storm_end end = rnd(END_EXIT, END_KILL);
		int ms = rnd(300, 3000), st;
		unsigned int seed = rand_r(&seed_);
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid) {
			seed_ = seed;
			storm_process(end, ms);
		}
		add(&fig->forks, 1);
		if (end == END_KILL) {
			msleep(ms);
			kill(pid, SIGKILL);
			add(&fig->kills, 1);
		}
		if (waitpid(pid, &st, 0) != pid)
			return 1;
		/* Killed, exited, or exec'd and exited: anything else failed. */
		if (end == END_EXEC && WIFEXITED(st) && WEXITSTATUS(st) == EXEC_STATUS)
			add(&fig->execs, 1);
		else if (WIFEXITED(st) && WEXITSTATUS(st))
			return 1;
	}
	return 0;
}

static int worker_churn(void)
{
	struct writer big[4] = {}, small[4];
	char *mem = region_alloc(BUF_LEN * 2);
	int i;

	if (!mem)
		return 1;
	for (i = 0; i < 4; i++) {
		big[i].mem = mem;
		big[i].len = BUF_LEN * 2;
		if (pthread_create(&big[i].thread, NULL, write_loop, &big[i]))
			return 1;
		add(&fig->threads, 1);
	}
	while (running()) {
		memset(small, 0, sizeof(small));
		for (i = 0; i < 4; i++) {
			small[i].mem = mem;
			small[i].len = BUF_LEN * 2;
			small[i].ms = rnd(20, 300);
			if (pthread_create(&small[i].thread, NULL, write_loop, &small[i]))
				return 1;
			add(&fig->threads, 1);
		}
		for (i = 0; i < 4; i++)
			pthread_join(small[i].thread, NULL);
	}
	for (i = 0; i < 4; i++) {
		big[i].stop = 1;
		pthread_join(big[i].thread, NULL);
	}
	return 0;
}

/* Busy on @start's CPUs first (when it has any online), memory on @mem. */
static pid_t swap_mover(int start, int mem_node)
{
	pid_t pid = fork();

	if (!pid) {
		char *mem = region_alloc(SWAP_LEN);
		unsigned char v = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		write_str("/proc/self/oom_score_adj", "500");
		if (!mem || region_bind(mem, SWAP_LEN, 1UL << mem_node))
			_exit(1);
		pin_to_node(start);
		region_touch(mem, SWAP_LEN, 1);
		unpin();
		for (;;)
			region_touch(mem, SWAP_LEN, v++);
	}
	if (pid > 0)
		add(&fig->forks, 1);
	return pid;
}

static int worker_swap(void)
{
	while (running()) {
		int x = rnd(0, nodes - 1), y = (x + rnd(1, nodes - 1)) % nodes;
		pid_t pair[2] = { swap_mover(y, x), swap_mover(x, y) };
		int first = rnd(0, 1);

		if (pair[0] < 0 || pair[1] < 0)
			return 1;
		msleep(rnd(1000, 4000));
		kill(pair[first], SIGKILL);
		msleep(rnd(0, 50));
		kill(pair[!first], SIGKILL);
		waitpid(pair[0], NULL, 0);
		waitpid(pair[1], NULL, 0);
		add(&fig->kills, 2);
		add(&fig->swap_pairs, 1);
	}
	return 0;
}

#define CPU_ONLINE_FMT	"/sys/devices/system/cpu/cpu%d/online"

/* CPUs with an "online" file (CPU 0 has none on x86): hotpluggable. */
static int hotplug_cpus(int *cpus)
{
	char path[96];
	int cpu, nr = 0;

	for (cpu = 1; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), CPU_ONLINE_FMT, cpu);
		if (!access(path, W_OK))
			cpus[nr++] = cpu;
	}
	return nr;
}

static int cpu_online(int cpu, bool on)
{
	char path[96];

	snprintf(path, sizeof(path), CPU_ONLINE_FMT, cpu);
	return write_str(path, on ? "1" : "0");
}

static bool cpu_is_online(int cpu)
{
	char path[96];

	snprintf(path, sizeof(path), CPU_ONLINE_FMT, cpu);
	return read_long(path) == 1;
}

static int worker_hotplug(void)
{
	int cpus[MAX_CPUS], nr = hotplug_cpus(cpus);

	while (nr && running()) {
		int cpu = cpus[rnd(0, nr - 1)];

		if (cpu_online(cpu, false)) {
			add(&fig->hotplug_errors, 1);
		} else {
			msleep(rnd(300, 1500));
			if (cpu_online(cpu, true))
				add(&fig->hotplug_errors, 1);
			else
				add(&fig->hotplug_cycles, 1);
		}
		msleep(rnd(300, 1000));
	}
	return 0;
}

/* "Node N MemFree: K kB" of /sys/devices/system/node/nodeN/meminfo. */
long node_free_kb(int node)
{
	char path[96], buf[4096], *p;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "MemFree:");
	return p ? strtol(p + strlen("MemFree:"), NULL, 10) : -1;
}

/*
 * One fill, in a child of its own: the first candidate of an OOM kill.
 * When a swap pair's memory is bound to the node being filled, a fault
 * of theirs can find it at its minimum and kill in the bound domain
 * (measured once in 600 s); that must take the filler, not a worker.
 */
static void fill(int node, size_t len, int ms)
{
	unsigned long mask = 1UL << node;
	char *p;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	write_str("/proc/self/oom_score_adj", "1000");
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	/* Huge pages where it can: filling 4 KiB at a time is slow. */
	madvise(p, len, MADV_HUGEPAGE);
	/* Preferred, not bound: the rest spills over to other nodes. */
	if (syscall(SYS_mbind, p, len, MPOL_PREFERRED_, &mask, sizeof(mask) * 8, 0))
		_exit(1);
	region_touch(p, len, 1);
	add(&fig->fills, 1);
	add(&fig->fill_mb, len >> 20);
	msleep(ms);
	_exit(0);
}

static int worker_pressure(void)
{
	while (running()) {
		int node = rnd(0, nodes - 1), st;
		long kb = node_free_kb(node);
		pid_t pid;

		if (kb < (16 << 10)) {
			msleep(500);
			continue;
		}
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid)
			fill(node, (size_t)kb << 10 & ~(((size_t)2 << 20) - 1),
			     rnd(1000, 3000));
		waitpid(pid, &st, 0);
		if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			add(&fig->fills_killed, 1);
		else if (!WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
		msleep(rnd(200, 1000));
	}
	return 0;
}

/* A knob and the values it must refuse besides the common ones. */
struct knob {
	const char *path;
	const char *bad[4];
	long first;		/* its value before the stress */
	bool present;
};

static struct knob knobs[] = {
	{ .path = SYSCTL_DIR "numa_balancing", .bad = { "5", "-2147483649" } },
	{ .path = SYSCTL_DIR "numa_balancing_promote_rate_limit_MBps", .bad = { "2147483648" } },
	{ .path = SYSCTL_DIR "numa_balancing_migrate_deferred", .bad = { "65536" } },
	{ .path = DEBUGFS_DIR "scan_delay_ms", .bad = { "4294967296" } },
	{ .path = DEBUGFS_DIR "scan_period_min_ms", .bad = { "4294967296" } },
	{ .path = DEBUGFS_DIR "scan_period_max_ms", .bad = { "4294967296" } },
	{ .path = DEBUGFS_DIR "scan_size_mb", .bad = { "0", "65537", "4294967296" } },
	{ .path = DEBUGFS_DIR "migrate_retry_ms", .bad = { "60001", "4294967296" } },
	{ .path = DEBUGFS_DIR "hot_threshold_ms", .bad = { "4294967296" } },
};

static const char * const common_bad[] = {
	"-1", "99999999999999999999", "abc", "12abc", "", " ",
	/* 1 and junk past the 34 bytes kstrtouint_from_user() reads */
	"0000000000000000000000000000000001junk", NULL
};

/* Write bad @val to @k: refused and unchanged, or counted as accepted. */
static void bad_write(struct knob *k, const char *val)
{
	char s[64];
	int err;

	snprintf(s, sizeof(s), "%s\n", val);
	err = write_str(k->path, s);
	add(&fig->bad_writes, 1);
	if (err && read_long(k->path) == k->first) {
		add(&fig->bad_refused, 1);
	} else {
		if (add(&fig->bad_accepted, 1) <= 10)
			printf("# bad write taken: \"%s\" to %s: %s, now %ld (was %ld)\n",
			       val, k->path, err ? strerror(err) : "accepted",
			       read_long(k->path), k->first);
		fflush(stdout);
		snprintf(s, sizeof(s), "%ld\n", k->first);
		write_str(k->path, s);
	}
}

/* A valid write, held for @ms, then the first value back. */
static void good_write(struct knob *k, const char *val, int ms)
{
	char s[32];

	if (!k->present)
		return;
	add(&fig->good_writes, 1);
	if (write_str(k->path, val))
		add(&fig->good_failed, 1);
	msleep(ms);
	snprintf(s, sizeof(s), "%ld", k->first);
	if (write_str(k->path, s))
		add(&fig->good_failed, 1);
}

static int worker_knobs(void)
{
	unsigned int i, j, pass = 0;

	while (running()) {
		for (i = 0; i < ARRAY_SIZE(knobs); i++) {
			if (!knobs[i].present)
				continue;
			for (j = 0; common_bad[j]; j++)
				bad_write(&knobs[i], common_bad[j]);
			for (j = 0; j < 4 && knobs[i].bad[j]; j++)
				bad_write(&knobs[i], knobs[i].bad[j]);
		}
		if (++pass % 10 == 0) {
			good_write(&knobs[0], "0", 100);	/* balancing off */
			good_write(&knobs[6], "1", 500);	/* scan_size_mb */
		}
		msleep(rnd(100, 300));
	}
	return 0;
}

struct worker {
	const char *name;
	int (*fn)(void);
	pid_t pid;
	int status;
	bool ended;
};

static struct worker workers[] = {
	{ .name = "storm", .fn = worker_storm },
	{ .name = "storm", .fn = worker_storm },
	{ .name = "churn", .fn = worker_churn },
	{ .name = "swap", .fn = worker_swap },
	{ .name = "hotplug", .fn = worker_hotplug },
	{ .name = "pressure", .fn = worker_pressure },
	{ .name = "knobs", .fn = worker_knobs },
	{ .name = "fuzz", .fn = worker_fuzz },
	/* Last: reaped once the others have ended (main()). */
	{ .name = "inject", .fn = worker_inject },
};

/*
 * Reap every child that has ended: orphans (a storm process's sibling,
 * killed when its storm process ends) right away, so that their
 * numa_groups are put while the load runs and not in one burst after
 * it, and workers, whose status is kept for reap().
 */
static void reap_ended(void)
{
	unsigned int i;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (i = 0; i < ARRAY_SIZE(workers); i++) {
			if (workers[i].pid != pid)
				continue;
			workers[i].status = WIFEXITED(st) ? WEXITSTATUS(st) :
					    128 + WTERMSIG(st);
			workers[i].ended = true;
		}
	}
}

/* The worker's status, -1 when it did not end within @secs. */
static int reap(struct worker *w, int secs)
{
	double t0 = now();

	for (reap_ended(); !w->ended; reap_ended()) {
		if (now() - t0 > secs) {
			kill(w->pid, SIGKILL);
			waitpid(w->pid, NULL, 0);
			return -1;
		}
		msleep(100);
	}
	return w->status;
}

/*
 * kmemleak's report after two scans: objects in all, and those whose
 * backtrace has a frame with "numa" in its name.
 */
static int kmemleak(long *total, long *ours)
{
	char line[512];
	bool in_trace = false, in_ours = false;
	FILE *f;
	int i;

	*total = *ours = 0;
	for (i = 0; i < 2; i++) {	/* two scans: young objects are spared */
		if (write_str(KMEMLEAK_FILE, "scan"))
			return -1;
		sleep(6);
	}
	f = fopen(KMEMLEAK_FILE, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "unreferenced object", 19)) {
			(*total)++;
			in_trace = false;
			in_ours = false;
		} else if (strstr(line, "backtrace:")) {
			in_trace = true;
		} else if (in_trace && !in_ours && strstr(line, "numa")) {
			in_ours = true;
			(*ours)++;
			printf("# suspect: %s", line);
		}
	}
	fclose(f);
	return 0;
}

static long long proc_stat(const char *key)
{
	char buf[16384], *p;

	if (read_file("/proc/stat", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, key);
	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

int main(int argc, char **argv)
{
	long long forks0, swaps0, fails0, created0, freed0;
	long live = -1, total, ours;
	struct fbq_sums s = { 0 };
	int cpus[MAX_CPUS], nr_cpus, offline = 0, in_use = -1;
	int secs, pref = -2, node = -2, gid, failed = 0, inject_err;
	unsigned int seed;
	bool ok, has_groups, has_fbq;
	long long v;
	unsigned int i;
	double t0;

	if (argc > 1 && !strcmp(argv[1], "--exit"))
		return EXEC_STATUS;	/* the image a storm process execs */

	ksft_print_header();
	SKIP_WITHOUT_BALANCING();
	nodes = nr_nodes();
	if (nodes < 2)
		ksft_exit_skip("needs 2 nodes, found %d\n", nodes);
	secs = 60;
	if (argc > 1) {
		char *end;

		errno = 0;
		v = strtol(argv[1], &end, 10);
		if (errno || end == argv[1] || *end || v < 1 || v > 86400)
			ksft_exit_fail_msg("usage: %s [SECONDS [SEED]], SECONDS 1 to 86400, not '%s'\n",
					   argv[0], argv[1]);
		secs = v;
	}
	seed = time(NULL) ^ (unsigned int)getpid() << 16;
	if (argc > 2) {
		char *end;
		unsigned long long u;

		errno = 0;
		u = strtoull(argv[2], &end, 10);
		if (errno || end == argv[2] || *end || argv[2][0] == '-' || u > 0xffffffffULL)
			ksft_exit_fail_msg("usage: %s [SECONDS [SEED]], SEED 0 to 4294967295, not '%s'\n",
					   argv[0], argv[2]);
		seed = u;
	}
	ksft_set_plan(10);

	fig = mmap(NULL, sizeof(*fig), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fig == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	memset(fig, 0, sizeof(*fig));
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		knobs[i].present = !access(knobs[i].path, W_OK);
		knobs[i].first = read_long(knobs[i].path);
	}
	has_groups = !access(GROUPS_FILE, R_OK);
	has_fbq = !access(FBQ_FILE, R_OK);
	/* Orphans (a storm process's sibling) come here to be reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* The OOM killer's last resort, inherited by every worker (above). */
	if (write_str("/proc/self/oom_score_adj", "-999"))
		ksft_exit_fail_msg("cannot set oom_score_adj\n");
	inject_err = inject_setup();
	forks0 = proc_stat("processes ");
	swaps0 = vmstat("numa_task_swapped");
	fails0 = vmstat("pgmigrate_fail");
	created0 = groups_stat("created");
	freed0 = groups_stat("freed");

	ksft_print_msg("%d s, %d nodes, %zu workers, seed %u (replay: STRESS_SEED=%u)\n",
		       secs, nodes, ARRAY_SIZE(workers), seed, seed);
	if (inject_err)
		ksft_print_msg("no allocation failures injected: %s\n",
			       inject_err == -ENOENT ? "no failslab, fail_page_alloc or fail-nth" :
			       strerror(-inject_err));
	fflush(stdout);
	deadline = now() + secs;
	for (i = 0; i < ARRAY_SIZE(workers); i++) {
		workers[i].pid = fork();
		if (workers[i].pid < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (!workers[i].pid) {
			/* Each worker's draws from the seed and its place. */
			seed_ = seed + i * 2654435761U;
			_exit(workers[i].fn());
		}
	}
	while (now() < deadline) {
		sleep(1);
		reap_ended();
	}
	fig->stop = 1;
	ok = true;
	for (i = 0; i < ARRAY_SIZE(workers); i++) {
		bool inject = workers[i].fn == worker_inject;

		/*
		 * The inject worker judges its long-lived victim on a quiet
		 * machine: the other workers ended, no filler holding a node.
		 */
		if (inject)
			fig->quiet = 1;
		workers[i].status = reap(&workers[i], inject ? INJECT_REAP_S : 60);
		if (workers[i].status) {
			ksft_print_msg("worker %s: %s %d\n", workers[i].name,
				       workers[i].status < 0 ? "did not stop, status" : "exit status",
				       workers[i].status);
			ok = false;
		}
	}
	reap_ended();
	inject_teardown();
	/* The hotplug worker onlines each CPU it took; count what it left. */
	nr_cpus = hotplug_cpus(cpus);
	for (i = 0; i < (unsigned int)nr_cpus; i++) {
		if (!cpu_is_online(cpus[i])) {
			offline++;
			cpu_online(cpus[i], true);
		}
	}

	ksft_print_msg("stress-figures: forks %ld (kernel: %lld), execs %ld, kills %ld, exits %ld, threads %ld, swap pairs %ld\n",
		       fig->forks, proc_stat("processes ") - forks0, fig->execs,
		       fig->kills, fig->exits, fig->threads, fig->swap_pairs);
	ksft_print_msg("stress-figures: tasks swapped %lld, pgmigrate_fail %lld, hotplug cycles %ld (errors %ld), node fills %ld (%ld MiB, %ld OOM-killed)\n",
		       vmstat("numa_task_swapped") - swaps0, vmstat("pgmigrate_fail") - fails0,
		       fig->hotplug_cycles, fig->hotplug_errors, fig->fills, fig->fill_mb,
		       fig->fills_killed);
	ksft_print_msg("stress-figures: groups created %lld, freed %lld; bad writes %ld, refused %ld, taken %ld; valid writes %ld (failed %ld)\n",
		       has_groups ? groups_stat("created") - created0 : 0,
		       has_groups ? groups_stat("freed") - freed0 : 0,
		       fig->bad_writes, fig->bad_refused, fig->bad_accepted,
		       fig->good_writes, fig->good_failed);
	ksft_print_msg("stress-figures: fuzz processes %ld (exec'd %ld, OOM-killed %ld), calls %ld, failed as documented %ld, undocumented %ld, writer faults %ld\n",
		       fig->fuzz_procs, fig->fuzz_execs, fig->fuzz_killed, fig->fuzz_calls,
		       fig->fuzz_failed, fig->fuzz_undocumented, fig->fuzz_segv);
	ksft_print_msg("stress-figures: injection victims %ld (ended badly %ld), fail-nth armed %ld, failures injected %ld\n",
		       fig->inject_victims, fig->inject_victims_bad, fig->inject_armed,
		       fig->inject_fired);
	ok = ok && fig->forks > 0 && fig->execs > 0 && fig->threads > 0 &&
	     fig->swap_pairs > 0 && fig->fills + fig->fills_killed > 0 &&
	     fig->bad_writes > 0 && fig->fuzz_procs > 0 && fig->inject_victims > 0 &&
	     (nr_cpus == 0 || fig->hotplug_cycles > 0);
	ksft_test_result(ok, "every worker ran and stopped\n");

	ok = fig->bad_writes > 0 && fig->bad_accepted == 0 && !fig->good_failed;
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		if (knobs[i].present && read_long(knobs[i].path) != knobs[i].first) {
			ksft_print_msg("%s: %ld, was %ld\n", knobs[i].path,
				       read_long(knobs[i].path), knobs[i].first);
			ok = false;
		}
	}
	ksft_test_result(ok, "bad writes refused, every knob kept its value\n");

	ksft_test_result(!offline && !fig->hotplug_errors,
			 "all %d hotpluggable CPUs online again (%d left offline, %ld errors)\n",
			 nr_cpus, offline, fig->hotplug_errors);

	ksft_test_result(fig->fuzz_calls > 0 && !fig->fuzz_undocumented,
			 "fuzz: %ld calls, each a success or a documented errno\n",
			 fig->fuzz_calls);

	if (inject_err)
		test_skip("allocation failures injected in the victims",
			  "%s\n", strerror(-inject_err));
	else
		/*
		 * The count shows that failures were injected, not where:
		 * with failslab and fail_page_alloc left ignoring what the
		 * balancing paths allocate, 2 still were (make
		 * stress-selftest's noinject plant: the debug kernel's own
		 * GFP_NOWAIT allocations in the victims). That the paths are
		 * reached shows in the isolated plant: 61 pages leaked by 69
		 * failures, on the -ENOMEM path of a NUMA migration.
		 */
		ksft_test_result(fig->inject_fired > 0 && !fig->inject_victims_bad,
				 "allocation failures injected in the victims: %ld, none harmed\n",
				 fig->inject_fired);

	ksft_print_msg("after the load (%ld ms waiting for the other workers, %ld of 2 writers paused): victim on node %ld, %ld%% of its pages on node %ld (move_pages(2) saw %ld), %ld%% after the move (migrate_pages: %ld, %ld MiB free there), then preferred node %ld, %ld%% of its pages back after %ld ms, %ld passes\n",
		       fig->settle_quiet_ms, fig->settle_paused, fig->settle_node,
		       fig->settle_before, fig->settle_start, fig->settle_seen,
		       fig->settle_moved, fig->settle_move_ret,
		       fig->settle_free_mb,
		       fig->settle_pref, fig->settle_pct, fig->settle_ms,
		       fig->settle_progress);
	if (fig->settle_done == 2)
		test_skip("the long-lived victim still writes and takes its memory back",
			  "the OOM killer took it\n");
	else
		ksft_test_result(fig->settle_done == 1 && fig->settle_moved >= 50 &&
				 fig->settle_pct >= 90 &&
				 fig->settle_pref == fig->settle_node &&
				 fig->settle_progress > 0,
				 "the long-lived victim still writes and takes its memory back\n");

	/* A page isolated for migration and never put back stays counted. */
	t0 = now();
	do {
		msleep(200);
		v = vmstat("nr_isolated_anon") + vmstat("nr_isolated_file");
	} while (v && now() - t0 < SETTLE_S);
	ksft_test_result(!v, "no page left isolated (nr_isolated_anon + nr_isolated_file: %lld)\n",
			 v);

	if (has_groups) {
		t0 = now();
		do {
			msleep(200);
			live = groups_stat("live");
			in_use = groups_in_use();
		} while (live != in_use && now() - t0 < SETTLE_S);
		ksft_print_msg("numa_groups live %ld, in use by live tasks %d\n", live, in_use);
		ksft_test_result(live == in_use, "no numa_group leaked\n");
	} else {
		test_skip("no numa_group leaked", "no %s\n", GROUPS_FILE);
	}

	if (has_fbq) {
		long want_numa = 0, want_pref = 0;

		t0 = now();
		do {
			msleep(200);
			if (sched_field(getpid(), "numa_preferred_nid", &v))
				v = -1;
			pref = (int)v;
			task_numa_ids(getpid(), &node, &gid);
			want_numa = pref >= 0;
			want_pref = pref >= 0 && pref == node;
			failed = fbq_read_sums(&s);
		} while ((failed || s.numa != want_numa || s.preferred != want_pref) &&
			 now() - t0 < SETTLE_S);
		ksft_print_msg("at rest: nr_numa_running %ld, nr_preferred_running %ld on %d CPUs (this test's share %ld, %ld)\n",
			       s.numa, s.preferred, s.cpus, want_numa, want_pref);
		ksft_test_result(!failed && s.sane && s.numa == want_numa &&
				 s.preferred == want_pref,
				 "per-runqueue NUMA counts back to rest\n");
	} else {
		test_skip("per-runqueue NUMA counts back to rest", "no %s\n", FBQ_FILE);
	}

	if (access(KMEMLEAK_FILE, R_OK)) {
		test_skip("kmemleak: nothing from NUMA balancing", "kernel without CONFIG_DEBUG_KMEMLEAK\n");
	} else if (kmemleak(&total, &ours)) {
		ksft_test_result_fail("kmemleak: scan failed: %s\n", strerror(errno));
	} else {
		ksft_print_msg("stress-figures: kmemleak suspects %ld, from NUMA balancing code %ld\n",
			       total, ours);
		ksft_test_result(!ours, "kmemleak: nothing from NUMA balancing\n");
	}
	ksft_finished();
}
