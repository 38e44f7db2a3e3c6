#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: export the work as one git format-patch series against
# pristine linux-source-6.1, with a cover letter, into SERIES_DIR.
#
# The series is built in KSRC's object store without touching its work
# tree: first one commit per feature adding its slice files (new files
# that nothing references yet, so every step builds), the first of them
# with the menu and the documentation; then the glue commits, each
# replayed on top with the slices present. The tip is kept as
# refs/numa-sched/series.
#
# The cover letter is patches/cover-letter.txt (its first line the
# subject), followed by what each option does and needs (from
# Kconfig.numa), and the latest matrix result and bench table when they
# exist under OUT. cover-letter.txt also gives the reason for each kind of
# checkpatch warning the series is allowed (scripts/check.sh enforces it).
#
# Environment: KSRC, OUT, SERIES_DIR.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${OUT:?}"
SERIES_DIR=$(abspath "${SERIES_DIR:-$(dirname "$KSRC")/series}")
STATE=$KSRC/.git/numa-sched
is_inside "$SERIES_DIR" "$REPO" && die "SERIES_DIR=$SERIES_DIR is inside the repository"
[ -f "$STATE/manifest" ] || die "no manifest in $KSRC: run make tree"

git=(git -C "$KSRC")
export GIT_INDEX_FILE=$STATE/series.index
export GIT_AUTHOR_NAME="numa-sched maintainers" GIT_AUTHOR_EMAIL="numa-sched@example.org"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
# Fixed dates: the same work exports the same series.
export GIT_AUTHOR_DATE="2013-09-27T14:26:45Z" GIT_COMMITTER_DATE="2013-09-27T14:26:45Z"

# feature FILE: which commit a copied file belongs to.
feature()
{
	case "$(basename "$1")" in
	*numa_cpupid* | *cpupid*) echo NUMA_CPUPID ;;
	*numa_groups* | *numa_group*) echo NUMA_GROUPS ;;
	*numa_swap*) echo NUMA_SWAP ;;
	*numa_fbq*) echo NUMA_FBQ ;;
	*numa_migrate_defer*) echo NUMA_MIGRATE_DEFER ;;
	*) echo base ;;
	esac
}

# add_files FEATURE: stage the manifest's files of FEATURE in the index.
add_files()
{
	local sha path blob n=0

	while read -r sha path; do
		[ "$(feature "$path")" = "$1" ] || continue
		blob=$("${git[@]}" hash-object -w -- "$path")
		"${git[@]}" update-index --add --cacheinfo "100644,$blob,$path"
		n=$((n + 1))
	done <"$STATE/manifest"
	echo "$n"
}

subject_of()
{
	case "$1" in
	base) echo "sched/numa: add the NUMA balancing feature menu and its documentation" ;;
	*) echo "sched/numa: add the CONFIG_$1 slice" ;;
	esac
}

body_of()
{
	case "$1" in
	base)
		cat <<-EOF
		The features of "Basic scheduler support for automatic NUMA
		balancing" (Gorman, Zijlstra, van Riel, 2013) become options of
		their own, so that a kernel can be built with any subset of them.
		This adds their menu, kernel/sched/Kconfig.numa, and the page
		that documents them; nothing sources or builds them yet.
		EOF
		;;
	*)
		cat <<-EOF
		The code of CONFIG_$1, in files of its own. Nothing includes or
		builds them yet: the glue patches later in this series do.
		EOF
		;;
	esac
}

rm -f "$GIT_INDEX_FILE"
"${git[@]}" read-tree pristine
tip=$("${git[@]}" rev-parse pristine)
for f in base NUMA_CPUPID NUMA_GROUPS NUMA_SWAP NUMA_FBQ NUMA_MIGRATE_DEFER; do
	n=$(add_files "$f")
	[ "$n" != 0 ] || continue
	tree=$("${git[@]}" write-tree)
	tip=$({ subject_of "$f"; echo; body_of "$f"; echo; echo "Signed-off-by: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"; } |
		"${git[@]}" commit-tree "$tree" -p "$tip")
done

# Replay the glue: each commit's changes on top of what is staged.
for c in $("${git[@]}" rev-list --reverse pristine..HEAD); do
	"${git[@]}" diff --binary "$c^" "$c" | "${git[@]}" apply --cached
	tree=$("${git[@]}" write-tree)
	tip=$("${git[@]}" log -1 --format=%B "$c" | "${git[@]}" commit-tree "$tree" -p "$tip")
done
"${git[@]}" update-ref refs/numa-sched/series "$tip"
rm -f "$GIT_INDEX_FILE"

rm -rf "$SERIES_DIR"
mkdir -p "$SERIES_DIR"
"${git[@]}" format-patch -q --cover-letter --zero-commit --no-signature \
	-o "$SERIES_DIR" pristine..refs/numa-sched/series

# The cover letter's text.
n=$(ls "$SERIES_DIR" | grep -vc '^0000-')
cover=$SERIES_DIR/0000-cover-letter.patch
{
	tail -n +3 "$REPO/patches/cover-letter.txt"
	echo
	echo "The options"
	echo "-----------"
	awk '
		/^config / { name = $2; next }
		/^[ \t]+bool "/ && name { sub(/^[ \t]+bool "/, ""); sub(/"$/, ""); prompt[name] = $0; order[++n] = name; next }
		/^[ \t]+depends on / && name { sub(/^[ \t]+depends on /, ""); dep[name] = $0 }
		END { for (i = 1; i <= n; i++) printf "CONFIG_%-20s %s%s\n", order[i], prompt[order[i]], dep[order[i]] ? " (needs " dep[order[i]] ")" : "" }
	' "$REPO/Kconfig.numa"
	echo
	echo "Boot matrix"
	echo "-----------"
	cat "$OUT/matrix/summary.txt" 2>/dev/null || echo "not run yet (make matrix)"
	echo
	echo "Bench"
	echo "-----"
	cat "$OUT/bench/table.txt" 2>/dev/null || echo "not run yet (make bench)"
} >"$SERIES_DIR/.blurb"
subject=$(head -n1 "$REPO/patches/cover-letter.txt")
awk -v subject="$subject" -v blurb="$SERIES_DIR/.blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/\*\*\* BLURB HERE \*\*\*/ { while ((getline line < blurb) > 0) print line; next }
	{ print }' "$cover" >"$cover.new"
mv "$cover.new" "$cover"
rm -f "$SERIES_DIR/.blurb"
info "series: $n patches and a cover letter in $SERIES_DIR"
