// SPDX-License-Identifier: GPL-2.0
/*
 * demo: the workload of "make run" and its locality report.
 *
 * One thread per CPU, each with a private region. All regions are first
 * touched with every thread confined to node 0, as happens when a program
 * initialises its data from one thread; then the threads are let loose on
 * every CPU and keep writing their own region. The scheduler spreads them
 * over the nodes; NUMA balancing has to bring each thread and its memory
 * back together, by moving pages, tasks, or both.
 *
 * After DURATION seconds the report gives the /proc/vmstat deltas the 2013
 * series' cover letter reports (PTE updates, hint faults, local faults,
 * local percent, pages migrated) and, per thread, its preferred node, the
 * node it runs on and where its region's pages are.
 *
 * Usage: demo [seconds] [MiB per thread]
 */
#include <pthread.h>
#include "numa_test.h"

struct worker {
	pthread_t thread;
	int index;
	pid_t tid;
	void *mem;
	size_t len;
};

static volatile int phase;	/* 0: first touch, 1: run, 2: stop */
static pthread_barrier_t touched;

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned char v = 0;

	w->tid = gettid_();
	region_touch(w->mem, w->len, 1);
	pthread_barrier_wait(&touched);
	while (phase == 0)
		usleep(1000);
	unpin();
	while (phase == 1)
		region_touch(w->mem, w->len, v++);
	return NULL;
}

static const char * const counters[] = {
	"numa_pte_updates", "numa_hint_faults", "numa_hint_faults_local",
	"numa_pages_migrated",
};
#define NR_COUNTERS (sizeof(counters) / sizeof(counters[0]))

static void report(struct worker *w, int nr, int nodes, long long *delta, double secs)
{
	long long local_pct = delta[1] ? 100 * delta[2] / delta[1] : 0;
	unsigned int i;
	int t, n;

	printf("== numa-sched locality report ==\n");
	printf("%d threads x %zu MiB, %d nodes, %.0f s\n", nr, w[0].len >> 20, nodes, secs);
	for (i = 0; i < NR_COUNTERS; i++)
		printf("%-28s %12lld\n", counters[i], delta[i]);
	printf("%-28s %12lld\n", "numa_hint_local_percent", local_pct);
	printf("\n%-8s %-9s %-8s", "tid", "preferred", "running");
	for (n = 0; n < nodes; n++)
		printf(" node%-2d", n);
	printf(" %s\n", "local%");
	for (t = 0; t < nr; t++) {
		long counts[MAX_NODES];
		long long pref = -1;
		long present = pages_per_node(w[t].mem, w[t].len, counts);
		int cur = -1, gid;

		sched_field(w[t].tid, "numa_preferred_nid", &pref);
		if (task_numa_ids(w[t].tid, &cur, &gid))
			cur = -1;
		printf("%-8d %-9lld %-8d", w[t].tid, pref, cur);
		for (n = 0; n < nodes; n++)
			printf(" %5ldM", counts[n] * PAGE_SZ >> 20);
		printf(" %5ld%%\n", (present > 0 && cur >= 0 && cur < MAX_NODES) ?
		       100 * counts[cur] / present : 0);
	}
	printf("== end of report ==\n");
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 30;
	size_t mb = argc > 2 ? strtoul(argv[2], NULL, 0) : 32;
	int nodes = nr_nodes(), nr = (int)sysconf(_SC_NPROCESSORS_ONLN), t;
	long long before[NR_COUNTERS], delta[NR_COUNTERS];
	struct worker *w;
	unsigned int i;
	double t0;

	if (nodes < 1 || nodes > MAX_NODES || nr < 1 || secs < 1 || !mb) {
		fprintf(stderr, "demo: bad setup: %d nodes, %d cpus, %d s, %zu MiB\n",
			nodes, nr, secs, mb);
		return 1;
	}
	w = calloc(nr, sizeof(*w));
	if (!w || pin_to_node(0)) {
		perror("demo: setup");
		return 1;
	}
	pthread_barrier_init(&touched, NULL, nr + 1);
	for (t = 0; t < nr; t++) {
		w[t].index = t;
		w[t].len = mb << 20;
		w[t].mem = region_alloc(w[t].len);
		if (!w[t].mem) {
			perror("demo: mmap");
			return 1;
		}
		pthread_create(&w[t].thread, NULL, worker_fn, &w[t]);
	}
	pthread_barrier_wait(&touched);

	for (i = 0; i < NR_COUNTERS; i++)
		before[i] = vmstat(counters[i]);
	t0 = now();
	phase = 1;
	unpin();
	sleep(secs);
	for (i = 0; i < NR_COUNTERS; i++)
		delta[i] = vmstat(counters[i]) - before[i];
	report(w, nr, nodes, delta, now() - t0);
	phase = 2;
	for (t = 0; t < nr; t++)
		pthread_join(w[t].thread, NULL);
	return 0;
}
