#!/usr/bin/env bash
# classify_repo.sh: classify --repo on the repository of trees_mkrepo.sh:
# a commit, a format-patch mail and a list mail that is in no repository,
# judged for a stable branch as scan judges a range (present, bug-in-tree,
# bug-not-in-tree, fix-for-fix, prereq, each Fixes: target's first
# release), its JSON, its errors; a repository without release tags (the
# same verdicts, from the whole branch); and scan on a commit with more Fixes:
# targets than its first table holds (ASan in CI reads every one).
. "${SM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
set +e	# soft checks: every case runs and is reported (lib.sh)
top=$SM_SRCDIR sm=$STABLEMATE tmp=$TMP
trees_repo
setline() { sed -i "${2}s|.*|$3|" "$1"; }

# A commit of the repository: the bug came in v4.4, so 4.1 never had it.
git show "$W3" > "$tmp/w3.show"
expect "a commit for linux-4.1.y" 0 "$sm" classify --repo . --tree linux-4.1.y "$tmp/w3.show"
has "the target's first release" "fixes: ${C2:0:12}  (first released in v4.4)"
has "the veto" "bug-not-in-tree              the Fixes: target ${C2:0:12} first appeared in v4.4, after 4.1"
has "rejected" "verdict: reject"
# the same for 4.4 (a version alone is the branch linux-4.4.y): it has the bug and the fix
expect "the same for --tree 4.4" 0 "$sm" classify --repo . --tree 4.4 "$tmp/w3.show"
has "the bug is in 4.4" "bug-in-tree                  the Fixes: target ${C2:0:12} is in v4.4, so 4.4 has the bug"
has "the tree has it by the upstream id" "present                      already in linux-4.4.y as ${T1:0:12} (matched by upstream-id)"
# without the repository none of that
expect "without --repo" 0 "$sm" classify --tree 4.1 "$tmp/w3.show"
hasnt "no tree facts" "bug-not-in-tree"
has "the verdict stands" "verdict: candidate"
# without --tree: the releases only
expect "--repo without --tree" 0 "$sm" classify -C . "$tmp/w3.show"
has "the release" "(first released in v4.4)"
hasnt "no tree reasons" "bug-"

# A list mail of the same patch: no commit id, a v2 tag; the tree's
# commit names its upstream id, which the mail cannot; the subject finds it.
git format-patch -1 "$W3" --stdout |
	sed -e '1s/^From [0-9a-f]* /From list@example.org /' -e 's/^Subject: \[PATCH\]/Subject: [PATCH v2]/' \
	> "$tmp/w3.eml"
expect "a list mail for 4.4" 0 "$sm" classify --repo . --tree 4.4 "$tmp/w3.eml"
has "present by subject" "already in linux-4.4.y as ${T1:0:12} (matched by subject)"
expect "a list mail for 4.1" 0 "$sm" classify --repo . --tree linux-4.1.y "$tmp/w3.eml"
has "bug-not-in-tree for the mail" "first appeared in v4.4, after 4.1"
hasnt "not present in 4.1" "present "

# A fix for a fix that 4.1 took as a cherry-pick; 4.4 has the bug by release.
git format-patch -1 "$W2" --stdout > "$tmp/w2.patch"
expect "fix-for-fix" 0 "$sm" classify --repo . --tree 4.1 "$tmp/w2.patch"
has "fix-for-fix for 4.1" "fix-for-fix                  fixes ${C1:0:12}, which linux-4.1.y carries as ${S1:0:12}"
# A prerequisite the stable tag names, missing from 4.4.
git format-patch -1 "$W5" --stdout > "$tmp/w5.patch"
expect "prerequisite" 0 "$sm" classify --repo . --tree 4.4 "$tmp/w5.patch"
has "prereq for 4.4" "needs ${W5P:0:12} (tls: rx: prepare the partial read path) first; linux-4.4.y does not have it"

# A fix of a commit in no release yet, and of an id the repository lacks.
git checkout -q -b next master
setline fs/xattr.c 20 "	int xattr_new = 1; /* new */"
git add -A && git commit -q -m "fs/xattr: add the new helper" -m "A new helper."
new=$(git rev-parse HEAD)
git checkout -q master
{ printf 'From: Dev <dev@example.org>\nSubject: [PATCH] fs/xattr: fix the new helper\n\n'
  printf 'The new helper leaks a reference on the error path.\n\nFixes: %s ("fs/xattr: add the new helper")\n' "${new:0:12}"
  printf 'Fixes: 0123456789ab ("not a commit here")\nSigned-off-by: Dev <dev@example.org>\n'; } > "$tmp/new.eml"
