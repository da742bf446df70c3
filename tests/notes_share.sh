#!/usr/bin/env bash
# notes_share.sh: three maintainers (greg, sasha, ben), each with a clone of
# one mainline, share reviews with `stablemate notes setup` and `notes sync`
# only: a review added in one repository shows in the others' plain
# `git log` (no --notes option) after one sync each, concurrent reviews of
# one commit end up as their union everywhere, setup is idempotent, and a
# remote that cannot be fetched is named while the others still sync.
# Remotes are file:// URLs and plain paths (libgit2's local transport).
. "$(dirname "$0")/lib.sh"
S=$STABLEMATE
cd "$TMP"
git init -q -b master up
for i in 1 2 3; do
	echo "$i" > up/f$i.c
	git -C up add f$i.c
	git -C up -c user.name=Dev -c user.email=dev@example.org commit -q -m "subsys: fix $i"
done
c1=$(git -C up rev-parse HEAD~2) c3=$(git -C up rev-parse HEAD)
for m in greg sasha ben; do git clone -q up $m; done

# everyone follows the other two; greg's remotes by file:// URL, the others by path
$S notes setup -C greg --remote sasha "file://$TMP/sasha" >/dev/null
$S notes setup -C greg --remote ben "file://$TMP/ben" >/dev/null
$S notes setup -C sasha --remote greg "$TMP/greg" >/dev/null
$S notes setup -C sasha --remote ben "$TMP/ben" >/dev/null
$S notes setup -C ben --remote greg "$TMP/greg" >/dev/null
out=$($S notes setup -C ben --remote sasha "$TMP/sasha")
grep -q "remote sasha added" <<<"$out" || fail "setup output: $out"
# idempotent: a second setup adds nothing
out=$($S notes setup -C ben --remote sasha "$TMP/sasha")
grep -q "already set" <<<"$out" && grep -q "refspec already there" <<<"$out" || fail "second setup: $out"
[ "$(git -C ben config --get-all remote.sasha.fetch | grep -c notes)" = 1 ] || fail "refspec doubled"
[ "$(git -C ben config --get-all notes.displayRef)" = refs/notes/stable-review ] || fail "displayRef"
# the same URL again is fine, another URL for an existing remote is refused
$S notes setup -C ben --remote sasha "$TMP/greg" 2>err && fail "setup accepted a second URL"
grep -q "exists with URL" err || fail "setup error: $(cat err)"

review() {	# review FILE MSGID AUTHOR TRAILER
	cat > "$1" <<NOTE
Review: <$2>
Tree: 6.1
Author: $3
Date: Tue, 2 Jan 2024 07:30:12 -0800
Trailers:
  $4
NOTE
}
review g.txt greg-1@kroah.com "Greg KH <greg@kroah.com>" "Acked-by: Greg KH <greg@kroah.com>"
$S notes add -C greg "$c1" g.txt >/dev/null

# one sync each: sasha and ben see greg's review in plain git log
for m in sasha ben; do
	$S notes sync -C $m > sync.out || fail "$m sync: $(cat sync.out)"
	grep -q "^greg: 1 notes read, 1 reviews added" sync.out || fail "$m sync output: $(cat sync.out)"
	log=$(git -C $m log -1 "$c1")
	grep -q "Notes (stable-review):" <<<"$log" || fail "$m: plain git log shows no notes: $log"
	grep -q "Acked-by: Greg KH <greg@kroah.com>" <<<"$log" || fail "$m: greg's review missing"
done

# concurrent reviews of one commit in sasha's and ben's repositories
review s.txt sasha-1@kernel.org "Sasha Levin <sashal@kernel.org>" "Reviewed-by: Sasha Levin <sashal@kernel.org>"
review b.txt ben-1@decadent.org.uk "Ben Hutchings <ben@decadent.org.uk>" "Tested-by: Ben Hutchings <ben@decadent.org.uk>"
$S notes add -C sasha "$c3" s.txt >/dev/null
$S notes add -C ben "$c3" b.txt >/dev/null
for m in greg sasha ben greg; do	# greg twice: he syncs before and after the others merged
	$S notes sync -C $m >/dev/null || fail "$m second sync"
done
for m in greg sasha ben; do
	log=$(git -C $m log -1 "$c3")
	for who in "Sasha Levin" "Ben Hutchings"; do
		grep -q "by: $who" <<<"$log" || fail "$m lacks $who's review of c3: $log"
	done
	[ "$($S notes show -C $m "$c1" | grep -c 'Acked-by: Greg KH')" = 1 ] || fail "$m: greg's review doubled"
done

# a remote that cannot be fetched: named, exit 1, the others still synced
git -C sasha remote add gone "$TMP/nowhere"
git -C sasha config --add remote.gone.fetch "+refs/notes/stable-review:refs/notes/remotes/gone/stable-review"
review g2.txt greg-2@kroah.com "Greg KH <greg@kroah.com>" "Acked-by: Greg KH <greg@kroah.com>"
$S notes add -C greg "$c3" g2.txt >/dev/null
$S notes sync -C sasha >sync.out 2>sync.err && fail "sync with a dead remote exited 0"
grep -q "stablemate notes: gone: fetch:" sync.err || fail "dead remote not named: $(cat sync.err)"
grep -q "^greg: .* 1 reviews added" sync.out || fail "greg not synced next to the dead remote: $(cat sync.out)"
git -C sasha log -1 "$c3" | grepq "greg-2@kroah.com" && :
[ "$($S notes show -C sasha "$c3" | grep -c 'Acked-by: Greg KH')" = 1 ] || fail "greg's second review not in sasha's notes"
echo "ok: three maintainers share reviews through notes setup and sync"
