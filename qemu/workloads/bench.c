// SPDX-License-Identifier: GPL-2.0
/*
 * bench: the workloads of "make bench", after autonumabench and
 * "perf bench numa mem", sized for the emulated machine.
 *
 *   numa01               two processes, each with half the threads, all of
 *                        which write their process's whole buffer (the
 *                        adverse case: no node can hold a process). Not
 *                        one MAP_SHARED buffer for both: 6.1 does not scan
 *                        shared memory that has no policy of its own
 *   numa01_thread_alloc  two processes, each thread its own region
 *   numa02               one process, each thread its own slice of a
 *                        common buffer first touched by the main thread
 *   numa02_smt           numa02 with half the threads
 *   converge             each thread's region first touched on the node
 *                        after the one it starts on
 *   multi                one process per node ("one JVM per node"), its
 *                        threads sharing the process's heap
 *   pingpong             four threads on node 0 and four on node 1 write
 *                        one buffer (MIGRATE_DEFER's case)
 *   trade                two processes, each with half the threads and
 *                        its own buffer, first touched on node 0 for one
 *                        and node 1 for the other; the threads start
 *                        spread over the nodes ("perf bench numa mem -p 2
 *                        -t 2" on 2 nodes x 2 CPUs): with every CPU busy,
 *                        a process gathers on its memory's node only by
 *                        trading places with the other's threads
 *   fbq                  two single-threaded processes, each with its
 *                        memory bound to node 0 and node 1 (scanned, but
 *                        never moved: the task has to go to it), and
 *                        three CPU-only hogs (200 ms on, 50 ms off), all
 *                        unpinned: the balancer has choices, and FBQ's
 *                        claim is that it spares the two NUMA tasks
 *   defer                three writers pinned on node 0 and one on node
 *                        1 share one buffer first touched on node 1
 *                        (MIGRATE_DEFER's asymmetric case)
 *   defer_free           defer with the writers released when the run
 *                        starts: do the tasks move to the memory?
 *
 * With -b, manual binding, the ceiling: each thread binds itself to a
 * node (sched_setaffinity) and its region to the same node (mbind) before
 * touching it; shared buffers are bound slice by slice across the nodes.
 *
 * Every second the parent samples residency: for each task, the share of
 * its region's present pages (move_pages(2), at most SAMPLE pages spread
 * over it) on the node of the CPU it runs on; the mean over the tasks is
 * printed as "bench-res". At the end, one "bench-result" line of
 * key=value pairs: the /proc/vmstat deltas of the 2013 cover letter (PTE
 * updates, hint faults, local hint faults, local percent, pages
 * migrated), task migrations and swaps (-1 where the kernel has no such
 * counter), the final residency, the convergence time (first sample
 * from which residency stays at or above 90% to the end, -1: never), the
 * guest's system CPU share and the sweeps per second (an overhead check:
 * QEMU has no remote memory latency, so it says nothing of locality), and
 * the system CPU time per hint fault: an upper bound of a fault's cost,
 * since it holds all the kernel's work of the run (scanning, faults,
 * migrations, the scheduler), first touch excepted.
 *
 * The mechanisms behind those figures are counted in the same line:
 * steady_* are the deltas from the first second the process has been
 * scanned STEADY_SEQ times (mm->numa_scan_seq; -1: never), past 6.1's
 * early-life shortcut; flip2_pct, of the sampled pages of the first
 * task's region, the percentage that changed node twice or more in that
 * window; node0_pct where those pages are at the end; shared_pct the
 * tasks' shared share of their faults; grouped_pct the share of the
 * workload's processes whose tasks all carry one numa_group id;
 * pref_pct the share of 1 Hz samples where a task ran on its preferred
 * node; xnode_moves the tasks' node changes seen at 10 Hz;
 * failed_hot and forced SCHEDSTATS' balancer refusals and forced moves;
 * preferred_changes and group_joins debugfs counts; fbq_regular,
 * fbq_remote and fbq_all the busy CPU-seconds each class held (the
 * classes of FBQ's counts, kept with NO_NUMA_FBQ too); trace_move, trace_swap and
 * trace_stick the sched_move_numa, sched_swap_numa and sched_stick_numa
 * events (tracefs). -1: this kernel has no such counter.
 *
 * -S SEED makes the start replayable: when the run starts, each task
 * waits a draw of up to 100 ms before its first write, each hog up to
 * 250 ms before its first burst.
 *
 * Usage: bench WORKLOAD [-s seconds] [-m MiB] [-t threads] [-b] [-S seed]
 */
