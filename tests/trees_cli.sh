#!/usr/bin/env bash
# trees_cli.sh: the scan/missing/backports/deps/steal/yank/insert commands
# end to end on the repository of trees_mkrepo.sh: text and JSON output,
# --help, usage errors (exit 2) and failures (exit 1, one line).
. "${SM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
set +e	# soft checks: every case runs and is reported (lib.sh)
top=$SM_SRCDIR sm=$STABLEMATE tmp=$TMP
trees_repo

for c in scan missing backports deps steal yank insert; do
	expect "$c --help" 0 "$sm" "$c" --help
	has "$c --help is a usage text" "usage: stablemate $c"
	expect "$c with a bad option" 2 "$sm" "$c" --no-such-option
	expect "$c --version" 0 "$sm" "$c" --version
	has "$c --version prints it" "stablemate "
done
# the option table: a known option without its value, old spellings as aliases
expect "scan --tree without a value" 2 "$sm" scan --range v4.4..v4.5 --tree
has "says the value is missing" "stablemate scan: option '--tree' requires a value"
expect "missing --help lists -C" 0 "$sm" missing --help
has "option block from the table" "  -C, --repo DIR"
expect "scan --upstream (old spelling of -C)" 0 "$sm" scan --upstream . --range v4.4..v4.5 --tree linux-4.1.y --cache "$tmp/c2" -q
has "alias --cache for --cache-dir" "index new"
expect "stablemate -C DIR scan" 0 "$sm" -C "$tmp/linux" scan --range=v4.4..v4.5 --tree=linux-4.1.y --cache-dir "$tmp/c2"
has "-C before the command, as git" "index hit"

# scan
expect "scan" 0 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y
has "scan counts" "scan v4.4..v4.5 in .: 14 commits"
has "scan builds the index" "tree linux-4.1.y (4.1): index new"
has "scan fix-for-fix" "fix-for-fix: fixes ${C1:0:12}, which linux-4.1.y carries as ${S1:0:12}"
has "scan present by patch-id" "present: already in linux-4.4.y as ${T3:0:12} (matched by patch-id)"
has "scan bug not in tree" "bug-not-in-tree: the Fixes: target ${C2:0:12} first appeared in v4.4, after 4.1"
has "scan prereq" "prereq: needs ${W5P:0:12} (tls: rx: prepare the partial read path) first"
expect "scan again" 0 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y --candidates
has "scan reuses the cached index" "tree linux-4.4.y (4.4): index hit"
# (the merge: a reject for every tree; W4A, a feature with no sign of a fix,
# is in the learned model's wide "maybe" net)
if grep -q "^${MERGE:0:12}" <<<"$out"; then bad "--candidates hides rejects"; else ok "--candidates hides rejects"; fi
expect "scan --json" 0 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y=4.4 --json --check-applies
json "scan json" "c={x['id']:x for x in d['commits']}; w=c['$W8']['trees']; assert d['nr_commits']==14; assert w[0]['applies'] is False and w[1]['applies'] is True; assert c['$W1']['trees'][1]['present_as']=='$T3'; assert c['$MERGE']['merge']"
# The second loading thread changes nothing in the result.
one=$(SM_SCAN_THREADS=1 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y=4.4 --json)
two=$(SM_SCAN_THREADS=2 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y=4.4 --json)
[ -n "$one" ] && [ "$one" = "$two" ] && ok "scan: two threads, same JSON" || bad "scan: two threads, same JSON"
expect "scan unknown revision" 1 "$sm" scan --range v4.4..v9.9 --tree linux-4.1.y
has "scan names the range and the bad end" "stablemate scan: range v4.4..v9.9: v9.9: unknown revision in"
[ "$(wc -l <<<"$out")" = 1 ] && ok "scan error is one line" || bad "scan error is one line: $out"
expect "scan unknown tree" 1 "$sm" scan --range v4.4..v4.5 --tree linux-9.9.y
has "scan names the tree" "linux-9.9.y: unknown revision"
expect "scan tree without version" 2 "$sm" scan --range v4.4..v4.5 --tree master
has "scan asks for a version" "master=6.1"
git clone -q --depth 1 --branch linux-4.4.y "file://$tmp/linux" "$tmp/shallow" 2>/dev/null
expect "scan shallow repo" 1 "$sm" scan --upstream "$tmp/shallow" --range HEAD~1..HEAD --tree linux-4.4.y
has "scan refuses shallow" "shallow repository"

# missing
expect "missing" 0 "$sm" missing linux-4.1.y linux-4.4.y
has "missing a side" "in linux-4.1.y, not in linux-4.4.y: 3 of 5"
has "missing shows both ids" "${W7:0:12} ${S4:0:12} KVM: arm64: vgic-its"
has "missing other side" "${W3:0:12} ${T1:0:12} fs/xattr: missing fdput()"
expect "missing --json" 0 "$sm" missing --json linux-4.1.y linux-4.4.y
json "missing json" "assert d['merge_base']=='$BASE41'; assert len(d['a']['only_here'])==3 and len(d['b']['only_here'])==4"
# the stable queue's notices in the review notes (as harvest keeps them),
# for the other tree's version: why 4.1 lacks W3, and that it lacks T3 (the
# ALSA fix, which names no upstream id: its own is the key) for now only; a
# notice for another tree says nothing here
cat > "$tmp/w3-notice.txt" <<EOF
Review: <2026031701-failed-4.1@gregkh>
Tree: 4.1
Author: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
Date: Tue, 17 Mar 2026 10:00:00 +0100
Notice: failed to apply
Comment:
    Possible dependencies, as the stable queue's script lists them:
    ${C2:0:12} ("a commit 4.1 lacks")

Review: <2026031702-failed-4.9@gregkh>
Tree: 4.9
Date: Tue, 17 Mar 2026 10:01:00 +0100
Notice: failed to apply

Review: <nak-w3-4.1@example.org>
Tree: 4.1
Author: Rev Iewer <rev@example.org>
Date: Thu, 19 Mar 2026 10:00:00 +0100
Trailers:
  Nacked-by: Rev Iewer <rev@example.org>
Comment:
    4.1 has no fdput() leak here: the error path differs.
EOF
printf 'Review: <2026031703-added-4.1@gregkh>\nTree: 4.1\nDate: Wed, 18 Mar 2026 09:00:00 +0100\nNotice: queued\n' > "$tmp/t3-notice.txt"
"$sm" notes add "$W3" "$tmp/w3-notice.txt" --notes-ref queue-test > /dev/null &&
	"$sm" notes add "$T3" "$tmp/t3-notice.txt" --notes-ref queue-test > /dev/null ||
	bad "notes add of the stable queue's notices"
