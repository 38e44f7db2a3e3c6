#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make matrix: the rows of configs/matrix.tsv, each a kernel built,
# checked, booted on its machine shape and tested; one table.
#
# Rows (configs/matrix.tsv, one a line: name, set, shape, kernel, tests):
#   - option combinations, named by the options' initials (upper case
#     when on); the 4x1 rows must be exactly the combinations Kconfig
#     accepts, found by asking Kconfig itself: each of the 2^5 on/off
#     assignments is written over the guest base with every option on,
#     resolved by olddefconfig, and kept when no requested value was
#     dropped (GROUPS and MIGRATE_DEFER need CPUPID: 20 of 32). The list
#     is cached under OUT/matrix, keyed by Kconfig.numa's contents;
#   - "no-balancing": the guest base with NUMA_BALANCING=n (none of our
#     options can exist; the suite's tests skip, balancing.sh checks the
#     off state);
#   - "upstream": the unmodified 6.1 tree (the "pristine" tag of KSRC, as
#     a worktree in WORK/pristine/linux) with the same base config,
#     running TESTS_UPSTREAM, the tests of what any 6.1 kernel has.
# MATRIX_SET=cover runs the rows of set "cover" (make test's), all every row.
#
# Each kernel: built in its own O= directory (a combination equal to one
# of configs/ reuses that build directory, so make test's build serves
# here too). A new directory starts as a copy of a finished one of the
# same tree, of the same NUMA_CPUPID if there is one (kernel.sh SEED):
# kbuild then recompiles only the objects whose CONFIG symbols differ
# (scripts/build-economy.sh counts them), and ccache serves most of those.
# Then: a check that the .config holds exactly the requested options, its
# initramfs, a boot on the row's shape (boot.sh: KUnit, the in-guest
# suite, kernel reports), the KTAP results counted from the parser's JSON.
# Builds run one at a time; up to MATRIX_JOBS guests boot at once
# (default 1: two cores, and the tests' timing needs the CPUs they ask
# for).
#
# Resumable: each finished row leaves OUT/matrix/rows/NAME.tsv, keyed by
# the contents of everything that goes into it (sources, patches,
# configs, guest programs, scripts, machine shape); a rerun keeps rows
# whose key still matches. MATRIX_FRESH=1 reruns them all.
#
# Output: OUT/matrix/summary.{txt,md,json}, with each row's seconds of
# build and of guest; a failed row's reasons (the log lines that made it
# fail) follow the table; ccache's statistics go to the log. With
# KTAP_JSON_DIR set (make test), every row's parser JSON is left there,
# and a row that failed without results as a KTAP failure of its own.
# Exits 1 if a row failed.
#
# --list prints the rows (name, build directory, CONFIG, OPTS, shape,
# tests, scheduler features turned off) and stops.
set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${BUILD:?}" "${OUT:?}" "${WORK:?}" "${TESTS:?}"
: "${MEM_PER_NODE_MB:?}" "${DIST_REMOTE:?}"
MATRIX_SET=${MATRIX_SET:-all}
MATRIX_JOBS=${MATRIX_JOBS:-1}
MATRIX_FRESH=${MATRIX_FRESH:-0}
MATRIX_ROWS=${MATRIX_ROWS:-$REPO/configs/matrix.tsv}
TESTS_UPSTREAM=${TESTS_UPSTREAM:-topology.sh balancing.sh proc_sched migrate_to_threads}
PRISTINE=$WORK/pristine/linux
MDIR=$OUT/matrix
mapfile -t FEATURES < <(numa_features)
LETTERS=()
for f in "${FEATURES[@]}"; do
	LETTERS+=("$(feature_letter "$f")")
done
# The rows' JSON goes to make test's KTAP_JSON_DIR at the end, not from
# each boot: a row kept from an earlier run has its results too.
JSON_DEST=${KTAP_JSON_DIR:-}
unset KTAP_JSON_DIR

