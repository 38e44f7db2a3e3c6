// SPDX-License-Identifier: GPL-2.0
/*
 * The stress test's fuzz worker: a process at a time whose memory NUMA
 * balancing is scanning (4 MiB, two threads writing it), and a thread
 * making calls on that memory with arguments drawn from the run's seed,
 * valid and invalid: mbind(2), set_mempolicy(2) (MPOL_F_NUMA_BALANCING
 * among the flags), move_pages(2), migrate_pages(2), mprotect(2),
 * munmap(2), madvise(2) (MADV_DONTNEED, and other advice one time in
 * eight) and sched_setaffinity(2) on the writers. Half the processes end
 * with an exec from a thread of their own.
 *
 * A call must succeed or fail with an errno its manual page documents
 * (move_pages' per-page status too); anything else is counted and printed
 * with the call, its arguments, the process's seed and the call's number.
 * The draws come from the run's seed alone: STRESS_SEED=N replays them
 * (when they land on the scanner's work is the scheduler's doing).
 *
 * Lengths stay inside the region, or are not lengths at all (0, or one
 * that wraps around the address space and must be refused): no call that
 * takes a range reaches the process's other memory. migrate_pages(2) and
 * move_pages(2) take a process, this one: as root, migrate_pages() moves
 * all of it, the pages it shares with the other workers too. A writer
 * that touches memory a call has just unmapped or protected takes SIGSEGV
 * and goes back to its loop (counted); the region comes back at once
 * after a munmap(), within 20 ms after an mprotect().
 */
#include <pthread.h>
#include <setjmp.h>
#include "stress.h"

#define FUZZ_LEN	((size_t)4 << 20)
#define FUZZ_PAGES	(FUZZ_LEN / PAGE_SZ)
#define FUZZ_CALLS	300
#define FUZZ_HANG_S	30	/* under stress.c's 60 s for a worker to stop */
/* get_nodes() reads at most a page of bits: a mask that large is ours. */
#define MASK_WORDS	(4096 / sizeof(unsigned long))
#define KERNEL_ADDR	((char *)0xffff888000000000UL)
#define BAD_PID		0x3ffffff0
#define E(e)		(1ULL << (e))

/* From the manual pages (man-pages 6.x); ENOMEM wherever memory is taken. */
#define ERR_MBIND	(E(EFAULT) | E(EINVAL) | E(EIO) | E(ENOMEM) | E(EPERM))
#define ERR_SET_MEMPOLICY (E(EFAULT) | E(EINVAL) | E(ENOMEM))
#define ERR_MOVE_PAGES	(E(E2BIG) | E(EACCES) | E(EFAULT) | E(EINVAL) | E(ENODEV) | \
			 E(ENOENT) | E(EPERM) | E(ESRCH) | E(ENOMEM))
#define ERR_PAGE_STATUS	(E(EACCES) | E(EBUSY) | E(EFAULT) | E(EIO) | E(EINVAL) | \
			 E(ENOENT) | E(ENOMEM))
#define ERR_MIGRATE_PAGES (E(EFAULT) | E(EINVAL) | E(EPERM) | E(ESRCH) | E(ENOMEM))
#define ERR_MPROTECT	(E(EACCES) | E(EINVAL) | E(ENOMEM))
#define ERR_MUNMAP	(E(EINVAL) | E(ENOMEM))
/* EBADF: MADV_WILLNEED on anonymous memory without CONFIG_SWAP (seen, 35 min run). */
#define ERR_MADVISE	(E(EAGAIN) | E(EBADF) | E(EFAULT) | E(EINVAL) | E(EIO) | \
			 E(ENOMEM) | E(EPERM))
#define ERR_SETAFFINITY	(E(EFAULT) | E(EINVAL) | E(EPERM) | E(ESRCH) | E(ENOMEM))

/* mbind(2) and set_mempolicy(2) values, spelt here for older libc headers. */
#define MPOL_MAX_MODE		7	/* 0..5 are modes in 6.1; 6, 7 are not */
#define MPOL_F_STATIC_NODES_	0x8000
#define MPOL_F_RELATIVE_NODES_	0x4000
#define MPOL_MF_MOVE_		0x2
#define MPOL_MF_MOVE_ALL_	0x4

