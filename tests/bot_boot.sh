#!/usr/bin/env bash
# bot_boot: `stablemate run` with a [boot] section, against a real git
# mainline and a real OpenSMTPD (tests/bot_smtpd.sh), with the kernel-sized
# boot steps stood in for as in tests/boot_bisect.sh (tests/fixtures/boot-stub
# and a qemu-system-x86_64 first on PATH that "boots" the image: a test
# passes unless the image says "leak"). Two trees take the same two
# candidates: a selftest and an ALSA fix that leaks. Checks:
#  1. linux-6.1.y is booted from its steal branch: STATE/boot/linux-6.1.y.json
#     says regressed, with the ALSA patch bisected and its upstream id;
#     greg's report has the "Boot linux-6.1.y: REGRESSED" block;
#  2. stable-6.1, whose [boot "stable-6.1"] source is missing, is recorded
#     as an error, warned about in one line, and sasha's report still goes
#     out, with the error in it;
#  3. the dashboard shows the verdict;
#  4. a second run sends nothing twice and does not boot the unchanged
#     linux-6.1.y again;
#  5. a dry run boots nothing and shows the recorded result.
. "$(dirname "$0")/lib.sh"
. "$SM_SRCDIR/tests/bot_smtpd.sh"
command -v gcc >/dev/null || skip "no gcc"
smtpd_test_start

export STABLEMATE_DATADIR=$SM_SRCDIR/tests/fixtures/boot-stub
export PATH=$SM_SRCDIR/tests/fixtures/boot-stub/bin:$PATH	# its qemu-system-x86_64

# mainline: v6.1 is the stand-in tree's content; after it a selftest and an
# ALSA fix (both for stable), and a commit that is not
git init -q linux
g() { git -C linux "$@"; }
g config user.name "Upstream Dev"
g config user.email dev@example.org
mkdir -p linux/sound/core
echo ok >linux/sound/core/timer.c
g add -A && g commit -qm "Linux 6.1" && g tag v6.1
g branch linux-6.1.y && g branch stable-6.1
mkdir -p linux/tools/testing/selftests/demo
printf '#include <stdio.h>\nint main(void)\n{\n\treturn 0;\n}\n' >linux/tools/testing/selftests/demo/padding.c
g add -A && g commit -qm "selftests: demo: add the padding test

Checks that the timer event's padding is zero.

Cc: stable@vger.kernel.org
Signed-off-by: Upstream Dev <dev@example.org>"
echo leak >linux/sound/core/timer.c
g commit -qam "ALSA: timer: Fix the padding of the event

The padding was left uninitialized.

