// SPDX-License-Identifier: GPL-2.0-only
///
/// A task's numa_group pointer is RCU-protected (__rcu): another CPU may
/// swap it and free the old group after a grace period. Read it only
/// through rcu_dereference(), rcu_dereference_check() or
/// rcu_dereference_protected() (or rcu_access_pointer() to test it), and
/// write it only with rcu_assign_pointer() or RCU_INIT_POINTER(). A plain
/// access may see a group that is being freed.
///
// Confidence: High
// Copyright: (C) 2026 numa-sched maintainers
// Options: --no-includes --include-headers
//

virtual report
virtual org
virtual context

@ok@
expression T;
position p;
@@

(
rcu_dereference(T->numa_group@p)
|
rcu_dereference_check(T->numa_group@p, ...)
|
rcu_dereference_protected(T->numa_group@p, ...)
|
rcu_dereference_raw(T->numa_group@p)
|
rcu_access_pointer(T->numa_group@p)
|
rcu_assign_pointer(T->numa_group@p, ...)
|
RCU_INIT_POINTER(T->numa_group@p, ...)
)

@plain@
expression T;
position p != ok.p;
@@

T->numa_group@p

@script:python depends on report@
p << plain.p;
@@

coccilib.report.print_report(p[0],
	"task's numa_group read or written without the RCU accessors")

@script:python depends on org@
p << plain.p;
@@

cocci.print_main("numa_group without RCU accessor", p)
