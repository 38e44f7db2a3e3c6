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
 * Usage: bench WORKLOAD [-s seconds] [-m MiB] [-t threads] [-b]
 */
#include <getopt.h>
#include <pthread.h>
#include "numa_test.h"

#define MAX_TASKS	64
#define SAMPLE		256
#define CONVERGED_PCT	90

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
};
#define NR_COUNTERS	(sizeof(counters) / sizeof(counters[0]))

static void usage(void)
{
	fprintf(stderr, "usage: bench numa01|numa01_thread_alloc|numa02|numa02_smt|converge|multi|pingpong|trade [-s seconds] [-m MiB] [-t threads] [-b]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int secs = 20, cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), threads = 0, opt, i, p;
	long long before[NR_COUNTERS], after, total0, sys0, total1, sys1, hint;
	double res[3600], t0, converge = -1, sweeps = 0;
	size_t mb = 64, len;
	const char *name;
	int nres = 0;
	char *mem;

	if (argc < 2)
		usage();
	name = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "s:m:t:b")) != -1) {
		switch (opt) {
		case 's': secs = atoi(optarg); break;
		case 'm': mb = strtoul(optarg, NULL, 0); break;
		case 't': threads = atoi(optarg); break;
		case 'b': bind_mode = 1; break;
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
	cpu_times(&total0, &sys0);
	t0 = now();
	ctl->phase = 1;
	for (i = 1; i <= secs; i++) {
		while (now() - t0 < i)
			usleep(20 * 1000);
		res[nres] = mean_residency();
		printf("bench-res workload=%s t=%d residency=%.1f\n", name, i, res[nres]);
		nres++;
	}
	ctl->phase = 2;
	cpu_times(&total1, &sys1);
	for (i = 0; i < ctl->nr; i++)
		sweeps += ctl->slot[i].sweeps;
	for (i = nres - 1; i >= 0 && res[i] >= CONVERGED_PCT; i--)
		converge = i + 1;
	printf("bench-result workload=%s bind=%d seconds=%d tasks=%d", name, bind_mode, secs, ctl->nr);
	for (i = 0; i < (int)NR_COUNTERS; i++) {
		after = vmstat(counters[i]);
		printf(" %s=%lld", counters[i] + 5,
		       before[i] < 0 || after < 0 ? -1 : after - before[i]);
		if (i == 2) {
			long long f = vmstat("numa_hint_faults") - before[1];
			long long l = vmstat("numa_hint_faults_local") - before[2];

			printf(" local_pct=%.1f", f > 0 ? 100.0 * l / f : -1.0);
		}
	}
	printf(" residency=%.1f converge_s=%.0f sys_pct=%.1f sweeps_per_s=%.1f",
	       nres ? res[nres - 1] : -1, converge,
	       total1 > total0 ? 100.0 * (sys1 - sys0) / (total1 - total0) : -1,
	       sweeps / secs);
	/* The guest's system CPU (all CPUs, in microseconds) per hint fault. */
	hint = vmstat("numa_hint_faults") - before[1];
	printf(" sys_us_per_fault=%.1f\n", hint > 0 && before[1] >= 0 ?
	       (sys1 - sys0) * 1e6 / sysconf(_SC_CLK_TCK) / hint : -1.0);
	fflush(stdout);
	while (wait(NULL) > 0)
		;
	return 0;
}