case "$MATRIX_SET" in
all | cover) ;;
*) die "MATRIX_SET must be all or cover, not '$MATRIX_SET'" ;;
esac
case "$MATRIX_JOBS" in
"" | *[!0-9]* | 0) die "MATRIX_JOBS must be a positive integer, not '$MATRIX_JOBS'" ;;
esac
[ -r "$MATRIX_ROWS" ] || die "no matrix rows file $MATRIX_ROWS"
mkdir -p "$MDIR/rows" "$MDIR/logs" "$MDIR/img"

# opts MASK: the OPTS of a combination, bit i for FEATURES[i] (the KUnit
# suites of those on come with every build's base, configs/kunit.config).
opts()
{
	local i o=""

	for i in "${!FEATURES[@]}"; do
		if (( $1 >> i & 1 )); then
			o="$o ${FEATURES[$i]}=y"
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

# mask LABEL: the combination a label names; false if it names none.
mask()
{
	local i m=0

	[ ${#1} = ${#LETTERS[@]} ] || return 1
	for i in "${!LETTERS[@]}"; do
		case "${1:$i:1}" in
		"${LETTERS[$i]}") m=$((m | 1 << i)) ;;
		"${LETTERS[$i],,}") ;;
		*) return 1 ;;
		esac
	done
	echo "$m"
}

# probe_masks START DIR: of the masks START, START+2, ..., those that
# Kconfig keeps as asked, resolved in DIR (a configured build directory
# holding base.config).
probe_masks()
{
	local m o

	for ((m = $1; m < 32; m += 2)); do
		cp "$2/base.config" "$2/.config"
		# shellcheck disable=SC2046
		"$KSRC/scripts/config" --file "$2/.config" \
			$(opts $m | sed -E 's/([A-Z0-9_]+)=y/--enable \1/g; s/([A-Z0-9_]+)=n/--disable \1/g')
		make -s -C "$KSRC" O="$2" olddefconfig >/dev/null 2>&1 || return 1
		for o in $(opts $m); do
			if [ "${o#*=}" = y ]; then
				grep -qx "CONFIG_${o%%=*}=y" "$2/.config" || continue 2
			else
				! grep -qx "CONFIG_${o%%=*}=y" "$2/.config" || continue 2
			fi
		done
		echo "$m"
	done
}

# The valid combinations' masks, from Kconfig.
combos()
{
	local key cache failed=0

	key=$(cat "$REPO/Kconfig.numa" "$REPO/configs/qemu.config" | sha256sum | cut -c1-16)
	cache=$MDIR/combos-$key
	if [ ! -s "$cache" ]; then
		info "matrix: asking Kconfig which of the 32 combinations are valid"
		# The guest base with every option on, merged once; then each
		# assignment written over it and resolved by Kconfig
		# (olddefconfig): an option whose dependency is not met comes
		# back off, and the assignment is invalid. Two directories
		# take every other mask each, one per core (6 s a mask).
		rm -rf "$MDIR/probe" "$MDIR/probe.1"
		KSRC=$KSRC BUILD=$MDIR NAME=probe CONFIG="" OPTS="$(opts 31)" \
			"$here/kernel.sh" --configure-only >/dev/null 2>&1 ||
			die "the guest base with every option on does not configure: $MDIR/probe"
		cp "$MDIR/probe/.config" "$MDIR/probe/base.config"
		cp -a "$MDIR/probe" "$MDIR/probe.1"
		probe_masks 0 "$MDIR/probe" >"$cache.0" &
		probe_masks 1 "$MDIR/probe.1" >"$cache.1" || failed=1
		wait $! || failed=1
		[ "$failed" = 0 ] || die "olddefconfig failed in $MDIR/probe or $MDIR/probe.1"
		sort -n "$cache.0" "$cache.1" >"$cache.tmp"
		rm -f "$cache.0" "$cache.1"
		mv "$cache.tmp" "$cache"
	fi
	cat "$cache"
}

