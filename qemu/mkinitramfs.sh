#!/usr/bin/env bash
# mkinitramfs.sh OUT.cpio TESTDIR [TIMEOUT]: an initramfs (cpio newc) with
# Debian's static busybox, qemu/init.sh as /init and the static test
# programs of TESTDIR (TESTDIR/DIR/NAME, listed in TESTDIR/list) in /tests.
set -euo pipefail
out=${1:?usage: mkinitramfs.sh OUT.cpio TESTDIR [TIMEOUT]}
tests=${2:?usage: mkinitramfs.sh OUT.cpio TESTDIR [TIMEOUT]}
limit=${3:-120}
here=$(cd "$(dirname "$0")" && pwd)
busybox=${SM_BUSYBOX:-/bin/busybox}

# /dev/console comes from the kernel's built-in initramfs, unpacked first.
linkage=$(ldd "$busybox" 2>&1 || true)
[ -x "$busybox" ] && [[ $linkage == *"not a dynamic"* ]] ||
	{ echo "mkinitramfs.sh: $busybox: not a static busybox (install busybox-static)" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/sm-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,tests}
cp "$busybox" "$stage/bin/busybox"
cp "$here/init.sh" "$stage/init"
chmod 755 "$stage/init" "$stage/bin/busybox"
cp -R "$tests/." "$stage/tests/"
touch "$stage/tests/list"
echo "$limit" >"$stage/tests/timeout"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >"$out.tmp"
mv -f "$out.tmp" "$out"
