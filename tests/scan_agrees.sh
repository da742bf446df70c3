#!/usr/bin/env bash
# scan_agrees.sh: scan and classify give one verdict for one commit. 300
# real tip-tree commits of ../shared are made again in a repository with
# their messages and diffs (tests/rebuild_commits.py); scan's verdict,
# score, reasons and patch-id for each must be classify's of `git log -p`
# and git patch-id's. (Found so: libgit2's diff without git's indent
# heuristic moved a device-tree entry's braces, and 10 patch-ids were not
# git's.) git log runs with log.mailmap=false: scan reads a commit's author
# as stored, as the training mails have it, not through a .mailmap one of
# these commits wrote.
. "$(dirname "$0")/lib.sh"
mbox=$SHARED/corpus/labelled/tip-commits.mbox.gz
[ -f "$mbox" ] || skip "no $mbox (../shared)"
export XDG_CACHE_HOME=$TMP/cache

# the first 20 MB hold the first 300 rebuildable commits (zcat dies of SIGPIPE)
{ zcat "$mbox" || true; } | head -c 20000000 > "$TMP/tip.mbox"
python3 "$SM_SRCDIR/tests/rebuild_commits.py" "$TMP/tip.mbox" "$TMP/repo" 300 ||
	fail "rebuilding the commits failed"
[ "$(wc -l < "$TMP/rebuilt.tsv")" = 300 ] || fail "only $(wc -l < "$TMP/rebuilt.tsv") commits rebuilt"
cd "$TMP/repo"
git branch linux-6.0.y v6.0
"$STABLEMATE" scan --range v6.0..v6.1 --tree linux-6.0.y --json > "$TMP/scan.json" ||
	fail "scan failed"
git -c log.mailmap=false log -p --no-merges v6.0..v6.1 | "$STABLEMATE" classify -q --batch - > "$TMP/classify.jsonl" ||
	fail "classify failed"
git log -p --no-merges v6.0..v6.1 | git patch-id --stable > "$TMP/patch-ids.txt"
python3 - "$TMP" <<'PY' || fail "scan and classify disagree (above)"
import json, sys
tmp = sys.argv[1]
ids = [l.split("\t")[1].strip() for l in open(tmp + "/rebuilt.tsv")]
scan = {c["id"]: c for c in json.load(open(tmp + "/scan.json"))["commits"]}
cls = {r["id"]: r for r in map(json.loads, open(tmp + "/classify.jsonl"))}
pid = {l.split()[1]: l.split()[0] for l in open(tmp + "/patch-ids.txt")}
bad = 0
for i in ids:
    s, c = scan[i], cls[i]
    sv = s["verdict"]
    codes = sorted(r["code"] for r in sv["reasons"])
    if (sv["verdict"], sv["score"], codes) != (c["verdict"], c["score"], sorted(c["reasons"])):
        bad += 1
        print("%.12s %s: scan %s %d %s, classify %s %d %s" % (i, s["subject"][:50], sv["verdict"], sv["score"],
              codes, c["verdict"], c["score"], sorted(c["reasons"])))
    if s["patch_id"] != pid.get(i):
        bad += 1
        print("%.12s: scan's patch-id %s, git's %s" % (i, s["patch_id"], pid.get(i)))
print("scan and classify: %d commits, %d disagreements" % (len(ids), bad))
sys.exit(1 if bad else 0)
PY
echo ok
