// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_NUMA_MIGRATE_DEFER, and the retry knob of the base.
 *
 * On:
 *   - sysctl kernel.numa_balancing_migrate_deferred exists, reads 16 at
 *     boot, takes 0 and 65535, and refuses "-1", "abc", "65536" and a
 *     number past UINT_MAX with EINVAL, keeping its value;
 *   - shared-page ping-pong: PP_THREADS threads, half pinned to node 0 and
 *     half to node 1, write one buffer for PP_S seconds. With several
 *     threads a node, most faults that pass the two-stage filter are
 *     shared (the page's last access was a sibling's on the same node).
 *     numa_migrate_deferred in /proc/vmstat rises with the sysctl at 16
 *     and at its maximum, and not at all at 0. The pages migrated at
 *     each setting are reported, not judged (see below). Each run is a
 *     process of its own, so that all start from the same state;
 *   - private pages: each thread writes a buffer of its own, first touched
 *     on the other node; every page migrates once, with the sysctl at 0 or
 *     at 16 alike (a private fault is never deferred).
 * Off: no such sysctl, and no numa_migrate_deferred in /proc/vmstat.
 *
 * Always: debugfs sched/numa_balancing/migrate_retry_ms reads 0, takes
 * 1 and 60000, and refuses "-1", "abc", "" and "60001", keeping its value.
 */
#include <pthread.h>
#include <fcntl.h>
#include "../lib/numa_test.h"
#include "kselftest.h"

#define SYSCTL		"/proc/sys/kernel/numa_balancing_migrate_deferred"
#define RETRY_FILE	"/sys/kernel/debug/sched/numa_balancing/migrate_retry_ms"
#define REGION_LEN	((size_t)4 << 20)
#define PP_THREADS	8
#define PP_S		15
#define NUMA_DEFER_MAX	65535

struct worker {
	pthread_t thread;
	int node;
	char *mem;
	bool private_;
};

/* Write @s to @path: 0, or the errno of the failed write. */
static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

