// SPDX-License-Identifier: GPL-2.0-only
///
/// A reference taken with get_numa_group() must be dropped with
/// put_numa_group() on every path that leaves the function, unless it is
/// handed over to a task's numa_group pointer with rcu_assign_pointer().
/// A path that forgets it leaks the group: its refcount never reaches
/// zero and the RCU-freed struct numa_group stays allocated for good.
///
// Confidence: Moderate
// Copyright: (C) 2026 numa-sched maintainers
// Options: --no-includes --include-headers
//

virtual report
virtual org
virtual context

// if (!get_numa_group(grp)) goto out; ... a return that did not put it.
// The call may stand in a larger condition (if (join && !get...)): then
// write the code so that the paths on which it was not called do not
// reach a return after it, or this reports them.
@leak exists@
expression E, E2;
statement S;
position p1, p2;
@@

if (<+... !get_numa_group@p1(E) ...+>) S
... when != put_numa_group(E)
    when != rcu_assign_pointer(E2, E)
    when != E2 = E
return@p2 ...;

// if (get_numa_group(grp)) { ... }: a way through the block without a put.
@leak_block exists@
expression E, E2;
position p1;
@@

if (get_numa_group@p1(E)) {
  ... when != put_numa_group(E)
      when != rcu_assign_pointer(E2, E)
      when != E2 = E
? return ...;
}

@script:python depends on report@
p1 << leak.p1;
p2 << leak.p2;
@@

coccilib.report.print_report(p1[0],
	"numa_group reference not put on the path returning at line %s" % p2[0].line)

@script:python depends on report@
p1 << leak_block.p1;
@@

coccilib.report.print_report(p1[0],
	"numa_group reference not put on a path through this block")

@script:python depends on org@
p1 << leak.p1;
p2 << leak.p2;
@@

cocci.print_main("numa_group reference not put", p1)
cocci.print_secs("return", p2)

@script:python depends on org@
p1 << leak_block.p1;
@@

cocci.print_main("numa_group reference not put in block", p1)
