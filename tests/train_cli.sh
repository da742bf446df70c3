#!/usr/bin/env bash
# stablemate train end to end: labels from a generated repository's stable
# branches (tests/trees_mkrepo.sh), labels from an mbox and a TSV, the same
# file from the same input, the written model read back by classify; and
# classify's numstat, --stat and JSONL "files" inputs.
. "$(dirname "$0")/lib.sh"

bash "$SM_SRCDIR/tests/trees_mkrepo.sh" "$TMP" >/dev/null
. "$TMP/ids.sh"
repo=$TMP/linux
rules=$TMP/rules
mkdir -p "$rules"
cp "$SM_SRCDIR"/rules/keywords.rules "$SM_SRCDIR"/rules/authors.rules "$SM_SRCDIR"/rules/thresholds.rules "$rules/"

# --- labels from the trees: v4.4..v4.5 has 13 non-merge commits (and one
# merge); linux-4.4.y carries W1 (by subject and patch-id), W3, W6 and
# linux-4.1.y W6 and W7 (by the upstream ids their messages name).
"$STABLEMATE" train --upstream "$repo" --range v4.4..v4.5 --trees linux-4.1.y,linux-4.4.y \
	--no-cache -o "$rules/model.rules" 2> "$TMP/train.err" || fail "train --upstream failed: $(cat "$TMP/train.err")"
grep -q '^stablemate train: 13 commits (4 stable)' "$TMP/train.err" ||
	fail "expected 13 commits, 4 stable: $(cat "$TMP/train.err")"
grep -q '^format stablemate-model 1$' "$rules/model.rules" || fail "no format line"
grep -q '^# trained on: .* v4.4..v4.5, labelled by linux-4.1.y,linux-4.4.y$' "$rules/model.rules" ||
	fail "the model does not say what it was trained on"
# the same input, the same file
"$STABLEMATE" train -q --upstream "$repo" --range v4.4..v4.5 --trees linux-4.1.y,linux-4.4.y \
	--no-cache -o "$TMP/again.rules"
cmp -s "$rules/model.rules" "$TMP/again.rules" || fail "two fits of the same commits differ"
# classify reads it from --rules and explains with its weights
git -C "$repo" show "$W7" | "$STABLEMATE" classify --json --rules "$rules" > "$TMP/w7.json"
grep -q '"code":"model:bias"' "$TMP/w7.json" || fail "the verdict does not come from the model: $(cat "$TMP/w7.json")"
echo "train --upstream: 13 commits, 4 stable, deterministic"
# --features: a line for each labelled commit, its label and the feature
# names the model reads; the model written is the same
"$STABLEMATE" train -q --upstream "$repo" --range v4.4..v4.5 --trees linux-4.1.y,linux-4.4.y \
	--no-cache -o "$TMP/f.rules" --features "$TMP/features.tsv"
cmp -s "$rules/model.rules" "$TMP/f.rules" || fail "--features changed the model"
[ "$(wc -l < "$TMP/features.tsv")" = 13 ] || fail "--features: $(wc -l < "$TMP/features.tsv") lines, not 13"
[ "$(cut -f2 "$TMP/features.tsv" | grep -c '^stable$')" = 4 ] || fail "--features: not 4 stable: $(cut -f1,2 "$TMP/features.tsv")"
awk -F '\t' -v id="$W7" '$1 == id && $2 == "stable" { for (i = 3; i <= NF; i++) f[$i] = 1 }
	END { exit !(f["stable-tag"] && f["diff:top:virt"] && f["trailer:cc"] == 0) }' "$TMP/features.tsv" ||
	fail "--features: W7's line lacks its facts: $(grep "^$W7" "$TMP/features.tsv")"
if "$STABLEMATE" train -q --upstream "$repo" --range v4.4..v4.5 --trees linux-4.4.y --no-cache \
	-o "$TMP/f2.rules" --features "$TMP/no/such/dir/f.tsv" 2> "$TMP/f.err"; then
	fail "--features into a missing directory succeeded"
fi
[ "$(wc -l < "$TMP/f.err")" = 1 ] && grep -q "^stablemate train: $TMP/no/such/dir/f.tsv: " "$TMP/f.err" ||
	fail "--features error: $(cat "$TMP/f.err")"
echo "train --features: 13 lines, W7's facts, the same model"
# labelled by linux-4.1.y alone: E1 changes only fs/ext4/fc_replay.c, which
# 4.1 lacks (C3 made it after v4.1): no choice of 4.1's maintainer, so it is
# left out rather than taught as "not stable"
"$STABLEMATE" train --upstream "$repo" --range v4.4..v4.5 --trees linux-4.1.y \
	--no-cache -o "$TMP/t41.rules" 2> "$TMP/t41.err" || fail "train --trees linux-4.1.y: $(cat "$TMP/t41.err")"
grep -q '^stablemate train: 12 commits (2 stable), commits of files none of the trees has left out;' "$TMP/t41.err" ||
	fail "E1 not left out: $(cat "$TMP/t41.err")"
grep -q '^# trained on: .* v4.4..v4.5, labelled by linux-4.1.y (1 commit of files none of them has left out)$' "$TMP/t41.rules" ||
	fail "the model does not say what was left out: $(grep 'trained on' "$TMP/t41.rules")"
# a range the wrong way round and an empty branch name: one line each
if "$STABLEMATE" train --upstream "$repo" --range v4.5..v4.4 --trees linux-4.4.y --no-cache \
	-o "$TMP/x.rules" 2> "$TMP/r.err"; then
	fail "an empty range was trained on"
fi
grep -q "^stablemate train: v4.5..v4.4: no commit to label: v4.4 is an ancestor of v4.5 (a range is OLDER..NEWER)$" "$TMP/r.err" ||
	fail "empty range: $(cat "$TMP/r.err")"