expect "missing, with the stable queue's notices" 0 "$sm" missing --notes-ref queue-test linux-4.1.y linux-4.4.y
has "why 4.1 lacks W3" " (the stable queue could not apply it to 4.1: Tue, 17 Mar 2026 10:00:00 +0100; possible dependencies: ${C2:0:12})"
has "T3 is queued for 4.1" " (queued for 4.1 in the stable queue: Wed, 18 Mar 2026 09:00:00 +0100)"
has "the NAK for 4.1 too" "lacks too) (NAKed for 4.1: Nacked-by: Rev Iewer <rev@example.org> (Thu, 19 Mar 2026 10:00:00 +0100): 4.1 has no fdput() leak here: the error path differs.) (the stable queue could not apply it"
if grep -q "4\.9" <<<"$out"; then bad "another tree's notice shown"; else ok "another tree's notice left out"; fi
expect "missing --json, with the stable queue's notices" 0 "$sm" missing --json --notes-ref queue-test linux-4.1.y linux-4.4.y
json "missing json queue" "e={x['upstream']:x for x in d['b']['only_here']}; assert e['$W3']['queue_notice']=='failed to apply' and e['$W3']['queue_dependencies']=='${C2:0:12}', e['$W3']; assert all(x['queue_notice'] is None and x['nak'] is None for x in d['a']['only_here'])"
json "missing json nak" "e={x['upstream']:x for x in d['b']['only_here']}; assert e['$W3']['nak'].startswith('Nacked-by: Rev Iewer <rev@example.org> (Thu, 19 Mar 2026'), e['$W3']"
expect "missing without those notes" 0 "$sm" missing linux-4.1.y linux-4.4.y
if grep -q "stable queue" <<<"$out"; then bad "notices from another notes ref"; else ok "no notices without their notes ref"; fi
expect "missing one branch" 2 "$sm" missing linux-4.1.y
# A commit a tree took and then reverted is in effect not in it: r41 is 4.1
# with its KVM backport (S4) reverted, r44 is 4.4 with that backport picked
# (-x) on top. r41's KVM fix and revert are left out and listed apart;
# r44's copy is missing from r41, and the line says r41 reverted its own.
git worktree add -q "$tmp/wtr" -b r41 linux-4.1.y
git -C "$tmp/wtr" revert --no-edit "$S4" >/dev/null
rev41=$(git -C "$tmp/wtr" rev-parse HEAD)
git -C "$tmp/wtr" checkout -q -b r44 linux-4.4.y && git -C "$tmp/wtr" cherry-pick -x "$S4" >/dev/null
pick44=$(git -C "$tmp/wtr" rev-parse HEAD)
git -C "$tmp/wtr" checkout -q --detach && git worktree remove --force "$tmp/wtr"
expect "missing with a reverted backport" 0 "$sm" missing r41 r44
has "the reverted pair is left out" "in r41, not in r44: 2 of 4"
has "and listed apart" "taken and reverted in r41, left out: 1"
has "with its revert" "  ${W7:0:12} ${S4:0:12} KVM: arm64: vgic-its: Avoid potential UAF in LPI translation cache (reverted by ${rev41:0:12})"
has "r44's copy is missing from r41" "${W7:0:12} ${pick44:0:12} KVM: arm64: vgic-its: Avoid potential UAF in LPI translation cache (r41 took it and reverted it: ${rev41:0:12})"
hasnt "the revert is no commit of r41's own" "Revert \"KVM"
expect "missing --json with a reverted backport" 0 "$sm" missing --json r41 r44
json "missing json reverted" "
assert d['a']['reverted'] == [{'upstream': '$W7', 'stable': '$S4', 'subject': 'KVM: arm64: vgic-its: Avoid potential UAF in LPI translation cache', 'revert': '$rev41'}], d['a']
k = [e for e in d['b']['only_here'] if e['upstream'] == '$W7']
assert k and k[0]['other_revert'] == '$rev41' and k[0]['stable'] == '$pick44', d['b']
assert all(e['other_revert'] is None for e in d['a']['only_here'])"
# A commit a tree took only as the prerequisite of another ("Stable-dep-of:",
# as stable trees write it): dA is 4.4 with W5P (for W5) and W5; dB has W5
# adjusted, without W5P. So W5P is listed apart for dB, and kept, with a note,
# for 4.4, which lacks W5 too.
git worktree add -q "$tmp/wtd" -b dA linux-4.4.y
git -C "$tmp/wtd" commit -q --allow-empty -m "tls: rx: prepare the partial read path" -m "commit $W5P upstream." \
	-m "Stable-dep-of: ${W5:0:12} (\"net: tls: fix use-after-free with partial reads and async decrypt\")
Signed-off-by: Sasha Levin <sashal@kernel.org>"
depA=$(git -C "$tmp/wtd" rev-parse HEAD)
git -C "$tmp/wtd" commit -q --allow-empty -m "net: tls: fix use-after-free with partial reads and async decrypt" -m "commit $W5 upstream."
git -C "$tmp/wtd" checkout -q -b dB linux-4.4.y
git -C "$tmp/wtd" commit -q --allow-empty -m "net: tls: fix use-after-free with partial reads and async decrypt" \
	-m "[ Upstream commit $W5 ]" -m "Adjusted to 4.4, which has no partial read path."