expect "a fix of an unreleased commit" 0 "$sm" classify --repo . --tree 4.4 "$tmp/new.eml"
has "in no release" "fixes: ${new:0:12}  (in no release yet)"
has "unknown id" "fixes: 0123456789ab  (not in the repository)"
hasnt "no veto while an id is unknown" "bug-not-in-tree"
sed -i '/0123456789ab/d' "$tmp/new.eml"
expect "the same with known ids only" 0 "$sm" classify --repo . --tree 4.4 "$tmp/new.eml"
has "the veto for a same-window bug" "the Fixes: target ${new:0:12} is in no release yet"

# JSON
expect "--json" 0 "$sm" classify --repo . --tree 4.1 --json "$tmp/w3.show"
json "fixes_targets" "t=d['fixes_targets']; assert t==[{'fixes':'${C2:0:12}','id':'$C2','first_release':'v4.4'}], t"
json "the veto in the reasons" "assert any(r['code']=='bug-not-in-tree' for r in d['verdict']['reasons'])"

# Errors: one line naming what is wrong.
expect "a branch the repository lacks" 1 "$sm" classify --repo . --tree 4.9 "$tmp/w3.show"
has "names the branch" "linux-4.9.y"
expect "not a repository" 1 "$sm" classify --repo "$tmp/none" "$tmp/w3.show"
has "names it" "$tmp/none"
expect "--repo with --batch" 2 "$sm" classify --repo . --batch "$tmp/w3.show"
has "says why" "--repo judges commits one by one"

# A clone without tags (git clone --no-tags, a shallow fetch): no release
# dates a target, and the tree's whole branch is indexed instead, so the
# verdicts are those of the tagged repository.
cp -r "$tmp/linux" "$tmp/notags"
git -C "$tmp/notags" tag -l | xargs git -C "$tmp/notags" tag -d >/dev/null
expect "a repository without tags" 0 "$sm" classify --repo "$tmp/notags" --tree 4.1 "$tmp/w3.show"
has "says so once" "warning: $tmp/notags: no release tags (v6.1, ...): no Fixes: target is dated (git fetch --tags)"
has "the target undated" "fixes: ${C2:0:12}  (not dated: no release tags in the repository)"
has "the veto from the branch" "bug-not-in-tree              the Fixes: target ${C2:0:12} is not on linux-4.1.y (nor a backport of it)"
expect "scan without tags" 0 "$sm" scan -C "$tmp/notags" --range "$BASE44..$BASE45" --tree linux-4.1.y --tree linux-4.4.y
has "scan says it per tree" "(4.1): index hit; no tag v4.1 on the branch, so its whole history is indexed (git fetch --tags)"
has "bug-not-in-tree from the branch" "bug-not-in-tree: the Fixes: target ${C2:0:12} is not on linux-4.1.y (nor a backport of it)"
has "bug-in-tree from the branch" "bug-in-tree: the Fixes: target ${C1:0:12} is on linux-4.4.y, so 4.4 has the bug"
has "fix-for-fix as with tags" "fix-for-fix: fixes ${C1:0:12}, which linux-4.1.y carries as ${S1:0:12}"
hasnt "no tree carries a mainline commit as a backport" "carries as ${C1:0:12}"
expect "scan --json without tags" 0 "$sm" scan -C "$tmp/notags" --range "$BASE44..$BASE45" --tree linux-4.1.y --json
json "no base" "assert [t['base'] for t in d['trees']] == [None], d['trees']"
expect "scan --json with tags" 0 "$sm" scan --range v4.4..v4.5 --tree linux-4.1.y --json
json "base v4.1" "assert [t['base'] for t in d['trees']] == ['v4.1'], d['trees']"

# scan: one commit with nine Fixes: targets, the first nine it resolves
# (its table of targets grows under them).
git checkout -q master
fixes=()
for i in 1 2 3 4 5 6 7 8 9; do
	setline fs/erofs/zmap.c "$i" "	int erofs_step_$i = $i; /* step */"
	git add -A && git commit -q -m "erofs: step $i" -m "Step $i of a rework."
	fixes+=("Fixes: $(git rev-parse --short=12 HEAD) (\"erofs: step $i\")")
done
setline fs/erofs/zmap.c 10 "	int erofs_fixed = 0; /* fixed */"
git add -A && git commit -q -m "erofs: fix the rework's leak" -m "The rework leaks a page on the error path." \
	-m "$(printf '%s\n' "${fixes[@]}")"
first=$(git rev-parse HEAD~9)
expect "scan with nine Fixes: targets" 0 "$sm" scan --range v4.5..HEAD --tree linux-4.4.y
has "the first target named right" "bug-not-in-tree: the Fixes: target ${first:0:12} is in no release yet"

