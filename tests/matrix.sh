#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make matrix's rows, as scripts/matrix.sh --list gives them from
# configs/matrix.tsv: its 4x1 combinations are the 20 Kconfig accepts
# (GROUPS and MIGRATE_DEFER need CPUPID), the covering set is the one the
# README names, rows equal to a configs/ fragment reuse its build, and a
# rows file that misses a valid combination, lists one Kconfig refuses or
# has a malformed line is refused.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"
REPO=$(realpath "$here/..")
WORK=${WORK:-/var/tmp/numa-sched}
export KSRC=${KSRC:-$WORK/linux} BUILD=${BUILD:-$WORK/build} OUT=${OUT:-$WORK/out}
export WORK TESTS=x MEM_PER_NODE_MB=512 DIST_REMOTE=20
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ktap_header
[ -f "$KSRC/Makefile" ] || ktap_exit_skip "no kernel tree in $KSRC (make tree)"
ktap_plan 8

list() { "$REPO/scripts/matrix.sh" --list 2>"$tmp/err"; }

all=$(MATRIX_SET=all list)
cover=$(MATRIX_SET=cover list)
combos=$(echo "$all" | awk -F'\t' '$5 == "4x1" && $7 == "" && $1 !~ /^(no-balancing|upstream)$/' | wc -l)
[ "$combos" = 20 ] && echo "$all" | grep -q '^upstream	' && echo "$all" | grep -q '^no-balancing	'
ktap_result $? "make matrix: 20 combinations on 4x1 and the two references (found $combos)"

want="CGSFD cgsfd cgSFd CgSFD CGsFD CGSfD CGSFd Cgsfd CGsfd cgSfd cgsFd CgsfD CGSFD-2x2 CGSFd-2x2 CGSfD-2x2 CGSFd-offCGS CGSFd-offF-2x2"
got=$(echo "$cover" | cut -f1 | sort | tr '\n' ' ')
[ "$got" = "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" ]
ktap_result $? "the covering set: all on, all off, each off alone, each on alone, the 2x2 rows, the run-time offs (got: $got)"

echo "$cover" | grep -q "^CGSFD-2x2	numa-all	numa-all		2x2	fbq placement converge swap	\$" &&
	echo "$cover" | grep -q "^CGSfD-2x2	no-fbq	no-fbq		2x2	fbq placement converge	\$" &&
	echo "$cover" | grep -q "^CGSFd-2x2	no-migrate-defer	no-migrate-defer		2x2	placement converge	\$"
ktap_result $? "the 2x2 rows run fbq, placement and converge (and swap, all on) on 2 nodes of 2 CPUs: FBQ on and off, and the defaults kernel"

echo "$all" | grep -q "^CGSFD	numa-all	numa-all	" &&
	echo "$all" | grep -q "^cgsfd	numa-none	numa-none	" &&
	echo "$all" | grep -q "^CgSfd	mx-CgSfd		NUMA_CPUPID=y"
ktap_result $? "rows equal to a configs/ fragment use its build directory, the others mx-<row>"

# Planted: the rows file without one valid combination, then with one
# Kconfig refuses.
awk '$1 != "CgsFd"' "$REPO/configs/matrix.tsv" >"$tmp/missing.tsv"
awk '$1 == "CgsFd" { print "cGsFd all 4x1 cGsFd -"; next } 1' \
	"$REPO/configs/matrix.tsv" >"$tmp/refused.tsv"
MATRIX_ROWS=$tmp/missing.tsv list >/dev/null
r1=$?
grep -q 'missing CgsFd' "$tmp/err" || r1=0
MATRIX_ROWS=$tmp/refused.tsv list >/dev/null
r2=$?
grep -q 'cGsFd (Kconfig refuses it)' "$tmp/err" || r2=0
[ "$r1" != 0 ] && [ "$r2" != 0 ]
ktap_result $? "a rows file that misses a combination or lists a refused one is an error"

printf 'CGSFD\tcover\t4x\tCGSFD\t-\n' >"$tmp/bad.tsv"
MATRIX_ROWS=$tmp/bad.tsv list >/dev/null
r1=$?
printf 'CGSFD\tcover\t4x1\tCGXFD\t-\n' >"$tmp/bad.tsv"
MATRIX_ROWS=$tmp/bad.tsv list >/dev/null
r2=$?
[ "$r1" != 0 ] && [ "$r2" != 0 ]
ktap_result $? "a malformed shape or kernel is an error"

# KERNEL/LETTERS: the build of KERNEL, the options turned off at run time.
echo "$cover" | grep -q "^CGSFd-offCGS	no-migrate-defer	no-migrate-defer		4x1	cpupid cpupid_migrate lastnid groups placement swap	NO_NUMA_CPUPID NO_NUMA_GROUPS NO_NUMA_SWAP\$" &&
	echo "$cover" | grep -q "^CGSFd-offF-2x2	no-migrate-defer	no-migrate-defer		2x2	fbq placement converge	NO_NUMA_FBQ\$"
ktap_result $? "a row KERNEL/LETTERS boots KERNEL's build with those options' scheduler features off"

# Planted: options that cannot be turned off at run time in that row.
bad=0
for k in CGSFd/D cgsfd/S CGSFD/CG CGSFd/C CGSFd/X; do
	cp "$REPO/configs/matrix.tsv" "$tmp/off.tsv"
	printf 'bad\tall\t4x1\t%s\t-\n' "$k" >>"$tmp/off.tsv"
	if MATRIX_ROWS=$tmp/off.tsv list >/dev/null; then
		echo "# accepted: $k"
		bad=1
	fi
done
[ "$bad" = 0 ]
ktap_result $? "turning off D (a sysctl), an option not built, C with D built or G on, or no option, is an error"

ktap_finished
