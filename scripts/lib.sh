# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the numa-sched scripts. Sourced, never executed.

die()
{
	echo "numa-sched: error: $*" >&2
	exit 1
}

info()
{
	echo "numa-sched: $*" >&2
}

# abspath PATH: the absolute, symlink-free form of PATH, whether or not it
# exists yet (realpath -m does not require the components to exist).
abspath()
{
	realpath -m -- "$1"
}

# is_inside DIR PARENT: true when DIR is PARENT or lies below it.
is_inside()
{
	local d p
	d=$(abspath "$1")
	p=$(abspath "$2")
	case "$d/" in
	"$p"/*) return 0 ;;
	esac
	return 1
}

# numa_features: the feature options of Kconfig.numa, in its order, its
# KUnit test options left out. The one list of features every script
# uses: a new option in Kconfig.numa is a new feature everywhere.
numa_features()
{
	sed -n 's/^config \(NUMA_[A-Z0-9_]*\)$/\1/p' "$(dirname "${BASH_SOURCE[0]}")/../Kconfig.numa" |
		grep -v '_KUNIT_TEST$'
}

# numa_sched_features KSRC: the options that are also scheduler features,
# which NO_<option> in debugfs sched/features turns off at run time, as the
# tree's kernel/sched/features.h declares them (NUMA_CPUPID ...). One per
# line; none in a tree without the series.
numa_sched_features()
{
	sed -n 's/^SCHED_FEAT(\(NUMA_[A-Z0-9_]*\),.*/\1/p' "$1/kernel/sched/features.h"
}

# feature_letter OPTION: the option's letter in the matrix's row names,
# the first of its last word (NUMA_CPUPID C, NUMA_MIGRATE_DEFER D).
feature_letter()
{
	local w=${1##*_}

	echo "${w:0:1}"
}

# config_dropped FINAL FRAGMENT...: what the fragments ask for that the
# .config FINAL does not have, one "SYM: requested X, got Y" line each;
# nothing when Kconfig kept every value. The last fragment to name an
# option wins, as in merge_config.sh. An option asked to be off that is
# absent from FINAL (its menu hidden) is off.
config_dropped()
{
	local final=$1

	shift
	awk '
		FILENAME != final {
			if ($0 ~ /^CONFIG_[A-Z0-9_]+=/) { split($0, kv, "="); want[kv[1]] = $0 }
			else if ($0 ~ /^# CONFIG_[A-Z0-9_]+ is not set$/) want[$2] = "off"
			next
		}
		/^CONFIG_[A-Z0-9_]+=/ { split($0, kv, "="); have[kv[1]] = $0 }
		END {
			for (sym in want) {
				got = (sym in have) ? have[sym] : "off"
				if (want[sym] == "off" ? got != "off" : got != want[sym])
					printf "    %s: requested %s, got %s\n", sym, want[sym], got
			}
		}' final="$final" "$@" "$final" | sort
}

# guest_base: the fragments every build starts from, before CONFIG's:
# tinyconfig, the guest machine (configs/qemu.config) and the features'
# KUnit suites (configs/kunit.config). kernel.sh builds on it, and
# savefrag.sh saves what differs from it.
guest_base()
{
	local configs

	configs=$(abspath "$(dirname "${BASH_SOURCE[0]}")/../configs")
	echo "kernel/configs/tiny.config arch/x86/configs/tiny.config" \
		"$configs/qemu.config $configs/kunit.config"
}

# merge_fragments DIR LOG FRAGMENT...: DIR/.config from the fragments,
# merge_config.sh -n in KSRC, its output in LOG; false when it fails.
# merge_config.sh keeps its temporary files in the current directory, the
# tree: the tree's lock is held meanwhile, so that a make tree running at
# the same time does not take them for hand edits.
merge_fragments()
{
	local dir=$1 log=$2

	shift 2
	mkdir -p "$dir"
	(cd "$KSRC" && flock "$KSRC.lock" scripts/kconfig/merge_config.sh -n -O "$dir" "$@") >"$log" 2>&1
}

# ktap_counts JSON...: "PASSED FAILED SKIPPED ERRORS", summed over the
# test cases of the kunit.py parse --json documents named
# (scripts/ktap-count.py; a missing one is an error; none named: zeros).
ktap_counts()
{
	python3 "$(dirname "${BASH_SOURCE[0]}")/ktap-count.py" "$@"
}

# ktap_count FIELD JSON...: one of ktap_counts' figures ("passed",
# "failed", "skipped", "errors").
ktap_count()
{
	local field=$1 p f s e

	shift
	read -r p f s e < <(ktap_counts "$@")
	case "$field" in
	passed) echo "$p" ;;
	failed) echo "$f" ;;
	skipped) echo "$s" ;;
	errors) echo "$e" ;;
	esac
}