# The 2.6 years: releases were v2.6.N, stable releases v2.6.N.M. Thousands
# of Fixes: lines name 1da177e4c3f4 ("Linux-2.6.12-rc2"), first released in
# v2.6.12, which was "v3.0" when only vX.Y tags counted.
git init -q "$tmp/old"
(
	cd "$tmp/old" && git config user.name Old && git config user.email old@example.org
	n=0
	step() { n=$((n + 1)); echo "$n" > f.c; git add f.c; git commit -q -m "$1"; }
	step "Linux-2.6.12-rc2"
	step "Linux 2.6.12" && git tag -a -m v2.6.12 v2.6.12
	step "x: work" && git tag -a -m v2.6.12.1 v2.6.12.1
	step "Linux 2.6.13" && git tag -a -m v2.6.13 v2.6.13
	step "Linux 3.0" && git tag -a -m v3.0 v3.0
	step "Linux 4.4" && git tag -a -m v4.4 v4.4
	git branch linux-4.4.y
	echo fixed > f.c && git commit -q -a -m "x: fix the initial bug" \
		-m "Fixes: $(git rev-parse --short=12 HEAD~5) (\"Linux-2.6.12-rc2\")"
	git show HEAD > ../old-fix.show
)
expect "classify --repo, a 2.6 target" 0 "$sm" classify --repo "$tmp/old" --tree 4.4 "$tmp/old-fix.show"
has "first released in v2.6.12" "(first released in v2.6.12)"
has "so 4.4 has the bug" "is in v2.6.12, so 4.4 has the bug"
expect "scan, a 2.6 target" 0 "$sm" scan -C "$tmp/old" --range v4.4..master --tree 4.4 --json
json "fixes_first_release" "assert d['commits'][0]['fixes_first_release'] == 'v2.6.12', d['commits'][0]['fixes_first_release']"

# --check-applies: does a list mail's patch apply to the tree, or is it in
# there already (only its reverse applies)? h41 is 4.1 with W1's memset
# line in a commit of its own that also changes another line: no id,
# patch-id or subject ties it to W1.
lx=$tmp/linux
git -C "$lx" worktree add -q "$tmp/wth" -b h41 linux-4.1.y
sed -i 's|^\t\tr1.event = SNDRV_TIMER_EVENT_RESOLUTION;|\t\tmemset(\&r1, 0, sizeof(r1));\n&|; s|^\tint timer_29 = 29;|\tint timer_29 = 290;|' \
	"$tmp/wth/sound/core/timer.c"
