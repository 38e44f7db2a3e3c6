// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_NUMA_FBQ: the per-runqueue NUMA counts the load balancer's
 * classes are made of, read from debugfs sched/numa_balancing/fbq.
 *
 * On:
 *   - the file lists every online CPU, with its counts and class;
 *   - churn: NR_PER_CPU busy processes per CPU, unpinned, each writing in
 *     turn (every SWITCH_S) two buffers bound to two different nodes
 *     (mbind MPOL_BIND | MPOL_F_NUMA_BALANCING: hinting faults, no page
 *     migration), so their preferred nodes change while the balancer
 *     moves them about, for CHURN_S. Then each stops touching memory and
 *     pins itself where it is, and, at rest, the sum of nr_numa_running
 *     over the CPUs equals the number of runnable tasks with a preferred
 *     node (the processes, and this test itself, per /proc/PID/sched),
 *     and the sum of nr_preferred_running the number of those on a CPU
 *     of their preferred node; on every line nr_preferred_running <=
 *     nr_numa_running <= nr_running, so nothing went negative and wrapped;
 *   - when the processes are gone, the sums are this test's own share;
 *   - with 2 CPUs per node or more (CPUS_PER_NODE=2; skipped otherwise:
 *     with one CPU per node a runqueue is its node's whole group and is
 *     never passed over): two NUMA tasks (memory bound to node 0,
 *     preferred node 0) share node 0's first CPU, two tasks without a
 *     preference its second, the other nodes idle. Each of ROUNDS rounds
 *     pins them so, lets them go, and watches for WINDOW_MS which the
 *     load balancer takes off node 0: the tasks without a preference go
 *     (at least one a round), the NUMA tasks stay (taken in at most
 *     SPARED_MAX_PCT of their chances). The plain tasks set a memory policy
 *     of their own, without MPOL_F_MOF, so that nothing of theirs is
 *     scanned: a spinner otherwise faults on its rseq area, which the
 *     kernel writes on every migration, and gets a preferred node.
 * Off: there is no fbq file (and struct rq has no such counts), and in
 * the same rounds the balancer takes well-placed tasks too (in at least
 * TAKEN_MIN_PCT of their chances).
 *
 * Seen to fail on a kernel whose /proc/config.gz says the opposite
 * (make boot FAKE_CONFIG=...): numa-none said to have NUMA_FBQ failed the
 * file and both counts; numa-all said not to, "no fbq file". The
 * balancer case failed on 2x2 with NO_NUMA_FBQ and numa_feature()
 * planted to ignore sched/features (configs/matrix.tsv).
 */
#include <pthread.h>
#include "numa_test.h"
#include "../../kselftest.h"

#define REGION_LEN	((size_t)4 << 20)
#define NR_PER_CPU	2
#define CHURN_S		12
#define SWITCH_S	2
#define MAX_TASKS	64
#define ROUNDS		20
#define WINDOW_MS	1000
/*
 * Of the 2 * ROUNDS chances a well-placed task has to be taken: at most
 * this share with NUMA_FBQ (measured: 0 and 1 of 40; a kworker waking on
 * their CPU makes it "regular" for a moment), at least this share without
 * (measured: 15 and 19 of 40).
 */
#define SPARED_MAX_PCT	10
#define TAKEN_MIN_PCT	20
/* set_mempolicy(2)'s mode, spelt here as numa_test.h spells mbind's. */
#define MPOL_LOCAL_	4

enum phase { CHURN, REST };

/* @pid's preferred node and the node it runs on; -2 when unreadable. */
static void task_place(pid_t pid, int *pref, int *node)
{
	long long v = -2;
	int gid;

	*node = -2;
	if (sched_field(pid, "numa_preferred_nid", &v) ||
	    task_numa_ids(pid, node, &gid))
		v = -2;
	*pref = (int)v;
}

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/*
 * The page the test shares with its churners: the phase, and how many
 * churners have seen REST and pinned themselves.
 */
struct churn_state {
	volatile int phase;
	int resting;
};

