#!/usr/bin/env bash
# life_cli.sh: each candidate's life after it landed, end to end on the
# repository of life_mkrepo.sh: reverted, revert of a revert, fixed twice
# later, a fix of a fix of a fix (scan lists them, steal picks them in
# order), "# after -rc3" before and after -rc3, "# after 4 weeks", the
# minimum soak, a stable-queue directory, CVE records; the lifecycle index
# cache (new, hit, incremental, rebuilt) and its errors.
. "${SM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
set +e	# soft checks: every case runs and is reported (lib.sh)
top=$SM_SRCDIR sm=$STABLEMATE tmp=$TMP
export XDG_CACHE_HOME=$tmp/cache
# verdict ID TREE-INDEX: the tree verdict of a commit in the JSON in $out
verdict() { python3 -c "import json,sys; d=json.load(sys.stdin); print([c for c in d['commits'] if c['id']=='$1'][0]['trees'][$2]['verdict']['verdict'])" <<<"$out"; }

bash "$top/tests/life_mkrepo.sh" "$tmp" >/dev/null 2>&1 || { echo "life_mkrepo failed"; exit 1; }
. "$tmp/ids.sh"
cd "$tmp/linux"

# Reverted, restored, fixed later, queued, CVE: the window v4.1..v4.2.
expect "scan" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --queue "$tmp/queue" --cve-dir "$tmp/cves"
has "the lifecycle index is read" "upstream master: index new, 26 commits from the range start"
has "queue read" "queue $tmp/queue: 1 patches"
has "cve records read" "cve $tmp/cves: 3 records with a fixing commit"
has "reverted: the revert's id and subject" "reverted: reverted upstream by ${REVERT1:0:12} (Revert \"foo: fix the f7 probe order\")"
has "revert of a revert restores" "revert-undone: reverted by ${REVERT2:0:12} (Revert \"bar: fix a memory leak in bar_remove\"), restored by ${REAPPLY:0:12}"
has "fixed twice later" "fixed-later: take together: ${LATER1:0:12} baz: return -ENODEV from baz_rx without a device; ${LATER2:0:12} baz: count the dropped oversize frames"
has "a fix of a fix of a fix" "fixed-later: take together: ${CHAIN1:0:12} qux: drop q->lock on the error path; ${CHAIN2:0:12} qux: return -EINTR when the lock wait is interrupted; ${CHAIN3:0:12} qux: check for a pending signal before the lock wait"
has "after -rc3, released" "soak-met: # after -rc3: in v4.2, released after its -rc3"
has "queued" "queued: already queued for linux-4.1.y as queue-4.1/net-queued-fix-the-header-length-check.patch"
has "cve still affected" "cve: the fix of CVE-2017-1001; the record says linux-4.1.y: still affected"
has "cve fixed in a stable release" "cve: the fix of CVE-2017-1002; the record says linux-4.1.y: fixed in 4.1.3"
has "lifecycle index cached" "index new"
expect "scan --json" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --queue "$tmp/queue" --cve-dir "$tmp/cves" --json
json "json: lifecycle" "assert d['lifecycle']=={'ref':'master','index_cache':'hit','commits':26,'note':None}"
json "json: reverted_by" "c={x['id']:x for x in d['commits']}; assert c['$REVERTED']['reverted_by']=='$REVERT1' and c['$RESTORED']['reverted_by'] is None"
json "json: later fixes in order" "c={x['id']:x for x in d['commits']}; assert c['$CHAIN']['later_fixes']==['$CHAIN1','$CHAIN2','$CHAIN3'] and c['$CHAIN']['trees'][0]['take_with']==['$CHAIN1','$CHAIN2','$CHAIN3']"
json "json: queued and cve" "c={x['id']:x for x in d['commits']}; assert c['$QUEUED']['trees'][0]['queued'].startswith('queue-4.1/') and c['$FIXED2']['cve']=='CVE-2017-1001' and c['$CHAIN']['cve']=='CVE-2017-1002'"
# A refactoring a later fix's stable tag names as its prerequisite, for
# 4.1 and later; another one, for 4.4 and later (read from the cache: the
# run above wrote it).
json "json: needed_by" "c={x['id']:x for x in d['commits']}; assert c['$ZAP_PRE']['needed_by']==['$ZAP_FIX'] and c['$ZAP_PRE44']['needed_by']==['$ZAP_FIX'] and c['$SER1']['needed_by']==[]"
json "prereq-of promotes it for the tree its tag names" "c={x['id']:x for x in d['commits']}; v=c['$ZAP_PRE']['trees'][0]['verdict']; assert v['verdict']=='candidate' and [r['text'] for r in v['reasons'] if r['code']=='prereq-of']==['a stable tag names it as the prerequisite of ${ZAP_FIX:0:12} (zap: reset the device after a failed resume), for 4.1 and later'], v"
json "prereq-of only for the trees its tag names" "c={x['id']:x for x in d['commits']}; x=c['$ZAP_PRE44']; assert not any(r['code']=='prereq-of' for r in x['trees'][0]['verdict']['reasons']) and x['trees'][0]['verdict']['verdict']=='reject' and any(r['code']=='prereq-of' and r['text'].endswith('for 4.4 and later') for r in x['verdict']['reasons'])"
[ "$(verdict "$REVERTED" 0)" = reject ] && ok "reverted is rejected" || bad "reverted is rejected"
[ "$(verdict "$RESTORED" 0)" = candidate ] && ok "restored is a candidate" || bad "restored is a candidate"
[ "$(verdict "$QUEUED" 0)" = reject ] && ok "queued is not mailed again" || bad "queued is not mailed again"
expect "scan without looking past the range" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --no-upstream-ref --json
json "--no-upstream-ref" "c={x['id']:x for x in d['commits']}; assert d['lifecycle'] is None and c['$REVERTED']['reverted_by'] is None and c['$CHAIN']['later_fixes']==[]"
expect "upstream ref before the later fixes" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --upstream-ref v4.2 --json
json "--upstream-ref v4.2 sees no later fix" "c={x['id']:x for x in d['commits']}; assert c['$FIXED2']['later_fixes']==[] and c['$REVERTED']['reverted_by'] is None"

