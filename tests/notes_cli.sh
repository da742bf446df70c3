#!/usr/bin/env bash
# notes_cli: `stablemate notes add/show/merge` on real git repositories in a
# temp dir, read back with the plain git CLI; another maintainer's notes
# fetched with git and merged; concurrent writers; bad input.
set -euo pipefail
. "${SM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
S=$STABLEMATE T=$TMP
export GIT_AUTHOR_NAME="Up Stream" GIT_AUTHOR_EMAIL=up@example.org
export GIT_COMMITTER_NAME="Up Stream" GIT_COMMITTER_EMAIL=up@example.org
cd "$T"

# A mainline commit and its 6.1 and 6.6 backports, as Greg writes them.
git init -q linux && cd linux
echo one > f && git add f && git commit -qm "hwmon: (max6620) fix a leak"
UP=$(git rev-parse HEAD)
git checkout -qb linux-6.1.y
echo two >> f && git commit -qam "hwmon: (max6620) fix a leak

commit $UP upstream.

Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>"
ST61=$(git rev-parse HEAD)
git checkout -q -b linux-6.6.y "$UP"
echo three >> f && git commit -qam "hwmon: (max6620) fix a leak

[ Upstream commit $UP ]

Signed-off-by: Sasha Levin <sashal@kernel.org>"
ST66=$(git rev-parse HEAD)

cat > ../reviews.txt <<R
commit $UP
Review: <20240102153012.GA1@roeck-us.net>
Tree: 6.1
Author: Guenter Roeck <linux@roeck-us.net>
Date: Tue, 2 Jan 2024 07:30:12 -0800
Subject: Re: [PATCH 6.1 012/100] hwmon: (max6620) fix a leak
Link: https://lore.kernel.org/r/20240102153012.GA1@roeck-us.net
Trailers:
  Reviewed-by: Guenter Roeck <linux@roeck-us.net>
Comment:
    Looks good; tested on my max6620 board.

Review: <87a5b@jörg.example>
Tree: 6.6
Author: Jörg Rödel <joro@8bytes.org>
Date: 2024-01-03T10:00:00+01:00
Via: cover letter
Trailers:
  Nacked-by: Jörg Rödel <joro@8bytes.org>
Comment:
    NAK: this needs 1234abcd first.
R
out=$("$S" notes add ../reviews.txt)
[ "$out" = "2 reviews added, 0 already there" ] || fail "add: $out"
out=$("$S" notes add ../reviews.txt)
[ "$out" = "0 reviews added, 2 already there" ] || fail "rerun: $out"
[ "$(git rev-list --count refs/notes/stable-review)" = 1 ] || fail "rerun wrote a notes commit"

# Plain git shows the reviews on the upstream commit.
git log --notes=stable-review -1 "$UP" | grepq "^    Review: <20240102153012.GA1@roeck-us.net>" ||
	fail "git log --notes does not show the review"
git -c notes.displayRef=refs/notes/stable-review log -1 "$UP" | grepq "Nacked-by: Jörg Rödel" || fail "notes.displayRef does not show the NAK"

# Both stable commits map to the upstream one and show its reviews.
for st in "$ST61" "$ST66"; do
	out=$("$S" notes show "$st")
	echo "$out" | grepq "^Notes of upstream commit $UP (of $st):" || fail "show $st: $out"
	echo "$out" | grepq "^  Reviewed-by: Guenter Roeck" || fail "show $st: no Reviewed-by"
	echo "$out" | grepq "^2 reviews: 6.1 (1), 6.6 (1)$" || fail "show $st: count"
done
"$S" notes show "$ST66" --json > ../show.json
python3 - "$UP" "$ST66" ../show.json <<'P'
import json, sys
up, st, path = sys.argv[1:]
d = json.load(open(path, encoding="utf-8"))
assert d["commit"] == st and d["upstream"] == up, d
mids = [r["message_id"] for r in d["reviews"]]
assert mids == ["20240102153012.GA1@roeck-us.net", "87a5b@jörg.example"], mids
nak = d["reviews"][1]
assert nak["via_cover_letter"] is True and nak["tree"] == "6.6", nak
assert nak["trailers"] == ["Nacked-by: Jörg Rödel <joro@8bytes.org>"], nak
assert nak["comment"] == "NAK: this needs 1234abcd first.", nak
P
out=$("$S" notes show linux-6.1.y~1)
echo "$out" | grepq "^Notes of commit $UP:" || fail "show by upstream id: $out"

# Another maintainer clones, adds a review; we fetch their notes and merge.
cd "$T"
git clone -q linux greg
git -C greg fetch -q origin refs/notes/stable-review:refs/notes/stable-review
cat > greg.txt <<R
Review: <greg-1@kroah.com>
Tree: 5.15
Author: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
Date: Thu, 4 Jan 2024 09:00:00 +0100
Trailers:
  Acked-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