static void churner(int i, int nodes, struct churn_state *st)
{
	unsigned long mask[2] = { 1UL << (i % nodes), 1UL << ((i + 1) % nodes) };
	unsigned char v = 0;
	pthread_t idle;
	char *buf[2];
	int k;

	/*
	 * A second thread, asleep: 6.1's scanner leaves alone the pages of
	 * a single-threaded process on the node it runs on, so a process
	 * the balancer leaves on one of its buffers' nodes would fault on
	 * the other buffer only, and its preferred node would never change
	 * (seen with NUMA_SWAP off: 0 changes in 12 s).
	 */
	if (pthread_create(&idle, NULL, sleeper, NULL))
		_exit(1);
	for (k = 0; k < 2; k++) {
		buf[k] = region_alloc(REGION_LEN);
		if (!buf[k] || region_bind(buf[k], REGION_LEN, mask[k]))
			_exit(1);
	}
	unpin();
	while (st->phase == CHURN) {
		k = (int)(now() / SWITCH_S) & 1;
		region_touch(buf[k], REGION_LEN, v++);
	}
	pin_to_cpu(0, sched_getcpu());
	__atomic_add_fetch(&st->resting, 1, __ATOMIC_SEQ_CST);
	for (;;)
		;
}

/*
 * fbq_read_sums() until the sums are @numa and @preferred, or for at most
 * 2 s: a child reaped by waitpid() may still be on its runqueue for the
 * last switch away from it. Returns what fbq_read_sums() returned last.
 */
static int fbq_wait_sums(struct fbq_sums *s, long numa, long preferred)
{
	double t0 = now();
	int ret;

	while ((ret = fbq_read_sums(s)) == 0 &&
	       (s->numa != numa || s->preferred != preferred) && now() - t0 < 2)
		usleep(10 * 1000);
	return ret;
}

static void test_counts(int nodes)
{
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), nr = 0, i, changes = 0;
	struct churn_state *st = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int last_pref[MAX_TASKS];
	pid_t pids[MAX_TASKS];
	long numa = 0, preferred = 0;
	struct fbq_sums s;
	int self_pref, self_node, pref, node;
	double t0;

	if (st == MAP_FAILED) {
		ksft_test_result_fail("counts at rest: mmap: %s\n", strerror(errno));
		return;
	}
	st->phase = CHURN;
	st->resting = 0;
	for (i = 0; i < cpus * NR_PER_CPU && i < MAX_TASKS; i++) {
		pids[nr] = fork();
		if (pids[nr] < 0)
			break;
		if (!pids[nr])
			churner(i, nodes, st);
		last_pref[nr++] = -1;
	}

	/* Churn, counting the preferred node changes seen. */
	t0 = now();
	while (now() - t0 < CHURN_S) {
		usleep(250 * 1000);
		for (i = 0; i < nr; i++) {
			task_place(pids[i], &pref, &node);
			if (pref >= 0 && last_pref[i] >= 0 && pref != last_pref[i])
				changes++;
			if (pref >= 0)
				last_pref[i] = pref;
		}
	}

	/*
	 * Rest: every process spins pinned, touching nothing, once each has
	 * said so; this one runs on node 0 from the pin on.
	 */
	st->phase = REST;
	t0 = now();
	while (__atomic_load_n(&st->resting, __ATOMIC_SEQ_CST) < nr && now() - t0 < 10)
		usleep(10 * 1000);
	if (st->resting < nr) {
		ksft_test_result_fail("counts at rest: %d of %d processes came to rest\n",
				      st->resting, nr);
		goto out;
	}
	pin_to_node(0);
	task_place(getpid(), &self_pref, &self_node);
	if (fbq_read_sums(&s)) {
		ksft_test_result_fail("counts at rest: cannot read %s\n", FBQ_FILE);
		goto out;
	}
	for (i = 0; i < nr; i++) {
		task_place(pids[i], &pref, &node);
		numa += pref >= 0;
		preferred += pref >= 0 && pref == node;
	}
	numa += self_pref >= 0;
	preferred += self_pref >= 0 && self_pref == self_node;
	ksft_print_msg("%d processes, %d preferred node changes in %ds; at rest: nr_numa_running %ld (tasks %ld), nr_preferred_running %ld (tasks %ld)\n",
		       nr, changes, CHURN_S, s.numa, numa, s.preferred, preferred);
	ksft_test_result(s.sane && s.numa == numa && s.preferred == preferred &&
			 numa > 0 && changes > 0,
			 "counts at rest match the tasks after churn\n");