static char *region;
static unsigned int proc_seed;
/* Where a fuzz process is, in memory its worker reads after its end. */
static struct fuzz_state {
	int call_nr, exec;
	char call[256];
} *state;
static pid_t writer_tid[2];
static volatile int writers_stop;
static __thread sigjmp_buf *fault_jmp;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	char msg[160];
	int n;

	(void)uc;
	if (fault_jmp)
		siglongjmp(*fault_jmp, sig);
	/* Not a writer: say where the fuzzing thread faulted, and die of it. */
	n = snprintf(msg, sizeof(msg),
		     "# fuzz: process seed %u: signal %d at %p in call %d, region %p\n",
		     proc_seed, sig, si->si_addr, state->call_nr, (void *)region);
	if (write(STDOUT_FILENO, msg, n) < 0)
		_exit(5);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void *fuzz_writer(void *arg)
{
	volatile unsigned char v = 0;
	sigjmp_buf env;

	__atomic_store_n(&writer_tid[(long)arg], gettid_(), __ATOMIC_RELEASE);
	fault_jmp = &env;
	if (sigsetjmp(env, 1)) {
		add(&fig->fuzz_segv, 1);
		usleep(1000);
	}
	while (!writers_stop)
		region_touch(region, FUZZ_LEN, v++);
	return NULL;
}

/* An address: mostly a page of the region, else misaligned, 0 or the kernel's. */
static char *fuzz_addr(void)
{
	switch (rnd(0, 9)) {
	case 0:
		return NULL;
	case 1:
		return KERNEL_ADDR;
	case 2:
		return region + rnd(0, FUZZ_PAGES - 1) * PAGE_SZ + rnd(1, PAGE_SZ - 1);
	default:
		return region + rnd(0, FUZZ_PAGES - 1) * PAGE_SZ;
	}
}

/* A length from @addr that stays in the region, or one that is no length. */
static size_t fuzz_len(const char *addr)
{
	size_t room = PAGE_SZ;

	if (addr >= region && addr < region + FUZZ_LEN)
		room = region + FUZZ_LEN - addr;
	switch (rnd(0, 9)) {
	case 0:
		return 0;
	case 1:
		/*
		 * addr + len wraps: refused, no effect. Not from 0, where it
		 * does not wrap: madvise(0, -4096, MADV_DONTNEED) zaps every
		 * mapping of the process (seen: the fuzzer took its own stack).
		 */
		return addr ? -PAGE_SZ : PAGE_SZ;
	case 2:
		return rnd(1, room < PAGE_SZ ? room : PAGE_SZ - 1);
	default:
		return room < PAGE_SZ ? room : rnd(1, room / PAGE_SZ) * PAGE_SZ;
	}
}

/* A mode and its flags; MPOL_F_NUMA_BALANCING_ one time in four. */
static int fuzz_mode(void)
{
	int mode = rnd(0, MPOL_MAX_MODE);

	if (!rnd(0, 3))
		mode |= MPOL_F_NUMA_BALANCING_;
	if (!rnd(0, 3))
		mode |= MPOL_F_STATIC_NODES_;
	if (!rnd(0, 3))
		mode |= MPOL_F_RELATIVE_NODES_;
	if (!rnd(0, 15))
		mode |= 1 << rnd(0, 30);
	return mode;
}

/* A node mask in @mask and its maxnode; returns the pointer to pass. */
static unsigned long *fuzz_nodemask(unsigned long *mask, unsigned long *maxnode)
{
	static const unsigned long maxnodes[] = {
		0, 1, 2, 3, 4, 8, 63, 64, 65, 1024, 32768, 32769, 1UL << 40,
	};

	memset(mask, 0, MASK_WORDS * sizeof(*mask));
	switch (rnd(0, 4)) {
	case 0:
		break;
	case 1:
		mask[0] = (1UL << nodes) - 1;
		break;
	case 2:
		mask[0] = 1UL << rnd(0, nodes - 1);
		break;
	case 3:
		/* Two draws, in an order the compiler cannot change. */
		mask[0] = (unsigned long)rand_r(&seed_) << 16;
		mask[0] ^= rand_r(&seed_);
		break;
	default:
		mask[rnd(0, MASK_WORDS - 1)] |= 1UL << rnd(0, 63);
		break;
	}
	*maxnode = rnd(0, 2) ? (unsigned long)(nodes + rnd(0, 64)) :
		   maxnodes[rnd(0, ARRAY_SIZE(maxnodes) - 1)];
	switch (rnd(0, 11)) {
	case 0:
		return NULL;
	case 1:
		return (unsigned long *)KERNEL_ADDR;
	case 2:
		return (unsigned long *)1;
	default:
		return mask;
	}
}

