#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: the static-analysis gate, as one KTAP document.
#
#   1. our coccinelle rules fire on their bad examples and stay quiet on
#      their good ones (scripts/cocci-selftest.sh);
#   2. our rules over every C file the series adds or touches;
#   3. the tree's own coccinelle checks (make coccicheck MODE=report) on
#      the directories the series touches;
#   4. sparse (make C=2) on the objects built from those files, in the
#      all-on and all-off configurations;
#   5. checkpatch.pl --strict on the exported series: no errors, and only
#      warning types that patches/cover-letter.txt gives a reason for;
#   6. build economy (scripts/build-economy.sh on the default kernel's
#      build): no option but NUMA_CPUPID is seen by more than a handful of
#      objects, so that a new option set recompiles only those.
#
# 2 to 4 compare with the pristine tree (a worktree of KSRC at "pristine",
# in WORK/pristine/linux): only findings that the pristine tree does not
# have fail, and they are printed. Line numbers are left out of the
# comparison, since the series moves code. The pristine tree is not
# built for it: sparse checks just the objects concerned, which kbuild
# compiles on their own after its prepare step.
#
# That the exported series rebuilds the same vmlinux from a fresh unpack
# of the tarball is make series' check (scripts/reproducible.sh): it
# needs a second tree and kernel.
#
# Environment: KSRC, BUILD, OUT, WORK, TARBALL.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${BUILD:?}" "${OUT:?}" "${WORK:?}"
KSRC=$(abspath "$KSRC")
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
STATE=$KSRC/.git/numa-sched
PRISTINE=$WORK/pristine/linux
LOG=$OUT/check
# checkpatch's SPDX check needs Debian's python3 with python3-ply.
export PATH=/usr/bin:$PATH
mkdir -p "$LOG"

# The series' files: what the glue changes and what the slices add.
series_files()
{
	{
		git -C "$KSRC" diff --name-only pristine HEAD
		awk '{ print $2 }' "$STATE/manifest"
	} | sort -u
}
# The kernel's C files: the selftests under tools/ are userspace, which
# the kernel's rules, coccicheck and sparse do not describe (checkpatch
# still reads them, in the exported series).
cfiles=$(series_files | grep -E '\.[ch]$' | grep -v '^tools/' || true)

# new_findings BASE OURS: the lines of OURS (normalised findings, "file:
# message") that BASE does not have as many times, with their counts.
new_findings()
{
	awk 'NR == FNR { base[$0]++; next } { if (base[$0]-- <= 0) print }' "$1" "$2"
}

# normalise TREE: "path:line:col: message" -> "path: message", the path
# relative to the tree, and line numbers inside messages left out too.
normalise()
{
	sed -E -e "s|^$1/||" -e 's|^([^: ]+):[0-9]+(:[0-9]+)*(-[0-9]+)?:|\1:|' \
		-e 's/(at|on) line [0-9]+/\1 line N/g' | sort
}

check_cocci_selftest()
{
	"$here/cocci-selftest.sh" >"$LOG/cocci-selftest.ktap" 2>&1
	local rc=$?
	cat "$LOG/cocci-selftest.ktap"
	return $rc
}

