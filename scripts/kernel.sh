#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kernel: configure and build one bzImage from KSRC into its own O=
# directory, $BUILD/$NAME.
#
# The configuration is tinyconfig plus the guest base, configs/qemu.config
# and configs/kunit.config (the features' KUnit suites, for those features
# that are on), plus the fragments named in CONFIG (names of files in
# configs/, without .config), plus OPTS, a list of NAME=y|n that is turned
# into one more fragment:
#
#   CONFIG=numa-all                       (the default kernel)
#   CONFIG="numa-all no-swap"
#   OPTS="NUMA_CPUPID=y NUMA_GROUPS=n"    (on top of CONFIG)
#   CONFIG=/path/to/mine.config           (a fragment kept elsewhere)
#
# The tree's merge_config.sh does the merge and reports every requested
# value that Kconfig dropped; here that report is an error, since a kernel
# that silently lacks an option would make every later result a lie.
# The new .config replaces the build's only when it differs, so an
# unchanged configuration keeps the build incremental. A .config changed
# since this script wrote it (make menuconfig) is never overwritten: when
# the fragments would change it back, the script stops and names the
# command that keeps the change (make savefrag) and the one that drops it.
#
# SEED names a finished build directory of the same tree: a build
# directory that does not exist yet starts as a copy of it, and kbuild
# then recompiles only the objects whose CONFIG symbols differ (fixdep
# records them per object), instead of the whole kernel. make matrix uses
# it; the result is the same as a build from nothing.
#
# Environment: KSRC, BUILD, NAME (the build's directory name), CONFIG,
# OPTS, JOBS, CC, SEED.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

REPO=$(abspath "$here/..")
[ -n "${KSRC:-}" ] || die "KSRC is not set"
[ -n "${BUILD:-}" ] || die "BUILD is not set"
CONFIG=${CONFIG-numa-all}	# set but empty: the guest base alone
OPTS=${OPTS:-}
JOBS=${JOBS:-$(nproc)}
CC=${CC:-ccache gcc}

[ -n "${NAME:-}" ] || die "NAME is not set"
case "$NAME" in
*/* | "" | .*) die "bad build name '$NAME'" ;;
esac
O=$BUILD/$NAME

[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree: run make tree"
[ ! -e "$KSRC/.config" ] ||
	die "$KSRC/.config exists: the tree was configured in place; O= builds need 'make -C $KSRC mrproper'"

# known: the fragments CONFIG may name, for the error messages.
known()
{
	(cd "$REPO/configs" && ls *.config) | sed 's/\.config$//' | grep -vx 'qemu\|kunit' | tr '\n' ' '
}

frags=$(guest_base)
for c in $CONFIG; do
	case "$c" in
	qemu | kunit) die "configs/$c.config is part of every build's base; CONFIG names features (have: $(known))" ;;
	*/*) f=$(abspath "$c") name=$f ;;	# a fragment kept elsewhere (make savefrag FRAG=path)
	*) f=$REPO/configs/$c.config name=configs/$c.config ;;
	esac
	[ -f "$f" ] || die "no fragment $name (have: $(known))"
	frags="$frags $f"
done

if [ -n "${SEED:-}" ] && [ ! -e "$O/.config" ]; then
	[ -f "$SEED/vmlinux" ] && [ -f "$SEED/.config" ] ||
		die "SEED=$SEED is not a finished build directory"
	[ "$(readlink "$SEED/source")" = "$(abspath "$KSRC")" ] ||
		die "SEED=$SEED was built from $(readlink "$SEED/source"), not KSRC=$KSRC"
	mkdir -p "$O"
	cp -a "$SEED/." "$O/"
	rm -rf "$O/.kconfig" "$O/numa-sched-opts.config"
	# The tools' own build (objtool) records absolute paths: pointed at
	# the seed, its commands differ, objtool relinks, and every object,
	# which depends on objtool, with it.
	seed_abs=$(abspath "$SEED")
	grep -rlIF "$seed_abs/" "$O/tools" 2>/dev/null |
		xargs -r sed -i "s|$seed_abs/|$(abspath "$O")/|g"
	info "$NAME: starts from a copy of $SEED"
