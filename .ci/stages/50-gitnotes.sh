#!/usr/bin/env bash
# CI stage: a small bench/notes run (300 reviews on 100 commits) to show
# the benchmark still works and that stablemate's notes and git's own hold
# the same reviews, and a small bench/scan-notes run (a 1,000-commit
# window, one commit in ten with a review note), which fails when the
# notes change a verdict no NAK explains; figures are printed, not judged.
set -euo pipefail
cd "$(dirname "$0")/../.."
export STABLEMATE=${STABLEMATE:-$PWD/build/stablemate}
nice bash bench/notes 300 100 | sed 's/^/  /'
nice bash bench/scan-notes --dir "${TMPDIR:-/tmp}/sm-ci-bench-scan-notes" --window 1000 --runs 2 | sed 's/^/  /'
