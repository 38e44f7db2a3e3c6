#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make matrix: every valid combination of the five feature options, plus
# two reference kernels, each built, checked, booted and tested; one table.
#
# Rows:
#   - the combinations Kconfig accepts, found by asking Kconfig itself:
#     each of the 2^5 on/off assignments is merged onto the guest base
#     (kernel.sh --configure-only) and kept when no requested value was
#     dropped (GROUPS and MIGRATE_DEFER need CPUPID: 20 of 32). The list
#     is cached under OUT/matrix, keyed by Kconfig.numa's contents;
#   - "no-balancing": the guest base with NUMA_BALANCING=n (none of our
#     options can exist; the suite's tests skip, balancing.sh checks the
#     off state);
#   - "upstream": the unmodified 6.1 tree (the "pristine" tag of KSRC, as
#     a worktree in WORK/pristine/linux) with the same base config,
#     running TESTS_UPSTREAM, the tests of what any 6.1 kernel has.
# MATRIX_SET=cover keeps a covering subset of the combinations: all on,
# all off, each option off alone (with what needs it), each on alone
# (with what it needs); the references always run.
#
# Each row: build in its own O= directory (a row whose set of options
# equals one of configs/ reuses that build directory, so make test's
# builds serve here too; ccache makes the others cheap), check that the
# .config holds exactly the requested options, build its initramfs, boot
# the 4-node machine (boot.sh: KUnit, the in-guest suite, kernel
# reports), count the KTAP results. Builds run one at a time; up to
# MATRIX_JOBS guests boot at once (default 1: two cores, and the tests'
# timing needs the CPUs they ask for).
#
# Resumable: each finished row leaves OUT/matrix/rows/NAME.tsv, keyed by
# the contents of everything that goes into it (sources, patches,
# configs, guest programs, scripts, machine shape); a rerun skips rows
# whose key still matches. MATRIX_FRESH=1 reruns them all.
#
# Output: OUT/matrix/summary.{txt,md,json}; a failed row's reasons (the
# log lines that made it fail) follow the table. Exits 1 if a row failed.
#
# --list prints the rows (name, build directory, CONFIG, OPTS) and stops.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${BUILD:?}" "${OUT:?}" "${WORK:?}" "${TESTS:?}"
: "${NODES:?}" "${CPUS_PER_NODE:?}" "${MEM_PER_NODE_MB:?}" "${DIST_REMOTE:?}"
MATRIX_SET=${MATRIX_SET:-all}
MATRIX_JOBS=${MATRIX_JOBS:-1}
MATRIX_FRESH=${MATRIX_FRESH:-0}
TESTS_UPSTREAM=${TESTS_UPSTREAM:-topology.sh balancing.sh proc_sched migrate_to_threads}
PRISTINE=$WORK/pristine/linux
MDIR=$OUT/matrix
FEATURES=(NUMA_CPUPID NUMA_GROUPS NUMA_SWAP NUMA_FBQ NUMA_MIGRATE_DEFER)
LETTERS=(C G S F D)

case "$MATRIX_SET" in
all | cover) ;;
*) die "MATRIX_SET must be all or cover, not '$MATRIX_SET'" ;;
esac
case "$MATRIX_JOBS" in
"" | *[!0-9]* | 0) die "MATRIX_JOBS must be a positive integer, not '$MATRIX_JOBS'" ;;
esac
mkdir -p "$MDIR/rows" "$MDIR/logs" "$MDIR/img"

# opts MASK: the OPTS of a combination, bit i for FEATURES[i], each option
# on with its KUnit suite when it has one.
opts()
{
	local i o=""

	for i in "${!FEATURES[@]}"; do
		if (( $1 >> i & 1 )); then
			o="$o ${FEATURES[$i]}=y"
			grep -q "^config ${FEATURES[$i]}_KUNIT_TEST\$" "$REPO/Kconfig.numa" &&
				o="$o ${FEATURES[$i]}_KUNIT_TEST=y"
		else
			o="$o ${FEATURES[$i]}=n"
		fi
	done
	echo "${o# }"
}

# label MASK: one letter per option, upper case when on: "CGSFD", "cgsfd".
label()
{
	local i l=""

	for i in "${!LETTERS[@]}"; do
		if (( $1 >> i & 1 )); then
			l=$l${LETTERS[$i]}
		else
			l=$l${LETTERS[$i],,}
		fi
	done
	echo "$l"
}