"$STABLEMATE" train --upstream "$repo" --range v4.5..v4.5 --trees linux-4.4.y --no-cache \
	-o "$TMP/x.rules" 2> "$TMP/r.err" && fail "a range of nothing was trained on"
grep -q "^stablemate train: v4.5..v4.5: no commit to label: it holds merges only, or nothing$" "$TMP/r.err" ||
	fail "a range of nothing: $(cat "$TMP/r.err")"
if "$STABLEMATE" train --upstream "$repo" --range v4.4..v4.5 --trees linux-4.4.y,,linux-4.1.y \
	--no-cache -o "$TMP/x.rules" 2> "$TMP/r.err"; then
	fail "an empty branch name was taken"
fi
grep -q "^stablemate train: --trees linux-4.4.y,,linux-4.1.y: an empty branch name$" "$TMP/r.err" ||
	fail "empty branch: $(cat "$TMP/r.err")"
[ ! -e "$TMP/x.rules" ] || fail "a model was written after an error"

# --- bad input: one line naming the file and line
printf 'id\tlabel\n%s\tperhaps\n' "$W7" > "$TMP/bad.tsv"
git -C "$repo" format-patch -q --stdout v4.4..v4.5 > "$TMP/w.mbox"
if "$STABLEMATE" train --input "$TMP/w.mbox" --labels "$TMP/bad.tsv" -o "$TMP/x.rules" 2> "$TMP/bad.err"; then
	fail "a bad label was accepted"
fi
grep -q 'bad.tsv:2: label "perhaps"' "$TMP/bad.err" || fail "bad label error: $(cat "$TMP/bad.err")"
[ ! -e "$TMP/x.rules" ] || fail "a model was written after an error"
"$STABLEMATE" train --input 2>/dev/null && fail "--input without an argument accepted"
set +e
"$STABLEMATE" train --input "$TMP/w.mbox" -o "$TMP/x.rules" 2> "$TMP/usage.err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "--input without --labels: exit $rc, expected 2"
# numbers out of range, NaN among them, are usage errors: a rate of 0 learns
# nothing, smoothing of a half or more turns the labels around, and a NaN
# pull once wrote a model of "nan" weights that classify refused to load
for bad in "--l2 nan" "--l2 -1" "--rate 0" "--rate inf" "--smoothing 0.5" "--smoothing 0.7" \
	   "--candidate-recall 0" "--maybe-recall 1.5" "--maybe-recall nan" \
	   "--candidate-recall 0.9 --maybe-recall 0.8"; do
	set +e
	# shellcheck disable=SC2086 # $bad is two or four words on purpose
	"$STABLEMATE" train --input "$TMP/w.mbox" --labels "$TMP/bad.tsv" $bad -o "$TMP/x.rules" 2> "$TMP/usage.err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "train $bad: exit $rc, expected 2 ($(cat "$TMP/usage.err"))"
	grep -q "^stablemate train: --" "$TMP/usage.err" || fail "train $bad: $(cat "$TMP/usage.err")"
done
[ ! -e "$TMP/x.rules" ] || fail "a model was written after a usage error"
echo "train: 10 out-of-range numbers refused"

# --- labels from an mbox and a TSV: the same 13 commits, labelled alike
{ echo "id	label"; git -C "$repo" log --no-merges --format=%H v4.4..v4.5 | while read -r h; do
	case $h in "$W1"|"$W3"|"$W6"|"$W7") echo "$h	stable";; *) echo "$h	not-stable";; esac
done; } > "$TMP/labels.tsv"
"$STABLEMATE" train --input "$TMP/w.mbox" --labels "$TMP/labels.tsv" -o "$TMP/mbox.rules" 2> "$TMP/mbox.err"
grep -q '^stablemate train: 13 commits (4 stable)' "$TMP/mbox.err" || fail "mbox training: $(cat "$TMP/mbox.err")"
echo "train --input: 13 commits, 4 stable"
# --mbox, its old name, still works, and is not shown in --help
"$STABLEMATE" train -q --mbox "$TMP/w.mbox" --labels "$TMP/labels.tsv" -o "$TMP/old-name.rules" ||
	fail "train --mbox (the old name of --input)"
cmp -s "$TMP/mbox.rules" "$TMP/old-name.rules" || fail "--mbox and --input give other models"
"$STABLEMATE" train --help | grep -qE -- "^ +--mbox" && fail "train --help lists the old --mbox as an option"
# the same commits as `git log -p` (oldest first, as format-patch writes
# them: the fit follows the order) give the same model, but for its source
git -C "$repo" log -p --reverse --no-merges v4.4..v4.5 > "$TMP/w.log"
"$STABLEMATE" train -q --input "$TMP/w.log" --labels "$TMP/labels.tsv" -o "$TMP/log.rules"
diff <(grep -v '^# trained on' "$TMP/mbox.rules") <(grep -v '^# trained on' "$TMP/log.rules") ||
	fail "train on git log -p: another model than on the format-patch mbox"
# train reads its input as classify --batch does (mail/records.h): gzipped,
# ...
gzip -c "$TMP/w.mbox" > "$TMP/w.mbox.gz"
"$STABLEMATE" train -q --input "$TMP/w.mbox.gz" --labels "$TMP/labels.tsv" -o "$TMP/gz.rules"
diff <(grep -v '^# trained on' "$TMP/mbox.rules") <(grep -v '^# trained on' "$TMP/gz.rules") ||
	fail "train on the gzipped mbox: another model"
