#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make deps: install, with apt-get, the Debian packages the project needs
# and this machine lacks. Plain sh, so that it runs before make itself is
# installed (the README's commands start with it). Does nothing, and
# needs no root, when everything is there.

set -eu

PACKAGES="linux-source-6.1 make gcc libc6-dev flex bison bc libelf-dev
libssl-dev cpio xz-utils git python3 ccache qemu-system-x86 busybox-static
sparse coccinelle python3-ply python3-git gnuplot-nox linux-config-6.1
libncurses-dev libnuma-dev rsync"

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
missing=${missing# }
[ -n "$missing" ] || exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	why="not root"
	[ "$(id -u)" = 0 ] && why="no apt-get"
	echo "numa-sched: error: missing packages ($why, cannot install): $missing" >&2
	exit 1
fi
echo "numa-sched: installing $missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
