// SPDX-License-Identifier: GPL-2.0
/*
 * The stress test's inject worker: allocation failures on the paths of
 * NUMA balancing, through fail-nth (Documentation/fault-injection/
 * fault-injection.rst): a thread writes 1 to /proc/thread-self/fail-nth
 * and the next allocation it makes fails. The victims' threads arm it
 * while they do nothing but write memory already theirs, first touched
 * on another node, so the allocation they meet is one of their NUMA
 * hinting faults -- the task's numa_faults array at its first fault, a
 * numa_group at its first shared fault, the target page of a migration
 * -- or of the scanner's work on their way back to user space. Always
 * the first: with N > 1, the debug kernel's own allocations after it
 * (kmemleak's object, KASAN's stack depot) would take the failure. A
 * fail-nth read back as 0 is a failure injected: a run that injects
 * nothing fails. The count does not say where a failure landed (see
 * stress.c's check); make stress-selftest's isolated plant shows that
 * the migration path's failures are among them.
 *
 * inject_setup() lets failslab and fail_page_alloc fail the GFP_KERNEL
 * and highmem-movable allocations those paths make (ignore-gfp-wait and
 * ignore-gfp-highmem to N). Their probability stays 0: only a thread that
 * armed fail-nth meets a failure. The allocations of those paths ask for
 * __GFP_NOWARN and fail silently; a failure injected in an allocation
 * without it prints "FAULT_INJECTION: forcing a failure", which make
 * stress counts (a floor for the failures off those paths, not a count).
 *
 * Victims: processes of two threads living 1-4 s (fresh tasks, whose
 * fault arrays and groups are allocated under injection), and one living
 * the whole run. When the load stops, that one stops injecting, its
 * memory is moved back to the node it began on (migrate_pages(2)), and it
 * must take it back again: still writing, its preferred node its own, and
 * 90% of its pages there within SETTLE_S.
 */
#include <pthread.h>
#include "stress.h"

#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define FAIL_PAGE_ALLOC	"/sys/kernel/debug/fail_page_alloc/"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define VICTIM_LEN	((size_t)8 << 20)
#define SETTLE_S	30
#define MOVE_S		10	/* to move it back; with SETTLE_S, within INJECT_REAP_S */
#define QUIET_S		540	/* for the other 8 workers to end, 60 s each */

static struct attr {
	const char *path, *val;
	char old[32];
	bool set;
} attrs[] = {
	{ .path = FAILSLAB "ignore-gfp-wait", .val = "N" },
	{ .path = FAIL_PAGE_ALLOC "ignore-gfp-wait", .val = "N" },
	{ .path = FAIL_PAGE_ALLOC "ignore-gfp-highmem", .val = "N" },
	{ .path = FAIL_PAGE_ALLOC "min-order", .val = "0" },
	/* Each failure injected counts these down: kept, and put back. */
	{ .path = FAILSLAB "times" },
	{ .path = FAIL_PAGE_ALLOC "times" },
};

int inject_setup(void)
{
	unsigned int i;
	int err;

	if (access(FAIL_NTH, W_OK) || access(FAILSLAB, F_OK) ||
	    access(FAIL_PAGE_ALLOC, F_OK))
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		if (read_file(attrs[i].path, attrs[i].old, sizeof(attrs[i].old)) < 0)
			return -errno;
		attrs[i].set = true;
		if (!attrs[i].val)
			continue;
		err = write_str(attrs[i].path, attrs[i].val);
		if (err)
			return -err;
	}
	return 0;
}

void inject_teardown(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (attrs[i].set)
			write_str(attrs[i].path, attrs[i].old);
}

/* A victim's state, shared with the worker. */
struct victim {
	volatile int inject;		/* arm fail-nth while set */
	volatile int stop;
	volatile int pause;		/* write nothing while set */
	volatile int ready, disarmed, paused;
	volatile long progress;		/* passes over the region */
	pid_t tid[2];
	char *mem;
	int node, start;		/* runs on node, first touched on start */
	bool long_lived;
};

struct thread_arg {
	struct victim *v;
	int i;
	unsigned int seed;
};

