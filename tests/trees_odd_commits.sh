#!/usr/bin/env bash
# trees_odd_commits.sh: commits that git shows otherwise than they are stored.
# - A commit in another charset: made under i18n.commitEncoding=iso-8859-1
#   (as some old kernel commits were), it holds its message and names in
#   Latin-1 with an "encoding" header; git log shows it in UTF-8. scan must
#   read it so (its subject matches the UTF-8 backport of a stable tree), and
#   steal and yank, which write commits, write UTF-8 as git cherry-pick does.
# - A renamed file: git show finds the rename (diff.renames), so the diff is
#   the lines that changed, not the whole file deleted and added. scan must
#   see the diff so too: same patch-id as git patch-id, same verdict as
#   classify gives git show's text.
# - A copy made with `git cherry-pick -x` of a commit that names its own
#   origin already (drm's and amdgpu's fixes end in "(cherry picked from
#   commit <-next id>)"): the copy names the -next id first and mainline's
#   last. scan must take the last: the tree has the fix.
. "${SM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
set +e	# soft checks: every case runs and is reported (lib.sh)
top=$SM_SRCDIR sm=$STABLEMATE
export XDG_CACHE_HOME=$TMP/cache

dir=$TMP
. "$top/tests/gitrepo.sh"
latin1_name=$'J\xf6rg R\xf6del'
mkfile drivers/net/cafe.c 20
tick; git add -A; git commit -qm "net: add the cafe driver"; git tag v6.0
setline drivers/net/cafe.c 2 "	int comment = 0; /* the driver's buffers */"
tick; git commit -qam "net: cafe: say what the buffers are"; record A0
setline drivers/net/cafe.c 5 "	kfree(buf);"
tick
GIT_AUTHOR_NAME=$latin1_name git -c i18n.commitEncoding=iso-8859-1 commit -qa -F <(
	printf 'net: fix leak in the caf\xe9 driver\n\nThe caf\xe9 driver leaks its buffer on close.\n\n'
	printf 'Reported-by: J\xf6rg R\xf6del <jr@example.org>\nSigned-off-by: J\xf6rg R\xf6del <jr@example.org>\n')
record L1
setline drivers/net/cafe.c 10 "	if (!dev) return -ENODEV;"
tick; git commit -qam "net: cafe: fix a NULL pointer dereference in open"; record C2
mkfile drivers/net/old_name.c 60
tick; git add -A; git commit -qm "net: add the old_name driver"; record ADD
git mv drivers/net/old_name.c drivers/net/new_name.c
setline drivers/net/new_name.c 30 "	if (!priv) return -ENOMEM;"
tick; git commit -qam "net: new_name: fix a NULL pointer dereference in probe" -m "Renamed on the way."
record RENAME_FIX
git mv drivers/net/new_name.c drivers/net/newer_name.c
tick; git commit -qm "net: rename new_name.c to newer_name.c"; record RENAME
# a directory of 1,200 files moved (libgit2 alone would pair each added file
# with the first 1,000 deleted ones only) and a line fixed elsewhere
mkdir -p drivers/old
for i in $(seq 1 1200); do printf 'int f%d(void)\n{\n\treturn %d;\n}\n' "$i" "$i" > "drivers/old/f$i.c"; done
tick; git add -A; git commit -qm "drivers: add the old drivers"
git mv drivers/old drivers/new
setline drivers/net/cafe.c 12 "	kfree(priv);"
tick; git commit -qam "drivers: move old/ to new/ and fix a leak in cafe"; record MOVE
# a device-tree match entry added between two others: git's diff (indent
# heuristic) adds "{ ... }," whole, libgit2's plain one "}, { ..." across
# two entries, which hid the device-ID entry from scan
mkdir -p drivers/clocksource
printf '%s\n' 'static const struct of_device_id cmt_of_table[] = {' '	{' \
	'		.compatible = "renesas,cmt-48",' '		.data = &cmt_info[CMT_48BIT]' '	},' '	{' \
	'		.compatible = "renesas,rcar-gen2-cmt0",' '		.data = &cmt_info[CMT0_RCAR_GEN2]' '	},' \
	'	{ }' '};' > drivers/clocksource/cmt.c
tick; git add -A; git commit -qm "clocksource/drivers/cmt: add the driver"
sed -i '5a\	{\n\t\t.compatible = "renesas,r8a7740-cmt1",\n\t\t.data = \&cmt_info[CMT_48BIT]\n\t},' \
	drivers/clocksource/cmt.c
tick; git commit -qam "clocksource/drivers/cmt: r8a7740 SoC-specific match"; record DT_ID
git tag v6.1
# linux-6.0.y carries L1 backported by hand: same subject (in UTF-8, as
# cherry-pick writes it), another change, no upstream line.
git checkout -q -b linux-6.0.y v6.0
setline drivers/net/cafe.c 6 "	kfree(buf); /* backport */"
tick; git commit -qam "net: fix leak in the café driver"
git branch linux-6.0b v6.0
git checkout -q master

git cat-file commit "$L1" | grepq -a -x "encoding iso-8859-1" && ok "the test commit is Latin-1" ||
	bad "the test commit has no encoding header"

