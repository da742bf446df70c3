# Classifier recall on the 3,064 kernel CVE fixes of 2024 (must stay >= 95%),
# precision on real non-fix commits, and the classifier benchmark's figure.
set -euo pipefail
. "$(dirname "$0")/shared.inc"
bench/recall --misses 10 --min 95