git -C "$tmp/wth" commit -qam "ALSA: timer: zero the resolution event, retune timer_29"
git -C "$lx" worktree remove --force "$tmp/wth"
git -C "$lx" format-patch -1 --stdout "$W1" | sed '1s/^From [0-9a-f]* /From list@example.org /' > "$tmp/w1.eml"
git -C "$lx" format-patch -1 --stdout "$W8" > "$tmp/w8.eml"
expect "--check-applies: a patch 4.1 can take" 0 "$sm" classify --repo "$lx" --tree linux-4.1.y --check-applies "$tmp/w1.eml"
has "applies" "  applies: cleanly"
has "a candidate" "verdict: candidate"
expect "--check-applies: a patch h41 has" 0 "$sm" classify --repo "$lx" --tree h41=4.1 --check-applies "$tmp/w1.eml"
has "its reverse applies" "  applies: already (only its reverse applies: the tree has it)"
has "the veto present" "present                      the patch is in h41 already: only its reverse applies (git apply -R --check)"
has "rejected" "verdict: reject"
expect "without --check-applies, h41 looks as if it lacked it" 0 "$sm" classify --repo "$lx" --tree h41=4.1 "$tmp/w1.eml"
has "a candidate" "verdict: candidate"
hasnt "no applies line" "applies:"
expect "--check-applies: 4.4 has it by patch-id, said once" 0 "$sm" classify --repo "$lx" --tree 4.4 --check-applies "$tmp/w1.eml"
[ "$(grep -c "^ *+0  present" <<< "$out")" = 1 ] && ok "one present reason" || bad "present reasons: $out"
expect "--check-applies: a patch that conflicts" 0 "$sm" classify --repo "$lx" --tree linux-4.1.y --check-applies --json "$tmp/w8.eml"
json "applies false, applied false" "assert d['applies'] is False and d['applied'] is False, d"
json "no three-way merge took it" "assert d['three_way'] is True and d['conflicts'] == ['net/tls/tls_sw.c'], d"
# When neither the patch nor its reverse applies exactly, git am -3's
# three-way merge on the patch's base (the blobs of its index lines, which
# the repository has): branches of 4.1 where a line of W1's context
# differs (c41: merges), where W1's line is in as well (a41: merges to
# the same tree), where the line W1 adds before differs (x41: conflicts),
# where timer.c moved to another directory and its context differs (s41:
# merges there), where it was renamed in its directory (m41: found by
# content there, as git am -3 finds it), where it was renamed into
# another directory (n41: the one file that is W1's base, found by its
# blob, as git am -3's exact rename finds it), where it was renamed into
# another directory and its context differs (r41: found among the files
# mainline, master, lacks, as git am -3's rename detection finds it) and
# where two files are its base (d41: a copy; neither is taken for it).
# git am -3 agrees on all but the last, where it takes one of the two.
git -C "$lx" worktree add -q "$tmp/w3w" -b c41 linux-4.1.y
( cd "$tmp/w3w" && f=sound/core/timer.c &&
  sed -i 's|^\t\tr1.val = resolution;|&\t/* the new resolution */|' $f && git commit -qam "ALSA: timer: say what r1.val holds" &&
  git checkout -q -b a41 && sed -i 's|^\t\tr1.event = SNDRV_TIMER_EVENT_RESOLUTION;|\t\tmemset(\&r1, 0, sizeof(r1));\n&|' $f &&
  git commit -qam "ALSA: timer: zero r1" &&
  git checkout -q -b x41 c41 && sed -i 's|^\t\tr1.event = SNDRV_TIMER_EVENT_RESOLUTION;|\t\tr1.event = SNDRV_TIMER_EVENT_START;|' $f &&
  git commit -qam "ALSA: timer: another event" &&
  git checkout -q -b s41 c41 && git mv $f sound/timer.c && git commit -qm "ALSA: timer: move to sound/" &&
  git checkout -q -b m41 linux-4.1.y && git mv $f sound/core/timer_user.c && git commit -qm "ALSA: timer: move to timer_user.c" &&
  git checkout -q -b n41 linux-4.1.y && git mv $f sound/timer_user.c && git commit -qm "ALSA: timer: move to sound/timer_user.c" &&
  git checkout -q -b r41 c41 && git mv $f sound/timer_moved.c && git commit -qm "ALSA: timer: move to sound/timer_moved.c" &&
  git checkout -q -b d41 n41 && cp sound/timer_user.c sound/timer_copy.c && git add sound/timer_copy.c &&
  git commit -qm "ALSA: timer: a copy" ) ||
	fail "three-way branches"
git -C "$lx" worktree remove --force "$tmp/w3w"
loose=$(git -C "$lx" count-objects | cut -d' ' -f1)
expect "--check-applies: a patch whose context differs" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies "$tmp/w1.eml"
has "a three-way merge takes it" "  applies: with a three-way merge, as git am -3 takes it (not exactly: the tree's lines around it differ)"
has "still a candidate" "verdict: candidate"
expect "--check-applies: the tree has it, its context differs" 0 "$sm" classify --repo "$lx" --tree a41=4.1 --check-applies "$tmp/w1.eml"
has "already" "  applies: already (a three-way merge on its base changes nothing: the tree has it)"
has "the veto present" "present                      the patch is in a41 already: a three-way merge on its base changes nothing (git am -3)"
expect "--check-applies: a three-way conflict" 0 "$sm" classify --repo "$lx" --tree x41=4.1 --check-applies "$tmp/w1.eml"
has "where" "  applies: no (conflict in sound/core/timer.c, in a three-way merge on its base too)"
expect "--check-applies: the file moved, its context differs" 0 "$sm" classify --repo "$lx" --tree s41=4.1 --check-applies "$tmp/w1.eml"
has "merged where the tree has it" "  applies: with a three-way merge, as git am -3 takes it (not exactly: the tree's lines around it differ); the tree keeps sound/core/timer.c as sound/timer.c"
expect "--check-applies: the file renamed in its directory" 0 "$sm" classify --repo "$lx" --tree m41=4.1 --check-applies "$tmp/w1.eml"
has "found by its content" "  applies: with a three-way merge, as git am -3 takes it (the tree's file is its base, under another path); the tree keeps sound/core/timer.c as sound/core/timer_user.c"
expect "--check-applies: the file renamed into another directory" 0 "$sm" classify --repo "$lx" --tree n41=4.1 --check-applies "$tmp/w1.eml"
has "found by its blob" "  applies: with a three-way merge, as git am -3 takes it (the tree's file is its base, under another path); the tree keeps sound/core/timer.c as sound/timer_user.c"
expect "--check-applies: the file moved and renamed, its context differs" 0 "$sm" classify --repo "$lx" --tree r41=4.1 --check-applies "$tmp/w1.eml"
has "found among the files mainline lacks" "  applies: with a three-way merge, as git am -3 takes it (not exactly: the tree's lines around it differ); the tree keeps sound/core/timer.c as sound/timer_moved.c"
expect "--check-applies: two files are its base" 0 "$sm" classify --repo "$lx" --tree d41=4.1 --check-applies "$tmp/w1.eml"
has "neither taken" "  applies: no (conflict; no three-way merge: the tree has no sound/core/timer.c, nor a file like it under another path)"
hasnt "no move claimed" "the tree keeps"
expect "--check-applies, JSON: three-way" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies --json "$tmp/w1.eml"
json "applies, by a three-way merge" "assert d['applies'] is True and d['applied'] is False and d['three_way'] is True and d['conflicts'] == [], d"
expect "--check-applies, JSON: a moved file" 0 "$sm" classify --repo "$lx" --tree s41=4.1 --check-applies --json "$tmp/w1.eml"
json "where it went" "assert d['applies'] is True and d['moved'] == [{'from': 'sound/core/timer.c', 'to': 'sound/timer.c'}], d"
sed 's/^index [0-9a-f]*\.\./index 1234567../' "$tmp/w1.eml" > "$tmp/w1-nobase.eml"
expect "--check-applies: a base the repository lacks" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies "$tmp/w1-nobase.eml"
has "not tried" "  applies: no (conflict; no three-way merge: its base of sound/core/timer.c, blob 1234567, is not in the repository)"
[ "$(git -C "$lx" count-objects | cut -d' ' -f1)" = "$loose" ] && ok "nothing written to the repository" ||
	bad "loose objects: $loose before, $(git -C "$lx" count-objects) after"
