#!/usr/bin/env bash
# moved_files.sh: `stablemate deps` and `backports` on a fix to a file
# mainline moved after the tree's release. linux-4.1.y has a.c; mainline changes its line 20 (P),
# moves it to sub/b.c (R1), then to drv/c.c with an edit (R2), adds new.c
# (N) and changes line 20 again (Q). The fix F changes line 20 of drv/c.c
# and a line of new.c. The tree has drv/c.c as a.c: no missing feature,
# and P, which changed a.c, created no file. new.c is missing, added by N.
# With --depth 1 (Q and N only), the search finds P under the tree's name.
# scan: G, a fix of new.c alone, fixes nothing in the tree
# (file-not-in-tree); F, which changes drv/c.c too, is no such case.
. "$(dirname "$0")/lib.sh"
dev_repo up
seq 1 30 | sed 's/^/line /' > a.c
dev add a.c && dev commit -q -m "base" && dev tag -a -m v4.1 v4.1
dev branch linux-4.1.y
sed -i 's/^line 20$/line 20 (P)/' a.c && dev commit -qam "x: P, before the moves"
P=$(git rev-parse HEAD)
mkdir sub && dev mv a.c sub/b.c && dev commit -qm "x: R1, move a.c to sub/b.c"
R1=$(git rev-parse HEAD)
mkdir drv && dev mv sub/b.c drv/c.c && sed -i 's/^line 1$/line 1 (R2)/' drv/c.c &&
	dev commit -qam "x: R2, move sub/b.c to drv/c.c"
R2=$(git rev-parse HEAD)
seq 1 5 | sed 's/^/new /' > new.c && dev add new.c && dev commit -qm "y: N, a new feature"
N=$(git rev-parse HEAD)
sed -i 's/^line 20 (P)$/line 20 (Q)/' drv/c.c && dev commit -qam "x: Q, after the moves"
Q=$(git rev-parse HEAD)
sed -i 's/^line 20 (Q)$/line 20 (F)/' drv/c.c && sed -i 's/^new 3$/new 3 (F)/' new.c &&
	dev commit -qam "x: F, the fix" -m "Fix a NULL pointer dereference in c_probe() when the device is gone." \
		-m "Cc: stable@vger.kernel.org"
F=$(git rev-parse HEAD)
sed -i 's/^new 2$/new 2 (G)/' new.c &&
	dev commit -qam "y: G, fix a use-after-free in new_read()" \
		-m "new_read() frees the buffer on the error path and then reads it again, a use-after-free." \
		-m "Cc: stable@vger.kernel.org"
G=$(git rev-parse HEAD)
cd ..

"$STABLEMATE" deps -C up --no-cache --tree linux-4.1.y "$F" > moved.out || fail "deps: $(cat moved.out)"
# P changed a.c, the name it had then; it made no file
grep -qx "  ${P:0:12} x: P, before the moves (1 line of a.c) \[via a dependency\]" moved.out ||
	fail "P not listed with its own file name, or flagged as a new file: $(cat moved.out)"
grep -qx "  moved: drv/c.c is a.c in linux-4.1.y (moved by ${R1:0:12} x: R1, move a.c to sub/b.c)" moved.out ||
	fail "the move not found: $(cat moved.out)"
grep -q "feature missing: drv/c.c" moved.out && fail "a moved file called missing: $(cat moved.out)"
grep -qx "  feature missing: new.c does not exist in linux-4.1.y (added by ${N:0:12} y: N, a new feature)" moved.out ||
	fail "new.c not missing, or its commit not named: $(cat moved.out)"
grep -q "${R2:0:12}" moved.out && fail "R2 named (the move from a.c is R1): $(cat moved.out)"

# drv/c.c conflicts as a.c, the tree's name for it, named once
grep -qx "trial on linux-4.1.y: after these 3, applies cleanly; alone, conflict in a.c, new.c" moved.out ||
	fail "deps trial: $(cat moved.out)"
# Q found by blame, P (before the moves) by the search, under the name a.c
"$STABLEMATE" deps -C up --no-cache --depth 1 --tree linux-4.1.y "$F" > one.out
grep -qx "  applies cleanly after 1 more (of 3 commits to those files that linux-4.1.y lacks; take them in with the list, oldest first):" one.out ||
	fail "deps --depth 1 search: $(cat one.out)"
[ "$(tail -1 one.out)" = "    ${P:0:12} x: P, before the moves (a.c)" ] || fail "the search missed P: $(cat one.out)"

"$STABLEMATE" deps -C up --no-cache --json --tree linux-4.1.y "$F" > moved.json
python3 - "$P" "$R1" "$N" moved.json <<'PY' || fail "deps --json: $(cat moved.json)"
import json, sys
p, r1, n, path = sys.argv[1:]
d = json.load(open(path))
assert d["files_not_in_tree"] == ["new.c"] and d["feature_missing"] is True, d
origins = {o["path"]: (o["tree_path"], o["by"]) for o in d["files_origin"]}
assert origins == {"drv/c.c": ("a.c", r1), "new.c": (None, n)}, origins
dep = {x["id"]: x for x in d["deps"]}[p]
assert dep["paths"] == ["a.c"] and dep["new_file"] is False, dep
PY