static pid_t fuzz_pid(void)
{
	switch (rnd(0, 5)) {
	case 0:
		return BAD_PID;
	case 1:
		return getpid();
	default:
		return 0;
	}
}

/* A documented outcome, or one counted and printed. */
static void judge(int nr, const char *call, long ret, int err,
		  unsigned long long documented)
{
	add(&fig->fuzz_calls, 1);
	if (ret >= 0)
		return;
	if (err > 0 && err < 64 && (documented & E(err))) {
		add(&fig->fuzz_failed, 1);
		return;
	}
	if (add(&fig->fuzz_undocumented, 1) <= 20)
		printf("# fuzz: process seed %u, call %d: %s = %ld, errno %d (%s), not documented\n",
		       proc_seed, nr, call, ret, err, strerror(err));
	fflush(stdout);
}

/* The region whole again, read-write, after a munmap() or mprotect(). */
static void fuzz_restore(const char *addr, size_t len, bool unmapped)
{
	if (unmapped) {
		/* MAP_FIXED_NOREPLACE: the hole only, never another mapping. */
		if (mmap((void *)addr, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			 -1, 0) != addr)
			_exit(4);
		return;
	}
	if (mprotect(region, FUZZ_LEN, PROT_READ | PROT_WRITE))
		_exit(4);
}