# ... each mail decoded first (quoted-printable here: "=3D" for "=",
# lines wrapped with "="), so a model learns from the words a verdict
# reads; read raw, the mails gave another model ...
python3 - "$TMP/w.mbox" "$TMP/qp.mbox" <<'PY'
import quopri, re, sys
text = open(sys.argv[1], "rb").read()
out = []
for mail in re.split(rb"(?m)^(?=From [0-9a-f]{40} )", text):
    if not mail:
        continue
    head, _, body = mail.partition(b"\n\n")
    head = b"\n".join(l for l in head.split(b"\n")
                      if not re.match(rb"(?i)(mime-version|content-type|content-transfer-encoding):", l))
    out.append(head + b"\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
               b"Content-Transfer-Encoding: quoted-printable\n\n" + quopri.encodestring(body))
open(sys.argv[2], "wb").write(b"".join(out))
PY
grep -q '=3D' "$TMP/qp.mbox" || fail "the quoted-printable mbox encodes nothing"
"$STABLEMATE" train -q --input "$TMP/qp.mbox" --labels "$TMP/labels.tsv" -o "$TMP/qp.rules"
diff <(grep -v '^# trained on' "$TMP/mbox.rules") <(grep -v '^# trained on' "$TMP/qp.rules") ||
	fail "train on quoted-printable mails: another model than on the plain ones"
# ... and JSON records, named by their "id" (in upper case here)
git -C "$repo" log --reverse --no-merges --format='%H%x00%B%x00' v4.4..v4.5 |
	python3 -c 'import json, sys
f = sys.stdin.read().split("\0")
for i in range(0, len(f) - 1, 2):
    print(json.dumps({"id": f[i].strip().upper(), "message": f[i + 1]}))' > "$TMP/w.jsonl"
"$STABLEMATE" train --input "$TMP/w.jsonl" --labels "$TMP/labels.tsv" -o "$TMP/json.rules" 2> "$TMP/json.err"
grep -q '^stablemate train: 13 commits (4 stable)' "$TMP/json.err" || fail "JSON records: $(cat "$TMP/json.err")"
echo "train --input: gzip, quoted-printable mails and JSON records read as classify --batch reads them"
# train/serve skew: the features of a commit read from the repository (as
# scan and train --upstream read it) are those of the same commit as text
# (classify, train --input): the same with `git log --format=fuller -p`,
# and the same but for the committer, which format-patch does not write
same_features() {	# FILE_A FILE_B IGNORED_PREFIX: 0 when each id has the same names
	python3 - "$@" <<'PY'
import sys
def load(path):
    out = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        out[f[0]] = {n for n in f[2:] if not (sys.argv[3] and n.startswith(sys.argv[3]))}
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
bad = [k[:12] + ": " + " ".join(sorted(a[k] ^ b.get(k, set()))) for k in a if a[k] != b.get(k)]
print("\n".join(bad))
sys.exit(1 if bad or len(a) != len(b) or not a else 0)
PY
}
git -C "$repo" log --format=fuller -p --reverse --no-merges v4.4..v4.5 > "$TMP/wf.log"
"$STABLEMATE" train -q --input "$TMP/wf.log" --labels "$TMP/labels.tsv" -o "$TMP/wf.rules" \
	--features "$TMP/wf.tsv"
same_features "$TMP/features.tsv" "$TMP/wf.tsv" "" > "$TMP/skew.out" ||
	fail "features of git log --format=fuller -p differ from the repository's: $(cat "$TMP/skew.out")"
"$STABLEMATE" train -q --input "$TMP/w.mbox" --labels "$TMP/labels.tsv" -o "$TMP/wm.rules" \
	--features "$TMP/wm.tsv"
same_features "$TMP/features.tsv" "$TMP/wm.tsv" "committer:" > "$TMP/skew.out" ||
	fail "features of format-patch mails differ from the repository's: $(cat "$TMP/skew.out")"
echo "train: a commit's features are the same read from the repository, git log and format-patch"
# an input of no commit at all, on standard input: said so, by that name
if printf '\n\n' | "$STABLEMATE" train --input - --labels "$TMP/labels.tsv" -o "$TMP/x.rules" 2> "$TMP/e.err"; then
	fail "an empty input was trained on"
fi
[ "$(cat "$TMP/e.err")" = "stablemate train: (standard input): no commit in it (give format-patch mails, \`git log\` output with the messages or JSON records)" ] ||
	fail "empty input: $(cat "$TMP/e.err")"
# the same labels as people write them: 12-digit ids, upper case, CRLF
awk -F'\t' 'NR > 1 { printf "%s\t%s\r\n", toupper(substr($1, 1, 12)), $2 }' "$TMP/labels.tsv" > "$TMP/short.tsv"
"$STABLEMATE" train --input "$TMP/w.mbox" --labels "$TMP/short.tsv" -o "$TMP/short.rules" 2> "$TMP/short.err"
grep -q '^stablemate train: 13 commits (4 stable)' "$TMP/short.err" || fail "abbreviated ids: $(cat "$TMP/short.err")"
cmp -s <(grep -v '^# trained on' "$TMP/mbox.rules") <(grep -v '^# trained on' "$TMP/short.rules") ||
	fail "abbreviated ids gave another model"