out:
	for (i = 0; i < nr; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	task_place(getpid(), &self_pref, &self_node);
	numa = self_pref >= 0;
	preferred = self_pref >= 0 && self_pref == self_node;
	if (fbq_wait_sums(&s, numa, preferred)) {
		ksft_test_result_fail("counts once the load ends: cannot read %s\n", FBQ_FILE);
	} else {
		ksft_print_msg("load gone: nr_numa_running %ld, nr_preferred_running %ld (this test's share %ld, %ld)\n",
			       s.numa, s.preferred, numa, preferred);
		ksft_test_result(s.sane && s.numa == numa && s.preferred == preferred,
				 "counts return to this test's share once the load ends\n");
	}
	unpin();
	munmap(st, PAGE_SZ);
}

/* A busy child pinned to @cpu; with @mem, it writes memory bound to @node. */
static pid_t busy(int cpu, bool mem, int node)
{
	pid_t pid = fork();

	if (!pid) {
		unsigned char v = 0;
		pthread_t idle;
		char *buf;

		pin_to_cpu(0, cpu);
		if (!mem) {
			/*
			 * No NUMA preference, ever: a memory policy of its own
			 * without MPOL_F_MOF keeps the scanner off all its
			 * memory. (A plain spinner would still fault: the
			 * kernel writes its rseq area on every migration.)
			 */
			if (syscall(SYS_set_mempolicy, MPOL_LOCAL_, NULL, 0))
				_exit(1);
			for (;;)
				;
		}
		/*
		 * A second thread, asleep: 6.1's scanner leaves alone the
		 * pages of a single-threaded process that are on the node it
		 * runs on, and this one's all are.
		 */
		if (pthread_create(&idle, NULL, sleeper, NULL))
			_exit(1);
		buf = region_alloc(REGION_LEN);
		if (!buf || region_bind(buf, REGION_LEN, 1UL << node))
			_exit(1);
		for (;;)
			region_touch(buf, REGION_LEN, v++);
	}
	return pid;
}

/*
 * Two NUMA tasks (memory bound to node 0, preferred node 0) share node 0's
 * first CPU, two tasks without a preference its second; the other nodes
 * idle. Each round lets the four go at once and watches for WINDOW_MS
 * which of them the load balancer takes off node 0. On, the plain tasks
 * go and the NUMA tasks stay: node 0's class is "regular" and the queue
 * of well-placed tasks ("all") is passed over.
 */
