// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_NUMA_CPUPID: private and shared faults, in both option states.
 *
 * On, each page records the last {cpu,pid} to fault on it, and a fault by
 * another task is shared:
 *   - threads on disjoint pages take (almost) only private faults;
 *   - threads writing the same pages in turn take shared faults.
 * Off, the page records the last node only and every fault is private:
 *   - the same two workloads show no shared fault at all;
 *   - memory tiering (kernel.numa_balancing=2), which needs the record's
 *     width, is refused with EINVAL and the mode stays as it was.
 *
 * Faults are read from /proc/self/task/<tid>/sched, the per-node
 * "numa_faults ... task_private=<n> task_shared=<n>" lines.
 *
 * Seen to fail on a kernel whose /proc/config.gz says the opposite
 * (numa-sched's make boot FAKE_CONFIG=...): numa-none said to have
 * NUMA_CPUPID, "shared faults seen" and "tiering accepted" failed;
 * numa-all said not to, "no shared fault" and "tiering refused".
 */
#include <pthread.h>
#include "numa_test.h"
#include "../../kselftest.h"

#define REGION_LEN	((size_t)8 << 20)
/* Enough faults to judge a ratio, and a generous time to collect them. */
#define MIN_FAULTS	2000
#define TIMEOUT_S	120
/* On disjoint pages only PID collisions and THP could make a fault shared. */
#define MAX_SHARED_PCT	10
/* Seconds the shared case runs at least: scan passes of 100 ms and up. */
#define SHARED_MIN_S	3.0

struct worker {
	pthread_t thread;
	int node;
	char *mem;
	volatile pid_t tid;
};

static volatile int stop;

static void *private_worker(void *arg)
{
	struct worker *w = arg;
	unsigned char v = 0;

	if (pin_to_node(w->node))
		return NULL;
	w->mem = region_alloc(REGION_LEN);
	if (!w->mem)
		return NULL;
	region_touch(w->mem, REGION_LEN, 1);
	w->tid = gettid_();
	while (!stop)
		region_touch(w->mem, REGION_LEN, v++);
	return NULL;
}

static char *shared_mem;

static void *shared_worker(void *arg)
{
	struct worker *w = arg;
	unsigned char v = 0;

	if (pin_to_node(w->node))
		return NULL;
	w->tid = gettid_();
	while (!stop)
		region_touch(shared_mem, REGION_LEN, v++);
	return NULL;
}

/*
 * Run @fn in one thread per node (at most 2 for the shared case) until
 * their faults add up to MIN_FAULTS and @min_s seconds have passed, then
 * report private and shared sums.
 */
static int run(void *(*fn)(void *), int nr, double min_s, long *priv, long *shared)
{
	struct worker w[MAX_NODES];
	double t0 = now();
	int i, started;

	stop = 0;
	memset(w, 0, sizeof(w));
	for (i = 0; i < nr; i++) {
		w[i].node = i;
		pthread_create(&w[i].thread, NULL, fn, &w[i]);
	}
	do {
		usleep(200 * 1000);
		*priv = *shared = 0;
		started = 0;
		for (i = 0; i < nr; i++) {
			long p, s;

			if (!w[i].tid || task_numa_faults(w[i].tid, &p, &s))
				continue;
			started++;
			*priv += p;
			*shared += s;
		}
	} while ((started < nr || *priv + *shared < MIN_FAULTS || now() - t0 < min_s) &&
		 now() - t0 < TIMEOUT_S);
	stop = 1;
	for (i = 0; i < nr; i++)
		pthread_join(w[i].thread, NULL);
	ksft_print_msg("%d threads after %.1fs: task_private %ld task_shared %ld\n",
		       nr, now() - t0, *priv, *shared);
	return started == nr && *priv + *shared >= MIN_FAULTS ? 0 : -1;
}

static int read_mode(void)
{
	char buf[16];

	if (read_file("/proc/sys/kernel/numa_balancing", buf, sizeof(buf)) < 0)
		return -1;
	return atoi(buf);
}

/* Write @mode to kernel.numa_balancing; 0 or the write's errno. */
static int write_mode(int mode)
{
	FILE *f = fopen("/proc/sys/kernel/numa_balancing", "w");
	int err = 0;

	if (!f)
		return errno;
	if (fprintf(f, "%d\n", mode) < 0)
		err = errno;
	if (fclose(f) && !err)
		err = errno;
	return err;
}

int main(void)
{
	int nodes = nr_nodes(), on, err, mode;
	long priv, shared;

	on = FEATURE_TEST_START("NUMA_CPUPID");
	ksft_set_plan(3);

	shared_mem = region_alloc(REGION_LEN);
	if (!shared_mem)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	region_touch(shared_mem, REGION_LEN, 1);

	if (run(private_worker, nodes, 0, &priv, &shared))
		ksft_test_result_fail("threads on disjoint pages: too few faults\n");
	else if (on)
		ksft_test_result(shared * 100 <= (priv + shared) * MAX_SHARED_PCT,
				 "threads on disjoint pages: %ld%% shared (want <= %d%%)\n",
				 shared * 100 / (priv + shared), MAX_SHARED_PCT);
	else
		ksft_test_result(shared == 0, "threads on disjoint pages: no shared fault\n");

	/*
	 * A fault is shared when the page's last {cpu,pid} is the other
	 * thread's, which takes a second scan pass over the region: the
	 * first pass alone can reach MIN_FAULTS (seen once in 0.2 s, all
	 * private). SHARED_MIN_S holds both verdicts to many passes.
	 */
	if (run(shared_worker, 2, SHARED_MIN_S, &priv, &shared))
		ksft_test_result_fail("threads on the same pages: too few faults\n");
	else if (on)
		ksft_test_result(shared > 0, "threads on the same pages: shared faults seen\n");
	else
		ksft_test_result(shared == 0, "threads on the same pages: no shared fault\n");

	/* Tiering needs the record's width: the build's, not the feature's. */
	mode = read_mode();
	err = write_mode(2);
	if (feature_built("NUMA_CPUPID") > 0) {
		ksft_test_result(!err && read_mode() == 2,
				 "memory tiering mode accepted (error %d)\n", err);
	} else {
		ksft_test_result(err == EINVAL && read_mode() == mode,
				 "memory tiering mode refused with EINVAL (error %d, mode %d)\n",
				 err, read_mode());
	}
	write_mode(mode);
	ksft_finished();
}
