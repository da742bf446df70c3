#!/usr/bin/env bash
# sample-repo.sh SAMPLE_COMMITS_DIR REPO_DIR: builds a small "mainline" git
# repository from the real kernel commit messages in SAMPLE_COMMITS_DIR
# (sample/bot/commits/*.txt), with release tags and stable branches, for the
# bot's demo and end-to-end test.
#
# Each *.txt file, in name order, is one mainline commit:
#   Author: Name <email>       the commit's author
#   File: path                 the file the commit changes (created if new)
#   Tag: v6.1                  (optional) tag this commit as a release
#   Stable: linux-6.1.y        (optional) cherry-pick it into that branch,
#                              with a "commit <sha> upstream." line
#   <empty line>, then the commit message.
# The change itself is made up (a comment naming the commit and one line of
# code); the messages, authors and trailers are real. "@NN-name@" in the message
#   becomes the abbreviated id of the commit made from NN-name.txt.
# The committer is the message's last Signed-off-by, the maintainer who
# applied it, as in mainline (Linus commits the merges, not the fixes: with
# him as every commit's committer each candidate's reasons said
# "person:any:linus").
# Every tag vX.Y also gets a branch linux-X.Y.y starting at it.
set -euo pipefail
src=$(cd "$1" && pwd) repo=$2
mkdir -p "$repo"
cd "$repo"
git init -q -b master .
git config user.name "Linus Torvalds"
git config user.email "torvalds@linux-foundation.org"
declare -A ids
picks=()
t=1700000000
for f in "$src"/*.txt; do
	name=$(basename "$f" .txt)
	author=$(sed -n 's/^Author: //p;/^$/q' "$f")
	file=$(sed -n 's/^File: //p;/^$/q' "$f")
	tag=$(sed -n 's/^Tag: //p;/^$/q' "$f")
	stable=$(sed -n 's/^Stable: //p;/^$/q' "$f")
	msg=$(sed '1,/^$/d' "$f")
	for k in "${!ids[@]}"; do
		msg=${msg//@$k@/${ids[$k]:0:12}}
	done
	subject=${msg%%$'\n'*}	# no pipe: under pipefail, head closing early kills printf
	committer=$(sed -n 's/^Signed-off-by: //p' <<<"$msg" | tail -n 1)
	[ -n "$committer" ] || committer="Linus Torvalds <torvalds@linux-foundation.org>"
	mkdir -p "$(dirname "$file")"
	[ -e "$file" ] || printf '// SPDX-License-Identifier: GPL-2.0\n' > "$file"
	n=$((${n:-0} + 1))
	id=$(basename "$file" .c | tr -c 'a-z0-9\n' _)
	printf '/* %s */\nstatic int %s_change_%d = %d;\n' "$subject" "$id" "$n" "$n" >> "$file"
	git add "$file"
	t=$((t + 3600))
	GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" \
	GIT_COMMITTER_NAME=${committer% <*} GIT_COMMITTER_EMAIL=${committer##*<} \
		git commit -q --author="$author" -F - <<<"$msg"
	ids[$name]=$(git rev-parse HEAD)
	if [ -n "$tag" ]; then
		git tag -a -m "Linux ${tag#v}" "$tag"
		git branch "linux-${tag#v}.y"
	fi
	[ -z "$stable" ] || picks+=("$stable:${ids[$name]}")
done
# the stable copies are Greg's, as their Signed-off-by says
export GIT_COMMITTER_NAME="Greg Kroah-Hartman" GIT_COMMITTER_EMAIL="gregkh@linuxfoundation.org"
for p in "${picks[@]}"; do
	branch=${p%%:*} id=${p#*:}
	git checkout -q "$branch"
	git cherry-pick "$id" >/dev/null
	{ git log -1 --format=%s "$id"; echo; echo "commit $id upstream."; echo
	  git log -1 --format=%b "$id"
	  echo "Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>"; } |
		git commit -q --amend -F -
done
git checkout -q master