# a byte-order mark before the TSV's header and before the mbox's first
# "From " line: the header was taken for an id, the first mail was lost
{ printf '\357\273\277'; cat "$TMP/labels.tsv"; } > "$TMP/bom.tsv"
{ printf '\357\273\277'; cat "$TMP/w.mbox"; } > "$TMP/bom.mbox"
"$STABLEMATE" train --input "$TMP/bom.mbox" --labels "$TMP/bom.tsv" -o "$TMP/bom.rules" 2> "$TMP/bom.err"
grep -q '^stablemate train: 13 commits (4 stable)' "$TMP/bom.err" || fail "byte-order marks: $(cat "$TMP/bom.err")"
# an id labelled both ways, or no id at all: one line naming both places
{ cat "$TMP/labels.tsv"; printf '%s\tnot-stable\n' "$(echo "$W7" | cut -c1-10)"; } > "$TMP/conflict.tsv"
if "$STABLEMATE" train --input "$TMP/w.mbox" --labels "$TMP/conflict.tsv" -o "$TMP/x.rules" 2> "$TMP/c.err"; then
	fail "an id labelled both ways was accepted"
fi
grep -q "conflict.tsv: $W7 is labelled stable on line [0-9]* and not-stable on line 15$" "$TMP/c.err" ||
	fail "conflict: $(cat "$TMP/c.err")"
{ cat "$TMP/labels.tsv"; printf '%s\tnot-stable\n' "$W7"; } > "$TMP/conflict.tsv"
if "$STABLEMATE" train --input "$TMP/w.mbox" --labels "$TMP/conflict.tsv" -o "$TMP/x.rules" 2> "$TMP/c.err"; then
	fail "an id labelled both ways was accepted"
fi
grep -q "conflict.tsv:15: $W7 is labelled not-stable here and stable on line [0-9]*$" "$TMP/c.err" ||
	fail "conflict: $(cat "$TMP/c.err")"
printf 'id\tlabel\nCVE-2024-1\tstable\n' > "$TMP/cve.tsv"
if "$STABLEMATE" train --input "$TMP/w.mbox" --labels "$TMP/cve.tsv" -o "$TMP/x.rules" 2> "$TMP/c.err"; then
	fail "a label for no commit id was accepted"
fi
grep -q 'cve.tsv:2: "CVE-2024-1" is not a commit id' "$TMP/c.err" || fail "non-id: $(cat "$TMP/c.err")"
# list mail, not git format-patch's: no "From <id>" line to look up
printf 'From a@b Mon Jul  1 09:00:00 2024\nSubject: [PATCH] x: fix\n\nbody\n' > "$TMP/list.mbox"
if "$STABLEMATE" train --input "$TMP/list.mbox" --labels "$TMP/labels.tsv" -o "$TMP/x.rules" 2> "$TMP/c.err"; then
	fail "an mbox without commit ids was trained on"
fi
grep -q 'list.mbox: no message names its commit (the "From <40-digit id>" line git format-patch writes' \
	"$TMP/c.err" || fail "no ids: $(cat "$TMP/c.err")"
[ ! -e "$TMP/x.rules" ] || fail "a model was written after an error"
# a message of binary data (a NUL byte) amid the mails: named by its
# number, nothing fitted or written (as classify refuses it; in `git log`
# output a NUL ends a line, as `git log -z` writes it)
awk -v n=0 '/^From [0-9a-f]+ Mon /{n++} n == 3 && /^Subject:/ {print "Subject: x\001y"; next} 1' \
	"$TMP/w.mbox" | tr '\001' '\000' > "$TMP/nul.mbox"
if "$STABLEMATE" train --input "$TMP/nul.mbox" --labels "$TMP/labels.tsv" -o "$TMP/x.rules" 2> "$TMP/c.err"; then
	fail "binary data was trained on"
fi
grep -q "^stablemate train: $TMP/nul.mbox: message 3: binary data (a NUL byte at offset [0-9]*)" \
	"$TMP/c.err" && [ "$(wc -l < "$TMP/c.err")" = 1 ] || fail "binary message: $(cat "$TMP/c.err")"
[ ! -e "$TMP/x.rules" ] || fail "a model was written from binary data"
# `git log -z -p`: the same model as git log -p
git -C "$repo" log -z -p --reverse --no-merges v4.4..v4.5 > "$TMP/wz.log"
"$STABLEMATE" train -q --input "$TMP/wz.log" --labels "$TMP/labels.tsv" -o "$TMP/logz.rules"
cmp -s <(grep -v '^# trained on' "$TMP/log.rules") <(grep -v '^# trained on' "$TMP/logz.rules") ||
	fail "train on git log -z -p: another model than on git log -p"
echo "train --labels: abbreviated, upper-case, CRLF ids read; conflicts, non-ids and binary data named"
# a fit that diverges (no pull, a huge step) would write a file classify
# refuses to load: said here, nothing written
if "$STABLEMATE" train --input "$TMP/w.mbox" --labels "$TMP/labels.tsv" --l2 0 --rate 100 --smoothing 0 \
	--epochs 200 -o "$TMP/x.rules" 2> "$TMP/d.err"; then
	fail "a diverged fit was written"
fi
grep -q "^stablemate train: the fit diverged: try a smaller --rate or a larger --l2 (.* log-odds, at most 100)$" \
	"$TMP/d.err" || fail "diverged: $(cat "$TMP/d.err")"
[ ! -e "$TMP/x.rules" ] || fail "a model was written after a diverged fit"
echo "train: a diverged fit named, nothing written"

# --- classify's inputs without a diff: --numstat, --stat, JSONL files
git -C "$repo" log -1 --numstat "$W3" > "$TMP/numstat.txt"
git -C "$repo" log -1 --stat "$W3" > "$TMP/stat.txt"
git -C "$repo" show "$W3" > "$TMP/full.txt"
for f in numstat stat full; do
	"$STABLEMATE" classify --json "$TMP/$f.txt" > "$TMP/$f.out"
	grep -q '"code":"model:no-diff"' "$TMP/$f.out" && fail "$f: the diff's size was not read"
	# "diff" says what was read: the same files from each input
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["diff"]
print(d["from"], d["added"] + d["removed"], " ".join(f["file"] for f in d["files"]))' \
		"$TMP/$f.out" > "$TMP/$f.diff"
