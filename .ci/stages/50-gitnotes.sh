#!/usr/bin/env bash
# CI stage: a small bench/notes run (300 reviews on 100 commits) to show
# the benchmark still works and that stablemate's notes and git's own hold
# the same reviews; its figures are printed, not judged.
set -euo pipefail
cd "$(dirname "$0")/../.."
export STABLEMATE=${STABLEMATE:-$PWD/build/stablemate}
nice bash bench/notes 300 100 | sed 's/^/  /'
