#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of scripts/lib.sh's ktap_count, which make test and make
# matrix use to add up kunit.py parse summaries.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../qemu/lib/ktap.sh"
. "$here/../scripts/lib.sh"
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

ktap_header
ktap_plan 3

cat >"$tmp/log" <<'EOC'
[09:17:10] Testing complete. Ran 16 tests: passed: 16
    # Testing complete. Ran 3 tests: passed: 1, failed: 2
[09:17:12] Testing complete. Ran 1 test: passed: 0, skipped: 1
[09:17:13] Testing complete. Ran 7 tests: passed: 4, failed: 1, skipped: 1, errors: 1
ok 3 a line that says passed: 99 but is no summary
EOC
got="$(ktap_count "$tmp/log" passed) $(ktap_count "$tmp/log" failed) $(ktap_count "$tmp/log" skipped) $(ktap_count "$tmp/log" errors)"
[ "$got" = "21 3 2 1" ]
ktap_result $? "sums each field over every summary, nothing else (got $got)"

[ "$(ktap_count "$tmp/none" passed)" = 0 ]
ktap_result $? "a missing log counts 0"

echo "Ran 2 tests: passed: 2" >"$tmp/one"
[ "$(ktap_count "$tmp/one" failed)" = 0 ]
ktap_result $? "an absent field counts 0"

ktap_finished
