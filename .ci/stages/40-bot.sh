#!/usr/bin/env bash
# CI stage: the bot's demo on the sample data (must finish, show a report and
# a harvested note), then a small bench/report run (500-commit window,
# 10 subscribers) to show the benchmark still works; its figures are printed,
# not judged.
set -euo pipefail
cd "$(dirname "$0")/../.."
export STABLEMATE=${STABLEMATE:-$PWD/build/stablemate}
out=$(bot/demo.sh 2>&1) || { echo "$out" | tail -20; echo "bot demo FAILED"; exit 1; }
grep -q "Notes (stable-review):" <<<"$out" || { echo "$out" | tail -20; echo "bot demo: no note shown"; exit 1; }
grep -q "Reviewed-by: Eddie James" <<<"$out" || { echo "bot demo: the review is not in the note"; exit 1; }
echo "bot demo: report composed, reply harvested into a note"
. tests/bot_smtpd.sh
if why=$(smtpd_usable); then
	bench/report --dir "${TMPDIR:-/tmp}/sm-ci-bench-report" --window 500 --subscribers 10 --regen | sed 's/^/  /'
else
	echo "bench/report skipped: $why"
fi
