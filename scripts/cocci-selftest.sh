#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prove each of our coccinelle rules both fires and stays quiet: for
# coccinelle/<rule>.cocci, coccinelle/tests/<rule>-bad.* must be reported
# on exactly the lines marked /* expect */, and <rule>-good.* not at all.
# KTAP on stdout, one result per example.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/../src/tools/testing/selftests/sched/numa/ktap.sh"

dir=$(realpath "$here/../coccinelle")
command -v spatch >/dev/null || { echo "numa-sched: spatch not found: install coccinelle (make deps)" >&2; exit 1; }

set -- "$dir"/*.cocci
ktap_header
ktap_plan $(($# * 2))
for rule in "$@"; do
	name=$(basename "$rule" .cocci)
	for kind in bad good; do
		ex=$(ls "$dir/tests/$name-$kind".* 2>/dev/null | head -n1)
		if [ -z "$ex" ]; then
			ktap_result 1 "$name: no $kind example in coccinelle/tests"
			continue
		fi
		want=$(grep -n '/\* expect \*/' "$ex" | cut -d: -f1 | sort -n | tr '\n' ' ')
		have=$(spatch --very-quiet -D report --no-includes --include-headers \
			--sp-file "$rule" "$ex" 2>&1 |
			sed -n "s|^$ex:\([0-9]*\):.*|\1|p" | sort -n | tr '\n' ' ')
		[ "$have" = "$want" ]
		ktap_result $? "$name: $kind example reported on lines [${have% }], expected [${want% }]"
	done
done
ktap_finished
