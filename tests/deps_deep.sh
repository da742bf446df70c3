#!/usr/bin/env bash
# deps_deep.sh: `stablemate deps` follows dependencies of dependencies. In a
# mainline after v4.1, B rewrites line 5 of f.c, A rewrites it again and the
# fix F rewrites it once more; linux-4.1.y has none of them. F needs A (level
# 1) and A needs B (level 2, "via a dependency"); --depth 1 finds A only and
# says it stopped; a commit the tree already carries is never listed. The
# search past the list: with --depth 1 the fix still conflicts, and of the
# commits to f.c the tree lacks (B; D, which it does not need; E, which
# conflicts with the tree's own line 11) B alone makes it apply. G conflicts
# with a change the tree made itself, and no mainline commit is missing.
# The stable queue's FAILED notice for the tree, in F's review note: deps
# names the possible dependencies it listed, which it found itself, which
# the tree has, and tries the others in with its list.
. "$(dirname "$0")/lib.sh"
dev_repo up
seq 1 12 | sed 's/^/line /' > f.c
seq 1 12 | sed 's/^/row /' > g.c
seq 1 6 | sed 's/^/item /' > h.c
dev add f.c g.c h.c && dev commit -q -m "base" && dev tag -a -m v4.1 v4.1
dev branch linux-4.1.y
dev checkout -q linux-4.1.y
sed -i 's/^line 11$/line 11 (the tree'"'"'s own)/' f.c && sed -i 's/^item 3$/item 3 (the tree'"'"'s own)/' h.c &&
	dev commit -qam "x: a change of the tree's own"
dev checkout -q master
sed -i 's/^line 9$/line 9 (C, backported)/' f.c && dev commit -qam "x: C, a fix already in the tree"
C=$(git rev-parse HEAD)
dev checkout -q linux-4.1.y && dev cherry-pick -x "$C" >/dev/null && dev checkout -q master
sed -i 's/^line 5$/line 5 (B)/' f.c && dev commit -qam "x: B, a cleanup"
B=$(git rev-parse HEAD)
sed -i 's/^row 2$/row 2 (other)/' g.c && dev commit -qam "y: unrelated"
sed -i 's/^line 5 (B)$/line 5 (A)/; s/^line 9 (C, backported)$/line 9 (C, then A)/' f.c && dev commit -qam "x: A, a feature"
A=$(git rev-parse HEAD)
sed -i 's/^line 1$/line 1 (D)/' f.c && dev commit -qam "x: D, far from the fix"
D=$(git rev-parse HEAD)
sed -i 's/^line 11$/line 11 (E)/' f.c && dev commit -qam "x: E, where the tree changed too"
E=$(git rev-parse HEAD)
sed -i 's/^line 5 (A)$/line 5 (F)/' f.c && dev commit -qam "x: F, the fix"
F=$(git rev-parse HEAD)
sed -i 's/^item 3$/item 3 (G)/' h.c && dev commit -qam "z: G, on a line the tree changed"
G=$(git rev-parse HEAD)
loose_before=$(git count-objects | cut -d" " -f1)
cd ..

"$STABLEMATE" deps -C up --no-cache --tree linux-4.1.y "$F" > deep.out || fail "deps: $(cat deep.out)"
grep -q "^needs 2 commits first in linux-4.1.y" deep.out || fail "deps output: $(cat deep.out)"
grep -q "^  ${A:0:12} x: A, a feature (.*)$" deep.out || fail "A not a direct dependency: $(cat deep.out)"
grep -q "^  ${B:0:12} x: B, a cleanup (.*) \[via a dependency\]$" deep.out ||
	fail "B not found through A: $(cat deep.out)"
grep -q "${C:0:12}" deep.out && fail "C, already in the tree, listed: $(cat deep.out)"
# oldest first: B before A
[ "$(grep -n "${B:0:12}" deep.out | cut -d: -f1)" -lt "$(grep -n "${A:0:12}" deep.out | cut -d: -f1)" ] ||
	fail "not oldest first: $(cat deep.out)"

