#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of scripts/tree.sh on a miniature linux-source tarball: a fake
# repository (a copy of scripts/, its own patches/ and src/) and a fake
# KSRC in a temporary directory, so that every case runs in a second and
# the real tree is never touched.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

top=$(realpath "$here/..")
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# A tarball shaped like Debian's: one top directory, a Makefile that knows
# its kernelversion, and Debian's top-level .gitignore that ignores "/*".
make_tarball()
{
	local d=$tmp/tarball/linux-source-6.1

	rm -rf "$tmp/tarball"
	mkdir -p "$d/kernel/sched" "$d/init"
	printf 'kernelversion:\n\t@echo %s\n' "$1" >"$d/Makefile"
	printf '/*\n!/debian/\n' >"$d/.gitignore"
	printf 'config NUMA_BALANCING\n\tbool "x"\n' >"$d/init/Kconfig"
	printf 'int fair;\n' >"$d/kernel/sched/fair.c"
	tar -cJf "$tmp/linux-source-6.1.tar.xz" -C "$tmp/tarball" linux-source-6.1
}

# A repository: scripts/ copied, one glue patch, two slices.
make_repo()
{
	local r=$1

	mkdir -p "$r/patches/glue" "$r/src/kernel/sched"
	cp -r "$top/scripts" "$r/"
	cat >"$r/patches/glue/0001-source.patch" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Test <test@example.org>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH] glue

---
 init/Kconfig | 1 +
 1 file changed, 1 insertion(+)

diff --git a/init/Kconfig b/init/Kconfig
--- a/init/Kconfig
+++ b/init/Kconfig
@@ -1,2 +1,3 @@
 config NUMA_BALANCING
 	bool "x"
+source "kernel/sched/Kconfig.numa"
--
EOF
	printf '# test series\nglue/0001-source.patch\n' >"$r/patches/series"
	printf 'int a;\n' >"$r/src/kernel/sched/numa_a.c"
	printf 'int b;\n' >"$r/src/kernel/sched/numa_b.c"
	printf 'menu "x"\nendmenu\n' >"$r/Kconfig.numa"
}

export TARBALL=$tmp/linux-source-6.1.tar.xz
export KSRC=$tmp/ksrc
repo=$tmp/repo
make_tarball 6.1.100
make_repo "$repo"
tree()
{
	"$1/scripts/tree.sh" >"$tmp/out" 2>&1
}

ktap_header
ktap_plan 16

if KSRC=$repo/linux tree "$repo"; then r=1; else r=0; fi
grep -q 'inside the repository' "$tmp/out" && [ ! -e "$repo/linux" ] || r=1
ktap_result $r "a KSRC inside the repository is refused, nothing created"

tree "$repo"
r=0
[ "$(git -C "$KSRC" log --format=%s | tail -n1)" = "linux-source-6.1 unknown: pristine import" ] || r=1
[ "$(git -C "$KSRC" log --format=%s -1)" = glue ] || r=1
grep -q 'Kconfig.numa' "$KSRC/init/Kconfig" || r=1
cmp -s "$repo/src/kernel/sched/numa_a.c" "$KSRC/kernel/sched/numa_a.c" || r=1
cmp -s "$repo/Kconfig.numa" "$KSRC/kernel/sched/Kconfig.numa" || r=1
ktap_result $r "first run imports, applies the series, copies the slices"

touch -d '2020-01-01' "$KSRC/kernel/sched/numa_a.c" "$KSRC/kernel/sched/numa_b.c"
head=$(git -C "$KSRC" rev-parse HEAD)
tree "$repo"
r=0
[ "$(stat -c %Y "$KSRC/kernel/sched/numa_a.c")" = "$(date -d 2020-01-01 +%s)" ] || r=1
[ "$(git -C "$KSRC" rev-parse HEAD)" = "$head" ] || r=1
ktap_result $r "a second run touches nothing"

printf 'int a2;\n' >"$repo/src/kernel/sched/numa_a.c"
tree "$repo"
r=0
grep -q a2 "$KSRC/kernel/sched/numa_a.c" || r=1
[ "$(stat -c %Y "$KSRC/kernel/sched/numa_b.c")" = "$(date -d 2020-01-01 +%s)" ] || r=1
[ "$(git -C "$KSRC" rev-parse HEAD)" = "$head" ] || r=1
ktap_result $r "an edited slice is the only file re-copied"

echo 'int hand;' >>"$KSRC/kernel/sched/fair.c"
if tree "$repo"; then r=1; else r=0; fi
grep -q 'kernel/sched/fair.c' "$tmp/out" && grep -q 'int hand' "$KSRC/kernel/sched/fair.c" || r=1
ktap_result $r "a hand-edited upstream file is reported and kept"

echo 'int hand;' >>"$KSRC/kernel/sched/numa_b.c"
echo 'int new;' >"$KSRC/kernel/sched/new.c"
if tree "$repo"; then r=1; else r=0; fi
grep -q 'numa_b.c' "$tmp/out" && grep -q 'new.c' "$tmp/out" || r=1
grep -q 'int hand' "$KSRC/kernel/sched/numa_b.c" || r=1
ktap_result $r "a hand-edited slice copy and a hand-added file are reported"