# The valid combinations' masks, from Kconfig.
combos()
{
	local key cache m

	key=$(cat "$REPO/Kconfig.numa" "$REPO/configs/qemu.config" | sha256sum | cut -c1-16)
	cache=$MDIR/combos-$key
	if [ ! -s "$cache" ]; then
		info "matrix: asking Kconfig which of the 32 combinations are valid"
		: >"$cache.tmp"
		for ((m = 0; m < 32; m++)); do
			if KSRC=$KSRC BUILD=$MDIR NAME=probe CONFIG="" OPTS="$(opts $m)" \
				"$here/kernel.sh" --configure-only >/dev/null 2>&1; then
				echo "$m" >>"$cache.tmp"
			fi
		done
		mv "$cache.tmp" "$cache"
	fi
	cat "$cache"
}

bits() { local n=0 m=$1; while ((m)); do n=$((n + (m & 1))); m=$((m >> 1)); done; echo $n; }

# cover MASKS...: all on, all off, and for each option the valid mask
# with it off and the most others on, and with it on and the fewest.
cover()
{
	local i m best pick

	for i in "${!FEATURES[@]}"; do
		for pick in off on; do
			best=""
			for m in "$@"; do
				if [ $pick = off ]; then
					(( !(m >> i & 1) )) || continue
					[ -z "$best" ] || (( $(bits $m) > $(bits $best) )) || continue
				else
					(( m >> i & 1 )) || continue
					[ -z "$best" ] || (( $(bits $m) < $(bits $best) )) || continue
				fi
				best=$m
			done
			echo "$best"
		done
	done
	echo 31
	echo 0
}

