#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make tree: bring KSRC to "pristine linux-source-6.1 + patches/series +
# the slices of src/ and Kconfig.numa", doing as little as possible.
#
# KSRC is a git repository: its first commit (tag "pristine") is the
# unmodified Debian tarball, the glue series sits on top as commits applied
# with git am, and the slices are copied in as files. What was copied is
# recorded, with each file's hash, in a manifest under .git/numa-sched/, so
# that a later run, from this checkout or from any other clone sharing KSRC,
# can tell its own copies from hand edits.
#
#   - nothing changed:         nothing is touched (the build stays warm);
#   - a slice changed:         only that file is re-copied;
#   - patches/ changed:        reset to pristine, git am the series again;
#   - the tarball changed:     a new pristine import;
#   - anything edited by hand: listed, and nothing is touched unless FORCE=1.
#
# Environment: KSRC (required), TARBALL, FORCE.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
FORCE=${FORCE:-0}
[ -n "${KSRC:-}" ] || die "KSRC is not set"
KSRC=$(abspath "$KSRC")

is_inside "$KSRC" "$REPO" &&
	die "KSRC=$KSRC is inside the repository $REPO; the kernel tree must live outside it"
is_inside "$REPO" "$KSRC" &&
	die "the repository $REPO is inside KSRC=$KSRC; choose another KSRC"
[ -r "$TARBALL" ] ||
	die "$TARBALL not found: install linux-source-6.1 (make deps)"

STATE=$KSRC/.git/numa-sched
MANIFEST=$STATE/manifest

mkdir -p "$(dirname "$KSRC")"
exec 9>"$KSRC.lock"
flock 9

# What identifies the tarball: Debian's package version when it is the
# package's file, and the file's size and mtime in any case.
tarball_id()
{
	local ver=

	[ "$(abspath "$TARBALL")" = /usr/src/linux-source-6.1.tar.xz ] &&
		ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || true)
	echo "${ver:-unknown} $(stat -c '%s %Y' "$TARBALL") $(abspath "$TARBALL")"
}

# The series' list of patches, with the content of every patch it names:
# any edit to either changes this hash, comments and blank lines do not.
series_id()
{
	local p

	[ -f "$REPO/patches/series" ] || { echo none; return; }
	{
		series_list
		series_list | while read -r p; do
			[ -f "$REPO/patches/$p" ] ||
				die "patches/series names $p, which does not exist"
			cat "$REPO/patches/$p"
		done
	} | sha256sum | cut -d' ' -f1
}

