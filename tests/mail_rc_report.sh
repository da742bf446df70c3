#!/usr/bin/env bash
# mail_rc_report.sh: a regression report in a stable -rc review thread
# lands on the commit it is about, not on every patch of the release.
# The real 5.15.160-rc1 review thread of ../shared (the cover letter and
# the 19 replies: Jon Hunter's suspend regression, bisected to "nfsd: don't
# allow nfsd threads to be signalled.", which his report quotes alone from
# the cover's shortlog; Tested-by replies of the whole release) gets its
# patch mails back, one per shortlog entry, as Greg sends them; harvest
# into an upstream history holding those commits.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mail_lib.sh"
thread=$SHARED/corpus/lists/stable-list/thread-5.15.160-rc1/cur
[ -d "$thread" ] || skip "no ../shared corpus here"
ref=refs/notes/stable-review

cover=$(grep -l '^Subject: \[PATCH 5.15 00/23\] 5.15.160-rc1 review' "$thread"/*)
[ -n "$cover" ] || fail "no cover letter in $thread"
# the patch mails, from the cover's shortlog (the "Linux 5.15.160-rc1"
# entry is the release commit, never sent as a patch); their titles
python3 - "$cover" "$TMP/patches.mbox" "$TMP/titles.txt" <<'PY' || fail "the shortlog was not read"
import email, email.policy, sys
cover = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
body = cover.get_body(("plain",)).get_content()
lines = body.split("Pseudo-Shortlog of commits:\n", 1)[1].split("\n")
titles = [l.strip() for l in lines if l.startswith("    ") and not l.strip().startswith("Linux ")]
assert len(titles) == 23, len(titles)
with open(sys.argv[2], "w") as out, open(sys.argv[3], "w") as t:
    for i, title in enumerate(titles, 1):
        t.write(title + "\n")
        out.write(f"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
                  f"From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"
                  f"To: stable@vger.kernel.org\n"
                  f"Subject: [PATCH 5.15 {i:02d}/23] {title}\n"
                  f"Date: Thu, 23 May 2024 15:13:{i:02d} +0200\n"
                  f"Message-ID: <20240523130327.{i}@linuxfoundation.org>\n"
                  f"In-Reply-To: {cover['Message-ID']}\n"
                  f"References: {cover['Message-ID']}\n\n"
                  f"5.15-stable review patch.  If anyone has any objections, please let me know.\n\n"
                  f"------------------\n\n{title}\n\n---\n t{i} | 2 +-\n\n"
                  f"diff --git a/t{i} b/t{i}\n--- a/t{i}\n+++ b/t{i}\n@@ -1 +1 @@\n-{i}\n+{i + 1}\n\n")
PY

up=$TMP/up
upstream_repo "$up"
base=$(commit_file "$up" README linux "Linux 5.14")
commits_from_titles "$up" < "$TMP/titles.txt"
db=$TMP/db
mkdir -p "$db"
as_mbox "$thread"/* > "$TMP/thread.mbox"
"$STABLEMATE" import --maildir "$db/stable" --db "$db" --mbox "$TMP/thread.mbox" > /dev/null
"$STABLEMATE" import --maildir "$db/stable" --db "$db" --mbox "$TMP/patches.mbox" > /dev/null
"$STABLEMATE" harvest --db "$db" --repo "$up" --query '*' --json > "$TMP/h.json" 2> "$TMP/h.err" ||
	fail "harvest failed: $(cat "$TMP/h.err")"

nfsd=$(git -C "$up" log --format=%H -F --grep="nfsd: don't allow nfsd threads to be signalled." -n1)
[ -n "$nfsd" ] || fail "no upstream nfsd commit"
git -C "$up" notes --ref="$ref" show "$nfsd" > "$TMP/nfsd.txt" || fail "no note on the nfsd commit"
grepq "suspend regression" "$TMP/nfsd.txt" || fail "Jon's report is not on the nfsd commit: $(cat "$TMP/nfsd.txt")"
grepq "Tested-by: Mark Brown <broonie@kernel.org>" "$TMP/nfsd.txt" || fail "the release's Tested-by is missing"
# every other patch: the release's Tested-by, not the report
others=0
for c in $(git -C "$up" rev-list master "^$base"); do
	[ "$c" = "$nfsd" ] && continue
	git -C "$up" notes --ref="$ref" show "$c" > "$TMP/other.txt" || fail "no note on $c"
	grepq "Tested-by: Mark Brown <broonie@kernel.org>" "$TMP/other.txt" ||
		fail "$c lacks the release's Tested-by"
	grepq "suspend regression" "$TMP/other.txt" &&
		fail "Jon's report landed on $(git -C "$up" log -1 --format=%s "$c")"
	others=$((others + 1))
done
[ "$others" = 22 ] || fail "$others other commits, not 22"
echo "rc review: the regression report on its one commit, the Tested-by on all 23 ($(json_get "$TMP/h.json" stats))"
