#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# ktap-count.py JSON...: add up the test cases of the JSON documents that
# the tree's KTAP parser writes (tools/testing/kunit/kunit.py parse
# --json=FILE), one line of four numbers for a shell's read: "PASSED
# FAILED SKIPPED ERRORS". The only place a result is counted.
# Leaves are counted, as kunit.py's own summary counts them: a group
# (a test with subtests) is not a case of its own. A missing or unreadable
# file counts as one error, so that a run that left no results cannot
# pass for an empty one.

import json
import sys

KEYS = {"PASS": "passed", "FAIL": "failed", "SKIP": "skipped", "ERROR": "errors"}


def walk(group, counts):
    for case in group.get("test_cases", []):
        counts[KEYS.get(case.get("status"), "failed")] += 1
    for sub in group.get("sub_groups", []):
        walk(sub, counts)


def main(paths):
    counts = dict.fromkeys(KEYS.values(), 0)
    for path in paths:
        try:
            with open(path) as f:
                walk(json.load(f), counts)
        except (OSError, ValueError) as e:
            print("ktap-count: %s: %s" % (path, e), file=sys.stderr)
            counts["errors"] += 1
    print(" ".join(str(counts[k]) for k in KEYS.values()))


if __name__ == "__main__":
    main(sys.argv[1:])
