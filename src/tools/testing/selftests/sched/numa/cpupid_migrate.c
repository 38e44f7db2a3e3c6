// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_NUMA_CPUPID: a migrated page keeps its {cpu,pid} record.
 *
 * Thread A, on node 1, writes a region first touched on node 0 until NUMA
 * balancing has moved it to node 1, then stops. The record moved with each
 * page, so the pages still name A. Thread B, on another node, then writes
 * the same region: at the next scan its faults find A's record and count
 * as shared. Had migration reset the record, B's faults would find it
 * unset and count as private ("first access").
 *
 * The scan period is made long (SCAN_MS) for the test, so that A has
 * stopped before the scan after the one that moved its pages: otherwise A
 * would fault again and write its record afresh, whatever migration did.
 *
 * Seen to fail on numa-none said to have NUMA_CPUPID (make boot
 * CONFIG=numa-none FAKE_CONFIG=NUMA_CPUPID=y TESTS=cpupid_migrate): B's
 * faults on the migrated pages were private (2026-12-06: 2051 private,
 * 0 shared).
 */
#include <pthread.h>
#include "numa_test.h"
#include "../../kselftest.h"

#define REGION_LEN	((size_t)8 << 20)
#define NR_PAGES	((long)(REGION_LEN / PAGE_SZ))
#define SCAN_MS		5000
#define TIMEOUT_S	60
#define MIN_SHARED_PCT	80

static const char *const knobs[] = { "scan_period_min_ms", "scan_period_max_ms" };
static char saved[2][32];

struct worker {
	pthread_t thread;
	int node;
	volatile int stop;
	volatile pid_t tid;
};

static char *mem;

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned char v = 0;

	if (pin_to_node(w->node))
		return NULL;
	w->tid = gettid_();
	while (!w->stop)
		region_touch(mem, REGION_LEN, v++);
	return NULL;
}

int main(void)
{
	struct worker a = { .node = 1 }, b = { 0 };
	int nodes = nr_nodes(), on = feature_enabled("NUMA_CPUPID");
	long counts[MAX_NODES], present = 0, priv = 0, shared = 0;
	char val[16];
	const char *const vals[2] = { val, val };
	double t0;
	int i;

	ksft_print_header();
	SKIP_WITHOUT_BALANCING();
	if (nodes < 2)
		ksft_exit_skip("needs 2 nodes, found %d\n", nodes);
	if (on <= 0)
		ksft_exit_skip("NUMA_CPUPID is off (not built, or NO_NUMA_CPUPID): faults read no task\n");
	ksft_set_plan(2);
	b.node = nodes > 2 ? 2 : 0;

	snprintf(val, sizeof(val), "%d", SCAN_MS);
	if (balancing_knobs_set(knobs, vals, 2, saved, &i))
		ksft_exit_fail_msg("cannot set %s\n", knobs[i]);

	if (pin_to_node(0))
		ksft_exit_fail_msg("cannot pin to node 0\n");
	mem = region_alloc(REGION_LEN);
	if (!mem)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	region_touch(mem, REGION_LEN, 1);

	/* A writes until its pages are on its node, then stops. */
	pthread_create(&a.thread, NULL, worker_fn, &a);
	t0 = now();
	do {
		usleep(20 * 1000);
		present = pages_per_node_settled(mem, REGION_LEN, counts);
	} while (counts[1] * 100 < NR_PAGES * 95 && now() - t0 < TIMEOUT_S);
	a.stop = 1;
	pthread_join(a.thread, NULL);
	ksft_test_result(counts[1] * 100 >= NR_PAGES * 95,
			 "region moved to thread A's node 1 after %.1fs (%ld of %ld pages, %ld seen)\n",
			 now() - t0, counts[1], NR_PAGES, present);

	/*
	 * B's faults at the next scan find A's record: shared. Read until a
	 * pass's worth is folded in, or the shared ones are enough.
	 */
	pthread_create(&b.thread, NULL, worker_fn, &b);
	t0 = now();
	do {
		usleep(100 * 1000);
		if (b.tid)
			task_numa_faults(b.tid, &priv, &shared);
	} while (priv + shared < NR_PAGES &&
		 shared * 100 < NR_PAGES * MIN_SHARED_PCT && now() - t0 < TIMEOUT_S);
	b.stop = 1;
	pthread_join(b.thread, NULL);
	ksft_print_msg("thread B on node %d after %.1fs: task_private %ld task_shared %ld\n",
		       b.node, now() - t0, priv, shared);
	/*
	 * Counted against the region, not against B's faults: the figures
	 * change when the task's buffer is folded in, once a scan pass, and
	 * a fold can take two passes at once, B's shared faults and the
	 * private ones of its next pass (seen once in the matrix: private
	 * 2051, shared 2049 after 20 s).
	 */
	ksft_test_result(shared * 100 >= NR_PAGES * MIN_SHARED_PCT,
			 "B's faults on A's migrated pages are shared: %ld, region %ld pages (want >= %d%%)\n",
			 shared, NR_PAGES, MIN_SHARED_PCT);

	balancing_knobs_restore(knobs, 2, saved);
	ksft_finished();
}
