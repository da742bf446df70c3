#!/usr/bin/env bash
# bot_e2e: the whole bot loop against real parts: a real OpenSMTPD on
# 127.0.0.1 delivering into Maildirs, a real notmuch database over the
# list's Maildir, a real git mainline with release tags and two stable
# branches (bot/sample-repo.sh over sample/bot/commits). Checks:
#  1. the subscribers' Maildirs get their reports with the right candidates,
#     threading and headers;
#  2. a reviewer's reply to one patch becomes a note on the upstream commit,
#     and the rerun sends no second report;
#  3. with the server stopped, mails stay queued and go out on the next run,
#     once; the daemon backs off while it is down and stops cleanly on SIGTERM;
#  4. a refused subscriber does not stop the others;
#  5. two concurrent runs on one state directory send each mail once;
#  6. a run killed between a message and its 250 (tests/smtp_sink.py): the
#     mail in doubt is recorded as sent when its Message-ID is in the notmuch
#     database, else sent again under the same Message-ID.
. "$(dirname "$0")/lib.sh"
. "$SM_SRCDIR/tests/bot_smtpd.sh"
command -v notmuch >/dev/null || skip "notmuch is not installed"
smtpd_test_start refused@example.org
LIST=$MAIL/stable-list

"$SM_SRCDIR/bot/sample-repo.sh" "$SM_SRCDIR/sample/bot/commits" "$TMP/linux" >/dev/null
up() { git -C "$TMP/linux" log --format='%H %s' master | grep -F " $1" | head -n1 | cut -d' ' -f1; }
OCC=$(up "hwmon: (occ) Fix division by zero")
ONCE=$(up "hwmon: (max16065) Use READ/WRITE_ONCE")
ALSA=$(up "ALSA: timer: Fix leak")
OFNODE=$(up "hwmon: (core) add thermal sensors only")
ACPI=$(up "hwmon: (acpi_power_meter)")
EMC=$(up "hwmon: (emc2305) fix device node refcount leak")
SENSORS=$(up "hwmon (occ): Add sensor types and versions")	# OCC's Fixes: target

# A commit on mainline's master after v6.2 from a fixture file.
add_commit() {
	local f=$1 file
	file=$(sed -n 's/^File: //p;/^$/q' "$f")
	( cd "$TMP/linux" && mkdir -p "$(dirname "$file")" &&
	  printf '/* %s */\nstatic int extra_%s;\n' "$(sed '1,/^$/d' "$f" | sed -n 1p)" "$(basename "$f" .txt | tr - _)" >> "$file" && git add "$file" &&
	  sed '1,/^$/d' "$f" | git commit -q --author="$(sed -n 's/^Author: //p;/^$/q' "$f")" -F - &&
	  git rev-parse HEAD )
}

mkdir -p "$LIST"/{new,cur,tmp}
chmod -R 777 "$LIST"  # smtpd delivers as nobody
printf '[database]\npath=%s\n[new]\ntags=new\n' "$LIST" > notmuch-config
export NOTMUCH_CONFIG=$TMP/notmuch-config
notmuch new >/dev/null

"$SM_SRCDIR/bot/sample-conf.sh" -b master v6.1..master > bot.conf
smtpd_conf >> bot.conf
cat >> bot.conf <<CONF
[notmuch]
	database = $LIST
	query = (to:stable-list@example.org or cc:stable-list@example.org) and not tag:stablemate-harvested
[bot]
	from = Stäble Bot <bot@example.org>
	listId = Stable candidates <candidates.example.org>
	cc = Stable review list <stable-list@example.org>
	stateDir = state
	cacheDir = cache
[subscriber "greg"]
	address = Greg Kroah-Hartman <greg@example.org>
	trees = linux-6.1.y
[subscriber "sasha"]
	address = Sasha Levin <sasha@example.org>
	trees = linux-6.1.y, linux-5.15.y
	minVerdict = maybe
	paths = drivers/hwmon/
CONF