#include <getopt.h>
#include <pthread.h>
#include "numa_test.h"

#define MAX_TASKS	64
#define SAMPLE		256
#define CONVERGED_PCT	90
#define STEADY_SEQ	5	/* 6.1's early life: numa_scan_seq <= 4 */
#define FLIP_SAMPLE	512
#define HOGS		3
#define TRACING		"/sys/kernel/tracing"
#define BALANCING	"/sys/kernel/debug/sched/numa_balancing/"

struct slot {
	pid_t pid;
	pid_t tid;
	char *mem;		/* the task's region, in its process */
	size_t len;
	int node;		/* home node, for -b */
	volatile long sweeps;
};

/* Shared by all the workload's processes (MAP_SHARED, made before fork). */
struct control {
	volatile int phase;	/* 0: first touch, 1: run, 2: stop */
	volatile int ready;
	int nr;
	struct slot slot[MAX_TASKS];
};

static struct control *ctl;
static int nodes, bind_mode;
static unsigned int seed;

/* A draw from @state (an LCG: replayable from the seed, not random). */
static unsigned int draw(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/* A thread of a workload: its slot says what to write. */
struct worker {
	pthread_t thread;
	struct slot *s;
	bool touch;		/* first-touch its own region */
	int touch_node;		/* ... pinned to this node, -1: where it runs */
	int start_node;		/* then pinned here, -1: not */
	bool release;		/* unpinned when the run starts */
};

static int bind_region(void *mem, size_t len, int node)
{
	return region_bind(mem, len, 1UL << node);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct slot *s = w->s;
	unsigned char v = 1;

	s->tid = gettid_();
	s->pid = getpid();
	if (bind_mode) {
		pin_to_node(s->node);
		if (w->touch)
			bind_region(s->mem, s->len, s->node);
	} else if (w->touch_node >= 0) {
		pin_to_node(w->touch_node);
	}
	if (w->touch)
		region_touch(s->mem, s->len, v++);
	if (!bind_mode) {
		if (w->start_node >= 0)
			pin_to_node(w->start_node);
		else
			unpin();
	}
	__sync_fetch_and_add(&ctl->ready, 1);
	while (ctl->phase == 0)
		usleep(1000);
	if (!bind_mode && w->release)
		unpin();
	/* The run's start, task by task: a draw of up to 100 ms. */
	if (seed) {
		unsigned int st = seed * 2654435761u + (unsigned int)(s - ctl->slot);

		usleep(draw(&st) % 100000);
	}
	while (ctl->phase == 1) {
		region_touch(s->mem, s->len, v++);
		s->sweeps++;
	}
	return NULL;
}

/*
 * Start @nr threads in this process on slots [first, first + nr); each
 * gets a region of @len at @mem + i * @stride (@stride 0: all the same)
 * and a home node, @node or, when -1, slot number modulo the nodes. With
 * @touch, each first touches its region, pinned to the node
 * @touch_node_off after its home when that is not -1; it then stays
 * pinned to the node @start_node_off after its home, when not -1, until
 * the run starts if @release, else throughout.
 */
static void start_threads(int first, int nr, int node, char *mem, size_t len,
			  size_t stride, bool touch, int touch_node_off,
			  int start_node_off, bool release)
{
	struct worker *w = calloc(nr, sizeof(*w));
	int i;

	for (i = 0; i < nr; i++) {
		struct slot *s = &ctl->slot[first + i];

		s->mem = mem + i * stride;
		s->len = len;
		s->node = node >= 0 ? node : (first + i) % nodes;
		w[i].s = s;
		w[i].release = release;
		w[i].touch = touch;
		w[i].touch_node = touch_node_off < 0 ? -1 : (s->node + touch_node_off) % nodes;
		w[i].start_node = start_node_off < 0 ? -1 : (s->node + start_node_off) % nodes;
		if (pthread_create(&w[i].thread, NULL, worker_fn, &w[i])) {
			perror("bench: pthread_create");
			exit(1);
		}
	}
}

static char *alloc_or_die(size_t len, bool shared)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("bench: mmap");
		exit(1);
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	return p;
}

