#!/usr/bin/env bash
# scan_reviews.sh: scan reads the review notes harvest writes, end to end
# on the repository of life_mkrepo.sh. A NAK given for a tree's version
# (an -rc review, an AUTOSEL mail for a range of trees) vetoes the commit
# for those trees only, and steal leaves it out; a NAK its sender took
# back with an Acked-by later does not; a NAK of the upstream patch mail
# (no Tree:) does not; the stable queue's "queued" notice vetoes the
# commit for its version, a FAILED one is a reason naming the script's
# possible dependencies; --notes-ref "" reads none; a note whose blob is
# gone is said in a reason, and the scan goes on.
. "${SM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
set +e	# soft checks: every case runs and is reported (lib.sh)
top=$SM_SRCDIR sm=$STABLEMATE tmp=$TMP
export XDG_CACHE_HOME=$tmp/cache
# tree_verdict ID TREE-INDEX: the tree verdict of a commit in the JSON in $out
tree_verdict() { python3 -c "import json,sys; d=json.load(sys.stdin); print([c for c in d['commits'] if c['id']=='$1'][0]['trees'][$2]['verdict']['verdict'])" <<<"$out"; }

bash "$top/tests/life_mkrepo.sh" "$tmp" >/dev/null 2>&1 || { echo "life_mkrepo failed"; exit 1; }
. "$tmp/ids.sh"
cd "$tmp/linux"
# a second tree, 4.4, on the same history (no v4.4 tag on it: its whole
# history is indexed, which changes nothing here)
git branch -q linux-4.4.y linux-4.1.y

# note COMMIT TEXT: the note on COMMIT under refs/notes/stable-review
note() { printf '%s\n' "$2" > "$tmp/note.txt"; git notes --ref stable-review add -f -F "$tmp/note.txt" "$1" >/dev/null 2>&1; }

note "$FIXED2" "Review: <nak44@example.org>
Tree: 4.4
Author: Rev Iewer <rev@example.org>
Date: Tue, 2 Jan 2024 07:30:12 -0800
Subject: Re: [PATCH 4.4 03/20] baz: fix an out-of-bounds write in baz_rx
Link: https://lore.kernel.org/r/nak44@example.org
Trailers:
  Nacked-by: Rev Iewer <rev@example.org>
Comment:
    This breaks the 4.4 build: baz_rx has no len argument there."
note "$RESTORED" "Review: <autosel@example.org>
Tree: 4.1-4.4
Author: Main Tainer <main@example.org>
Date: Wed, 3 Jan 2024 10:00:00 +0000
Subject: Re: [PATCH AUTOSEL 4.1-4.4] bar: fix a memory leak in bar_remove
Trailers:
  Nacked-by: Main Tainer <main@example.org>
Comment:
    Please drop, the leak is not in these trees."
note "$CHAIN" "Review: <nak-then-ack-1@example.org>
Tree: 4.1
Author: Rev Iewer <rev@example.org>
Date: Tue, 2 Jan 2024 07:30:12 -0800
Trailers:
  Nacked-by: Rev Iewer <rev@example.org>
Comment:
    Needs the lock fix first.

Review: <nak-then-ack-2@example.org>
Tree: 4.1
Author: Rev Iewer <rev@example.org>
Date: Thu, 4 Jan 2024 09:00:00 -0800
Trailers:
  Acked-by: Rev Iewer <rev@example.org>
Comment:
    With the lock fix queued too, fine."
note "$QUEUED" "Review: <upstream-nak@example.org>
Author: Rev Iewer <rev@example.org>
Date: Mon, 1 Jan 2024 07:30:12 -0800
Subject: [PATCH v1] net: queued: fix the header length check
Trailers:
  Nacked-by: Rev Iewer <rev@example.org>
Comment:
    v1 is wrong, see v2."
