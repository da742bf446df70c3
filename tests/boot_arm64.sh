#!/usr/bin/env bash
# boot_arm64.sh: kernel-patches/ (PASS) and kernel-patches/negative/ (FAIL on
# the padding subtests) built for arm64 with aarch64-linux-gnu-gcc and booted
# in qemu-system-aarch64 -M virt, in the arm64 tree and build cache.
# A cold arm64 build takes ~8 min of CPU, 49 min on the shared 2-core machine
# (README, "Tests"), too much for CI next to the cold x86_64 build: only with
# SM_BOOT_ARM64=1 (and skips under the sanitizers and without the packages).
set -euo pipefail
[ "${SM_TESTS_SANITIZED:-0}" = 1 ] && { echo "SKIP: kernel build under sanitizers"; exit 77; }
[ "${SM_BOOT_ARM64:-0}" = 1 ] || { echo "SKIP: arm64 kernel build (set SM_BOOT_ARM64=1)"; exit 77; }
[ -r /usr/src/linux-source-6.1.tar.xz ] || { echo "SKIP: no /usr/src/linux-source-6.1.tar.xz"; exit 77; }
for p in qemu-system-aarch64 aarch64-linux-gnu-gcc; do
	command -v $p >/dev/null || { echo "SKIP: no $p"; exit 77; }
done
. "${SM_SRCDIR:?}/tests/lib.sh"
src=$SM_SRCDIR sm=${STABLEMATE:?} work=$TMP

"$sm" boot --arch arm64 --series "$src/kernel-patches" --run-dir "$work/pos" --json >"$work/pos.json" ||
	{ cat "$work/pos.json"; tail -30 "$work/pos/serial.log" 2>/dev/null; fail "arm64 positive run did not pass"; }
jq -e '.verdict == "pass" and .arch == "arm64" and .compiler == "aarch64-linux-gnu-gcc"
	and .accel == "tcg" and .tests[0].status == "pass"
	and ([.tests[0].subtests[] | select(.status == "pass")] | length) == 4' \
	"$work/pos.json" >/dev/null || { cat "$work/pos.json"; fail "arm64 positive result"; }
grep -q "Machine model: linux,dummy-virt" "$work/pos/serial.log" || fail "not booted on -M virt"

rc=0
"$sm" boot --arch arm64 --series "$src/kernel-patches/negative" --run-dir "$work/neg" --json \
	>"$work/neg.json" || rc=$?
[ $rc -eq 1 ] || { cat "$work/neg.json"; fail "arm64 negative run exit $rc, expected 1"; }
jq -e '.verdict == "fail" and .arch == "arm64"
	and ([.tests[0].subtests[] | select(.status == "fail") | .name] ==
	     ["resolution event padding is zero", "tick event padding is zero"])' \
	"$work/neg.json" >/dev/null || { cat "$work/neg.json"; fail "arm64 negative result"; }
echo "ok: arm64 positive PASS (build $(jq .build_seconds "$work/pos.json")s, boot $(jq .boot_seconds "$work/pos.json")s), negative FAIL"