done
git -C "$repo" show --format= --numstat "$W3" | awk '{ n += $1 + $2; p = p " " $3 } END { print n p }' > "$TMP/want.diff"
[ "$(cat "$TMP/numstat.diff")" = "numstat $(cat "$TMP/want.diff")" ] || fail "numstat diff: $(cat "$TMP/numstat.diff")"
[ "$(cat "$TMP/full.diff")" = "diff $(cat "$TMP/want.diff")" ] || fail "full diff: $(cat "$TMP/full.diff")"
[ "$(cut -d' ' -f3- "$TMP/stat.diff")" = "$(cut -d' ' -f2- "$TMP/want.diff")" ] || fail "stat diff: $(cat "$TMP/stat.diff")"
grep -q '"code":"model:no-diff"' < <(git -C "$repo" log -1 --format=%B "$W3" | "$STABLEMATE" classify --json) ||
	fail "a bare message should be scored as lacking a diff"
msg=$(git -C "$repo" log -1 --format=%B "$W3" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')
{ echo "{\"id\": \"with\", \"message\": $msg, \"files\": [{\"file\": \"fs/xattr.c\", \"added\": 1, \"removed\": 1}]}"
  echo "{\"id\": \"without\", \"message\": $msg}"; } > "$TMP/files.jsonl"
"$STABLEMATE" classify -q --batch "$TMP/files.jsonl" > "$TMP/files.out"
grep '"id":"with"' "$TMP/files.out" | grep -q '"tiny-diff"' || fail "JSONL files not read: $(cat "$TMP/files.out")"
grep '"id":"without"' "$TMP/files.out" | grep -q '"model:no-diff"' || fail "JSONL without files: $(cat "$TMP/files.out")"
echo "classify: numstat, --stat and JSONL files read as diffs"

# --- a --stat path git cut to ".../" to fit 80 columns: its directories are
#     unknown (a binding's Documentation/ is no docs-only any more), and
#     classify and train say so in one line, naming the input
cut=$TMP/cut
git init -q "$cut"
git -C "$cut" config user.name "Cut Paths"	# a fresh machine has no identity
git -C "$cut" config user.email cut@example.org
long=Documentation/devicetree/bindings/timer/allwinner,sun5i-a13-hstimer-long-name.yaml
mkdir -p "$cut/$(dirname "$long")" "$cut/drivers/x"
printf 'a\nb\n' > "$cut/$long"
git -C "$cut" add . && git -C "$cut" commit -qm "dt-bindings: timer: Convert the A13 HSTimer to a schema"
printf 'int x;\n' > "$cut/drivers/x/leak.c"
git -C "$cut" add . && git -C "$cut" commit -qm "x: fix a memory leak in probe"
git -C "$cut" log --stat > "$TMP/cut.log"
grepq -F " .../" "$TMP/cut.log" || fail "git did not cut the path: $(cat "$TMP/cut.log")"
"$STABLEMATE" classify --batch "$TMP/cut.log" > "$TMP/cut.out" 2> "$TMP/cut.err"
grep -qx "stablemate: warning: $TMP/cut.log: git --stat cut 1 path of 1 commit to \".../\": their directories are unknown (no docs-only, no diff:top); \`git log --numstat\` or \`--stat=1000\` keeps them" \
	"$TMP/cut.err" || fail "no line on the cut path: $(cat "$TMP/cut.err")"
grepq docs-only "$TMP/cut.out" && fail "a cut path was read as documentation: $(cat "$TMP/cut.out")"
git -C "$cut" log --stat=1000 | "$STABLEMATE" classify --batch - > "$TMP/cut.out" 2> "$TMP/cut.err"
grepq warning "$TMP/cut.err" && fail "--stat=1000 cut no path: $(cat "$TMP/cut.err")"
grepq docs-only "$TMP/cut.out" || fail "the whole path is documentation: $(cat "$TMP/cut.out")"
git -C "$cut" log --format='%H' | paste - <(printf 'stable\nnot-stable\n') > "$TMP/cut.tsv"
"$STABLEMATE" train --input - --labels "$TMP/cut.tsv" -o "$TMP/cut.rules" < "$TMP/cut.log" 2> "$TMP/cut.err" ||
	fail "train on --stat: $(cat "$TMP/cut.err")"
grepq -F "(standard input): git --stat cut 1 path of 1 commit to \".../\": the model learns nothing" \
	"$TMP/cut.err" || fail "train said nothing of the cut path: $(cat "$TMP/cut.err")"
echo "classify, train: a --stat path cut to .../ said in one line"

# --- `git log` of many commits (plain, --numstat, -p --decorate, gzipped,
#     from standard input): one verdict each, the same as `git show` gives
git -C "$repo" rev-list v4.4..v4.5 > "$TMP/log.ids"
for fmt in "" "--numstat" "--format=raw" "-p --decorate" "-z" "-z --numstat"; do
	# shellcheck disable=SC2086 # $fmt is zero to two options
	git -C "$repo" log $fmt v4.4..v4.5 > "$TMP/log.txt"
	"$STABLEMATE" classify -q --batch "$TMP/log.txt" | sed 's/^{"id":"\([0-9a-f]*\)".*/\1/' |
		diff -u "$TMP/log.ids" - || fail "classify --batch of git log $fmt: not one verdict a commit"
	gzip -c "$TMP/log.txt" | "$STABLEMATE" classify -q --batch - | sed 's/^{"id":"\([0-9a-f]*\)".*/\1/' |
		diff -u "$TMP/log.ids" - || fail "classify --batch of gzipped git log $fmt"
	[ "$("$STABLEMATE" classify "$TMP/log.txt" | grep -c '^  verdict: ')" = "$(wc -l < "$TMP/log.ids")" ] ||
		fail "classify of git log $fmt: not one verdict a commit"
done
"$STABLEMATE" classify -q --batch "$TMP/log.txt" | sed 's/.*"score":\(-\{0,1\}[0-9]*\).*/\1/' > "$TMP/log.scores"
while read -r id; do
	git -C "$repo" show "$id" | "$STABLEMATE" classify -q --json - | sed 's/.*"verdict":{"verdict":"[a-z]*","score":\(-\{0,1\}[0-9]*\).*/\1/'
done < "$TMP/log.ids" | diff -u - "$TMP/log.scores" || fail "git log -p verdicts differ from git show's"
# `git log -z`: a NUL ends each commit and numstat line (they once ran
# into one record): the same scores as without it
for fmt in "-p" "--numstat"; do
	for z in "" "-z"; do
		git -C "$repo" log $z $fmt v4.4..v4.5 | "$STABLEMATE" classify -q --batch - |
			sed 's/.*"score":\(-\{0,1\}[0-9]*\).*/\1/' > "$TMP/z$z.scores"
	done
	cmp -s "$TMP/z.scores" "$TMP/z-z.scores" || fail "git log -z $fmt: other scores"
done
# the same output saved with CRLF line ends: the same scores (the "\r" was
# once part of each path and made --stat lines unreadable)
for fmt in "-p" "--numstat" "--stat"; do
	git -C "$repo" log $fmt v4.4..v4.5 > "$TMP/lf.txt"
	sed 's/$/\r/' "$TMP/lf.txt" > "$TMP/crlf.txt"
	for f in lf crlf; do
		"$STABLEMATE" classify -q --batch "$TMP/$f.txt" | sed 's/.*"score":\(-\{0,1\}[0-9]*\).*/\1/' > "$TMP/$f.scores"
	done
	cmp -s "$TMP/lf.scores" "$TMP/crlf.scores" || fail "git log $fmt with CRLF: other scores"
done
# abbreviated ids (--abbrev-commit, or log.abbrevCommit in the user's config):
# the same commits, each under its short id, the same scores
git -C "$repo" -c log.abbrevCommit=true log -p v4.4..v4.5 > "$TMP/abbrev.txt"
"$STABLEMATE" classify -q --batch "$TMP/abbrev.txt" > "$TMP/abbrev.out"
sed 's/^{"id":"\([0-9a-f]*\)".*/\1/' "$TMP/abbrev.out" |
	diff -u <(git -C "$repo" rev-list --abbrev-commit v4.4..v4.5) - || fail "git log --abbrev-commit: not one verdict a commit"
git -C "$repo" log -p v4.4..v4.5 | "$STABLEMATE" classify -q --batch - |
	sed 's/.*"score":\(-\{0,1\}[0-9]*\).*/\1/' > "$TMP/p.scores"
sed 's/.*"score":\(-\{0,1\}[0-9]*\).*/\1/' "$TMP/abbrev.out" | cmp -s - "$TMP/p.scores" ||
	fail "git log --abbrev-commit: other scores than git log -p"
# under color.ui=always (git colours even a pipe): the same verdicts
git -C "$repo" -c color.ui=always log -p v4.4..v4.5 > "$TMP/color.txt"
grepq -q $'^\033\\[33mcommit ' "$TMP/color.txt" || fail "git wrote no colour"
"$STABLEMATE" classify -q --batch "$TMP/color.txt" | sed 's/.*"score":\(-\{0,1\}[0-9]*\).*/\1/' |
	cmp -s - "$TMP/p.scores" || fail "git log -p in colour: other scores"
first=$(head -1 "$TMP/log.ids")
[ "$(git -C "$repo" -c color.ui=always show "$first" | "$STABLEMATE" classify -q --json -)" = \
  "$(git -C "$repo" show "$first" | "$STABLEMATE" classify -q --json -)" ] || fail "git show in colour: another verdict"
# review notes shown under each commit (notes.displayRef, as `stablemate notes
# setup` sets it) are no part of its message: a reviewer's NAK that says
# "crash" and "leak" does not move the verdict
for id in $(cat "$TMP/log.ids"); do
	git -C "$repo" notes --ref=review-test add -f -m "Comment:
    NAK: this causes a regression, a crash and a memory leak." "$id"
done
for fmt in "" "--stat" "-p"; do
	# shellcheck disable=SC2086 # $fmt is zero or one option
	git -C "$repo" log $fmt v4.4..v4.5 | "$STABLEMATE" classify -q --batch - > "$TMP/plain.out"
	# shellcheck disable=SC2086
	git -C "$repo" log --notes=review-test $fmt v4.4..v4.5 > "$TMP/noted.txt"
	grepq -x "Notes (review-test):" "$TMP/noted.txt" || fail "git log showed no notes"
	"$STABLEMATE" classify -q --batch "$TMP/noted.txt" | cmp -s - "$TMP/plain.out" ||
		fail "git log $fmt with notes shown: other verdicts"
done
# what git prints after the message without counts (--name-only's paths,
# --name-status, --raw, --summary, --dirstat) is no part of the message:
# the verdicts of plain git log
git -C "$repo" log v4.4..v4.5 | "$STABLEMATE" classify -q --batch - > "$TMP/bare.out"
for fmt in --name-only --name-status --raw --summary --dirstat; do
	git -C "$repo" log "$fmt" v4.4..v4.5 | "$STABLEMATE" classify -q --batch - | cmp -s - "$TMP/bare.out" ||
		fail "git log $fmt: other verdicts than git log's"
done
# --oneline and --graph hold no message to judge (all lines were one record,
# one verdict, exit 0): refused with one line naming the option
for fmt in "--oneline" "--oneline --decorate" "--graph" "--graph --oneline"; do
	# shellcheck disable=SC2086 # $fmt is one or two options
	git -C "$repo" log $fmt v4.4..v4.5 > "$TMP/short.txt"
	for batch in "" "--batch"; do
		rc=0
		"$STABLEMATE" classify $batch "$TMP/short.txt" > "$TMP/short.out" 2> "$TMP/short.err" || rc=$?
		want=${fmt%% *}
		[ "$rc" = 1 ] && [ ! -s "$TMP/short.out" ] &&
			grep -qx "stablemate classify: $TMP/short.txt: looks like \`git log $want\` output, .*" "$TMP/short.err" ||
			fail "classify $batch of git log $fmt: exit $rc, $(cat "$TMP/short.out" "$TMP/short.err")"
	done
done
# a format-patch series: each file in turn (classify FILE...), and the files
# as one mbox, each verdict under the id of its "From <id>" line
git -C "$repo" format-patch -q -o "$TMP/series" v4.4..v4.5
git -C "$repo" rev-list --reverse --no-merges v4.4..v4.5 > "$TMP/series.ids"
"$STABLEMATE" classify "$TMP"/series/*.patch | sed -n 's/^\([0-9a-f]\{40\}\)  .*/\1/p' |
	diff -u "$TMP/series.ids" - || fail "classify FILE...: not one verdict a patch"
cat "$TMP"/series/*.patch | "$STABLEMATE" classify --json - | sed 's/^{"id":"\{0,1\}\([0-9a-fnul]*\).*/\1/' |
	diff -u "$TMP/series.ids" - || fail "classify of a format-patch mbox: ids lost"
rc=0
"$STABLEMATE" classify "$TMP/series/0001-"*.patch "$TMP/no-such.patch" > "$TMP/two.out" 2> "$TMP/two.err" || rc=$?
[ "$rc" = 1 ] && grep -q "no-such.patch" "$TMP/two.err" && grep -q "^  verdict: " "$TMP/two.out" ||
	fail "classify FILE... with one missing: exit $rc, $(cat "$TMP/two.err")"
rc=0
"$STABLEMATE" classify --batch "$TMP/log.txt" "$TMP/log.txt" > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "classify --batch FILE with another FILE: exit $rc"
rc=0
git -C "$repo" rev-list v4.4..v4.5 | "$STABLEMATE" classify --batch - > "$TMP/ids.out" 2> "$TMP/ids.err" || rc=$?
[ "$rc" = 1 ] && [ ! -s "$TMP/ids.out" ] && grepq "looks like a list of commit ids" "$TMP/ids.err" ||
	fail "classify --batch of git rev-list: exit $rc, $(cat "$TMP/ids.out" "$TMP/ids.err")"
# a bare message whose first word is hex-like is still a message
printf 'defaced 1 page of the docs\n\nfix a leak\n' | "$STABLEMATE" classify -q - > /dev/null ||
	fail "a message beginning with a hex-like word was refused"
rc=0
"$STABLEMATE" classify --batch "$TMP/log.txt" --max-record-size 1K > /dev/null 2> "$TMP/log.err" || rc=$?
[ "$rc" = 1 ] || fail "git log with commits over the cap: exit $rc"
grep -q "log.txt: commit [0-9]* [0-9a-f]\{40\}: [0-9]* bytes, over the 1024-byte record size limit (skipped)" \
	"$TMP/log.err" || fail "git log over the cap: $(cat "$TMP/log.err")"
echo "classify: git log of $(wc -l < "$TMP/log.ids") commits, one verdict each, as git show gives them"

# --- JSONL "files" that cannot be read as counts: named and skipped, the
#     rest classified, exit 1; a numeric id kept; a binary file's null counts
{ echo "{\"id\": 1, \"message\": $msg, \"files\": [{\"file\": \"fw.bin\", \"added\": null, \"removed\": null}]}"
  echo "{\"id\": \"neg\", \"message\": $msg, \"files\": [{\"file\": \"a.c\", \"added\": -3, \"removed\": 1}]}"
  echo "{\"id\": \"huge\", \"message\": $msg, \"files\": [{\"file\": \"a.c\", \"added\": 99999999999999999999, \"removed\": 1}]}"
  echo "{\"id\": \"frac\", \"message\": $msg, \"files\": [\"x.c\", {\"file\": \"a.c\", \"added\": 1.5}]}"
  echo "{\"id\": \"obj\", \"message\": $msg, \"files\": {\"file\": \"a.c\"}}"
  echo "{\"id\": \"nopath\", \"message\": $msg, \"files\": [{\"added\": 1, \"removed\": 1}]}"
  echo "{\"id\": \"last\", \"message\": $msg, \"files\": null}"
  echo "{\"id\": \"num\", \"message\": 5}"
  echo "{\"id\": \"none\", \"msg\": $msg}"; } > "$TMP/badfiles.jsonl"
rc=0
"$STABLEMATE" classify --batch "$TMP/badfiles.jsonl" > "$TMP/badfiles.out" 2> "$TMP/badfiles.err" || rc=$?
[ "$rc" = 1 ] || fail "classify --batch with unreadable records exited $rc, not 1"
[ "$(sed 's/^{"id":"\([^"]*\)".*/\1/' "$TMP/badfiles.out" | tr '\n' ' ')" = "1 last " ] ||
	fail "bad files records: $(cat "$TMP/badfiles.out")"
# (the verdict line lists only the strongest reasons; the record's own JSON has the diff)
head -1 "$TMP/badfiles.jsonl" > "$TMP/nullcounts.jsonl"
"$STABLEMATE" classify --json "$TMP/nullcounts.jsonl" |
	grep -qF '"diff":{"from":"numstat","added":0,"removed":0,"files":[{"file":"fw.bin","added":0,"removed":0}]}' ||
	fail "null counts: $("$STABLEMATE" classify --json "$TMP/nullcounts.jsonl")"
for want in 'badfiles.jsonl:2: files\[0\]: "added" is -3, not a count of lines (skipped)' \
	    'badfiles.jsonl:3: files\[0\]: "added" is 99999999999999999999, not a count' \
	    'badfiles.jsonl:4: files\[1\]: "added" is 1.5, not a count' \
	    'badfiles.jsonl:5: "files" is not an array' 'badfiles.jsonl:6: files\[0\] is not' \
	    'badfiles.jsonl:8: "message" is 5, not a string or an array of strings (skipped)' \
	    'badfiles.jsonl:9: no "description", "message" or "subject" member' \
	    '9 records, 7 unreadable'; do
	grep -q "$want" "$TMP/badfiles.err" || fail "no \"$want\" in: $(cat "$TMP/badfiles.err")"
done
echo "classify --batch: 5 records with unreadable \"files\", one whose \"message\" is a number and one without any named and skipped, exit 1"

# --- JSON that is not JSON lines, as other tools write it: an array (laid
#     out or on one line), objects one after another as jq prints them, one
#     object; the same verdicts as the JSON lines
python3 - "$TMP/files.jsonl" "$TMP" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
out = sys.argv[2]
json.dump(recs, open(out + "/array.json", "w"), indent=2)
json.dump(recs, open(out + "/array1.json", "w"))
open(out + "/jq.json", "w").write("".join(json.dumps(r, indent=2) + "\n" for r in recs))
json.dump(recs[0], open(out + "/one.json", "w"), indent=4)
PY
for f in array array1 jq; do
	"$STABLEMATE" classify -q --batch "$TMP/$f.json" | cmp -s - "$TMP/files.out" ||
		fail "classify --batch of $f.json: other verdicts than its JSON lines'"
	[ "$("$STABLEMATE" classify "$TMP/$f.json" | grep -c '^  verdict: ')" = "$(wc -l < "$TMP/files.out")" ] ||
		fail "classify of $f.json: not one verdict a record"
done
"$STABLEMATE" classify -q --batch "$TMP/one.json" | cmp -s - <(head -1 "$TMP/files.out") ||
	fail "classify --batch of one object laid out over lines"
# cut off inside its second record: the first is judged, the rest named
head -c "$(($(grep -b -m1 '"without"' "$TMP/array.json" | cut -d: -f1) + 5))" "$TMP/array.json" > "$TMP/cut.json"
rc=0
"$STABLEMATE" classify --batch "$TMP/cut.json" > "$TMP/cut.out" 2> "$TMP/cut.err" || rc=$?
[ "$rc" = 1 ] && cmp -s "$TMP/cut.out" <(head -1 "$TMP/files.out") &&
	grepq "cut.json:[0-9]*: not JSON from here on (the rest skipped)" "$TMP/cut.err" ||
	fail "a cut-off JSON array: exit $rc, $(cat "$TMP/cut.out" "$TMP/cut.err")"
# CVE JSON 5 records as the kernel CVE team publishes them (vulns
# cve/published/YYYY/CVE-*.json): the English description, named by
# cveMetadata.cveId; the verdicts of the same text as a reduced record
python3 - "$TMP" <<'PY'
import json, sys
out = sys.argv[1]
desc = ("In the Linux kernel, the following vulnerability has been resolved:\n\n"
        "net: tls: fix a use-after-free in tls_sw_release_resources\n\n"
        "The async crypto completion may run after the context is freed.")
reduced = open(out + "/reduced.jsonl", "w")
for i, lang in enumerate(["en", "de"]):
    cve = "CVE-2024-%d" % (90001 + i)
    reduced.write(json.dumps({"cve": cve, "description": desc}) + "\n")
    descs = [{"lang": lang, "value": desc}]
    if lang != "en":   # an English text after another language's
        descs = [{"lang": "de", "value": "net: eine andere Beschreibung"}, {"lang": "en", "value": desc}]
    rec = {"dataType": "CVE_RECORD", "dataVersion": "5.1",
           "cveMetadata": {"cveId": cve, "state": "PUBLISHED", "assignerShortName": "Linux"},
           "containers": {"cna": {"descriptions": descs,
                                  "affected": [{"product": "Linux", "programFiles": ["net/tls/tls_sw.c"]}],
                                  "title": "net: tls: fix a use-after-free"}}}
    json.dump(rec, open(out + "/%s.json" % cve, "w"), indent=2)
PY
cat "$TMP"/CVE-2024-9000[12].json | "$STABLEMATE" classify -q --batch - > "$TMP/cve5.out"
"$STABLEMATE" classify -q --batch "$TMP/reduced.jsonl" | cmp -s - "$TMP/cve5.out" ||
	fail "CVE JSON 5 records: other verdicts than the reduced ones: $(cat "$TMP/cve5.out")"
"$STABLEMATE" classify "$TMP/CVE-2024-90001.json" | grepq '^CVE-2024-90001  net: tls: fix a use-after-free' ||
	fail "classify of a CVE JSON 5 file"
# a message whose subject opens with a bracket is a message, not JSON
printf '[PATCH] net: fix a leak in open\n\nIt leaks its buffer.\n' | "$STABLEMATE" classify -q --batch - |
	grepq '"subject":"\[PATCH\] net: fix a leak in open"' || fail "a [PATCH] subject taken for JSON"
echo "classify: JSON arrays, jq's output and one object read as JSON lines are"
