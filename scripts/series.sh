#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: export the work as one git format-patch series against
# pristine linux-source-6.1, with a cover letter, into SERIES_DIR.
#
# The series is built in KSRC's object store without touching its work
# tree: the glue commits of patches/series replayed in order, each with
# the slice files patches/slices assigns to it (the commit that first
# builds or includes a file brings it, so that the file and the upstream
# lines it replaces are one commit, and every commit builds: make series
# checks that with scripts/bisect.sh). The tip is kept as
# refs/numa-sched/series. Then the exported patches are applied with git
# am onto pristine in a scratch worktree, and the result must be make
# tree's tree, file for file.
#
# Author and date: SERIES_AUTHOR ("Name <address>"), else the user's git
# identity (git config user.name and user.email), else the author of the
# repository's last commit (a fresh clone on a CI machine); SERIES_DATE, else the
# date of the repository's last commit, so that the same work exports
# the same series.
#
# The cover letter is patches/cover-letter.txt (its first line the
# subject), followed by what each option does and needs (from
# Kconfig.numa), and the latest matrix result and bench table when they
# exist under OUT. cover-letter.txt also gives the reason for each kind of
# checkpatch warning the series is allowed (scripts/check.sh enforces it).
#
# Environment: KSRC, OUT, SERIES_DIR, SERIES_AUTHOR, SERIES_DATE.

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
if [ -z "${SERIES_AUTHOR:-}" ]; then
	name=$(git -C "$REPO" config user.name || true)
	email=$(git -C "$REPO" config user.email || true)
	if [ -n "$name" ] && [ -n "$email" ]; then
		SERIES_AUTHOR="$name <$email>"
	else
		SERIES_AUTHOR=$(git -C "$REPO" log -1 --format='%an <%ae>')
		info "series: no git identity here, the author is that of the last commit, $SERIES_AUTHOR (or set SERIES_AUTHOR)"
	fi
fi
case "$SERIES_AUTHOR" in
?*" <"?*@?*">") ;;
*) die "SERIES_AUTHOR='$SERIES_AUTHOR' is not 'Name <address>'" ;;
esac
SERIES_DATE=${SERIES_DATE:-$(git -C "$REPO" log -1 --format=%cI)}
export GIT_INDEX_FILE=$STATE/series.index
export GIT_AUTHOR_NAME="${SERIES_AUTHOR% <*}" GIT_AUTHOR_EMAIL="${SERIES_AUTHOR##*<}"
GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL%>}
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="$SERIES_DATE" GIT_COMMITTER_DATE="$SERIES_DATE"

# The series' patches in order, as "topic/NNNN".
mapfile -t patches < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$REPO/patches/series" |
	sed -E 's|^([^/]+/[0-9]{4})-.*|\1|')
mapfile -t commits < <("${git[@]}" rev-list --reverse pristine..HEAD)
[ ${#patches[@]} = ${#commits[@]} ] ||
	die "KSRC has ${#commits[@]} glue commits, patches/series ${#patches[@]} patches: run make tree"

# patches/slices: every copied file exactly once, every patch a real one.
slices=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$REPO/patches/slices")
bad=$(awk '{ print $2 }' "$STATE/manifest" | while read -r f; do
	n=$(echo "$slices" | awk -v f="$f" '$2 == f' | wc -l)
	[ "$n" = 1 ] || echo "    $f: listed $n times in patches/slices"
done)
bad=$bad$(echo "$slices" | while read -r p f; do
	printf '%s\n' "${patches[@]}" | grep -qx "$p" || echo "    $p ($f): no such patch in patches/series"
	awk '{ print $2 }' "$STATE/manifest" | grep -qx "$f" || echo "    $f: not a file make tree copies"
done)
[ -z "$bad" ] || die "patches/slices does not match the series and src/:
$bad"

rm -f "$GIT_INDEX_FILE"
"${git[@]}" read-tree pristine
tip=$("${git[@]}" rev-parse pristine)
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	"${git[@]}" diff --binary "$c^" "$c" | "${git[@]}" apply --cached
	added=""
	for f in $(echo "$slices" | awk -v p="${patches[$i]}" '$1 == p { print $2 }'); do
		blob=$("${git[@]}" hash-object -w -- "$f")
		"${git[@]}" update-index --add --cacheinfo "100644,$blob,$f"
		added="$added $f"
	done
	tree=$("${git[@]}" write-tree)
	# The message, with the files this commit adds named before the
	# sign-off, and the author's own sign-off.
	tip=$("${git[@]}" log -1 --format=%B "$c" |
		NEW_FILES=$([ -z "$added" ] || echo "New file$([ $(echo $added | wc -w) = 1 ] || echo s): $(echo $added | sed 's/ /, /g')." |
			fold -s -w 72 | sed 's/ *$//') \
		awk -v me="Signed-off-by: $SERIES_AUTHOR" '
			/^Signed-off-by:/ { next }
			{ line[++n] = $0 }
			END {
				while (n > 0 && line[n] == "") n--
				for (i = 1; i <= n; i++) print line[i]
				if (ENVIRON["NEW_FILES"] != "") {
					print ""
					print ENVIRON["NEW_FILES"]
				}
				print ""
				print me
			}' |
		"${git[@]}" commit-tree "$tree" -p "$tip")
done
"${git[@]}" update-ref refs/numa-sched/series "$tip"
rm -f "$GIT_INDEX_FILE"

# make tree's tree: KSRC's glue with the copied slices.
export GIT_INDEX_FILE=$STATE/tree.index
rm -f "$GIT_INDEX_FILE"
"${git[@]}" read-tree HEAD
while read -r sha f; do
	blob=$("${git[@]}" hash-object -w -- "$f")
	"${git[@]}" update-index --add --cacheinfo "100644,$blob,$f"
done <"$STATE/manifest"
want=$("${git[@]}" write-tree)
rm -f "$GIT_INDEX_FILE"
unset GIT_INDEX_FILE
[ "$("${git[@]}" rev-parse "refs/numa-sched/series^{tree}")" = "$want" ] ||
	die "the series' tip is not make tree's tree: $("${git[@]}" diff --stat "$want" refs/numa-sched/series | tail -n 1)"

rm -rf "$SERIES_DIR"
mkdir -p "$SERIES_DIR"
"${git[@]}" format-patch -q --cover-letter --zero-commit --no-signature \
	-o "$SERIES_DIR" pristine..refs/numa-sched/series

# git am of the exported patches onto pristine gives make tree's tree.
amtree=$(dirname "$KSRC")/series-am
rm -rf "$amtree"
"${git[@]}" worktree prune
"${git[@]}" worktree add -q --detach "$amtree" pristine
if ! git -C "$amtree" -c user.name="$GIT_AUTHOR_NAME" -c user.email="$GIT_AUTHOR_EMAIL" \
	am -q $(ls "$SERIES_DIR"/0*.patch | grep -v '/0000-cover-letter.patch$') >"$SERIES_DIR/.am.log" 2>&1 ||
   [ "$(git -C "$amtree" rev-parse "HEAD^{tree}")" != "$want" ]; then
	cat "$SERIES_DIR/.am.log" >&2
	git -C "$amtree" diff --stat "$want" HEAD >&2 || true
	die "git am of $SERIES_DIR onto pristine does not give make tree's tree"
fi
rm -rf "$amtree" "$SERIES_DIR/.am.log"
"${git[@]}" worktree prune

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
