// SPDX-License-Identifier: GPL-2.0-only
///
/// In a shared header, what belongs to one NUMA feature stands inside
/// that feature's guard: #ifdef CONFIG_NUMA_<X> (or #if IS_ENABLED(...)),
/// its code in the first branch and the off-state stubs in the #else.
/// Outside it, the feature leaks into kernels built without it: a field
/// that costs memory, a prototype of a function that is not built.
///
/// What belongs to a feature is told by its names, which the slices keep
/// as upstream's: NUMA_CPUPID *cpupid*, NUMA_GROUPS *numa_group*,
/// NUMA_SWAP *migrate_swap* and *numa_swap*, NUMA_FBQ *fbq*,
/// *nr_numa_running* and *nr_preferred_running*, NUMA_MIGRATE_DEFER
/// *migrate_defer*. Functions (prototypes and definitions), variables
/// and struct fields are checked.
///
/// A struct field may stand under CONFIG_NUMA_BALANCING instead: a
/// header that nearly every file includes (task_struct's) must not change
/// its layout with a feature option, or each option set recompiles the
/// whole kernel. The field then costs its bytes in the off state, and
/// the feature's code, built only with the option, is what uses it.
///
// Confidence: Moderate
// Copyright: (C) 2026 numa-sched maintainers
// Options: --no-includes --include-headers
//

virtual report
virtual org
virtual context

@initialize:python@
@@
import re

FEATURES = [
	("NUMA_CPUPID", re.compile(r"cpupid", re.I)),
	("NUMA_GROUPS", re.compile(r"numa_group", re.I)),
	("NUMA_SWAP", re.compile(r"migrate_swap|numa_swap", re.I)),
	("NUMA_FBQ", re.compile(r"fbq|nr_numa_running|nr_preferred_running", re.I)),
	("NUMA_MIGRATE_DEFER", re.compile(r"migrate_defer", re.I)),
]
COND = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)")
regions = {}

def guards(fname):
	"""For each line of fname, the conditions of the #if groups around it."""
	if fname in regions:
		return regions[fname]
	stack, per_line = [], [[]]
	with open(fname, errors="replace") as f:
		for line in f:
			m = COND.match(line)
			if m and m.group(1) in ("if", "ifdef", "ifndef"):
				stack.append([m.group(2)])
			elif m and m.group(1) == "elif" and stack:
				stack[-1].append(m.group(2))
			elif m and m.group(1) == "endif" and stack:
				stack.pop()
			per_line.append([c for group in stack for c in group])
	regions[fname] = per_line
	return per_line

def unguarded(name, fname, line, field=False):
	"""The option name belongs to, if it lies outside that option's guard
	(for a struct field, outside CONFIG_NUMA_BALANCING's too)."""
	conds = guards(fname)
	line = int(line)
	here = conds[line] if line < len(conds) else []
	for opt, pat in FEATURES:
		if pat.search(name):
			ok = ["CONFIG_" + opt] + (["CONFIG_NUMA_BALANCING"] if field else [])
			if not any(g in c for c in here for g in ok):
				return opt
			return None
	return None

@decl@
identifier I =~ "(?i)cpupid|numa_group|migrate_swap|numa_swap|fbq|nr_numa_running|nr_preferred_running|migrate_defer";
type T;
position p;
@@

(
T I@p(...);
|
T I@p;
|
T I@p = ...;
)

@fn@
identifier I =~ "(?i)cpupid|numa_group|migrate_swap|numa_swap|fbq|nr_numa_running|nr_preferred_running|migrate_defer";
type T;
position p;
@@

T I@p(...) { ... }

@sfield@
identifier S;
identifier I =~ "(?i)cpupid|numa_group|migrate_swap|numa_swap|fbq|nr_numa_running|nr_preferred_running|migrate_defer";
type T;
position p;
@@

struct S { ... T I@p; ... };

@script:python depends on report@
I << decl.I;
p << decl.p;
@@

opt = unguarded(I, p[0].file, p[0].line)
if opt:
	coccilib.report.print_report(p[0], "%s belongs to CONFIG_%s but is outside its guard" % (I, opt))

@script:python depends on report@
I << fn.I;
p << fn.p;
@@

opt = unguarded(I, p[0].file, p[0].line)
if opt:
	coccilib.report.print_report(p[0], "%s belongs to CONFIG_%s but is outside its guard" % (I, opt))

@script:python depends on report@
I << sfield.I;
p << sfield.p;
@@

opt = unguarded(I, p[0].file, p[0].line, field=True)
if opt:
	coccilib.report.print_report(p[0], "field %s belongs to CONFIG_%s but is outside its guard" % (I, opt))

@script:python depends on org@
I << decl.I;
p << decl.p;
@@

if unguarded(I, p[0].file, p[0].line):
	cocci.print_main("%s outside its guard" % I, p)
