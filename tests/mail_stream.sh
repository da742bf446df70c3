#!/usr/bin/env bash
# Input read as a stream (issue 10 §3, issue 17 items 5 and 6): a message
# over the size cap is named and skipped while the others import; a gzip of
# one huge message is skipped in bounded memory (peak RSS, a generous bound);
# a truncated .mbox.gz is an error naming it and its cut-off last message is
# not indexed; a missing --mbox among others is named and the rest imported;
# classify --batch reads JSONL and mbox through the same reader.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mail_lib.sh"
command -v python3 >/dev/null || skip "python3 missing"
command -v notmuch >/dev/null || skip "notmuch missing"

db=$TMP/db
mkdir -p "$db"
kb() { cat "$1"; }
# rss_below KB FILE WHAT: the peak RSS in FILE is under KB (not under a
# sanitizer, whose shadow memory and quarantine are not the program's)
rss_below() {
	[ -n "${SM_TESTS_SANITIZED:-}" ] && return 0
	[ "$(cat "$2")" -lt "$1" ] || fail "$3: peak RSS $(cat "$2") KB (bound $1 KB)"
}

# 1. a 300 KB mail over a 100K cap, between ordinary ones
{ gen_mails 2 a; big_mail big-1@example.org 300000; gen_mails 1 c; } > "$TMP/capped.mbox"
"$STABLEMATE" import --maildir "$db/capped" --db "$db" --mbox "$TMP/capped.mbox" \
	--max-message-size 100K --json > "$TMP/c.json" 2> "$TMP/c.err" || fail "capped import failed: $(cat "$TMP/c.err")"
[ "$(json_get "$TMP/c.json" messages)" = 4 ] || fail "capped: $(cat "$TMP/c.json")"
[ "$(json_get "$TMP/c.json" indexed)" = 3 ] || fail "capped: not 3 indexed: $(cat "$TMP/c.json")"
[ "$(json_get "$TMP/c.json" skipped)" = 1 ] || fail "capped: not 1 skipped: $(cat "$TMP/c.json")"
[ "$(wc -l < "$TMP/c.err")" = 1 ] || fail "capped: not one line: $(cat "$TMP/c.err")"
grep -q "capped.mbox: message 3 <big-1@example.org>: 3[0-9]* bytes, over the 102400-byte" "$TMP/c.err" ||
	fail "capped: the warning does not name the mail: $(cat "$TMP/c.err")"
[ "$(nm "$db" count id:big-1@example.org)" = 0 ] || fail "the big mail was indexed"
[ "$(nm "$db" count id:c-1@example.org)" = 1 ] || fail "the mail after the big one is lost"
echo "cap: $(cat "$TMP/c.err")"
"$STABLEMATE" import --maildir "$db/capped" --mbox "$TMP/capped.mbox" --max-message-size 12X \
	2>/dev/null && fail "a bad size accepted"

# 2. a small gzip holding one 400 MB mail between two ordinary ones: skipped
#    with the default 64 MB cap, without holding it (the old reader peaked at
#    twice the un-gzipped size)
gz_with_big_mail "$TMP/huge.mbox.gz" 400
peak_rss "$TMP/h.rss" "$STABLEMATE" import --maildir "$db/huge" --db "$db" \
	--mbox "$TMP/huge.mbox.gz" --json > "$TMP/h.json" 2> "$TMP/h.err" ||
	fail "huge gzip import failed: $(cat "$TMP/h.err")"
[ "$(json_get "$TMP/h.json" indexed)" = 2 ] || fail "huge: $(cat "$TMP/h.json")"
[ "$(json_get "$TMP/h.json" skipped)" = 1 ] || fail "huge: $(cat "$TMP/h.json")"
grep -q "huge.mbox.gz: message 2 <huge@example.org>: 4194[0-9]* bytes, over the 67108864-byte" "$TMP/h.err" ||
	fail "huge: $(cat "$TMP/h.err")"
rss=$(kb "$TMP/h.rss")
rss_below 250000 "$TMP/h.rss" "huge gzip, a 400 MB mail"
echo "huge: $(du -k "$TMP/huge.mbox.gz" | cut -f1) KB gzip, one 400 MB mail skipped, peak RSS $((rss / 1024)) MB"
rm -f "$TMP/huge.mbox.gz"

# 3. a truncated .mbox.gz: exit 1 naming it; every mail before the cut is
#    indexed, the cut-off one is not
gen_mails 60 t 8 | gzip -6 > "$TMP/full.mbox.gz"
size=$(stat -c %s "$TMP/full.mbox.gz")
head -c $((size * 6 / 10)) "$TMP/full.mbox.gz" > "$TMP/trunc.mbox.gz"
started=$( (zcat "$TMP/trunc.mbox.gz" 2>/dev/null || true) | grep -c '^From t-')
set +e
"$STABLEMATE" import --maildir "$db/trunc" --db "$db" --mbox "$TMP/trunc.mbox.gz" --json \
	> "$TMP/t.json" 2> "$TMP/t.err"; rc=$?
