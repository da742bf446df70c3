#!/usr/bin/env bash
# stablemate fetch: a thread's t.mbox.gz served by a real HTTP server on
# 127.0.0.1 (python3 -m http.server, in the layout lore.kernel.org serves),
# downloaded with libcurl, imported and indexed; a missing thread fails
# with one line naming the URL.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mail_lib.sh"
[ -d "$SHARED/corpus/lists" ] || skip "no ../shared corpus here"
command -v python3 >/dev/null || skip "python3 missing"

msgid=20240523130327.956341021@linuxfoundation.org
mkdir -p "$TMP/www/all/$msgid"
as_mbox "$SHARED"/corpus/lists/stable-list/thread-5.15.160-rc1/cur/* | gzip > "$TMP/www/all/$msgid/t.mbox.gz"
: > "$TMP/http.log"	# the background job opens it later: sed must find it first
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$TMP/www" > "$TMP/http.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$TMP"' EXIT
port=
for _ in $(seq 1 50); do
	port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$TMP/http.log" | head -1)
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || fail "HTTP server did not start: $(cat "$TMP/http.log")"

db=$TMP/db
mkdir -p "$db"
"$STABLEMATE" fetch "<$msgid>" --from "http://127.0.0.1:$port/all" --maildir "$db/lore" --db "$db" \
	--json > "$TMP/f1.json"
n=$(ls "$SHARED"/corpus/lists/stable-list/thread-5.15.160-rc1/cur/ | wc -l)
[ "$(json_get "$TMP/f1.json" messages)" = "$n" ] || fail "fetched $(cat "$TMP/f1.json"), want $n"
[ "$(nm "$db" count "id:$msgid")" = 1 ] || fail "the cover letter is not indexed"
[ "$(nm "$db" count thread:"{id:$msgid}")" -gt 10 ] || fail "the thread is not threaded"
echo "fetched $(json_get "$TMP/f1.json" messages) messages of the 5.15.160-rc1 review thread"

# again: nothing new
"$STABLEMATE" fetch "$msgid" --from "http://127.0.0.1:$port/all/" --maildir "$db/lore" --db "$db" \
	--json > "$TMP/f2.json"
[ "$(json_get "$TMP/f2.json" written)" = 0 ] || fail "refetch wrote files"

set +e
"$STABLEMATE" fetch nothere@example.org --from "http://127.0.0.1:$port/all" --maildir "$db/lore" \
	2> "$TMP/e.err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "missing thread gave $rc"
[ "$(wc -l < "$TMP/e.err")" = 1 ] || fail "not one line: $(cat "$TMP/e.err")"
grep -q "nothere@example.org/t.mbox.gz: HTTP status 404" "$TMP/e.err" || fail "bad error: $(cat "$TMP/e.err")"
echo "missing thread: $(cat "$TMP/e.err")"

# An id with path characters stays one escaped path segment (as lore's
# links do); ids that are not addresses are refused before any request.
set +e
"$STABLEMATE" fetch "../../t/..@evil.example" --from "http://127.0.0.1:$port/all" \
	--maildir "$db/lore" 2> "$TMP/e2.err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "path id gave $rc"
grep -q '"GET /all/..%2F..%2Ft%2F..@evil.example/t.mbox.gz' "$TMP/http.log" ||
	fail "path id not escaped: $(tail -3 "$TMP/http.log")"
grep -q '"GET /t.mbox.gz' "$TMP/http.log" && fail "a request left /all/"
for bad in .. 'foo bar' '<>' 'a<b@x' nobody; do
	lines=$(wc -l < "$TMP/http.log")
	set +e
	"$STABLEMATE" fetch "$bad" --from "http://127.0.0.1:$port/all" --maildir "$db/lore" \
		2> "$TMP/e3.err"; rc=$?
	set -e
	[ $rc -eq 1 ] || fail "'$bad' gave $rc"
	grep -q "not a Message-ID" "$TMP/e3.err" || grepq "empty Message-ID" "$TMP/e3.err" ||
		fail "'$bad': $(cat "$TMP/e3.err")"
	[ "$(wc -l < "$TMP/http.log")" = "$lines" ] || fail "'$bad' was requested"
done
echo "odd ids: escaped into one path segment, or refused without a request"
echo ok
