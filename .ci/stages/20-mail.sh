#!/usr/bin/env bash
# CI stage (mail, issues 4 and 7.3/7.4): the b4 trailer comparison figure
# (the test in make check fails on any unlisted difference; here it is
# printed), a small bench/harvest run (1,500 messages, a day of LKML) and
# a bench/harvest-rc run (one 600-patch -rc review thread) to show the
# benchmarks still work; their figures are printed, not judged.
set -euo pipefail
. "$(dirname "$0")/shared.inc"
cd "$(dirname "$0")/../.."
build=${SM_BUILD:-$PWD/build}
export STABLEMATE=${STABLEMATE:-$build/stablemate}
SM_SRCDIR=$PWD "$build/tests/test_mail" 2>&1 | grep -E "^b4 comparison|Checks" | sed 's/^/  /'
echo "  known differences (tests/b4-known-differences.txt):"
grep -v '^#' tests/b4-known-differences.txt | cut -f1,3 | sed 's/^/    /'
nice bash bench/harvest 1500 --stablemate "$STABLEMATE" | tail -10 | sed 's/^/  /'
nice bash bench/harvest-rc --threads 1 --stablemate "$STABLEMATE" | sed 's/^/  /'
