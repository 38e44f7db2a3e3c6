#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs: busybox, qemu/init, the NUMA balancing
# kselftests (tools/testing/selftests/sched/numa, built and installed the
# kselftest way with run_kselftest.sh, statically linked), the workloads
# compiled statically by the host gcc against the tree's kselftest.h and
# the tests' numa_test.h, and /etc/numa-sched.conf saying what the guest
# runs and on what machine the tests should find themselves. The tests
# learn the kernel's options from the kernel (/proc/config.gz).
#
# Environment: KSRC, KCONFIG (the kernel's .config), OUT, MODE (test|demo|bench),
# TESTS, NODES, CPUS_PER_NODE, BENCH_PLAN (MODE=bench: the runs, one a line,
# qemu/init), STRESS_SECS and STRESS_SEED (the stress test), SCHED_FEATURES
# (options built in and turned off at run time: "NO_NUMA_SWAP NO_NUMA_FBQ"),
# MEM_PER_NODE_MB, DIST_REMOTE, SCAN_TUNING, TEST_TIMEOUT, DEMO_ARGS;
# PERF, a static perf for the perf-PxT workloads (MODE=bench);
# FAKE_CONFIG, options the tests are told the kernel has or lacks
# ("NUMA_SWAP=y NUMA_FBQ=n", MODE=test: testing the tests);
# SELFTESTS_KSRC, the tree whose tests are built (default KSRC; the
# matrix's upstream row boots the pristine tree, which has none);
# IMAGE, where to put it (default OUT/initramfs-MODE; make matrix gives
# each row its own). Prints the path of the initramfs.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${OUT:?}" "${MODE:?}" "${NODES:?}" "${CPUS_PER_NODE:?}"
: "${MEM_PER_NODE_MB:?}" "${DIST_REMOTE:?}" "${SCAN_TUNING:?}" "${KCONFIG:?}"
[ -f "$KCONFIG" ] || die "no $KCONFIG: build the kernel first (make kernel)"
for kv in ${FAKE_CONFIG:-}; do
	[[ $kv =~ ^[A-Z0-9_]+=[yn]$ ]] || die "FAKE_CONFIG: '$kv' is not OPTION=y or OPTION=n"
done

TESTS=${TESTS:-}
TEST_TIMEOUT=${TEST_TIMEOUT:-300}
DEMO_ARGS=${DEMO_ARGS:-}
BUSYBOX=${BUSYBOX:-/bin/busybox}
CC=${HOSTCC:-gcc}

SELFTESTS_KSRC=${SELFTESTS_KSRC:-$KSRC}
selftests=$SELFTESTS_KSRC/tools/testing/selftests
[ -f "$selftests/sched/numa/numa_test.h" ] || die "no sched/numa in $selftests: run make tree"
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found: install busybox-static (make deps)"
# ldd fails on a static binary: the guest has no dynamic loader.
! ldd "$BUSYBOX" >/dev/null 2>&1 ||
	die "$BUSYBOX is not statically linked: install busybox-static (make deps)"

bin=$OUT/bin
mkdir -p "$bin"

# compile SRC NAME: a static program, rebuilt only when the sources it is
# made of (SRC, numa_test.h, kselftest.h) or the command differ from
# those of the binary in place. A content hash, not mtimes: two checkouts
# sharing OUT (a CI clone beside a working tree) must not take each
# other's binaries for up to date.
compile()
{
	local src=$1 dst=$bin/$2 sum
	local cmd="$CC -D_GNU_SOURCE -static -O2 -g -Wall -Wextra -Werror -pthread -I$selftests -I$selftests/sched/numa"

	sum=$({ echo "$cmd"; cat "$src" "$selftests/sched/numa/numa_test.h" "$selftests/kselftest.h"; } |
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
mkdir -p "$root"/{bin,etc,usr/bin,proc,sys,dev,tmp}
cp "$BUSYBOX" "$root/bin/busybox"
cp "$REPO/qemu/init" "$root/init"
chmod 755 "$root/init"

# The tests, as make -C tools/testing/selftests installs them; the build
# stays out of the tree (O=). A test of TESTS that the collection does not
# list stops here, before any guest boots.
if [ "$MODE" = test ]; then
	ks=$OUT/kselftest
	rm -rf "$ks/install"
	make -s -C "$selftests" TARGETS=sched/numa O="$ks/build" \
		INSTALL_PATH="$ks/install" CC="$CC" USERCFLAGS=-Werror USERLDFLAGS=-static \
		install >"$ks.log" 2>&1 || { cat "$ks.log" >&2; die "the sched/numa selftests did not build"; }
	for t in $TESTS; do
		grep -qx "sched/numa:$t" "$ks/install/kselftest-list.txt" ||
			die "no test '$t' in sched/numa (have: $(sed -n 's|^sched/numa:||p' "$ks/install/kselftest-list.txt" | tr '\n' ' '))"
	done
	cp -a "$ks/install" "$root/kselftest"
	# The runner's per-test limit: this run's, in the image's copy.
	sed -i "s/^timeout=.*/timeout=$TEST_TIMEOUT/" "$root/kselftest/sched/numa/settings"
	# kselftest's runner calls /usr/bin/timeout --foreground SECS twice,
	# nested. Busybox's timeout takes no --foreground and signals the
	# test alone, whose children then hold the runner's pipe open and
	# the run hangs. This one runs the test in a session of its own,
	# kills the whole group after SECS (status 124, as coreutils'), and
	# whatever a test leaves behind when it ends.
	cat >"$root/usr/bin/timeout" <<'SHIM'
#!/bin/sh
[ "$1" != --foreground ] || shift
secs=$1
shift
[ "$1" != /usr/bin/timeout ] || exec "$@"
setsid "$@" &
pid=$!
(sleep "$secs" && kill -s KILL -"$pid") </dev/null >/dev/null 2>&1 &
watch=$!
wait "$pid"
rc=$?
if kill -0 "$watch" 2>/dev/null; then
	kill "$watch"
else
	rc=124
fi
kill -s KILL -"$pid" 2>/dev/null
exit "$rc"
SHIM
	chmod 755 "$root/usr/bin/timeout"
fi

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
STRESS_SECS='${STRESS_SECS:-600}'
STRESS_SEED='${STRESS_SEED:-}'
SCHED_FEATURES='${SCHED_FEATURES:-}'
FAKE_CONFIG='${FAKE_CONFIG:-}'
EOF

if [ "$MODE" = bench ]; then
	[ -f "${BENCH_PLAN:-}" ] || die "MODE=bench needs BENCH_PLAN, the guest's list of runs"
	install -m 644 "$BENCH_PLAN" "$root/etc/bench.plan"
fi

img=$IMAGE.cpio.gz
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$img.tmp"
mv "$img.tmp" "$img"
echo "$img"
