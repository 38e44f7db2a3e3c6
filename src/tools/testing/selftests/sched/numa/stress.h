/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the stress test's workers share (stress.c, stress_fuzz.c,
 * stress_inject.c): the figures every process adds to, in shared memory;
 * the clock the load stops by; the seeded randomness a run replays from.
 */
#ifndef STRESS_H
#define STRESS_H

#include "numa_test.h"

/* Counts the workers and their children add up, in shared memory. */
struct figures {
	volatile int stop;
	volatile int quiet;	/* every worker but inject has ended */
	long forks, execs, kills, exits;
	long threads;
	long swap_pairs;
	long hotplug_cycles, hotplug_errors;
	long fills, fill_mb, fills_killed;
	long bad_writes, bad_refused, bad_accepted;
	long good_writes, good_failed;
	/* stress_fuzz.c */
	long fuzz_procs, fuzz_calls, fuzz_failed, fuzz_undocumented;
	long fuzz_segv, fuzz_execs, fuzz_killed;
	/* stress_inject.c */
	long inject_armed, inject_fired, inject_victims, inject_victims_bad;
	/* The long-lived victim once the injection stopped: see stress_inject.c. */
	long settle_done, settle_node, settle_pref, settle_pct, settle_ms;
	long settle_start, settle_moved, settle_move_ret, settle_free_mb;
	long settle_quiet_ms, settle_paused, settle_progress;
	long settle_before, settle_seen;
};

extern struct figures *fig;
extern int nodes;
/* This process's random state: seeded from the run's seed, not the clock. */
extern unsigned int seed_;

bool running(void);
/* MemFree of @node, in kB; -1 when it cannot be read. */
long node_free_kb(int node);

static inline int rnd(int lo, int hi)	/* in [lo, hi] */
{
	return lo + rand_r(&seed_) % (hi - lo + 1);
}

static inline void msleep(int ms)
{
	usleep(ms * 1000);
}

/* Count @n more in the figures all workers share; returns the new count. */
static inline long add(long *counter, long n)
{
	return __atomic_add_fetch(counter, n, __ATOMIC_RELAXED);
}

/* The image a process execs to end (argv[1] "--exit"), and its status. */
#define EXEC_STATUS	42
void *exec_self(void *arg);

/* stress_fuzz.c */
int worker_fuzz(void);

/*
 * stress_inject.c: inject_setup() arms the fault attributes (0, or a
 * negative errno: -ENOENT for a kernel without fault injection), the worker leaves
 * its figures in fig, inject_teardown() puts the attributes back. Only
 * stress.c prints results (kselftest.h keeps its counts per file).
 */
int inject_setup(void);
void inject_teardown(void);
int worker_inject(void);
/*
 * The time main() gives the inject worker once the others have ended: its
 * last short victim (4 s), the disarm and pause waits (5 s each), then
 * settle()'s pinning (5 s), move (10 s) and take-back (30 s).
 */
#define INJECT_REAP_S	90

#endif /* STRESS_H */
