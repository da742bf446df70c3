#!/usr/bin/env bash
# Every stable tag in the real corpus (../shared: list mail, b4 and
# patchwork samples, CVE announcements, the seed) and in the kernel's
# stable-kernel-rules.rst must parse, or be listed in
# tests/known-odd-stable-tags.txt with the reason. The wild-forms fixture
# must parse exactly as expected. Prints the candidate count on the corpus.
. "$(dirname "$0")/lib.sh"

fixture=$SM_SRCDIR/tests/fixtures/rules/stable-tags-wild.txt
grep -v '^#' "$fixture" | cut -f5 | "$STABLEMATE" classify --tags > "$TMP/wild.got"
grep -v '^#' "$fixture" | diff -u - "$TMP/wild.got" || fail "stable-tag fixture parsed differently"
echo "wild forms: $(wc -l < "$TMP/wild.got") tags parsed as expected"
# the same with CRLF line ends and a byte-order mark: no "\r" in the tag
# read, the first line's tag found, a blank line of "\r" ends a fold
grep -v '^#' "$fixture" | cut -f5 | sed 's/$/\r/' | sed '1s/^/\xef\xbb\xbf/' |
	"$STABLEMATE" classify --tags | diff -u "$TMP/wild.got" - || fail "--tags of CRLF text differs"
printf 'Cc: stable@vger.kernel.org #\r\n  5.10+\r\n \r\n  6.1+\r\n' | "$STABLEMATE" classify --tags |
	grep -qxP 'from\t5.10\t-\t-\tCc: stable@vger.kernel.org #   5.10\+' || fail "--tags: a CRLF fold"
echo "wild forms with CRLF and a byte-order mark: the same"

[ -d "$SHARED/corpus" ] || skip "no ../shared corpus here"
# Gather text: maildirs and mboxes as they are, gzipped mboxes unpacked, and
# the stable rules document from Debian's linux-source-6.1 when installed.
: > "$TMP/all.txt"
find "$SHARED/seeds" "$SHARED/corpus" -type f ! -name '*.gz' ! -name '*.tsv' ! -name '*.md' \
	-exec cat {} + >> "$TMP/all.txt" 2>/dev/null
for gz in "$SHARED"/corpus/cve-announce/*.gz; do zcat "$gz" >> "$TMP/all.txt"; done
rules_rst=linux-source-6.1/Documentation/process/stable-kernel-rules.rst
if [ -f /usr/src/linux-source-6.1.tar.xz ]; then
	tar -xJf /usr/src/linux-source-6.1.tar.xz --occurrence=1 -C "$TMP" "$rules_rst" 2>/dev/null &&
		cat "$TMP/$rules_rst" >> "$TMP/all.txt"
fi
"$STABLEMATE" classify --tags "$TMP/all.txt" > "$TMP/tags.txt"
total=$(wc -l < "$TMP/tags.txt")
[ "$total" -gt 0 ] || fail "no stable tags found in the corpus"
known=$SM_SRCDIR/tests/known-odd-stable-tags.txt
grep -P '^unparsed\t' "$TMP/tags.txt" | cut -f5 | sort -u > "$TMP/unparsed.txt" || true
{ grep -v '^#' "$known" || true; } | cut -f1 | sort -u > "$TMP/known.txt"
new=$(comm -23 "$TMP/unparsed.txt" "$TMP/known.txt")
[ -z "$new" ] || fail "stable tags that do not parse (fix the parser or list them in $known):
$new"
echo "corpus: $total stable tags, $(sort -u "$TMP/tags.txt" | wc -l) distinct, $(wc -l < "$TMP/unparsed.txt") known odd"

# Candidates on the corpus: every message of the list maildirs and mboxes.
find "$SHARED/corpus/lists" -path '*/cur/*' -type f | while read -r f; do
	printf 'From stablemate-corpus Thu Jan  1 00:00:00 1970\n'; cat "$f"; echo
done > "$TMP/lists.mbox"
"$STABLEMATE" classify -q --batch "$TMP/lists.mbox" > "$TMP/verdicts.jsonl" 2>/dev/null
n=$(wc -l < "$TMP/verdicts.jsonl")
cand=$(grep -c '"verdict":"candidate"' "$TMP/verdicts.jsonl" || true)
maybe=$(grep -c '"verdict":"maybe"' "$TMP/verdicts.jsonl" || true)
echo "corpus lists: $n messages, $cand candidates, $maybe maybe"
[ "$n" -gt 1000 ] || fail "expected over 1000 list messages, got $n"
[ "$cand" -gt 0 ] || fail "no candidates in the corpus"

# The seed: no stable tag, no Fixes tag, still a candidate for 6.1.
"$STABLEMATE" classify --json --tree 6.1 "$SM_SRCDIR/sample/commits/seed-e4ec8cc8039a.patch" | grepq '"verdict":{"verdict":"candidate"' || fail "the seed ALSA fix is not a candidate"
echo "seed e4ec8cc8039a: candidate"
# JSONL as editors and other systems write it: a UTF-8 byte-order mark
# (gzipped too, where the reader hands over the first two bytes alone),
# CRLF lines, blank lines of spaces and CRs. Each was once taken for an
# mbox, or its blank lines for unreadable records.
printf '\357\273\277{"id": "a", "subject": "net: fix a leak"}\r\n \r\n\r\n{"id": "b", "subject": "mm: add x"}\r\n' \
	> "$TMP/bom.jsonl"
gzip -c "$TMP/bom.jsonl" > "$TMP/bom.jsonl.gz"
for f in bom.jsonl bom.jsonl.gz; do
	"$STABLEMATE" classify --batch "$TMP/$f" > "$TMP/bom.out" 2> "$TMP/bom.err" ||
		fail "$f: $(cat "$TMP/bom.err")"
	[ "$(sed 's/^{"id":"\([a-z]*\)","subject":"\([^"]*\)".*/\1 \2/' "$TMP/bom.out" | tr '\n' '|')" = \
	  "a net: fix a leak|b mm: add x|" ] || fail "$f: $(cat "$TMP/bom.out")"
	grep -q "2 records, 0 unreadable" "$TMP/bom.err" || fail "$f: $(cat "$TMP/bom.err")"
