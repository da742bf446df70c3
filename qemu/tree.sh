#!/usr/bin/env bash
# tree.sh CACHE [TARBALL [NAME]]: makes sure CACHE/linux-6.1 is a git
# repository of Debian's linux-source-6.1 with one base commit (tag sm-base),
# then resets CACHE/NAME (default linux-6.1) to that base (reset --hard +
# clean) and prints its path. Another NAME (one per architecture, so builds
# of different architectures do not wait for each other) is a linked
# worktree of linux-6.1, added once; `tree.sh CACHE TARBALL NAME --add`
# only makes sure it exists.
#
# The tarball is unpacked once, into a temporary directory next to the final
# one, committed, and renamed into place, so an interrupted first run leaves
# no half-made tree behind; its objects are then packed once. Build output
# never lives in the tree (O=...), so the clean does not cost a rebuild.
set -euo pipefail

cache=${1:?usage: tree.sh CACHE [TARBALL [NAME [--add]]]}
tarball=${2:-/usr/src/linux-source-6.1.tar.xz}
name=${3:-linux-6.1}
tree=$cache/linux-6.1
git_q() { git -C "$tree" -c core.hooksPath=/dev/null "$@"; }

if ! git -C "$tree" rev-parse -q --verify refs/tags/sm-base >/dev/null 2>&1; then
	[ -r "$tarball" ] || { echo "tree.sh: $tarball: kernel source tarball not found" >&2; exit 1; }
	mkdir -p "$cache"
	rm -rf "$tree"
	tmp=$(mktemp -d "$cache/.unpack.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	echo "tree.sh: unpacking $tarball into $tree (once)" >&2
	tar -C "$tmp" -xf "$tarball"
	src=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n 1)
	[ -f "$src/Makefile" ] || { echo "tree.sh: $tarball: no kernel tree inside" >&2; exit 1; }
	(
		cd "$src"
		git init -q
		git config user.name stablemate
		git config user.email stablemate@localhost
		git config gc.auto 0
		git add -A -f .
		git -c core.hooksPath=/dev/null commit -q -m "linux-source-6.1 (Debian) base"
		git tag sm-base
	)
	mv "$src" "$tree"
	rm -rf "$tmp"
	trap - EXIT
fi

# `git add` wrote the tree's 80,000 objects loose: every later read (a
# patch's blob, a checkout, classify --check-applies) then stats a file and
# inflates it, and libgit2's search of a loose directory for an abbreviated
# id lists it. Packed once, without a delta search (under a minute), they
# are read as from a clone. A cache made before this is packed on its next
# run.
if [ "$(git -C "$tree" count-objects | cut -d' ' -f1)" -gt 10000 ]; then
	echo "tree.sh: packing the loose objects of $tree (once)" >&2
	git_q repack -a -d -q --window=0 --depth=0
fi

if [ "$name" != linux-6.1 ]; then
	wt=$cache/$name
	if ! git -C "$wt" rev-parse -q --verify refs/tags/sm-base >/dev/null 2>&1; then
		echo "tree.sh: adding the worktree $wt (once)" >&2
		rm -rf "$wt"
		git_q worktree prune
		git_q worktree add -q --detach "$wt" sm-base
	fi
	[ "${4:-}" = --add ] && { echo "$wt"; exit 0; }
	tree=$wt
fi

# A previous run may have stopped inside `git am`.
git_q am --abort >/dev/null 2>&1 || true
git_q checkout -q -f --detach sm-base
git_q reset -q --hard sm-base
git_q clean -q -fdx
echo "$tree"