/* A buffer touched by this thread, slice k bound to node k with -b. */
static void touch_buffer(char *mem, size_t len)
{
	size_t slice = len / nodes & ~(PAGE_SZ - 1);
	int n;

	if (bind_mode)
		for (n = 0; n < nodes && slice; n++)
			bind_region(mem + n * slice, n == nodes - 1 ? len - n * slice : slice, n);
	region_touch(mem, len, 1);
}

/* A child process running @nr threads from slot @first; never returns. */
static void child(int first, int nr, int node, char *mem, size_t len,
		  size_t stride, bool touch)
{
	start_threads(first, nr, node, mem, len, stride, touch, -1, -1, false);
	while (ctl->phase != 2)
		usleep(10000);
	_exit(0);
}

static pid_t fork_or_die(void)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("bench: fork");
		exit(1);
	}
	return pid;
}

/*
 * A CPU-only hog: 200 ms busy, 50 ms asleep, from a drawn phase. Its
 * policy binds it to every node without MPOL_F_NUMA_BALANCING, so NUMA
 * balancing never scans its memory: it takes no hinting fault, has no
 * preferred node and is never counted in nr_numa_running.
 */
static void hog(int i)
{
	unsigned int st = seed * 2654435761u + 1000u + i;
	unsigned long all = (1UL << nodes) - 1;
	double t;

	if (syscall(SYS_set_mempolicy, MPOL_BIND_, &all, sizeof(all) * 8)) {
		perror("bench: set_mempolicy");
		_exit(1);
	}
	while (ctl->phase == 0)
		usleep(1000);
	usleep(draw(&st) % 250000);
	while (ctl->phase != 2) {
		t = now();
		while (now() - t < 0.2 && ctl->phase != 2)
			;
		usleep(50000);
	}
	_exit(0);
}

/* The node CPU @cpu belongs to. */
static int cpu_node[CPU_SETSIZE];

static void map_cpus(void)
{
	cpu_set_t set;
	int n, c;

	for (n = 0; n < nodes; n++) {
		if (node_cpus(n, &set) <= 0)
			continue;
		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cpu_node[c] = n;
	}
}

/* The CPU task @tid of process @pid last ran on (field 39 of stat). */
static int task_cpu(pid_t pid, pid_t tid)
{
	char path[64], buf[1024], *p;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strrchr(buf, ')');
	for (i = 2; p && i < 39; i++)
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : -1;
}

/* Percent of @s's present pages on the node it runs on, -1: unknown. */
static double residency(struct slot *s)
{
	unsigned long n = s->len / PAGE_SZ, step, i, k = 0;
	void *pages[SAMPLE];
	int status[SAMPLE], cpu, node, on = 0, present = 0;

	cpu = task_cpu(s->pid, s->tid);
	if (cpu < 0 || cpu >= CPU_SETSIZE || !n)
		return -1;
	node = cpu_node[cpu];
	step = n > SAMPLE ? n / SAMPLE : 1;
	for (i = 0; i < n && k < SAMPLE; i += step)
		pages[k++] = s->mem + i * PAGE_SZ;
	if (syscall(SYS_move_pages, s->pid, k, pages, NULL, status, 0))
		return -1;
	for (i = 0; i < k; i++) {
		if (status[i] < 0)
			continue;
		present++;
		on += status[i] == node;
	}
	return present ? 100.0 * on / present : -1;
}