# The ends swapped: no commit, as git says, and a warning that says why
# (not for a range that is merely empty)
expect "scan with the range's ends swapped" 0 "$sm" scan --range v4.2..v4.1 --tree linux-4.1.y
has "says the range runs backwards" "stablemate: warning: v4.2..v4.1 is empty: v4.1 is an ancestor of v4.2 (a range is OLDER..NEWER)"
has "and scans nothing" "scan v4.2..v4.1 in .: 0 commits"
expect "scan of an empty range" 0 "$sm" scan --range v4.2..v4.2 --tree linux-4.1.y
hasnt "an empty range is no mistake" "warning"
expect "steal with the ends swapped" 0 "$sm" steal --range v4.2..v4.1 --onto linux-4.1.y --branch swapped --no-upstream-ref
has "steal says so too" "v4.2..v4.1 is empty: v4.1 is an ancestor of v4.2"
git branch -q -D swapped

# The tree already has one of the later fixes: only the other is listed.
git branch -q l41 linux-4.1.y
git checkout -q l41
git commit -q --allow-empty -m "baz: count the dropped oversize frames" -m "commit $LATER2 upstream."
git checkout -q master
expect "scan a tree with one later fix" 0 "$sm" scan --range v4.1..v4.2 --tree l41=4.1 --json
json "take_with leaves out what the tree has" "c={x['id']:x for x in d['commits']}; assert c['$FIXED2']['trees'][0]['take_with']==['$LATER1'], c['$FIXED2']['trees'][0]['take_with']"
# ... and takes it again once the tree reverted it
git checkout -q l41
git commit -q --allow-empty -m 'Revert "baz: count the dropped oversize frames"' \
	-m "This reverts commit $(git rev-parse HEAD)."
git checkout -q master
expect "scan a tree that reverted its later fix" 0 "$sm" scan --range v4.1..v4.2 --tree l41=4.1 --json
json "take_with lists a later fix the tree reverted" "c={x['id']:x for x in d['commits']}; assert c['$FIXED2']['trees'][0]['take_with']==['$LATER1','$LATER2'], c['$FIXED2']['trees'][0]['take_with']"

