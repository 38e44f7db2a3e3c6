#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make export-glue TOPIC=<dir>: turn the commits made by hand on top of the
# glue in KSRC into patches in patches/<TOPIC>/ and append them to
# patches/series. The next make tree then resets KSRC and applies the
# series, which now includes them.
#
#   cd $KSRC && edit && git add -f FILE && git commit -s
#   make export-glue TOPIC=cpupid
#
# Environment: KSRC, TOPIC.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
: "${KSRC:?}"
[ -n "${TOPIC:-}" ] || die "TOPIC is not set (the folder of patches/ to export into)"
case "$TOPIC" in */* | .*) die "bad TOPIC '$TOPIC'" ;; esac

# The glue applied by make tree ends where git am stopped; what follows
# was committed by hand. The applied count is that of the series.
applied=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$REPO/patches/series" | wc -l)
base=$(git -C "$KSRC" rev-list --reverse pristine..HEAD | sed -n "${applied}p")
[ -n "$base" ] || base=$(git -C "$KSRC" rev-parse pristine)
count=$(git -C "$KSRC" rev-list --count "$base..HEAD")
[ "$count" != 0 ] || die "no commits on top of the applied series in $KSRC"

mkdir -p "$REPO/patches/$TOPIC"
start=$(( $(ls "$REPO/patches/$TOPIC" | grep -c '\.patch$' || true) + 1 ))
git -C "$KSRC" format-patch --zero-commit --no-signature --start-number "$start" \
	-o "$REPO/patches/$TOPIC" "$base..HEAD" |
	while read -r p; do
		echo "$TOPIC/$(basename "$p")" >>"$REPO/patches/series"
		info "exported $TOPIC/$(basename "$p")"
	done

