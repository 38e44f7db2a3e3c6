#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make unit: the host-side unit tests, tests/*.sh, each printing KTAP,
# nested under one KTAP document and judged by the tree's kunit.py parse
# when the tree is there (plain exit statuses otherwise).

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

REPO=$(abspath "$here/..")
OUT=${OUT:?}
mkdir -p "$OUT"
log=$OUT/unit.ktap

set -- "$REPO"/tests/*.sh
failed=0
{
	echo "KTAP version 1"
	echo "1..$#"
	n=0
	for t in "$@"; do
		n=$((n + 1))
		name=$(basename "$t")
		if "$t" >"$OUT/unit.out" 2>&1; then rc=0; else rc=$?; fi
		ktap_nest "$name" "$OUT/unit.out"
		if [ "$rc" = 0 ]; then
			echo "ok $n $name"
		else
			echo "not ok $n $name # exit status $rc"
			failed=1
		fi
	done
} >"$log"
cat "$log"
if [ -f "${KSRC:-}/tools/testing/kunit/kunit.py" ]; then
	ktap_judge "$log" || failed=1
fi
exit "$failed"