# The tree moved nothing and mainline did: a fix to the file alone is no
# feature missing, and the trial carries it to a.c
"$STABLEMATE" deps -C up --no-cache --tree linux-4.1.y "$P" > p.out || fail "deps P: $(cat p.out)"
grep -q "feature missing\|moved:" p.out && fail "deps P: $(cat p.out)"
grep -qx "trial on linux-4.1.y: applies cleanly" p.out || fail "deps P trial: $(cat p.out)"
# scan_41 REPO OUT: scan v4.1..master of REPO for linux-4.1.y into OUT;
# said OUT ID LINE: a line of what OUT says of commit ID is LINE ("~LINE":
# holds it)
scan_41() {
	"$STABLEMATE" scan -C "$1" --no-cache --range v4.1..master --tree linux-4.1.y > "$2" ||
		fail "scan of $1: $(cat "$2")"
}
said() {
	case $3 in
	"~"*) grep -A3 "^${2:0:12} " "$1" | grep -qF -- "${3#"~"}" ;;
	*) grep -A3 "^${2:0:12} " "$1" | grep -qxF -- "$3" ;;
	esac
}
scan_41 up scan.out
said scan.out "$G" "        file-not-in-tree: new.c is not in linux-4.1.y: the code it changes came later" ||
	fail "G not vetoed for a file 4.1 lacks: $(cat scan.out)"
said scan.out "$F" "~linux-4.1.y: candidate" ||
	fail "F, whose drv/c.c 4.1 has as a.c, not a candidate: $(cat scan.out)"
grep -q "file-not-in-tree: drv/c.c" scan.out && fail "a moved file called absent: $(cat scan.out)"
# the same from the diff cache, which must keep which files a commit creates
# (N creates new.c: no veto for it)
verdicts() {
	XDG_CACHE_HOME=$TMP/cache "$STABLEMATE" scan -C up --range v4.1..master --tree linux-4.1.y --json |
		python3 -c 'import json, sys
for c in json.load(sys.stdin)["commits"]:
    print(c["id"], c["trees"][0]["verdict"]["verdict"], " ".join(r["code"] for r in c["trees"][0]["verdict"]["reasons"]))'
}
verdicts > cold.txt && verdicts > warm.txt && cmp -s cold.txt warm.txt ||
	fail "a warm scan (diff cache) judges otherwise: $(diff cold.txt warm.txt)"
grep "^$N " cold.txt | grep -q "file-not-in-tree" && fail "N, which creates new.c, vetoed: $(cat cold.txt)"
grep "^$G " cold.txt | grep -q "file-not-in-tree" || fail "G not vetoed in the JSON: $(cat cold.txt)"

# classify --repo says the same of a patch mail (mainline: the repository's
# master, as scan reads it past a range)
git -C up format-patch -q -1 --stdout "$G" > g.patch && git -C up format-patch -q -1 --stdout "$F" > f.patch
"$STABLEMATE" classify --repo up --tree linux-4.1.y g.patch > g.out || fail "classify G: $(cat g.out)"
grep -q "^  verdict: reject" g.out && grep -q "file-not-in-tree  *new.c is not in linux-4.1.y" g.out ||
	fail "classify --repo: G not vetoed: $(cat g.out)"
"$STABLEMATE" classify --repo up --tree linux-4.1.y f.patch > f.out || fail "classify F: $(cat f.out)"
grep -q "^  verdict: candidate" f.out && ! grep -q "file-not-in-tree" f.out ||
	fail "classify --repo: F vetoed: $(cat f.out)"

# numstat alone does not say that N creates new.c: no veto on a guess
dev -C up log -1 --numstat "$N" > n.numstat
"$STABLEMATE" classify --repo up --tree linux-4.1.y n.numstat > n.out || fail "classify N: $(cat n.out)"
grep -q "file-not-in-tree" n.out && fail "classify --repo: N (numstat) vetoed as a file 4.1 lacks: $(cat n.out)"

# t2 took P and Q with git cherry-pick -x, which carried Q to a.c: the same
# lines as upstream's, in another file (its patch-id differs by the name)
dev -C up checkout -q -b t2 linux-4.1.y && dev -C up cherry-pick -x "$P" >/dev/null &&
	dev -C up cherry-pick -x "$Q" >/dev/null && dev -C up checkout -q master || fail "cherry-pick onto t2"
"$STABLEMATE" backports -C up --no-cache --trees t2=4.1 "$Q" > bp.out || fail "backports: $(cat bp.out)"
grep -qx "  t2: [0-9a-f]\{12\} (by upstream-id), same lines as upstream, in a.c where upstream has drv/c.c" bp.out ||
	fail "backports of a moved file: $(cat bp.out)"
