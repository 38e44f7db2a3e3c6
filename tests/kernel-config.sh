#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of scripts/kernel.sh's configuration step, on the real tree
# (KSRC, made by make tree) but in throw-away build directories: options
# that Kconfig drops are an error, and bad input is refused before
# anything is built.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/../scripts/lib.sh"
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

kernel=$here/../scripts/kernel.sh
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ktap_header
[ -f "${KSRC:-}/kernel/sched/Kconfig.numa" ] || ktap_exit_skip "no tree at KSRC: run make tree"
ktap_plan 10

# configure NAME CONFIG OPTS: the configuration step alone.
configure()
{
	NAME=$1 CONFIG=$2 OPTS=$3 BUILD=$tmp "$kernel" --configure-only >"$tmp/out" 2>&1
}

if configure ok numa-none "NUMA_SWAP=y"; then r=0; else r=1; fi
grep -qx '# CONFIG_NUMA_CPUPID is not set' "$tmp/ok/.config" || r=1
grep -qx 'CONFIG_NUMA_SWAP=y' "$tmp/ok/.config" || r=1
grep -qx 'CONFIG_NUMA_BALANCING=y' "$tmp/ok/.config" || r=1
ktap_result $r "fragments and OPTS end up in .config"

if configure dep numa-all "NUMA_CPUPID=n NUMA_GROUPS=y"; then r=1; else r=0; fi
grep -q 'Kconfig dropped requested options' "$tmp/out" || r=1
grep -q 'CONFIG_NUMA_GROUPS' "$tmp/out" || r=1
ktap_result $r "an option whose dependency is unmet is an error naming it"

if configure bad numa-all "NUMA_FBQ=maybe"; then r=1; else r=0; fi
grep -q "bad value in OPTS 'NUMA_FBQ=maybe'" "$tmp/out" && [ ! -e "$tmp/bad/.config" ] || r=1
ktap_result $r "a bad OPTS value is refused"

if configure nofrag no-such-thing ""; then r=1; else r=0; fi
grep -q 'no fragment configs/no-such-thing.config' "$tmp/out" || r=1
ktap_result $r "an unknown fragment is refused, with the list of those known"

before=$(stat -c %Y "$tmp/ok/.config")
touch -d '2020-01-01' "$tmp/ok/.config"
configure ok numa-none "NUMA_SWAP=y" || true
r=0
[ "$(stat -c %Y "$tmp/ok/.config")" = "$(date -d 2020-01-01 +%s)" ] || r=1
ktap_result $r "an unchanged configuration leaves .config untouched (was $before)"

mkdir -p "$tmp/fake"
echo 'all:' >"$tmp/fake/Makefile"
echo 'CONFIG_X=y' >"$tmp/fake/.config"
if KSRC=$tmp/fake configure inplace numa-all ""; then r=1; else r=0; fi
grep -q 'configured in place' "$tmp/out" || r=1
ktap_result $r "a tree configured in place is refused"

# configs/numa-default spells out Kconfig.numa's defaults (the builds start
# from tinyconfig, where nothing takes its default): each feature option
# is on in the fragment exactly when its Kconfig entry says
# "default y". Fails on a fragment with NUMA_MIGRATE_DEFER=y (tried).
r=0
for o in $(numa_features); do
	want=n
	awk -v c="config $o" '$0 == c { on = 1; next } /^(config|menu|endmenu)/ { on = 0 }
		on && $1 == "default" && $2 == "y" { found = 1 } END { exit !found }' \
		"$here/../Kconfig.numa" && want=y
	got=n
	grep -qx "CONFIG_$o=y" "$here/../configs/numa-default.config" && got=y
	grep -qx "# CONFIG_$o is not set" "$here/../configs/numa-default.config" ||
		[ "$got" = y ] || r=1
	[ "$want" = "$got" ] || { echo "# $o: Kconfig default $want, numa-default $got"; r=1; }
done
ktap_result $r "configs/numa-default sets every option to its Kconfig default"

# The KUnit suites come with every build (configs/kunit.config) for the
# features that are on, and a feature that is off drops its suite without
# an error. Fails when kernel.sh checks kunit.config like a feature
# fragment (tried: every build without NUMA_CPUPID then fails, "Kconfig
# dropped requested options", from case 1 on).
r=0
configure kall numa-all "" || r=1
configure kncp no-cpupid "" || { cat "$tmp/out"; r=1; }
for o in NUMA_CPUPID NUMA_GROUPS NUMA_FBQ; do
	grep -qx "CONFIG_${o}_KUNIT_TEST=y" "$tmp/kall/.config" || r=1
done
grep -q 'CONFIG_NUMA_CPUPID_KUNIT_TEST=y' "$tmp/kncp/.config" && r=1
grep -qx 'CONFIG_NUMA_FBQ_KUNIT_TEST=y' "$tmp/kncp/.config" || r=1
ktap_result $r "the KUnit suites follow their features (configs/kunit.config)"

# menuconfig round trip, scripted: what make menuconfig saves (an option
# turned off, then olddefconfig as conf does on save) is not undone by
# the next make kernel, which stops and names make savefrag; the fragment
# savefrag writes builds that .config again. Fails when kernel.sh copies
# its merge over a changed .config (tried: NUMA_GROUPS came back on).
configure mc numa-all "" || true
"$KSRC/scripts/config" --file "$tmp/mc/.config" -d NUMA_GROUPS
make -s -C "$KSRC" O="$tmp/mc" olddefconfig >/dev/null 2>&1
cp "$tmp/mc/.config" "$tmp/chosen"
if configure mc numa-all ""; then r=1; else r=0; fi
grep -q 'make savefrag' "$tmp/out" && grep -q 'NUMA_GROUPS' "$tmp/out" || r=1
cmp -s "$tmp/chosen" "$tmp/mc/.config" || r=1
grep -qx '# CONFIG_NUMA_GROUPS is not set' "$tmp/mc/.config" || r=1
ktap_result $r "a .config changed by hand is kept, and make kernel names make savefrag"

r=0
KSRC=$KSRC BUILD=$tmp NAME=mc FRAG=$tmp/frag/mine.config \
	"$here/../scripts/savefrag.sh" >"$tmp/out" 2>&1 || { cat "$tmp/out"; r=1; }
grep -qx '# CONFIG_NUMA_GROUPS is not set' "$tmp/frag/mine.config" || r=1
grep -q '_KUNIT_TEST=y' "$tmp/frag/mine.config" && r=1
configure mine "$tmp/frag/mine.config" "" || { cat "$tmp/out"; r=1; }
cmp -s "$tmp/chosen" "$tmp/mine/.config" || r=1
ktap_result $r "make savefrag's fragment builds the chosen .config again"

ktap_finished
