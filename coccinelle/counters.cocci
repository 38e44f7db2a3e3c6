// SPDX-License-Identifier: GPL-2.0-only
///
/// NUMA balancing statistics are kept with the tree's helpers: scheduler
/// statistics (struct sched_statistics, p->stats) with schedstat_inc(),
/// schedstat_add() and friends, which compile away without SCHEDSTATS and
/// cost a static branch when it is off; VM events with count_vm_event(),
/// count_vm_events() or count_vm_numa_event(); node and zone counters with
/// mod_node_page_state() and friends. Updating the per-cpu arrays or the
/// fields by hand bypasses the static key, the interrupt-safety of the
/// helpers and their CONFIG_* stubs.
///
// Confidence: High
// Copyright: (C) 2026 numa-sched maintainers
// Options: --no-includes --include-headers
//

virtual report
virtual org
virtual context

@bad@
symbol vm_event_states, vm_node_stat, vm_zone_stat;
expression E, E1;
identifier F;
position p;
@@

(
E->stats.F@p++
|
E->stats.F@p--
|
E->stats.F@p += E1
|
E->stats.F@p -= E1
|
E->stats.F@p = E1
|
E.stats.F@p++
|
E.stats.F@p += E1
|
E.stats.F@p = E1
|
vm_event_states@p
|
vm_node_stat@p
|
vm_zone_stat@p
|
E->vm_stat@p
|
E->vm_stat_diff@p
)

@script:python depends on report@
p << bad.p;
@@

coccilib.report.print_report(p[0],
	"statistic updated by hand: use the schedstat/vmstat helpers")

@script:python depends on org@
p << bad.p;
@@

cocci.print_main("statistic updated by hand", p)
