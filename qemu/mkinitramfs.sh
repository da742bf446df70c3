#!/usr/bin/env bash
# mkinitramfs.sh OUT.cpio TESTDIR [TIMEOUT [BUSYBOX [ARCH]]]: an initramfs
# (cpio newc) with a static busybox (default /bin/busybox, Debian's
# busybox-static) of ARCH (x86_64 or arm64), qemu/init.sh as /init and the
# static test programs of TESTDIR (TESTDIR/DIR/NAME, listed in TESTDIR/list)
# in /tests.
set -euo pipefail
out=${1:?usage: mkinitramfs.sh OUT.cpio TESTDIR [TIMEOUT [BUSYBOX [ARCH]]]}
tests=${2:?usage: mkinitramfs.sh OUT.cpio TESTDIR [TIMEOUT [BUSYBOX [ARCH]]]}
limit=${3:-120}
busybox=${4:-${SM_BUSYBOX:-/bin/busybox}}
arch=${5:-x86_64}
here=$(cd "$(dirname "$0")" && pwd)

# /dev/console comes from the kernel's built-in initramfs, unpacked first.
# Static: no program interpreter; and built for the guest's machine.
case $arch in
x86_64) machine="Advanced Micro Devices X86-64" hint="install busybox-static" ;;
arm64) machine="AArch64" hint="scripts/bootstrap.sh installs Debian's busybox-static:arm64 there" ;;
*) echo "mkinitramfs.sh: $arch: not x86_64 or arm64" >&2; exit 1 ;;
esac
[ -x "$busybox" ] || { echo "mkinitramfs.sh: $busybox: no busybox ($hint)" >&2; exit 1; }
headers=$(LC_ALL=C readelf -h -l "$busybox" 2>&1 || true)
if [[ $headers == *"Requesting program interpreter"* ]] ||
	! grep -q "Machine: *$machine\$" <<<"$headers"; then
	echo "mkinitramfs.sh: $busybox: not a static $arch busybox ($hint)" >&2
	exit 1
fi

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