/* One pass of writes for @ms, with fail-nth armed when asked. */
static void *victim_thread(void *arg)
{
	struct thread_arg *a = arg;
	struct victim *v = a->v;
	int fd = open(FAIL_NTH, O_RDWR);
	unsigned int seed = a->seed;
	unsigned char val = 0;
	bool acked = false;
	char buf[16];

	v->tid[a->i] = gettid_();
	__atomic_add_fetch(&v->ready, 1, __ATOMIC_RELAXED);
	while (!v->stop) {
		double until = now() + (20 + rand_r(&seed) % 180) / 1000.0;
		bool armed = false, fired = false;

		if (v->inject && fd >= 0)
			armed = pwrite(fd, "1", 1, 0) > 0;
		while (now() < until)
			region_touch(v->mem, VICTIM_LEN, val++);
		__atomic_add_fetch(&v->progress, 1, __ATOMIC_RELAXED);
		if (armed) {
			/* Read and disarmed first: counting may fault (fig). */
			memset(buf, 0, sizeof(buf));
			if (pread(fd, buf, sizeof(buf) - 1, 0) > 0 && atoi(buf) == 0)
				fired = true;
			else if (pwrite(fd, "0", 1, 0) < 0)
				_exit(1);
			add(&fig->inject_armed, 1);
			if (fired)
				add(&fig->inject_fired, 1);
		}
		/* Nothing armed from here on: tell settle(). */
		if (!v->inject && !acked) {
			acked = true;
			__atomic_add_fetch(&v->disarmed, 1, __ATOMIC_RELAXED);
		}
		if (v->pause) {
			__atomic_add_fetch(&v->paused, 1, __ATOMIC_RELAXED);
			while (v->pause && !v->stop)
				usleep(1000);
			__atomic_sub_fetch(&v->paused, 1, __ATOMIC_RELAXED);
		}
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* The victim process: two writer threads on @v->node, memory from @v->start. */
static void victim_main(struct victim *v, unsigned int seed)
{
	struct thread_arg a[2] = { { v, 0, seed }, { v, 1, seed * 31 + 7 } };
	pthread_t t[2];
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/*
	 * With the swap movers, for the short ones; the long-lived one after
	 * them, before the test's other tasks (stress.c's ranking): at 500 too,
	 * the OOM killer took it in the 35-minute and the one-hour runs.
	 */
	write_str("/proc/self/oom_score_adj", v->long_lived ? "100" : "500");
	/* Fault the shared figures in now, not with fail-nth armed. */
	add(&fig->inject_armed, 0);
	v->mem = region_alloc(VICTIM_LEN);
	if (!v->mem)
		_exit(1);
	/* A node whose CPUs are all offline (hotplug) cannot be pinned to. */
	pin_to_node(v->start);
	region_touch(v->mem, VICTIM_LEN, 1);
	pin_to_node(v->node);
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, victim_thread, &a[i]))
			_exit(1);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	_exit(0);
}

static struct victim *victim_start(pid_t *pid, bool long_lived)
{
	struct victim *v = mmap(NULL, sizeof(*v), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned int seed = rand_r(&seed_);

	if (v == MAP_FAILED)
		return NULL;
	memset(v, 0, sizeof(*v));
	v->inject = 1;
	v->long_lived = long_lived;
	v->node = rnd(0, nodes - 1);
	v->start = (v->node + rnd(1, nodes - 1)) % nodes;
	*pid = fork();
	if (*pid < 0) {
		munmap(v, sizeof(*v));
		return NULL;
	}
	if (!*pid)
		victim_main(v, seed);
	add(&fig->forks, 1);
	add(&fig->inject_victims, 1);
	return v;
}

enum victim_end { VICTIM_RUNNING, VICTIM_EXITED, VICTIM_KILLED, VICTIM_BAD };

/*
 * A victim's end, waited for (@flags 0) or looked at (WNOHANG): exited,
 * killed (SIGKILL: the OOM killer), or anything else, which is counted and
 * printed.
 */
static enum victim_end victim_reap(pid_t pid, int flags)
{
	pid_t ret;
	int st;