fixB=$(git -C "$tmp/wtd" rev-parse HEAD)
git -C "$tmp/wtd" checkout -q --detach && git worktree remove --force "$tmp/wtd"
expect "missing: a prerequisite of a commit the other tree has" 0 "$sm" missing dA dB
has "not counted as missing" "in dA, not in dB: 0 of 2"
has "listed apart" "taken in dA as prerequisites of commits dB has without them, left out: 1"
has "with the commit it was for" "  ${W5P:0:12} ${depA:0:12} tls: rx: prepare the partial read path (Stable-dep-of ${W5:0:12}, in dB as ${fixB:0:12})"
expect "missing: a prerequisite of a commit the other tree lacks too" 0 "$sm" missing dA linux-4.4.y
has "kept, with a note" "  ${W5P:0:12} ${depA:0:12} tls: rx: prepare the partial read path (Stable-dep-of ${W5:0:12}, which linux-4.4.y lacks too)"
hasnt "nothing apart" "as prerequisites of commits"
expect "missing --json: prerequisites" 0 "$sm" missing --json dA dB
json "json: prereq_of_present" "assert d['a']['prereq_of_present']==[{'upstream':'$W5P','stable':'$depA','subject':'tls: rx: prepare the partial read path','dep_of':'$W5','dep_there':'$fixB'}] and d['a']['only_here']==[] and d['b']['prereq_of_present']==[], d"
# What the other tree does not need is set apart, with the reason. n44 is
# 4.4 with W4 (Fixes: W4A, a v4.5 commit neither 4.1 nor n44 has), W2
# (Fixes: C1, of v4.4, but 4.1 took C1 as S1: kept) and E1 (it changes
# fs/ext4/fc_replay.c, which 4.1 lacks). T1 fixes C2, which n44 has from
# v4.4 and 4.1 lacks too: kept, and the line says so. W4 conflicts on 4.4,
# which lacks W4A: its backport is written by hand.
git worktree add -q "$tmp/wtn" -b n44 linux-4.4.y
git -C "$tmp/wtn" cherry-pick -x "$W2" "$E1" >/dev/null
echo "/* the async notify race, as 4.4 has it */" >> "$tmp/wtn/net/tls/tls_sw.c"
git -C "$tmp/wtn" commit -q -a -m "$(git log -1 --format=%B "$W4")" -m "(cherry picked from commit $W4)"
n44=$(git -C "$tmp/wtn" rev-list --reverse linux-4.4.y..HEAD | tr '\n' ' ')
read -r n44_W2 n44_E1 n44_W4 <<< "$n44"
git -C "$tmp/wtn" checkout -q --detach && git worktree remove --force "$tmp/wtn"
expect "missing: what the other tree does not need" 0 "$sm" missing n44 linux-4.1.y
has "the count leaves them out" "in n44, not in linux-4.1.y: 5 of 9"
has "set apart" "not needed in linux-4.1.y, left out: 2"
has "a fix of a bug 4.1 never had" "  ${W4:0:12} ${n44_W4:0:12} tls: fix race between async notify and socket close (bug-not-in-tree: the Fixes: target ${W4A:0:12} came in v4.5, after v4.1, and linux-4.1.y has no backport of it)"
has "a fix of a file 4.1 lacks" "  ${E1:0:12} ${n44_E1:0:12} ext4: regenerate buddy after block freeing failed if under fc replay (file-not-in-tree: fs/ext4/fc_replay.c is not in linux-4.1.y)"
has "a fix of what 4.1 took as a backport stays" "  ${W2:0:12} ${n44_W2:0:12} i2c: i801: Fix block process call transactions"
has "a fix of what 4.1 lacks too says so" "  ${W3:0:12} ${T1:0:12} fs/xattr: missing fdput() in fremovexattr error path (fixes ${C2:0:12}, which linux-4.1.y lacks too)"
expect "missing --all: every commit" 0 "$sm" missing --all n44 linux-4.1.y
has "--all counts them" "in n44, not in linux-4.1.y: 7 of 9"
hasnt "--all sets nothing apart" "not needed"
expect "missing --json: not_needed" 0 "$sm" missing --json n44 linux-4.1.y
json "json: not_needed, fix_of" "
n = {e['upstream']: e for e in d['a']['not_needed']}
assert sorted(n) == sorted(['$W4', '$E1']) and n['$E1']['reason'] == 'file-not-in-tree' and n['$W4']['reason'] == 'bug-not-in-tree', d['a']
assert n['$E1']['stable'] == '$n44_E1' and 'fc_replay.c is not in linux-4.1.y' in n['$E1']['why']
o = {e['upstream']: e for e in d['a']['only_here']}
assert o['$W3']['fix_of'] == '$C2' and o['$W2']['fix_of'] is None and d['b']['not_needed'] == [], d"
# --since-release: each branch from its own release, what each took since.
# 4.1's S1 (C1) is in 4.4 from mainline (v4.4 holds C1); 4.4's T1 fixes C2,
# which came in v4.4, after v4.1: not needed there.
expect "missing --since-release" 0 "$sm" missing --since-release linux-4.4.y linux-4.1.y
has "the header names the tags" "since their releases: linux-4.4.y from v4.4, linux-4.1.y from v4.1; 1 commit in both"
has "4.4's own commits only" "in linux-4.4.y, not in linux-4.1.y: 1 of 3"
has "the fix 4.1 lacks" "  ${T3:0:12} ${T3:0:12} ALSA: timer: Fix leak in events via snd_timer_user_tinterrupt"
has "T1 not needed, against 4.1's release" "  ${W3:0:12} ${T1:0:12} fs/xattr: missing fdput() in fremovexattr error path (bug-not-in-tree: the Fixes: target ${C2:0:12} came in v4.4, after v4.1, and linux-4.1.y has no backport of it)"
has "4.1's side: C1 is in 4.4 from mainline" "in linux-4.1.y, not in linux-4.4.y: 3 of 5"
hasnt "S1 is not listed" "${S1:0:12}"
expect "missing --since-release --json" 0 "$sm" missing --since-release --json linux-4.4.y linux-4.1.y
json "json: since" "assert d['a']['since'] == 'v4.4' and d['b']['since'] == 'v4.1' and d['merge_base'] is None, d"
expect "missing --since-release, a name without a version" 1 "$sm" missing --since-release n44 linux-4.1.y
has "asks for NAME=VERSION" "n44: cannot tell the tree's kernel version from the name (give it as NAME=VERSION, e.g. n44=6.1)"
expect "missing --since-release, a release not on the branch" 1 "$sm" missing --since-release n44=4.5 linux-4.1.y
has "says the tag is not on it" "n44: v4.5 is not on the branch"
expect "missing --since-release n44=4.4" 0 "$sm" missing --since-release n44=4.4 linux-4.1.y
has "n44 from v4.4" "since their releases: n44 from v4.4, linux-4.1.y from v4.1"
expect "backports: the prerequisite a tree took with its backport" 0 "$sm" backports --trees dA=4.4,dB=4.4 --mine linux-4.4.y "$W5"
has "names it, and that mine lacks it" "      with prerequisite ${depA:0:12} (tls: rx: prepare the partial read path), upstream ${W5P:0:12}; not in linux-4.4.y"
[ "$(grep -c "with prerequisite" <<<"$out")" = 1 ] && ok "backports: dB took none" || bad "backports: prerequisites: $out"
# a tree of mine that took the prerequisite and reverted it lacks it
git worktree add -q "$tmp/wtm" -b m44 linux-4.4.y
git -C "$tmp/wtm" cherry-pick -x "$W5P" >/dev/null && git -C "$tmp/wtm" revert --no-edit HEAD >/dev/null
git -C "$tmp/wtm" checkout -q --detach && git worktree remove --force "$tmp/wtm"
expect "backports: mine took the prerequisite and reverted it" 0 "$sm" backports --trees dA=4.4 --mine m44=4.4 "$W5"
has "it counts as lacking" "upstream ${W5P:0:12}; not in m44"
expect "backports --json: prerequisites" 0 "$sm" backports --json --trees dA=4.4,dB=4.4 "$W5"
json "json: prerequisites" "t={x['tree']:x for x in d['trees']}; assert t['dA']['prerequisites']==[{'stable':'$depA','upstream':'$W5P','subject':'tls: rx: prepare the partial read path','mine_lacks':None}] and t['dB']['prerequisites']==[], t"
expect "scan a tree that reverted a backport" 0 "$sm" scan --range v4.4..v4.5 --tree r41=4.1
has "present says it was reverted" "present: taken into r41 as ${S4:0:12} and reverted there by ${rev41:0:12} (matched by upstream-id)"
# the fix-for-fix of linux-4.1.y: f41 took C1 as S1 and reverted it, so the
# bug left with it
git worktree add -q "$tmp/wtf" -b f41 linux-4.1.y
git -C "$tmp/wtf" revert --no-edit "$S1" >/dev/null
revf=$(git -C "$tmp/wtf" rev-parse HEAD)
git -C "$tmp/wtf" checkout -q --detach && git worktree remove --force "$tmp/wtf"
expect "scan a tree that reverted the Fixes: target's backport" 0 "$sm" scan --range v4.4..v4.5 --tree f41=4.1
has "no fix-for-fix there" "bug-not-in-tree: the Fixes: target ${C1:0:12} first appeared in v4.4, after 4.1; f41 took it as ${S1:0:12} and reverted it (${revf:0:12})"
hasnt "and no promotion" "fix-for-fix"
# a prerequisite the tree took and reverted is needed again: p44 is 4.4
# with W5P picked, then reverted
git worktree add -q "$tmp/wtp" -b p44 linux-4.4.y
git -C "$tmp/wtp" cherry-pick -x "$W5P" >/dev/null
pickp=$(git -C "$tmp/wtp" rev-parse HEAD)
git -C "$tmp/wtp" revert --no-edit HEAD >/dev/null
revp=$(git -C "$tmp/wtp" rev-parse HEAD)
git -C "$tmp/wtp" checkout -q --detach && git worktree remove --force "$tmp/wtp"
expect "scan a tree that reverted a prerequisite" 0 "$sm" scan --range v4.4..v4.5 --tree p44=4.4
has "the prerequisite is needed again" "prereq: needs ${W5P:0:12} (tls: rx: prepare the partial read path) first; p44 took it as ${pickp:0:12} and reverted it (${revp:0:12})"
expect "backports in a tree that reverted it" 0 "$sm" backports --trees r41=4.1,r44=4.4 --mine r41=4.1 "$W7"
has "backports says r41 reverted it" "  r41: ${S4:0:12} (by upstream-id), same as upstream, reverted there by ${rev41:0:12}"
has "r44's copy stands" "  r44: ${pick44:0:12} (by upstream-id), same as upstream"
has "and for mine" "  r41 (mine): took it as ${S4:0:12}, then reverted it (${rev41:0:12})"
expect "backports --json" 0 "$sm" backports --json --trees r41=4.1,r44=4.4 --mine r41=4.1 "$W7"
json "backports json reverted_by" "
assert [t['reverted_by'] for t in d['trees']] == ['$rev41', None], d['trees']
assert d['mine']['reverted_by'] == '$rev41'"

# backports
expect "backports" 0 "$sm" backports --trees linux-4.1.y,linux-4.4.y --mine linux-4.1.y "$W1"
has "backports not there" "linux-4.1.y: not backported"
has "backports by patch-id" "linux-4.4.y: ${T3:0:12} (by patch-id), same as upstream, applies cleanly to linux-4.1.y"
expect "backports differs" 0 "$sm" backports --trees linux-4.1.y,linux-4.4.y "$W6"
has "backports differing backport" "linux-4.4.y: ${T2:0:12} (by upstream-id), differs from upstream (2 lines)"
expect "backports --json" 0 "$sm" backports --json --trees linux-4.4.y "$W6"
json "backports json" "t=d['trees'][0]; assert t['differs'] and t['stable']=='$T2' and t['matched_by']=='upstream-id'"
expect "backports unknown fix" 1 "$sm" backports --trees linux-4.4.y 0123456789ab
has "backports names it" "0123456789ab: unknown revision"

