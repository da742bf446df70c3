#!/usr/bin/env bash
# trees_clone.sh: the tree commands in the repositories maintainers have,
# not only the one the tests build: a fresh clone (the stable branches
# only as origin/linux-X.Y.y, as `git clone` of linux-stable leaves them),
# a version alone for a branch (4.4: linux-4.4.y), a stable branch checked
# out and an unborn HEAD (scan still reads mainline past the range), a
# local branch behind the one it tracks, two remotes with a branch of the
# same name, a subdirectory, GIT_DIR and -C a subdirectory, a repository
# another user owns, lightweight release tags, linked work trees. Each gets
# the verdicts of the repository it was cloned from; a partial clone, which
# libgit2 cannot read whole, is refused in one line.
. "${SM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
set +e	# soft checks: every case runs and is reported (lib.sh)
top=$SM_SRCDIR sm=$STABLEMATE tmp=$TMP
trees_repo
src=$tmp/linux

# verdicts SCAN-JSON: each commit's verdict and tree reasons, one line a commit
verdicts() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
for c in d["commits"]:
    print(c["id"][:12], *[t["verdict"]["verdict"] + ":" + ",".join(r["code"] for r in t["verdict"]["reasons"]
          if r["code"].startswith(("bug-", "fix-for-fix", "present", "prereq"))) for t in c["trees"]])'
}
expect "scan of the source repository" 0 "$sm" scan -C "$src" --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y --json
want=$(verdicts <<<"$out")
has "it has tree reasons" "bug-not-in-tree"

# A fresh clone: the stable branches are origin/linux-4.1.y and origin/linux-4.4.y.
git clone -q "$src" "$tmp/clone"
git -C "$tmp/clone" rev-parse -q --verify refs/heads/linux-4.1.y >/dev/null && bad "the clone has no local linux-4.1.y"
expect "scan in a fresh clone, branches by their names" 0 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y --json
got=$(verdicts <<<"$out")
[ "$got" = "$want" ] && ok "the clone's verdicts are the source's" || bad "verdicts differ: $got // $want"
expect "classify --repo --tree 4.1 in a fresh clone" 0 "$sm" classify --repo "$tmp/clone" --tree 4.1 < <(git -C "$src" show "$W3")
has "bug-not-in-tree there too" "the Fixes: target ${C2:0:12} first appeared in v4.4, after 4.1"
expect "missing in a fresh clone" 0 "$sm" missing -C "$tmp/clone" linux-4.1.y linux-4.4.y
has "missing compares them" "linux-4.4.y"
expect "steal in the source repository" 0 "$sm" steal -C "$src" --range v4.4..v4.5 --onto linux-4.1.y --branch w-src
picks_src=$(grep -oE "^  (picked|left out) +[0-9a-f]{12}" <<<"$out")
# (a clone has no user.name of its own; CI's HOME has none either)
expect "steal onto a remote-tracking branch in a fresh clone" 0 "$sm" steal -C "$tmp/clone" --range v4.4..v4.5 --onto linux-4.1.y --branch w-clone --signoff "Test Maintainer <maint@example.org>"
picks_clone=$(grep -oE "^  (picked|left out) +[0-9a-f]{12}" <<<"$out")
[ -n "$picks_src" ] && [ "$picks_clone" = "$picks_src" ] && ok "the same picks" || bad "picks differ: $picks_clone // $picks_src"
[ "$(git -C "$tmp/clone" rev-parse w-clone~2)" = "$(git -C "$tmp/clone" rev-parse origin/linux-4.1.y)" ] &&
	ok "the new branch starts at origin/linux-4.1.y" || bad "w-clone does not start at origin/linux-4.1.y"
expect "train --trees in a fresh clone" 0 "$sm" train -q --upstream "$tmp/clone" --range v4.4..v4.5 --trees linux-4.1.y,linux-4.4.y -o "$tmp/model.rules"

