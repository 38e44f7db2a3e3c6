// SPDX-License-Identifier: GPL-2.0
/*
 * Without CONFIG_NUMA_CPUPID the kernel is a last-nid kernel: the two-stage
 * filter applies from a page's first NUMA hinting fault.
 *
 * A region is written on node 0 (its first touch, which places it there),
 * then by a thread on node 1. The scan period is made long (SCAN_MS, from
 * the writer's first scan on), so that the scan passes are seconds apart
 * and every page takes exactly one hinting fault per pass:
 *   1. first fault: after the first pass's faults, no page has moved. The
 *      page's record was unset, which is no node, so the filter says no
 *      and records node 1;
 *   2. second fault: after the next pass, the pages are on node 1: the
 *      record says node 1 and the fault comes from node 1.
 *
 * Then again with a writer whose TID ends in 0xff, the low byte that an
 * unset {cpu,pid} record holds in its PID field: a last-nid kernel reads
 * the record for its node only, so that writer's pages move too.
 *
 * With NUMA_CPUPID the test is skipped: there, as in 6.1, a young task's
 * first faults migrate at once (it can tell its own first touch). With it
 * built in and NO_NUMA_CPUPID in sched/features, the test runs: the
 * kernel must behave as the last-nid kernel.
 *
 * Fails on: the last-nid kernel before its early-life shortcut was gated
 * (c385900's no-cpupid build): every page moved on its first fault,
 * "first fault" counted 2048 of 2048 pages on node 1. The TID-0xff case
 * fails on NO_NUMA_CPUPID as first written (ee9ae1b), which took such a
 * record for an unset one: "second fault" found 0 pages moved.
 *
 * Seen to fail on numa-all said to lack NUMA_CPUPID (make boot
 * FAKE_CONFIG=NUMA_CPUPID=n): both first-fault cases moved the page.
 */
#include <pthread.h>
#include "numa_test.h"
#include "../../kselftest.h"

#define REGION_LEN	((size_t)8 << 20)
#define NR_PAGES	((long)(REGION_LEN / PAGE_SZ))
#define SCAN_MS		4000
#define TIMEOUT_S	30
/* Pages moved after one pass: a few may have been faulted twice. */
#define MAX_FIRST_PCT	5
#define MIN_SECOND_PCT	90

/*
 * scan_delay_ms too: a new task's scan period starts there, and the writer
 * is the only task of the process that runs, so its period paces the scan.
 */
static const char *const knobs[] = {
	"scan_delay_ms", "scan_period_min_ms", "scan_period_max_ms",
};

#define NR_KNOBS	3
static char saved[NR_KNOBS][32];
static char *mem;
static volatile int stop, want_ff, tid_ff, started;

static void *writer(void *arg)
{
	unsigned char v = 0;

	(void)arg;
	tid_ff = (gettid_() & 0xff) == 0xff;
	started = 1;
	if ((want_ff && !tid_ff) || pin_to_node(1))
		return NULL;
	while (!stop)
		region_touch(mem, REGION_LEN, v++);
	return NULL;
}

/* The writer thread; with @ff, one whose TID ends in 0xff. */
static int start_writer(pthread_t *thread, bool ff)
{
	int tries;

	want_ff = ff;
	for (tries = 0; tries < 1024; tries++) {
		started = 0;
		if (pthread_create(thread, NULL, writer, NULL))
			return -1;
		while (!started)
			sched_yield();
		if (!ff || tid_ff)
			return 0;
		pthread_join(*thread, NULL);
	}
	return -1;
}

/* Wait until @n more hinting faults than @base, and 1 s of quiet. */
static long long wait_faults(long long base, long n, double *t)
{
	long long last = -1, cur;
	double t0 = now(), quiet = now();

	while (now() - t0 < TIMEOUT_S) {
		usleep(100 * 1000);
		cur = vmstat("numa_hint_faults");
		if (cur != last)
			quiet = now();
		last = cur;
		if (cur - base >= n && now() - quiet >= 1.0)
			break;
	}
	*t = now() - t0;
	return last;
}

/* Both passes with a fresh region; @ff: the writer's TID ends in 0xff. */
static void run_case(bool ff, const char *what)
{
	long long faults0, faults1, faults2;
	long counts[MAX_NODES];
	pthread_t thread;
	double t;

	stop = 0;
	mem = region_alloc(REGION_LEN);
	if (!mem)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	region_touch(mem, REGION_LEN, 1);
	pages_per_node_settled(mem, REGION_LEN, counts);
	if (counts[0] < NR_PAGES)
		ksft_exit_fail_msg("first touch placed %ld of %ld pages on node 0\n",
				   counts[0], NR_PAGES);

	faults0 = vmstat("numa_hint_faults");
	if (start_writer(&thread, ff))
		ksft_exit_fail_msg("no writer thread%s\n", ff ? " with a TID ending in 0xff" : "");

	/* 1: one pass of faults from node 1, none of them moved a page. */
	faults1 = wait_faults(faults0, NR_PAGES * 9 / 10, &t);
	pages_per_node_settled(mem, REGION_LEN, counts);
	ksft_print_msg("%sfirst pass after %.1fs: %lld hinting faults, %ld pages on node 0, %ld on node 1\n",
		       what, t, faults1 - faults0, counts[0], counts[1]);
	ksft_test_result(faults1 - faults0 >= NR_PAGES * 9 / 10 &&
			 counts[1] * 100 <= NR_PAGES * MAX_FIRST_PCT,
			 "%sfirst fault: a page written on node 0, then from node 1, stays (<= %d%% moved)\n",
			 what, MAX_FIRST_PCT);

	/* 2: the next pass's faults, from node 1 again, move the pages. */
	faults2 = wait_faults(faults1, NR_PAGES * 9 / 10, &t);
	pages_per_node_settled(mem, REGION_LEN, counts);
	ksft_print_msg("%ssecond pass after %.1fs: %lld hinting faults, %ld pages on node 0, %ld on node 1\n",
		       what, t, faults2 - faults1, counts[0], counts[1]);
	ksft_test_result(counts[1] * 100 >= NR_PAGES * MIN_SECOND_PCT,
			 "%ssecond fault: two faults in a row from node 1 move the page (>= %d%%)\n",
			 what, MIN_SECOND_PCT);

	stop = 1;
	pthread_join(thread, NULL);
	munmap(mem, REGION_LEN);
}

int main(void)
{
	char val[16];
	const char *const vals[NR_KNOBS] = { val, val, val };
	int on, i;

	on = FEATURE_TEST_START("NUMA_CPUPID");
	if (on)
		ksft_exit_skip("CONFIG_NUMA_CPUPID is on: a young task's first faults migrate, as in 6.1\n");
	ksft_set_plan(4);

	snprintf(val, sizeof(val), "%d", SCAN_MS);
	if (balancing_knobs_set(knobs, vals, NR_KNOBS, saved, &i))
		ksft_exit_fail_msg("cannot set %s\n", knobs[i]);
	if (pin_to_node(0))
		ksft_exit_fail_msg("cannot pin to node 0\n");

	run_case(false, "");
	run_case(true, "TID ending in 0xff: ");

	balancing_knobs_restore(knobs, NR_KNOBS, saved);
	ksft_finished();
}