# and for 4.4, naming a commit of v4.1's own history (which 4.4 has) too
V41=$(git rev-parse v4.1^{commit})
note "$RC_MET" "Review: <failed41@example.org>
Tree: 4.1
Author: gregkh@linuxfoundation.org
Date: Fri, 5 Jan 2024 12:00:00 +0100
Subject: quux: fix a NULL pointer dereference in quux_probe
Notice: failed to apply
Comment:
    Possible dependencies:

    $ZAP_PRE (\"zap: split zap_reset out of zap_probe\")

Review: <failed44@example.org>
Tree: 4.4
Author: gregkh@linuxfoundation.org
Date: Fri, 5 Jan 2024 12:05:00 +0100
Subject: quux: fix a NULL pointer dereference in quux_probe
Notice: failed to apply
Comment:
    Possible dependencies:

    ${V41:0:12} (\"Linux 4.1\")
    $ZAP_PRE (\"zap: split zap_reset out of zap_probe\")"
note "$SER3" "Review: <queued41@example.org>
Tree: 4.1
Author: gregkh@linuxfoundation.org
Date: Sat, 6 Jan 2024 12:00:00 +0100
Subject: ser: fix the irq check in ser_resume
Notice: queued"

expect "scan with review notes" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --tree linux-4.4.y=4.4 --json
json "the notes ref is read" "assert d['review_notes']=={'ref':'refs/notes/stable-review','notes':6}, d['review_notes']"
[ "$(tree_verdict "$FIXED2" 0)" = candidate ] && ok "a NAK for 4.4 leaves 4.1 alone" || bad "a NAK for 4.4 leaves 4.1 alone: $(tree_verdict "$FIXED2" 0)"
[ "$(tree_verdict "$FIXED2" 1)" = reject ] && ok "a NAK for 4.4 vetoes 4.4" || bad "a NAK for 4.4 vetoes 4.4: $(tree_verdict "$FIXED2" 1)"
json "the NAK in the JSON, with its reason" "c={x['id']:x for x in d['commits']}; t=c['$FIXED2']['trees']; assert t[0]['nak'] is None and t[1]['nak']['author']=='Rev Iewer <rev@example.org>' and t[1]['nak']['trailers']==['Nacked-by: Rev Iewer <rev@example.org>']; r=[r for r in t[1]['verdict']['reasons'] if r['code']=='nak']; assert r and r[0]['text'].startswith('NAKed for 4.4: Nacked-by: Rev Iewer <rev@example.org> (Tue, 2 Jan 2024 07:30:12 -0800): This breaks the 4.4 build'), r"
[ "$(tree_verdict "$RESTORED" 0)$(tree_verdict "$RESTORED" 1)" = rejectreject ] && ok "an AUTOSEL NAK for 4.1-4.4 vetoes both" || bad "AUTOSEL NAK: $(tree_verdict "$RESTORED" 0) $(tree_verdict "$RESTORED" 1)"
[ "$(tree_verdict "$CHAIN" 0)" = candidate ] && ok "a NAK taken back by a later Acked-by does not veto" || bad "NAK taken back: $(tree_verdict "$CHAIN" 0)"
[ "$(tree_verdict "$QUEUED" 0)" = candidate ] && ok "a NAK of the upstream patch mail (no Tree:) does not veto" || bad "upstream NAK: $(tree_verdict "$QUEUED" 0)"
[ "$(tree_verdict "$SER3" 0)" = reject ] && ok "queued for 4.1 in the stable queue: vetoed for 4.1" || bad "queued notice: $(tree_verdict "$SER3" 0)"
[ "$(tree_verdict "$SER3" 1)" = candidate ] && ok "queued for 4.1 only: 4.4 still wants it" || bad "queued notice 4.4: $(tree_verdict "$SER3" 1)"
[ "$(tree_verdict "$RC_MET" 0)" = candidate ] && ok "a FAILED notice leaves a candidate (it needs a backport)" || bad "FAILED notice: $(tree_verdict "$RC_MET" 0)"
json "the FAILED notice in the JSON" "c={x['id']:x for x in d['commits']}; q=c['$RC_MET']['trees'][0]['queue_notice']; assert q['notice']=='failed to apply' and q['possible_dependencies']==['$ZAP_PRE'] and c['$RC_MET']['trees'][1]['queue_notice']['possible_dependencies']==['${V41:0:12}', '$ZAP_PRE'], q"

expect "scan with review notes, text" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --tree linux-4.4.y=4.4
has "the notes ref in the summary" "review notes refs/notes/stable-review: 6 commits with a note"
has "the NAK's reason" "nak: NAKed for 4.1-4.4: Nacked-by: Main Tainer <main@example.org> (Wed, 3 Jan 2024 10:00:00 +0000): Please drop, the leak is not in these trees."
has "the queued notice's reason" "queued: the stable queue has it: queued for 4.1 (gregkh@linuxfoundation.org, Sat, 6 Jan 2024 12:00:00 +0100)"
has "the FAILED notice's reason" "queue-failed: the stable queue failed to apply to 4.1 (gregkh@linuxfoundation.org, Fri, 5 Jan 2024 12:00:00 +0100); possible dependencies: $ZAP_PRE"
has "a dependency the tree has is marked" "queue-failed: the stable queue failed to apply to 4.4 (gregkh@linuxfoundation.org, Fri, 5 Jan 2024 12:05:00 +0100); possible dependencies: ${V41:0:12} (in linux-4.4.y already), $ZAP_PRE"

# notes show says which NAK stands, as scan decides it
expect "notes show, a NAK taken back" 0 "$sm" notes show "$CHAIN"
has "the NAK taken back" "NAK for 4.1 taken back: its sender approved it later"
expect "notes show, an AUTOSEL NAK" 0 "$sm" notes show "$RESTORED"
has "stands for 4.1" "NAK for 4.1 stands: Nacked-by: Main Tainer <main@example.org> (Wed, 3 Jan 2024 10:00:00 +0000): Please drop, the leak is not in these trees. (scan vetoes it for 4.1)"
has "stands for 4.4" "NAK for 4.4 stands: Nacked-by: Main Tainer"
expect "notes show, an upstream NAK" 0 "$sm" notes show "$QUEUED"
hasnt "no tree, no verdict" "NAK for"

expect "scan --notes-ref ''" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --tree linux-4.4.y=4.4 --notes-ref "" --json
json "no notes read" "assert d['review_notes'] is None"
[ "$(tree_verdict "$FIXED2" 1)" = candidate ] && ok "without the notes the NAK is not seen" || bad "--notes-ref '': $(tree_verdict "$FIXED2" 1)"
git update-ref refs/notes/other refs/notes/stable-review
expect "scan --notes-ref other (a bare name)" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.4.y=4.4 --notes-ref other --json
json "a bare name is under refs/notes/" "assert d['review_notes']['ref']=='refs/notes/other'"
[ "$(tree_verdict "$FIXED2" 0)" = reject ] && ok "the other ref's NAK" || bad "--notes-ref other: $(tree_verdict "$FIXED2" 0)"
expect "scan --notes-ref nosuch" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.4.y=4.4 --notes-ref nosuch --json
json "a ref that does not exist: nothing to read, no error" "assert d['review_notes']=={'ref':'refs/notes/nosuch','notes':0}"

# A notes ref that names no commit (a blob pushed there by mistake): one
# line naming the ref, exit 1 (libgit2 1.5 itself read an uninitialised
# pointer here)
git update-ref refs/notes/broken "$(echo not a notes commit | git hash-object -w --stdin)"
expect "a notes ref that is no commit" 1 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --notes-ref broken
has "names the ref" "stablemate scan: refs/notes/broken: not a notes commit:"
[ "$(wc -l <<<"$out")" = 1 ] && ok "one line" || bad "one line: $out"
git update-ref -d refs/notes/broken

# steal: the NAKed and the queued are left out for 4.1, the FAILED one
# is taken (the tree's maintainer backports it).
expect "steal" 0 "$sm" steal --range v4.1..v4.2 --onto linux-4.1.y --branch n41 --no-upstream-ref
got=$(git log --reverse --format=%s linux-4.1.y..n41 | tr '\n' '|')
case "$got" in
*"bar: fix a memory leak"*) bad "steal takes the NAKed: $got";;
*"ser: fix the irq check"*) bad "steal takes the queued: $got";;
*"quux: fix a NULL pointer dereference"*) ok "steal leaves the NAKed and the queued out, takes the FAILED";;
*) bad "steal: $got";;
esac
expect "steal --notes-ref ''" 0 "$sm" steal --range v4.1..v4.2 --onto linux-4.1.y --branch n41b --no-upstream-ref --notes-ref ""
got=$(git log --format=%s linux-4.1.y..n41b | tr '\n' '|')
case "$got" in *"bar: fix a memory leak"*) ok "steal without the notes takes the NAKed";; *) bad "steal --notes-ref '': $got";; esac

# A note whose blob is gone (a partial copy of the repository): a reason
# on the commit, and the scan goes on.
blob=$(git notes --ref stable-review list "$SER3")
obj=.git/objects/${blob:0:2}/${blob:2}
if [ -f "$obj" ]; then
	chmod u+w "$obj"; mv "$obj" "$tmp/blob.saved"
	expect "scan with a note's blob gone" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --json
	json "the unreadable note is a reason" "c={x['id']:x for x in d['commits']}; r=[r for r in c['$SER3']['verdict']['reasons'] if r['code']=='review-note']; assert r and 'reading the note of $SER3' in r[0]['text'], c['$SER3']['verdict']"
	mv "$tmp/blob.saved" "$obj"
else
	bad "the note's blob is not a loose object: $obj"
fi

checks_done scan_reviews