hdr() { sed -n "/^\$/q;/^$2: /I{s///p;q}" "$1"; }
# cover_of DIR SUB: the report itself (the one mail without an upstream id).
cover_of() {
	local f
	for f in "$1"/new/* "$1"/cur/*; do
		[ -f "$f" ] && [ -z "$(hdr "$f" X-Stablemate-Upstream)" ] &&
			[ "$(hdr "$f" X-Stablemate-Subscriber)" = "$2" ] && echo "$f"
	done
	return 0
}
# mail_with DIR HEADER VALUE...: the files whose headers match all pairs.
mail_with() {
	local dir=$1; shift
	local f ok
	for f in "$dir"/new/* "$dir"/cur/*; do
		[ -f "$f" ] || continue
		ok=1
		set -- "$@"
		local a=("$@") i
		for ((i = 0; i < ${#a[@]}; i += 2)); do
			[ "$(hdr "$f" "${a[i]}")" = "${a[i+1]}" ] || ok=0
		done
		[ $ok = 1 ] && echo "$f"
	done
	return 0
}

# The picks the bot must make, from the scan's own verdicts (the classifier's
# weights change as its rules are tuned): "subscriber tree id" lines for
# greg (6.1, candidates) and sasha (6.1 and 5.15, maybes too, drivers/hwmon/).
picks_of() { # MIN-VERDICT-REGEX TREE PATH-PREFIX SUBSCRIBER
	$STABLEMATE scan --upstream linux --range v6.1..master --tree linux-6.1.y --tree linux-5.15.y \
		--check-applies --no-cache --json |
	jq -r --arg t "$2" --arg re "$1" \
		'.commits[] | select(any(.trees[]; .name == $t and (.present | not) and (.verdict.verdict | test($re)))) | .id' |
	while read -r id; do
		git -C linux show --name-only --format= "$id" | grepq "^$3" && echo "$4 $2 $id"
	done
	return 0
}
all_picks() {
	{ picks_of '^candidate$' linux-6.1.y "" greg
	  picks_of '^(candidate|maybe)$' linux-6.1.y drivers/hwmon/ sasha
	  picks_of '^(candidate|maybe)$' linux-5.15.y drivers/hwmon/ sasha; } | sort
}
# mails_for PICKS-FILE SUB: a cover plus one patch per pick, or nothing.
mails_for() { local n; n=$(grep -c "^$2 " "$1" || true); [ "$n" -eq 0 ] && echo 0 || echo $((n + 1)); }

echo "== 1. first run: reports go out"
all_picks > picks1
grep -q "^greg linux-6.1.y $OCC" picks1 && grep -q "^greg linux-6.1.y $ONCE" picks1 ||
	fail "the scan no longer finds the sample's two tagged fixes: $(cat picks1)"
grep -q " linux-6.1.y $EMC" picks1 && fail "$EMC is already in linux-6.1.y"
grep -q "linux-5.15.y $OFNODE" picks1 && fail "5.15 never had the bug $OFNODE fixes"
grep -q "^sasha .* $ALSA" picks1 && fail "sasha only follows drivers/hwmon/"
NG=$(mails_for picks1 greg) NS=$(mails_for picks1 sasha)
$STABLEMATE run --config bot.conf > run1.out 2> run1.err || { cat run1.err; fail "first run failed"; }
grep -q "$(wc -l < picks1) new candidates for 2 subscribers; $((NG + NS)) mails composed, $((NG + NS)) sent" run1.out ||
	fail "unexpected summary: $(cat run1.out), expected $(wc -l < picks1) picks"
maildir_wait "$MAIL/greg" "$NG" || fail "greg got $(maildir_count "$MAIL/greg") mails, not $NG"
maildir_wait "$MAIL/sasha" "$NS" || fail "sasha got $(maildir_count "$MAIL/sasha") mails, not $NS"
maildir_wait "$LIST" $((NG + NS)) || fail "the list got $(maildir_count "$LIST") mails, not $((NG + NS))"
sleep 1
[ "$(maildir_count "$MAIL/greg")" -eq "$NG" ] || fail "greg got more than $NG mails"
for line in $(awk '{print $1 ":" $2 ":" $3}' picks1); do
	IFS=: read -r sub tree id <<<"$line"
	n=$(mail_with "$MAIL/$sub" X-Stablemate-Upstream "$id" X-Stablemate-Tree "$tree" | grep -c . || true)
	[ "$n" -eq 1 ] || fail "$sub got $n patch mails for $id in $tree"
done
cover=$(cover_of "$MAIL/greg" greg)
[ -n "$cover" ] || fail "no cover letter for greg"
ng=$(grep -c "^greg " picks1)
grep -q "^Subject: \[PATCH 6.1 00/0$ng\] stablemate: $ng new stable candidates for linux-6.1.y" "$cover" ||
	fail "cover subject: $(hdr "$cover" Subject)"
[ "$(hdr "$cover" List-Id)" = "Stable candidates <candidates.example.org>" ] || fail "List-Id"
grep -q '^From: =?UTF-8?b?' "$cover" || fail "From: name not RFC 2047-encoded: $(hdr "$cover" From)"
for id in $OCC $ONCE $ALSA $OFNODE $EMC $ACPI; do
	if grep -q "^greg linux-6.1.y $id" picks1; then
		grep -q "upstream: $id" "$cover" || fail "cover lacks $id"
	else
		grep -q "upstream: $id" "$cover" && fail "cover lists $id, not a candidate for greg"
	fi
done
grep -q "linux-5.15.y   already there as\|linux-6.1.y    already there as" "$cover" || grepq "upstream: $EMC" "$cover" && fail "greg's cover lists $EMC, already in 6.1"
if grep -q "^greg linux-6.1.y $OFNODE" picks1; then
	sed -n "/upstream: $OFNODE/,/reviews:/p" "$cover" | grepq "linux-5.15.y   not needed: .*after 5.15" ||
		fail "the cover does not say why 5.15 does not need $OFNODE"
fi
# why: each reason with its weight, as classify prints them; they add up to the score
sed -n "/upstream: $OCC/,/bug since:/p" "$cover" > "$TMP/why.txt"
grepq -E "^ +\+[0-9]+  fixes-tag +${SENSORS:0:12}" "$TMP/why.txt" || fail "why lists no weighted Fixes: $(cat "$TMP/why.txt")"
score=$(sed -n 's/^   why: *[a-z]* (score \(-*[0-9]*\))$/\1/p' "$TMP/why.txt")
sum=$(awk '$1 ~ /^[-+][0-9]+$/ { s += $1 } END { print s + 0 }' "$TMP/why.txt")
[ -n "$score" ] && [ "$sum" = "$score" ] || fail "why: the weights add up to $sum, the score is $score"
cover_id=$(hdr "$cover" Message-Id)
patch=$(mail_with "$MAIL/greg" X-Stablemate-Upstream "$OCC")
[ -n "$patch" ] || fail "no patch mail for $OCC"
[ "$(hdr "$patch" In-Reply-To)" = "$cover_id" ] || fail "patch not threaded under the cover"
[ "$(hdr "$patch" X-Stablemate-Tree)" = "linux-6.1.y" ] || fail "X-Stablemate-Tree"
grep -q "^Subject: \[PATCH 6.1 0[1-9]/0$ng\] hwmon: (occ) Fix division by zero issue" "$patch" ||
	fail "patch subject: $(hdr "$patch" Subject)"
[ "$(sed '1,/^$/d' "$patch" | sed -n 1p)" = "commit $OCC upstream." ] || fail "patch body does not start with the upstream line"
grep -q '^diff --git a/drivers/hwmon/occ/common.c' "$patch" || fail "patch has no diff"
# the commit's message between the upstream line and the diff (the bot's
# scan keeps the bodies that `stablemate scan` frees once judged)
grep -q '^The code in occ_get_powr_avg() invokes div64_u64() without checking the$' "$patch" ||
	fail "patch mail does not carry the commit's message"
ls state/queue | grepq . && fail "mails left in the queue"
[ "$(wc -l < state/sent.log)" -eq "$(wc -l < picks1)" ] || fail "sent.log has $(wc -l < state/sent.log) lines, not $(wc -l < picks1)"

echo "== 2. a reviewer's reply becomes a note; no second report"
notmuch new >/dev/null
lpatch=$(mail_with "$LIST" X-Stablemate-Upstream "$OCC" X-Stablemate-Subscriber greg)
subj=$(hdr "$lpatch" Subject)
pid=$(hdr "$lpatch" Message-Id)
cat > "$LIST/new/reply-eddie.eml" <<MAILEOF
From: Eddie James <eajames@linux.ibm.com>
To: Stable Bot <bot@example.org>
Cc: stable-list@example.org
Subject: Re: $subj
Date: Thu, 03 Dec 2026 10:00:00 +0000
Message-ID: <reply-occ-1@linux.ibm.com>
In-Reply-To: $pid
References: $(hdr "$lpatch" In-Reply-To) $pid

On Thu, Dec 03, 2026, Stable Bot wrote:
> commit $OCC upstream.
>
> The code in occ_get_powr_avg() invokes div64_u64() without checking the
> divisor.
> Reviewed-by: Someone Quoted <quoted@example.org>

Needed on 6.1 too: the P9 OCC firmware reports zero samples right after boot.

Reviewed-by: Eddie James <eajames@linux.ibm.com>

Thanks,
Eddie
MAILEOF
# The stable queue's notice that the fix does not apply to 5.15, with the
# original pasted as format-patch writes it: recorded on the same note.
{ cat <<MAILEOF
From: Sasha Levin <sashal@kernel.org>
To: stable-list@example.org
Subject: FAILED: Patch "hwmon: (occ) Fix division by zero issue" failed to apply to 5.15-stable tree
Date: Thu, 03 Dec 2026 09:00:00 +0000
Message-ID: <20261203090000.failed-5.15@kernel.org>

The patch below does not apply to the 5.15-stable tree.
If someone wants it applied there, or to any other stable or longterm
tree, then please email the backport, including the original git commit
id to <stable@vger.kernel.org>.

Possible dependencies:

${OCC:0:12} ("hwmon: (occ) Fix division by zero issue")
b5c46a53c8d4 ("hwmon: (occ) Add soft minimum power cap attribute")

thanks,

greg k-h

------------------ original commit in Linus's tree ------------------

MAILEOF
git -C linux format-patch -1 --stdout "$OCC"; } > "$LIST/new/failed-occ.eml"
notmuch new >/dev/null
$STABLEMATE run --config bot.conf > run2.out 2> run2.err || { cat run2.err; fail "second run failed"; }
grep -q "0 new candidates" run2.out || fail "second run found candidates: $(cat run2.out)"
grep -q "1 new stable-queue notice;" run2.out || fail "the FAILED notice went unrecorded: $(cat run2.out)"
note=$(git -C linux notes --ref=stable-review show "$OCC") || fail "no note on $OCC"
grep -q "Reviewed-by: Eddie James <eajames@linux.ibm.com>" <<<"$note" || fail "note lacks the Reviewed-by: $note"
grep -q "zero samples right after boot" <<<"$note" || fail "note lacks the comment: $note"
grep -q "quoted@example.org" <<<"$note" && fail "a quoted trailer went into the note"
git -C linux log --notes=stable-review -1 "$OCC" | grepq "Reviewed-by: Eddie James" || fail "git log --notes"
grep -q "^Notice: failed to apply$" <<<"$note" && grep -q "^Tree: 5.15$" <<<"$note" ||
	fail "note lacks the FAILED notice for 5.15: $note"
sleep 1
[ "$(maildir_count "$MAIL/greg")" -eq "$NG" ] || fail "greg got a second report"
[ "$(maildir_count "$MAIL/sasha")" -eq "$NS" ] || fail "sasha got a second report"

echo "== 3. server down: queued, sent on the next run, once"
NEW1=$(add_commit "$SM_SRCDIR/tests/fixtures/bot/extra-1.txt")
all_picks > picks2
comm -13 picks1 picks2 > new2
grep -q "^greg linux-6.1.y $NEW1" new2 || fail "fixture extra-1 is no longer a candidate for 6.1: $(cat new2)"
NG2=$(mails_for new2 greg) NS2=$(mails_for new2 sasha)
smtpd_stop
if $STABLEMATE run --config bot.conf > run3.out 2> run3.err; then fail "run with the server down succeeded"; fi
grep -q "left in .*state/queue for the next run" run3.err || fail "no clear error: $(cat run3.err)"
[ "$(wc -l < run3.err)" -eq 1 ] || fail "more than one error line: $(cat run3.err)"
nq=$(ls state/queue | wc -l)
[ "$nq" -eq $((NG2 + NS2)) ] || fail "$nq mails queued, not $((NG2 + NS2))"
# The report with the new candidate now appears in the notes-aware cover: the
# daemon retries with backoff while the server is down...
$STABLEMATE daemon --config bot.conf --interval 60 --retry 1 --max-backoff 2 > daemon.log 2>&1 &
dpid=$!
for i in $(seq 100); do [ "$(grep -c 'cycle failed' daemon.log)" -ge 3 ] && break; sleep 0.1; done
grep -q "retrying in 1s" daemon.log && grep -q "retrying in 2s" daemon.log ||
	{ kill $dpid; fail "no backoff in the daemon log: $(cat daemon.log)"; }
grep -q "retrying in 4s" daemon.log && { kill $dpid; fail "backoff above --max-backoff"; }
# ... and sends the queue once the server is back.
smtpd_start "$SRV" refused@example.org || fail "cannot restart OpenSMTPD"
for i in $(seq 100); do grep -q "cycle done" daemon.log && break; sleep 0.1; done
grep -q "cycle done" daemon.log || { kill $dpid; fail "the daemon did not recover: $(cat daemon.log)"; }
kill -TERM $dpid
wait $dpid || fail "the daemon did not exit 0 on SIGTERM"
grep -q "stopped by signal, state saved" daemon.log || fail "no clean stop: $(cat daemon.log)"
maildir_wait "$MAIL/greg" $((NG + NG2)) || fail "greg got $(maildir_count "$MAIL/greg") mails, not $((NG + NG2))"
maildir_wait "$MAIL/sasha" $((NS + NS2)) || fail "sasha got $(maildir_count "$MAIL/sasha") mails, not $((NS + NS2))"
[ -z "$(ls state/queue)" ] || fail "mails still queued"
new=$(mail_with "$MAIL/greg" X-Stablemate-Upstream "$NEW1")
[ "$(echo "$new" | grep -c .)" -eq 1 ] || fail "greg got the new candidate $(echo "$new" | grep -c .) times"
$STABLEMATE run --config bot.conf > run4.out 2> run4.err || { cat run4.err; fail "run after recovery failed"; }
grep -q "0 mails composed, 0 sent" run4.out || fail "rerun sent again: $(cat run4.out)"
sleep 1
[ "$(maildir_count "$MAIL/greg")" -eq $((NG + NG2)) ] || fail "duplicate mail to greg"
[ "$(maildir_count "$MAIL/sasha")" -eq $((NS + NS2)) ] || fail "duplicate mail to sasha"

echo "== 4. a refused subscriber does not stop the others"
NEW2=$(add_commit "$SM_SRCDIR/tests/fixtures/bot/extra-2.txt")
all_picks > picks3
comm -13 picks2 picks3 > new3
grep -q "^sasha .* $NEW2" new3 || fail "fixture extra-2 is no longer a maybe for sasha: $(cat new3)"
NS3=$(mails_for new3 sasha)
cat >> bot.conf <<CONF
[subscriber "bouncer"]
	address = Bounced Maintainer <refused@example.org>
	trees = linux-6.1.y
	minVerdict = maybe
CONF
if $STABLEMATE run --config bot.conf > run5.out 2> run5.err; then fail "a refused recipient went unreported"; fi
grep -q "^stablemate: warning: refused@example.org: 550 .*: [0-9]* mails (the other recipients have them)" run5.err ||
	fail "no warning naming the refused address: $(cat run5.err)"
[ "$(wc -l < run5.err)" -eq 2 ] || fail "more than a warning and an error line: $(cat run5.err)"
maildir_wait "$MAIL/sasha" $((NS + NS2 + NS3)) || fail "sasha got $(maildir_count "$MAIL/sasha") mails, not $((NS + NS2 + NS3))"
[ -n "$(mail_with "$MAIL/sasha" X-Stablemate-Upstream "$NEW2")" ] || fail "sasha did not get $NEW2"
[ ! -e "$MAIL/refused" ] || fail "mail delivered to the refused address"
[ -z "$(ls state/queue)" ] || fail "mails still queued"
$STABLEMATE run --config bot.conf > run6.out 2> run6.err || { cat run6.err; fail "rerun after refusal failed"; }
grep -q "0 mails composed" run6.out || fail "refused mails composed again: $(cat run6.out)"

echo "== 5. two concurrent runs on one state directory send each mail once"
# A cron run and a daemon cycle may overlap: the second waits for the first's
# lock on the state directory, then finds everything known.
sed -e 's/stateDir = state/stateDir = state2/' -e 's/<greg@/<greg-c@/' -e 's/<sasha@/<sasha-c@/' \
	-e '/cc = Stable review list/d' -e '/^\[subscriber "bouncer"\]/,$d' bot.conf > bot2.conf
NG5=$(mails_for picks3 greg) NS5=$(mails_for picks3 sasha)
$STABLEMATE report --config bot2.conf > c1.out 2> c1.err & c1=$!
$STABLEMATE report --config bot2.conf > c2.out 2> c2.err & c2=$!
wait $c1 || fail "first concurrent run failed: $(cat c1.err)"
wait $c2 || fail "second concurrent run failed: $(cat c2.err)"
maildir_wait "$MAIL/greg-c" "$NG5" || fail "greg-c got $(maildir_count "$MAIL/greg-c") mails, not $NG5"
maildir_wait "$MAIL/sasha-c" "$NS5" || fail "sasha-c got $(maildir_count "$MAIL/sasha-c") mails, not $NS5"
sleep 1
[ "$(maildir_count "$MAIL/greg-c")" -eq "$NG5" ] || fail "greg-c got $(maildir_count "$MAIL/greg-c") mails, not $NG5"
[ "$(maildir_count "$MAIL/sasha-c")" -eq "$NS5" ] || fail "sasha-c got $(maildir_count "$MAIL/sasha-c") mails, not $NS5"
cat c1.out c2.out | grepq "0 mails composed, 0 sent" || fail "no run found the other's mails: $(cat c1.out c2.out)"
[ "$(wc -l < state2/sent.log)" -eq "$(wc -l < picks3)" ] || fail "state2/sent.log has $(wc -l < state2/sent.log) lines, not $(wc -l < picks3)"
[ ! -e state2/lock ] || fail "the lock file was left behind"
echo "   $((NG5 + NS5)) mails composed and sent once between the two runs"
# their covers carry the notes: Eddie's review and the stable queue's notice
cover5=$(cover_of "$MAIL/greg-c" greg)
sed -n "/upstream: $OCC/,/^$/p" "$cover5" > "$TMP/occ5.txt"
grepq "^   reviews:  Reviewed-by: Eddie James <eajames@linux.ibm.com> (6.1)$" "$TMP/occ5.txt" ||
	fail "the cover does not show the review: $(cat "$TMP/occ5.txt")"
grepq "^   stable queue: failed to apply to 5.15 (Sasha Levin <sashal@kernel.org>, Thu, 03 Dec 2026 09:00:00 +0000); possible dependencies: b5c46a53c8d4$" \
	"$TMP/occ5.txt" || fail "the cover does not show the stable queue's notice: $(cat "$TMP/occ5.txt")"

echo "== 6. a crash while sending: the mail in doubt is settled by its Message-ID"
# tests/smtp_sink.py takes the first message and never answers its end: the
# bot is killed there, between the server having the mail and the record.
mkdir -p arch/new arch/cur arch/tmp
printf '[database]\npath=%s\n' "$TMP/arch" > arch.cfg
NOTMUCH_CONFIG=$TMP/arch.cfg notmuch new >/dev/null
ends() { python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(b"\r\n.\r\n"))' "$1"; }
msgid_of() { python3 -c 'import re, sys; print(re.search(rb"\r\nMessage-I[dD]: <([^>]*)>", open(sys.argv[1], "rb").read()).group(1).decode())' "$1"; }
# crash STATE CONF: a report killed -9 with its first mail in sending/.
crash() {
	sink_start "$1.rec1" --hang-after-data
	sed -e "s/stateDir = state2/stateDir = $1/" -e "s/port = $SMTPD_PORT/port = $SINKPORT/" \
		-e "s|database = .*|database = $TMP/arch|" bot2.conf > "$2"
	$STABLEMATE report --config "$2" > "$1.crash.out" 2>&1 & bpid=$!
	for i in $(seq 200); do [ -s "$1.rec1" ] && [ "$(ends "$1.rec1")" -ge 1 ] && break; sleep 0.1; done
	[ "$(ends "$1.rec1")" -eq 1 ] || fail "the sink never got the first message"
	kill -9 $bpid; wait $bpid 2>/dev/null || true
	sink_stop
	[ "$(ls "$1/sending" | wc -l)" -eq 1 ] || fail "not one mail in $1/sending: $(ls "$1/sending")"
	[ -e "$1/lock" ] || fail "kill -9 took the lock file away"
}
rerun() { # STATE CONF: the next run against a sink that answers
	sink_start "$1.rec2"
	sed -i "s/port = [0-9]*/port = $SINKPORT/" "$2"
	$STABLEMATE report --config "$2" > "$1.out" 2> "$1.err" || { cat "$1.err"; fail "the run after the crash failed"; }
	sink_stop
	grep -q "taking over a stale lock of pid $bpid" "$1.err" || fail "no stale lock warning: $(cat "$1.err")"
	[ -z "$(ls "$1/sending")" ] || fail "mails left in $1/sending"
	[ "$(wc -l < "$1/sent.log")" -eq "$(wc -l < picks3)" ] || fail "$1/sent.log: $(wc -l < "$1/sent.log") lines"
}
# a. The list's copy of the mail is in the notmuch database: it went out.
crash state3 bot3.conf
id=$(msgid_of state3.rec1)
python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); s = d.index(b"DATA\r\n") + 6
open(sys.argv[2], "wb").write(d[s:d.index(b"\r\n.\r\n", s) + 2].replace(b"\r\n", b"\n"))' state3.rec1 arch/new/copy1
NOTMUCH_CONFIG=$TMP/arch.cfg notmuch new >/dev/null
rerun state3 bot3.conf
grep -q "is in $TMP/arch, so it went out: recorded as sent" state3.err || fail "not confirmed: $(cat state3.err)"
grep -qi "^Message-Id: <$id>" state3.rec2 && fail "the confirmed mail <$id> was sent again"
[ "$(ends state3.rec2)" -eq $((NG5 + NS5 - 1)) ] || fail "$(ends state3.rec2) mails sent after the crash, not $((NG5 + NS5 - 1))"
[ -z "$(find state3/queue state3/failed -type f)" ] || fail "mails left in state3/queue or failed"
# b. No copy anywhere: sent again, under the same Message-ID.
crash state4 bot4.conf
id=$(msgid_of state4.rec1)
rerun state4 bot4.conf
grep -q "whether the server took it cannot be known (not in $TMP/arch): sending it again with the same Message-ID <$id>" state4.err ||
	fail "no warning for the mail in doubt: $(cat state4.err)"
