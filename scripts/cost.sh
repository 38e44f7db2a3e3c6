#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make cost: what each option costs in the kernel image and in memory,
# from the builds of numa-all and of numa-all minus one option
# (configs/no-OPTION.config), with the kernel's own tools:
#
#   text, data, bss     size(1) of vmlinux, numa-all minus the build
#                       without the option
#   bloat-o-meter       scripts/bloat-o-meter's total change from the
#                       build without to numa-all, and its largest entries
#   task, runqueue      the sizes of the symbols init_task (a struct
#                       task_struct) and runqueues (the per-CPU struct rq),
#                       nm -S: no debug information needed
#   page flags          LAST_CPUPID_SHIFT and whether the record fits in
#                       page->flags, for the guest's configuration and for
#                       Debian's amd64 one (NR_CPUS 8192, NODES_SHIFT 10),
#                       read from include/linux/page-flags-layout.h by
#                       the compiler (scripts/cost-probe.c, an external
#                       module's .s, as asm-offsets does)
#
# The builds are the fragments' without the KUnit suites (KUNIT=n, in
# BUILD/cost-NAME, each started from a finished one, see below):
# what a distribution ships, not the test kernels. Writes
# OUT/cost/table.md and prints it.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${BUILD:?}" "${OUT:?}" "${WORK:?}"
RES=$OUT/cost
mkdir -p "$RES"
DEBIAN_CONFIG=${DEBIAN_CONFIG:-/usr/src/linux-config-6.1/config.amd64_none_amd64.xz}

# numa-all first and no-cpupid before numa-none: the seeds of the others.
kernels="numa-all"
for f in $(numa_features); do
	kernels="$kernels no-$(echo "${f#NUMA_}" | tr 'A-Z_' 'a-z-')"
done
kernels="$kernels numa-none"
for k in $kernels; do
	[ -f "$REPO/configs/$k.config" ] || die "cost: no configs/$k.config"
	info "cost: building $k without KUnit"
	# A new directory starts from a finished one without KUnit, numa-all's
	# (with NUMA_CPUPID) or no-cpupid's (without): kbuild then recompiles
	# only what the option touches; numa-all's starts from the test build.
	seed=""
	if [ ! -f "$BUILD/cost-$k/.config" ]; then
		case "$k" in
		numa-all) seed=$BUILD/$k ;;
		numa-none | no-cpupid) seed=$BUILD/cost-no-cpupid ;;
		*) seed=$BUILD/cost-numa-all ;;
		esac
		[ -f "$seed/vmlinux" ] || seed=""
	fi
	SEED=$seed CONFIG=$k OPTS="KUNIT=n KUNIT_DEFAULT_ENABLED=n" NAME=cost-$k "$here/kernel.sh" >"$RES/build-$k.log" 2>&1 || {
		tail -n 20 "$RES/build-$k.log" >&2
		die "cost: $k did not build ($RES/build-$k.log)"
	}
done

# size_of BUILD SYMBOL: the symbol's size in bytes (nm -S).
size_of()
{
	local hex

	hex=$(nm -S "$BUILD/cost-$1/vmlinux" | awk -v s="$2" '$NF == s { print $2; exit }')
	[ -n "$hex" ] || die "cost: no symbol $2 in $1/vmlinux"
	echo $((16#$hex))
}

# probe CONFIGURED_BUILD_DIR: "LAST_CPUPID_SHIFT NOT_IN_PAGE_FLAGS NR_CPUS_BITS NODES_SHIFT".
probe()
{
	local m=$RES/probe

	rm -rf "$m" && mkdir -p "$m"
	cp "$REPO/scripts/cost-probe.c" "$m/"
	echo "obj-m := cost-probe.o" >"$m/Makefile"
	make -s -C "$KSRC" O="$1" M="$m" cost-probe.s >"$m/make.log" 2>&1 ||
		{ tail -n 20 "$m/make.log" >&2; die "cost: the page-flags probe did not compile in $1"; }
	# .ascii "->NAME $VALUE": strip the quotes and the immediate's $.
	awk '/->/ { for (i = 1; i <= NF; i++) if ($i ~ /^"?->/) {
			sub(/^"?->/, "", $i); v[$i] = $(i + 1); gsub(/[$"]/, "", v[$i]) } }
	     END { print v["LAST_CPUPID_SHIFT"], v["NOT_IN_FLAGS"], v["NR_CPUS_BITS"], v["NODES_SHIFT"] }' "$m/cost-probe.s"
}

