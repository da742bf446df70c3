#!/usr/bin/env bash
# boot_cli.sh: `stablemate boot` end to end without building a kernel:
# usage errors, a bad series, and --branch with a commit that does not apply
# to linux-6.1, which must stop the stage with the patch's name and the
# failing hunk (the real cached kernel tree is reset and `git am` runs).
set -euo pipefail
. "${SM_SRCDIR:?}/tests/lib.sh"
src=$SM_SRCDIR sm=${STABLEMATE:?} work=$TMP
expect_exit() {	# expect_exit CODE STDERR-SUBSTRING CMD...: or fail
	local code=$1 msg=$2 rc=0
	shift 2
	"$@" >"$work/out" 2>"$work/err" || rc=$?
	[ $rc -eq "$code" ] || { cat "$work/err"; fail "$*: exit $rc, expected $code"; }
	[ -z "$msg" ] || grepq -F -- "$msg" "$work/err" || { cat "$work/err"; fail "$*: no '$msg'"; }
}

"$sm" boot --help | grepq "^usage: stablemate boot" || fail "--help"
expect_exit 2 "give exactly one of --series DIR or --branch B" "$sm" boot
expect_exit 2 "--timeout: 'soon' is not a number of seconds" "$sm" boot --series x --timeout soon
expect_exit 2 "--accel: 'xen' is not kvm or tcg" "$sm" boot --series x --accel xen
expect_exit 2 "--repo and --base go with --branch" "$sm" boot --series x --repo y
expect_exit 2 "--arch: 'riscv' is not x86_64 or arm64" "$sm" boot --series x --arch riscv
expect_exit 2 "--distcc: no hosts" "$sm" boot --series x --distcc ""
expect_exit 1 "stablemate boot: $work/none: not a series directory" "$sm" boot --series "$work/none"
mkdir "$work/bad" && echo "0001-missing.patch" >"$work/bad/series"
expect_exit 1 "stablemate boot: $work/bad/series:1: $work/bad/0001-missing.patch: no such patch" \
	"$sm" boot --series "$work/bad"
expect_exit 1 "$work/frag: config fragment not found" \
	"$sm" boot --series "$src/kernel-patches" --config "$work/frag"
# relative paths, as a user types them, are the caller's directory's
(cd "$work" && expect_exit 1 "stablemate boot: $work/bad/series:1: $work/bad/0001-missing.patch: no such patch" \
	"$sm" boot --series bad)
(cd "$work" && expect_exit 1 "stablemate boot: $work/frag: config fragment not found" \
	"$sm" boot --series "$src/kernel-patches" --config ./frag)

[ -r /usr/src/linux-source-6.1.tar.xz ] || { echo "SKIP: no /usr/src/linux-source-6.1.tar.xz"; exit 77; }

# A branch whose commit expects other code in sound/core/timer.c.
repo=$work/repo
git init -q "$repo"
git -C "$repo" config user.name t
git -C "$repo" config user.email t@t
mkdir -p "$repo/sound/core"
printf 'static void f(void)\n{\n\tint old_code;\n}\n' >"$repo/sound/core/timer.c"
git -C "$repo" add . && git -C "$repo" commit -qm base && git -C "$repo" tag v6.1-test
git -C "$repo" checkout -q -b candidates
sed -i 's/old_code/new_code/' "$repo/sound/core/timer.c"
git -C "$repo" commit -qam "ALSA: timer: a change for other code"

rc=0
"$sm" boot --branch candidates --repo "$repo" --run-dir "$work/run" --json >"$work/apply.json" || rc=$?
[ $rc -eq 1 ] || { cat "$work/apply.json"; fail "apply failure: exit $rc, expected 1"; }
jq -e '.verdict == "apply-failed"
	and .patches == [{"patch": "0001-ALSA-timer-a-change-for-other-code.patch", "applied": false}]
	and .apply_failure.patch == "0001-ALSA-timer-a-change-for-other-code.patch"
	and .apply_failure.file == "sound/core/timer.c" and .apply_failure.line == 1
	and .apply_failure.hunk == "static void f(void)\n{\n\tint old_code;\n}\n"
	and .build_error == null and .serial_log == null' "$work/apply.json" >/dev/null ||
	{ cat "$work/apply.json"; fail "apply failure report"; }
[ -f "$work/run/result.json" ] || fail "no result.json in the run directory"

# the same as text: the patch by name and the hunk
rc=0
"$sm" boot --branch candidates --repo "$repo" --base v6.1-test --run-dir "$work/run2" >"$work/apply.txt" || rc=$?
[ $rc -eq 1 ] || fail "text apply failure: exit $rc"
grep -qx "boot candidates: APPLY-FAILED" "$work/apply.txt" || { cat "$work/apply.txt"; fail "text verdict"; }
grep -qx "  0001-ALSA-timer-a-change-for-other-code.patch does not apply: error: patch failed: sound/core/timer.c:1" \
	"$work/apply.txt" || { cat "$work/apply.txt"; fail "text patch line"; }
grep -qx "  | 	int old_code;" "$work/apply.txt" || { cat "$work/apply.txt"; fail "text hunk"; }
# The same commit as a series directory given relative to the caller's
# directory (git am runs in the kernel tree: the patch must still be found,
# and fail on its hunk, not with "can't open patch").
git -C "$repo" format-patch -q -o "$work/rel-series" v6.1-test..candidates
echo "CONFIG_PRINTK=y" >"$work/rel.config"
rc=0
(cd "$work" && "$sm" boot --series rel-series --config rel.config --run-dir rel-run --json) \
	>"$work/rel.json" 2>"$work/rel.err" || rc=$?
[ $rc -eq 1 ] || { cat "$work/rel.json" "$work/rel.err"; fail "relative series: exit $rc, expected 1"; }
jq -e --arg w "$work" '.verdict == "apply-failed" and .name == "rel-series"
	and .apply_failure.file == "sound/core/timer.c" and .apply_failure.line == 1
	and .configs == [$w + "/rel.config"] and .run_dir == $w + "/rel-run"' \
	"$work/rel.json" >/dev/null || { cat "$work/rel.json"; fail "relative series report"; }
[ -f "$work/rel-run/result.json" ] || fail "relative --run-dir: no result.json"
echo "ok: usage errors, bad series, relative paths, apply failure by patch and hunk"