# named MASK: the configs/ fragment that sets each of the five options,
# on or off, exactly as MASK, if any (its build directory is make
# test's). A fragment that leaves some to their defaults (numa-default)
# is not taken for any combination.
named()
{
	local f i m n

	for f in "$REPO"/configs/*.config; do
		[ "$(basename "$f")" != qemu.config ] || continue
		m=0 n=0
		for i in "${!FEATURES[@]}"; do
			if grep -qx "CONFIG_${FEATURES[$i]}=y" "$f"; then
				m=$((m | 1 << i)) n=$((n + 1))
			elif grep -qx "# CONFIG_${FEATURES[$i]} is not set" "$f"; then
				n=$((n + 1))
			fi
		done
		if [ "$m" = "$1" ] && [ "$n" = "${#FEATURES[@]}" ]; then
			basename "$f" .config
			return
		fi
	done
}

# Everything a row's result depends on besides its own kernel and shape.
inputs_key()
{
	{
		(cd "$REPO" && git ls-files -co --exclude-standard -z -- src patches qemu configs \
			Kconfig.numa scripts/kernel.sh scripts/boot.sh scripts/initramfs.sh scripts/lib.sh \
			scripts/kernel-reports.sh | sort -z | xargs -0 sha256sum)
		git -C "$KSRC" rev-parse pristine
		echo "$MEM_PER_NODE_MB $DIST_REMOTE ${SCAN_TUNING:-}"
	} | sha256sum | cut -c1-16
}

# why LOG...: the lines of the logs that tell why a row failed.
why()
{
	grep -hE '^numa-sched: (error|FAIL)|not ok|Kconfig dropped|requested|: (warning|error):|BUG:|WARNING:|Oops|KASAN|lockdep|INFO: ' "$@" 2>/dev/null |
		grep -v '^\s*ok ' | head -n 25
}

# The rows of MATRIX_SET, checked: "name set shape kernel tests" each,
# then for each its build: "name set nodes cpus kind mask ksrc builddir
# buildname config opts tests".
declare -A seen
rows=()
load_rows()
{
	local name set shape kernel tests extra m n nodes cpus bad="" valid want have
	local off sfeat i
	local -A combo4x1

	while read -r name set shape kernel tests extra; do
		case "$name" in "" | \#*) continue ;; esac
		[ -n "$tests" ] && [ -z "$extra" ] ||
			die "$MATRIX_ROWS: want 5 fields: '$name $set $shape $kernel $tests $extra'"
		[ -z "${seen[$name]:-}" ] || die "$MATRIX_ROWS: row $name twice"
		seen[$name]=1
		case "$set" in cover | all | ref) ;; *) die "$MATRIX_ROWS: $name: set '$set' is not cover, all or ref" ;; esac
		case "$shape" in
		[1-9]x[1-9] | [1-9][0-9]x[1-9]) nodes=${shape%x*} cpus=${shape#*x} ;;
		*) die "$MATRIX_ROWS: $name: shape '$shape' is not NODESxCPUS" ;;
		esac
		[ "$tests" != - ] || tests=$TESTS
		[ "$kernel" != upstream ] || [ "$tests" != "$TESTS" ] || tests=$TESTS_UPSTREAM
		tests=${tests//,/ }
		# KERNEL/LETTERS: options of KERNEL turned off at run time.
		off="" sfeat=""
		case "$kernel" in */*) off=${kernel#*/} kernel=${kernel%%/*} ;; esac
		case "$kernel" in
		no-balancing)
			[ -z "$off" ] || die "$MATRIX_ROWS: $name: only a combination can turn options off at run time"
			rows+=("$name|$set|$nodes|$cpus|no-balancing|0|$KSRC|$BUILD|mx-no-balancing||NUMA_BALANCING=n NUMA_BALANCING_DEFAULT_ENABLED=n|$tests|") ;;
		upstream)
			[ -z "$off" ] || die "$MATRIX_ROWS: $name: only a combination can turn options off at run time"
			rows+=("$name|$set|$nodes|$cpus|upstream|0|$PRISTINE|$(dirname "$PRISTINE")/build|pristine|||$tests|") ;;
		*)
			m=$(mask "$kernel") || die "$MATRIX_ROWS: $name: kernel '$kernel' is not a combination like CGSFD, no-balancing or upstream"
			# NO_NUMA_CPUPID makes every fault private: no group forms and
			# no deferral arms, so the row must not test those as on.
			if [[ $off == *C* ]]; then
				[[ $kernel != *G* || $off == *G* ]] ||
					die "$MATRIX_ROWS: $name: turning C off at run time needs G off too"
				[[ $kernel != *D* ]] ||
					die "$MATRIX_ROWS: $name: turning C off at run time needs a kernel without D"
			fi
			for ((i = 0; i < ${#off}; i++)); do
				sfeat="$sfeat $(run_off "$m" "${off:$i:1}")" ||
					die "$MATRIX_ROWS: $name: '${off:$i:1}' in /$off is not an option of $kernel that has a scheduler feature (C, G, S, F, built in)"
			done
			# A row that turns options off is not one of the combinations.
			[ "$shape" != 4x1 ] || [ -n "$off" ] || combo4x1[$m]=1
			n=$(named "$m")
			if [ -n "$n" ]; then
				rows+=("$name|$set|$nodes|$cpus|combo|$m|$KSRC|$BUILD|$n|$n||$tests|${sfeat# }")
			else
				rows+=("$name|$set|$nodes|$cpus|combo|$m|$KSRC|$BUILD|mx-$kernel||$(opts "$m")|$tests|${sfeat# }")
			fi ;;
		esac
	done <"$MATRIX_ROWS"
	# The 4x1 combinations are Kconfig's, no more, no fewer.
	mapfile -t valid < <(combos)
	[ "${#valid[@]}" -gt 0 ] || die "Kconfig accepted no combination of the options"
	for m in "${valid[@]}"; do
		[ -n "${combo4x1[$m]:-}" ] || bad="$bad missing $(label "$m");"
		unset "combo4x1[$m]"
	done
	for m in "${!combo4x1[@]}"; do
		bad="$bad $(label "$m") (Kconfig refuses it);"
	done
	[ -z "$bad" ] || die "$MATRIX_ROWS: the 4x1 rows are not Kconfig's ${#valid[@]} combinations:$bad"
}

# run_off MASK LETTER: the scheduler feature that turns off at run time the
# option LETTER names ("S": NO_NUMA_SWAP); false unless MASK builds it in
# and it has one (MIGRATE_DEFER has its sysctl instead).
run_off()
{
	local i

	for i in "${!LETTERS[@]}"; do
		[ "$2" = "${LETTERS[$i]}" ] || continue
		(( $1 >> i & 1 )) || return 1
		numa_sched_features "$KSRC" | grep -qx "${FEATURES[$i]}" || return 1
		echo "NO_${FEATURES[$i]}"
		return 0
	done
	return 1
}

# seed_for MASK: a finished build directory of KSRC to start a new one
# from: one with the same NUMA_CPUPID if any (nearly every object depends
# on it through page-flags-layout.h: from the other, kbuild recompiles
# them all and ccache serves all but the page record's users).
declare -A seed_dir
seed_for()
{
	local c=$(( $1 & 1 ))

	echo "${seed_dir[$c]:-${seed_dir[$((1 - c))]:-}}"
}

# row "name|set|nodes|cpus|kind|mask|ksrc|builddir|buildname|config|opts|tests|sched_features"
declare -A built
row()
{
	local name set nodes cpus kind mask ksrc bdir bname config opts tests sfeat
	local key res logs start bsecs=0 status=pass warnings=0 kconfig img i sym want have seed=""

	IFS='|' read -r name set nodes cpus kind mask ksrc bdir bname config opts tests sfeat <<<"$1"
	res=$MDIR/rows/$name.tsv
	logs=$MDIR/logs/$name
	key=$(echo "$KEY $kind $mask $nodes $cpus $config $opts $tests $sfeat" | sha256sum | cut -c1-16)
	if [ "$MATRIX_FRESH" != 1 ] && [ -f "$res" ] && [ "$(cut -f1 "$res")" = "$key" ]; then
		info "matrix: $name: done before, kept (MATRIX_FRESH=1 reruns)"
		return 0
	fi
	rm -rf "$logs" "$res" "$MDIR/rows/$name.ktap"
	mkdir -p "$logs"
	if [ "$kind" = combo ] && [ ! -f "$bdir/$bname/.config" ]; then
		seed=$(seed_for "$mask")
	fi
	info "matrix: $name: building $bname${seed:+ from a copy of $(basename "$seed")}"
	start=$(date +%s)
	if [ "${built[$bdir/$bname]:-}" = fail ]; then
		status=fail
		echo "numa-sched: error: $bname failed to build for an earlier row" >"$logs/build.log"
	elif ! SEED=$seed KSRC=$ksrc BUILD=$bdir NAME=$bname CONFIG=$config OPTS=$opts \
		"$here/kernel.sh" >"$logs/build.log" 2>&1; then
		status=fail
	fi
	built[$bdir/$bname]=$status
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
	if [ $status = pass ] && [ "$kind" = combo ]; then
		seed_dir[$(( mask & 1 ))]=$bdir/$bname
	fi
	if [ $status = pass ]; then
		img=$(IMAGE=$MDIR/img/$name MODE=test TESTS=$tests SCHED_FEATURES=$sfeat KSRC=$ksrc SELFTESTS_KSRC=$KSRC KCONFIG=$kconfig \
			"$here/initramfs.sh" 2>>"$logs/build.log") || status=fail
	fi
	if [ $status = fail ]; then
		finish "$name" "$key" "$kind" "$mask" "$nodes" "$cpus" "$bsecs" 0 - 0 0 0 "$warnings" fail "$logs/build.log"
		return 0
	fi
	# The guest, in the background when MATRIX_JOBS allows.
	(
		local bootres=ok gstart passed failed skipped errors

		info "matrix: $name: booting on $nodes x $cpus"
		gstart=$(date +%s)
		MODE=test KSRC=$ksrc KERNEL=$bdir/$bname/arch/x86/boot/bzImage KCONFIG=$kconfig \
			NODES=$nodes CPUS_PER_NODE=$cpus INITRD=$img LOGDIR=$logs \
			"$here/boot.sh" >"$logs/boot.log" 2>&1 || bootres=fail
		set -- "$logs"/*.log.json
		[ -f "$1" ] || set --
		read -r passed failed skipped errors < <(ktap_counts "$@")
		failed=$((failed + errors))
		if [ $bootres = ok ] && [ "$passed" = 0 ]; then
			echo "numa-sched: FAIL: no test passed" >>"$logs/boot.log"
			bootres=fail
		fi
		finish "$name" "$key" "$kind" "$mask" "$nodes" "$cpus" "$bsecs" \
			"$(( $(date +%s) - gstart ))" $bootres "$passed" "$failed" "$skipped" "$warnings" \
			"$([ $bootres = ok ] && echo pass || echo fail)" "$logs/boot.log" "$logs/console.log"
	) &
	running=$((running + 1))
	if [ "$running" -ge "$MATRIX_JOBS" ]; then
		wait -n || true
		running=$((running - 1))
	fi
}

# finish NAME KEY KIND MASK NODES CPUS BUILD_S GUEST_S BOOT PASSED FAILED
# SKIPPED WARNINGS STATUS LOGS...
finish()
{
	local name=$1 res=$MDIR/rows/$1.tsv

	shift
	if [ "${13}" = fail ]; then
		why "${@:14}" >"$MDIR/rows/$name.why"
	else
		rm -f "$MDIR/rows/$name.why"
	fi
	# A row that failed and counted no failed test (no build, no boot, a
	# kernel report) is a failure of its own, in KTAP for make test.
	if [ "${13}" = fail ] && [ "${10}" = 0 ]; then
		printf 'KTAP version 1\n1..1\nnot ok 1 %s: %s\n' "$name" \
			"$(head -n1 "$MDIR/rows/$name.why" | tr -d '#')" >"$MDIR/rows/$name.ktap"
	fi
	printf '%s\t' "${@:1:13}" >"$res.tmp"
	printf '%s\n' "$name" >>"$res.tmp"
	mv "$res.tmp" "$res"
	info "matrix: $name: ${13} (build ${6}s, guest ${7}s, passed $9, failed ${10}, skipped ${11})"
}

[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree: run make tree"
load_rows
sel=()
for r in "${rows[@]}"; do
	IFS='|' read -r name set _ <<<"$r"
	[ "$MATRIX_SET" = all ] || [ "$set" = cover ] || continue
	sel+=("$r")
done
info "matrix: ${#rows[@]} rows in $(basename "$MATRIX_ROWS"), running ${#sel[@]} ($MATRIX_SET)"

if [ "${1:-}" = --list ]; then
	for r in "${sel[@]}"; do
		IFS='|' read -r name set nodes cpus kind mask ksrc bdir bname config opts tests sfeat <<<"$r"
		printf '%s\t%s\t%s\t%s\t%sx%s\t%s\t%s\n' "$name" "$bname" "$config" "$opts" "$nodes" "$cpus" "$tests" "$sfeat"
	done
	exit 0
fi

KEY=$(inputs_key)
# The default kernel, when make test or make kernel built it, seeds its
# siblings.
[ ! -f "$BUILD/numa-all/vmlinux" ] || seed_dir[1]=$BUILD/numa-all
names=()
running=0
for r in "${sel[@]}"; do
	IFS='|' read -r name set _ _ kind _ <<<"$r"
	[ "$kind" != upstream ] || pristine_tree "$KSRC" "$PRISTINE"
	row "$r"
	names+=("$name")
done
wait
info "matrix: ccache: $(ccache_hits)"

# For make test: every row's parser JSON, and the KTAP failure of each
# row that failed without results, judged by the parser too.
if [ -n "$JSON_DEST" ]; then
	mkdir -p "$JSON_DEST"
	for n in "${names[@]}"; do
		for j in "$MDIR/logs/$n"/*.log.json; do
			[ ! -f "$j" ] || cp "$j" "$JSON_DEST/matrix-$n-$(basename "$j")"
		done
		[ ! -f "$MDIR/rows/$n.ktap" ] ||
			KTAP_JSON_DIR=$JSON_DEST ktap_judge "$MDIR/rows/$n.ktap" >/dev/null 2>&1 || true
	done
fi

# The table: text, Markdown, JSON.
python3 - "$MDIR" "$(numa_features | sed 's/^NUMA_//; s/^MIGRATE_//' | tr '\n' ' ')" "${names[@]}" <<'EOF'
import json, os, sys

mdir, feats, names = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
rows = []
for name in names:
    path = os.path.join(mdir, "rows", name + ".tsv")
    if not os.path.exists(path):
        rows.append(dict(row=name, result="missing"))
        continue
    f = open(path).read().rstrip("\n").split("\t")
    key, kind, mask, nodes, cpus, bsecs, gsecs, boot, passed, failed, skipped, warn, result = f[:13]
    r = dict(row=name, kind=kind, shape="%sx%s" % (nodes, cpus), build_s=int(bsecs),
             guest_s=int(gsecs), boot=boot, passed=int(passed), failed=int(failed),
             skipped=int(skipped), warnings=int(warn), result=result)
    for i, ft in enumerate(feats):
        r[ft] = "y" if kind == "combo" and int(mask) >> i & 1 else "-"
    why = os.path.join(mdir, "rows", name + ".why")
    r["why"] = open(why).read().splitlines() if os.path.exists(why) else []
    rows.append(r)

cols = ["row", "shape"] + feats + ["build_s", "guest_s", "boot", "passed", "failed",
                                   "skipped", "warnings", "result"]
def cell(r, c):
    return str(r.get(c, "-"))
width = {c: max(len(c), *(len(cell(r, c)) for r in rows)) for c in cols}
txt = ["  ".join(c.ljust(width[c]) for c in cols)]
txt += ["  ".join(cell(r, c).ljust(width[c]) for c in cols) for r in rows]
bad = [r for r in rows if r.get("result") != "pass"]
txt.append("%d rows: %d passed, %d failed; %d s of builds, %d s of guests" % (
    len(rows), len(rows) - len(bad), len(bad),
    sum(r.get("build_s", 0) for r in rows), sum(r.get("guest_s", 0) for r in rows)))
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
