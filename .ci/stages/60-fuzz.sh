# libFuzzer on the commit/tag/trailer parser and on the MIME-to-text path,
# 60 s each, seeded with the real corpus; regression inputs replayed first.
set -euo pipefail
fuzz/run "${SM_FUZZ_SECONDS:-60}"