static double mean_residency(void)
{
	double sum = 0, r;
	int i, n = 0;

	for (i = 0; i < ctl->nr; i++) {
		r = residency(&ctl->slot[i]);
		if (r >= 0) {
			sum += r;
			n++;
		}
	}
	return n ? sum / n : -1;
}

/* user+nice+system+..., and system, from /proc/stat's "cpu" line. */
static void cpu_times(long long *total, long long *sys)
{
	long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int i;

	*total = *sys = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (i = 0; i < 8; i++)
			*total += v[i];
		*sys = v[2] + v[5] + v[6];
	}
	fclose(f);
}

static const char * const counters[] = {
	"numa_pte_updates", "numa_hint_faults", "numa_hint_faults_local",
	"numa_pages_migrated", "numa_task_migrated", "numa_task_swapped",
	"numa_migrate_deferred",
};
enum { PTE, HINT, LOCAL, MIGRATED };
#define NR_COUNTERS	(sizeof(counters) / sizeof(counters[0]))

/* What the mechanisms did during a run: see the head of the file. */
struct mech {
	int flip_n;
	void *flip_addr[FLIP_SAMPLE];
	int flip_node[FLIP_SAMPLE], flips[FLIP_SAMPLE];
	int last_node[MAX_TASKS];
	long xnode_moves, pref_on, pref_samples;
	long fbq[3];		/* CPU-seconds per class; -1: no fbq file */
	int steady_s;		/* -1: not scanned STEADY_SEQ times yet */
	long long steady0[NR_COUNTERS];
	long long prefchg0, joins0;
	bool tracing;
	/* Read at the end, before the tasks exit. */
	long priv, shared;
	long long cpu_migr, failed_hot, forced;
	double grouped_pct;
};

static const char * const trace_events[] = {
	"sched_move_numa", "sched_swap_numa", "sched_stick_numa",
};

static void trace_enable(const char *val)
{
	char path[128];
	size_t k;

	for (k = 0; k < ARRAY_SIZE(trace_events); k++) {
		snprintf(path, sizeof(path), TRACING "/events/sched/%s/enable", trace_events[k]);
		write_str(path, val);
	}
}

static void mech_start(struct mech *m)
{
	struct slot *s = &ctl->slot[0];
	unsigned long n = s->len / PAGE_SZ, step, i;
	FILE *f;

	memset(m, 0, sizeof(*m));
	m->steady_s = -1;
	m->fbq[0] = m->fbq[1] = m->fbq[2] = -1;
	memset(m->last_node, -1, sizeof(m->last_node));
	step = n > FLIP_SAMPLE ? n / FLIP_SAMPLE : 1;
	for (i = 0; i < n && m->flip_n < FLIP_SAMPLE; i += step) {
		m->flip_addr[m->flip_n] = s->mem + i * PAGE_SZ;
		m->flip_node[m->flip_n++] = -1;
	}
	m->prefchg0 = read_long(BALANCING "preferred_changes");
	m->joins0 = groups_stat("joined");
	m->tracing = !access(TRACING "/events/sched/sched_move_numa/enable", W_OK);
	if (m->tracing) {
		f = fopen(TRACING "/trace", "w");	/* empties the buffer */
		if (f)
			fclose(f);
		trace_enable("1");
	}
}

/* The node of each sampled page of slot 0's region; count changes. */
static void sample_flips(struct mech *m, bool count)
{
	int status[FLIP_SAMPLE], i;

	if (!m->flip_n || syscall(SYS_move_pages, ctl->slot[0].pid, m->flip_n,
				  m->flip_addr, NULL, status, 0))
		return;
	for (i = 0; i < m->flip_n; i++) {
		if (status[i] < 0)
			continue;
		if (count && m->flip_node[i] >= 0 && status[i] != m->flip_node[i])
			m->flips[i]++;
		m->flip_node[i] = status[i];
	}
}