# A tree that carries the fix already has no use for its prerequisite
# (it took the fix adjusted, or took both: then "present" says so).
git branch -q z41 linux-4.1.y
git checkout -q z41
git commit -q --allow-empty -m "zap: reset the device after a failed resume" -m "commit $ZAP_FIX upstream."
git checkout -q master
expect "scan a tree that carries the fix" 0 "$sm" scan --range v4.1..v4.2 --tree z41=4.1 --tree linux-4.1.y=4.4 --json
json "no prereq-of where the tree has its fix" "c={x['id']:x for x in d['commits']}; v=c['$ZAP_PRE']['trees'][0]['verdict']; assert not any(r['code']=='prereq-of' for r in v['reasons']), v"
json "prereq-of for a 4.4 tree" "c={x['id']:x for x in d['commits']}; v=c['$ZAP_PRE44']['trees'][1]['verdict']; assert v['verdict']=='candidate' and any(r['code']=='prereq-of' for r in v['reasons']), v"
# deps lists what the fix's stable tags name for the tree, found by blame
# or not.
expect "deps of a fix naming its prerequisites" 0 "$sm" deps --tree linux-4.1.y "$ZAP_FIX"
has "deps: blamed and named" "  ${ZAP_PRE:0:12} zap: split zap_reset out of zap_probe (1 line of drivers/zap/zap.c; named by its stable tag)"
hasnt "deps: not the 4.4 prerequisite for 4.1" "${ZAP_PRE44:0:12}"
expect "deps for 4.4" 0 "$sm" deps --tree linux-4.1.y=4.4 --json "$ZAP_FIX"
json "deps: named only" "x=[e for e in d['deps'] if e['id']=='$ZAP_PRE44'][0]; assert x['named_by_tag'] and x['lines']==0 and x['paths']==[] and d['prereqs_not_found']==[], d"
expect "deps for 4.4, text" 0 "$sm" deps --tree linux-4.1.y=4.4 "$ZAP_FIX"
has "deps: the fix applies after both prerequisites, not alone" \
	"trial on linux-4.1.y: after these 2, applies cleanly; alone, conflict in drivers/zap/zap.c"
git checkout -q -b zap-unknown master
git commit -q --allow-empty -m "zap: one more fix" -m "Cc: stable@vger.kernel.org # 4.1.x: 0123456789ab: zap: a commit from another tree" -m "Signed-off-by: Kernel Dev <dev@example.org>"
expect "deps naming an unknown prerequisite" 0 "$sm" deps --tree linux-4.1.y HEAD
has "deps: the unknown prerequisite" "its stable tag names 0123456789ab as a prerequisite, which is not in the repository"
expect "steal a fix naming an unknown prerequisite" 0 "$sm" steal --range master..zap-unknown --onto linux-4.1.y --branch zu41
has "steal: the unknown prerequisite left out" "left out 0123456789ab (prerequisite of $(git rev-parse --short=12 zap-unknown)): not in the repository"
git checkout -q master

# steal --backports-from takes another tree's backport with the
# prerequisite that tree took for it ("Stable-dep-of:"), in order. bp41 took
# ZAP_PRE for ZAP_FIX, then ZAP_FIX; for a 4.0 tree (which the # 4.1.x tag
# does not name) ZAP_FIX alone conflicts.
git checkout -q -b bp41 linux-4.1.y
git cherry-pick "$ZAP_PRE" >/dev/null
git commit -q --amend -m "zap: split zap_reset out of zap_probe" -m "commit $ZAP_PRE upstream." \
	-m "Stable-dep-of: ${ZAP_FIX:0:12} (\"zap: reset the device after a failed resume\")