# A version alone names kernel.org's branch, as classify --tree 6.1 does:
# 4.1 is linux-4.1.y (here origin/linux-4.1.y), for every tree command.
expect "scan --tree 4.1 --tree 4.4 in the fresh clone" 0 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree 4.1 --tree 4.4 --json
got=$(verdicts <<<"$out")
[ "$got" = "$want" ] && ok "the verdicts of linux-4.1.y and linux-4.4.y" || bad "verdicts differ: $got // $want"
json "JSON names the branch read" "assert [(t['name'], t['branch']) for t in d['trees']] == [('4.1', 'origin/linux-4.1.y'), ('4.4', 'origin/linux-4.4.y')], d['trees']"
expect "scan --tree 4.4, text" 0 "$sm" scan -C "$src" --range v4.4..v4.5 --tree 4.4
has "the tree line names the branch" "tree 4.4 (4.4, branch linux-4.4.y): index"
expect "scan --tree linux-4.4.y, text" 0 "$sm" scan -C "$src" --range v4.4..v4.5 --tree linux-4.4.y
has "a branch given by name is not named twice" "tree linux-4.4.y (4.4): index"
expect "missing 4.1 4.4 in the fresh clone" 0 "$sm" missing -C "$tmp/clone" 4.1 4.4
has "missing compares the two branches" "in 4.1, not in 4.4"
expect "train --trees 4.1,4.4" 0 "$sm" train -q --upstream "$tmp/clone" --range v4.4..v4.5 --trees 4.1,4.4 -o "$tmp/model-v.rules"
[ "$(grep -v '^# trained on' "$tmp/model-v.rules")" = "$(grep -v '^# trained on' "$tmp/model.rules")" ] &&
	ok "the model of --trees linux-4.1.y,linux-4.4.y" || bad "train --trees 4.1,4.4 fits another model"
expect "a version without its branch" 1 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree 4.9
has "one line names both names" "4.9: unknown revision in $tmp/clone/, and no branch linux-4.9.y either"
expect "a release of a tree is no tree" 1 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree 4.4.1
hasnt "it is not taken for linux-4.4.y" "linux-4.4.y"
# A stable branch checked out, as when applying patches in linux-stable:
# scan still looks past the range in mainline (master), not in the stable
# branch, whose history names none of the later fixes and reverts.
git -C "$tmp/clone" checkout -q -b linux-4.4.y origin/linux-4.4.y
expect "scan with linux-4.4.y checked out" 0 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree 4.1 --tree 4.4
has "it reads master past the range" "upstream master: index"
has "and says why" "commits from the range start (HEAD's linux-4.4.y does not hold v4.5)"
has "a later fix is found as with master checked out" "fixed-later: take together: ${W4:0:12}"
git -C "$tmp/clone" checkout -q master
git -C "$tmp/clone" branch -q -D linux-4.4.y
expect "scan with master checked out" 0 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree 4.4 --json
json "HEAD's branch, no note" "assert d['lifecycle']['ref'] == 'master' and d['lifecycle']['note'] is None, d['lifecycle']"
# git init, then fetch: HEAD is unborn. It was "upstream ref HEAD: HEAD:
# unknown revision" and no scan at all.
git init -q "$tmp/fetched"
git -C "$tmp/fetched" remote add stable "$src"
git -C "$tmp/fetched" fetch -q --tags stable
expect "scan where HEAD is unborn" 0 "$sm" scan -C "$tmp/fetched" --range v4.4..v4.5 --tree 4.4
has "the remote's master is read" "upstream stable/master: index"
has "said why" "(HEAD is unborn)"
has "a later fix is found" "fixed-later: take together: ${W4:0:12}"
expect "--upstream-ref master where only stable/master is" 0 "$sm" scan -C "$tmp/fetched" --range v4.4..v4.5 --tree 4.4 --upstream-ref master
has "it is the remote's, as a tree's branch name resolves" "upstream stable/master: index"
git -C "$tmp/fetched" update-ref -d refs/remotes/stable/master
expect "scan where no branch holds the range's end" 0 "$sm" scan -C "$tmp/fetched" --range v4.4..v4.5 --tree 4.4 --json
json "the range alone, and said" "assert d['lifecycle']['ref'] == 'v4.5' and d['lifecycle']['note'] == 'HEAD is unborn and no master or main holds v4.5: nothing past it is read', d['lifecycle']"
expect "--upstream-ref names it" 0 "$sm" scan -C "$tmp/fetched" --range v4.4..v4.5 --tree 4.4 --upstream-ref v4.5 --json
json "no note then" "assert d['lifecycle']['note'] is None, d['lifecycle']"
# yank and insert rewrite a local branch: 4.4 is the local linux-4.4.y
cp -r "$src" "$tmp/yank44"
old_tip=$(git -C "$tmp/yank44" rev-parse linux-4.4.y)
expect "yank from 4.4 (a local linux-4.4.y)" 0 "$sm" yank -C "$tmp/yank44" 4.4 linux-4.4.y~1
has "the branch's backup" "old tip kept in refs/stablemate/backup/linux-4.4.y"
[ "$(git -C "$tmp/yank44" rev-parse refs/stablemate/backup/linux-4.4.y)" = "$old_tip" ] &&
	[ "$(git -C "$tmp/yank44" rev-list --count "$old_tip..linux-4.4.y")" = 1 ] &&
	ok "linux-4.4.y was rewritten" || bad "linux-4.4.y was not rewritten"