/* 10 Hz: the node each task runs on. */
static void sample_nodes(struct mech *m)
{
	int i, cpu, node;

	for (i = 0; i < ctl->nr; i++) {
		cpu = task_cpu(ctl->slot[i].pid, ctl->slot[i].tid);
		if (cpu < 0 || cpu >= CPU_SETSIZE)
			continue;
		node = cpu_node[cpu];
		if (m->last_node[i] >= 0 && node != m->last_node[i])
			m->xnode_moves++;
		m->last_node[i] = node;
	}
}

/* 1 Hz: preferred nodes, FBQ's classes, the steady window, the pages. */
static void sample_second(struct mech *m, int sec)
{
	static const char * const classes[] = { "regular", "remote", "all" };
	char buf[8192], *line, *c;
	long long v;
	int i, k;

	for (i = 0; i < ctl->nr; i++) {
		if (sched_field(ctl->slot[i].tid, "numa_preferred_nid", &v) || v < 0 ||
		    m->last_node[i] < 0)
			continue;
		m->pref_samples++;
		m->pref_on += m->last_node[i] == v;
	}
	if (read_file(FBQ_FILE, buf, sizeof(buf)) > 0) {
		for (k = 0; k < 3; k++)
			m->fbq[k] = m->fbq[k] < 0 ? 0 : m->fbq[k];
		for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			/* An idle CPU classifies as "all": not counted. */
			c = strstr(line, " class ");
			if (strstr(line, " nr_running 0 "))
				continue;
			for (k = 0; c && k < 3; k++)
				m->fbq[k] += !strcmp(c + 7, classes[k]);
		}
	}
	if (m->steady_s < 0 && !sched_field(ctl->slot[0].tid, "mm->numa_scan_seq", &v) &&
	    v >= STEADY_SEQ) {
		m->steady_s = sec;
		for (k = 0; k < (int)NR_COUNTERS; k++)
			m->steady0[k] = vmstat(counters[k]);
	}
	sample_flips(m, m->steady_s >= 0 && m->steady_s < sec);
}

/* The tasks' own records, before they exit. */
static void mech_tasks(struct mech *m)
{
	int i, j, node, gid[MAX_TASKS], procs = 0, grouped = 0, ids = 0;
	long priv, shared;
	long long v;
	bool same;

	m->failed_hot = m->forced = 0;
	for (i = 0; i < ctl->nr; i++) {
		pid_t tid = ctl->slot[i].tid;

		if (!task_numa_faults(tid, &priv, &shared)) {
			m->priv += priv;
			m->shared += shared;
		}
		if (task_numa_ids(tid, &node, &gid[i]))
			gid[i] = 0;
		else
			ids++;
		if (!sched_field(tid, "se.nr_migrations", &v))
			m->cpu_migr += v;
		if (m->failed_hot >= 0 && !sched_field(tid, "nr_failed_migrations_hot", &v))
			m->failed_hot += v;
		else
			m->failed_hot = -1;
		if (m->forced >= 0 && !sched_field(tid, "nr_forced_migrations", &v))
			m->forced += v;
		else
			m->forced = -1;
	}
	/* A process is grouped when its tasks all carry one non-zero id. */
	for (i = 0; i < ctl->nr; i++) {
		for (j = 0; j < i && ctl->slot[j].pid != ctl->slot[i].pid; j++)
			;
		if (j < i)
			continue;
		procs++;
		same = gid[i] != 0;
		for (j = i + 1; j < ctl->nr; j++)
			if (ctl->slot[j].pid == ctl->slot[i].pid && gid[j] != gid[i])
				same = false;
		grouped += same;
	}
	m->grouped_pct = procs && ids ? 100.0 * grouped / procs : -1;
}