"$STABLEMATE" backports -C up --no-cache --json --trees t2=4.1 "$Q" | python3 -c '
import json, sys
t = json.load(sys.stdin)["trees"][0]
assert t["differs"] and t["lines_differ"] == 0, t
assert t["files_only_backport"] == ["a.c"] and t["files_only_upstream"] == ["drv/c.c"], t' ||
	fail "backports --json of a moved file"
"$STABLEMATE" backports -C up --no-cache --trees t2=4.1 "$P" | grep -qx "  t2: [0-9a-f]\{12\} (by upstream-id), same as upstream" ||
	fail "backports of P, made before the moves"

# A split: mainline moves the second half of big.c to big_64.c (as x86's
# signal.c went to signal_32.c and signal_64.c), so big.c stays, shrunk. A
# fix to big_64.c fixes code 4.1 has in big.c: no veto. feat.c, a new file
# next to them, is no part of big.c: its fix is still vetoed.
dev_repo sp
seq 1 200 | sed 's/.*/int big_&(int x) { return x * & + 1; }/' > big.c
dev add big.c && dev commit -q -m "base" && dev tag -a -m v4.1 v4.1 && dev branch linux-4.1.y
sed -n '101,200p' big.c > big_64.c && sed -i '101,200d' big.c &&
	dev add big_64.c && dev commit -qam "x: move the 64-bit half of big.c to big_64.c"
seq 1 80 | sed 's/.*/static long feat_&(long y) { y ^= &; return y; }/' > feat.c &&
	dev add feat.c && dev commit -qm "y: add feat"
sed -i 's/^int big_150(int x) { return x \* 150 + 1; }$/int big_150(int x) { return x ? x * 150 + 1 : 0; }/' big_64.c &&
	dev commit -qam "x: fix a NULL pointer dereference in big_150()" \
		-m "big_150() dereferences a NULL pointer and crashes." -m "Cc: stable@vger.kernel.org"
S1=$(git rev-parse HEAD)
sed -i 's/^static long feat_7(long y) { y ^= 7; return y; }$/static long feat_7(long y) { return y; }/' feat.c &&
	dev commit -qam "y: fix a use-after-free in feat_7()" \
		-m "feat_7() reads freed memory, a use-after-free." -m "Cc: stable@vger.kernel.org"
S2=$(git rev-parse HEAD)
cd ..
[ "$(git -C sp diff --stat "$S1~1" "$S1" | tail -1)" = " 1 file changed, 1 insertion(+), 1 deletion(-)" ] ||
	fail "the split's fix did not change big_64.c"
scan_41 sp split.out
said split.out "$S1" "~linux-4.1.y: candidate" ||
	fail "a fix to big_64.c, split off big.c, vetoed for 4.1: $(cat split.out)"
said split.out "$S2" "        file-not-in-tree: feat.c is not in linux-4.1.y: the code it changes came later" ||
	fail "a fix to feat.c, new next to the split, not vetoed: $(cat split.out)"
# The trial names a moved file once, as the tree has it; the search still
# reads mainline's name. After the move, Q0 and then Q change the line F
# fixes: --depth 1 blames Q, and Q needs Q0, which changed drv/c.c (not
# a.c) and is found only under mainline's name.
dev_repo mv2
seq 1 30 | sed 's/^/line /' > a.c
dev add a.c && dev commit -q -m "base" && dev tag -a -m v4.1 v4.1 && dev branch linux-4.1.y
mkdir drv && dev mv a.c drv/c.c && dev commit -qm "x: move a.c to drv/c.c"
sed -i 's/^line 20$/line 20 (Q0)/' drv/c.c && dev commit -qam "x: Q0"
Q0=$(git rev-parse HEAD)
sed -i 's/^line 20 (Q0)$/line 20 (Q)/' drv/c.c && dev commit -qam "x: Q"
sed -i 's/^line 20 (Q)$/line 20 (F)/' drv/c.c && dev commit -qam "x: F, the fix" -m "Cc: stable@vger.kernel.org"
F2=$(git rev-parse HEAD)
cd ..
"$STABLEMATE" deps -C mv2 --no-cache --depth 1 --tree linux-4.1.y "$F2" > mv2.out || fail "deps mv2: $(cat mv2.out)"
grep -q "conflict in a.c$" mv2.out || fail "the conflict not named once, as the tree has it: $(cat mv2.out)"
grep -qx "    ${Q0:0:12} x: Q0 (drv/c.c)" mv2.out || fail "the search missed Q0, under mainline's name: $(cat mv2.out)"
echo "ok: deps says a moved file is in the tree under its old name, and which commit added a missing one; backports sees the same lines under the old name; scan keeps a fix to a file split off one the tree has; a conflict names a moved file once"