[ "$(ends state4.rec2)" -eq $((NG5 + NS5)) ] || fail "$(ends state4.rec2) mails sent after the crash, not $((NG5 + NS5))"
[ "$(msgid_of state4.rec2)" = "$id" ] || fail "the mail in doubt was not sent first, or under another Message-ID"

echo "== 6b. a NAK for 6.1 after the patch went out: the bot withdraws it, once"
# Sasha, a subscriber too, answers greg's patch mail for linux-6.1.y with a
# NAK. The next run harvests it (Tree: 6.1), its scan vetoes the candidate
# for 6.1 (nak), and each other subscriber sent it for 6.1 gets a reply to
# that very mail; sasha, who gave the NAK, is not told of it.
wpatch=$(mail_with "$MAIL/greg" X-Stablemate-Upstream "$OCC" X-Stablemate-Tree linux-6.1.y)
[ "$(echo "$wpatch" | grep -c .)" -eq 1 ] || fail "not one patch mail for $OCC in linux-6.1.y: $wpatch"
wpid=$(hdr "$wpatch" Message-Id)
nwd=$(grep -c " $OCC linux-6.1.y " state/sent.log)
grep -q "^sasha $OCC linux-6.1.y " state/sent.log || fail "sasha was not sent $OCC for 6.1"
nwd=$((nwd - 1))	# not to sasha
cat > "$LIST/new/reply-nak.eml" <<MAILEOF
From: Sasha Levin <sasha@example.org>
To: Stable Bot <bot@example.org>
Cc: stable-list@example.org
Subject: Re: $(hdr "$wpatch" Subject)
Date: Fri, 04 Dec 2026 10:00:00 +0000
Message-ID: <reply-occ-nak@example.org>
In-Reply-To: $wpid
References: $(hdr "$wpatch" In-Reply-To) $wpid

