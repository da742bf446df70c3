# lib.sh: shared by the shell tests. Sourced; sets SM_SRCDIR, STABLEMATE,
# SHARED (the read-only ../shared data) and a per-test TMP removed at exit.
set -euo pipefail
: "${SM_SRCDIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${STABLEMATE:=$SM_SRCDIR/build/stablemate}"
SHARED=${SM_SHARED:-$SM_SRCDIR/../shared}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/sm-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# grepq ARGS: grep -q that reads all of its input. In "cmd | grep -q x" under
# pipefail, grep -q exits at the first match and cmd may die of SIGPIPE
# (exit 141), failing the test now and then.
grepq() { grep "$@" >/dev/null; }

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip REASON: automake's SKIP
skip() {
	echo "SKIP: $*"
	exit 77
}
