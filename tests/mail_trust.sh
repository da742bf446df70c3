#!/usr/bin/env bash
# Whose review is it, and can one mail stop the harvest? Real notmuch, real git.
#  - four forged replies (issue 10 §2): Greg's name from another address, no
#    From:, an empty group "Linus Torvalds:;", Mallory signing for Sasha: kept
#    as Unverified: with the real sender, never Trailers:, not counted by
#    `notes show`; a decorated address is cleaned; --aliases accepts a known
#    second address of the same person;
#  - Message-IDs notmuch keeps but a note cannot ("foo bar", "<>", "a<b@x")
#    in the batch of a good review: named, kept under a derived id, the rest
#    written, everything tagged, the rerun clean (issue 17.1);
#  - a patch whose Message-ID notmuch renames (notmuch-sha1-…, ~180+ chars):
#    the reply's review still lands (issue 17.2);
#  - lore links of odd ids are percent-encoded, non-address ids get none
#    (issue 17.10);
#  - a reply nested 10,000 MIME levels deep is named in a warning (17.14);
#  - an mboxo body line "From my testing:" does not split its mail (17.15).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mail_lib.sh"
ref=refs/notes/stable-review

up=$TMP/up
upstream_repo "$up"
commit_file "$up" README "linux" "Linux 6.10" > /dev/null
sha=$(commit_file "$up" drivers/hwmon/lm90.c "int limit = 10;" "hwmon: (lm90) Fix the limit")
sha2=$(commit_file "$up" drivers/hwmon/pmbus.c "int page;" "hwmon: (pmbus) Check the page")
long=$(printf 'p%.0s' $(seq 200))@kernel.org

# patch FILE MSGID SHA SUBJECT
patch() {
	printf 'From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\nTo: stable@vger.kernel.org\nMessage-ID: <%s>\nSubject: [PATCH 6.1 %s\nDate: Tue, 02 Jul 2024 09:00:00 +0000\n\ncommit %s upstream.\n\n---\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' \
		"$2" "$4" "$3" > "$1"
}
# reply FILE MSGID-HEADER PARENT FROM-HEADER (empty: none) MINUTE BODY
reply() {
	{
		[ -n "$4" ] && printf 'From: %s\n' "$4"
		printf 'To: stable@vger.kernel.org\nMessage-ID: %s\nIn-Reply-To: <%s>\nSubject: Re: [PATCH 6.1] hwmon\nDate: Tue, 02 Jul 2024 10:%02d:00 +0000\n\n%s\n' \
			"$2" "$3" "$5" "$6"
	} > "$1"
}
patch "$TMP/p1.eml" p1@kernel.org "$sha" "001/002] hwmon: (lm90) Fix the limit"
patch "$TMP/p2.eml" "$long" "$sha2" "002/002] hwmon: (pmbus) Check the page"
reply "$TMP/f1.eml" '<f1@evil.example>' p1@kernel.org 'Greg Kroah-Hartman <attacker@evil.example>' 1 \
	'Reviewed-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>'
reply "$TMP/f2.eml" '<f2@evil.example>' p1@kernel.org '' 2 \
	'Reviewed-by: Linus Torvalds <torvalds@linux-foundation.org>'
reply "$TMP/f3.eml" '<f3@evil.example>' p1@kernel.org 'Linus Torvalds:;' 3 \
	'Acked-by: Linus Torvalds <torvalds@linux-foundation.org>'
reply "$TMP/f4.eml" '<f4@evil.example>' p1@kernel.org 'Mallory <mallory@evil.example>' 4 \
	'Reviewed-by: Sasha Levin <sashal@kernel.org>'
reply "$TMP/g1.eml" '<good@example.com>' p1@kernel.org 'Rita Reviewer <rita@example.com>' 5 \
	$'Looks right.\n\nReviewed-by: Rita Reviewer <rita@example.com>'
reply "$TMP/g2.eml" '<dee@example.org>' p1@kernel.org 'Dee Corated <dee@example.org>' 6 \
	'Tested-by: Dee Corated <DEE@example.org<mailto:DEE@example.org>>'
reply "$TMP/g3.eml" '<alias@example.com>' p1@kernel.org 'Rita Reviewer <rita@home.example>' 7 \
	'Acked-by: Rita Reviewer <rita@example.com>'
reply "$TMP/x1.eml" 'foo bar' p1@kernel.org 'Pat One <pat1@example.com>' 11 'Acked-by: Pat One <pat1@example.com>'
reply "$TMP/x2.eml" '<>' p1@kernel.org 'Pat Two <pat2@example.com>' 12 'Acked-by: Pat Two <pat2@example.com>'
reply "$TMP/x3.eml" '<a<b@x>' p1@kernel.org 'Pat Three <pat3@example.com>' 13 'Acked-by: Pat Three <pat3@example.com>'
reply "$TMP/l1.eml" '<../../etc/passwd/..@evil.example>' p1@kernel.org 'Lou <lou@example.com>' 14 \
	'Tested-by: Lou <lou@example.com>'