# named MASK: the configs/ fragment whose five options are exactly MASK's,
# if any (its build directory is make test's).
named()
{
	local f i m

	for f in "$REPO"/configs/*.config; do
		[ "$(basename "$f")" != qemu.config ] || continue
		m=0
		for i in "${!FEATURES[@]}"; do
			grep -qx "CONFIG_${FEATURES[$i]}=y" "$f" && m=$((m | 1 << i))
		done
		if [ "$m" = "$1" ] && grep -q "${FEATURES[0]}" "$f"; then
			basename "$f" .config
			return
		fi
	done
}

# Everything a row's result depends on besides its own options.
inputs_key()
{
	{
		(cd "$REPO" && git ls-files -co --exclude-standard -z -- src patches qemu configs \
			Kconfig.numa scripts/kernel.sh scripts/boot.sh scripts/initramfs.sh \
			scripts/kernel-reports.sh | sort -z | xargs -0 sha256sum)
		git -C "$KSRC" rev-parse pristine
		echo "$NODES $CPUS_PER_NODE $MEM_PER_NODE_MB $DIST_REMOTE ${SCAN_TUNING:-}"
	} | sha256sum | cut -c1-16
}

# why LOG...: the lines of the logs that tell why a row failed.
why()
{
	grep -hE '^numa-sched: (error|FAIL)|not ok|Kconfig dropped|requested|: (warning|error):|BUG:|WARNING:|Oops|KASAN|lockdep|INFO: ' "$@" 2>/dev/null |
		grep -v '^\s*ok ' | head -n 25
}

# row NAME KIND MASK KSRC BUILDDIR BUILDNAME CONFIG OPTS TESTS
row()
{
	local name=$1 kind=$2 mask=$3 ksrc=$4 bdir=$5 bname=$6 config=$7 opts=$8 tests=$9
	local key res=$MDIR/rows/$name.tsv logs=$MDIR/logs/$name start bsecs=0
	local status=pass bootres=- warnings=0 kconfig img i sym want have

	key=$(echo "$KEY $kind $mask $config $opts $tests" | sha256sum | cut -c1-16)
	if [ "$MATRIX_FRESH" != 1 ] && [ -f "$res" ] && [ "$(cut -f1 "$res")" = "$key" ]; then
		info "matrix: $name: done before, kept (MATRIX_FRESH=1 reruns)"
		return 0
	fi
	rm -rf "$logs" "$res"
	mkdir -p "$logs"
	info "matrix: $name: building"
	start=$(date +%s)
	if ! KSRC=$ksrc BUILD=$bdir NAME=$bname CONFIG=$config OPTS=$opts \
		"$here/kernel.sh" >"$logs/build.log" 2>&1; then
		status=fail
	fi
	bsecs=$(( $(date +%s) - start ))
	kconfig=$bdir/$bname/.config
	warnings=$(grep -cE ': warning:' "$bdir/$bname/build.log" 2>/dev/null || true)
	# The .config holds exactly what the row asks for.
	if [ $status = pass ]; then
		for i in "${!FEATURES[@]}" balancing; do
			if [ $i = balancing ]; then
				sym=NUMA_BALANCING
				want=y
				[ "$kind" != no-balancing ] || want=n
			else
				sym=${FEATURES[$i]}
				want=n
				if [ "$kind" = combo ] && (( mask >> i & 1 )); then
					want=y
				fi
			fi
			have=n
			! grep -qx "CONFIG_$sym=y" "$kconfig" || have=y
			if [ $have != $want ]; then
				echo "numa-sched: error: $sym is $have in $kconfig, the row wants $want" >>"$logs/build.log"
				status=fail
			fi
		done
	fi
	if [ $status = pass ]; then
		img=$(IMAGE=$MDIR/img/$name MODE=test TESTS=$tests KSRC=$ksrc KCONFIG=$kconfig \
			"$here/initramfs.sh" 2>>"$logs/build.log") || status=fail
	fi
	if [ $status = fail ]; then
		finish "$name" "$key" "$kind" "$mask" "$bsecs" - 0 0 0 "$warnings" fail "$logs/build.log"
		return 0
	fi
	# The guest, in the background when MATRIX_JOBS allows.
	(
		info "matrix: $name: booting"
		bootres=ok
		MODE=test KSRC=$ksrc KERNEL=$bdir/$bname/arch/x86/boot/bzImage KCONFIG=$kconfig \
			INITRD=$img LOGDIR=$logs "$here/boot.sh" >"$logs/boot.log" 2>&1 || bootres=fail
		if [ $bootres = ok ] && [ "$(ktap_count "$logs/boot.log" passed)" = 0 ]; then
			echo "numa-sched: FAIL: no test passed" >>"$logs/boot.log"
			bootres=fail
		fi
		finish "$name" "$key" "$kind" "$mask" "$bsecs" $bootres \
			"$(ktap_count "$logs/boot.log" passed)" \
			"$(( $(ktap_count "$logs/boot.log" failed) + $(ktap_count "$logs/boot.log" errors) ))" \
			"$(ktap_count "$logs/boot.log" skipped)" "$warnings" \
			"$([ $bootres = ok ] && echo pass || echo fail)" "$logs/boot.log" "$logs/console.log"
	) &
	running=$((running + 1))
	if [ "$running" -ge "$MATRIX_JOBS" ]; then
		wait -n || true
		running=$((running - 1))
	fi
}

# finish NAME KEY KIND MASK BUILD_S BOOT PASSED FAILED SKIPPED WARNINGS STATUS LOGS...
finish()
{
	local name=$1 res=$MDIR/rows/$1.tsv

	shift
	if [ "${10}" = fail ]; then
		why "${@:11}" >"$MDIR/rows/$name.why"
	else
		rm -f "$MDIR/rows/$name.why"
	fi
	printf '%s\t' "${@:1:10}" >"$res.tmp"
	printf '%s\n' "$name" >>"$res.tmp"
	mv "$res.tmp" "$res"
	info "matrix: $name: ${10} (boot $5, passed $6, failed $7, skipped $8)"
}

[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree: run make tree"
KEY=$(inputs_key)
mapfile -t valid < <(combos)
[ "${#valid[@]}" -gt 0 ] || die "Kconfig accepted no combination of the options"
if [ "$MATRIX_SET" = cover ]; then
	mapfile -t masks < <(cover "${valid[@]}" | awk 'NF && !seen[$0]++')
else
	masks=("${valid[@]}")
fi
info "matrix: ${#valid[@]} valid combinations, running ${#masks[@]} ($MATRIX_SET) and 2 references"

if [ "${1:-}" = --list ]; then
	for m in "${masks[@]}"; do
		n=$(named "$m")
		printf '%s\t%s\t%s\t%s\n' "$(label "$m")" "${n:-mx-$(label "$m")}" "$n" \
			"$([ -n "$n" ] || opts "$m")"
	done
	printf 'no-balancing\tmx-no-balancing\t\tNUMA_BALANCING=n NUMA_BALANCING_DEFAULT_ENABLED=n\n'
	printf 'upstream\tpristine\t\t\n'
	exit 0
fi

names=()
running=0
for m in "${masks[@]}"; do
	n=$(named "$m")
	if [ -n "$n" ]; then
		row "$(label "$m")" combo "$m" "$KSRC" "$BUILD" "$n" "$n" "" "$TESTS"
	else
		row "$(label "$m")" combo "$m" "$KSRC" "$BUILD" "mx-$(label "$m")" "" "$(opts "$m")" "$TESTS"
	fi
	names+=("$(label "$m")")
done
row no-balancing no-balancing 0 "$KSRC" "$BUILD" mx-no-balancing "" \
	"NUMA_BALANCING=n NUMA_BALANCING_DEFAULT_ENABLED=n" "$TESTS"
names+=(no-balancing)
pristine_tree "$KSRC" "$PRISTINE"
row upstream upstream 0 "$PRISTINE" "$(dirname "$PRISTINE")/build" pristine "" "" "$TESTS_UPSTREAM"
names+=(upstream)
wait

# The table: text, Markdown, JSON.
python3 - "$MDIR" "${names[@]}" <<'EOF'
import json, os, sys

mdir, names = sys.argv[1], sys.argv[2:]
feats = ["CPUPID", "GROUPS", "SWAP", "FBQ", "DEFER"]
rows = []
for name in names:
    path = os.path.join(mdir, "rows", name + ".tsv")
    if not os.path.exists(path):
        rows.append(dict(row=name, result="missing"))
        continue
    f = open(path).read().rstrip("\n").split("\t")
    key, kind, mask, bsecs, boot, passed, failed, skipped, warn, result = f[:10]
    r = dict(row=name, kind=kind, build_s=int(bsecs), boot=boot, passed=int(passed),
             failed=int(failed), skipped=int(skipped), warnings=int(warn), result=result)
    for i, ft in enumerate(feats):
        r[ft] = "y" if kind == "combo" and int(mask) >> i & 1 else "-"
    why = os.path.join(mdir, "rows", name + ".why")
    r["why"] = open(why).read().splitlines() if os.path.exists(why) else []
    rows.append(r)

cols = ["row"] + feats + ["build_s", "boot", "passed", "failed", "skipped", "warnings", "result"]
def cell(r, c):
    return str(r.get(c, "-"))
width = {c: max(len(c), *(len(cell(r, c)) for r in rows)) for c in cols}
txt = ["  ".join(c.ljust(width[c]) for c in cols)]
txt += ["  ".join(cell(r, c).ljust(width[c]) for c in cols) for r in rows]
bad = [r for r in rows if r.get("result") != "pass"]
txt.append("%d rows: %d passed, %d failed" % (len(rows), len(rows) - len(bad), len(bad)))
# For make test's tally, kunit.py's words: every row's tests, and a failed
# row with no failed test (no build, no boot) as one failure of its own.
p = sum(r.get("passed", 0) for r in rows)
f = sum(r.get("failed", 0) or (r.get("result") != "pass") for r in rows)
sk = sum(r.get("skipped", 0) for r in rows)
txt.append("matrix: Ran %d tests: passed: %d, failed: %d, skipped: %d" % (p + f + sk, p, f, sk))
for r in bad:
    txt.append("")
    txt.append("%s failed:" % r["row"])
    txt += ["    " + l for l in r.get("why", [])] or ["    (no result: interrupted?)"]
md = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
md += ["| " + " | ".join(cell(r, c) for c in cols) + " |" for r in rows]
open(os.path.join(mdir, "summary.txt"), "w").write("\n".join(txt) + "\n")
open(os.path.join(mdir, "summary.md"), "w").write("\n".join(md) + "\n")
json.dump(rows, open(os.path.join(mdir, "summary.json"), "w"), indent=1)
print("\n".join(txt))
sys.exit(1 if bad else 0)
EOF