# the trial says whether the list is enough: after B and A, F applies; after
# A alone (what --depth 1 finds), it does not, as the cut-short line warns
grep -qx "trial on linux-4.1.y: after these 2, applies cleanly; alone, conflict in f.c" deep.out ||
	fail "deps trial: $(cat deep.out)"

"$STABLEMATE" deps -C up --no-cache --depth 1 --tree linux-4.1.y "$F" > one.out
grep -q "^needs 1 commit first" one.out && grep -q "stopped after 1 level" one.out ||
	fail "--depth 1: $(cat one.out)"
grep -qx "trial on linux-4.1.y: after this one, conflict in f.c; alone, conflict in f.c" one.out ||
	fail "deps --depth 1 trial: $(cat one.out)"
# the search: B, D and E are tried in; E conflicts, D is not needed
grep -qx "  applies cleanly after 1 more (of 3 commits to those files that linux-4.1.y lacks; take them in with the list, oldest first):" one.out ||
	fail "deps --depth 1 search: $(cat one.out)"
grep -qx "    ${B:0:12} x: B, a cleanup (f.c)" one.out || fail "the search missed B: $(cat one.out)"
[ "$(tail -1 one.out)" = "    ${B:0:12} x: B, a cleanup (f.c)" ] || fail "the search named more than B: $(cat one.out)"
"$STABLEMATE" deps -C up --no-cache --depth 1 --json --tree linux-4.1.y "$F" > one.json
python3 - "$B" one.json <<'PY' || fail "deps --depth 1 --json search: $(cat one.json)"
import json, sys
b, path = sys.argv[1:]
d = json.load(open(path))
s = d["search"]
assert s["applies"] is True and s["considered"] == 3 and s["more"] is False, s
assert [(x["id"], x["paths"]) for x in s["extra"]] == [(b, ["f.c"])], s
PY
# --search 2: the 2 newest (E, D) do not help; without a search, nothing
"$STABLEMATE" deps -C up --no-cache --depth 1 --search 2 --tree linux-4.1.y "$F" > two.out
grep -qx "  still conflicts after the 2 newest commits to those files that linux-4.1.y lacks" two.out ||
	fail "deps --search 2: $(cat two.out)"
"$STABLEMATE" deps -C up --no-cache --depth 1 --search 0 --json --tree linux-4.1.y "$F" |
	python3 -c 'import json, sys; assert json.load(sys.stdin)["search"] is None' || fail "deps --search 0 searched"
# G conflicts with the tree's own change: no mainline commit can help
"$STABLEMATE" deps -C up --no-cache --tree linux-4.1.y "$G" > own.out
grep -qx "trial on linux-4.1.y: conflict in h.c" own.out || fail "deps G trial: $(cat own.out)"
grep -qx "  no other commit to the files in conflict since v4.1 is missing from linux-4.1.y: the conflict is with the tree's own changes" own.out ||
	fail "deps G search: $(cat own.out)"

"$STABLEMATE" deps -C up --no-cache --json --tree linux-4.1.y "$F" > deep.json
python3 - "$A" "$B" deep.json <<'PY' || fail "deps --json: $(cat deep.json)"
import json, sys
a, b, path = sys.argv[1:]
d = json.load(open(path))
levels = {x["id"]: x["level"] for x in d["deps"]}
assert levels == {a: 1, b: 2}, levels
assert d["truncated"] is False and d["already_in_tree"] >= 1, d
assert d["applies_alone"] is False and d["conflicts_alone"] == ["f.c"], d
assert d["applies_after_deps"] is True and d["conflicts_after_deps"] == [], d
assert d["search"] is None, d
PY
# a fix with nothing to find: the trial alone, and nothing after
"$STABLEMATE" deps -C up --no-cache --tree linux-4.1.y "$B" > none.out
grep -qx "trial on linux-4.1.y: applies cleanly" none.out || fail "deps trial, no deps: $(cat none.out)"
"$STABLEMATE" deps -C up --no-cache --json --tree linux-4.1.y "$B" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["deps"] == [] and d["applies_alone"] is True and d["applies_after_deps"] is None, d' ||
	fail "deps --json trial, no deps"
