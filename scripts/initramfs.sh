#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs: busybox, qemu/init, the in-guest tests and
# workloads compiled statically by the host gcc against the tree's
# kselftest.h, and /etc/numa-sched.conf saying what the guest runs and on
# what machine the tests should find themselves.
#
# Environment: KSRC, KCONFIG (the kernel's .config), OUT, MODE (test|demo|bench),
# TESTS, NODES, CPUS_PER_NODE, BENCH, BENCH_RUNS, BENCH_ARGS, BENCH_SYSCTL,
# BENCH_DEBUGFS (MODE=bench), STRESS_SECS (the stress test), SCHED_FEATURES
# (options built in and turned off at run time: "NO_NUMA_SWAP NO_NUMA_FBQ"),
# MEM_PER_NODE_MB, DIST_REMOTE, SCAN_TUNING, TEST_TIMEOUT, DEMO_ARGS;
# PERF, a static perf for the perf-PxT workloads (MODE=bench);
# IMAGE, where to put it (default OUT/initramfs-MODE; make matrix gives
# each row its own). Prints the path of the initramfs.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${OUT:?}" "${MODE:?}" "${NODES:?}" "${CPUS_PER_NODE:?}"
: "${MEM_PER_NODE_MB:?}" "${DIST_REMOTE:?}" "${SCAN_TUNING:?}" "${KCONFIG:?}"
[ -f "$KCONFIG" ] || die "no $KCONFIG: build the kernel first (make kernel)"
TESTS=${TESTS:-}
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
DEMO_ARGS=${DEMO_ARGS:-}
BUSYBOX=${BUSYBOX:-/bin/busybox}
CC=${HOSTCC:-gcc}

selftests=$KSRC/tools/testing/selftests
[ -f "$selftests/kselftest.h" ] || die "no kselftest.h in $selftests: run make tree"
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found: install busybox-static (make deps)"
# ldd fails on a static binary: the guest has no dynamic loader.
! ldd "$BUSYBOX" >/dev/null 2>&1 ||
	die "$BUSYBOX is not statically linked: install busybox-static (make deps)"

bin=$OUT/bin
mkdir -p "$bin"

# compile SRC NAME: a static program, rebuilt only when the sources it is
# made of (SRC, the shared headers, kselftest.h) or the command differ from
# those of the binary in place. A content hash, not mtimes: two checkouts
# sharing OUT (a CI clone beside a working tree) must not take each
# other's binaries for up to date.
compile()
{
	local src=$1 dst=$bin/$2 sum
	local cmd="$CC -D_GNU_SOURCE -static -O2 -g -Wall -Wextra -Werror -pthread -I$selftests"

	sum=$({ echo "$cmd"; cat "$src" "$REPO"/qemu/lib/*.h "$selftests/kselftest.h"; } |
		sha256sum | cut -d' ' -f1)
	if [ -x "$dst" ] && [ "$(cat "$dst.sum" 2>/dev/null)" = "$sum" ]; then
		return 0
	fi
	$cmd -o "$dst.tmp" "$src"
	mv "$dst.tmp" "$dst"
	echo "$sum" >"$dst.sum"
}

IMAGE=${IMAGE:-$OUT/initramfs-$MODE}
root=$IMAGE
rm -rf "$root"
mkdir -p "$root"/{bin,etc,lib/numa-sched,tests,proc,sys,dev,tmp}
cp "$BUSYBOX" "$root/bin/busybox"
cp "$REPO/qemu/init" "$root/init"
chmod 755 "$root/init"
cp "$REPO/qemu/lib/ktap.sh" "$root/lib/numa-sched/"

for t in $TESTS; do
	if [ -f "$REPO/qemu/tests/$t" ]; then
		install -m 755 "$REPO/qemu/tests/$t" "$root/tests/$t"
	elif [ -f "$REPO/qemu/tests/$t.c" ]; then
		compile "$REPO/qemu/tests/$t.c" "$t"
		cp "$bin/$t" "$root/tests/$t"
	else
		die "no test '$t' in qemu/tests (have: $(ls "$REPO/qemu/tests" | sed 's/\.c$//' | tr '\n' ' '))"
	fi
done
for w in "$REPO"/qemu/workloads/*.c; do
	name=$(basename "$w" .c)
	compile "$w" "$name"
	cp "$bin/$name" "$root/bin/$name"
done
# perf bench numa, for the perf-PxT bench workloads: the tree's perf,
# static (scripts/perf.sh), when PERF names it.
install -m 755 "$REPO/qemu/workloads/perf-numa" "$root/bin/perf-numa"
if [ -n "${PERF:-}" ]; then
	! ldd "$PERF" >/dev/null 2>&1 || die "PERF: $PERF is not statically linked"
	install -m 755 "$PERF" "$root/bin/perf"
fi

# The feature options the kernel was built with, for the tests to know
# which state to check. Options absent from .config are off.
features=""
for o in NUMA_BALANCING $(numa_features); do
	if grep -qx "CONFIG_$o=y" "$KCONFIG"; then
		features="$features $o=y"
	else
		features="$features $o=n"
	fi
done
# UPSTREAM=y: a tree without our menu (the matrix's unmodified 6.1), whose
# NUMA balancing has 6.1's features under no option of ours; a test that
# compares with upstream reads it.
if grep -qx "CONFIG_NUMA_BALANCING=y" "$KCONFIG" && ! grep -q "CONFIG_NUMA_CPUPID[= ]" "$KCONFIG"; then
	features="$features UPSTREAM=y"
else
	features="$features UPSTREAM=n"
fi

# An option turned off at run time must be built in: NO_NUMA_SWAP on a
# kernel without NUMA_SWAP would "take" and mean nothing.
for sf in ${SCHED_FEATURES:-}; do
	numa_sched_features "$KSRC" | grep -qx "${sf#NO_}" ||
		die "SCHED_FEATURES: '$sf' is not NO_ and one of: $(numa_sched_features "$KSRC" | tr '\n' ' ')"
	grep -qx "CONFIG_${sf#NO_}=y" "$KCONFIG" ||
		die "SCHED_FEATURES: $sf on a kernel built without CONFIG_${sf#NO_} changes nothing"
done

cat >"$root/etc/numa-sched.conf" <<EOF
MODE='$MODE'
TESTS='$TESTS'
TEST_TIMEOUT='$TEST_TIMEOUT'
DEMO_ARGS='$DEMO_ARGS'
NODES='$NODES'
CPUS_PER_NODE='$CPUS_PER_NODE'
MEM_PER_NODE_MB='$MEM_PER_NODE_MB'
DIST_REMOTE='$DIST_REMOTE'
SCAN_TUNING='$SCAN_TUNING'
BENCH='${BENCH:-}'
BENCH_RUNS='${BENCH_RUNS:-1}'
BENCH_ARGS='${BENCH_ARGS:-}'
BENCH_SYSCTL='${BENCH_SYSCTL:-}'
BENCH_DEBUGFS='${BENCH_DEBUGFS:-}'
STRESS_SECS='${STRESS_SECS:-600}'
FEATURES='${features# }'
SCHED_FEATURES='${SCHED_FEATURES:-}'
EOF

img=$IMAGE.cpio.gz
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$img.tmp"
mv "$img.tmp" "$img"
echo "$img"