reply "$TMP/r2.eml" '<long-reply@example.com>' "$long" 'Guenter Roeck <linux@roeck-us.net>' 20 \
	'Reviewed-by: Guenter Roeck <linux@roeck-us.net>'
# A reply nested 10,000 multiparts deep (issue 17.14 had 100,000): capped, with a warning naming it.
python3 - > "$TMP/deep.eml" <<'PY'
import sys
n = 10000
w = sys.stdout.write
w("From: Deep Nest <deep@example.com>\nTo: stable@vger.kernel.org\nMessage-ID: <deep@example.com>\n"
  "In-Reply-To: <p1@kernel.org>\nSubject: Re: [PATCH 6.1] hwmon\nDate: Tue, 02 Jul 2024 10:30:00 +0000\n"
  "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b0\"\n\n")
for i in range(n):
    w("--b%d\nContent-Type: multipart/mixed; boundary=\"b%d\"\n\n" % (i, i + 1))
w("--b%d\nContent-Type: text/plain\n\nTested-by: Deep Nest <deep@example.com>\n" % n)
for i in range(n, -1, -1):
    w("--b%d--\n" % i)
PY
as_mbox "$TMP"/p*.eml "$TMP"/f*.eml "$TMP"/g*.eml "$TMP"/x*.eml "$TMP"/l1.eml "$TMP"/r2.eml \
	"$TMP"/deep.eml > "$TMP/all.mbox"

db=$TMP/db
mkdir -p "$db"
"$STABLEMATE" import --maildir "$db/stable" --db "$db" --mbox "$TMP/all.mbox" > /dev/null
nm "$db" search --output=messages '*' | grepq '^id:notmuch-sha1-' || fail "notmuch did not rename the long id"
# mboxo (no escaping): a body line "From my testing:" followed by a trailer
# must not split the mail (issue 17.15): kept in its message, with a warning.
{
	printf 'From tess@example.com Tue Jul  2 10:40:00 2024\n'
	printf 'From: Tess Tester <tess@example.com>\nTo: stable@vger.kernel.org\nMessage-ID: <tess@example.com>\n'
	printf 'In-Reply-To: <p1@kernel.org>\nSubject: Re: [PATCH 6.1] hwmon\nDate: Tue, 02 Jul 2024 10:40:00 +0000\n\n'
	printf 'Booted on two boards.\n\nFrom my testing:\nTested-by: Tess Tester <tess@example.com>\n\n'
	printf 'From next@example.com Tue Jul  2 10:41:00 2024\n'
	printf 'From: Nick Next <next@example.com>\nTo: stable@vger.kernel.org\nMessage-ID: <next@example.com>\n'
	printf 'Subject: unrelated\nDate: Tue, 02 Jul 2024 10:41:00 +0000\n\nhello\n'
} > "$TMP/mboxo.mbox"
"$STABLEMATE" import --maildir "$db/stable" --db "$db" --mbox "$TMP/mboxo.mbox" > "$TMP/i.out" 2> "$TMP/i.err"
grep -q '^import: 2 messages, 2 written' "$TMP/i.out" || fail "mboxo: $(cat "$TMP/i.out" "$TMP/i.err")"
grep -q 'mbox line 11: "From my testing:" is followed by no mail headers' "$TMP/i.err" ||
	fail "no warning for the rejoined mboxo line: $(cat "$TMP/i.err")"
cat > "$TMP/aliases" <<'A'
# one person a line
Rita Reviewer <rita@example.com> <rita@home.example>
A

"$STABLEMATE" harvest --db "$db" --repo "$up" --aliases "$TMP/aliases" --json > "$TMP/h.json" 2> "$TMP/h.err" ||
	fail "harvest failed: $(cat "$TMP/h.err")"
cat "$TMP/h.err"
for id in 'foo bar' '<>' 'a<b@x'; do
	grep -qF "message '$id'" "$TMP/h.err" || fail "no warning naming '$id'"
done
grep -q '^stablemate: warning: <deep@example.com> (.*): MIME parts nested more than 64 deep' "$TMP/h.err" ||
	fail "no warning naming the deeply nested mail"
[ "$(json_get "$TMP/h.json" stats.bad_message_ids)" = 3 ] || fail "bad ids: $(json_get "$TMP/h.json" stats)"
[ "$(json_get "$TMP/h.json" stats.unverified)" = 4 ] || fail "unverified: $(json_get "$TMP/h.json" stats)"
git -C "$up" notes --ref="$ref" show "$sha" > "$TMP/n1.txt"
cat "$TMP/n1.txt"

# Forged: never Trailers:, each kept as Unverified: with its real sender.
trailers=$(awk '/^Trailers:/{t=1;next} /^[A-Z]/{t=0} t' "$TMP/n1.txt")
for who in gregkh@linuxfoundation.org torvalds@linux-foundation.org sashal@kernel.org; do
	grep -q "$who" <<<"$trailers" && fail "$who counted as a trailer"
