#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series' check: the exported series (SERIES_DIR), git am'ed onto a
# fresh unpack of the tarball, gives the same .config and the same vmlinux
# as KSRC's default kernel (BUILD/numa-all): the series is the tree, and
# the build is reproducible the way Documentation/kbuild/reproducible-
# builds.rst says (kernel.sh fixes timestamp, user, host and build
# number). A second whole tree and kernel (ccache serves most of it), so
# it is make series' and not make check's. KTAP, one case.
#
# Environment: KSRC, BUILD, WORK, SERIES_DIR, TARBALL.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

: "${KSRC:?}" "${BUILD:?}" "${WORK:?}" "${SERIES_DIR:?}"
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
LOG=${OUT:-$WORK/out}/series
mkdir -p "$LOG"

# The series onto a fresh unpack; the same .config and vmlinux as KSRC's.
check_reproducible()
{
	local v=$WORK/verify p a b

	rm -rf "$v/linux"
	mkdir -p "$v/linux"
	tar -xJf "$TARBALL" -C "$v/linux" --strip-components=1 || return 1
	(
		cd "$v/linux" &&
		git init -q && git add -f -A . &&
		git -c user.name=verify -c user.email=verify@localhost commit -q -m pristine &&
		for p in "$SERIES_DIR"/0*.patch; do
			case "$p" in */0000-cover-letter.patch) continue ;; esac
			git -c user.name=verify -c user.email=verify@localhost am -q "$p" || exit 1
		done
	) >"$LOG/verify-am.log" 2>&1 || { echo "# git am failed: $LOG/verify-am.log"; return 1; }
	KSRC=$v/linux BUILD=$v/build NAME=numa-all CONFIG=numa-all OPTS= \
		"$here/kernel.sh" >"$LOG/verify-build.log" 2>&1 ||
		{ echo "# the series' tree did not build: $LOG/verify-build.log"; return 1; }
	if ! cmp -s "$BUILD/numa-all/.config" "$v/build/numa-all/.config"; then
		echo "# .config differs"
		return 1
	fi
	a=$(sha256sum <"$BUILD/numa-all/vmlinux" | cut -c1-16)
	b=$(sha256sum <"$v/build/numa-all/vmlinux" | cut -c1-16)
	echo "# vmlinux sha256 $a (KSRC) $b (series)"
	[ "$a" = "$b" ]
}

ktap_header
ktap_plan 1
check_reproducible >"$LOG/reproducible.out" 2>&1
rc=$?
sed 's/^/# /' "$LOG/reproducible.out"
ktap_result $rc "the series on a fresh unpack builds the same .config and vmlinux"
ktap_finished