# deps
expect "deps" 0 "$sm" deps --tree linux-4.1.y "$E1"
has "deps lists the dependency" "${C3:0:12} ext4: add fast commit replay buddy handling"
has "deps flags the missing feature" "feature missing: fs/ext4/fc_replay.c does not exist in linux-4.1.y"
expect "deps --json" 0 "$sm" deps --json --tree linux-4.4.y "$W4"
json "deps json" "assert [x['id'] for x in d['deps']]==['$W4A'] and not d['feature_missing']"
# a dependency the tree took and reverted is needed again: d41 is 4.1 with
# C3 picked, then reverted
git worktree add -q "$tmp/wtd" -b d41 linux-4.1.y
git -C "$tmp/wtd" cherry-pick -x "$C3" >/dev/null
expect "deps with the dependency taken" 0 "$sm" deps --tree d41=4.1 "$E1"
has "it is there" "needs 0 commits first in d41 (1 more found are already there)"
git -C "$tmp/wtd" revert --no-edit HEAD >/dev/null
git -C "$tmp/wtd" checkout -q --detach && git worktree remove --force "$tmp/wtd"
expect "deps with the dependency reverted" 0 "$sm" deps --tree d41=4.1 "$E1"
has "it is needed again" "needs 1 commit first in d41 (0 more found are already there)"
has "and listed" "  ${C3:0:12} ext4: add fast commit replay buddy handling"

# steal
head_before=$(git rev-parse HEAD); t41=$(git rev-parse linux-4.1.y)
expect "steal" 0 "$sm" steal --range v4.4..v4.5 --onto linux-4.1.y --branch q41 --signoff "Stable Maintainer <stable@example.org>"
has "steal picked" "created q41"
has "steal left out with reason" "left out ${W8:0:12} tls: fix race between tx work scheduling and socket close: does not apply: conflict in net/tls/tls_sw.c"
[ "$(git log --format=%s linux-4.1.y..q41 | wc -l)" = 2 ] && ok "steal made two commits" || bad "steal made two commits"
git log -1 --format=%B q41 | grepq -x "commit $W2 upstream." && ok "steal upstream line" || bad "steal upstream line"
git log -1 --format=%B q41 | grepq -x "Signed-off-by: Stable Maintainer <stable@example.org>" && ok "steal sign-off" || bad "steal sign-off"
[ "$(git rev-parse HEAD)" = "$head_before" ] && [ "$(git rev-parse linux-4.1.y)" = "$t41" ] &&
	[ -z "$(git status --porcelain)" ] && ok "steal touched no work tree, HEAD or tree" || bad "steal moved something"
expect "steal onto an existing branch" 1 "$sm" steal --range v4.4..v4.5 --onto linux-4.1.y --branch q41
has "steal refuses to overwrite" "q41: branch already exists"
expect "steal --json" 0 "$sm" steal --json --range v4.4..v4.5 --onto linux-4.4.y --branch q44
json "steal json" "assert d['picked']==len([c for c in d['commits'] if c['stable']]) and d['picked']>=2"
json "steal takes W5's prerequisite, a candidate by prereq-of, before it" "ids=[c['upstream'] for c in d['commits']]; assert ids.index('$W5P') < ids.index('$W5') and all(c['stable'] for c in d['commits'] if c['upstream'] in ('$W5P','$W5')), ids"
# A range past the prerequisite: W5's stable tag (# 4.4.x) names W5P, which
# 4.4 lacks, so it is picked right before W5.
expect "steal a fix whose prerequisite is before the range" 0 "$sm" steal --range "$W5P..v4.5" --onto linux-4.4.y --branch q44p
has "steal: the prerequisite first" "  picked   ${W5P:0:12} -> "
has "steal: says why" "tls: rx: prepare the partial read path (prerequisite of ${W5:0:12})"
got=$(git log --reverse --format=%s linux-4.4.y..q44p | head -2 | tr '\n' '|')
[ "$got" = "tls: rx: prepare the partial read path|net: tls: fix use-after-free with partial reads and async decrypt|" ] &&
	ok "steal: prerequisite, then the fix" || bad "steal: prerequisite order: $got"
expect "steal --json, prerequisite" 0 "$sm" steal --json --range "$W5P..v4.5" --onto linux-4.4.y --branch q44q
json "steal json: prereq_of" "c={x['upstream']:x for x in d['commits']}; assert c['$W5P']['prereq_of']=='$W5' and c['$W5P']['with'] is None and c['$W5']['prereq_of'] is None"
expect "steal onto 4.1: the 4.4.x prerequisite is not for it" 0 "$sm" steal --json --range "$W5P..v4.5" --onto linux-4.1.y --branch q41p
json "steal json: no prerequisite for 4.1" "assert '$W5P' not in [c['upstream'] for c in d['commits']]"
# steal --search: X1 (on next, after v4.5) conflicts on 4.1; the search
# finds K1, the cleanup of its line that 4.1 lacks, and steal picks it
# right before X1. E1 is not even tried: 4.1 lacks its file (C3 made it).
expect "steal --search" 0 "$sm" steal --range v4.5..next --onto linux-4.1.y --branch q41s --search 16
has "steal --search: K1 for X1" "  picked   ${K1:0:12} -> "
has "steal --search: says why" "ALSA: timer: read the resolution once in snd_timer_start1 (needed by ${X1:0:12}: found by the search)"
got=$(git log --format=%s linux-4.1.y..q41s | head -2 | tr '\n' '|')
[ "$got" = "ALSA: timer: Set lower bound of start tick time|ALSA: timer: read the resolution once in snd_timer_start1|" ] &&
	ok "steal --search: K1, then X1" || bad "steal --search: order: $got"
expect "steal --search --json" 0 "$sm" steal --json --range v4.5..next --onto linux-4.1.y --branch q41t --search 16
json "steal json: needed_by" "c={x['upstream']:x for x in d['commits']}; assert c['$K1']['needed_by']=='$X1' and c['$K1']['stable'] and c['$X1']['stable'] and c['$X1']['needed_by'] is None, c"
expect "steal without --search" 0 "$sm" steal --json --range v4.5..next --onto linux-4.1.y --branch q41u
json "steal json: X1 left out without the search" "c={x['upstream']:x for x in d['commits']}; assert '$K1' not in c and c['$X1']['stable'] is None, c"
expect "steal leaves E1 out of 4.1" 0 "$sm" steal --json --range v4.4..v4.5 --onto linux-4.1.y --branch q41v --search 16
json "steal json: E1 is no candidate for 4.1" "assert '$E1' not in [c['upstream'] for c in d['commits']] and '$C3' not in [c['upstream'] for c in d['commits']], d"

# steal --backports-from: W8 does not apply to 4.1 (its stable-only lock
# line), but a tree that carries a backport of W8 made for that context has
# one that does, as 6.6's backport often fits 6.1. linux-4.2.y: 4.1 and that
# backport ("commit W8 upstream."); linux-4.3.y: v4.1 and W8 picked as is
# with -x, which conflicts on 4.1 as W8 does.
git worktree add -q "$tmp/wt42" -b linux-4.2.y linux-4.1.y
sed -i '40a\	int tls_tx_sched = 1; /* tx work before complete(), 4.1 context */' "$tmp/wt42/net/tls/tls_sw.c"
git -C "$tmp/wt42" commit -qam "tls: fix race between tx work scheduling and socket close" \
	-m "commit $W8 upstream." -m "Adjusted to the 4.1 tx lock." -m "Signed-off-by: Other Maintainer <other@example.org>"
b42=$(git -C "$tmp/wt42" rev-parse HEAD)
git -C "$tmp/wt42" checkout -q -b linux-4.3.y v4.1 && git -C "$tmp/wt42" cherry-pick -x "$W8" >/dev/null
b43=$(git -C "$tmp/wt42" rev-parse HEAD)
git -C "$tmp/wt42" checkout -q --detach && git worktree remove --force "$tmp/wt42"
expect "steal --backports-from" 0 "$sm" steal --range v4.4..v4.5 --onto linux-4.1.y --branch q41b \
	--signoff "Stable Maintainer <stable@example.org>" --backports-from linux-4.3.y,linux-4.2.y=4.2
