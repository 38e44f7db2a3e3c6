// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_NUMA_SWAP: a task whose preferred node is full trades places with
 * a task there.
 *
 * Two busy processes, A and B, each with its memory on the other's node:
 * A's on node 1 while A starts on node 0, B's on node 0 while B starts on
 * node 1. The memory is bound there with mbind(MPOL_BIND |
 * MPOL_F_NUMA_BALANCING): NUMA balancing scans it and takes hinting faults
 * on it, but cannot migrate it, so only moving the tasks improves
 * locality. Every other CPU of the machine runs a pinned busy filler, so
 * no node has spare capacity: a plain move cannot help either.
 *
 * On:
 *   - A and B swap: numa_task_swapped in /proc/vmstat rises, and each ends
 *     on its memory's node;
 *   - with B pinned to node 1, no swap happens (a pinned task is never a
 *     partner) within MIN_PASSES scan passes of A's address space;
 *   - with a fork/exit storm beside them, A and B still swap onto their
 *     memory's nodes (and the host fails the run on any warning in the
 *     kernel log).
 * Off: numa_task_swapped stays where it was in the first scenario. The
 * other two are skipped: without the option there is no swap for a
 * pinned task to escape, nor a swap path for the storm to race with.
 *
 * "No swap" is believed after MIN_PASSES scan passes: when a swap is due,
 * it came within 0 to 1 pass of A having a preferred node in every
 * matrix row so far.
 *
 * Seen to fail on a kernel whose /proc/config.gz says the opposite
 * (make boot FAKE_CONFIG=...): numa-none said to have NUMA_SWAP made 0
 * swaps in both swap cases; numa-all said not to made 1.
 */
#include <signal.h>
#include <sys/wait.h>
#include "numa_test.h"
#include "../../kselftest.h"

#define REGION_LEN	((size_t)8 << 20)
#define TIMEOUT_S	90
/* Scan passes over a task's memory after which "no swap" is believed. */
#define MIN_PASSES	5
#define STABLE_SAMPLES	3

/* Fillers for every CPU, the two movers and the storm. */
#define MAX_SPAWNED	(CPU_SETSIZE + 3)
static pid_t spawned[MAX_SPAWNED];
static int nr_spawned;

/*
 * A busy child writing memory bound to @mem_node; it starts on @start_node
 * and is then free to run anywhere, unless @pinned.
 */
static pid_t mover(int start_node, int mem_node, bool pinned)
{
	pid_t pid = fork();

	if (!pid) {
		char *mem = region_alloc(REGION_LEN);
		unsigned char v = 0;

		if (!mem || pin_to_node(start_node) ||
		    region_bind(mem, REGION_LEN, 1UL << mem_node))
			_exit(1);
		region_touch(mem, REGION_LEN, 1);
		if (!pinned)
			unpin();
		for (;;)
			region_touch(mem, REGION_LEN, v++);
	}
	if (pid > 0 && nr_spawned < MAX_SPAWNED)
		spawned[nr_spawned++] = pid;
	return pid;
}

/* Forks short-lived children, as many as it can, until killed. */
static pid_t storm(void)
{
	pid_t pid = fork();

	if (!pid) {
		for (;;) {
			pid_t c = fork();

			if (!c)
				_exit(0);
			if (c > 0)
				waitpid(c, NULL, 0);
		}
	}
	if (pid > 0 && nr_spawned < MAX_SPAWNED)
		spawned[nr_spawned++] = pid;
	return pid;
}

static int node_of(pid_t pid)
{
	int node = -1, gid;

	task_numa_ids(pid, &node, &gid);
	return node;
}

/*
 * A on node 0 with memory on node 1, B the other way round; with @pin_b,
 * B cannot leave node 1. Waits until both run on their memory's node for
 * STABLE_SAMPLES samples, or until A's address space was scanned
 * MIN_PASSES times since A got its preferred node (when no swap is
 * expected), or TIMEOUT_S. Returns the swaps counted meanwhile.
 */
static long long scenario(int nodes, bool pin_b, bool expect_swap,
			  bool with_storm, bool *home)
{
	long long swapped0 = vmstat("numa_task_swapped"), seq0 = -1, seq = -1;
	long long pref = -1;
	pid_t a, b;
	int stable = 0;
	double t0 = now();

	*home = false;
	/*
	 * Every CPU busy but the one each mover takes: with more than one
	 * CPU a node, a node would otherwise have room, and a mover would
	 * reach its memory by a plain move (seen on 2x2: 0 swaps, both
	 * scenarios failed).
	 */
	if (spin_on_nodes(2, nodes - 1, spawned, MAX_SPAWNED, &nr_spawned) < 0 ||
	    spin_on_node(0, 1, spawned, MAX_SPAWNED, &nr_spawned) < 0 ||
	    spin_on_node(1, 1, spawned, MAX_SPAWNED, &nr_spawned) < 0) {
		kill_children(spawned, &nr_spawned);
		return -1;
	}
	a = mover(0, 1, false);
	b = mover(1, 0, pin_b);
	if (a < 0 || b < 0 || (with_storm && storm() < 0)) {
		kill_children(spawned, &nr_spawned);
		return -1;
	}

	while (now() - t0 < TIMEOUT_S) {
		usleep(500 * 1000);
		*home = node_of(a) == 1 && node_of(b) == 0;
		stable = *home ? stable + 1 : 0;
		if (expect_swap && stable >= STABLE_SAMPLES)
			break;
		if (sched_field(a, "numa_preferred_nid", &pref) || pref < 0)
			continue;
		sched_field(a, "mm->numa_scan_seq", &seq);
		if (seq0 < 0)
			seq0 = seq;
		if (!expect_swap && seq - seq0 >= MIN_PASSES)
			break;
	}
	ksft_print_msg("after %.1fs: A on node %d (preferred %lld), B on node %d, %lld scan passes, %lld swaps\n",
		       now() - t0, node_of(a), pref, node_of(b),
		       seq0 < 0 ? -1 : seq - seq0,
		       vmstat("numa_task_swapped") - swapped0);
	kill_children(spawned, &nr_spawned);
	return vmstat("numa_task_swapped") - swapped0;
}

int main(void)
{
	int nodes = nr_nodes(), on;
	long long swaps;
	bool home;

	on = FEATURE_TEST_START("NUMA_SWAP");
	if (vmstat("numa_task_swapped") < 0)
		ksft_exit_fail_msg("no numa_task_swapped in /proc/vmstat\n");
	ksft_set_plan(3);

	swaps = scenario(nodes, false, on, false, &home);
	if (on)
		ksft_test_result(swaps > 0 && home,
				 "A and B swapped onto their memory's nodes (%lld swaps)\n",
				 swaps);
	else
		ksft_test_result(swaps == 0, "no swap without NUMA_SWAP (%lld)\n",
				 swaps);

	if (!on) {
		test_skip("a pinned task is never swapped", "needs CONFIG_NUMA_SWAP\n");
		test_skip("swap scenario beside a fork/exit storm", "needs CONFIG_NUMA_SWAP\n");
		ksft_finished();
	}

	swaps = scenario(nodes, true, false, false, &home);
	ksft_test_result(swaps == 0, "a pinned task is never swapped (%lld swaps)\n",
			 swaps);

	swaps = scenario(nodes, false, true, true, &home);
	ksft_test_result(swaps > 0 && home,
			 "beside a fork/exit storm, A and B still swapped onto their memory's nodes (%lld swaps)\n",
			 swaps);
	ksft_finished();
}