# record_row LABEL BUILD_DIR: a row of the page record's table.
record_row()
{
	local shift notin cpus nodes

	read -r shift notin cpus nodes < <(probe "$2")
	printf '| %s | %s | %s | %s | %s |\n' "$1" "$cpus" "$nodes" "$shift" \
		"$([ "$notin" = 1 ] && echo "no: a field of its own in struct page" || echo yes)"
}

{
	echo "### What each option costs: numa-all against the build without it"
	echo
	echo "| option | text | data | bss | bloat-o-meter (functions, total) | task_struct | runqueues (per CPU) |"
	echo "|---|---|---|---|---|---|---|"
	read -r t0 d0 b0 _ < <(size "$BUILD/cost-numa-all/vmlinux" | tail -n 1)
	task0=$(size_of numa-all init_task)
	rq0=$(size_of numa-all runqueues)
	for k in $kernels; do
		[ "$k" != numa-all ] || continue
		read -r t d b _ < <(size "$BUILD/cost-$k/vmlinux" | tail -n 1)
		"$KSRC/scripts/bloat-o-meter" "$BUILD/cost-$k/vmlinux" "$BUILD/cost-numa-all/vmlinux" >"$RES/bloat-$k.txt"
		total=$(awk '/^Total:/ { print $NF }' "$RES/bloat-$k.txt")
		funcs=$(sed -n 's/^add\/remove: \([^ ]*\) grow\/shrink: \([^ ]*\) up\/down: \([^ ]*\).*/added\/removed \1, grown\/shrunk \2, bytes up\/down \3/p' "$RES/bloat-$k.txt")
		opt=${k#no-}
		[ "$k" != numa-none ] || opt="all five"
		printf '| %s | %+d | %+d | %+d | %s, %s | %+d | %+d |\n' "$opt" $((t0 - t)) $((d0 - d)) $((b0 - b)) \
			"$funcs" "$total" $((task0 - $(size_of "$k" init_task))) $((rq0 - $(size_of "$k" runqueues)))
	done
	echo
	echo "numa-all without KUnit: text $t0, data $d0, bss $b0 bytes; task_struct $task0 bytes, struct rq $rq0 bytes (nm -S of init_task and runqueues). A positive figure is what the option adds. task_struct keeps its layout whatever the options (they gate code, not the layout of a header every file includes); struct rq is cacheline aligned, so NUMA_FBQ's two counters show only when they cross a 64-byte line; data and bss move with section alignment as well as with the option's variables."
	echo
	echo "### The page record"
	echo
	echo "| configuration | NR_CPUS bits | NODES_SHIFT | LAST_CPUPID_SHIFT | last_cpupid in page->flags |"
	echo "|---|---|---|---|---|"
	for k in numa-all no-cpupid; do
		record_row "guest, $k" "$BUILD/cost-$k"
	done
	if [ -r "$DEBIAN_CONFIG" ]; then
		for k in numa-all no-cpupid; do
			d=$WORK/cost/debian-$k
			mkdir -p "$d"
			xz -dc "$DEBIAN_CONFIG" >"$d/.config"
			"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$d" "$d/.config" "$REPO/configs/$k.config" >/dev/null
			make -s -C "$KSRC" O="$d" olddefconfig >/dev/null 2>&1
			# Debian signs modules with its own key: a probe needs none.
			"$KSRC/scripts/config" --file "$d/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
				--disable MODULE_SIG_ALL --disable DEBUG_INFO_BTF >/dev/null
			make -s -C "$KSRC" O="$d" olddefconfig >/dev/null 2>&1
			make -s -C "$KSRC" O="$d" -j"$(nproc)" modules_prepare >"$d/prepare.log" 2>&1 ||
				{ tail -n 20 "$d/prepare.log" >&2; die "cost: modules_prepare failed for Debian's config in $d"; }
			record_row "Debian amd64, $k" "$d"
		done
	fi
} >"$RES/table.md"
cat "$RES/table.md"
info "cost: $RES/table.md; bloat-o-meter output in $RES/bloat-*.txt"