has "steal takes 4.2's backport of W8" "tls: fix race between tx work scheduling and socket close (linux-4.2.y's backport ${b42:0:12})"
has "and counts it (E1 is no candidate: 4.1 lacks its file)" "3 of 3 candidates picked onto linux-4.1.y"
msg=$(git log -1 --format=%B --grep="tx work scheduling" q41b)
[ "$(grep -c "upstream\.$" <<<"$msg")" = 1 ] && grep -qx "commit $W8 upstream." <<<"$msg" &&
	! grep -q "$b42" <<<"$msg" && grep -q "Adjusted to the 4.1 tx lock." <<<"$msg" &&
	grep -qx "Signed-off-by: Stable Maintainer <stable@example.org>" <<<"$msg" &&
	ok "the picked backport keeps its one upstream line, W8's" || bad "backport message: $msg"
git show q41b:net/tls/tls_sw.c | grep -q "4.1 context" &&
	ok "the backport's change is on the branch" || bad "the backport's change is not on q41b"
expect "steal --backports-from a tree whose backport conflicts too" 0 "$sm" steal --range v4.4..v4.5 \
	--onto linux-4.1.y --branch q41c --signoff "S <s@example.org>" --backports-from linux-4.3.y --json
json "the reason names the backport tried" "
c = [c for c in d['commits'] if c['upstream'] == '$W8'][0]
assert c['stable'] is None and c['backport'] is None, c
assert c['left_out'] == 'does not apply: conflict in net/tls/tls_sw.c; linux-4.3.y\\'s backport ${b43:0:12}: does not apply: conflict in net/tls/tls_sw.c', c['left_out']
assert d['picked'] == 2"
expect "steal --backports-from an unknown tree" 1 "$sm" steal --range v4.4..v4.5 --onto linux-4.1.y \
	--branch q41d --backports-from linux-9.9.y
has "names it" "stablemate steal: --backports-from: linux-9.9.y: unknown revision"
# scan --check-applies says the same of the trees it scans: W8 conflicts on
# 4.1, 4.2's backport of it applies (4.3's does not), in text, JSON, the
# bot's report and its dashboard
expect "scan --check-applies with a tree carrying a backport" 0 "$sm" scan --range v4.4..v4.5 \
	--tree linux-4.1.y --tree linux-4.3.y --tree linux-4.2.y=4.2 --check-applies --candidates
has "scan names the backport that applies" "        linux-4.2.y's backport ${b42:0:12} applies cleanly"
hasnt "and only that one" "linux-4.3.y's backport"
expect "scan --check-applies --json" 0 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y \
	--tree linux-4.2.y=4.2 --check-applies --json
json "JSON backport_applies" "
t = [c for c in d['commits'] if c['id'] == '$W8'][0]['trees']
assert t[0]['applies'] is False and t[0]['backport_applies'] == {'tree': 'linux-4.2.y', 'commit': '$b42', 'after': []}, t[0]
assert t[1]['backport_applies'] is None and t[1]['present']
ok = [c for c in d['commits'] if c['id'] == '$W1'][0]['trees'][0]
assert ok['applies'] is True and ok['backport_applies'] is None"
mkdir -p "$tmp/bot"
cat > "$tmp/bot/bot.conf" <<CONF
[upstream]
	repo = $tmp/linux
	range = v4.4..v4.5
[tree "linux-4.1.y"]
	repo = $tmp/linux
[tree "linux-4.2.y"]
	repo = $tmp/linux
	version = 4.2
[bot]
	from = Stable Bot <bot@example.org>
	stateDir = $tmp/bot/state
[subscriber "greg"]
	address = Greg <greg@example.org>
	trees = linux-4.1.y
