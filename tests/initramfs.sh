#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of scripts/initramfs.sh's refusals, on the real tree (KSRC,
# made by make tree) with a throw-away OUT: a FAKE_CONFIG that is not
# OPTION=y|n, or a test the sched/numa collection does not list, stops it
# with a message and no image. Planted: the FAKE_CONFIG check after the
# image was written (as it first was) failed case 1's "no image".

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../scripts/lib.sh"
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ktap_header
[ -f "${KSRC:-}/tools/testing/selftests/sched/numa/numa_test.h" ] ||
	ktap_exit_skip "no tree at KSRC: run make tree"
ktap_plan 2

: >"$tmp/config"
# image MODE [VAR=VALUE...]: initramfs.sh into $tmp/img, its output in $tmp/out.
image()
{
	local mode=$1

	shift
	env OUT="$tmp/out-dir" IMAGE="$tmp/img" MODE="$mode" KCONFIG="$tmp/config" \
		NODES=2 CPUS_PER_NODE=1 MEM_PER_NODE_MB=512 DIST_REMOTE=20 \
		SCAN_TUNING=scan_delay_ms=100 TESTS= FAKE_CONFIG= "$@" \
		"$here/../scripts/initramfs.sh" >"$tmp/out" 2>&1
}

r=0
for bad in "NUMA_SWAP=maybe" "numa_swap=y" "NUMA_SWAP" "NUMA_SWAP=y=n"; do
	if image demo FAKE_CONFIG="NUMA_FBQ=n $bad"; then r=1; fi
	grep -q "FAKE_CONFIG: '$bad' is not OPTION=y or OPTION=n" "$tmp/out" || r=1
	[ ! -e "$tmp/img" ] && [ ! -e "$tmp/img.cpio.gz" ] || r=1
	rm -rf "$tmp/img" "$tmp/img.cpio.gz"
done
ktap_result $r "a FAKE_CONFIG not OPTION=y|n is refused by name, before any image"

r=0
if image test TESTS="swap nosuch"; then r=1; fi
grep -q "no test 'nosuch' in sched/numa (have: .*swap" "$tmp/out" || r=1
[ ! -e "$tmp/img.cpio.gz" ] || r=1
ktap_result $r "a test the collection does not list is refused, with the list"

ktap_finished