fi
mkdir -p "$O"
if [ -n "$OPTS" ]; then
	opts_frag=$O/numa-sched-opts.config
	: >"$opts_frag.new"
	for o in $OPTS; do
		sym=${o%%=*}
		val=${o#*=}
		sym=${sym#CONFIG_}
		case "$sym" in
		"" | *[!A-Z0-9_]*) die "bad option '$o' in OPTS: want NAME=y or NAME=n" ;;
		esac
		case "$val" in
		y) echo "CONFIG_$sym=y" ;;
		n) echo "# CONFIG_$sym is not set" ;;
		*) die "bad value in OPTS '$o': want y or n" ;;
		esac >>"$opts_frag.new"
	done
	mv "$opts_frag.new" "$opts_frag"
	frags="$frags $opts_frag"
fi

# Configure in a scratch directory, so that the build's .config (and
# with it every object's dependency on it) is only touched on a change.
scratch=$O/.kconfig
mkdir -p "$scratch"
log=$scratch/merge.log
start=$(date +%s)
if ! merge_fragments "$scratch" "$log" $frags; then
	cat "$log" >&2
	die "configuration of $NAME failed"
fi
# Hold the result to what this project's fragments ask for (tinyconfig's
# own carry 32-bit choices that do not exist on x86_64; kunit.config's
# suites follow their features).
ours=$(for f in $frags; do case "$f" in /*/kunit.config) ;; /*) echo "$f" ;; esac; done)
dropped=$(config_dropped "$scratch/.config" $ours)
if [ -n "$dropped" ]; then
	{
		echo "numa-sched: error: Kconfig dropped requested options for $NAME:"
		echo "$dropped"
		echo "(a dependency is not met: see the options' 'depends on' in menuconfig)"
	} >&2
	exit 1
fi
# A hand-made .config (make menuconfig) is the user's choice: keep it, or
# stop before undoing it.
written=$scratch/written.sha256
if [ -f "$O/.config" ] && [ -f "$written" ] &&
   [ "$(sha256sum <"$O/.config")" != "$(cat "$written")" ] &&
   ! cmp -s "$scratch/.config" "$O/.config"; then
	{
		echo "numa-sched: error: $O/.config was changed since make kernel wrote it"
		echo "(make menuconfig?), and CONFIG='$CONFIG' OPTS='$OPTS' would change it back:"
		(cd "$KSRC" && scripts/diffconfig "$scratch/.config" "$O/.config") | sed 's/^/    /'
		echo "Keep it:    make savefrag FRAG=mine CONFIG='$CONFIG' OPTS='$OPTS', then CONFIG=mine"
		echo "Discard it: rm $O/.config"
	} >&2
	exit 1
fi
if ! cmp -s "$scratch/.config" "$O/.config"; then
	cp "$scratch/.config" "$O/.config"
	info "$NAME: new .config"
fi
sha256sum <"$O/.config" >"$written"
info "config $NAME: ok ($(( $(date +%s) - start ))s)"
[ "${1:-}" = --configure-only ] && exit 0

# Reproducible, the tree's documented way
# (Documentation/kbuild/reproducible-builds.rst): the same sources and
# .config give the same vmlinux, whatever the day, user, host or build
# count. The date is that of the 2013 series' v8 posting. ccache's base
# directory makes its hits independent of where the tree and the build
# live, as long as they sit side by side (KSRC and BUILD under one parent).
export KBUILD_BUILD_TIMESTAMP="Fri Sep 27 14:26:45 UTC 2013"
export KBUILD_BUILD_USER=numa-sched KBUILD_BUILD_HOST=numa-sched KBUILD_BUILD_VERSION=1
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$KSRC")}

start=$(date +%s)
if ! make -s -C "$KSRC" O="$O" CC="$CC" -j"$JOBS" bzImage >"$O/build.log" 2>&1; then
	tail -n 40 "$O/build.log" >&2
	die "build of $NAME failed (full log: $O/build.log)"
fi
# A warning is a failure too: the series must build cleanly.
if grep -E ': (warning|error):' "$O/build.log" >&2; then
	die "build of $NAME printed warnings (full log: $O/build.log)"
fi
# kbuild's syncconfig may have rewritten .config: that is not a hand edit.
sha256sum <"$O/.config" >"$written"
info "build $NAME: ok ($(( $(date +%s) - start ))s) -> $O/arch/x86/boot/bzImage"
