#!/usr/bin/env bash
# Issue 7.4: every mail of ../shared/corpus/patchwork/ (parser test mails with
# bad charsets, invalid header bytes, binary diffs, pull requests; series
# threading cases) and corpus/cve-announce/ (gzipped mbox) goes through
# `stablemate import` and `stablemate harvest` without a crash or a hang (CI
# runs this under ASan+LSan too); a mail that cannot be parsed gives one
# warning line and the run goes on.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mail_lib.sh"
[ -d "$SHARED/corpus/patchwork" ] || skip "no ../shared corpus here"

db=$TMP/db
mkdir -p "$db"
: > "$TMP/warn.txt"
n=0
for dir in patchwork/mail patchwork/series cve-announce; do
	args=()
	for f in "$SHARED/corpus/$dir"/*.mbox*; do args+=(--mbox "$f"); done
	timeout 300 "$STABLEMATE" import --maildir "$db/${dir//\//-}" --db "$db" "${args[@]}" \
		--json > "$TMP/i.json" 2>> "$TMP/warn.txt" || fail "import of $dir failed"
	n=$((n + $(json_get "$TMP/i.json" messages)))
done
indexed=$(nm "$db" count '*')
[ "$indexed" -gt 300 ] || fail "only $indexed messages indexed"

up=$TMP/up
upstream_repo "$up"
commit_file "$up" README linux "Linux 6.10" > /dev/null
# Patch subjects of the corpus as upstream history, so mapping runs too.
grep -h '^Subject: \[' "$SHARED"/corpus/patchwork/series/*.mbox | sed 's/^Subject: \(\[[^]]*\] *\)*//' |
	sort -u | commits_from_titles "$up"
timeout 600 "$STABLEMATE" harvest --db "$db" --repo "$up" --query '*' --json \
	> "$TMP/h.json" 2>> "$TMP/warn.txt" || fail "harvest failed"
[ "$(json_get "$TMP/h.json" stats.messages)" = "$indexed" ] || fail "harvest saw $(json_get "$TMP/h.json" stats)"
# every diagnostic is one warning line
if grep -v '^stablemate: warning: ' "$TMP/warn.txt"; then fail "output other than warning lines"; fi
timeout 600 "$STABLEMATE" harvest --db "$db" --repo "$up" --query '*' --json > "$TMP/h2.json" 2>/dev/null
[ "$(json_get "$TMP/h2.json" stats.reviews_added)" = 0 ] || fail "rerun added reviews"
echo "corpus: $n mails read, $indexed indexed, $(grep -c 'skipped' "$TMP/warn.txt" || true) skipped with a warning"
echo "harvest: $(json_get "$TMP/h.json" stats)"
echo ok
