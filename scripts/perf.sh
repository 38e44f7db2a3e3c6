#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The tree's perf, for "perf bench numa mem" in the guest: tools/perf of
# KSRC built statically (the initramfs has no libraries) with libnuma
# (libnuma-dev's libnuma.a; make deps) and without the optional libraries
# that bench numa does not use. Prints the binary's path; a build of the
# same tree is reused.
#
# Environment: KSRC, WORK.

set -eu

here=$(dirname "$(realpath "$0")")
. "$here/lib.sh"

: "${KSRC:?}" "${WORK:?}"
out=$WORK/perf
bin=$out/perf.stripped
stamp=$(git -C "$KSRC" rev-parse HEAD 2>/dev/null || echo none)

if [ -x "$bin" ] && [ "$(cat "$out/.tree" 2>/dev/null)" = "$stamp" ]; then
	echo "$bin"
	exit 0
fi
if [ ! -f /usr/include/numa.h ] || [ ! -f /usr/lib/x86_64-linux-gnu/libnuma.a ]; then
	die "perf: perf bench numa needs libnuma-dev (make deps)"
fi
mkdir -p "$out"
info "perf: building $KSRC/tools/perf statically into $out"
make -C "$KSRC/tools/perf" O="$out" -j"$(nproc)" LDFLAGS=-static \
	NO_LIBPERL=1 NO_LIBPYTHON=1 NO_SLANG=1 NO_GTK2=1 NO_LIBUNWIND=1 \
	NO_LIBDW_DWARF_UNWIND=1 NO_LIBELF=1 NO_LIBAUDIT=1 NO_LIBCRYPTO=1 \
	NO_LIBBPF=1 NO_JVMTI=1 NO_LIBZSTD=1 NO_LIBCAP=1 NO_LIBBABELTRACE=1 \
	NO_DEMANGLE=1 NO_LZMA=1 NO_LIBPFM4=1 NO_SDT=1 NO_AUXTRACE=1 \
	NO_LIBTRACEEVENT=1 NO_BPF_SKEL=1 WERROR=0 "$out/perf" >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; die "perf: the build failed ($out/build.log)"; }
grep -qx 'feature-libnuma=1' "$out/FEATURE-DUMP" 2>/dev/null ||
	die "perf: built without libnuma: no bench numa ($out/build.log)"
! ldd "$out/perf" >/dev/null 2>&1 || die "perf: $out/perf is not statically linked"
# Without its debug information: a fifth of the size in the initramfs.
strip -o "$bin" "$out/perf"
echo "$stamp" >"$out/.tree"
echo "$bin"
