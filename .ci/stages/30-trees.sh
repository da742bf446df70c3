#!/usr/bin/env bash
# CI stage: trees. The unit and end-to-end tests of scan/missing/backports/
# deps/steal/yank/insert run in 'make check'; here a small bench/scan run
# (3,000-commit window, 3,000-commit stable branches) shows the figures.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
sm=${SM_BUILD:-$top/build}/stablemate
[ -x "$sm" ] || { echo "30-trees: no $sm (run ./run-tests first)"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/sm-ci-trees.XXXXXX")
trap 'rm -rf "$dir"' EXIT
nice "$top/bench/scan" --dir "$dir/repo" --stablemate "$sm" --window 3000 --pre 1000 --stable 3000 |
	grep -v '^lib-gen-repo:'