On Thu, Dec 03, 2026, Stable Bot wrote:
> commit $OCC upstream.

This breaks the P8 OCC on 6.1: the caller checks the divisor there.

Nacked-by: Sasha Levin <sasha@example.org>
MAILEOF
notmuch new >/dev/null
ng=$(maildir_count "$MAIL/greg")
# (the bouncer of step 4 was sent it too: its withdrawal reaches the list,
# and the server refuses the bouncer's address again, which the run says)
# (a failed run prints no summary line, its --json figures still)
rc=0; $STABLEMATE run --config bot.conf --json > run7.out 2> run7.err || rc=$?
[ $rc -eq 1 ] || fail "the run after the NAK exited $rc, not 1 (the refusal)"
grep -q "^stablemate: warning: refused@example.org: 550 .*: 1 mail (the other recipients have them)$" run7.err ||
	fail "the run after the NAK: $(cat run7.err)"
python3 -c "import json,sys; r=json.load(open('run7.out'))['report']; assert (r['composed'], r['withdrawn'], r['sent'], r['candidates']) == ($nwd, $nwd, $nwd, 0), r" ||
	fail "not $nwd withdrawals composed and sent: $(cat run7.out)"
git -C linux notes --ref=stable-review show "$OCC" | grepq "Nacked-by: Sasha Levin <sasha@example.org>" ||
	fail "the NAK is not in the note"
