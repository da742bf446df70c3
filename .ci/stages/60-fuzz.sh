# libFuzzer on the commit/tag/trailer parser, the MIME-to-text path, the
# record stream and the review-note parser,
# 60 s each, seeded with the real corpus; regression inputs replayed first.
set -euo pipefail
fuzz/run "${SM_FUZZ_SECONDS:-60}"
