#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-reports.sh CONSOLE_LOG: print the kernel's problem reports found in
# a console log, with some context, and exit 1 if there is any.
#
# A report is recognised by its header at the start of the message (after
# the printk timestamp, if any): Oops, BUG: (KASAN's "BUG: KASAN:" among
# them), WARNING: (lockdep's "WARNING: possible circular locking" among
# them), kernel BUG at, general protection fault, panics, UBSAN, RCU
# stalls, hung tasks, soft lockups, kmemleak and lockdep's "INFO: trying
# to register non-static key" (its other reports are WARNINGs). Words
# inside a message, such as a normal boot's "report a bug", do not count.
#
# ALLOW, a file of extended regexps, lists known harmless report lines.
# The first line of the output says how many report lines were found:
# "numa-sched: the kernel reported N problem(s):".

set -eu

log=${1:?usage: kernel-reports.sh CONSOLE_LOG}
allow=${ALLOW:-}

ts='^(\[ *[0-9]+\.[0-9]+\] )?'
headers='(BUG: |WARNING: |Oops: |Oops -|general protection fault|Kernel panic - not syncing|kernel BUG at |UBSAN: |INFO: task .* blocked for more than|rcu: INFO: |INFO: rcu_|watchdog: BUG: soft lockup|kmemleak: [0-9]+ new suspected|INFO: trying to register non-static key)'

found=$(grep -nE "$ts$headers" "$log" || true)
if [ -n "$found" ] && [ -n "$allow" ]; then
	found=$(echo "$found" | grep -vEf "$allow" || true)
fi
[ -n "$found" ] || exit 0

echo "numa-sched: the kernel reported $(echo "$found" | wc -l) problem(s):"
echo "$found" | while IFS=: read -r n _; do
	sed -n "${n},$((n + 15))p" "$log" | sed 's/^/    /'
done | head -n 80
exit 1
