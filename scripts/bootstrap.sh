# bootstrap.sh: sourced by run-demo and run-tests. Installs the Debian 12
# packages stablemate needs (when missing and we may), then builds it in
# $SM_BUILD (default build/) with autoreconf/configure/make.
set -euo pipefail

SM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SM_BUILD=${SM_BUILD:-$SM_TOP/build}

# Build and library packages, plus what the end-to-end tests start for real:
# notmuch, OpenSMTPD, git, QEMU, busybox and the 6.1 kernel source.
SM_PACKAGES="build-essential autoconf automake libtool pkg-config git
 libgit2-dev libnotmuch-dev notmuch libgmime-3.0-dev libcurl4-openssl-dev
 libpcre2-dev zlib1g-dev check python3 jq curl opensmtpd time
 clang libclang-rt-14-dev
 qemu-system-x86 busybox-static cpio xz-utils bc bison flex libelf-dev libssl-dev
 linux-source-6.1
 chromium scdoc man-db bash-completion
 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm distcc ccache python3-jsonschema"

# `stablemate boot --arch arm64` packs an arm64 static busybox into its
# initramfs. Debian's busybox-static is not Multi-Arch: same, so installing
# busybox-static:arm64 would remove the amd64 one the x86_64 boots need:
# the arm64 package is downloaded (dpkg multiarch gives apt its index) and
# only its binary unpacked here.
SM_BUSYBOX_ARM64_PATH=/usr/local/lib/stablemate/busybox-arm64

sm_install_packages() {
	local missing=()
	for p in $SM_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$p")
	done
	local sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	[ ${#missing[@]} -eq 0 ] && { sm_install_busybox_arm64; return 0; }
	echo "stablemate: installing Debian packages: ${missing[*]}"
	# OpenSMTPD must not start a system-wide server on port 25 for us: the
	# tests start their own on loopback.
	$sudo sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d'
	$sudo apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
	$sudo rm -f /usr/sbin/policy-rc.d
	sm_install_busybox_arm64
}

sm_install_busybox_arm64() {
	[ -x "$SM_BUSYBOX_ARM64_PATH" ] && return 0
	local sudo="" tmp
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "stablemate: unpacking Debian's busybox-static:arm64 into $SM_BUSYBOX_ARM64_PATH"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		$sudo dpkg --add-architecture arm64
		$sudo apt-get update -q >/dev/null
	fi
	tmp=$(mktemp -d)
	chmod 777 "$tmp"
	(cd "$tmp" && apt-get download -q busybox-static:arm64 >/dev/null 2>&1) &&
		dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$tmp/x" &&
		$sudo install -D -m 755 "$tmp/x/bin/busybox" "$SM_BUSYBOX_ARM64_PATH" ||
		echo "stablemate: could not get busybox-static:arm64 (--arch arm64 boots need it)" >&2
	rm -rf "$tmp"
}

sm_build() {
	cd "$SM_TOP"
	if [ ! -x configure ] || [ configure.ac -nt configure ]; then
		# quiet when it works, loud when it does not
		autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
	fi
	mkdir -p "$SM_BUILD"
	cd "$SM_BUILD"
	if [ ! -f Makefile ] || [ "$SM_TOP/configure" -nt Makefile ]; then
		"$SM_TOP/configure" -q ${SM_CONFIGURE_FLAGS:-} >/dev/null
	fi
	make -s -j"$(nproc)" >/dev/null
	cd "$SM_TOP"
}