expect "yank from 4.9 (no linux-4.9.y)" 1 "$sm" yank -C "$tmp/yank44" 4.9 linux-4.4.y~1
has "the usual error" "4.9: no such local branch in"
git -C "$tmp/clone" branch -q 4.1 origin/linux-4.4.y
expect "a branch named 4.1 is that branch" 0 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree 4.1 --json
json "not linux-4.1.y" "assert d['trees'][0]['branch'] == '4.1', d['trees']"
git -C "$tmp/clone" branch -q -D 4.1

# A local branch that tracks origin's and lags it (git status: "behind 1"):
# used as it is, and said, since what the tree took since looks missing.
git -C "$tmp/clone" branch -q --track linux-4.1.y origin/linux-4.1.y
git -C "$tmp/clone" update-ref refs/heads/linux-4.1.y origin/linux-4.1.y~1
expect "scan of a local branch behind its upstream" 0 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y
has "the tree line says so" "tree linux-4.1.y (4.1): index new; 1 commit behind origin/linux-4.1.y, which it tracks: what the tree took since looks missing (git pull)"
hasnt "not for the other tree" "tree linux-4.4.y (4.4): index new;"
expect "scan --json of it" 0 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y --json
json "behind in JSON" "assert [t['behind'] for t in d['trees']] == [{'upstream': 'origin/linux-4.1.y', 'commits': 1}, None], d['trees']"
expect "classify --repo for it" 0 "$sm" classify --repo "$tmp/clone" --tree 4.1 < <(git -C "$src" show "$W3")
has "a warning" "warning: linux-4.1.y: 1 commit behind origin/linux-4.1.y, which it tracks"
git -C "$tmp/clone" branch -q -D linux-4.1.y

# Two remotes with a linux-4.1.y: which one is meant is the user's to say.
git -C "$tmp/clone" remote add mine "$src"
git -C "$tmp/clone" fetch -q mine
expect "two remotes with the branch" 1 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree linux-4.1.y
has "names both" "linux-4.1.y: no such branch here, and several remotes have one (origin/linux-4.1.y, mine/linux-4.1.y): name one"
expect "one named" 0 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree origin/linux-4.1.y=4.1 -q
expect "a branch no remote has" 1 "$sm" scan -C "$tmp/clone" --range v4.4..v4.5 --tree linux-4.9.y
has "the usual error" "linux-4.9.y: unknown revision in"

# Found as git finds a repository: from a directory in the work tree, by
# GIT_DIR (a hook, a script), -C a subdirectory; each was "not a git
# repository" (only the top of a work tree, or a .git directory, was).
expect "scan from a subdirectory" 0 bash -c 'cd "$1/fs" && "$2" scan --range v4.4..v4.5 --tree 4.4 --json' _ "$src" "$sm"
got=$(verdicts <<<"$out")
[ "$got" = "$(verdicts < <("$sm" scan -C "$src" --range v4.4..v4.5 --tree 4.4 --json))" ] &&
	ok "the verdicts of the work tree's top" || bad "from a subdirectory: $got"
expect "scan with GIT_DIR from elsewhere" 0 bash -c 'cd "$1" && GIT_DIR="$2/.git" "$3" scan --range v4.4..v4.5 --tree 4.4' _ "$tmp" "$src" "$sm"
has "it reads that repository" "scan v4.4..v4.5 in .: 14 commits"
expect "scan -C a subdirectory" 0 "$sm" scan -C "$src/fs" --range v4.4..v4.5 --tree 4.4
expect "missing from a subdirectory" 0 bash -c 'cd "$1/fs" && "$2" missing 4.1 4.4' _ "$src" "$sm"
mkdir -p "$tmp/plain"
expect "a directory in no repository" 1 bash -c 'cd "$1" && GIT_CEILING_DIRECTORIES="$2" "$3" scan --range v4.4..v4.5 --tree 4.4' _ "$tmp/plain" "$tmp" "$sm"
has "is still not one" ".: not a git repository"