maildir_wait "$MAIL/greg" $((ng + 1)) || fail "greg got no withdrawal"
wd=$(mail_with "$MAIL/greg" In-Reply-To "$wpid" X-Stablemate-Upstream "$OCC")
[ "$(echo "$wd" | grep -c .)" -eq 1 ] || fail "not one reply to greg's patch mail: $wd"
[ "$(hdr "$wd" X-Stablemate-Tree)" = "linux-6.1.y" ] || fail "withdrawal X-Stablemate-Tree: $(hdr "$wd" X-Stablemate-Tree)"
grep -q "^Subject: Re: \[PATCH 6.1\] hwmon: (occ) Fix division by zero issue" "$wd" || fail "withdrawal subject: $(hdr "$wd" Subject)"
grepq "stablemate withdraws this candidate for linux-6.1.y: a NAK came in for the tree" "$wd" ||
	fail "withdrawal body: $(cat "$wd")"
grepq "NAKed for 6.1: Nacked-by: Sasha Levin <sasha@example.org> (Fri, 04 Dec 2026 10:00:00 +0000): This breaks the P8 OCC on 6.1" "$wd" ||
	fail "the withdrawal does not quote the NAK: $(cat "$wd")"
grep -q "^greg $OCC linux-6.1.y:withdrawn " state/sent.log || fail "sent.log lacks the withdrawal"
grep -q "^sasha $OCC linux-6.1.y:withdrawn " state/sent.log && fail "sasha was told of her own NAK"
[ -z "$(mail_with "$MAIL/sasha" X-Stablemate-Upstream "$OCC" Subject "Re: [PATCH 6.1] hwmon: (occ) Fix division by zero issue")" ] ||
	fail "sasha got a withdrawal of what she NAKed"
