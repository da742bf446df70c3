#!/usr/bin/env bash
# dashboard.sh: `stablemate dashboard` on the sample repository, read back by
# a real headless Chromium. The bot's state has queued mails (the SMTP port
# is closed, so `report` composes and keeps them queued), the notes hold one
# review whose comment carries markup, and STATE/boot/ holds a boot result.
# The test loads the pages with Chromium (--dump-dom: the DOM after the
# filter script ran), checks what they show, checks that the review's
# markup is shown as text and not run, and keeps a screenshot as an
# artefact: $SM_ARTIFACTS (default: tests/artifacts/ in the build directory).
. "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || skip "no chromium (Debian package chromium)"
artifacts=${SM_ARTIFACTS:-${SM_BUILDDIR:-$SM_SRCDIR/build}/tests/artifacts}
mkdir -p "$artifacts"

cd "$TMP"
"$SM_SRCDIR/bot/sample-repo.sh" "$SM_SRCDIR/sample/bot/commits" linux >/dev/null
"$SM_SRCDIR/bot/sample-conf.sh" v6.1..v6.2 > bot.conf
cat >> bot.conf <<CONF
[bot]
	from = Stable Bot <stablebot@example.org>
	stateDir = state
	cacheDir = cache
[smtp]
	host = 127.0.0.1
	port = 9
[subscriber "greg"]
	address = Greg Kroah-Hartman <greg@example.org>
	trees = linux-6.1.y
CONF
"$STABLEMATE" report --config bot.conf >report.out 2>&1 && fail "report sent to a closed port"
nq=$(ls state/queue | wc -l)
[ "$nq" -gt 0 ] || fail "no mail queued: $(cat report.out)"

# one review, on the READ/WRITE_ONCE fix, with markup in its comment
up=$(git -C linux log --format=%H --grep='READ/WRITE_ONCE' v6.1..v6.2)
[ -n "$up" ] || fail "sample commit not found"
cat > review.txt <<'NOTE'
Review: <20240102153012.GA1@roeck-us.net>
Tree: 6.1
Author: Guenter Roeck <linux@roeck-us.net>
Date: Tue, 2 Jan 2024 07:30:12 -0800
Subject: Re: [PATCH 6.1 02/05] hwmon: (max16065) Use READ/WRITE_ONCE
Trailers:
  Reviewed-by: Guenter Roeck <linux@roeck-us.net>
Comment:
    Tested on my board. <script>document.title='owned'</script><b>bold?</b>

Review: <20240102160000.1@evil.example>
Tree: 6.1
Author: Greg Kroah-Hartman <attacker@evil.example>
Date: Tue, 2 Jan 2024 08:00:00 -0800
Subject: Re: [PATCH 6.1 02/05] hwmon: (max16065) Use READ/WRITE_ONCE
Unverified:
  Reviewed-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> (sent by Greg Kroah-Hartman <attacker@evil.example>)

Review: <20260301011739.1671643-1-sashal@kernel.org>
Tree: 6.18
Author: Sasha Levin <sashal@kernel.org>
Date: Sat, 28 Feb 2026 20:17:39 -0500
Subject: FAILED: Patch "hwmon: (max16065) Use READ/WRITE_ONCE" failed to apply to 6.18-stable tree
Notice: failed to apply
NOTE
"$STABLEMATE" notes add "$up" review.txt --repo linux >/dev/null
mkdir -p state/boot
printf '{"verdict":"regressed","summary":"1 of 4 tests regressed","bisected":"0002-bad.patch"}\n' \
	> state/boot/linux-6.1.y.json

# a withdrawal the bot sent (bot/state.h's sent.log form)
echo "greg $up linux-6.1.y:withdrawn withdrawal-1@example.org 1796678940" >> state/sent.log
"$STABLEMATE" dashboard --config bot.conf --out "site/" >dash.out || fail "dashboard: $(cat dash.out)"
grep -q '^dashboard: 2 trees, .* 1 reviews' dash.out || fail "summary: $(cat dash.out)"
for f in index.html tree-linux-6.1.y.html tree-linux-5.15.y.html style.css filter.js "c/$up.html"; do
	[ -s "site/$f" ] || fail "site/$f not written"
done

chrome() {
	"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TMP/chrome-profile" "$@" 2>>"$TMP/chrome.err"
}
chrome --dump-dom "file://$TMP/site/index.html" > index.dom
[ -s index.dom ] || fail "chromium printed no DOM: $(tail -5 chrome.err)"
# what the maintainer sees on the index
grep -q '<a href="tree-linux-6.1.y.html">linux-6.1.y</a>' index.dom || fail "tree link missing"
grep -q 'regressed: 1 of 4 tests regressed (first bad patch: 0002-bad.patch)' index.dom ||
	fail "boot result missing"
rows=$(grep -c '<tr class="candidate"' index.dom)
# (4 per tree: with the learned model 07-hwmon-of-node scores -110, just
# under the candidate line of -107, and is a maybe)
[ "$rows" -eq 8 ] || fail "expected 8 candidate rows (4 per tree), got $rows"
grep -q "queued for 1" index.dom || fail "mail state (queued) missing"
grep -q "1 reply, 1 ack" index.dom || fail "review count missing"
# the filter box exists only after the script ran: proof Chromium ran it
grep -q '<input id="filter" type="search"' index.dom || fail "filter script did not run"

chrome --dump-dom "file://$TMP/site/c/$up.html" > cand.dom
grep -q "Reviewed-by: Guenter Roeck" cand.dom || fail "review trailer missing on the candidate page"
grep -q 'queued for 1, <span class="nak">withdrawn for 1</span>' cand.dom || fail "the withdrawal is not in the mail state"
# a trailer sent in another's name is shown as such and counted as no ack
grep -q 'unverified, not counted: Reviewed-by: Greg Kroah-Hartman &lt;gregkh@linuxfoundation.org&gt; (sent by' cand.dom ||
	fail "unverified trailer not shown as unverified"
# the stable queue's notice: shown, and no reply (the index says "1 reply")
grep -q 'for 6.18</span> <span class="notice">stable queue: failed to apply</span>' cand.dom ||
	fail "the stable queue's notice is not shown as one"
grep -q 'href="https://lore.kernel.org/r/20240102153012.GA1@roeck-us.net"' cand.dom ||
	fail "thread link missing"
grep -q "git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=$up" cand.dom ||
	fail "upstream commit link missing"
# the review's markup is text: escaped in the DOM, the script never ran
grep -q '&lt;script&gt;' cand.dom || fail "review markup not escaped"
grep -q '<title>owned</title>' cand.dom && fail "review markup was executed"
grep -q '<b>bold?</b>' cand.dom && fail "review markup became an element"

chrome --window-size=1200,900 --screenshot="$artifacts/dashboard.png" "file://$TMP/site/index.html" >/dev/null
[ -s "$artifacts/dashboard.png" ] || fail "no screenshot"
echo "ok: dashboard read back by Chromium ($rows rows, review, boot, mail state); screenshot $artifacts/dashboard.png"
