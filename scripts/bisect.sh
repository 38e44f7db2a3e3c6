#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series, second step: every commit of the exported series
# (refs/numa-sched/series, written by scripts/series.sh) builds with
# configs/numa-all, so that the series bisects. The commits are checked
# out in turn in a worktree of KSRC, WORK/bisect/linux, and built by
# scripts/kernel.sh into WORK/bisect/build/numa-all: each build after the
# first is incremental, and the layout mirrors KSRC and BUILD's so that
# ccache's relative paths hit on the objects a commit shares with the
# final tree. One KTAP case per commit; a build that fails or warns is a
# failure, and its log is kept.
#
# Seen to fail, on the series as it was: the commit that builds the
# {cpu,pid} KUnit test came before the one that adds <linux/page_cpupid.h>,
# which the test includes ("fatal error: linux/page_cpupid.h: No such file
# or directory" at commit 5); the two are now the other way round. And
# numa_retry.c came three patches before the callers of its
# numa_set_preferred(): "defined but not used" (a warning is a failure,
# as in kernel.sh); the two patches are now one. A warning is seen only
# where the commit recompiles the file, as incremental builds go.
#
# Environment: KSRC, WORK, JOBS, BISECT_COMMITS (numbers of the commits
# to build, 1 the first; default all of them).

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

: "${KSRC:?}" "${WORK:?}"
git=(git -C "$KSRC")
"${git[@]}" rev-parse -q --verify refs/numa-sched/series >/dev/null ||
	die "no exported series in $KSRC: run scripts/series.sh (make series)"
tree=$WORK/bisect/linux
build=$WORK/bisect/build
mkdir -p "$WORK/bisect/logs"

if ! git -C "$tree" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	rm -rf "$tree"
	"${git[@]}" worktree prune
	"${git[@]}" worktree add -q --detach "$tree" pristine
fi

mapfile -t commits < <("${git[@]}" rev-list --reverse pristine..refs/numa-sched/series)
BISECT_COMMITS=${BISECT_COMMITS:-$(seq 1 ${#commits[@]})}
for n in $BISECT_COMMITS; do
	case "$n" in
	"" | *[!0-9]* | 0) die "BISECT_COMMITS: '$n' is not a commit number" ;;
	esac
	[ "$n" -le ${#commits[@]} ] || die "BISECT_COMMITS: the series has ${#commits[@]} commits, not $n"
done
ktap_header
ktap_plan $(echo $BISECT_COMMITS | wc -w)
for n in $BISECT_COMMITS; do
	c=${commits[$((n - 1))]}
	subject=$("${git[@]}" log -1 --format=%s "$c")
	log=$WORK/bisect/logs/$(printf '%04d' "$n").log
	git -C "$tree" checkout -q --detach "$c"
	start=$(date +%s)
	if KSRC=$tree BUILD=$build NAME=numa-all CONFIG=numa-all OPTS= \
		"$here/kernel.sh" >"$log" 2>&1; then
		r=0
	else
		r=1
		tail -n 15 "$log" | sed 's/^/# /'
	fi
	echo "# $(( $(date +%s) - start ))s, log $log"
	ktap_result $r "$(printf '%04d' "$n") builds with numa-all: $subject"
done
ktap_finished