done
printf '\357\273\277net: fix a leak in foo\n\nIt leaks.\n' > "$TMP/bom.txt"
"$STABLEMATE" classify --json "$TMP/bom.txt" | grepq '"subject":"net: fix a leak in foo"' ||
	fail "a byte-order mark stayed in the subject"
echo "byte-order marks, CRLF and blank lines: read as text and skipped"

# The README shows the seed's verdict as the model gives it: the same text
sed -n '/^\$ stablemate classify --tree 6.1 sample\/commits\/seed-e4ec8cc8039a.patch$/,/^```$/p' "$SM_SRCDIR/README.md" |
	sed '1d;$d' > "$TMP/seed.readme"
[ -s "$TMP/seed.readme" ] || fail "no seed example in README.md"
"$STABLEMATE" classify --tree 6.1 "$SM_SRCDIR/sample/commits/seed-e4ec8cc8039a.patch" |
	diff -u "$TMP/seed.readme" - || fail "README.md's seed example is not what classify prints"
echo "seed e4ec8cc8039a: the README's example is the output"
# ... and the tagged one out of its range: the lines it shows ("..." elides)
sed -n '/^\$ stablemate classify --tree 4.4 sample\/commits\/tegra-stable-tagged.eml$/,/^```$/p' \
	"$SM_SRCDIR/README.md" | sed '1d;$d' | grep -v '^  \.\.\.$' > "$TMP/tegra.readme"
[ -s "$TMP/tegra.readme" ] || fail "no tegra example in README.md"
"$STABLEMATE" classify --tree 4.4 "$SM_SRCDIR/sample/commits/tegra-stable-tagged.eml" > "$TMP/tegra.out"
while IFS= read -r line; do
	grep -qxF -- "$line" "$TMP/tegra.out" || fail "README.md's tegra example says \"$line\"; classify does not"
done < "$TMP/tegra.readme"

# Encoded mail is decoded (gmime) before it is judged: a quoted-printable
# body whose soft line break falls inside "use-after-free", a base64 body,
# RFC 2047 subjects and authors, and a multipart whose patch is an
# attachment. Read as written, none of these phrases would be found.
cat > "$TMP/qp.eml" <<'EOF'
From: =?utf-8?q?J=C3=B6rg_Dev?= <dev@example.org>
Subject: [PATCH] =?utf-8?q?ALSA=3A_usb-audio=3A_plug_a_hole_in_f=C3=B6o=5Fprobe?=
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