static long read_long(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/*
 * Each bad value must fail with EINVAL and leave @path at @keep; each good
 * one must be taken. Ends with @keep written back.
 */
static void test_knob(const char *name, const char *path, long keep,
		      const char * const *bad, const char * const *good)
{
	bool ok = read_long(path) == keep;
	char val[32];
	int i, err;

	for (i = 0; bad[i]; i++) {
		err = write_str(path, bad[i]);
		if (err != EINVAL || read_long(path) != keep) {
			ksft_print_msg("%s: writing \"%s\": %s, now %ld\n", name,
				       bad[i], err ? strerror(err) : "accepted",
				       read_long(path));
			ok = false;
		}
	}
	for (i = 0; good[i]; i++) {
		err = write_str(path, good[i]);
		if (err || read_long(path) != strtol(good[i], NULL, 10)) {
			ksft_print_msg("%s: writing \"%s\": %s\n", name, good[i],
				       err ? strerror(err) : "not taken");
			ok = false;
		}
	}
	snprintf(val, sizeof(val), "%ld", keep);
	write_str(path, val);
	ksft_test_result(ok && read_long(path) == keep,
			 "%s: default %ld, bad writes refused and the value kept\n",
			 name, keep);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned char v = 0;

	pin_to_node(w->node);
	if (w->private_)
		region_touch(w->mem, REGION_LEN, v++);
	for (;;)
		region_touch(w->mem, REGION_LEN, v++);
	return NULL;
}

/*
 * In a child of its own (a fresh address space and fresh task statistics
 * each time), run PP_THREADS writers for PP_S seconds with the sysctl at
 * @defer; shared: one buffer, first touched on node 0, for all; private:
 * one buffer each, first touched on the node its thread does not run on.
 * Returns the pages migrated meanwhile, and *deferred the deferrals.
 */
static long long run(long defer, bool private_, long long *deferred)
{
	long long mig0 = vmstat("numa_pages_migrated");
	long long def0 = vmstat("numa_migrate_deferred");
	char val[32];
	int status;
	pid_t pid;

	snprintf(val, sizeof(val), "%ld", defer);
	if (write_str(SYSCTL, val))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		struct worker w[PP_THREADS];
		char *shared = NULL;
		int i;

		if (!private_) {
			shared = region_alloc(REGION_LEN);
			if (!shared || pin_to_node(0))
				_exit(1);
			region_touch(shared, REGION_LEN, 1);
		}
		for (i = 0; i < PP_THREADS; i++) {
			w[i].node = i % 2;
			w[i].private_ = private_;
			w[i].mem = shared;
			if (private_) {
				w[i].mem = region_alloc(REGION_LEN);
				if (!w[i].mem || pin_to_node(1 - w[i].node))
					_exit(1);
				region_touch(w[i].mem, REGION_LEN, 1);
			}
		}
		for (i = 0; i < PP_THREADS; i++) {
			if (pthread_create(&w[i].thread, NULL, work, &w[i]))
				_exit(1);
		}
		sleep(PP_S);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	*deferred = vmstat("numa_migrate_deferred") - def0;
	return vmstat("numa_pages_migrated") - mig0;
}

int main(void)
{
	static const char * const sysctl_bad[] = {
		"-1", "abc", "65536", "99999999999999999999", NULL };
	static const char * const sysctl_good[] = { "0", "65535", NULL };
	static const char * const retry_bad[] = { "-1", "abc", "", "60001", NULL };
	static const char * const retry_good[] = { "1", "60000", NULL };
	int nodes = nr_nodes(), on = feature_enabled("NUMA_MIGRATE_DEFER");
	long long mig0, mig16, def0 = 0, def16 = 0, migmax, defmax = 0;
	long long pages = PP_THREADS * (REGION_LEN / PAGE_SZ);

	ksft_print_header();
	if (nodes < 2)
		ksft_exit_skip("needs 2 nodes, found %d\n", nodes);
	if (on < 0)
		ksft_exit_fail_msg("FEATURES missing from /etc/numa-sched.conf\n");
	ksft_print_msg("CONFIG_NUMA_MIGRATE_DEFER is %s\n", on ? "on" : "off");
	ksft_set_plan(4);

	test_knob("migrate_retry_ms", RETRY_FILE, 0, retry_bad, retry_good);
	if (!on) {
		ksft_test_result(access(SYSCTL, F_OK) && vmstat("numa_migrate_deferred") < 0,
				 "no sysctl and no vmstat counter without NUMA_MIGRATE_DEFER\n");
		ksft_test_result_skip("shared ping-pong: needs CONFIG_NUMA_MIGRATE_DEFER\n");
		ksft_test_result_skip("private pages: needs CONFIG_NUMA_MIGRATE_DEFER\n");
		ksft_finished();
	}
	test_knob("numa_balancing_migrate_deferred", SYSCTL, 16, sysctl_bad, sysctl_good);

	/*
	 * Judged: deferral happens (numa_migrate_deferred rises at 16 and at
	 * the maximum) and only when asked (not at 0). Reported, not judged:
	 * the pages migrated. Fewer are expected with deferral, but in 15 s
	 * runs on this emulated machine the difference at 16 is within
	 * run-to-run noise (measured 1604-2416 pages at 16, 1506-2469 at 0),
	 * and even at the maximum it was not always clear of it (810-1255
	 * against 1435-2469): the comparison belongs to make bench's medians.
	 */
	mig0 = run(0, false, &def0);
	mig16 = run(16, false, &def16);
	migmax = run(NUMA_DEFER_MAX, false, &defmax);
	ksft_print_msg("shared ping-pong, %ds each: pages migrated %lld at 0 (%lld deferred), %lld at 16 (%lld deferred), %lld at %d (%lld deferred)\n",
		       PP_S, mig0, def0, mig16, def16, migmax, NUMA_DEFER_MAX, defmax);
	ksft_test_result(mig0 >= 0 && mig16 >= 0 && migmax >= 0 &&
			 def0 == 0 && def16 > 0 && defmax > 0,
			 "shared ping-pong: shared migrations deferred as the sysctl says\n");

	mig0 = run(0, true, &def0);
	mig16 = run(16, true, &def16);
	ksft_print_msg("private pages, %ds: %lld pages migrated at 0, %lld at 16 (of %lld)\n",
		       PP_S, mig0, mig16, pages);
	ksft_test_result(mig0 >= pages * 9 / 10 && mig16 >= pages * 9 / 10 &&
			 mig0 <= pages * 11 / 10 && mig16 <= pages * 11 / 10,
			 "private pages: all migrate, with or without deferral\n");
	write_str(SYSCTL, "16");
	ksft_finished();
}