Signed-off-by: Sasha Levin <sashal@kernel.org>"
bp_pre=$(git rev-parse HEAD)
git cherry-pick "$ZAP_FIX" >/dev/null
git commit -q --amend -m "zap: reset the device after a failed resume" -m "commit $ZAP_FIX upstream."
bp_fix=$(git rev-parse HEAD)
git checkout -q master
expect "steal without the backport's prerequisite" 0 "$sm" steal --range v4.2..master --onto linux-4.1.y=4.0 --branch bp-no
has "the fix alone conflicts" "left out ${ZAP_FIX:0:12} zap: reset the device after a failed resume: does not apply: conflict in drivers/zap/zap.c"
expect "steal --backports-from: the backport and its prerequisite" 0 "$sm" steal --range v4.2..master --onto linux-4.1.y=4.0 --branch bp-yes --backports-from bp41=4.1
has "the prerequisite first" "  picked   ${ZAP_PRE:0:12} -> $(git rev-parse --short=12 bp-yes~1) zap: split zap_reset out of zap_probe (prerequisite of ${ZAP_FIX:0:12}) (bp41's backport ${bp_pre:0:12})"
has "then the fix" "  picked   ${ZAP_FIX:0:12} -> $(git rev-parse --short=12 bp-yes) zap: reset the device after a failed resume (bp41's backport ${bp_fix:0:12})"
has "both counted" "2 of 2 candidates picked"
git log -1 --format=%B bp-yes~1 | grepq -x "commit $ZAP_PRE upstream." && ok "the prerequisite keeps its upstream line" || bad "prerequisite upstream line"
# A tree where the prerequisite itself conflicts: nothing of bp41 goes in,
# and the reason says why.
git checkout -q -b z40 linux-4.1.y
sed -i '4s|.*|	int zap_other = 4; /* local */|' drivers/zap/zap.c
git commit -q -am "zap: a local change of line 4"
git checkout -q master
expect "steal --backports-from: the prerequisite conflicts" 0 "$sm" steal --json --range v4.2..master --onto z40=4.0 --branch bp-z --backports-from bp41=4.1
json "all or nothing, and why" "c=d['commits']; assert [x['upstream'] for x in c]==['$ZAP_FIX'] and c[0]['stable'] is None and \"bp41's backport needs ${bp_pre:0:12} (zap: split zap_reset out of zap_probe) first, which does not apply: conflict in drivers/zap/zap.c\" in c[0]['left_out'], c"

# Past the range: a revert of a commit the tree lacks, soak conditions.
expect "scan past v4.2" 0 "$sm" scan --range v4.2..master --tree linux-4.1.y --json
json "revert of an absent commit" "c={x['id']:x for x in d['commits']}; v=c['$REVERT1']['trees'][0]['verdict']; assert v['verdict']=='reject' and any(r['code']=='revert-of-absent' for r in v['reasons'])"
# a tree that took the reverted commit and reverted it itself has nothing
# for the upstream revert to undo
git branch -q x41 linux-4.1.y
git checkout -q x41
git cherry-pick -x "$REVERTED" >/dev/null && git revert --no-edit HEAD >/dev/null
git checkout -q master
expect "scan a tree that reverted the commit itself" 0 "$sm" scan --range v4.2..master --tree x41=4.1 --json
json "its upstream revert reverts an absent commit" "c={x['id']:x for x in d['commits']}; v=c['$REVERT1']['trees'][0]['verdict']; assert v['verdict']=='reject' and any(r['code']=='revert-of-absent' for r in v['reasons']), v"
json "after -rc3 before -rc3: maybe" "c={x['id']:x for x in d['commits']}; x=c['$RC_WAIT']; assert x['trees'][0]['verdict']['verdict']=='maybe' and x['soak_wait']=='# after -rc3: waits for v4.3-rc3', x['soak_wait']"
json "after 4 weeks: maybe" "c={x['id']:x for x in d['commits']}; x=c['$WEEKS']; assert x['trees'][0]['verdict']['verdict']=='maybe' and x['soak_wait'].startswith('# after 4 weeks in mainline: waits until ')"
git tag -a v4.3-rc3 -m "Linux 4.3-rc3" "$RC_WAIT"
expect "scan after -rc3" 0 "$sm" scan --range v4.2..master --tree linux-4.1.y --json
json "after -rc3 once -rc3 is tagged: candidate" "c={x['id']:x for x in d['commits']}; x=c['$RC_WAIT']; assert x['trees'][0]['verdict']['verdict']=='candidate' and x['soak_wait'] is None"
expect "scan after -rc3, text" 0 "$sm" scan --range v4.2..master --tree linux-4.1.y
has "soak-met text" "soak-met: # after -rc3: v4.3-rc3 is tagged"
has "the lifecycle index grew incrementally" "upstream master: index hit"