f=C3=B6o_probe() frees the URB on the error path and the completion handl=
er then reads it: a use-after-=
free.

Signed-off-by: J=C3=B6rg Dev <dev@example.org>
EOF
"$STABLEMATE" classify --json "$TMP/qp.eml" > "$TMP/qp.json"
grepq '"subject":"ALSA: usb-audio: plug a hole in föo_probe"' < "$TMP/qp.json" ||
	fail "RFC 2047 subject not decoded: $(cat "$TMP/qp.json")"
grepq '"author":"Jörg Dev <dev@example.org>"' < "$TMP/qp.json" || fail "RFC 2047 From: not decoded"
grepq '"code":"keyword:use-after-free"' < "$TMP/qp.json" ||
	fail "quoted-printable body not decoded (use-after-free across a soft line break)"
{
	printf 'From: Dev <dev@example.org>\nSubject: [PATCH] usb: core: check the config pointer\n'
	printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n'
	printf 'Content-Transfer-Encoding: base64\n\n'
	printf 'usb_probe() dereferences a NULL pointer when the device goes away\nduring probe.\n\nSigned-off-by: Dev <dev@example.org>\n' | base64
} > "$TMP/b64.eml"
"$STABLEMATE" classify --json "$TMP/b64.eml" | grepq '"code":"keyword:null-deref"' ||
	fail "base64 body not decoded"
{
	printf 'From: Dev <dev@example.org>\nSubject: [PATCH] hwmon: (occ) check the sample count\n'
	printf 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b1"\n\n--b1\n'
	printf 'Content-Type: text/plain; charset=utf-8\n\n'
	printf 'occ_get_powr_avg() divides by a count that can be zero: a division by zero.\n\nSigned-off-by: Dev <dev@example.org>\n'
	printf -- '--b1\nContent-Type: text/x-patch; name="fix.patch"\n'
	printf 'Content-Disposition: attachment; filename="fix.patch"\nContent-Transfer-Encoding: base64\n\n'
	printf 'diff --git a/drivers/hwmon/occ/common.c b/drivers/hwmon/occ/common.c\n--- a/drivers/hwmon/occ/common.c\n+++ b/drivers/hwmon/occ/common.c\n@@ -1,3 +1,5 @@\n u64 avg(u64 a, u64 n)\n {\n+\tif (!n)\n+\t\treturn 0;\n \treturn div64_u64(a, n);\n' | base64
	printf -- '--b1--\n'
} > "$TMP/multi.eml"
"$STABLEMATE" classify --json "$TMP/multi.eml" > "$TMP/multi.json"
# the phrase is in the text part only; with the attachment read the
# verdict has a diff (no "model:no-diff", which b64.eml above has)
grepq '"code":"keyword:divide-by-zero"' < "$TMP/multi.json" ||
	fail "multipart mail: text part not read: $(cat "$TMP/multi.json")"
! grepq '"code":"model:no-diff"' < "$TMP/multi.json" ||
	fail "multipart mail: patch attachment not read: $(cat "$TMP/multi.json")"
"$STABLEMATE" classify --json "$TMP/b64.eml" | grepq '"code":"model:no-diff"' ||
	fail "a mail without a diff lacks model:no-diff: the check above proves nothing"
printf 'From: J\366rg Dev <dev@example.org>\nSubject: net: fix a leak in f\366o\nMIME-Version: 1.0\nContent-Type: text/plain;\n\tcharset="iso-8859-1"\nContent-Transfer-Encoding: 8bit\n\nThe f\366o driver leaks memory.\n' > "$TMP/latin1.eml"
"$STABLEMATE" classify --json "$TMP/latin1.eml" | grepq '"author":"Jörg Dev <dev@example.org>"' ||
	fail "an ISO-8859-1 mail's sender is not converted to UTF-8"
echo "encoded mail: quoted-printable, base64, RFC 2047, multipart and Latin-1 decoded before judging"

# --tree takes the branch name as scan does; a name without a version is
# an error naming it, not a verdict for no tree.
"$STABLEMATE" classify --json --tree linux-6.1.y "$SM_SRCDIR/sample/commits/seed-e4ec8cc8039a.patch" |
	grepq '"tree":"6.1"' || fail "--tree linux-6.1.y is not tree 6.1"