static void mech_print(struct mech *m)
{
	long long pte = -1, migrated = -1, joins, prefchg, counts[3] = { -1, -1, -1 };
	int i, known = 0, flip2 = 0, node0 = 0;
	char line[512], needle[64];
	size_t k;
	FILE *f;

	if (m->steady_s >= 0) {
		pte = vmstat(counters[PTE]) - m->steady0[PTE];
		migrated = vmstat(counters[MIGRATED]) - m->steady0[MIGRATED];
	}
	for (i = 0; i < m->flip_n; i++) {
		if (m->flip_node[i] < 0)
			continue;
		known++;
		flip2 += m->flips[i] >= 2;
		node0 += m->flip_node[i] == 0;
	}
	printf(" steady_s=%d steady_pte=%lld steady_migrated=%lld mig_per_kpte=%.1f",
	       m->steady_s, pte, migrated, pte > 0 ? 1000.0 * migrated / pte : -1.0);
	printf(" flip2_pct=%.1f node0_pct=%.1f",
	       known && m->steady_s >= 0 ? 100.0 * flip2 / known : -1.0,
	       known ? 100.0 * node0 / known : -1.0);
	printf(" shared_pct=%.1f grouped_pct=%.1f pref_pct=%.1f xnode_moves=%ld",
	       m->priv + m->shared ? 100.0 * m->shared / (m->priv + m->shared) : -1.0,
	       m->grouped_pct, m->pref_samples ? 100.0 * m->pref_on / m->pref_samples : -1.0,
	       m->xnode_moves);
	printf(" cpu_migrations=%lld failed_hot=%lld forced=%lld",
	       m->cpu_migr, m->failed_hot, m->forced);
	prefchg = read_long(BALANCING "preferred_changes");
	joins = groups_stat("joined");
	printf(" preferred_changes=%lld group_joins=%lld fbq_regular=%ld fbq_remote=%ld fbq_all=%ld",
	       m->prefchg0 < 0 || prefchg < 0 ? -1 : prefchg - m->prefchg0,
	       m->joins0 < 0 || joins < 0 ? -1 : joins - m->joins0,
	       m->fbq[0], m->fbq[1], m->fbq[2]);
	if (m->tracing) {
		trace_enable("0");
		counts[0] = counts[1] = counts[2] = 0;
		f = fopen(TRACING "/trace", "r");
		while (f && fgets(line, sizeof(line), f))
			for (k = 0; k < ARRAY_SIZE(trace_events); k++) {
				snprintf(needle, sizeof(needle), " %s:", trace_events[k]);
				counts[k] += !!strstr(line, needle);
			}
		if (f)
			fclose(f);
	}
	printf(" trace_move=%lld trace_swap=%lld trace_stick=%lld\n",
	       counts[0], counts[1], counts[2]);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench numa01|numa01_thread_alloc|numa02|numa02_smt|converge|multi|pingpong|trade|fbq|defer|defer_free [-s seconds] [-m MiB] [-t threads] [-b] [-S seed]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int secs = 20, cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), threads = 0, opt, i, p;
	long long before[NR_COUNTERS], after, total0, sys0, total1, sys1, hint;
	double res[3600], t0, converge = -1, sweeps = 0;
	size_t mb = 64, len;
	const char *name;
	static struct mech m;
	int nres = 0, tick;
	char *mem;

	if (argc < 2)
		usage();
	name = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "s:m:t:bS:")) != -1) {
		switch (opt) {
		case 's': secs = atoi(optarg); break;
		case 'm': mb = strtoul(optarg, NULL, 0); break;
		case 't': threads = atoi(optarg); break;
		case 'b': bind_mode = 1; break;
		case 'S': seed = strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	nodes = nr_nodes();
	if (!threads)
		threads = cpus;
	if (nodes < 1 || nodes > MAX_NODES || secs < 1 || secs > 3600 || !mb ||
	    threads < 1 || threads > MAX_TASKS) {
		fprintf(stderr, "bench: bad setup: %d nodes, %d s, %zu MiB, %d threads\n",
			nodes, secs, mb, threads);
		return 2;
	}
	map_cpus();
	len = mb << 20;
	ctl = (struct control *)alloc_or_die(sizeof(*ctl), true);

	if (!strcmp(name, "numa01")) {
		int half = threads > 1 ? threads / 2 : 1;

		ctl->nr = 2 * half;
		for (p = 0; p < 2; p++) {
			if (fork_or_die())
				continue;
			mem = alloc_or_die(len / 2, false);
			touch_buffer(mem, len / 2);
			child(p * half, half, -1, mem, len / 2, 0, false);
		}
	} else if (!strcmp(name, "numa01_thread_alloc")) {
		int half = threads > 1 ? threads / 2 : 1;

		ctl->nr = 2 * half;
		for (p = 0; p < 2; p++)
			if (!fork_or_die())
				child(p * half, half, -1, alloc_or_die(len / 2, false),
				      len / 2 / half & ~(PAGE_SZ - 1),
				      len / 2 / half & ~(PAGE_SZ - 1), true);
	} else if (!strcmp(name, "numa02") || !strcmp(name, "numa02_smt")) {
		int nr = strcmp(name, "numa02") ? (threads + 1) / 2 : threads;
		size_t slice = len / nr & ~(PAGE_SZ - 1);

		mem = alloc_or_die(len, false);
		if (bind_mode)
			for (i = 0; i < nr; i++)
				bind_region(mem + i * slice, slice, i % nodes);
		region_touch(mem, len, 1);
		ctl->nr = nr;
		start_threads(0, nr, -1, mem, slice, slice, false, -1, -1, false);
	} else if (!strcmp(name, "converge")) {
		size_t each = len / threads & ~(PAGE_SZ - 1);

		ctl->nr = threads;
		start_threads(0, threads, -1, alloc_or_die(len, false), each, each,
			      true, 1, 0, true);
	} else if (!strcmp(name, "multi")) {
		int per = threads / nodes > 0 ? threads / nodes : 1;

		ctl->nr = per * nodes;
		for (p = 0; p < nodes; p++) {
			if (fork_or_die())
				continue;
			mem = alloc_or_die(len / nodes, false);
			if (bind_mode) {
				pin_to_node(p);
				bind_region(mem, len / nodes, p);
			}
			region_touch(mem, len / nodes, 1);
			child(p * per, per, p, mem, len / nodes, 0, false);
		}
	} else if (!strcmp(name, "trade")) {
		int half = threads > 1 ? threads / 2 : 1;

		ctl->nr = 2 * half;
		for (p = 0; p < 2; p++) {
			if (fork_or_die())
				continue;
			mem = alloc_or_die(len / 2, false);
			pin_to_node(p % nodes);
			if (bind_mode)
				bind_region(mem, len / 2, p % nodes);
			region_touch(mem, len / 2, 1);
			/* Thread i starts on node i (its home node with -b). */
			start_threads(p * half, half, bind_mode ? p % nodes : -1,
				      mem, len / 2, 0, false, -1, 0, true);
			while (ctl->phase != 2)
				usleep(10000);
			_exit(0);
		}
	} else if (!strcmp(name, "fbq")) {
		if (nodes < 2) {
			fprintf(stderr, "bench: fbq needs 2 nodes\n");
			return 2;
		}
		/* Each NUMA task touches its memory on its node, then runs free. */
		ctl->nr = 2;
		for (p = 0; p < 2; p++) {
			if (fork_or_die())
				continue;
			mem = alloc_or_die(len / 2, false);
			bind_region(mem, len / 2, p);
			start_threads(p, 1, p, mem, len / 2, 0, true, 0, -1, false);
			while (ctl->phase != 2)
				usleep(10000);
			_exit(0);
		}
		for (i = 0; i < HOGS && !bind_mode; i++)
			if (!fork_or_die())
				hog(i);
	} else if (!strcmp(name, "defer") || !strcmp(name, "defer_free")) {
		if (nodes < 2) {
			fprintf(stderr, "bench: %s needs 2 nodes\n", name);
			return 2;
		}
		mem = alloc_or_die(len, false);
		pin_to_node(1);
		if (bind_mode)
			bind_region(mem, len, 1);
		region_touch(mem, len, 1);
		unpin();
		/* Three writers on node 0, one on node 1 (slot 3). */
		ctl->nr = 4;
		start_threads(0, 3, 0, mem, len, 0, false, -1, 0, !strcmp(name, "defer_free"));
		start_threads(3, 1, 1, mem, len, 0, false, -1, 0, !strcmp(name, "defer_free"));
	} else if (!strcmp(name, "pingpong")) {
		if (nodes < 2) {
			fprintf(stderr, "bench: pingpong needs 2 nodes\n");
			return 2;
		}
		mem = alloc_or_die(len, false);
		if (bind_mode)
			bind_region(mem, len, 0);
		pin_to_node(0);
		region_touch(mem, len, 1);
		unpin();
		/* Eight writers, slots alternating nodes 0 and 1. */
		nodes = 2;
		ctl->nr = 8;
		start_threads(0, 8, -1, mem, len, 0, false, -1, 0, false);
		nodes = nr_nodes();
	} else {
		usage();
	}

	for (i = 0; i < 600 && ctl->ready < ctl->nr; i++)
		usleep(50 * 1000);
	if (ctl->ready < ctl->nr) {
		fprintf(stderr, "bench: only %d of %d tasks started\n", ctl->ready, ctl->nr);
		ctl->phase = 2;
		return 1;
	}
	for (i = 0; i < (int)NR_COUNTERS; i++)
		before[i] = vmstat(counters[i]);
	mech_start(&m);
	cpu_times(&total0, &sys0);
	t0 = now();
	ctl->phase = 1;
	for (tick = 1; tick <= secs * 10; tick++) {
		while (now() - t0 < tick / 10.0)
			usleep(10 * 1000);
		sample_nodes(&m);
		if (tick % 10)
			continue;
		i = tick / 10;
		res[nres] = mean_residency();
		printf("bench-res workload=%s t=%d residency=%.1f\n", name, i, res[nres]);
		nres++;
		sample_second(&m, i);
	}
	mech_tasks(&m);
	ctl->phase = 2;
	cpu_times(&total1, &sys1);
	for (i = 0; i < ctl->nr; i++)
		sweeps += ctl->slot[i].sweeps;
	for (i = nres - 1; i >= 0 && res[i] >= CONVERGED_PCT; i--)
		converge = i + 1;
	printf("bench-result workload=%s bind=%d seconds=%d tasks=%d seed=%u",
	       name, bind_mode, secs, ctl->nr, seed);
	for (i = 0; i < (int)NR_COUNTERS; i++) {
		after = vmstat(counters[i]);
		printf(" %s=%lld", counters[i] + 5,
		       before[i] < 0 || after < 0 ? -1 : after - before[i]);
		if (i == LOCAL) {
			long long f = vmstat("numa_hint_faults") - before[HINT];
			long long l = vmstat("numa_hint_faults_local") - before[LOCAL];

			printf(" local_pct=%.1f", f > 0 ? 100.0 * l / f : -1.0);
		}
	}
	printf(" residency=%.1f converge_s=%.0f sys_pct=%.1f sweeps_per_s=%.1f",
	       nres ? res[nres - 1] : -1, converge,
	       total1 > total0 ? 100.0 * (sys1 - sys0) / (total1 - total0) : -1,
	       sweeps / secs);
	/* The guest's system CPU (all CPUs, in microseconds) per hint fault. */
	hint = vmstat("numa_hint_faults") - before[HINT];
	printf(" sys_us_per_fault=%.1f", hint > 0 && before[HINT] >= 0 ?
	       (sys1 - sys0) * 1e6 / sysconf(_SC_CLK_TCK) / hint : -1.0);
	mech_print(&m);
	fflush(stdout);
	while (wait(NULL) > 0)
		;
	return 0;
}
