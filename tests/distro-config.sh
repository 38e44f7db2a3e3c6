#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/distro-config.sh (make distro-config): every feature fragment
# applies to Debian's amd64 config, and the check sees a fragment that
# Kconfig rejects and one that changes more than the series' options.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

check=$here/../scripts/distro-config.sh
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ktap_header
[ -f "${KSRC:-}/kernel/sched/Kconfig.numa" ] || ktap_exit_skip "no tree at KSRC: run make tree"
[ -r /usr/src/linux-config-6.1/config.amd64_none_amd64.xz ] || ktap_exit_skip "no linux-config-6.1: make deps"
ktap_plan 3

r=0
"$check" >"$tmp/out" 2>&1 || r=1
n=$(grep -c '^ok ' "$tmp/out" || true)
[ "$n" -ge 8 ] || r=1
[ $r = 0 ] || sed 's/^/# /' "$tmp/out"
ktap_result $r "every feature fragment applies to Debian's amd64 config ($n fragments)"

# A value Kconfig rejects: NUMA_GROUPS needs NUMA_CPUPID.
printf '# CONFIG_NUMA_CPUPID is not set\nCONFIG_NUMA_GROUPS=y\n' >"$tmp/rejected.config"
if "$check" "$tmp/rejected.config" >"$tmp/out" 2>&1; then r=1; else r=0; fi
grep -q 'CONFIG_NUMA_GROUPS: requested CONFIG_NUMA_GROUPS=y, got off' "$tmp/out" || r=1
ktap_result $r "a fragment value that Kconfig rejects is a failure naming it"

# A fragment that reaches beyond the series' options.
printf 'CONFIG_NUMA_SWAP=y\n# CONFIG_NUMA_BALANCING is not set\n' >"$tmp/beyond.config"
if "$check" "$tmp/beyond.config" >"$tmp/out" 2>&1; then r=1; else r=0; fi
grep -q 'changed more of the distribution' "$tmp/out" && grep -q 'NUMA_BALANCING' "$tmp/out" || r=1
ktap_result $r "a fragment that changes the distribution's other options is a failure"

ktap_finished