for b in c41 a41 x41 s41 m41 n41 r41; do
	git -C "$lx" worktree add -q --detach "$tmp/am" $b
	git -C "$tmp/am" am -3 -q "$tmp/w1.eml" >/dev/null 2>&1 && r=$(git -C "$tmp/am" rev-list --count $b..HEAD) || r=conflict
	git -C "$lx" worktree remove --force "$tmp/am"
	case $b:$r in c41:1|a41:0|x41:conflict|s41:1|m41:1|n41:1|r41:1) ok "git am -3 on $b agrees ($r)";; *) bad "git am -3 on $b: $r";; esac
done
# Lines the tree added above the hunk: git apply finds the hunk further
# down ("offset 3 lines"); libgit2 alone would try only the line the hunk
# names. o41: 4.1 with three lines on top of timer.c; p41: o41 with W1's
# line in too. Each answer checked against git apply --check (-R).
git -C "$lx" worktree add -q "$tmp/wo" -b o41 linux-4.1.y
( cd "$tmp/wo" && sed -i '1i /* one */\n/* two */\n/* three */' sound/core/timer.c && git commit -qam "ALSA: timer: a header" &&
  git checkout -q -b p41 && sed -i 's|^\t\tr1.event = SNDRV_TIMER_EVENT_RESOLUTION;|\t\tmemset(\&r1, 0, sizeof(r1));\n&|' sound/core/timer.c &&
  git commit -qam "ALSA: timer: zero r1" ) || fail "offset branches"
git -C "$lx" worktree remove --force "$tmp/wo"
expect "--check-applies: the hunk 3 lines further down" 0 "$sm" classify --repo "$lx" --tree o41=4.1 --check-applies "$tmp/w1.eml"
has "applies where the lines are" "  applies: cleanly"
expect "--check-applies: in the tree 3 lines further down" 0 "$sm" classify --repo "$lx" --tree p41=4.1 --check-applies "$tmp/w1.eml"
has "its reverse, where the lines are" "  applies: already (only its reverse applies: the tree has it)"
for b in o41 p41; do
	idx=$tmp/idx-$b
	GIT_INDEX_FILE=$idx git -C "$lx" read-tree $b
	GIT_INDEX_FILE=$idx git -C "$lx" apply --cached --check "$tmp/w1.eml" 2>/dev/null && r=forward ||
		{ GIT_INDEX_FILE=$idx git -C "$lx" apply --cached --check -R "$tmp/w1.eml" 2>/dev/null && r=reverse || r=neither; }
	case $b:$r in o41:forward|p41:reverse) ok "git apply on $b agrees ($r)";; *) bad "git apply on $b: $r";; esac
