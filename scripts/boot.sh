#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel and an initramfs on an emulated NUMA machine and judge the
# run. The machine: NODES nodes of CPUS_PER_NODE vCPUs and MEM_PER_NODE_MB
# MiB each, one socket per node (so no socket straddles two nodes), memory
# from one memory-backend object per node, and a SLIT of 10 local and
# DIST_REMOTE remote. numa=fake would not do: without a distance table the
# kernel builds no NUMA sched domain, and task placement never runs.
#
# The kernel's console goes to $LOGDIR/console.log (ttyS0), what the guest
# runs reports on $LOGDIR/output.log (ttyS1). The run fails on:
#   - QEMU not exiting by itself within TIMEOUT seconds;
#   - the guest not reaching "numa-sched: guest done";
#   - any kernel report header in the console log (Oops, BUG:, WARNING:,
#     lockdep, KASAN, RCU stalls, hung tasks), matched at the start of the
#     message, so that "report a bug" in a normal boot does not count;
#   - in test mode, any failed or missing test, as judged by the tree's
#     KTAP parser, tools/testing/kunit/kunit.py parse, on run_kselftest.sh's
#     output with each test's TAP nested (kselftest_ktap, $LOGDIR/ktap.log).
#
# TCG by default: on these hosts /dev/kvm exists but a KVM guest hangs at
# "Booting from ROM". ACCEL=kvm asks for KVM.
#
# Environment: KSRC, KERNEL, KCONFIG, INITRD, LOGDIR, MODE, NODES, CPUS_PER_NODE,
# MEM_PER_NODE_MB, DIST_REMOTE, TIMEOUT, ACCEL, QEMU, APPEND.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

: "${KSRC:?}" "${KERNEL:?}" "${INITRD:?}" "${LOGDIR:?}" "${MODE:?}"
: "${NODES:?}" "${CPUS_PER_NODE:?}" "${MEM_PER_NODE_MB:?}" "${DIST_REMOTE:?}"
TIMEOUT=${TIMEOUT:-600}
ACCEL=${ACCEL:-tcg}
QEMU=${QEMU:-qemu-system-x86_64}
APPEND=${APPEND:-}

[ -f "$KERNEL" ] || die "no kernel $KERNEL: run make kernel"
[ -f "$INITRD" ] || die "no initramfs $INITRD"
command -v "$QEMU" >/dev/null || die "$QEMU not found: install qemu-system-x86 (make deps)"
for v in NODES CPUS_PER_NODE MEM_PER_NODE_MB DIST_REMOTE TIMEOUT; do
	case "${!v}" in
	"" | *[!0-9]* | 0) die "$v must be a positive integer, not '${!v}'" ;;
	esac
done
[ "$DIST_REMOTE" -gt 10 ] && [ "$DIST_REMOTE" -le 255 ] ||
	die "DIST_REMOTE must be between 11 and 255 (local is 10), not $DIST_REMOTE"

args=(-nodefaults -display none -no-reboot
	-machine "pc,accel=$ACCEL"
	-smp "$((NODES * CPUS_PER_NODE)),sockets=$NODES,cores=$CPUS_PER_NODE,threads=1"
	-m "$((NODES * MEM_PER_NODE_MB))M")
for ((n = 0; n < NODES; n++)); do
	first=$((n * CPUS_PER_NODE))
	last=$((first + CPUS_PER_NODE - 1))
	args+=(-object "memory-backend-ram,id=mem$n,size=${MEM_PER_NODE_MB}M"
		-numa "node,nodeid=$n,cpus=$first-$last,memdev=mem$n")
done
for ((n = 0; n < NODES; n++)); do
	for ((m = n + 1; m < NODES; m++)); do
		args+=(-numa "dist,src=$n,dst=$m,val=$DIST_REMOTE")
	done
done

mkdir -p "$LOGDIR"
console=$LOGDIR/console.log
output=$LOGDIR/output.log
: >"$console"
: >"$output"
args+=(-serial "file:$console" -serial "file:$output"
	-kernel "$KERNEL" -initrd "$INITRD"
	-append "console=ttyS0 panic=-1 $APPEND")

info "booting $KERNEL on $NODES nodes x $CPUS_PER_NODE CPUs x $MEM_PER_NODE_MB MiB ($ACCEL, timeout ${TIMEOUT}s); logs in $LOGDIR"
start=$(date +%s)
set +e
timeout --kill-after=10 "$TIMEOUT" "$QEMU" "${args[@]}" >"$LOGDIR/qemu.log" 2>&1
rc=$?
set -e
info "guest ran $(( $(date +%s) - start ))s"

failed=0
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "numa-sched: FAIL: the guest did not power off within ${TIMEOUT}s" >&2
	failed=1
elif [ "$rc" != 0 ]; then
	echo "numa-sched: FAIL: $QEMU exited with status $rc:" >&2
	sed 's/^/    /' "$LOGDIR/qemu.log" >&2
	failed=1
fi
if ! grep -q '^numa-sched: guest done' "$console"; then
	echo "numa-sched: FAIL: the guest did not finish; the console ends with:" >&2
	tail -n 30 "$console" | sed 's/^/    /' >&2
	failed=1
fi

if ! "$here/kernel-reports.sh" "$console" >&2; then
	failed=1
fi

# KUnit suites built in (KCONFIG says which) ran at boot and printed KTAP
# on the console; a kernel with none prints an empty plan, not judged.
kunit=$(grep -c '^CONFIG_.*_KUNIT_TEST=y' "${KCONFIG:-/dev/null}" || true)
if [ "$MODE" = test ] && [ "$kunit" != 0 ]; then
	if ! grep -q 'KTAP version' "$console"; then
		echo "numa-sched: FAIL: KUnit tests are built in but none ran (see $console)" >&2
		failed=1
	else
		echo "numa-sched: KUnit results from the console:"
		ktap_judge "$console" "$LOGDIR/kunit.log" || failed=1
	fi
fi

if [ "$MODE" = test ]; then
	cat "$output"
	# The tree's KTAP parser judges the results, every test's cases
	# nested under the runner's lines; its exit status is ours.
	kselftest_ktap "$output" >"$LOGDIR/ktap.log"
	ktap_judge "$LOGDIR/ktap.log" "$LOGDIR/parse.log" || failed=1
else
	cat "$output"
fi
exit "$failed"