# run_rules TREE: our rules over the series' C files present in TREE.
run_rules()
{
	local tree=$1 f files=""

	for f in $cfiles; do
		[ -f "$tree/$f" ] && files="$files $tree/$f"
	done
	[ -n "$files" ] || return 0
	for r in "$REPO"/coccinelle/*.cocci; do
		set -- $files
		# slice_guard is about shared headers: a slice's own .c file
		# is built only with its option and needs no guard inside.
		[ "$(basename "$r")" = slice_guard.cocci ] &&
			set -- $(printf '%s\n' $files | grep '\.h$')
		[ $# -gt 0 ] || continue
		spatch --very-quiet -D report --no-includes --include-headers \
			--sp-file "$r" "$@" 2>/dev/null | sed "s|\$| [$(basename "$r" .cocci)]|"
	done
}

# Our rules' findings are compared without their file: the series moves
# upstream code between headers (the page record's accessors from mm.h to
# page_cpupid.h), and a finding that moved is not new. The message names
# the identifier.
check_our_rules()
{
	run_rules "$KSRC" | normalise "$KSRC" | sed 's/^[^ ]*: //' | sort >"$LOG/rules.ours"
	run_rules "$PRISTINE" | normalise "$PRISTINE" | sed 's/^[^ ]*: //' | sort >"$LOG/rules.base"
	new_findings "$LOG/rules.base" "$LOG/rules.ours" >"$LOG/rules.new"
	sed 's/^/# new: /' "$LOG/rules.new"
	[ ! -s "$LOG/rules.new" ]
}

# coccicheck TREE: the tree's own rules on the directories of the series'
# .c files (a header's directory, include/linux, would mean thousands of
# files; the headers are seen through the .c files that include them).
coccicheck()
{
	local d

	for d in $(echo "$cfiles" | grep '\.c$' | xargs -r -n1 dirname | sort -u); do
		[ -d "$1/$d" ] || continue
		make -s -C "$1" coccicheck MODE=report M="$d" J="$(nproc)" 2>/dev/null |
			grep -E '^[^ ]+:[0-9]+:[0-9]+-[0-9]+: '
	done | normalise "$1"
}

check_coccicheck()
{
	coccicheck "$KSRC" >"$LOG/coccicheck.ours"
	coccicheck "$PRISTINE" >"$LOG/coccicheck.base"
	new_findings "$LOG/coccicheck.base" "$LOG/coccicheck.ours" >"$LOG/coccicheck.new"
	sed 's/^/# new: /' "$LOG/coccicheck.new"
	[ ! -s "$LOG/coccicheck.new" ]
}

# objects TREE O: the objects linked in O (vmlinux.a: a build started from
# a copy of another may hold objects its own config does not build) from
# the series' C files, plus
# the units that include kernel/sched's internal headers when those
# change. A slice #included into another unit (fair.c) has no object of
# its own: the unit that includes it, which the glue touches, stands for it.
objects()
{
	local f o

	for f in $cfiles; do
		case "$f" in
		kernel/sched/*.h) echo kernel/sched/core.o kernel/sched/fair.o \
			kernel/sched/build_policy.o kernel/sched/build_utility.o ;;
		*.c) echo "${f%.c}.o" ;;
		esac
	done | tr ' ' '\n' | sort -u | grep -Fxf <(ar t "$2/vmlinux.a" 2>/dev/null) || true
}

# sparse TREE NAME CONFIG: sparse on the series' objects of one config.
# Our configurations are built whole (make test's builds, normally done),
# so that only the objects they build are checked; the pristine tree is
# configured only, and its objects are those of the default kernel whose
# source it has.
sparse_run()
{
	local tree=$1 name=$2 config=$3 build objs o

	build=$(dirname "$tree")/build
	if [ "$name" = pristine ]; then
		KSRC=$tree BUILD=$build NAME=$name CONFIG=$config OPTS= \
			"$here/kernel.sh" --configure-only >"$LOG/sparse-$name.build" 2>&1 || return 1
		objs=$(objects "$KSRC" "$BUILD/numa-all" | while read -r o; do
			[ ! -f "$tree/${o%.o}.c" ] || echo "$o"; done)
	else
		KSRC=$tree BUILD=$build NAME=$name CONFIG=$config OPTS= \
			"$here/kernel.sh" >"$LOG/sparse-$name.build" 2>&1 || return 1
		objs=$(objects "$tree" "$build/$name")
	fi
	[ -n "$objs" ] || return 0
	make -s -C "$tree" O="$build/$name" C=2 $objs 2>&1 >/dev/null |
		grep -E ': (warning|error):' | normalise "$tree"
}

check_sparse()
{
	local config rc=0

	sparse_run "$PRISTINE" pristine "" >"$LOG/sparse.base" || {
		echo "# the pristine tree did not build: $LOG/sparse-pristine.build"
		return 1
	}
	for config in numa-all numa-none; do
		sparse_run "$KSRC" "$config" "$config" >"$LOG/sparse.$config" || {
			echo "# $config did not build: $LOG/sparse-$config.build"
			rc=1
			continue
		}
		new_findings "$LOG/sparse.base" "$LOG/sparse.$config" >"$LOG/sparse.$config.new"
		sed "s/^/# new ($config): /" "$LOG/sparse.$config.new"
		[ ! -s "$LOG/sparse.$config.new" ] || rc=1
	done
	return $rc
}

check_checkpatch()
{
	local p rc=0 types t

	for p in "$SERIES_DIR"/0*.patch; do
		case "$p" in */0000-cover-letter.patch) continue ;; esac
		(cd "$KSRC" && scripts/checkpatch.pl --strict --show-types --terse "$p") |
			grep -E ': (ERROR|WARNING|CHECK):'
	done >"$LOG/checkpatch.txt"
	sed 's/^/# /' "$LOG/checkpatch.txt"
	grep -q ': ERROR:' "$LOG/checkpatch.txt" && rc=1
	types=$(sed -nE 's/.*: (WARNING|CHECK):([A-Z_]+):.*/\2/p' "$LOG/checkpatch.txt" | sort -u)
	for t in $types; do
		if ! grep -q "^$t: " "$REPO/patches/cover-letter.txt"; then
			echo "# $t has no reason in patches/cover-letter.txt"
			rc=1
		fi
	done
	return $rc
}

check_build_economy()
{
	"$here/build-economy.sh" "$BUILD/numa-all"
}

export SERIES_DIR=$WORK/series

ktap_result_of()
{
	local name=$1 rc

	shift
	"$@" >"$LOG/$name.out" 2>&1
	rc=$?
	ktap_nest "$name" "$LOG/$name.out"
	ktap_result $rc "$name"
}

pristine_tree "$KSRC" "$PRISTINE"
"$here/series.sh" >"$LOG/series.log" 2>&1 || { cat "$LOG/series.log"; exit 1; }

{
	echo "KTAP version 1"
	echo "1..6"
	ktap_result_of cocci-selftest check_cocci_selftest
	if [ -n "$cfiles" ]; then
		ktap_result_of our-coccinelle-rules check_our_rules
		ktap_result_of coccicheck check_coccicheck
		ktap_result_of sparse check_sparse
	else
		ktap_skip our-coccinelle-rules "the series touches no C file yet"
		ktap_skip coccicheck "the series touches no C file yet"
		ktap_skip sparse "the series touches no C file yet"
	fi
	ktap_result_of checkpatch check_checkpatch
	ktap_result_of build-economy check_build_economy
} >"$LOG/check.ktap"
cat "$LOG/check.ktap"
# The tree's KTAP parser judges, as for the other stages.
ktap_judge "$LOG/check.ktap"
