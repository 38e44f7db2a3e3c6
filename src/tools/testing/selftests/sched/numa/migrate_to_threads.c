// SPDX-License-Identifier: GPL-2.0
/*
 * Memory follows the threads that use it.
 *
 * The main thread, pinned to node 0, first-touches one region per node, so
 * that all of them start on node 0. Then one thread per node, pinned to that
 * node, keeps writing its own region. NUMA balancing must notice, through
 * hinting faults, that each region is used from another node and migrate
 * its pages there. The threads are pinned so that the only way to improve
 * locality is to move memory, whatever the scheduler-side features do.
 *
 * Needs: NUMA_BALANCING and at least two nodes. Any feature set must pass.
 *
 * Seen to fail on the kernel without NUMA_BALANCING said to have it
 * (make boot FAKE_CONFIG=NUMA_BALANCING=y): bailed out, no vmstat
 * counters.
 */
#include <pthread.h>
#include "numa_test.h"
#include "../../kselftest.h"

#define REGION_MB	16
#define REGION_LEN	((size_t)REGION_MB << 20)
/*
 * How far memory must have followed each thread. The scanner revisits the
 * whole address space many times within the window, so a working kernel
 * ends near 100%; half leaves room for a slow TCG host, while a kernel that
 * does not migrate stays at 0%.
 */
#define MIN_RESIDENCY	50
/* Generous: under TCG a scan pass over these regions takes a few seconds. */
#define TIMEOUT_S	120

struct worker {
	pthread_t thread;
	int node;
	void *mem;
	int pinned;
};

static volatile int stop;

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned char v = 0;

	w->pinned = pin_to_node(w->node) == 0;
	while (!stop)
		region_touch(w->mem, REGION_LEN, v++);
	return NULL;
}

/* Share of the whole region on the worker's node. */
static int residency(struct worker *w)
{
	long counts[MAX_NODES];

	if (pages_per_node_settled(w->mem, REGION_LEN, counts) < 0)
		return 0;
	return (int)(100 * counts[w->node] / (REGION_LEN / PAGE_SZ));
}

int main(void)
{
	struct worker w[MAX_NODES];
	long long faults0, migrated0, faults, migrated;
	int nodes = nr_nodes(), i, all;
	long counts[MAX_NODES];
	double t0, t;

	ksft_print_header();
	SKIP_WITHOUT_BALANCING();
	if (nodes < 2 || nodes > MAX_NODES)
		ksft_exit_skip("needs 2 to %d nodes, found %d\n", MAX_NODES, nodes);
	ksft_set_plan(3 + nodes - 1);

	if (pin_to_node(0))
		ksft_exit_fail_msg("cannot pin to node 0: %s\n", strerror(errno));
	for (i = 0; i < nodes; i++) {
		w[i].node = i;
		w[i].mem = region_alloc(REGION_LEN);
		if (!w[i].mem)
			ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
		region_touch(w[i].mem, REGION_LEN, 1);
	}
	/* Precondition: first touch put everything on node 0. */
	all = 1;
	for (i = 0; i < nodes; i++) {
		long present = pages_per_node(w[i].mem, REGION_LEN, counts);

		if (present <= 0 || counts[0] * 100 < present * 90)
			all = 0;
	}
	ksft_test_result(all, "first touch on node 0 places the regions there\n");

	faults0 = vmstat("numa_hint_faults");
	migrated0 = vmstat("numa_pages_migrated");
	if (faults0 < 0 || migrated0 < 0)
		ksft_exit_fail_msg("/proc/vmstat has no NUMA balancing counters\n");

	for (i = 0; i < nodes; i++)
		pthread_create(&w[i].thread, NULL, worker_fn, &w[i]);

	t0 = now();
	do {
		usleep(500 * 1000);
		t = now() - t0;
		all = 1;
		for (i = 1; i < nodes; i++)
			if (residency(&w[i]) < 90)
				all = 0;
	} while (!all && t < TIMEOUT_S);

	faults = vmstat("numa_hint_faults") - faults0;
	migrated = vmstat("numa_pages_migrated") - migrated0;
	ksft_print_msg("after %.1fs: numa_hint_faults +%lld, numa_pages_migrated +%lld\n",
		       t, faults, migrated);
	ksft_test_result(faults > 0, "the workload takes NUMA hinting faults\n");
	ksft_test_result(migrated > 0, "NUMA balancing migrates pages\n");

	for (i = 1; i < nodes; i++) {
		int r = residency(&w[i]);

		ksft_test_result(w[i].pinned && r >= MIN_RESIDENCY,
				 "node %d thread: %d%% of its region on its node (want >= %d%%)\n",
				 i, r, MIN_RESIDENCY);
	}
	stop = 1;
	for (i = 0; i < nodes; i++)
		pthread_join(w[i].thread, NULL);
	ksft_finished();
}