# What the last CI run met: slices copied by hand, the manifest left with
# the older hashes. Planted bug: without the cmp against the slice in
# hand_edits this case fails, the copy is reported.
printf 'int b2;\n' >"$repo/src/kernel/sched/numa_b.c"
cp "$repo/src/kernel/sched/numa_b.c" "$KSRC/kernel/sched/numa_b.c"
rm "$KSRC/kernel/sched/new.c"
git -C "$KSRC" checkout -q -- kernel/sched/fair.c
r=0
tree "$repo" || r=1
grep -q 'did not make' "$tmp/out" && r=1
ktap_result $r "a slice copied by hand, as make tree would, is not a hand edit"

echo 'int hand;' >>"$KSRC/kernel/sched/fair.c"
echo 'int hand;' >>"$KSRC/kernel/sched/numa_b.c"
echo 'int new;' >"$KSRC/kernel/sched/new.c"
FORCE=1 tree "$repo"
r=0
[ -z "$(git -C "$KSRC" status --porcelain)" ] || r=1
[ ! -e "$KSRC/kernel/sched/new.c" ] || r=1
cmp -s "$repo/src/kernel/sched/numa_b.c" "$KSRC/kernel/sched/numa_b.c" || r=1
ktap_result $r "FORCE=1 discards the hand edits"

# A second checkout sharing KSRC (CI's clean clone): its copies are not
# hand edits, even where its slices differ from this checkout's.
cp -r "$repo" "$tmp/clone"
printf 'int a3;\n' >"$tmp/clone/src/kernel/sched/numa_a.c"
r=0
tree "$tmp/clone" || r=1
grep -q a3 "$KSRC/kernel/sched/numa_a.c" || r=1
tree "$repo" || r=1
grep -q a2 "$KSRC/kernel/sched/numa_a.c" || r=1
ktap_result $r "copies made from another checkout are not hand edits"

rm "$repo/src/kernel/sched/numa_b.c"
tree "$repo"
r=0
[ ! -e "$KSRC/kernel/sched/numa_b.c" ] || r=1
ktap_result $r "a slice removed from src/ is removed from the tree"

touch -d '2020-01-01' "$KSRC/init/Kconfig" "$KSRC/kernel/sched/numa_a.c"
sed -i 's/^Subject: \[PATCH\] glue/Subject: [PATCH] glue v2/' "$repo/patches/glue/0001-source.patch"
tree "$repo"
r=0
[ "$(git -C "$KSRC" log --format=%s -1)" = "glue v2" ] || r=1
[ "$(git -C "$KSRC" rev-list --count HEAD)" = 2 ] || r=1
ktap_result $r "an edited patch resets the tree and applies the series again"

# Only the commit message changed: the files came out the same, and keep
# their mtimes, so that the next build has nothing to do.
r=0
[ "$(stat -c %Y "$KSRC/init/Kconfig")" = "$(date -d 2020-01-01 +%s)" ] || r=1
[ "$(stat -c %Y "$KSRC/kernel/sched/numa_a.c")" = "$(date -d 2020-01-01 +%s)" ] || r=1
ktap_result $r "files that the new series leaves the same keep their mtimes"

sed -i 's/^ \tbool "x"$/ \tbool "y"/' "$repo/patches/glue/0001-source.patch"
if tree "$repo"; then r=1; else r=0; fi
grep -q 'patch glue/0001-source.patch does not apply' "$tmp/out" || r=1
grep -q 'kernel 6.1.100' "$tmp/out" || r=1
[ "$(git -C "$KSRC" rev-list --count HEAD)" = 1 ] || r=1
ktap_result $r "a patch that does not apply is named, with the version found"

sed -i 's/^ \tbool "y"$/ \tbool "x"/' "$repo/patches/glue/0001-source.patch"
tree "$repo"
make_tarball 6.1.101
tree "$repo"
r=0
[ "$(make -s -C "$KSRC" kernelversion)" = 6.1.101 ] || r=1
[ "$(git -C "$KSRC" rev-list --count HEAD)" = 2 ] || r=1
ktap_result $r "a new tarball is imported again"

rm -rf "$KSRC"
tree "$repo"
r=0
[ "$(git -C "$KSRC" rev-list --count HEAD)" = 2 ] || r=1
[ -f "$KSRC/kernel/sched/numa_a.c" ] || r=1
ktap_result $r "a deleted KSRC is recreated"

rm -rf "$KSRC"
mkdir -p "$KSRC"
echo precious >"$KSRC/file"
if tree "$repo"; then r=1; else r=0; fi
grep -q 'not made by make tree' "$tmp/out" && [ -f "$KSRC/file" ] || r=1
ktap_result $r "a foreign directory at KSRC is refused and left alone"

ktap_finished