done
grep -qx '  Reviewed-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> (sent by Greg Kroah-Hartman <attacker@evil.example>)' \
	"$TMP/n1.txt" || fail "Greg's forged review not kept as unverified"
grep -qx '  Reviewed-by: Linus Torvalds <torvalds@linux-foundation.org> (sent without a usable From:)' \
	"$TMP/n1.txt" || fail "the review without From: not kept as unverified"
grep -qx '  Acked-by: Linus Torvalds <torvalds@linux-foundation.org> (sent without a usable From:)' \
	"$TMP/n1.txt" || fail "the empty-group ack not kept as unverified"
grep -qx '  Reviewed-by: Sasha Levin <sashal@kernel.org> (sent by Mallory <mallory@evil.example>)' \
	"$TMP/n1.txt" || fail "Mallory's review for Sasha not kept as unverified"
# Verified: the sender's own, a decorated address cleaned, a known alias.
grep -qx '  Reviewed-by: Rita Reviewer <rita@example.com>' <<<"$trailers" || fail "Rita's review lost"
grep -qx '  Tested-by: Dee Corated <DEE@example.org>' <<<"$trailers" || fail "decorated address not cleaned"
grep -qx '  Acked-by: Rita Reviewer <rita@example.com>' <<<"$trailers" || fail "alias not accepted"
grep -qx '  Tested-by: Tess Tester <tess@example.com>' <<<"$trailers" || fail "the trailer after the mboxo From line lost"
# Poison ids: kept under derived ids, no lore link; the odd id's link is encoded.
[ "$(grep -c '^Review: <notmuch-sha1-' "$TMP/n1.txt")" = 3 ] || fail "poison ids not kept under derived ids"
grep -q 'Acked-by: Pat Three <pat3@example.com>' <<<"$trailers" || fail "the review of the a<b@x mail lost"
grep -q 'lore.kernel.org/r/notmuch-sha1' "$TMP/n1.txt" && fail "a link for a derived id"
grep -qx 'Link: https://lore.kernel.org/r/..%2F..%2Fetc%2Fpasswd%2F..@evil.example' "$TMP/n1.txt" ||
	fail "odd Message-ID not percent-encoded in the link"
# The long id: the reply reaches its patch through notmuch's renamed id.
git -C "$up" notes --ref="$ref" show "$sha2" 2>/dev/null | grepq -x '  Reviewed-by: Guenter Roeck <linux@roeck-us.net>' || fail "review of the long-id patch lost"
echo "forged reviews unverified, aliases and decorated addresses verified, poison and long ids harvested"

# notes show: the unverified blocks are shown as such and not counted.
"$STABLEMATE" notes show "$sha" --repo "$up" > "$TMP/show.txt"
grep -q '^Unverified:' "$TMP/show.txt" || fail "notes show hides Unverified:"
# 12 blocks: Rita, Dee, Rita's alias, Pat 1-3, Lou, Tess are reviews; f1-f4 are not.
grep -qx '8 reviews: 6.1 (8)' "$TMP/show.txt" || fail "summary: $(tail -2 "$TMP/show.txt")"
grep -q '^4 unverified' "$TMP/show.txt" || fail "summary lacks the unverified count"
"$STABLEMATE" notes show "$sha" --repo "$up" --json > "$TMP/show.json"
python3 - "$TMP/show.json" <<'PY' || fail "notes show --json: unverified blocks"
import json, sys
rs = json.load(open(sys.argv[1]))["reviews"]
bad = [r for r in rs if r["message_id"].endswith("@evil.example") and r["message_id"].startswith("f")]
assert len(bad) == 4 and all(not r["counts_as_review"] and r["unverified"] and not r["trailers"] for r in bad), bad
PY

# The rerun finds nothing; a merge of the notes keeps the Unverified: lines.
"$STABLEMATE" harvest --db "$db" --repo "$up" --json > "$TMP/h2.json" 2>/dev/null
[ "$(json_get "$TMP/h2.json" stats.messages)" = 0 ] || fail "rerun processed messages again"
git clone -q --bare "$up" "$TMP/other.git"
git -C "$TMP/other.git" fetch -q "$up" "$ref:$ref"
git -C "$TMP/other.git" update-ref -d "$ref"
git -C "$TMP/other.git" fetch -q "$up" "$ref:refs/notes/remotes/up/stable-review"
"$STABLEMATE" notes merge refs/notes/remotes/up/stable-review --repo "$TMP/other.git" > /dev/null
git -C "$TMP/other.git" notes --ref="$ref" show "$sha" | cmp -s - "$TMP/n1.txt" ||
	fail "merged note differs: Unverified: did not round-trip"
echo "notes show and merge keep the unverified trailers apart"
echo ok