# ccache_hits: ccache's hits and misses, on one line, for the logs.
ccache_hits()
{
	ccache -s 2>/dev/null | grep -E 'Hits|Misses' | tr -s ' ' | tr '\n' ';'
}

# ktap_judge FILE [LOG]: judge the KTAP document in FILE with the tree's
# own parser, $KSRC/tools/testing/kunit/kunit.py parse, whose exit status
# is returned. With LOG, the parser's report is kept there and printed,
# and its JSON (--json) kept in LOG.json. With KTAP_JSON_DIR set, the
# JSON is also left there, where make test adds the results up.
ktap_judge()
{
	local parser=$KSRC/tools/testing/kunit/kunit.py status=0 json

	json=$(mktemp "${TMPDIR:-/tmp}/numa-sched-ktap.XXXXXX")
	if [ $# -ge 2 ]; then
		python3 "$parser" parse --json="$json" "$1" >"$2" 2>&1 || status=$?
		cat "$2"
		cp "$json" "$2.json" 2>/dev/null || true
	else
		python3 "$parser" parse --json="$json" "$1" || status=$?
	fi
	if [ -n "${KTAP_JSON_DIR:-}" ] && [ -s "$json" ]; then
		mkdir -p "$KTAP_JSON_DIR"
		mv "$json" "$(mktemp -u "$KTAP_JSON_DIR/XXXXXXXX").json"
	fi
	rm -f "$json"
	return "$status"
}

# kselftest_ktap FILE: run_kselftest.sh's output as one nested KTAP
# document. The runner prints each test's own TAP with "# " before every
# line, which kunit.py parse reads as comments, so that only the tests'
# exit statuses would be judged; here those lines lose the "# " and are
# indented under the runner's result line, after the "# Subtest:" line the
# parser wants, so that every case of every test is judged.
kselftest_ktap()
{
	awk '
	/^# selftests: / { name = substr($0, 3); inside = 1; next }
	inside && /^(not )?ok [0-9]+ selftests: / { inside = 0; print; next }
	inside && $0 == "#" { next }
	inside && /^# / {
		line = substr($0, 3)
		print "    " line
		if (line ~ /^K?TAP version/) { print "    # Subtest: " name }
		next
	}
	{ print }' "$1"
}

# pristine_tree KSRC DIR: DIR as a clean worktree of KSRC at its tag
# "pristine" (the unmodified upstream tree), set up or brought back.
pristine_tree()
{
	local want

	want=$(git -C "$1" rev-parse pristine) || die "$1 has no tag pristine: run make tree"
	if [ "$(git -C "$2" rev-parse HEAD 2>/dev/null)" != "$want" ] ||
	   [ -n "$(git -C "$2" status --porcelain 2>/dev/null)" ]; then
		rm -rf "$2"
		git -C "$1" worktree prune
		mkdir -p "$(dirname "$2")"
		git -C "$1" worktree add -q --detach "$2" pristine >/dev/null
	fi
}