# A repository another user owns (a bot running as its own user on the
# maintainer's clone): git refuses it, and so does libgit2; the error says
# so and how to allow it, not "not a git repository". Needs root to chown.
if [ "$(id -u)" = 0 ] && cp -r "$src" "$tmp/owned" && chown -R nobody "$tmp/owned" 2>/dev/null; then
	mkdir -p "$tmp/home-none" "$tmp/home-other" "$tmp/home-safe"
	printf '[safe]\n\tdirectory = /elsewhere\n' > "$tmp/home-other/.gitconfig"
	printf '[safe]\n\tdirectory = %s\n' "$tmp/owned" > "$tmp/home-safe/.gitconfig"
	for h in none other; do
		expect "scan of a repository nobody owns (safe.directory: $h)" 1 env HOME="$tmp/home-$h" "$sm" scan -C "$tmp/owned" --range v4.4..v4.5 --tree 4.4
		has "what git says, and what to do" "$tmp/owned: owned by another user, which git refuses (dubious ownership); if you trust it: git config --global --add safe.directory $tmp/owned"
	done
	printf 'From x@y Thu Jan  1 00:00:00 1970\nFrom: A <a@example.org>\nSubject: [PATCH] x\nMessage-ID: <o@example.org>\n\nx\n' > "$tmp/owned.mbox"
	"$sm" import --maildir "$tmp/owned-db/m" --db "$tmp/owned-db" --mbox "$tmp/owned.mbox" > /dev/null
	expect "harvest's repository too" 1 env HOME="$tmp/home-none" "$sm" harvest --db "$tmp/owned-db" --repo "$tmp/owned"
	has "the same line" "$tmp/owned: owned by another user, which git refuses (dubious ownership)"
	expect "with safe.directory set, it is read" 0 env HOME="$tmp/home-safe" "$sm" scan -C "$tmp/owned" --range v4.4..v4.5 --tree 4.4 --json
	got=$(verdicts <<<"$out")
	[ -n "$got" ] && ok "verdicts" || bad "no verdicts: $out"
else
	echo "# not root: a repository another user owns is not tried"
fi

# Lightweight release tags (git tag v4.1, not -a): the same graph.
cp -r "$src" "$tmp/light"
for t in $(git -C "$tmp/light" tag -l); do
	c=$(git -C "$tmp/light" rev-parse "$t^{commit}")
	git -C "$tmp/light" tag -f "$t" "$c" >/dev/null
done
[ "$(git -C "$tmp/light" cat-file -t v4.1)" = commit ] && ok "the tags are lightweight" || bad "v4.1 is still a tag object"
expect "scan with lightweight tags" 0 "$sm" scan -C "$tmp/light" --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y --json
got=$(verdicts <<<"$out")
[ "$got" = "$want" ] && ok "lightweight tags give the same verdicts" || bad "verdicts differ: $got // $want"
# Linked work trees (git worktree add): read like the repository; a branch
# checked out in any of them is not rewritten (its files and index would
# hold the yanked commit as a change), as git branch -f refuses.
cp -r "$src" "$tmp/wtmain"
git -C "$tmp/wtmain" worktree add -q "$tmp/wt" linux-4.4.y
expect "scan from a linked work tree" 0 "$sm" scan -C "$tmp/wt" --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y --json
got=$(verdicts <<<"$out")
[ "$got" = "$want" ] && ok "the work tree's verdicts are the source's" || bad "verdicts differ: $got // $want"
tip=$(git -C "$tmp/wtmain" rev-parse linux-4.4.y)
expect "yank a branch checked out in a linked work tree" 1 "$sm" yank -C "$tmp/wtmain" linux-4.4.y linux-4.4.y~1
has "names that work tree" "linux-4.4.y: is checked out in $tmp/wt; switch to another branch first"
[ "$(git -C "$tmp/wtmain" rev-parse linux-4.4.y)" = "$tip" ] && ok "the branch did not move" || bad "linux-4.4.y moved"
[ -z "$(git -C "$tmp/wt" status --porcelain)" ] && ok "the work tree is clean" || bad "the work tree changed: $(git -C "$tmp/wt" status --porcelain)"
expect "insert from the linked work tree into the main one's branch" 1 "$sm" insert -C "$tmp/wt" --after HEAD~2 master "$W3"
has "names the main work tree" "master: is checked out in $tmp/wtmain"

# A partial clone (git clone --filter=blob:none): libgit2 cannot fetch the
# blobs it lacks, so every command that opens it says so, first.
git -C "$src" config uploadpack.allowFilter true
git clone -q --filter=blob:none --no-checkout "file://$src" "$tmp/partial"
expect "scan in a partial clone" 1 "$sm" scan -C "$tmp/partial" --range v4.4..v4.5 --tree linux-4.1.y
has "says what it is, in one line" "$tmp/partial: partial clone (its blobs come from 'origin' on demand, which libgit2 cannot fetch); stablemate reads diffs and notes: clone it without --filter"
[ "$(wc -l <<<"$out")" = 1 ] && ok "one line" || bad "more than one line: $out"
expect "classify --repo in a partial clone" 1 "$sm" classify --repo "$tmp/partial" < <(git -C "$src" show "$W3")
has "the same line" "partial clone"
checks_done trees_clone