[ "$(git -C up count-objects | cut -d" " -f1)" = "$loose_before" ] || fail "the trials wrote objects"

# the stable queue's FAILED notice for 4.1, harvested into F's review note
# (and one for 4.4, another tree): deps says what its script listed, and
# which of those it found itself
cat > notice.txt <<EOF
Review: <2026031701-failed-4.1@gregkh>
Tree: 4.1
Author: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
Date: Tue, 17 Mar 2026 10:00:00 +0100
Subject: FAILED: patch "[PATCH] x: F, the fix" failed to apply to 4.1-stable tree
Notice: failed to apply
Comment:
    Possible dependencies, as the stable queue's script lists them:
    ${A:0:12} ("x: A, a feature")
    ${D:0:12} ("x: D, far from the fix")

Review: <2026031702-failed-4.4@gregkh>
Tree: 4.4
Author: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
Date: Tue, 17 Mar 2026 10:01:00 +0100
Notice: failed to apply
Comment:
    Possible dependencies, as the stable queue's script lists them:
    ${E:0:12} ("x: E, where the tree changed too")
EOF
"$STABLEMATE" notes add "$F" notice.txt -C up > /dev/null || fail "notes add of the notices"
"$STABLEMATE" deps -C up --no-cache --tree linux-4.1.y "$F" > queue.out || fail "deps: $(cat queue.out)"
grep -qx "the stable queue could not apply it to 4.1 (Greg Kroah-Hartman <gregkh@linuxfoundation.org>, Tue, 17 Mar 2026 10:00:00 +0100); its script lists 2 possible dependencies: ${A:0:12} (listed above), ${D:0:12}" queue.out ||
	fail "deps does not say what the stable queue listed: $(cat queue.out)"
grep -q "${E:0:12}\|4\.4" queue.out && fail "deps shows another tree's notice: $(cat queue.out)"
"$STABLEMATE" deps -C up --no-cache --json --tree linux-4.1.y "$F" | python3 -c '
import json, sys
d = json.load(sys.stdin)
q = d["queue_failures"]
assert len(q) == 1 and q[0]["message_id"] == "2026031701-failed-4.1@gregkh", q
assert q[0]["possible_dependencies"] == [sys.argv[1][:12], sys.argv[2][:12]], q' "$A" "$D" ||
	fail "deps --json queue_failures"
grep -q "NAKed" queue.out && fail "deps says NAKed with no NAK: $(cat queue.out)"
# ... and tries the ones the tree lacks in with the list: D is not needed,
# and does no harm
grep -qx "trial on linux-4.1.y after the list and the stable queue's 1 it lacks (${D:0:12}): applies cleanly" queue.out ||
	fail "deps does not try the notice's dependencies: $(cat queue.out)"
# with --depth 1 the list is A alone: A and D are not enough, B is missing
"$STABLEMATE" deps -C up --no-cache --depth 1 --search 0 --tree linux-4.1.y "$F" > q1.out || fail "deps --depth 1: $(cat q1.out)"
grep -qx "trial on linux-4.1.y after the list and the stable queue's 1 it lacks (${D:0:12}): conflict in f.c" q1.out ||
	fail "deps --depth 1, the notice's list: $(cat q1.out)"
# A later FAILED notice for 4.1 names B, C (which the tree took), an id
# the repository lacks and F itself (the script lists the fix too): each is
# marked, and with B the fix applies
cat > notice2.txt <<EOF
Review: <2026032001-failed-4.1@gregkh>
Tree: 4.1
Author: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
Date: Fri, 20 Mar 2026 10:00:00 +0100
Subject: FAILED: patch "[PATCH] x: F, the fix" failed to apply to 4.1-stable tree
Notice: failed to apply
Comment:
    Possible dependencies, as the stable queue's script lists them:
    ${B:0:12} ("x: B, a cleanup")
    ${C:0:12} ("x: C, a fix already in the tree")
    0123456789ab ("x: lost")
    ${F:0:12} ("x: F, the fix")
