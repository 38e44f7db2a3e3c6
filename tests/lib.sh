#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit tests of scripts/lib.sh's ktap_judge, ktap_count and kselftest_ktap,
# which make test and make matrix use to add up results: KTAP documents
# judged by the tree's own parser (kunit.py parse --json), the cases
# counted from its JSON. Planted: a walk in ktap-count.py that counts each
# group as a case too (its status in the JSON taken as a pass) gave
# "6 1 1 0" and failed case 2; kselftest_ktap as plain cat (the runner's
# output judged as it is) gave "1 1 0 0" and failed case 6.

set -u

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"
. "$here/../scripts/lib.sh"
WORK=${WORK:-/var/tmp/numa-sched}
KSRC=${KSRC:-$WORK/linux}
tmp=$(mktemp -d /tmp/numa-sched-unit.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# make test's KTAP_JSON_DIR is for real results, not these examples
# (their failures would count: seen once, "2 failed" with every test ok).
unset KTAP_JSON_DIR

ktap_header
[ -f "$KSRC/tools/testing/kunit/kunit.py" ] || ktap_exit_skip "no kernel tree in $KSRC (make tree)"
ktap_plan 6

# Two nested tests as the guest writes them, a failure and a skip among
# their cases, and a flat case: 4 passed, 1 failed, 1 skipped.
cat >"$tmp/nested.ktap" <<'EOC'
KTAP version 1
1..3
    KTAP version 1
    1..3
    ok 1 a
    not ok 2 b
    ok 3 c # SKIP not here
not ok 1 first # exit status 1
    KTAP version 1
    1..2
    ok 1 d
    ok 2 e
ok 2 second
ok 3 flat
EOC
KTAP_JSON_DIR=$tmp/json ktap_judge "$tmp/nested.ktap" "$tmp/nested.log" >/dev/null
rc=$?
[ "$rc" != 0 ]
ktap_result $? "a document with a failed case is judged failed (status $rc)"

set -- "$tmp"/json/*.json
got="$(ktap_count passed "$@") $(ktap_count failed "$@") $(ktap_count skipped "$@") $(ktap_count errors "$@")"
[ $# = 1 ] && [ "$got" = "4 1 1 0" ]
ktap_result $? "cases counted from the parser's JSON in KTAP_JSON_DIR: 4 1 1 0 (got $got in $# file(s))"

# A document cut short: the parser reports the missing cases as errors.
printf 'KTAP version 1\n1..3\nok 1 x\n' >"$tmp/short.ktap"
ktap_judge "$tmp/short.ktap" "$tmp/short.log" >/dev/null
rc=$?
got="$(ktap_count passed "$tmp/short.log.json") $(ktap_count errors "$tmp/short.log.json")"
[ "$rc" != 0 ] && [ "$got" = "1 2" ]
ktap_result $? "a document cut short fails, its missing cases counted as errors (got $got, status $rc)"

got="$(ktap_count passed "$tmp/json"/*.json "$tmp/short.log.json")"
[ "$got" = 5 ]
ktap_result $? "the counts of several documents add up (got $got)"

got=$(ktap_count errors "$tmp/missing.json" 2>/dev/null)
[ "$got" = 1 ]
ktap_result $? "a missing JSON document is an error, not an empty pass (got $got)"

# run_kselftest.sh's output: each test's TAP behind "# ", a failure and
# a skip among the cases of one, a test that bailed out before its plan.
cat >"$tmp/runner.tap" <<'EOC'
TAP version 13
1..2
# selftests: sched/numa: one
# TAP version 13
# # a comment
# 1..3
# ok 1 a
# not ok 2 b
# ok 3 c # SKIP not here
# # Totals: pass:1 fail:1
not ok 1 selftests: sched/numa: one # exit=1
# selftests: sched/numa: two
# TAP version 13
# 1..2
# ok 1 d
# ok 2 e
#
ok 2 selftests: sched/numa: two
EOC
kselftest_ktap "$tmp/runner.tap" >"$tmp/runner.ktap"
ktap_judge "$tmp/runner.ktap" "$tmp/runner.log" >/dev/null
rc=$?
read -r p f s e < <(ktap_counts "$tmp/runner.log.json")
got="$p $f $s $e"
[ "$rc" != 0 ] && [ "$got" = "3 1 1 0" ]
ktap_result $? "run_kselftest.sh's output: every test's cases judged and counted, 3 1 1 0 (got $got, status $rc)"

ktap_finished