CONF
expect "report --dry-run" 0 "$sm" report --config "$tmp/bot/bot.conf" --dry-run="$tmp/bot/out"
cover=$(grep -l "^Subject: .* 00/" "$tmp/bot/out"/new/* 2>/dev/null | head -1)
grep -qF "linux-4.1.y    needs it, does NOT apply cleanly (linux-4.2.y's backport ${b42:0:12} does)" "$cover" 2>/dev/null &&
	ok "the report says 4.2's backport applies" || bad "report: $(cat "$cover" 2>/dev/null || ls "$tmp/bot/out")"
expect "dashboard" 0 "$sm" dashboard --config "$tmp/bot/bot.conf" --out "$tmp/bot/site"
grep -rqF "conflicts; linux-4.2.y's backport" "$tmp/bot/site" && ok "the dashboard too" ||
	bad "dashboard: no backport in $(ls "$tmp/bot/site")"

# --check-applies and prerequisites. W5 conflicts on 4.4 alone; after W5P,
# the prerequisite its stable tag names and 4.4 lacks, it applies, as steal
# picks it: scan says so, and the bot does not call it "does NOT apply".
expect "scan --check-applies, a fix after its prerequisite" 0 "$sm" scan --range v4.4..v4.5 \
	--tree linux-4.4.y=4.4 --check-applies --candidates
has "applies after its prerequisite" "        applies: cleanly after its prerequisite ${W5P:0:12} (alone: conflict)"
expect "scan --check-applies --json, after its prerequisite" 0 "$sm" scan --range v4.4..v4.5 \
	--tree linux-4.4.y=4.4 --tree linux-4.1.y --check-applies --json
json "JSON applies_after_deps" "
c = {x['id']: x for x in d['commits']}
t = c['$W5']['trees'][0]
assert t['applies'] is False and t['applies_after_deps'] is True and t['deps'] == ['$W5P'], t
assert c['$W8']['trees'][1]['applies'] is False and c['$W8']['trees'][1]['applies_after_deps'] is None
assert c['$W1']['trees'][1]['applies'] is True and c['$W1']['trees'][1]['applies_after_deps'] is None"
# the bot's report says it too
sed -e 's/linux-4.2.y/linux-4.4.y/; s/version = 4.2/version = 4.4/; s/trees = linux-4.1.y/trees = linux-4.4.y/' \
	-e "s|stateDir = .*|stateDir = $tmp/bot44/state|" "$tmp/bot/bot.conf" > "$tmp/bot/bot44.conf"
# bot_shows WHAT CONF LINE HTML: the bot's report (--dry-run) with config
# CONF holds LINE, and its dashboard HTML
bot_shows() {
	local what=$1 conf=$2 line=$3 html=$4 mails=${2%.conf}.mails site=${2%.conf}.site
	expect "report --dry-run, $what" 0 "$sm" report --config "$conf" --dry-run="$mails"
	grep -rqF "$line" "$mails"/new && ok "the report: $what" ||
		bad "report, $what: $(grep -rh "needs it" "$mails"/new | head -8)"
	expect "dashboard, $what" 0 "$sm" dashboard --config "$conf" --out "$site"
	grep -rqF "$html" "$site" && ok "the dashboard: $what" || bad "dashboard, $what: not in $site"
}
bot_shows "a fix after its prerequisite" "$tmp/bot/bot44.conf" \
	"linux-4.4.y    needs it, applies cleanly after its prerequisite ${W5P:0:12}" \
	"cleanly after its prerequisite <code>${W5P:0:12}</code>"
# W5 lands on 4.4 (after W5P) with upstream's hunks; only its file's blob
# ids differ (4.4 lacks W4's lines elsewhere in tls_sw.c): upstream's patch,
# no note that it differs
w5mail=$(grep -rlF "commit $W5 upstream." "$tmp/bot/bot44.mails"/new | head -1)
[ -n "$w5mail" ] && grep -qxF "$(git show "$W5" | grep -m1 '^@@')" "$w5mail" && ! grep -qF "as it lands on" "$w5mail" &&
	ok "W5's patch mail on 4.4: upstream's, no note" || bad "W5's patch mail on 4.4: $(tail -25 "$w5mail")"
# --search: X1 (on next) conflicts on 4.1, which lacks K1, the cleanup of
# its line; the search of that file's history finds K1, as deps does. W8
# conflicts with 4.1's own lock lines: no commit of mainline helps. E1 is
# not searched: 4.1 lacks its file (file-not-in-tree), so it is no
# candidate there (until 2026-12-06 the search offered C3, the commit that
# added the file, as what E1 needed).
expect "scan --search needs --check-applies" 2 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y --search 8
has "says so" "--search needs --check-applies"
expect "scan --check-applies --search" 0 "$sm" scan --range v4.5..next --tree linux-4.1.y \
	--check-applies --search 16 --candidates
has "X1 applies after what the search found" "        applies: cleanly after also taking ${K1:0:12}, which the tree lacks, from the history of the files in conflict (alone: conflict)"
expect "scan --check-applies --search, v4.4..v4.5" 0 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y \
	--check-applies --search 16
has "W8: nothing helps" "        search: none of the 4 commits to the files in conflict that the tree lacks helps"
has "E1: 4.1 lacks its file" "        file-not-in-tree: fs/ext4/fc_replay.c is not in linux-4.1.y: the code it changes came later"
expect "scan --check-applies --search --json" 0 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y \
	--check-applies --search 16 --json
json "JSON search" "
c = {x['id']: x for x in d['commits']}
assert c['$E1']['trees'][0]['search'] is None and c['$E1']['trees'][0]['verdict']['verdict'] == 'reject', c['$E1']['trees'][0]
assert c['$W8']['trees'][0]['search'] == {'applies': False, 'considered': 4, 'extra': []}, c['$W8']['trees'][0]
assert c['$W1']['trees'][0]['search'] is None"
expect "scan --check-applies --search --json, next" 0 "$sm" scan --range v4.5..next --tree linux-4.1.y \
	--check-applies --search 16 --json
json "JSON search, next" "
c = {x['id']: x for x in d['commits']}
assert c['$X1']['trees'][0]['search'] == {'applies': True, 'considered': 2, 'extra': ['$K1']}, c['$X1']['trees'][0]"
expect "scan --check-applies without --search" 0 "$sm" scan --range v4.5..next --tree linux-4.1.y \
	--check-applies --json
json "no search without --search" "assert all(t['search'] is None for c in d['commits'] for t in c['trees'])"
# the bot (bot.searchConflicts) says it in its report and on its dashboard
sed -e '/^\[tree "linux-4.2.y"\]/,/version = 4.2/d' -e 's|^\[bot\]|[bot]\n\tsearchConflicts = 16|' \
	-e "s|stateDir = .*|stateDir = $tmp/bot41s/state|" -e "s|range = v4.4..v4.5|range = v4.5..next|" \
	"$tmp/bot/bot.conf" > "$tmp/bot/bot41s.conf"
bot_shows "applies after what the search found" "$tmp/bot/bot41s.conf" \
	"linux-4.1.y    needs it, applies cleanly after also taking ${K1:0:12}, which the tree lacks" \
	"cleanly after also taking <code>${K1:0:12}</code>"
grep -rqF "   depends:  ${K1:0:12} (linux-4.1.y, found by the search)" "$tmp/bot/bot41s.mails"/new &&
	ok "the report's depends: line names it" || bad "depends: $(grep -rh "depends:" "$tmp/bot/bot41s.mails"/new)"
grep -rqxF "Depends on: $K1 (found by the search)" "$tmp/bot/bot41s.mails"/new &&
	ok "X1's patch mail names it" || bad "patch mail: $(grep -rh "^Depends on" "$tmp/bot/bot41s.mails"/new)"
sed 's|^\[bot\]|[bot]\n\tcheckApplies = false|' "$tmp/bot/bot41s.conf" > "$tmp/bot/bot41n.conf"
expect "bot.searchConflicts without checkApplies" 1 "$sm" report --config "$tmp/bot/bot41n.conf" \
	--dry-run="$tmp/bot/bot41n.mails"
has "says what it needs" "bot41n.conf: bot.searchConflicts: needs bot.checkApplies"
# A patch mail carries the change as it lands on the tree: o41 is 4.1 with
# three lines more at the top of sound/core/timer.c, so W1 applies there 3
# lines further down than upstream's patch says (git am would still find
# it; a file mainline moved, or other context, it would not).
git worktree add -q "$tmp/wto" -b o41 linux-4.1.y
sed -i '1i\	/* o41: three lines of its own */\n\n' "$tmp/wto/sound/core/timer.c"
git -C "$tmp/wto" commit -qam "ALSA: timer: a note of o41's own" -m "Signed-off-by: Other Maintainer <other@example.org>"
git -C "$tmp/wto" checkout -q --detach && git worktree remove --force "$tmp/wto"
sed -e '/^\[tree "linux-4.2.y"\]/,/version = 4.2/d' -e 's|^\[tree "linux-4.1.y"\]|[tree "o41"]\n\tversion = 4.1|' \
	-e 's|trees = linux-4.1.y|trees = o41|' -e "s|stateDir = .*|stateDir = $tmp/boto/state|" \
	"$tmp/bot/bot.conf" > "$tmp/bot/boto.conf"
expect "report --dry-run, a tree with its own lines" 0 "$sm" report --config "$tmp/bot/boto.conf" \
	--dry-run="$tmp/bot/boto.mails"
w1mail=$(grep -rlF "commit $W1 upstream." "$tmp/bot/boto.mails"/new | head -1)
sed -n '/^diff --git/,$p' "$w1mail" | sed '/^-- $/,$d' > "$tmp/w1-o41.patch"
# git's own cherry-pick onto o41 says where the change lands
git worktree add -q "$tmp/wta" --detach o41
git -C "$tmp/wta" apply --check "$tmp/w1-o41.patch" &&
	ok "git apply takes W1's patch mail on o41 as it is" || bad "git apply refused W1's patch mail on o41"
git -C "$tmp/wta" -c user.name=T -c user.email=t@example.org cherry-pick "$W1" >/dev/null
up_hunk=$(git show "$W1" | grep -m1 "^@@") mine_hunk=$(git -C "$tmp/wta" show HEAD | grep -m1 "^@@")
git worktree remove --force "$tmp/wta"
[ "$up_hunk" != "$mine_hunk" ] && grep -qxF "The patch below is the change as it lands on o41 (a cherry-pick in memory onto its tip); upstream's differs." "$w1mail" &&
	grep -qxF "$mine_hunk" "$w1mail" && ! grep -qxF "$up_hunk" "$w1mail" &&
	ok "W1's patch mail: the change as it lands on o41 ($mine_hunk)" ||
	bad "W1's patch mail for o41 (want $mine_hunk, not $up_hunk): $(tail -25 "$w1mail" 2>/dev/null)"
# on linux-4.1.y the file is as upstream's parent had it: upstream's patch, no note
w1_41=$(grep -rlF "commit $W1 upstream." "$tmp/bot/out"/new | head -1)
[ -n "$w1_41" ] && grep -qxF "$up_hunk" "$w1_41" && ! grep -qF "as it lands on" "$w1_41" &&
	ok "linux-4.1.y's mail: upstream's patch, no note" || bad "W1's patch mail for linux-4.1.y: $(tail -25 "$w1_41")"
# p42 took a prerequisite for its backport of W8 (Stable-dep-of:, as the
# stable scripts write it): a lock line the backport's context needs. The
# backport alone conflicts on 4.1; after that prerequisite it applies.
git worktree add -q "$tmp/wtp42" -b p42 linux-4.1.y
sed -i '40a\	int tls_tx_lock = 0; /* tx lock, 4.1 */' "$tmp/wtp42/net/tls/tls_sw.c"
git -C "$tmp/wtp42" commit -qam "tls: add the tx lock flag" \
	-m "Stable-dep-of: ${W8:0:12} (\"tls: fix race between tx work scheduling and socket close\")
Signed-off-by: Other Maintainer <other@example.org>"
p42pre=$(git -C "$tmp/wtp42" rev-parse HEAD)
sed -i '41s|.*|	int tls_tx_lock = 1; /* tx lock held across tx work, 4.1 */|' "$tmp/wtp42/net/tls/tls_sw.c"
git -C "$tmp/wtp42" commit -qam "tls: fix race between tx work scheduling and socket close" \
	-m "commit $W8 upstream." -m "Signed-off-by: Other Maintainer <other@example.org>"
p42fix=$(git -C "$tmp/wtp42" rev-parse HEAD)
git -C "$tmp/wtp42" checkout -q --detach && git worktree remove --force "$tmp/wtp42"
expect "scan --check-applies: another tree's backport after its prerequisite" 0 "$sm" scan \
	--range v4.4..v4.5 --tree linux-4.1.y --tree p42=4.2 --check-applies --candidates
has "names the backport and what goes first" "        p42's backport ${p42fix:0:12} applies cleanly after ${p42pre:0:12}, which that tree took first"
expect "scan --check-applies --json: the backport's prerequisite" 0 "$sm" scan --range v4.4..v4.5 \
	--tree linux-4.1.y --tree p42=4.2 --check-applies --json
json "JSON backport_applies.after" "
t = [c for c in d['commits'] if c['id'] == '$W8'][0]['trees'][0]
assert t['applies'] is False and t['backport_applies'] == {'tree': 'p42', 'commit': '$p42fix', 'after': ['$p42pre']}, t"
# missing --check-applies: what the other tree can take as it is; p42's
# backport of W8 applies to 4.1 after the prerequisite p42 took for it
expect "missing --check-applies" 0 "$sm" missing --check-applies p42 linux-4.1.y
has "missing: the counts" "in p42, not in linux-4.1.y: 2 of 2; 2 apply to linux-4.1.y"
has "missing: the prerequisite applies" "  ${p42pre:0:12} ${p42pre:0:12} tls: add the tx lock flag (Stable-dep-of ${W8:0:12}, which linux-4.1.y lacks too) [applies to linux-4.1.y]"
has "missing: the backport, after it" "  ${W8:0:12} ${p42fix:0:12} tls: fix race between tx work scheduling and socket close [applies to linux-4.1.y after ${p42pre:0:12}]"
expect "missing --check-applies --json" 0 "$sm" missing --check-applies --json p42 linux-4.1.y
json "missing json: applies_to_other, applies_after" "o={e['upstream']:e for e in d['a']['only_here']}; assert o['$W8']['applies_to_other'] is True and o['$W8']['applies_after']==['$p42pre'] and o['$p42pre']['applies_after']==[] and d['b']['only_here']==[], d"
expect "missing --json without --check-applies" 0 "$sm" missing --json p42 linux-4.1.y
json "missing json: not tried" "assert all(e['applies_to_other'] is None for e in d['a']['only_here']), d"
expect "backports --mine: the backport after its prerequisite" 0 "$sm" backports --trees p42=4.2 \
	--mine linux-4.1.y "$W8"
has "conflicts alone, applies after" "  p42: ${p42fix:0:12} (by upstream-id), differs from upstream (4 lines), conflicts to linux-4.1.y; applies cleanly after the prerequisite below that linux-4.1.y lacks"
expect "backports --json: applies_after_prerequisites" 0 "$sm" backports --json --trees p42=4.2,linux-4.2.y=4.2 \
	--mine linux-4.1.y "$W8"
json "JSON applies_after_prerequisites" "t={x['tree']:x for x in d['trees']}; assert t['p42']['applies_to_mine'] is False and t['p42']['applies_after_prerequisites'] is True and t['linux-4.2.y']['applies_to_mine'] is True and t['linux-4.2.y']['applies_after_prerequisites'] is None, t"
# A tree that has a fix's change under no id, patch-id or subject of it: h41
# is 4.1 with W1's memset line in a commit of its own that also changes
# another line of timer.c. W1 applies there and changes nothing: scan calls
# it present, missing, backports and deps say its change is there.
git worktree add -q "$tmp/wth" -b h41 linux-4.1.y
sed -i 's|^\t\tr1.event = SNDRV_TIMER_EVENT_RESOLUTION;|\t\tmemset(\&r1, 0, sizeof(r1));\n&|; s|^\tint timer_29 = 29;|\tint timer_29 = 290;|' \
	"$tmp/wth/sound/core/timer.c"
git -C "$tmp/wth" commit -qam "ALSA: timer: zero the resolution event, retune timer_29"
own41=$(git -C "$tmp/wth" rev-parse HEAD)
git -C "$tmp/wth" checkout -q --detach && git worktree remove --force "$tmp/wth"
[ "$(git diff --numstat linux-4.1.y h41 | cut -f1-2)" = "2	1" ] || fail "h41's own commit is not the memset line and one more"
expect "scan --check-applies: a change the tree has" 0 "$sm" scan --range v4.4..v4.5 --tree h41=4.1 \
	--tree linux-4.1.y --check-applies
has "present, by the trial" "        present: its change is in h41 already: cherry-picked onto the tip, it changes nothing"
[ "$(grep -A6 "^${W1:0:12} " <<< "$out" | grep -c "applies: cleanly")" = 1 ] &&
	ok "applies: said for linux-4.1.y only" || bad "applies lines of W1: $(grep -A6 "^${W1:0:12} " <<< "$out")"
expect "scan --check-applies --json: a change the tree has" 0 "$sm" scan --range v4.4..v4.5 --tree h41=4.1 \
	--tree linux-4.1.y --check-applies --json
json "present by the trial, on h41 only" "
t = [c for c in d['commits'] if c['id'] == '$W1'][0]['trees']
assert t[0]['present'] is True and t[0]['present_as'] is None and t[0]['verdict']['verdict'] == 'reject', t[0]
assert t[1]['present'] is False and t[1]['verdict']['verdict'] == 'candidate', t[1]"
expect "missing --check-applies: a change the tree has" 0 "$sm" missing --check-applies linux-4.4.y h41
has "counted apart from what applies" "in linux-4.4.y, not in h41: 4 of 6; 2 apply to h41; 1 in h41 already"
has "missing says it is there" "  ${T3:0:12} ${T3:0:12} ALSA: timer: Fix leak in events via snd_timer_user_tinterrupt [in h41 already: cherry-picked, it changes nothing]"
expect "backports --mine: a change mine has" 0 "$sm" backports --trees linux-4.4.y --mine h41=4.1 "$W1"
has "backports says it is there" "  h41 (mine): no commit of it, but its change is there: cherry-picked, the upstream commit changes nothing"
has "and of 4.4's backport" "  linux-4.4.y: ${T3:0:12} (by patch-id), same as upstream, its change is in h41 already"
expect "deps: a change the tree has" 0 "$sm" deps --tree h41=4.1 "$W1"
has "deps says it is there" "trial on h41: applies cleanly, and changes nothing: its change is in h41 already"
expect "deps --json: change_there" 0 "$sm" deps --json --tree h41=4.1 "$W1"
json "deps json change_there" "assert d['change_there'] is True and d['applies_alone'] is True, d"
expect "deps --json: linux-4.1.y lacks the change" 0 "$sm" deps --json --tree linux-4.1.y "$W1"
json "deps json change_there false" "assert d['change_there'] is False and d['applies_alone'] is True, d"
# deps of a fix the tree carries: nothing to take. 4.4 has W6 as T2, an
# adjusted backport that W6 itself conflicts with (deps read that as a
# conflict with the tree's own changes); r41 took W7 and reverted it, so
# r41 still needs it.
expect "deps: a fix the tree has" 0 "$sm" deps --tree linux-4.4.y "$W6"
has "says as what" "already in linux-4.4.y as ${T2:0:12} (matched by upstream-id): nothing to take"
hasnt "and nothing else" "trial on"
expect "deps --json: present_as" 0 "$sm" deps --json --tree linux-4.4.y "$W6"
json "present_as, matched_by" "assert d['present_as'] == '$T2' and d['matched_by'] == 'upstream-id' and d['deps'] == [] and d['applies_alone'] is None, d"
expect "deps: a fix the tree took and reverted" 0 "$sm" deps --tree r41=4.1 "$W7"
hasnt "not present" "already in"
has "looked into" "trial on r41: "
# the bot's cover, for 4.1's subscriber, says h41 has it
sed -e 's/linux-4.2.y/h41/; s/version = 4.2/version = 4.1/' \
	-e "s|stateDir = .*|stateDir = $tmp/both41/state|" "$tmp/bot/bot.conf" > "$tmp/bot/both41.conf"
bot_shows "a change the tree has" "$tmp/bot/both41.conf" \
	"h41            already there (cherry-picked, it changes nothing)" "already in the tree"
# The prerequisite need not be right before the backport: the stable
# scripts queue it with its fix, and one release's batch holds hundreds.
# p43 took it 20 commits before its backport of W8, after the release
# commit of linux-4.1.y (until 2026-12-06 only the 16 before were read).
git worktree add -q "$tmp/wtp43" -b p43 linux-4.1.y
sed -i '40a\	int tls_tx_lock = 0; /* tx lock, 4.1 */' "$tmp/wtp43/net/tls/tls_sw.c"
git -C "$tmp/wtp43" commit -qam "tls: add the tx lock flag" \
	-m "Stable-dep-of: ${W8:0:12} (\"tls: fix race between tx work scheduling and socket close\")"
p43pre=$(git -C "$tmp/wtp43" rev-parse HEAD)
for i in $(seq 1 20); do
	echo "note $i" >> "$tmp/wtp43/NOTES.p43"
	git -C "$tmp/wtp43" add NOTES.p43 && git -C "$tmp/wtp43" commit -qm "notes: another one, $i"
done
sed -i '41s|.*|	int tls_tx_lock = 1; /* tx lock held across tx work, 4.1 */|' "$tmp/wtp43/net/tls/tls_sw.c"
git -C "$tmp/wtp43" commit -qam "tls: fix race between tx work scheduling and socket close" \
	-m "commit $W8 upstream."
p43fix=$(git -C "$tmp/wtp43" rev-parse HEAD)
git -C "$tmp/wtp43" checkout -q --detach && git worktree remove --force "$tmp/wtp43"
expect "backports --mine: a prerequisite 20 commits before, in the batch" 0 "$sm" backports --trees p43=4.2 \
	--mine linux-4.1.y "$W8"
has "applies after it" "  p43: ${p43fix:0:12} (by upstream-id), differs from upstream (4 lines), conflicts to linux-4.1.y; applies cleanly after the prerequisite below that linux-4.1.y lacks"
has "names it" "${p43pre:0:12}"
# A trial writes nothing to the repository: scan --check-applies,
# backports --mine and missing --check-applies only read (the first two
# left every tree they tried as a loose object until 2026-12-06).
git clone -q --mirror --no-local "$tmp/linux" "$tmp/ro.git"
loose() { git -C "$tmp/ro.git" count-objects | cut -d' ' -f1; }
[ "$(loose)" = 0 ] || bad "the fresh clone has loose objects: $(loose)"
expect "scan --check-applies in a fresh clone" 0 "$sm" -C "$tmp/ro.git" scan --range v4.4..v4.5 \
	--tree linux-4.1.y --tree p42=4.2 --tree linux-4.4.y=4.4 --check-applies --no-cache
has "it tried (a backport applied)" "p42's backport ${p42fix:0:12} applies cleanly"
expect "backports --mine in a fresh clone" 0 "$sm" -C "$tmp/ro.git" backports --trees p42=4.2,linux-4.2.y=4.2 \
	--mine linux-4.1.y --no-cache "$W8"
expect "missing --check-applies in a fresh clone" 0 "$sm" -C "$tmp/ro.git" missing --check-applies \
	--no-cache p42 linux-4.1.y
has "it tried" "[applies to linux-4.1.y after ${p42pre:0:12}]"
[ "$(loose)" = 0 ] && ok "trials left no object in the repository" ||
	bad "trials wrote $(loose) loose objects: $(git -C "$tmp/ro.git" fsck --unreachable 2>/dev/null | head -3)"
# --tree-repo: the trees in a clone of their own, fetched before the range
# was, so it lacks the range's commits. The trial reads mainline's objects
# too (until 2026-12-06 no candidate was tried, and scan said nothing).
git clone -q --bare --no-local --single-branch -b linux-4.1.y "$tmp/linux" "$tmp/st41.git"
git -C "$tmp/st41.git" cat-file -e "$W1" 2>/dev/null && bad "the stable clone has W1 already"
expect "scan --tree-repo --check-applies, a clone without the range" 0 "$sm" scan --range v4.4..v4.5 \
	--tree linux-4.1.y --tree-repo "$tmp/st41.git" --check-applies --no-cache --json
json "the range's commits are tried" "
c = {x['id']: x['trees'][0] for x in d['commits']}
assert c['$W1']['applies'] is True and c['$W8']['applies'] is False, (c['$W1'], c['$W8'])"
[ "$(git -C "$tmp/st41.git" count-objects | cut -d' ' -f1)" = 0 ] && ok "nothing written to the trees' clone" ||
	bad "the trees' clone gained loose objects"

# yank / insert
git branch y41 linux-4.1.y
expect "yank" 0 "$sm" yank y41 "$S3"
has "yank reports the backup" "old tip kept in refs/stablemate/backup/y41"
[ "$(git rev-parse refs/stablemate/backup/y41)" = "$S5" ] && ok "yank backup ref" || bad "yank backup ref"
git log --format=%s v4.1..y41 | grepq "erofs" && bad "yank removed the commit" || ok "yank removed the commit"
git branch yc linux-4.1.y
expect "yank conflict" 1 "$sm" yank yc "$S2"
has "yank conflict message" "stablemate yank: yc: conflict replaying ${S2B:0:12}"
[ "$(git rev-parse yc)" = "$S5" ] && ok "yank conflict left the branch" || bad "yank conflict moved the branch"
expect "yank checked-out branch" 1 "$sm" yank master "$W1"
# yanking a commit a later one on the branch fixes: the yank goes through
# and names the fix left behind (its Fixes: names the upstream id W7 that
# the yanked backport S4 stands for)
git worktree add -q "$tmp/wty" -b yf linux-4.1.y
echo "int kvm_fixup;" > "$tmp/wty/kvm-fixup.c"
git -C "$tmp/wty" add kvm-fixup.c
git -C "$tmp/wty" commit -qm "KVM: arm64: vgic-its: fix the refcount of the cached irq" \
	-m "commit 1111111111111111111111111111111111111111 upstream." \
	-m "Fixes: ${W7:0:12} (\"KVM: arm64: vgic-its: Avoid potential UAF in LPI translation cache\")"
git -C "$tmp/wty" checkout -q --detach && git worktree remove --force "$tmp/wty"
expect "yank a commit fixed later on the branch" 0 "$sm" yank yf "$S4"
newfix=$(git rev-parse yf)
has "names the fix left on the branch, by its new id" "  still on yf, a fix of what was yanked: ${newfix:0:12} KVM: arm64: vgic-its: fix the refcount of the cached irq"
expect "yank --json, fixed later" 0 "$sm" yank --json yf "$S3"
json "fixed_by empty when nothing fixes it" "assert d['fixed_by'] == [], d"
expect "yank --json conflict" 1 "$sm" yank --json yc "$S2"
git branch i41 linux-4.1.y
expect "insert" 0 "$sm" insert i41 "$W1" --after "$S1" --signoff "Stable Maintainer <stable@example.org>"
[ "$(git log -1 --format=%s i41~5)" = "ALSA: timer: Fix leak in events via snd_timer_user_tinterrupt" ] &&
	ok "insert put it after X" || bad "insert put it after X"
before=$(git rev-parse i41)
expect "insert conflict" 1 "$sm" insert i41 "$W8" --after i41~4
has "insert conflict message" "does not apply after i41~4"
[ "$(git rev-parse i41)" = "$before" ] && ok "insert conflict left the branch" || bad "insert conflict moved the branch"
expect "insert without --after" 2 "$sm" insert i41 "$W8"
# a commit the branch carries already is refused (it would go in twice),
# unless the branch reverted its copy
ins=$(git rev-parse i41~5)
expect "insert what is there" 1 "$sm" insert i41 "$W1" --after i41~1
has "says where it is" "stablemate insert: i41: has ${W1:0:12} already, as ${ins:0:12} (matched by upstream-id); nothing inserted"
[ "$(git rev-parse i41)" = "$before" ] && ok "and leaves the branch" || bad "insert of a duplicate moved the branch"
expect "insert 4.4's backport of what 4.1 has" 1 "$sm" insert i41 "$T2" --after i41~1
erofs41=$(git log -1 --format=%H --grep="^erofs: fix inconsistent" i41)
has "a backport stands for its upstream" "i41: has ${T2:0:12} already, as ${erofs41:0:12} (matched by upstream-id)"
expect "insert what the branch reverted" 0 "$sm" insert r41 "$W7" --after r41~1 --signoff "S <s@example.org>"

checks_done trees_cli