$STABLEMATE run --config bot.conf > run8.out 2> run8.err || { cat run8.err; fail "the rerun after the withdrawal failed"; }
grep -q "0 mails composed, 0 sent" run8.out || fail "the withdrawal went out twice: $(cat run8.out)"

echo "== 6c. mainline reverts a candidate that went out: withdrawn too"
# greg was sent ONCE for 6.1; mainline now reverts it. The revert itself is
# no candidate where the commit never landed (revert-of-absent).
wpatch=$(mail_with "$MAIL/greg" X-Stablemate-Upstream "$ONCE" X-Stablemate-Tree linux-6.1.y)
[ "$(echo "$wpatch" | grep -c .)" -eq 1 ] || fail "not one patch mail for $ONCE in linux-6.1.y: $wpatch"
wpid=$(hdr "$wpatch" Message-Id)
nwd=$(grep -c " $ONCE " state/sent.log)
REV=$(cd linux && git revert --no-edit "$ONCE" >/dev/null && git rev-parse HEAD)
ng=$(maildir_count "$MAIL/greg")
rc=0; $STABLEMATE run --config bot.conf --json > run9.out 2> run9.err || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "the run after the revert exited $rc: $(cat run9.err)"
python3 -c "import json,sys; r=json.load(open('run9.out'))['report']; assert r['withdrawn'] == $nwd and r['candidates'] == 0, r" ||
	fail "not $nwd withdrawals for the reverted candidate: $(cat run9.out)"