Fixes: $(g rev-parse --short=12 v6.1) (\"Linux 6.1\")
Cc: stable@vger.kernel.org
Signed-off-by: Upstream Dev <dev@example.org>"
ALSA=$(g rev-parse HEAD)
echo "docs" >linux/README && g add README && g commit -qm "docs: add a README"
g checkout -q --detach

"$SM_SRCDIR/bot/sample-conf.sh" -b master v6.1..master linux-6.1.y stable-6.1 > bot.conf
smtpd_conf >> bot.conf
cat >>bot.conf <<CONF
[bot]
	from = Stable Bot <bot@example.org>
	stateDir = state
	cacheDir = cache
[subscriber "greg"]
	address = Greg <greg@example.org>
	trees = linux-6.1.y
[subscriber "sasha"]
	address = Sasha <sasha@example.org>
	trees = stable-6.1
[boot]
	trees = linux-6.1.y stable-6.1
	tests = demo/padding
	bisect = true
	accel = tcg
	timeout = 60
	cacheDir = bootcache
[boot "stable-6.1"]
	source = $TMP/no-such-linux-source.tar.xz
CONF

echo "== 1, 2. a run boots, records, and mails"
rc=0
"$STABLEMATE" run --config bot.conf >run1.out 2>run1.err || rc=$?
# the missing source is the one error: the mails went out (exit 0 says the
# queue was emptied)
[ $rc -eq 0 ] || fail "run exited $rc: $(cat run1.out run1.err)"
grep -c "boot " run1.err | grepq -x 1 || fail "not one boot line on stderr: $(cat run1.err)"
grepq "boot stable-6.1: error: .*no-such-linux-source.tar.xz: kernel source tarball not found" run1.err ||
	fail "no error line for stable-6.1: $(cat run1.err)"
grepq "booted 1 tree (0 reused, 1 failed)" run1.out || fail "summary: $(cat run1.out)"

jq -e --arg alsa "$ALSA" '.tree == "linux-6.1.y" and .verdict == "regressed"
	and .summary == "2 regressions" and .patches == 2
	and .bisected == "0002-ALSA-timer-Fix-the-padding-of-the-event.patch"
	and .bisected_upstream == $alsa and .branch == "stablemate-boot/linux-6.1.y"
	and .regressions == ["demo:padding", "demo:padding: padding is zero"]' \
	state/boot/linux-6.1.y.json >/dev/null || { cat state/boot/linux-6.1.y.json; fail "linux-6.1.y result"; }
jq -e '.verdict == "error" and (.summary | test("kernel source tarball not found"))' \
	state/boot/stable-6.1.json >/dev/null || { cat state/boot/stable-6.1.json; fail "stable-6.1 result"; }
# the branch steal made: the tree's tip and the two candidates
[ "$(g rev-list --count linux-6.1.y..stablemate-boot/linux-6.1.y)" -eq 2 ] || fail "steal branch"
g log -1 --format=%B stablemate-boot/linux-6.1.y | grepq "^commit $ALSA upstream.$" ||
	fail "the steal branch does not end in the ALSA fix"
# 3 builds: the series, the base, one bisection step
[ "$(wc -l <bootcache/build-x86_64/builds.log)" -eq 3 ] || fail "not 3 builds: $(cat bootcache/build-x86_64/builds.log)"

maildir_wait "$MAIL/greg" 3 || fail "greg's report did not arrive"
maildir_wait "$MAIL/sasha" 3 || fail "sasha's report did not arrive despite the other tree's boot"
cover() { grep -L "^X-Stablemate-Upstream:" "$1"/new/* | head -n1; }
gc=$(cover "$MAIL/greg") sc=$(cover "$MAIL/sasha")
grepq -x "Boot linux-6.1.y: REGRESSED: 2 regressions (2 candidates on x86_64)" "$gc" ||
	{ cat "$gc"; fail "greg's report has no boot block"; }
grepq -x "  regressed: demo:padding: padding is zero" "$gc" || fail "regression not named"
grepq -x "  first bad patch: 0002-ALSA-timer-Fix-the-padding-of-the-event.patch (upstream ${ALSA:0:12})" "$gc" ||
	fail "bisected patch not named"
grepq "^Boot stable-6.1: ERROR: .*kernel source tarball not found" "$sc" ||
	{ cat "$sc"; fail "sasha's report has no boot error"; }
grepq "Boot linux-6.1.y" "$sc" && fail "sasha's report names a tree sasha does not follow"

echo "== 3. the dashboard shows the verdict"
"$STABLEMATE" dashboard --config bot.conf --out site -q >/dev/null || fail "dashboard"
grepq "regressed: 2 regressions (first bad patch: 0002-ALSA-timer-Fix-the-padding-of-the-event.patch)" \
	site/index.html || fail "dashboard: no boot verdict"

echo "== 4. a second run: nothing twice, no second boot of the same candidates"
n_greg=$(maildir_count "$MAIL/greg") n_sasha=$(maildir_count "$MAIL/sasha")
"$STABLEMATE" run --config bot.conf >run2.out 2>run2.err || fail "second run: $(cat run2.out run2.err)"
grepq "booted 0 trees (1 reused, 1 failed)" run2.out || fail "second run summary: $(cat run2.out)"
grepq "0 mails composed" run2.out || fail "second run composed mails: $(cat run2.out)"
[ "$(wc -l <bootcache/build-x86_64/builds.log)" -eq 3 ] || fail "the unchanged tree was built again"
sleep 1
[ "$(maildir_count "$MAIL/greg")" -eq "$n_greg" ] && [ "$(maildir_count "$MAIL/sasha")" -eq "$n_sasha" ] ||
	fail "a mail was sent twice"

echo "== 5. a dry run boots nothing and shows the recorded result"
# a state that has sent nothing, with the recorded boot results
mkdir -p state-dry/boot && cp state/boot/*.json state-dry/boot/
sed 's/stateDir = state/stateDir = state-dry/' bot.conf >dry.conf
"$STABLEMATE" run --config dry.conf --dry-run=dry >dry.out 2>dry.err || fail "dry run: $(cat dry.err)"
[ "$(wc -l <bootcache/build-x86_64/builds.log)" -eq 3 ] || fail "the dry run built a kernel"
grep -rlx "Boot linux-6.1.y: REGRESSED: 2 regressions (2 candidates on x86_64, booted earlier)" dry/new >/dev/null ||
	fail "the dry run's report has no recorded boot block"
echo "ok: [boot] regressed + bisected in the report and STATE/boot, the other tree's error did not stop its mail, no mail twice, dry run"