if "$STABLEMATE" classify --tree linux-next "$SM_SRCDIR/sample/commits/seed-e4ec8cc8039a.patch" \
	>/dev/null 2>"$TMP/tree.err"; then
	fail "--tree linux-next was taken"
fi
grep -q -- "--tree linux-next: neither a kernel version" "$TMP/tree.err" ||
	fail "--tree linux-next: $(cat "$TMP/tree.err")"
echo "--tree linux-6.1.y: tree 6.1; --tree linux-next: refused"

# Output that cannot be written is an error (as git: exit 128, one line),
# not a silent exit 0 with nothing written.
if [ -w /dev/full ]; then
	set +e
	"$STABLEMATE" classify --json --tree 6.1 "$SM_SRCDIR/sample/commits/seed-e4ec8cc8039a.patch" \
		>/dev/full 2>"$TMP/full.err"
	rc=$?
	set -e
	[ $rc -eq 128 ] || fail "classify > /dev/full exited $rc"
	[ "$(wc -l <"$TMP/full.err")" -eq 1 ] && grep -q "write failure on standard output" "$TMP/full.err" ||
		fail "classify > /dev/full: $(cat "$TMP/full.err")"
	echo "classify > /dev/full: exit 128, one line"
fi

# Binary data (a NUL byte in the first 8,000 bytes, as git tells it) is no
# commit: one line naming the file and the offset, exit 1. In an mbox only
# that message is skipped, named by its number; the others are judged.
head -c 2000 /dev/zero | tr '\0' 'x' > "$TMP/bin.dat"
printf '\0\001\377' >> "$TMP/bin.dat"
for batch in "" --batch; do
	set +e
	"$STABLEMATE" classify $batch "$TMP/bin.dat" >"$TMP/bin.out" 2>"$TMP/bin.err"
	rc=$?
	set -e
	[ $rc -eq 1 ] && [ ! -s "$TMP/bin.out" ] || fail "classify $batch of binary data: exit $rc, $(cat "$TMP/bin.out")"
	grep -q "bin.dat.*binary data (a NUL byte at offset 2000)" "$TMP/bin.err" ||
		fail "classify $batch of binary data: $(cat "$TMP/bin.err")"
done
{
	echo "From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001"
	cat "$SM_SRCDIR/sample/commits/hwmon-ibmaem-dont-call-del.eml"; echo
	echo "From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001"
	cat "$TMP/bin.dat"; echo
	echo "From 3333333333333333333333333333333333333333 Mon Sep 17 00:00:00 2001"
	cat "$SM_SRCDIR/sample/commits/hwmon-occ-fix-response-length.eml"
} > "$TMP/mixed.mbox"
set +e
"$STABLEMATE" classify --batch "$TMP/mixed.mbox" >"$TMP/mixed.out" 2>"$TMP/mixed.err"
rc=$?
set -e
ids=$(sed -n 's/^{"id":"\([0-9]*\)".*/\1/p' "$TMP/mixed.out" | cut -c1-4 | tr '\n' ' ')
[ $rc -eq 1 ] && [ "$ids" = "1111 3333 " ] ||
	fail "an mbox with a binary message: exit $rc, $(cat "$TMP/mixed.out")"
grep -q "mixed.mbox: message 2: binary data" "$TMP/mixed.err" && grep -q "3 records, 1 unreadable" "$TMP/mixed.err" ||
	fail "an mbox with a binary message: $(cat "$TMP/mixed.err")"
echo "binary data: refused with its offset; in an mbox that message alone skipped"

# --batch on a git format-patch mbox: each verdict carries the commit id of
# its "From <sha> Mon Sep 17 00:00:00 2001" separator line.
git init -q -b master "$TMP/fp"
for i in 1 2; do
	echo "$i" > "$TMP/fp/f$i.c"
	git -C "$TMP/fp" add "f$i.c"
	git -C "$TMP/fp" -c user.name=Dev -c user.email=dev@example.org commit -q -m "x: fix a leak $i"
done
git -C "$TMP/fp" format-patch -2 --stdout > "$TMP/fp.mbox"
"$STABLEMATE" classify -q --batch "$TMP/fp.mbox" | sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p' > "$TMP/fp.ids"
git -C "$TMP/fp" rev-list --reverse HEAD | diff -u - "$TMP/fp.ids" || fail "--batch lost the format-patch ids"
echo "classify --batch of a format-patch mbox: ids kept"