done
# A new file the tree has already, another one: git apply refuses it
# ("already exists"); libgit2 alone would write over it.
git -C "$lx" worktree add -q "$tmp/wn" -b nf41 linux-4.1.y
( cd "$tmp/wn" && printf 'int x;\n' > sound/core/new.c && git add sound/core/new.c && git commit -qm "ALSA: add new.c" &&
  git format-patch -q -1 --stdout > "$tmp/new.eml" && git checkout -q -b nf41b linux-4.1.y &&
  printf 'int y;\n' > sound/core/new.c && git add sound/core/new.c && git commit -qm "ALSA: another new.c" ) || fail "new-file branches"
git -C "$lx" worktree remove --force "$tmp/wn"
expect "--check-applies: a new file the tree has" 0 "$sm" classify --repo "$lx" --tree nf41b=4.1 --check-applies "$tmp/new.eml"
has "not written over" "  applies: no (conflict in sound/core/new.c, in a three-way merge on its base too)"
# applies_after WANT: the JSON verdicts in $out, one after another, have
# these [applies, after] pairs (WANT in JSON)
applies_after() {
	python3 -c '
import json, sys
s = sys.stdin.read(); dec = json.JSONDecoder(); pos = 0; d = []
while pos < len(s.rstrip()):
    o, pos = dec.raw_decode(s, pos); d.append(o)
    while pos < len(s) and s[pos].isspace(): pos += 1
assert [[x["applies"], x["after"]] for x in d] == json.loads(sys.argv[1]), d
' "$1" <<< "$out"
}
# --series: a series applied in order, as git am applies an mbox. W1b
# changes the line W1 adds: alone it conflicts everywhere; after W1 it
# goes in, on c41 by the three-way merge as W1 does.
git -C "$lx" worktree add -q "$tmp/w1b" -b w1b "$W1"
sed -i 's|^\t\tmemset(&r1, 0, sizeof(r1));|\t\tmemset(\&r1, 0, sizeof(struct snd_timer_tread));|' "$tmp/w1b/sound/core/timer.c"
git -C "$tmp/w1b" commit -qam "ALSA: timer: zero the whole tread in snd_timer_user_tinterrupt" -m "Cc: stable@vger.kernel.org"
git -C "$tmp/w1b" format-patch -q --cover-letter -2 --stdout > "$tmp/series.mbox"
git -C "$tmp/w1b" format-patch -q -2 --stdout > "$tmp/series-am.mbox"	# git am stops at a cover letter
# the same series as git send-email sends it: a mail a patch, each a
# reply to the cover letter (Message-ID, In-Reply-To, References)
git -C "$tmp/w1b" format-patch -q --cover-letter --thread -2 -o "$tmp/sent"
git -C "$lx" worktree remove --force "$tmp/w1b"
expect "--check-applies: a series, each patch alone" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies "$tmp/series.mbox"
has "the cover letter" "  applies: not checked (a cover letter carries no patch)"
has "2/2 alone conflicts, and says so" "  applies: no (conflict in sound/core/timer.c, in a three-way merge on its base too); patch 2/2, tried alone (--series tries it after the ones before it)"
expect "--check-applies --series" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies --series "$tmp/series.mbox"
[ "$(grep -c "^  applies: with a three-way merge, as git am -3 takes it (not exactly: the tree's lines around it differ)" <<< "$out")" = 2 ] &&
	grep -qx "  applies: with a three-way merge, as git am -3 takes it (not exactly: the tree's lines around it differ); after the 1 patch before it" <<< "$out" &&
	ok "1/2 merges, then 2/2 onto it" || bad "--series: $out"
# r41 keeps timer.c as sound/timer_moved.c: each patch of the series finds
# it there among the files mainline lacks, 2/2 on what 1/2 made of it
expect "--check-applies --series, the file moved and renamed" 0 "$sm" classify --repo "$lx" --tree r41=4.1 --check-applies --series "$tmp/series.mbox"
[ "$(grep -c "^  applies: with a three-way merge, as git am -3 takes it (not exactly: the tree's lines around it differ); .*the tree keeps sound/core/timer.c as sound/timer_moved.c" <<< "$out")" = 2 ] &&
	grep -q "^  applies: with a three-way merge.*after the 1 patch before it" <<< "$out" &&
	ok "1/2 and 2/2 on sound/timer_moved.c" || bad "--series on r41: $out"
expect "--check-applies --series, JSON" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies --series --json "$tmp/series.mbox"
applies_after '[[null, 0], [true, 0], [true, 1]]' && ok "applies and after" || bad "--series JSON: $out"
git -C "$lx" worktree add -q --detach "$tmp/am" c41
git -C "$tmp/am" am -3 -q "$tmp/series-am.mbox" >/dev/null 2>&1 && [ "$(git -C "$tmp/am" rev-list --count c41..HEAD)" = 2 ] &&
	ok "git am -3 takes the series on c41 too" || bad "git am -3 of the series on c41"
git -C "$lx" worktree remove --force "$tmp/am"
expect "--series needs --check-applies" 2 "$sm" classify --repo "$lx" --tree c41=4.1 --series "$tmp/series.mbox"
has "says so" "--series needs --check-applies"
# Without --series, the numbered patches of one mail thread go in order:
# the mails of the same series, each on its own, as a list delivers them.
sent=("$tmp"/sent/0000-*.patch "$tmp"/sent/0001-*.patch "$tmp"/sent/0002-*.patch)
grep -q "^In-Reply-To: " "${sent[2]}" || bad "format-patch --thread wrote no In-Reply-To"
expect "--check-applies: the mails of a thread" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies --json "${sent[@]}"
applies_after '[[null, 0], [true, 0], [true, 1]]' && ok "2/2 goes in after 1/2 of its thread" || bad "thread series: $out"
expect "--check-applies --alone: the same mails" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies --alone "${sent[@]}"
has "2/2 alone conflicts" "  applies: no (conflict in sound/core/timer.c, in a three-way merge on its base too); patch 2/2, tried alone (--series tries it after the ones before it)"
# the series sent again in the same thread: 1/2 starts at the tip again
expect "a thread's series twice" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies "${sent[1]}" "${sent[2]}" "${sent[1]}" "${sent[2]}"
[ "$(grep -c "after the 1 patch before it$" <<< "$out")" = 2 ] && [ "$(grep -c "after the 2 patches" <<< "$out")" = 0 ] &&
	ok "each round starts at the tip" || bad "sent again: $out"
# 2/2 of another thread (its own Message-ID and References) is alone
sed -e 's/^\(In-Reply-To\|References\): <\(.*\)>/\1: <other-\2>/' "${sent[2]}" > "$tmp/other-thread.patch"
grep -q "^References: <other-" "$tmp/other-thread.patch" || bad "the other thread's mail"
expect "2/2 of another thread" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies "${sent[1]}" "$tmp/other-thread.patch"
has "tried alone" "; patch 2/2, tried alone (--series tries it after the ones before it)"
hasnt "not after 1/2" "after the 1 patch"
# a list delivers the mails in any order: 2/2 before 1/2 still goes in
# after it, and the output keeps the order given
expect "2/2 given before 1/2" 0 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies --json "${sent[2]}" "${sent[0]}" "${sent[1]}"
applies_after '[[true, 1], [null, 0], [true, 0]]' && ok "2/2 after 1/2, printed first" || bad "out of order: $out"
# an unreadable input among them is named, and the rest still judged
expect "a missing input among the mails" 1 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies "$tmp/no-such.eml" "${sent[@]}"
has "named" "no-such.eml"
has "the rest judged" "after the 1 patch before it"
[ "$(grep -c "no-such.eml" <<< "$out")" = 1 ] && ok "in one line" || bad "said more than once: $out"
hasnt "not called empty" "empty input"
# the same without a repository, and a directory given as a file
mkdir -p "$tmp/a-dir"
expect "a missing input and a directory" 1 "$sm" classify "$tmp/no-such.eml" "$tmp/a-dir" "${sent[1]}"
[ "$(grep -c "^stablemate classify: " <<< "$out")" = 2 ] && ok "a line each" || bad "not a line each: $out"
has "the directory named" "a-dir: read: Is a directory"
hasnt "neither called empty" "empty input"
has "the rest judged" "verdict:"
# on x41 1/2 conflicts: 2/2 goes onto the tip, and says why
expect "a thread's series whose first patch conflicts" 0 "$sm" classify --repo "$lx" --tree x41=4.1 --check-applies "${sent[@]}"
has "2/2 says 1/2 did not go in" "; onto the tip: the patch of its series before it did not go in"
hasnt "no tried-alone hint" "tried alone"
expect "--series on x41: the cover letter is no patch before 1/2" 0 "$sm" classify --repo "$lx" --tree x41=4.1 --check-applies --series "$tmp/series.mbox"
[ "$(grep -c "did not go in" <<< "$out")" = 1 ] && ok "only 2/2 says so" || bad "--series on x41: $out"
expect "--series and --alone" 2 "$sm" classify --repo "$lx" --tree c41=4.1 --check-applies --series --alone "${sent[@]}"
has "says so" "--series and --alone: choose one"
expect "--alone needs --check-applies" 2 "$sm" classify --repo "$lx" --tree c41=4.1 --alone "${sent[@]}"
has "says so" "--alone needs --check-applies"
# a quoted-printable mail is decoded first
python3 - "$tmp/w1.eml" "$tmp/w1-qp.eml" <<'PY'
import email, email.policy, sys
m = email.message_from_bytes(open(sys.argv[1], 'rb').read(), policy=email.policy.default)
body = m.get_content()
del m['Content-Transfer-Encoding']
m.set_content(body, cte='quoted-printable')
open(sys.argv[2], 'wb').write(m.as_bytes())
PY
grep -q "^Content-Transfer-Encoding: quoted-printable" "$tmp/w1-qp.eml" || bad "the mail is not quoted-printable"
expect "--check-applies: a quoted-printable mail" 0 "$sm" classify --repo "$lx" --tree h41=4.1 --check-applies --json "$tmp/w1-qp.eml"
json "decoded, and found there" "assert d['applies'] is False and d['applied'] is True and d['verdict']['verdict'] == 'reject', d"
# a list's footer after the signature is left alone
{ cat "$tmp/w1.eml"; printf '_______________________________________________\nalsa-devel mailing list\nalsa-devel@example.org\n'; } > "$tmp/w1-footer.eml"
expect "--check-applies: a mail with a list footer" 0 "$sm" classify --repo "$lx" --tree linux-4.1.y --check-applies "$tmp/w1-footer.eml"
has "still applies" "  applies: cleanly"
printf 'Subject: [PATCH] x: fix a NULL pointer dereference\n\nFix a crash.\n\n--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n' > "$tmp/plain.eml"
expect "--check-applies: a plain diff -u of a file the tree lacks" 0 "$sm" classify --repo "$lx" --tree linux-4.1.y --check-applies "$tmp/plain.eml"
has "read, and no base to merge on" "  applies: no (conflict; no three-way merge: the patch names no base of x.c (no \"index\" line))"
# quilt's format, the stable review mails' ("--- a/x" with no "diff --git"
# line): W1's mail so, on 4.1 (applies) and on p41 (in, 3 lines down)
sed -e '/^diff --git /d' -e '/^index /d' -e 's|^--- a/sound/core/timer.c|--- a/sound/core/timer.c\t2016-01-01 00:00:00|' "$tmp/w1.eml" > "$tmp/w1-quilt.eml"
grep -q "^diff --git" "$tmp/w1-quilt.eml" && bad "the quilt mail still has a diff --git line"
expect "--check-applies: a quilt patch" 0 "$sm" classify --repo "$lx" --tree linux-4.1.y --check-applies "$tmp/w1-quilt.eml"
has "applies" "  applies: cleanly"
expect "--check-applies: a quilt patch the tree has" 0 "$sm" classify --repo "$lx" --tree p41=4.1 --check-applies "$tmp/w1-quilt.eml"
has "already" "  applies: already (only its reverse applies: the tree has it)"
# a patch cut off inside its hunk is no patch to try
head -c "$(($(grep -b -m1 "^+		memset" "$tmp/w1.eml" | cut -d: -f1) + 40))" "$tmp/w1.eml" > "$tmp/w1-cut.eml"
expect "--check-applies: a patch cut off" 0 "$sm" classify --repo "$lx" --tree linux-4.1.y --check-applies "$tmp/w1-cut.eml"
has "not checked either" "  applies: not checked (no whole patch in git's format)"
expect "--check-applies needs a tree" 2 "$sm" classify --repo "$lx" --check-applies "$tmp/w1.eml"
has "says so" "--check-applies needs --repo and --tree"
# A patch to two near copies, x1.c and x2.c, on a tree that dropped x1.c:
# x2.c is like x1.c, but the patch changes it too, so it is not where x1.c
# went (both parts on x2.c made a patch its own base refused). git am -3
# stops on x1.c, deleted on one side.
git init -q "$tmp/tw" && (
	cd "$tmp/tw" && seq 1 40 | sed 's/^/line /' > x1.c &&
	{ seq 1 38 | sed 's/^/line /'; echo "line v2 a"; echo "line v2 b"; } > x2.c &&
	git add . && git commit -qm base && git branch old &&
	sed -i 's/^line 20$/line 20 fixed/' x1.c x2.c && git commit -qam "x: fix a leak in x1 and x2" &&
	git format-patch -q -1 -o "$tmp/tw-p" && git checkout -q old && git rm -q x1.c &&
	git commit -qm "x: remove x1.c" ) || fail "near copies"
expect "--check-applies: near copies, one gone" 0 "$sm" classify --repo "$tmp/tw" --tree old=4.1 --check-applies "$tmp"/tw-p/*.patch
has "not moved onto the other copy" "  applies: no (conflict; no three-way merge: the tree has no x1.c, nor a file like it under another path)"
hasnt "no move claimed" "the tree keeps"
checks_done classify_repo