maildir_wait "$MAIL/greg" $((ng + 1)) || fail "greg got no withdrawal of the reverted candidate"
wd=$(mail_with "$MAIL/greg" In-Reply-To "$wpid" X-Stablemate-Upstream "$ONCE")
[ "$(echo "$wd" | grep -c .)" -eq 1 ] || fail "not one reply to greg's patch mail for $ONCE: $wd"
grepq "stablemate withdraws this candidate for linux-6.1.y: mainline reverted it" "$wd" ||
	fail "withdrawal body: $(cat "$wd")"
grepq "why:      reverted upstream by ${REV:0:12}" "$wd" || fail "the withdrawal does not name the revert: $(cat "$wd")"

echo "== 7. bad config: one line naming file and key"
sed -i 's/trees = linux-6.1.y, linux-5.15.y/trees = linux-6.1.y, linux-9.9.y/' bot.conf
if $STABLEMATE run --config bot.conf 2> bad.err; then fail "bad config accepted"; fi
line=$(grep -n "trees = linux-6.1.y, linux-9.9.y" bot.conf | cut -d: -f1)
[ "$(cat bad.err)" = "stablemate run: bot.conf:$line: subscriber.sasha.trees: tree 2 of the list has no [tree \"NAME\"] section" ] ||
	fail "bad config error: $(cat bad.err)"

echo "== 8. where the config is looked for without --config"
mkdir -p xdg/stablemate && cp bot.conf xdg/stablemate/bot.conf
if env -u STABLEMATE_CONFIG XDG_CONFIG_HOME="$TMP/xdg" $STABLEMATE run 2> xdg.err; then fail "bad config accepted"; fi
grep -qF "stablemate run: $TMP/xdg/stablemate/bot.conf:$line: subscriber.sasha.trees:" xdg.err ||
	fail "\$XDG_CONFIG_HOME/stablemate/bot.conf not read: $(cat xdg.err)"
if env -u STABLEMATE_CONFIG XDG_CONFIG_HOME=relative HOME="$TMP/home" $STABLEMATE run 2> home.err; then fail "no config accepted"; fi
[ "$(cat home.err)" = "stablemate run: $TMP/home/.config/stablemate/bot.conf: no such config file" ] ||
	fail "a relative XDG_CONFIG_HOME is not ignored: $(cat home.err)"
echo "PASS"
