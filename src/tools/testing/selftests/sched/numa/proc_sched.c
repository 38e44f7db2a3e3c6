// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/<pid>/task/<tid>/sched shows a task's NUMA balancing state.
 *
 * A thread pinned to the last node writes a region first touched on node 0,
 * so it takes hinting faults and gets a preferred node. Its sched file must
 * then carry the fields kernel/sched/debug.c prints for NUMA balancing, in
 * the format later tests and the locality report parse:
 *
 *   mm->numa_scan_seq, numa_pages_migrated, numa_preferred_nid,
 *   total_numa_faults                                   ("name : value")
 *   current_node=<nid>, numa_group_id=<gid>
 *   numa_faults node=<nid> task_private=<n> task_shared=<n>
 *                          group_private=<n> group_shared=<n>   (per node)
 *
 * Seen to fail on the kernel without NUMA_BALANCING said to have it
 * (make boot FAKE_CONFIG=NUMA_BALANCING=y): every case.
 */
#include <pthread.h>
#include "numa_test.h"
#include "../../kselftest.h"

#define REGION_LEN	((size_t)16 << 20)
#define TIMEOUT_S	120

static volatile int stop;
static void *mem;
static int node;
static volatile pid_t tid;

static void *worker_fn(void *arg)
{
	unsigned char v = 0;

	(void)arg;
	if (pin_to_node(node))
		return NULL;
	tid = gettid_();
	while (!stop)
		region_touch(mem, REGION_LEN, v++);
	return NULL;
}

/* Check the per-node "numa_faults" lines and "current_node=" line. */
static void check_lines(int nodes)
{
	char path[64], line[256];
	int cur = -1, gid = -1, seen = 0, ordered = 1;
	unsigned long tp, ts, gp, gs;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", tid);
	f = fopen(path, "r");
	if (!f)
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		int n;

		if (sscanf(line, "current_node=%d, numa_group_id=%d", &cur, &gid) == 2)
			continue;
		if (sscanf(line, "numa_faults node=%d task_private=%lu task_shared=%lu group_private=%lu group_shared=%lu",
			   &n, &tp, &ts, &gp, &gs) == 5) {
			if (n != seen)
				ordered = 0;
			seen++;
		}
	}
	fclose(f);
	ksft_test_result(cur == node && gid >= 0,
			 "current_node=%d (pinned to %d), numa_group_id=%d\n", cur, node, gid);
	ksft_test_result(seen == nodes && ordered,
			 "one numa_faults line per node, in order (%d of %d)\n", seen, nodes);
}

int main(void)
{
	static const char * const fields[] = {
		"mm->numa_scan_seq", "numa_pages_migrated",
		"numa_preferred_nid", "total_numa_faults",
	};
	long long val, faults = 0, pref = -1;
	int nodes = nr_nodes(), ok, i;
	pthread_t thread;
	double t0;

	ksft_print_header();
	SKIP_WITHOUT_BALANCING();
	if (nodes < 2)
		ksft_exit_skip("needs 2 nodes, found %d\n", nodes);
	ksft_set_plan(5);

	node = nodes - 1;
	if (pin_to_node(0))
		ksft_exit_fail_msg("cannot pin to node 0\n");
	mem = region_alloc(REGION_LEN);
	if (!mem)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	region_touch(mem, REGION_LEN, 1);
	pthread_create(&thread, NULL, worker_fn, NULL);

	t0 = now();
	while (!tid && now() - t0 < 10)
		usleep(10 * 1000);
	if (!tid)
		ksft_exit_fail_msg("worker did not start (pinning to node %d failed?)\n", node);

	ok = 1;
	for (i = 0; i < (int)ARRAY_SIZE(fields); i++) {
		if (sched_field(tid, fields[i], &val)) {
			ksft_print_msg("no '%s' field\n", fields[i]);
			ok = 0;
		}
	}
	ksft_test_result(ok, "NUMA fields present in /proc/self/task/%d/sched\n", tid);

	/* Faults are recorded, and a preferred node chosen, at scan ends. */
	while (now() - t0 < TIMEOUT_S) {
		sched_field(tid, "total_numa_faults", &faults);
		sched_field(tid, "numa_preferred_nid", &pref);
		if (faults > 0 && pref >= 0)
			break;
		usleep(500 * 1000);
	}
	ksft_test_result(faults > 0, "total_numa_faults=%lld after %.1fs\n", faults, now() - t0);
	ksft_test_result(pref >= 0 && pref < nodes, "numa_preferred_nid=%lld is a node\n", pref);
	check_lines(nodes);

	stop = 1;
	pthread_join(thread, NULL);
	ksft_finished();
}