	do
		ret = waitpid(pid, &st, flags);
	while (ret < 0 && errno == EINTR);
	if (!ret)
		return VICTIM_RUNNING;
	if (ret == pid && WIFEXITED(st) && !WEXITSTATUS(st))
		return VICTIM_EXITED;
	if (ret == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		return VICTIM_KILLED;
	add(&fig->inject_victims_bad, 1);
	if (ret != pid)
		printf("# inject: waitpid(%d): %s\n", pid, strerror(errno));
	else
		printf("# inject: victim %d ended with %s %d\n", pid,
		       WIFEXITED(st) ? "status" : "signal",
		       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	fflush(stdout);
	return VICTIM_BAD;
}

/*
 * The share, in percent, of @v's memory that is on @node: from numa_maps,
 * which sees the pages the scanner made PROT_NONE while the writers were
 * paused.
 */
static long victim_pct(pid_t pid, struct victim *v, int node)
{
	long counts[MAX_NODES];

	if (pages_per_node_maps(pid, v->mem, counts) <= 0)
		return 0;
	return counts[node] * 100 / (long)(VICTIM_LEN / PAGE_SZ);
}

/* Up to 5 s for both of a victim's writers to count themselves in @n. */
static void wait_writers(volatile int *n)
{
	double t0;

	for (t0 = now(); *n < 2 && now() - t0 < 5;)
		usleep(10 * 1000);
}

/*
 * The long-lived victim once the injection stopped and the other workers
 * ended: its threads pinned again (hotplug may have undone the pinning),
 * its memory moved back to its first node while they wait, then, writing
 * again until it has taken its memory back or SETTLE_S pass, where its
 * pages and preferred node are.
 */
static void settle(pid_t pid, struct victim *v, pid_t parent)
{
	unsigned long from = ((1UL << nodes) - 1) & ~(1UL << v->start);
	unsigned long to = 1UL << v->start;
	long progress;
	long counts[MAX_NODES];
	long long pref = -1;
	double t0;
	cpu_set_t set;
	int i;

	v->inject = 0;
	wait_writers(&v->disarmed);
	/*
	 * The other workers ended first (stress.c's main() reaps each within
	 * 60 s): a filler still on the node leaves migrate_pages(2) no room
	 * there (seen before this wait: 9% moved in 1 s of tries). A main()
	 * killed meanwhile (the kselftest timeout) never says so: its end
	 * ends the wait.
	 */
	for (t0 = now(); !fig->quiet && getppid() == parent &&
	     now() - t0 < QUIET_S;)
		msleep(100);
	fig->settle_quiet_ms = (now() - t0) * 1000;
	/*
	 * Its writers paused while it moves: writing, they fault the moved
	 * pages back as fast as migrate_pages(2) moves them under TCG. Seen
	 * on the last-nid kernel, 2x2 (a writer a CPU): 10%, 24% and 35%
	 * there right after a migrate_pages() that returned 0.
	 */
	v->pause = 1;
	wait_writers(&v->paused);
	fig->settle_paused = v->paused;
	fig->settle_before = victim_pct(pid, v, v->start);
	fig->settle_seen = pages_per_node_pid(pid, v->mem, VICTIM_LEN, counts);
	/*
	 * Pinned again: offlining its node's CPUs undid the pinning. The
	 * hotplug worker has ended, each CPU it took online again; a CPU
	 * still coming up is waited for.
	 */
	for (t0 = now(); now() - t0 < 5; msleep(100)) {
		if (node_cpus(v->node, &set) <= 0)
			continue;
		for (i = 0; i < 2; i++)
			if (sched_setaffinity(v->tid[i], sizeof(set), &set))
				break;
		if (i == 2)
			break;
	}
	/*
	 * Moved back: most of it at least, or the check below proves nothing.
	 * Pages the balancer is migrating are not taken: tried again.
	 */
	for (t0 = now(); now() - t0 < MOVE_S; msleep(200)) {
		fig->settle_move_ret = syscall(SYS_migrate_pages, pid,
					       sizeof(from) * 8, &from, &to);
		if (fig->settle_move_ret < 0)
			fig->settle_move_ret = -errno;
		fig->settle_free_mb = node_free_kb(v->start);
		if (fig->settle_free_mb > 0)
			fig->settle_free_mb >>= 10;
		fig->settle_moved = victim_pct(pid, v, v->start);
		if (fig->settle_moved >= 50)
			break;
	}
	v->pause = 0;
	progress = v->progress;
	t0 = now();
	do {
		msleep(200);
		fig->settle_pct = victim_pct(pid, v, v->node);
		/* A writer's: the main thread only waits for them. */
		if (sched_field(v->tid[0], "numa_preferred_nid", &pref))
			pref = -2;
	} while ((fig->settle_pct < 90 || pref != v->node) && now() - t0 < SETTLE_S);
	fig->settle_ms = (now() - t0) * 1000;
	fig->settle_node = v->node;
	fig->settle_pref = pref;
	fig->settle_start = v->start;
	fig->settle_progress = v->progress - progress;
	fig->settle_done = 1;
}

int worker_inject(void)
{
	struct victim *lv, *v;
	pid_t lpid, pid, parent = getppid();
	enum victim_end end;

	lv = victim_start(&lpid, true);
	if (!lv)
		return 1;
	while (running()) {
		v = victim_start(&pid, false);
		if (!v)
			return 1;
		msleep(rnd(1000, 4000));
		v->stop = 1;
		victim_reap(pid, 0);
		munmap(v, sizeof(*v));
	}
	end = victim_reap(lpid, WNOHANG);
	if (end == VICTIM_RUNNING) {
		if (lv->ready == 2)
			settle(lpid, lv, parent);
		lv->stop = 1;
		end = victim_reap(lpid, 0);
	}
	/* Killed by the OOM killer, before or while it was judged: SKIP. */
	if (end == VICTIM_KILLED)
		fig->settle_done = 2;
	else if (end == VICTIM_BAD)
		fig->settle_done = -1;
	return 0;
}
