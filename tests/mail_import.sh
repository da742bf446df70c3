#!/usr/bin/env bash
# stablemate import: mbox (plain and gzipped, real CVE announcements),
# public-inbox epochs read incrementally, reruns that write nothing twice,
# a broken mail skipped with one line, usage and input errors.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mail_lib.sh"
[ -d "$SHARED/corpus" ] || skip "no ../shared corpus here"

db=$TMP/db
mkdir -p "$db"
# 1. a gzipped mbox of 300 real linux-cve-announce mails
"$STABLEMATE" import --maildir "$db/cve" --db "$db" \
	--mbox "$SHARED/corpus/cve-announce/cve-announce-2024-300.mbox.gz" --json > "$TMP/i1.json"
[ "$(json_get "$TMP/i1.json" messages)" = 300 ] || fail "cve mbox: $(cat "$TMP/i1.json")"
[ "$(json_get "$TMP/i1.json" indexed)" = 300 ] || fail "cve mbox not indexed: $(cat "$TMP/i1.json")"
[ "$(nm "$db" count '*')" = 300 ] || fail "notmuch counts $(nm "$db" count '*')"
[ "$(find "$db/cve/cur" -type f | wc -l)" = 300 ] || fail "not 300 maildir files"
[ -z "$(ls -A "$db/cve/tmp")" ] || fail "files left in tmp/"
echo "cve-announce: 300 messages imported and indexed"

# 2. the same again: nothing new written or indexed
"$STABLEMATE" import --maildir "$db/cve" --db "$db" \
	--mbox "$SHARED/corpus/cve-announce/cve-announce-2024-300.mbox.gz" --json > "$TMP/i2.json"
[ "$(json_get "$TMP/i2.json" written)" = 0 ] || fail "rerun wrote files: $(cat "$TMP/i2.json")"
[ "$(json_get "$TMP/i2.json" indexed)" = 0 ] || fail "rerun indexed again"
[ "$(find "$db/cve/cur" -type f | wc -l)" = 300 ] || fail "rerun duplicated files"
[ "$(nm "$db" count '*')" = 300 ] || fail "rerun changed the database"

# 3. a broken mail among good ones: one warning naming it, the rest imported
{ as_mbox "$SM_SRCDIR/tests/fixtures/mail/latin1-reply.eml"
  as_mbox "$SM_SRCDIR/tests/fixtures/mail/broken.eml"
  as_mbox "$SM_SRCDIR/tests/fixtures/mail/base64-tested.eml"; } > "$TMP/mixed.mbox"
"$STABLEMATE" import --maildir "$db/mixed" --db "$db" --mbox "$TMP/mixed.mbox" --json \
	> "$TMP/i3.json" 2> "$TMP/i3.err" || fail "import with a broken mail failed"
[ "$(json_get "$TMP/i3.json" skipped)" = 1 ] || fail "broken mail not skipped: $(cat "$TMP/i3.json")"
[ "$(json_get "$TMP/i3.json" indexed)" = 2 ] || fail "good mails not indexed"
[ "$(wc -l < "$TMP/i3.err")" = 1 ] || fail "expected one warning line, got: $(cat "$TMP/i3.err")"
grep -q "mixed.mbox: message 2" "$TMP/i3.err" || fail "warning does not name the mail: $(cat "$TMP/i3.err")"
echo "broken mail: $(cat "$TMP/i3.err")"
[ "$(nm "$db" count id:latin1-reply@example.de)" = 1 ] || fail "latin1 reply not indexed"

# 4. public-inbox: 40 real tegra replies, then 2 more; only the 2 are read again
mapfile -t files < <(find "$SHARED/corpus/lists/tegra/stable-rc-review-single-replies" -type f | sort)
[ "${#files[@]}" -ge 40 ] || fail "tegra corpus missing"
pi_from_files "$TMP/pi/git/0.git" "${files[@]:0:38}"
"$STABLEMATE" import --maildir "$db/tegra" --db "$db" --public-inbox "$TMP/pi" --json > "$TMP/p1.json"
[ "$(json_get "$TMP/p1.json" messages)" = 38 ] || fail "public-inbox: $(cat "$TMP/p1.json")"
grep -q "0.git $(git --git-dir="$TMP/pi/git/0.git" rev-parse HEAD)" "$db/tegra/.stablemate-import-state" ||
	fail "state file does not hold the last commit"
pi_from_files "$TMP/pi/git/0.git" "${files[@]:38:2}"
"$STABLEMATE" import --maildir "$db/tegra" --db "$db" --public-inbox "$TMP/pi" --json > "$TMP/p2.json"
[ "$(json_get "$TMP/p2.json" messages)" = 2 ] || fail "incremental import read $(cat "$TMP/p2.json")"
"$STABLEMATE" import --maildir "$db/tegra" --db "$db" --public-inbox "$TMP/pi/git/0.git" --json > "$TMP/p3.json"
[ "$(json_get "$TMP/p3.json" messages)" = 0 ] || fail "third import read $(cat "$TMP/p3.json")"
# a second epoch is read after the first
pi_from_files "$TMP/pi/git/1.git" "$SM_SRCDIR/tests/fixtures/mail/base64-tested.eml"
"$STABLEMATE" import --maildir "$db/tegra" --db "$db" --public-inbox "$TMP/pi" --json > "$TMP/p4.json"
[ "$(json_get "$TMP/p4.json" messages)" = 1 ] || fail "epoch 1: $(cat "$TMP/p4.json")"
echo "public-inbox: 38 + 2 + 0 + 1 (second epoch) messages on four runs"
# a mirror another user owns (public-inbox's, grokmirror's) is read: libgit2
# opens a bare repository whoever owns it (root only: chown)
if [ "$(id -u)" = 0 ] && cp -r "$TMP/pi" "$TMP/pi-owned" && chown -R nobody "$TMP/pi-owned"; then
	mkdir -p "$TMP/empty-home"
	HOME="$TMP/empty-home" "$STABLEMATE" import --maildir "$db/owned" --db "$db" \
		--public-inbox "$TMP/pi-owned" --json > "$TMP/p5.json" 2> "$TMP/owned.err" ||
		fail "a mirror nobody owns: $(cat "$TMP/owned.err")"
	[ "$(json_get "$TMP/p5.json" messages)" = 41 ] || fail "a mirror nobody owns: $(cat "$TMP/p5.json")"
	echo "a mirror another user owns: read"
fi

# 5. errors: usage (2), missing input (1, one line naming it), maildir outside the db
"$STABLEMATE" import --maildir "$db/x" >/dev/null 2>&1 && fail "no source accepted"
set +e
"$STABLEMATE" import --maildir "$db/x" 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "usage error gave $rc"
"$STABLEMATE" import --maildir "$db/x" --mbox "$TMP/nope.mbox" 2> "$TMP/e.err"; rc=$?
[ $rc -eq 1 ] || fail "missing mbox gave $rc"
grep -q "nope.mbox" "$TMP/e.err" || fail "error does not name the file"
"$STABLEMATE" import --maildir "$TMP/outside" --db "$db" --mbox "$TMP/mixed.mbox" 2> "$TMP/e2.err"; rc=$?
[ $rc -eq 1 ] || fail "maildir outside the db gave $rc"
set -e
"$STABLEMATE" import --help | grepq -- "--public-inbox" || fail "no help"
echo "ok"