EOF
"$STABLEMATE" notes add "$F" notice2.txt -C up > /dev/null || fail "notes add of the second notice"
"$STABLEMATE" deps -C up --no-cache --depth 1 --search 0 --tree linux-4.1.y "$F" > q2.out || fail "deps: $(cat q2.out)"
grep -qx "the stable queue could not apply it to 4.1 (Greg Kroah-Hartman <gregkh@linuxfoundation.org>, Fri, 20 Mar 2026 10:00:00 +0100); its script lists 4 possible dependencies: ${B:0:12}, ${C:0:12} (in linux-4.1.y already), 0123456789ab (not in this repository), ${F:0:12} (the fix itself)" q2.out ||
	fail "deps does not mark the second notice's dependencies: $(cat q2.out)"
grep -qx "trial on linux-4.1.y after the list and the stable queue's 2 it lacks (${D:0:12}, ${B:0:12}): applies cleanly" q2.out ||
	fail "deps with both notices' dependencies: $(cat q2.out)"
"$STABLEMATE" deps -C up --no-cache --depth 1 --search 0 --json --tree linux-4.1.y "$F" | python3 -c '
import json, sys
d = json.load(sys.stdin)
states = {o["id"]: (o["state"], o["commit"]) for o in d["outside"]}
a, b, c, dd, f = (x[:12] for x in sys.argv[1:6])
assert states == {a: ("listed", sys.argv[1]), dd: ("needed", sys.argv[4]), b: ("needed", sys.argv[2]),
                  c: ("in_tree", sys.argv[3]), "0123456789ab": ("unknown", None),
                  f: ("fix", sys.argv[5])}, states
assert d["applies_with_outside"] is True and d["conflicts_with_outside"] == [], d' "$A" "$B" "$C" "$D" "$F" ||
	fail "deps --json outside"
# no notice: nothing tried, null
"$STABLEMATE" deps -C up --no-cache --json --tree linux-4.1.y "$G" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["outside"] == [] and d["applies_with_outside"] is None, d' || fail "deps --json without a notice"
# a NAK for 4.4 in the same note: said for the branch taken as 4.4 (text
# and JSON), not for 4.1
printf 'Review: <nak-f-4.4@example.org>\nTree: 4.4\nAuthor: Rev Iewer <rev@example.org>\nDate: Wed, 18 Mar 2026 10:00:00 +0100\nTrailers:\n  Nacked-by: Rev Iewer <rev@example.org>\nComment:\n    4.4 needs E first.\n' > nak.txt
"$STABLEMATE" notes add "$F" nak.txt -C up > /dev/null || fail "notes add of the NAK"
"$STABLEMATE" deps -C up --no-cache --tree linux-4.1.y=4.4 "$F" > nak44.out || fail "deps 4.4: $(cat nak44.out)"
grep -qx "NAKed for 4.4: Nacked-by: Rev Iewer <rev@example.org> (Wed, 18 Mar 2026 10:00:00 +0100): 4.4 needs E first. (scan vetoes it for linux-4.1.y)" nak44.out ||
	fail "deps does not say the NAK for 4.4: $(cat nak44.out)"
"$STABLEMATE" deps -C up --no-cache --tree linux-4.1.y "$F" | grep -q "NAKed" && fail "deps says 4.4's NAK for 4.1"
"$STABLEMATE" deps -C up --no-cache --json --tree linux-4.1.y=4.4 "$F" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["nak"].startswith("Nacked-by: Rev Iewer <rev@example.org> (Wed, 18 Mar 2026"), d["nak"]' ||
	fail "deps --json nak"
echo "ok: deps follows a dependency's own dependencies (A, then B through A), and tries them; it says what the stable queue's FAILED notice listed and tries what the tree lacks of it, and a NAK for the tree"
