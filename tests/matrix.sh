#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make matrix's rows, as scripts/matrix.sh --list gives them: Kconfig
# accepts 20 combinations of the five options (GROUPS and MIGRATE_DEFER
# need CPUPID), the covering subset is the 12 the README names, every row
# name is unique, and rows equal to a configs/ fragment reuse its build.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../qemu/lib/ktap.sh"
REPO=$(realpath "$here/..")
WORK=${WORK:-/var/tmp/numa-sched}
export KSRC=${KSRC:-$WORK/linux} BUILD=${BUILD:-$WORK/build} OUT=${OUT:-$WORK/out}
export WORK TESTS=x NODES=4 CPUS_PER_NODE=1 MEM_PER_NODE_MB=512 DIST_REMOTE=20

ktap_header
[ -f "$KSRC/Makefile" ] || ktap_exit_skip "no kernel tree in $KSRC (make tree)"
ktap_plan 4

all=$(MATRIX_SET=all "$REPO/scripts/matrix.sh" --list 2>/dev/null)
cover=$(MATRIX_SET=cover "$REPO/scripts/matrix.sh" --list 2>/dev/null)
combos=$(echo "$all" | grep -vc '^no-balancing\|^upstream')
[ "$combos" = 20 ]
ktap_result $? "Kconfig accepts 20 combinations (found $combos)"

want="CGSFD cgsfd cgSFd CgSFD CGsFD CGSfD CGSFd Cgsfd CGsfd cgSfd cgsFd CgsfD"
got=$(echo "$cover" | cut -f1 | grep -v '^no-balancing\|^upstream' | sort | tr '\n' ' ')
[ "$got" = "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" ]
ktap_result $? "the covering subset is all on, all off, each off alone, each on alone (got: $got)"

dups=$(echo "$all" | cut -f1 | sort | uniq -d)
[ -z "$dups" ]
ktap_result $? "row names are unique${dups:+ (duplicates: $dups)}"

echo "$all" | grep -q "^CGSFD	numa-all	numa-all	" &&
	echo "$all" | grep -q "^cgsfd	numa-none	numa-none	" &&
	echo "$all" | grep -q "^CGSfD	no-fbq	no-fbq	"
ktap_result $? "rows equal to a configs/ fragment use its build directory"

ktap_finished