static void fuzz_call(int nr)
{
	static unsigned long mask[MASK_WORDS], mask2[MASK_WORDS];
	unsigned long maxnode, maxnode2, *m, *m2;
	char desc[256], *addr = fuzz_addr();
	size_t len = fuzz_len(addr);
	int mode, flags, i, count, err;
	void *pages[16];
	int target[16], status[16];
	long ret;

	errno = 0;
	state->call_nr = nr;
	state->call[0] = 0;
	switch (rnd(0, 8)) {
	case 0: {
		m = fuzz_nodemask(mask, &maxnode);
		mode = fuzz_mode();
		flags = rnd(0, 7);
		if (!rnd(0, 15))
			flags |= 1 << rnd(0, 30);
		snprintf(desc, sizeof(desc), "mbind(%p, %#zx, %#x, %p, %lu, %#x)",
			 addr, len, mode, (void *)m, maxnode, flags);
		strcpy(state->call, desc);
		ret = syscall(SYS_mbind, addr, len, mode, m, maxnode, flags);
		err = errno;
		judge(nr, desc, ret, err, ERR_MBIND);
		break;
	}
	case 1:
		m = fuzz_nodemask(mask, &maxnode);
		mode = fuzz_mode();
		snprintf(desc, sizeof(desc), "set_mempolicy(%#x, %p, %lu)",
			 mode, (void *)m, maxnode);
		strcpy(state->call, desc);
		ret = syscall(SYS_set_mempolicy, mode, m, maxnode);
		err = errno;
		judge(nr, desc, ret, err, ERR_SET_MEMPOLICY);
		break;
	case 2: {
		static const int flag_set[] = { 0, MPOL_MF_MOVE_, MPOL_MF_MOVE_ALL_, 1, 8 };
		const int bad_nodes[] = { -1, nodes, 1024, 1 << 30 };
		bool query = !rnd(0, 2);
		pid_t pid = fuzz_pid();

		count = rnd(0, 16);
		for (i = 0; i < count; i++) {
			pages[i] = fuzz_addr();
			target[i] = rnd(0, 9) ? rnd(0, nodes - 1) : bad_nodes[rnd(0, 3)];
			status[i] = 0x7fffffff;
		}
		flags = flag_set[rnd(0, ARRAY_SIZE(flag_set) - 1)];
		snprintf(desc, sizeof(desc), "move_pages(%d, %d, pages, %s, status, %#x)",
			 pid, count, query ? "NULL" : "nodes", flags);
		strcpy(state->call, desc);
		ret = syscall(SYS_move_pages, pid, count, pages,
			      query ? NULL : target, status, flags);
		err = errno;
		judge(nr, desc, ret, err, ERR_MOVE_PAGES);
		/*
		 * Each page's status: its node, or a documented -errno. Only
		 * after a full success: when some pages were not moved (ret >
		 * 0), 6.1 leaves the statuses of the batch that failed and of
		 * those after it unwritten.
		 */
		for (i = 0; ret == 0 && pid != BAD_PID && i < count; i++) {
			int st = status[i];

			if ((st >= 0 && st < nodes) ||
			    (st < 0 && -st < 64 && (ERR_PAGE_STATUS & E(-st))))
				continue;
			snprintf(desc, sizeof(desc), "move_pages(%d, %d, ...) status[%d] of %p",
				 pid, count, i, pages[i]);
			judge(nr, desc, -1, st < 0 ? -st : 0, 0);
		}
		break;
	}
	case 3: {
		pid_t pid = fuzz_pid();

		m = fuzz_nodemask(mask, &maxnode);
		m2 = fuzz_nodemask(mask2, &maxnode2);
		snprintf(desc, sizeof(desc), "migrate_pages(%d, %lu, %p, %p)",
			 pid, maxnode, (void *)m, (void *)m2);
		strcpy(state->call, desc);
		ret = syscall(SYS_migrate_pages, pid, maxnode, m, m2);
		err = errno;
		judge(nr, desc, ret, err, ERR_MIGRATE_PAGES);
		break;
	}
	case 4: {
		static const int prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE,
					     PROT_READ | PROT_EXEC, 0x10, 1 << 24 };

		flags = prots[rnd(0, ARRAY_SIZE(prots) - 1)];
		snprintf(desc, sizeof(desc), "mprotect(%p, %#zx, %#x)", addr, len, flags);
		strcpy(state->call, desc);
		ret = mprotect(addr, len, flags);
		err = errno;
		judge(nr, desc, ret, err, ERR_MPROTECT);
		/* The writers meet the protection for a moment, then not. */
		if (!ret) {
			usleep(rnd(0, 20) * 1000);
			fuzz_restore(addr, len, false);
		}
		break;
	}
	case 5:
		snprintf(desc, sizeof(desc), "munmap(%p, %#zx)", addr, len);
		strcpy(state->call, desc);
		ret = munmap(addr, len);
		err = errno;
		judge(nr, desc, ret, err, ERR_MUNMAP);
		if (!ret && len && addr >= region && addr < region + FUZZ_LEN) {
			char *start = (char *)((unsigned long)addr & ~(PAGE_SZ - 1));

			fuzz_restore(start, (addr + len - start + PAGE_SZ - 1) & ~(PAGE_SZ - 1),
				     true);
		}
		break;
	case 6: {
		/*
		 * Now and then other advice, valid or not; never MADV_HWPOISON
		 * or MADV_SOFT_OFFLINE, which take pages away for good.
		 */
		static const int advice[] = {
			MADV_NORMAL, MADV_WILLNEED, MADV_FREE, MADV_COLD,
			MADV_PAGEOUT, -1, 1000,
		};

		flags = rnd(0, 7) ? MADV_DONTNEED : advice[rnd(0, ARRAY_SIZE(advice) - 1)];
		snprintf(desc, sizeof(desc), "madvise(%p, %#zx, %d)", addr, len, flags);
		strcpy(state->call, desc);
		ret = madvise(addr, len, flags);
		err = errno;
		judge(nr, desc, ret, err, ERR_MADVISE);
		break;
	}
	default: {
		static unsigned char cpus[4096];
		static const size_t sizes[] = { 0, 1, 8, 128, 4096 };
		const pid_t tids[] = { 0, writer_tid[0], writer_tid[1], BAD_PID };
		pid_t tid = tids[rnd(0, 3)];
		size_t size = rnd(0, 3) ? 128 : sizes[rnd(0, ARRAY_SIZE(sizes) - 1)];
		int ncpus = sysconf(_SC_NPROCESSORS_CONF);
		unsigned char *mask = rnd(0, 15) ? cpus : NULL;

		memset(cpus, 0, sizeof(cpus));
		switch (rnd(0, 3)) {
		case 0:
			break;	/* no CPU: refused */
		case 1:
			memset(cpus, 0xff, sizeof(cpus));
			break;
		default:
			i = rnd(0, ncpus + 1);	/* one past the last: refused */
			cpus[i / 8] |= 1 << i % 8;
			break;
		}
		snprintf(desc, sizeof(desc), "sched_setaffinity(%d, %zu, %p)",
			 tid, size, (void *)mask);
		strcpy(state->call, desc);
		ret = syscall(SYS_sched_setaffinity, tid, size, mask);
		err = errno;
		judge(nr, desc, ret, err, ERR_SETAFFINITY);
		break;
	}
	}
}

