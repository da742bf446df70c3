#!/usr/bin/env bash
# boot_alsa.sh: the real build-and-boot of the project's kernel series.
# kernel-patches/ (the timer-tread-padding selftest on plain 6.1, which has
# the fix) must PASS; kernel-patches/negative/ (the same plus a patch that
# removes the memset again) must FAIL on exactly the padding subtests, showing
# gcc's 0xfe stack pattern (CONFIG_INIT_STACK_ALL_PATTERN) in the padding.
# The second run reuses the first one's build (only sound/core/timer.c and
# the link are redone). Skips under the sanitizers (a kernel build proves
# nothing about our C) and without Debian's linux-source-6.1.
set -euo pipefail
[ "${SM_TESTS_SANITIZED:-0}" = 1 ] && { echo "SKIP: kernel build under sanitizers"; exit 77; }
[ -r /usr/src/linux-source-6.1.tar.xz ] || { echo "SKIP: no /usr/src/linux-source-6.1.tar.xz"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "SKIP: no qemu-system-x86_64"; exit 77; }

. "${SM_SRCDIR:?}/tests/lib.sh"
src=$SM_SRCDIR sm=${STABLEMATE:?} work=$TMP

# positive: PASS, exit 0, all four subtests ok
"$sm" boot --series "$src/kernel-patches" --run-dir "$work/pos" --json >"$work/pos.json" ||
	{ cat "$work/pos.json"; tail -30 "$work/pos/serial.log" 2>/dev/null; fail "positive run did not pass"; }
jq -e '.verdict == "pass" and .finished and (.kernel_events | length) == 0
	and .tests[0].name == "alsa:timer-tread-padding" and .tests[0].status == "pass"
	and ([.tests[0].subtests[] | select(.status == "pass")] | length) == 4' \
	"$work/pos.json" >/dev/null || { cat "$work/pos.json"; fail "positive result"; }
grep -q "^# ok 3 resolution event padding is zero" "$work/pos/serial.log" || fail "no KTAP in serial.log"

# A fresh machine whose /dev/kvm opens but whose KVM guests stall: a
# qemu-system-x86_64 first on PATH gives a KVM guest that prints nothing
# (TCG runs the real QEMU), and SM_KVM_DEVICE a device that "opens". The
# stage must notice within the probe time, rerun on TCG, pass, and say so.
mkdir -p "$work/bin"
cat >"$work/bin/qemu-system-x86_64" <<'WRAP'
#!/bin/sh
case " $* " in *" -accel kvm "*) exec sleep 600 ;; esac
PATH=${PATH#*:} exec qemu-system-x86_64 "$@"
WRAP
chmod 755 "$work/bin/qemu-system-x86_64"
: >"$work/kvm"
PATH=$work/bin:$PATH SM_KVM_DEVICE=$work/kvm SM_BOOT_KVM_PROBE=5 \
	"$sm" boot --series "$src/kernel-patches" --run-dir "$work/stall" --json \
	>"$work/stall.json" 2>"$work/stall.err" ||
	{ cat "$work/stall.json" "$work/stall.err"; fail "stalling KVM: run did not pass on TCG"; }
jq -e '.verdict == "pass" and .accel == "tcg"
	and .accel_reason == "KVM guest made no progress (no '"'stablemate-init: start'"' on the serial console in 5 s), fell back to tcg"' \
	"$work/stall.json" >/dev/null || { cat "$work/stall.json"; fail "stalling KVM result"; }
grep -qx "stablemate boot: accel tcg: KVM guest made no progress .*, fell back to tcg" "$work/stall.err" ||
	{ cat "$work/stall.err"; fail "stalling KVM: no stderr line"; }
rc=0
PATH=$work/bin:$PATH SM_KVM_DEVICE=$work/kvm SM_BOOT_KVM_PROBE=5 \
	"$sm" boot --series "$src/kernel-patches" --run-dir "$work/stall2" --accel kvm \
	>"$work/stall2.out" 2>"$work/stall2.err" || rc=$?
[ $rc -eq 1 ] && grep -qx "stablemate boot: --accel kvm: the guest made no progress: .*" "$work/stall2.err" ||
	{ cat "$work/stall2.err"; fail "--accel kvm on a stalling KVM: exit $rc, expected a loud failure"; }

# negative: the selftest must see the leak: exit 1, verdict fail, the two
# padding subtests fail, the two "received" ones pass, 0xaa bytes reported
set +e
"$sm" boot --series "$src/kernel-patches/negative" --run-dir "$work/neg" --json >"$work/neg.json"
rc=$?
set -e
[ $rc -eq 1 ] || { cat "$work/neg.json"; fail "negative run exit $rc, expected 1"; }
jq -e '.verdict == "fail" and .finished and (.patches | length) == 2
	and ([.patches[] | select(.applied)] | length) == 2
	and .tests[0].status == "fail"
	and ([.tests[0].subtests[] | select(.status == "fail") | .name] ==
	     ["resolution event padding is zero", "tick event padding is zero"])' \
	"$work/neg.json" >/dev/null || { cat "$work/neg.json"; fail "negative result"; }
grep -q "^# # event 0 (resolution): pad1 fe fe fe fe, pad2 fe fe fe fe, expected zeros" "$work/neg/serial.log" ||
	{ grep "^# " "$work/neg/serial.log" | head -20; fail "leak not shown as 0xfe pattern bytes"; }

pos_b=$(jq .build_seconds "$work/pos.json") neg_b=$(jq .build_seconds "$work/neg.json")
echo "ok: positive PASS (build ${pos_b}s), stalling KVM falls back to TCG, negative FAIL with 0xfe padding (build ${neg_b}s)"