# Minimum soak: hold back what is younger than N days.
age=$(( ($(date +%s) - $(git log -1 --format=%ct "$FIXED2")) / 86400 ))
expect "scan --min-soak-days" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --min-soak-days $((age + 2)) --json
json "min soak holds a candidate back" "c={x['id']:x for x in d['commits']}; x=c['$FIXED2']; assert x['trees'][0]['verdict']['verdict']=='maybe' and 'minimum soak; held until' in x['soak_wait'], x['soak_wait']"
expect "scan --min-soak-days below the age" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --min-soak-days $((age - 2)) --json
json "old enough: candidate" "c={x['id']:x for x in d['commits']}; x=c['$FIXED2']; assert x['trees'][0]['verdict']['verdict']=='candidate' and x['soak_wait'] is None"
expect "--min-soak-days not a number" 2 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --min-soak-days soon
has "names the option" "--min-soak-days: 'soon' is not a number of days"

# The cache: incremental on a moved tip, rebuilt when it does not parse.
echo "	int late = 1;" >> mm/soak.c
git commit -qam "mm: soak: tidy up"
expect "scan on a moved tip" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y
has "lifecycle index incremental" "upstream master: index incremental, 27 commits"
for f in "$XDG_CACHE_HOME"/stablemate/lifecycle-index/*.idx; do sed -i '7s/^[0-9a-f]\{6\}/zzzzzz/' "$f"; done
expect "scan on a damaged cache" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y
has "lifecycle index rebuilt" "upstream master: index rebuilt, 27 commits"
has "the rebuilt index still finds the revert" "reverted upstream by ${REVERT1:0:12}"
has "the rebuilt index still finds the prerequisite" "prereq-of: a stable tag names it as the prerequisite of ${ZAP_FIX:0:12}"

# A revert of a commit the tree took as a backport is a candidate there
# (mainline dropped the change); in a tree without the commit it is vetoed.
git branch -q r41 linux-4.1.y
git checkout -q r41
git cherry-pick -n "$REVERTED" >/dev/null 2>&1
git commit -q -m "foo: fix the f7 probe order" -m "commit $REVERTED upstream."
r41copy=$(git rev-parse HEAD)
git checkout -q master
expect "scan the reverts" 0 "$sm" scan --range v4.2..master --tree linux-4.1.y --tree r41=4.1 --json
json "revert of a backport: a candidate" "c={x['id']:x for x in d['commits']}; t=c['$REVERT1']['trees']; assert t[0]['verdict']['verdict']=='reject' and t[1]['verdict']['verdict']=='candidate', t; r=[r for r in t[1]['verdict']['reasons'] if r['code']=='revert-of-backport']; assert r and r[0]['text']=='reverts ${REVERTED:0:12}, which r41 took as ${r41copy:0:12}: mainline dropped the change', r"
json "revert of an absent commit: vetoed" "c={x['id']:x for x in d['commits']}; assert any(r['code']=='revert-of-absent' for r in c['$REVERT1']['trees'][0]['verdict']['reasons'])"

# steal: later fixes picked with their candidate, in order; the reverted
# and the queued left out.
expect "steal" 0 "$sm" steal --range v4.1..v4.2 --onto linux-4.1.y --branch q41 --queue "$tmp/queue" --signoff "Stable Maintainer <stable@example.org>"
has "steal picks a later fix with it" "picked   ${LATER1:0:12} ->"
has "steal says which candidate it goes with" "(later fix of ${FIXED2:0:12})"
got=$(git log --reverse --format=%s linux-4.1.y..q41 | tr '\n' '|')
want="bar: fix a memory leak in bar_remove|baz: fix an out-of-bounds write in baz_rx|baz: return -ENODEV from baz_rx without a device|baz: count the dropped oversize frames|qux: fix a race between qux_open and qux_release|qux: drop q->lock on the error path|qux: return -EINTR when the lock wait is interrupted|qux: check for a pending signal before the lock wait|quux: fix a NULL pointer dereference in quux_probe|zap: split zap_reset out of zap_probe|"
[ "$got" = "$want" ] && ok "steal: the candidates and their later fixes, in order" || bad "steal order: $got"
msgs=$(git log --format=%B linux-4.1.y..q41)
grep -qx "commit $CHAIN3 upstream." <<<"$msgs" && ok "steal: later fix has its upstream line" || bad "steal: later fix upstream line"
expect "steal --json" 0 "$sm" steal --json --range v4.1..v4.2 --onto linux-4.1.y --branch q41b --no-upstream-ref
json "steal without look-past: no later fixes" "assert all(c['with'] is None for c in d['commits']) and len(d['commits'])==7"

# The whole series: part 3/4 is tagged, 1/4 and 2/4 are not in the tree;
# with --series-whole, 1/4 (under the lines 3/4 changes) is promoted.
expect "scan --notmuch" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --notmuch "$tmp/mail"
has "series: part k/n of the cover, missing parts" "series: part 3/4 of \"ser: fix the irq handling\" (b4 base-commit ${QUEUED:0:12})"
has "series: the parts not in the tree" "1/4 and 2/4 are not in linux-4.1.y"
# (3: with the learned model 2/4 is in the wide "maybe" net too)
has "series stats" "3 in a posted series, 0 parts promoted"
hasnt "no promotion without --series-whole" "series-part:"
expect "scan --series-whole" 0 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --notmuch "$tmp/mail" --series-whole --json
json "series-whole promotes the part the candidate needs" "c={x['id']:x for x in d['commits']}; v=c['$SER1']['trees'][0]['verdict']; assert v['verdict']=='candidate' and any(r['code']=='series-part' and 'needed by 3/4 ${SER3:0:12}' in r['text'] for r in v['reasons']), v"
json "series-whole leaves the part it does not need" "c={x['id']:x for x in d['commits']}; v=c['$SER2']['trees'][0]['verdict']; assert v['verdict']!='candidate' and not any(r['code']=='series-part' for r in v['reasons'])"
git branch -q s41 linux-4.1.y
git checkout -q s41
git commit -q --allow-empty -m "ser: add the ser_irq_valid helper" -m "commit $SER1 upstream."
git commit -q --allow-empty -m "ser: use ser_irq_valid in ser_probe" -m "commit $SER2 upstream."
git checkout -q master
expect "scan a tree with the earlier parts" 0 "$sm" scan --range v4.1..v4.2 --tree s41=4.1 --notmuch "$tmp/mail"
has "series: earlier parts in the tree" "the earlier parts are in s41"
expect "--series-whole without --notmuch" 2 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --series-whole
expect "--notmuch not a database" 1 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --notmuch "$tmp/queue"
has "names the database" "$tmp/queue: cannot open the notmuch database"

# Errors: one line naming what is wrong.
expect "unknown upstream ref" 1 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --upstream-ref nosuch
has "names the ref" "stablemate scan: upstream ref nosuch: nosuch: unknown revision"
[ "$(wc -l <<<"$out")" = 1 ] && ok "one line" || bad "one line: $out"
expect "missing queue dir" 1 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --queue "$tmp/nosuch"
has "names the queue dir" "$tmp/nosuch: cannot read the queue directory"
echo "gone.patch" >> "$tmp/queue/queue-4.1/series"
expect "series naming a missing patch" 1 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --queue "$tmp/queue"
has "names the series and patch" "queue-4.1/series names gone.patch, which cannot be read"
echo '{"cveMetadata": {"cveID": "CVE-2017-9999"' > "$tmp/cves/cve/published/2017/CVE-2017-9999.json"
expect "truncated CVE record" 1 "$sm" scan --range v4.1..v4.2 --tree linux-4.1.y --cve-dir "$tmp/cves"
has "names the record" "CVE-2017-9999.json: not a JSON CVE record"

checks_done life_cli
