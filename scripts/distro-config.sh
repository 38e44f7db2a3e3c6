#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make distro-config: do the feature fragments apply to a distribution's
# kernel configuration? Each fragment (default: every feature fragment of
# configs/) is merged onto Debian's amd64 config from the linux-config-6.1
# package, in KSRC (pristine 6.1 plus the series), the way a maintainer
# would: scripts/kconfig/merge_config.sh -m, then make olddefconfig.
# Configure only, no build. Per fragment, a KTAP case that fails when
#
#   - Kconfig dropped or changed a value the fragment asks for, or
#   - anything but the options of Kconfig.numa differs from Debian's
#     config put through make olddefconfig on the pristine tree (the
#     build host's own: compiler, pahole, signing keys, are the same on
#     both sides).
#
# Environment: KSRC, WORK (the pristine worktree lives in WORK/pristine),
# DISTRO_CONFIG (a .config, or .xz of one).

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${WORK:?}"
PRISTINE=$WORK/pristine/linux
DISTRO_CONFIG=${DISTRO_CONFIG:-/usr/src/linux-config-6.1/config.amd64_none_amd64.xz}
[ -r "$DISTRO_CONFIG" ] || die "no $DISTRO_CONFIG: install linux-config-6.1 (make deps)"
[ -f "$KSRC/kernel/sched/Kconfig.numa" ] || die "KSRC=$KSRC has no series: run make tree"
if [ $# = 0 ]; then
	for f in "$REPO"/configs/*.config; do
		case "$(basename "$f")" in
		qemu.config | kunit.config | debug.config | fault-inject.config | bench.config) ;;
		*) set -- "$@" "$f" ;;
		esac
	done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/numa-sched-distro.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case "$DISTRO_CONFIG" in
*.xz) xz -dc "$DISTRO_CONFIG" >"$tmp/base.config" ;;
*) cp "$DISTRO_CONFIG" "$tmp/base.config" ;;
esac
pristine_tree "$KSRC" "$PRISTINE"
mkdir -p "$tmp/ref"
cp "$tmp/base.config" "$tmp/ref/.config"
make -s -C "$PRISTINE" O="$tmp/ref" olddefconfig >"$tmp/ref/log" 2>&1 ||
	{ cat "$tmp/ref/log" >&2; die "make olddefconfig of $DISTRO_CONFIG failed on the pristine tree"; }
# What the series may change: its own options.
ours=$(sed -n 's/^config \(NUMA_[A-Z0-9_]*\)$/\1/p' "$REPO/Kconfig.numa")

ktap_header
ktap_plan $#
for frag in "$@"; do
	name=$(basename "$frag" .config)
	o=$tmp/$name
	mkdir -p "$o"
	r=0
	if ! (cd "$KSRC" && flock "$KSRC.lock" scripts/kconfig/merge_config.sh -m -O "$o" \
		"$tmp/base.config" "$frag") >"$o/merge.log" 2>&1 ||
	   ! make -s -C "$KSRC" O="$o" olddefconfig >>"$o/merge.log" 2>&1; then
		sed 's/^/# /' "$o/merge.log"
		r=1
	fi
	dropped=$(config_dropped "$o/.config" "$frag")
	if [ -n "$dropped" ]; then
		echo "# Kconfig did not keep what $name asks for:"
		echo "$dropped" | sed 's/^/# /'
		r=1
	fi
	others=$( (cd "$KSRC" && scripts/diffconfig "$tmp/ref/.config" "$o/.config") |
		awk -v ours="$ours" 'BEGIN { n = split(ours, a); for (i = 1; i <= n; i++) mine[a[i]] = 1 }
			{ s = $1; sub(/^[-+]/, "", s) } !(s in mine)')
	if [ -n "$others" ]; then
		echo "# $name changed more of the distribution's config than Kconfig.numa's options:"
		echo "$others" | sed 's/^/#     /'
		r=1
	fi
	ktap_result $r "$name on $(basename "$DISTRO_CONFIG"): every requested value kept, nothing else changed"
done
ktap_finished