set -e
[ $rc = 1 ] || fail "truncated gzip gave exit $rc: $(cat "$TMP/t.err")"
grep -q "trunc.mbox.gz: the gzip data ends early" "$TMP/t.err" || fail "truncated: $(cat "$TMP/t.err")"
n=$(nm "$db" count folder:trunc)
[ "$n" = $((started - 1)) ] || fail "truncated: $n indexed, $started mails begun before the cut"
for f in "$db"/trunc/cur/*; do
	tail -2 "$f" | grepq '^Tested-by: ' || fail "a cut-off mail was imported: $f"
done
echo "truncated: $(head -1 "$TMP/t.err"); $n complete mails indexed, the cut one not"

# 4. --mbox A --mbox /nonexistent --mbox B: B is imported, the missing one
#    named, exit 1 at the end
gen_mails 3 ma > "$TMP/A.mbox"
gen_mails 4 mb > "$TMP/B.mbox"
set +e
"$STABLEMATE" import --maildir "$db/multi" --db "$db" --mbox "$TMP/A.mbox" \
	--mbox "$TMP/nonexistent.mbox" --mbox "$TMP/B.mbox" --json > "$TMP/m.json" 2> "$TMP/m.err"; rc=$?
set -e
[ $rc = 1 ] || fail "a missing mbox among others gave exit $rc"
grep -q "nonexistent.mbox: No such file" "$TMP/m.err" || fail "missing mbox not named: $(cat "$TMP/m.err")"
[ "$(json_get "$TMP/m.json" indexed)" = 7 ] || fail "A and B not both imported: $(cat "$TMP/m.json")"
[ "$(nm "$db" count id:mb-4@example.org)" = 1 ] || fail "B not indexed"
echo "missing input: $(head -1 "$TMP/m.err")"

# 5. classify --batch: the shared mbox reader (a ">From " line unescaped, a
#    body line "From the start..." not taken for a separator), and JSONL with
#    a line over the cap named and skipped
{ gen_mails 1 cl
  printf 'From x@y Mon Jul  1 09:00:00 2024\nFrom: A <a@example.org>\nSubject: [PATCH] net: fix a leak\n\n'
  printf 'Fix it.\n\nFrom the start this leaked.\n\nCc: stable@vger.kernel.org\n\n'; } > "$TMP/cl.mbox"
"$STABLEMATE" classify --batch "$TMP/cl.mbox" > "$TMP/cl.out" 2> "$TMP/cl.err"
grep -q "2 records, 0 unreadable" "$TMP/cl.err" || fail "classify mbox: $(cat "$TMP/cl.err")"
[ "$(wc -l < "$TMP/cl.out")" = 2 ] || fail "classify mbox: $(cat "$TMP/cl.out")"
python3 - "$TMP/cl.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    f.write(json.dumps({"id": "r1", "subject": "mm: fix a leak", "body": "Cc: stable@vger.kernel.org"}) + "\n")
    f.write(json.dumps({"id": "r2", "subject": "big", "body": "y" * 300000}) + "\n")
    f.write(json.dumps({"id": "r3", "message": "usb: fix a crash\n\nFixes: 0123456789ab (\"x\")"}) + "\n")
PY
rc=0
"$STABLEMATE" classify --batch "$TMP/cl.jsonl" --max-record-size 100K > "$TMP/cj.out" 2> "$TMP/cj.err" || rc=$?
[ "$rc" = 1 ] || fail "classify jsonl with a record skipped exited $rc, not 1"
[ "$(wc -l < "$TMP/cj.out")" = 2 ] || fail "classify jsonl: $(cat "$TMP/cj.out")"
grep -q '"id":"r3"' "$TMP/cj.out" || fail "the record after the big one is lost"
grep -q "cl.jsonl:2: 3000[0-9]* bytes, over the 102400-byte record size limit (skipped)" "$TMP/cj.err" ||
	fail "classify jsonl: $(cat "$TMP/cj.err")"
# a 300 MB JSONL line among small ones: skipped in bounded memory
python3 - "$TMP/huge.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    f.write(json.dumps({"id": "a", "subject": "mm: fix a leak", "body": "Cc: stable@vger.kernel.org"}) + "\n")
    f.write('{"id": "huge", "subject": "x", "body": "')
    chunk = "z" * (1 << 20)
    for _ in range(300):
        f.write(chunk)
    f.write('"}\n')
    f.write(json.dumps({"id": "b", "subject": "usb: fix a crash", "body": ""}) + "\n")
PY
rc=0
peak_rss "$TMP/cj.rss" "$STABLEMATE" classify --batch "$TMP/huge.jsonl" > "$TMP/cj2.out" 2> "$TMP/cj2.err" || rc=$?
[ "$rc" = 1 ] || fail "classify huge jsonl exited $rc, not 1"
[ "$(wc -l < "$TMP/cj2.out")" = 2 ] || fail "classify huge jsonl: $(cat "$TMP/cj2.err")"
rss=$(kb "$TMP/cj.rss")
rss_below 250000 "$TMP/cj.rss" "classify --batch, a 300 MB line"
echo "classify --batch: a 300 MB JSONL line skipped, peak RSS $((rss / 1024)) MB"
rm -f "$TMP/huge.jsonl"
# 6. fetch: a reply that never ends stops at --max-size with one line naming
#    the URL, in bounded memory, keeping the complete mails before the cut; a
#    gzip holding a 200 MB mail has it named and skipped, the others imported
cat > "$TMP/server.py" <<'PY'
import http.server, sys
big = open(sys.argv[1], "rb").read()
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/gzip" if "big" in self.path else "text/plain")
        self.end_headers()
        try:
            if "big" in self.path:
                self.wfile.write(big)
                return
            i = 0
            body = ("Some text of the thread.".ljust(63) + "\n") * 300
            while True:      # an endless mbox of 20 KB mails
                i += 1
                self.wfile.write((f"From e-{i}@example.org Mon Jul  1 09:00:00 2024\n"
                                  f"From: E <e@example.org>\nSubject: endless {i}\n"
                                  f"Message-ID: <e-{i}@example.org>\n\n{body}\n").encode())
        except (BrokenPipeError, ConnectionResetError):
            pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print("port", s.server_address[1], flush=True)
s.serve_forever()
PY
gz_with_big_mail "$TMP/big.gz" 200
: > "$TMP/http.log"	# the background job opens it later: sed must find it first
python3 -u "$TMP/server.py" "$TMP/big.gz" > "$TMP/http.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$TMP"' EXIT
port=
for _ in $(seq 1 100); do
	port=$(sed -n 's/^port \([0-9]*\)/\1/p' "$TMP/http.log")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || fail "HTTP server did not start: $(cat "$TMP/http.log")"
set +e
peak_rss "$TMP/f.rss" "$STABLEMATE" fetch endless@example.org --from "http://127.0.0.1:$port/all" \
	--maildir "$db/endless" --db "$db" --max-size 20M > "$TMP/f.out" 2> "$TMP/f.err"; rc=$?
set -e
[ $rc = 1 ] || fail "endless reply gave exit $rc: $(cat "$TMP/f.err")"
[ "$(wc -l < "$TMP/f.err")" = 1 ] || fail "endless reply: not one line: $(cat "$TMP/f.err")"
grep -q "endless@example.org/t.mbox.gz: the reply is larger than 20971520 bytes" "$TMP/f.err" ||
	fail "endless reply: $(cat "$TMP/f.err")"
n=$(nm "$db" count folder:endless)
[ "$n" -gt 900 ] && [ "$n" -lt 1200 ] || fail "endless reply: $n mails indexed, want the ~1000 complete ones"
rss=$(kb "$TMP/f.rss")
rss_below 150000 "$TMP/f.rss" "fetch of an endless reply"
echo "endless reply: $(cat "$TMP/f.err"); $n complete mails kept; peak RSS $((rss / 1024)) MB"
peak_rss "$TMP/b.rss" "$STABLEMATE" fetch big@example.org --from "http://127.0.0.1:$port/all" \
	--maildir "$db/bigfetch" --db "$db" --json > "$TMP/b.json" 2> "$TMP/b.err" ||
	fail "fetch of a thread with a 200 MB mail failed: $(cat "$TMP/b.err")"
[ "$(json_get "$TMP/b.json" written)" = 2 ] || fail "big fetch: $(cat "$TMP/b.json")"
[ "$(nm "$db" count folder:bigfetch)" = 2 ] || fail "big fetch: the two small mails are not indexed"
grep -q "big@example.org: message 2 <huge@example.org>: 2097[0-9]* bytes, over the 67108864-byte" "$TMP/b.err" ||
	fail "big fetch: $(cat "$TMP/b.err")"
rss=$(kb "$TMP/b.rss")
rss_below 200000 "$TMP/b.rss" "fetch of a thread with a 200 MB mail"
echo "fetch: a 200 MB mail in a thread skipped, peak RSS $((rss / 1024)) MB"
echo ok