# Quilt-style series: one patch per line, '#' comments and blank lines.
series_list()
{
	[ -f "$REPO/patches/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$REPO/patches/series"
}

# Pairs "source destination" for every file the slices bring.
slice_list()
{
	[ ! -d "$REPO/src" ] || (cd "$REPO/src" && find . -type f ! -name '*~' ! -name '*.orig' \
		! -name '*.rej' -printf '%P\n' | LC_ALL=C sort) |
		while read -r f; do
			echo "src/$f $f"
		done
	echo "Kconfig.numa kernel/sched/Kconfig.numa"
}

kversion()
{
	make -s -C "$KSRC" kernelversion 2>/dev/null || echo unknown
}

import_tree()
{
	local tmp=$KSRC.importing

	info "importing $TARBALL into $KSRC"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	tar -xJf "$TARBALL" -C "$tmp" --strip-components=1
	(
		cd "$tmp"
		git init -q
		git config gc.auto 0
		git config user.name "numa-sched tree"
		git config user.email "numa-sched@localhost"
		# -f: the tarball is pristine by definition, .gitignore included
		git add -f -A .
		git commit -q -m "linux-source-6.1 $(tarball_id | cut -d' ' -f1): pristine import"
		git tag pristine
		mkdir -p .git/numa-sched
		tarball_id >.git/numa-sched/tarball.id
		echo none >.git/numa-sched/series.id
	)
	mv "$tmp" "$KSRC"
}

manifest_sha()
{
	[ -f "$MANIFEST" ] || return 0
	awk -v p="$1" '$2 == p { print $1 }' "$MANIFEST"
}

# Every change in KSRC that make tree did not make: tracked files that
# differ from the last commit and untracked files, except the copies
# recorded in the manifest that still hold what was copied, and files that
# hold what this checkout's slice would copy there (a copy made by hand
# is the copy make tree makes).
hand_edits()
{
	local st path want have src slices

	slices=$(slice_list)

	# Untracked files are listed with ls-files -o and no exclude rules:
	# Debian's top-level .gitignore ignores "/*", which would hide every
	# file added by hand. Builds go to O= directories, so the tree holds
	# no build products to be listed here.
	{
		git -C "$KSRC" diff --name-status HEAD | sed 's/\t/ /'
		git -C "$KSRC" ls-files -o | sed 's/^/? /'
	} |
		while IFS= read -r st; do
			path=${st#* }
			want=$(manifest_sha "$path")
			if [ -n "$want" ] && [ -f "$KSRC/$path" ]; then
				have=$(sha256sum "$KSRC/$path" | cut -d' ' -f1)
				[ "$have" = "$want" ] && continue
			fi
			src=$(awk -v p="$path" '$2 == p { print $1 }' <<<"$slices")
			[ -n "$src" ] && cmp -s "$REPO/$src" "$KSRC/$path" && continue
			echo "$st"
		done
}

check_hand_edits()
{
	local edits

	edits=$(hand_edits)
	[ -n "$edits" ] || return 0
	if [ "$FORCE" = 1 ]; then
		info "FORCE=1: discarding changes made by hand in $KSRC:"
		echo "$edits" | sed 's/^/    /' >&2
		echo none >"$STATE/series.id"
		return 0
	fi
	{
		echo "numa-sched: error: $KSRC has changes that make tree did not make:"
		echo "$edits" | sed 's/^/    /'
		echo "Move them into patches/ or src/, or run 'make tree FORCE=1' to discard them."
	} >&2
	exit 1
}

apply_series()
{
	local p n=0

	info "applying patches/series to $KSRC"
	# Remember what the glue had made of each file it touches: a file
	# that comes out of the new series the same gets its old mtime back,
	# so that editing one patch does not rebuild all that includes mm.h.
	# The slices are removed and copied again too: the same for them.
	{
		git -C "$KSRC" diff --name-only pristine HEAD
		[ ! -f "$MANIFEST" ] || awk '{ print $2 }' "$MANIFEST"
	} | while read -r f; do
		[ -f "$KSRC/$f" ] &&
			echo "$(sha256sum <"$KSRC/$f" | cut -d' ' -f1) $(stat -c %Y "$KSRC/$f") $f"
	done >"$STATE/mtimes"
	git -C "$KSRC" reset -q --hard pristine
	git -C "$KSRC" clean -q -f -d -x
	rm -f "$MANIFEST"
	for p in $(series_list); do
		if ! git -C "$KSRC" am -q --keep-cr "$REPO/patches/$p" >"$STATE/am.log" 2>&1; then
			git -C "$KSRC" am --abort >/dev/null 2>&1 || true
			git -C "$KSRC" reset -q --hard pristine
			echo none >"$STATE/series.id"
			sed 's/^/    /' "$STATE/am.log" >&2
			die "patch $p does not apply to the linux-source-6.1 tree found: package $(cut -d' ' -f1 "$STATE/tarball.id"), kernel $(kversion)"
		fi
		n=$((n + 1))
	done
	series_id >"$STATE/series.id"
	info "applied $n patches"
}

copy_slices()
{
	local src dst sha old new=$STATE/manifest.new copied=0

	: >"$new"
	while read -r src dst; do
		sha=$(sha256sum "$REPO/$src" | cut -d' ' -f1)
		if [ ! -f "$KSRC/$dst" ] ||
		   [ "$(sha256sum "$KSRC/$dst" | cut -d' ' -f1)" != "$sha" ]; then
			mkdir -p "$(dirname "$KSRC/$dst")"
			cp "$REPO/$src" "$KSRC/$dst"
			info "copied $src -> $dst"
			copied=$((copied + 1))
		fi
		echo "$sha $dst" >>"$new"
	done < <(slice_list)

	# Slices that this checkout no longer has: remove our copy, and give
	# back the committed file where the copy had replaced one.
	if [ -f "$MANIFEST" ]; then
		while read -r sha old; do
			grep -q " $old\$" "$new" && continue
			if git -C "$KSRC" ls-files --error-unmatch -- "$old" >/dev/null 2>&1; then
				git -C "$KSRC" checkout -q -- "$old"
			else
				rm -f "$KSRC/$old"
			fi
			info "removed $old (no longer in src/)"
		done <"$MANIFEST"
	fi
	mv "$new" "$MANIFEST"
	[ "$copied" = 0 ] || info "$copied slice file(s) copied"
}

if [ -d "$KSRC" ] && [ ! -f "$STATE/tarball.id" ]; then
	die "$KSRC exists but was not made by make tree; remove it or set KSRC elsewhere"
fi
if [ ! -d "$KSRC" ]; then
	import_tree
elif [ "$(cat "$STATE/tarball.id")" != "$(tarball_id)" ]; then
	check_hand_edits
	info "$TARBALL changed since $KSRC was imported: importing it again"
	rm -rf "$KSRC"
	import_tree
fi

check_hand_edits
if [ "$(cat "$STATE/series.id")" != "$(series_id)" ]; then
	apply_series
fi
copy_slices

# After a new series: files that came out as they were get their mtime back.
if [ -f "$STATE/mtimes" ]; then
	while read -r sha mtime f; do
		[ -f "$KSRC/$f" ] &&
			[ "$(sha256sum <"$KSRC/$f" | cut -d' ' -f1)" = "$sha" ] &&
			touch -d "@$mtime" "$KSRC/$f" || true
	done <"$STATE/mtimes"
	rm -f "$STATE/mtimes"
fi