R
"$S" notes add --repo greg "$UP" greg.txt >/dev/null
cd linux
git fetch -q ../greg refs/notes/stable-review:refs/notes/remotes/greg/stable-review
out=$("$S" notes merge refs/notes/remotes/greg/stable-review)
[ "$out" = "merged refs/notes/remotes/greg/stable-review into refs/notes/stable-review: 1 notes read, 1 reviews added, 1 notes changed" ] ||
	fail "merge: $out"
[ "$(git notes --ref=stable-review show "$UP" | grep -c '^Review: ')" = 3 ] || fail "merge lost a review"
before=$(git rev-parse refs/notes/stable-review)
out=$("$S" notes merge remotes/greg/stable-review)
[ "$out" = "refs/notes/remotes/greg/stable-review: already merged into refs/notes/stable-review" ] ||
	fail "second merge: $out"
[ "$(git rev-parse refs/notes/stable-review)" = "$before" ] || fail "second merge changed the ref"

# A stable-only clone has no upstream commit, but notes can be on its id.
cd "$T"
git init -q stableonly && cd stableonly
echo x > f && git add f && git commit -qm "usb: fix a race

commit 0123456789abcdef0123456789abcdef01234567 upstream."
"$S" notes add 0123456789abcdef0123456789abcdef01234567 ../greg.txt >/dev/null
"$S" notes show HEAD | grepq "^Notes of upstream commit 0123456789abcdef0123456789abcdef01234567" ||
	fail "notes on an upstream id the repository lacks"

# Concurrent writers on the same note: nothing lost, nothing doubled.
cd "$T/linux"
for w in 1 2 3 4; do
	for i in $(seq 1 8); do
		printf 'Review: <w%s-%s@x>\nTree: 6.1\nDate: 2024-01-05T00:00:%02dZ\n\n' "$w" "$i" "$i"
	done > "../w$w.txt"
	"$S" notes add --one-by-one "$UP" "../w$w.txt" > "../w$w.out" &
done
wait
[ "$(git notes --ref=stable-review show "$UP" | grep -c '^Review: <w')" = 32 ] ||
	fail "concurrent writers lost reviews"

# The first writers of a ref race too: the ref must not exist when each
# creates it (checked under the ref's lock), so none overwrites another.
for round in 1 2 3; do
	ref=refs/notes/fresh$round
	for w in 1 2 3 4; do
		printf 'Review: <first-%s-%s@x>\nTree: 6.1\n' "$round" "$w" > "../f$w.txt"
	done
	for w in 1 2 3 4; do
		"$S" notes add --notes-ref "$ref" "$UP" "../f$w.txt" > /dev/null &
	done
	wait
	[ "$(git notes --ref="$ref" show "$UP" | grep -c '^Review: ')" = 4 ] ||
		fail "first writers of $ref lost a review"
done

# Bad input: one clear line naming the thing, non-zero exit.
set +e
err=$("$S" notes show deadbeef 2>&1); rc=$?
[ $rc = 1 ] && [ "$err" = "stablemate notes: deadbeef: no such commit in $T/linux/.git/" ] ||
	fail "unknown commit: rc=$rc $err"
printf 'Review: <ok@x>\n\nsome words that are no review\n' > ../bad.txt
err=$("$S" notes add "$UP" ../bad.txt 2>&1); rc=$?
[ $rc = 1 ] && echo "$err" | grepq "^stablemate notes: ../bad.txt: section at line 1: not a review block: 'some words that are no review'$" ||
	fail "bad input: rc=$rc $err"
err=$("$S" notes show --bogus HEAD 2>&1); rc=$?
[ $rc = 2 ] || fail "unknown option: rc=$rc"
err=$("$S" notes merge refs/notes/nonesuch 2>&1); rc=$?
[ $rc = 1 ] && echo "$err" | grepq "refs/notes/nonesuch" || fail "merge of a missing ref: rc=$rc $err"
# A lock file a dead git left behind: named, with its age, not "kept moving".
lock=$(git rev-parse --git-common-dir)/refs/notes/stable-review.lock
touch -d '2 hours ago' "$lock"
printf 'Review: <locked@x>\nTree: 6.1\n' > ../locked.txt
err=$("$S" notes add "$UP" ../locked.txt 2>&1); rc=$?
rm -f "$lock"
[ $rc = 1 ] && echo "$err" | grepq "the lock file .*refs/notes/stable-review.lock is there, 7[0-9][0-9][0-9] s old (stale)" ||
	fail "stale lock: rc=$rc $err"
echo "stale lock: $err"
"$S" notes add "$UP" ../locked.txt > /dev/null || fail "the lock gone, the write still fails"
set -e
"$S" notes --help | grepq "^usage: stablemate notes show" || fail "--help"
echo "notes_cli: all passed"