expect "scan" 0 "$sm" scan --range v6.0..v6.1 --tree linux-6.0.y=6.0 --no-cache
has "scan shows the subject in UTF-8" "${L1:0:12} net: fix leak in the café driver"
has "present by its UTF-8 subject" "present: already in linux-6.0.y as"
expect "scan --json" 0 "$sm" scan --range v6.0..v6.1 --tree linux-6.0.y=6.0 --no-cache --json
json "scan --json: subject, author and Reported-by in UTF-8" "
c={x['id']:x for x in d['commits']}['$L1']
assert c['subject']=='net: fix leak in the café driver', c['subject']
assert c['author']=='Jörg Rödel <dev@example.org>', c['author']
assert c['trees'][0]['present_as'], c
assert any(r['text']=='Jörg Rödel <jr@example.org>' for r in c['verdict']['reasons']), c"

expect "scan of renames --json" 0 "$sm" scan --range "$ADD..v6.1" --tree linux-6.0.y=6.0 --no-cache --json
# (the patch-id of a rename with changes is git's when libgit2's similarity
# figure is git's: they are worked out differently, and at times a point apart)
for c in RENAME_FIX RENAME MOVE DT_ID; do
	pid=$(git show "${!c}" | git patch-id --stable | cut -c1-40)
	score=$(git show "${!c}" | "$sm" classify --json - | python3 -c "import json,sys; print(json.load(sys.stdin)['verdict']['score'])")
	json "$c: scan's patch-id and score are git show's" "
c={x['id']:x for x in d['commits']}['${!c}']
assert c['patch_id']=='$pid', (c['patch_id'], '$pid')
assert c['verdict']['score']==$score, (c['verdict']['score'], $score)
assert not any(r['code']=='whitespace-only' for r in c['verdict']['reasons']), c"
done
json "DT_ID: scan sees the device-ID entry git show has" "
c={x['id']:x for x in d['commits']}['$DT_ID']
assert any(r['code']=='device-id' for r in c['verdict']['reasons']), c['verdict']"

expect "steal" 0 "$sm" steal --range v6.0..v6.1 --onto linux-6.0b=6.0 --branch q --include-maybe --no-cache \
	--signoff "Stable Maintainer <stable@example.org>"
stolen=$(git log --format=%H --grep="^commit $L1 upstream" q)
raw=$(git cat-file commit "$stolen")
grepq -x "author Jörg Rödel <dev@example.org> [0-9]* +0000" <<<"$raw" &&
	grepq -x "net: fix leak in the café driver" <<<"$raw" &&
	grepq -x "Reported-by: Jörg Rödel <jr@example.org>" <<<"$raw" &&
	! grepq "^encoding " <<<"$raw" && ok "steal wrote the commit in UTF-8" ||
	bad "steal wrote: $raw"

git branch y master
expect "yank" 0 "$sm" yank y "$A0"
replayed=$(git log --format=%H --grep="leaks its buffer" -1 y)
raw=$(git cat-file commit "$replayed")
[ "$replayed" != "$L1" ] && grepq -x "author Jörg Rödel <dev@example.org> [0-9]* +0000" <<<"$raw" &&
	grepq -x "The café driver leaks its buffer on close." <<<"$raw" &&
	! grepq "^encoding " <<<"$raw" && ok "yank replayed the commit in UTF-8" ||
	bad "yank replayed: $raw"
[ "$(git log --format=%an%n%B -1 "$replayed")" = "$(git log --format=%an%n%B -1 "$L1")" ] &&
	ok "git log shows the replayed commit as the original" || bad "git log differs"

# A tree that picks a drm fix with cherry-pick -x: two "(cherry picked from"
# lines, the -next id (not in this repository) first.
dir=$TMP/cx
. "$top/tests/gitrepo.sh"
mkfile drivers/gpu/drm/i915/cafe.c 20
tick; git add -A; git commit -qm "drm/i915: add cafe"; git tag v6.0
git branch linux-6.0.y
setline drivers/gpu/drm/i915/cafe.c 7 "	if (!obj) return -ENOENT;"
tick; git commit -qa -F - <<'MSG'
drm/i915: fix a NULL pointer dereference in cafe

The object may be gone by now.

Signed-off-by: A Dev <dev@example.org>
(cherry picked from commit aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)
Signed-off-by: The Fixes Maintainer <fixes@example.org>
MSG
record DRM_FIX
git checkout -q linux-6.0.y
tick; git cherry-pick -x "$DRM_FIX" >/dev/null
record DRM_COPY
git checkout -q master
[ "$(git log -1 --format=%B "$DRM_COPY" | grep -c '^(cherry picked from')" = 2 ] &&
	ok "the copy names two origins" || bad "the copy: $(git log -1 --format=%B "$DRM_COPY")"
expect "scan of a cherry-pick -x copy --json" 0 "$sm" scan --range v6.0..master --tree linux-6.0.y=6.0 --no-cache --json
json "the copy of a drm fix is found by its last cherry-pick line" "
c={x['id']:x for x in d['commits']}['$DRM_FIX']
t=c['trees'][0]
assert t['present'] and t['present_as']=='$DRM_COPY', t
assert not t['candidate'], t"

checks_done trees_odd_commits