static void fuzz_process(unsigned int seed)
{
	struct sigaction sa = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO };
	pthread_t w[2];
	int i, calls;

	seed_ = seed;
	proc_seed = seed;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* After the node filler, before the test's other tasks. */
	write_str("/proc/self/oom_score_adj", "500");
	region = region_alloc(FUZZ_LEN);
	if (!region)
		_exit(1);
	if (rnd(0, 1))
		madvise(region, FUZZ_LEN, MADV_HUGEPAGE);
	region_touch(region, FUZZ_LEN, 1);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	for (i = 0; i < 2; i++)
		if (pthread_create(&w[i], NULL, fuzz_writer, (void *)(long)i))
			_exit(1);
	while (!__atomic_load_n(&writer_tid[0], __ATOMIC_ACQUIRE) ||
	       !__atomic_load_n(&writer_tid[1], __ATOMIC_ACQUIRE))
		usleep(1000);
	calls = rnd(FUZZ_CALLS / 4, FUZZ_CALLS);
	for (i = 0; i < calls && running(); i++) {
		fuzz_call(i);
		usleep(rnd(0, 10) * 1000);
	}
	if (rnd(0, 1)) {
		pthread_t t;

		/* The writers still write; one more thread execs. */
		state->exec = 1;
		if (!pthread_create(&t, NULL, exec_self, NULL))
			for (;;)
				pause();
	}
	writers_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(w[i], NULL);
	exit(0);
}

/*
 * The fuzz process's end, in @st: 0; 1 when it is still there FUZZ_HANG_S
 * after the load stopped -- its fuzzing thread gone (an oops in a call
 * kills only the calling thread) while its writers write on -- and was
 * killed; a negative errno when waitpid() fails.
 */
static int fuzz_wait(pid_t pid, int *st)
{
	double stopped = 0;
	pid_t ret;

	while ((ret = waitpid(pid, st, WNOHANG)) <= 0) {
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (!stopped && !running())
			stopped = now();
		if (stopped && now() - stopped > FUZZ_HANG_S) {
			kill(pid, SIGKILL);
			waitpid(pid, st, 0);
			return 1;
		}
		msleep(100);
	}
	return 0;
}

int worker_fuzz(void)
{
	state = mmap(NULL, sizeof(*state), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (state == MAP_FAILED)
		return 1;
	while (running()) {
		unsigned int s = rand_r(&seed_);
		pid_t pid;
		int st, err;

		memset(state, 0, sizeof(*state));
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid)
			fuzz_process(s);
		add(&fig->fuzz_procs, 1);
		err = fuzz_wait(pid, &st);
		if (err < 0) {
			printf("# fuzz: waitpid(%d): %s\n", pid, strerror(-err));
			fflush(stdout);
			return 1;
		}
		if (err) {
			printf("# fuzz: process seed %u did not end %d s after the load stopped; last call %d (%s)%s\n",
			       s, FUZZ_HANG_S, state->call_nr, state->call,
			       state->exec ? ", exec started" : "");
			fflush(stdout);
			return 1;
		}
		if (WIFEXITED(st) && WEXITSTATUS(st) == EXEC_STATUS) {
			add(&fig->fuzz_execs, 1);
		} else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) {
			add(&fig->fuzz_killed, 1);	/* the OOM killer */
		} else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("# fuzz: process seed %u ended with %s %d after call %d (%s)%s\n",
			       s, WIFEXITED(st) ? "status" : "signal",
			       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
			       state->call_nr, state->call, state->exec ? ", exec started" : "");
			fflush(stdout);
			return 1;
		}
	}
	return 0;
}
