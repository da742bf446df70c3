#!/usr/bin/env bash
# CI stage: trees. The unit and end-to-end tests of scan/missing/backports/
# deps/steal/yank/insert run in 'make check'; here the tests whose commits
# take the diff's libgit2 path (renames, binary files, modes, submodules)
# run again with SM_DIFF_CHECK=1, which holds every commit's diff text
# against libgit2's diff of the whole trees, and a small bench/scan run
# (3,000-commit window, 3,000-commit stable branches) shows the figures.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
sm=${SM_BUILD:-$top/build}/stablemate
[ -x "$sm" ] || { echo "30-trees: no $sm (run ./run-tests first)"; exit 1; }
echo "SM_DIFF_CHECK=1: test_trees trees_odd_commits.sh moved_files.sh"
SM_DIFF_CHECK=1 SM_TESTS="tests/test_trees tests/trees_odd_commits.sh tests/moved_files.sh" \
	"$top/run-tests"
dir=$(mktemp -d "${TMPDIR:-/tmp}/sm-ci-trees.XXXXXX")
trap 'rm -rf "$dir"' EXIT
nice "$top/bench/scan" --dir "$dir/repo" --stablemate "$sm" --window 3000 --pre 1000 --stable 3000 |
	grep -v '^lib-gen-repo:'
