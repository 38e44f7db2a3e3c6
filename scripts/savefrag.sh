#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make savefrag FRAG=NAME: keep a build's .config, as make menuconfig left
# it, as the fragment configs/NAME.config (or FRAG=path/to/file.config),
# so that CONFIG=NAME builds the same .config again.
#
# The fragment holds what differs from the guest base alone (tinyconfig,
# configs/qemu.config and configs/kunit.config, as scripts/kernel.sh
# merges them), written by the tree's scripts/diffconfig -m. The KUnit
# suites that kunit.config turns on anyway are left out, so the fragment
# names features. Before it is written, the fragment is merged as a
# build would merge it, and the result must be the .config it came from.
#
# Environment: KSRC, BUILD, NAME (the build whose .config is saved), FRAG,
# FORCE (1: overwrite an existing fragment).

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}" "${BUILD:?}" "${NAME:?}"
FRAG=${FRAG:-}
FORCE=${FORCE:-0}
case "$FRAG" in
"") die "FRAG is not set: make savefrag FRAG=name (writes configs/name.config)" ;;
*/*) out=$(abspath "$FRAG") ;;
*[!a-z0-9-]* | -*) die "bad fragment name '$FRAG': lower-case letters, digits and '-'" ;;
*) out=$REPO/configs/$FRAG.config ;;
esac
case "$(basename "$out")" in
qemu.config | kunit.config | debug.config | fault-inject.config) die "$(basename "$out") is one of the project's own fragments" ;;
*.config) ;;
*) die "FRAG=$FRAG: a fragment's file name ends in .config" ;;
esac
user=$BUILD/$NAME/.config
[ -f "$user" ] || die "no $user: make menuconfig (or make kernel) for NAME=$NAME first"
[ ! -e "$out" ] || [ "$FORCE" = 1 ] || die "$out exists (FORCE=1 overwrites it)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/numa-sched-savefrag.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
base=$(guest_base)

# merge DIR FRAGMENT...: as scripts/kernel.sh merges them.
merge()
{
	local dir=$1

	shift
	merge_fragments "$dir" "$dir.log" "$@" ||
		{ cat "$dir.log" >&2; die "merge_config.sh failed in $dir"; }
}

merge "$tmp/base" $base
{
	echo "# Help: saved from the build $NAME by make savefrag"
	echo "# What differs from the guest base (scripts/diffconfig -m)."
	(cd "$KSRC" && scripts/diffconfig -m "$tmp/base/.config" "$user") |
		grep -v '^CONFIG_[A-Z0-9_]*_KUNIT_TEST=y$' || true
} >"$tmp/frag.config"

merge "$tmp/check" $base "$tmp/frag.config"
if ! cmp -s "$tmp/check/.config" "$user"; then
	{
		echo "numa-sched: error: the fragment would not give $user back:"
		(cd "$KSRC" && scripts/diffconfig "$user" "$tmp/check/.config") | sed 's/^/    /'
	} >&2
	exit 1
fi
mkdir -p "$(dirname "$out")"
cp "$tmp/frag.config" "$out"
info "savefrag: $out ($(grep -c '^[#]* *CONFIG_' "$out") options); build it with CONFIG=$( [ "$out" = "$REPO/configs/$FRAG.config" ] && echo "$FRAG" || echo "$out")"
