#!/usr/bin/env bash
# build-kernel.sh TREE OBJDIR [FRAGMENT...]: configures and builds a small
# kernel from TREE into OBJDIR (O=, so the tree stays clean): tinyconfig,
# then each fragment merged in order (merge_config.sh), then olddefconfig;
# then the boot image and the user-space headers (OBJDIR/usr/include) the
# test programs are compiled against. All output goes to stdout/stderr; the
# caller keeps it as the build log and finds the first error there.
#
# Environment: SM_ARCH x86_64 (default: bzImage) or arm64 (Image, with
# CROSS_COMPILE=aarch64-linux-gnu-); SM_CC_WRAP a compiler launcher put
# before the compiler ("ccache", "distcc", "ccache distcc"), SM_BUILD_JOBS
# the -j (default 2; with distcc, what `distcc -j` says for DISTCC_HOSTS).
#
# When neither the fragments nor the series' Kconfig changes differ from the
# last build's, configuration is skipped; when the resulting .config is the
# same anyway, the old file (and its time stamp) is kept. Either way kbuild
# does not rerun syncconfig and an unchanged tree rebuilds quickly.
set -euo pipefail

tree=${1:?usage: build-kernel.sh TREE OBJDIR [FRAGMENT...]}
obj=${2:?usage: build-kernel.sh TREE OBJDIR [FRAGMENT...]}
shift 2
arch=${SM_ARCH:-x86_64}
wrap=${SM_CC_WRAP:-}
case $arch in
x86_64) cross= image=bzImage image_path=arch/x86/boot/bzImage ;;
arm64) cross=aarch64-linux-gnu- image=Image image_path=arch/arm64/boot/Image ;;
*) echo "build-kernel.sh: $arch: not x86_64 or arm64" >&2; exit 1 ;;
esac
if [ -n "$cross" ] && ! command -v "${cross}gcc" >/dev/null; then
	echo "build-kernel.sh: ${cross}gcc: cross compiler not found (Debian: gcc-aarch64-linux-gnu)" >&2
	exit 1
fi
jobs=${SM_BUILD_JOBS:-}
if [ -z "$jobs" ]; then
	jobs=2
	case " $wrap " in *" distcc "*) jobs=$(distcc -j) ;; esac
fi
# ccache in front of distcc: ccache calls distcc on a miss
ccvars=()
case $wrap in
"") ;;
"ccache distcc") ccvars=(CC="ccache ${cross}gcc"); export CCACHE_PREFIX=distcc ;;
*) ccvars=(CC="$wrap ${cross}gcc") ;;
esac
# niceness 10 for the build, not 10 more than the caller's: under a `nice`
# caller a nested `nice -n 10` would be 19, the last share of a busy machine
cur=$(nice)
more=$((cur < 10 ? 10 - cur : 0))
mk() {
	nice -n "$more" make -s -C "$tree" O="$obj" ARCH="$arch" ${cross:+CROSS_COMPILE=$cross} \
		"${ccvars[@]+"${ccvars[@]}"}" "$@"
}

mkdir -p "$obj"
frags=()
for f in "$@"; do
	[ -r "$f" ] || { echo "build-kernel.sh: $f: config fragment not found" >&2; exit 1; }
	frags+=("$(readlink -f "$f")")
done
set -- "${frags[@]+"${frags[@]}"}"

# The configuration depends only on the fragments and on Kconfig files the
# series changed: when both are as last time, keep .config (and its time
# stamp) as it is, so kbuild does not even rerun syncconfig.
stamp=$( { cat "$@" </dev/null; git -C "$tree" diff sm-base HEAD -- '*Kconfig*' 2>/dev/null; } |
	sha256sum | cut -d' ' -f1)
if [ -f "$obj/.config" ] && [ "$(cat "$obj/.sm-config-stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "== config: unchanged"
else
	rm -f "$obj/.sm-config-stamp"
	[ -f "$obj/.config" ] && cp -p "$obj/.config" "$obj/.config.prev"
	echo "== config: tinyconfig $*"
	# (kconfig's "override: ... changes choice state" notes are expected)
	quiet() { "$@" 2>&1 >/dev/null | { grep -v 'warning: override: .* changes choice state' || true; } >&2; }
	quiet mk tinyconfig
	if [ $# -gt 0 ]; then
		(cd "$obj" && quiet sh "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" \
			"$obj/.config" "$@")
	fi
	quiet mk olddefconfig

	# Every fragment line must have survived: kconfig silently drops a
	# symbol whose dependencies are missing, which would test the wrong
	# kernel.
	status=0
	for f in "$@"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=n) want="# ${line%=n} is not set" ;;
			CONFIG_*=*) want=$line ;;
			*) continue ;;
			esac
			grep -qxF "$want" "$obj/.config" || {
				echo "build-kernel.sh: $f: '$line' not set in the final .config (missing dependency?)" >&2
				status=1
			}
		done <"$f"
	done
	[ $status -eq 0 ] || exit 1
	# Same content as the last build: keep the old file and time stamp.
	if [ -f "$obj/.config.prev" ] && cmp -s "$obj/.config" "$obj/.config.prev"; then
		mv -f "$obj/.config.prev" "$obj/.config"
	else
		rm -f "$obj/.config.prev"
	fi
	echo "$stamp" >"$obj/.sm-config-stamp"
fi

echo "== build: $image (ARCH=$arch, -j$jobs${wrap:+, $wrap})"
mk -j"$jobs" "$image"
echo "== build: headers"
mk -j"$jobs" headers >/dev/null
echo "== built $obj/$image_path"