static void test_preference(bool on, int nodes, int cpus_per_node)
{
	int n_moved = 0, r_moved = 0, round, i, pref_ok = 0;
	cpu_set_t node0;
	int a = -1, b = -1, cpu;
	pid_t t[4];
	double t0;

	if (cpus_per_node < 2) {
		test_skip("balancer spares well-placed tasks", "needs 2 CPUs per node (boot with CPUS_PER_NODE=2)\n");
		return;
	}
	if (node_cpus(0, &node0) < 2) {
		ksft_test_result_fail("balancer spares well-placed tasks: node 0's CPUs\n");
		return;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && b < 0; cpu++) {
		if (!CPU_ISSET(cpu, &node0))
			continue;
		if (a < 0)
			a = cpu;
		else
			b = cpu;
	}
	for (i = 0; i < 4; i++)
		t[i] = busy(i < 2 ? a : b, i < 2, 0);
	/* This test wakes every 50ms: not on node 0, where it would count. */
	pin_to_node(nodes - 1);

	/* Wait for the NUMA tasks to prefer node 0. */
	t0 = now();
	while (pref_ok < 2 && now() - t0 < 60) {
		long long p0 = -1, p1 = -1;

		usleep(200 * 1000);
		sched_field(t[0], "numa_preferred_nid", &p0);
		sched_field(t[1], "numa_preferred_nid", &p1);
		pref_ok = (p0 == 0) + (p1 == 0);
	}
	if (pref_ok < 2) {
		for (i = 0; i < 2; i++) {
			long long pref = -1, faults = -1, seq = -1;

			sched_field(t[i], "numa_preferred_nid", &pref);
			sched_field(t[i], "total_numa_faults", &faults);
			sched_field(t[i], "mm->numa_scan_seq", &seq);
			ksft_print_msg("NUMA task %d: preferred %lld, %lld faults, scan seq %lld\n",
				       t[i], pref, faults, seq);
		}
		ksft_test_result_fail("balancer spares well-placed tasks: no preferred node 0 after 60s\n");
		goto out;
	}

	for (round = 0; round < ROUNDS; round++) {
		bool moved[4] = { false };

		for (i = 0; i < 4; i++)
			pin_to_cpu(t[i], i < 2 ? a : b);
		usleep(300 * 1000);
		/*
		 * Free the plain tasks first: while a NUMA task is free and a
		 * plain one still pinned, a balance pass that finds the pinned
		 * ones unmovable retries on the rest of the node, whose class
		 * is then "all" (upstream's LBF_ALL_PINNED redo).
		 */
		for (i = 3; i >= 0; i--)
			unpin_tid(t[i]);
		t0 = now();
		while (now() - t0 < WINDOW_MS / 1000.0) {
			usleep(50 * 1000);
			for (i = 0; i < 4; i++) {
				int node = -1, gid;

				task_numa_ids(t[i], &node, &gid);
				moved[i] |= node > 0;
			}
		}
		n_moved += moved[0] + moved[1];
		r_moved += moved[2] + moved[3];
	}
	ksft_print_msg("%d rounds: tasks taken off node 0: %d NUMA (well placed), %d without a preference\n",
		       ROUNDS, n_moved, r_moved);
	for (i = 2; i < 4; i++) {
		long long pref = -2;

		sched_field(t[i], "numa_preferred_nid", &pref);
		if (pref != -1) {
			ksft_test_result_fail("balancer spares well-placed tasks: a plain task has preferred node %lld\n",
					      pref);
			goto out;
		}
	}
	if (on)
		ksft_test_result(n_moved * 100 <= 2 * ROUNDS * SPARED_MAX_PCT &&
				 r_moved >= ROUNDS,
				 "balancer spares well-placed tasks\n");
	else
		ksft_test_result(n_moved * 100 >= 2 * ROUNDS * TAKEN_MIN_PCT,
				 "without NUMA_FBQ well-placed tasks are taken too\n");
out:
	for (i = 0; i < 4; i++) {
		/* kill(-1) would take every process of the machine. */
		if (t[i] <= 0)
			continue;
		kill(t[i], SIGKILL);
		waitpid(t[i], NULL, 0);
	}
	unpin();
}

int main(void)
{
	int nodes = nr_nodes(), on;
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	struct fbq_sums s;
	bool has_file = !access(FBQ_FILE, R_OK);

	on = FEATURE_TEST_START("NUMA_FBQ");
	ksft_set_plan(4);

	/* The counts come with the build, kept while NO_NUMA_FBQ too. */
	if (feature_built("NUMA_FBQ") <= 0) {
		ksft_test_result(!has_file, "no debugfs fbq file without NUMA_FBQ\n");
		test_skip("counts at rest", "needs CONFIG_NUMA_FBQ\n");
		test_skip("counts once the load ends", "needs CONFIG_NUMA_FBQ\n");
	} else {
		ksft_test_result(has_file && !fbq_read_sums(&s) && s.cpus == cpus && s.sane,
				 "debugfs fbq file lists the %d CPUs\n", cpus);
		test_counts(nodes);
	}
	test_preference(on, nodes, cpus / nodes);
	ksft_finished();
}
