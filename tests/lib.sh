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

# trees_repo: the trees tests' repository (tests/trees_mkrepo.sh) built in
# $TMP/linux, its commit ids (W1, C2, ...) set, the index cache kept in
# $TMP/cache, and the shell in the repository.
trees_repo() {
	export XDG_CACHE_HOME=$TMP/cache
	bash "$SM_SRCDIR/tests/trees_mkrepo.sh" "$TMP" >/dev/null 2>&1 || fail "trees_mkrepo.sh"
	. "$TMP/ids.sh"
	cd "$TMP/linux"
}

# dev_repo DIR: a new repository DIR (branch master) in $TMP, entered; dev
# runs git there as a developer, Dev <dev@example.org>
dev_repo() { cd "$TMP" && git init -q -b master "$1" && cd "$1"; }
dev() { git -c user.name=Dev -c user.email=dev@example.org "$@"; }

# skip REASON: automake's SKIP
skip() {
	echo "SKIP: $*"
	exit 77
}

# Soft checks, for tests that run many cases and report each one instead of
# stopping at the first failure (trees_cli.sh, life_cli.sh). Use them after
# `set +e`; end the test with `checks_done NAME`.
fails=0
ok() { echo "ok - $1"; }
bad() { echo "not ok - $1"; fails=$((fails + 1)); }
# expect NAME WANT_RC CMD...: runs CMD, output in $out, checks the exit code.
expect() {
	local name=$1 want=$2; shift 2
	out=$("$@" 2>&1); rc=$?
	if [ "$rc" = "$want" ]; then ok "$name"; else bad "$name (exit $rc, want $want): $out"; fi
}
# has NAME TEXT / hasnt NAME TEXT: $out holds TEXT, or does not.
has() { if grep -qF -- "$2" <<<"$out"; then ok "$1"; else bad "$1: no '$2' in: $out"; fi; }
hasnt() { if grep -qF -- "$2" <<<"$out"; then bad "$1: '$2' in: $out"; else ok "$1"; fi; }
# json NAME PYTHON: PYTHON (with d = the JSON in $out) exits 0.
json() { python3 -c "import json,sys; d=json.load(sys.stdin); $2" <<<"$out" && ok "$1" || bad "$1: $out"; }
# on_terminal CMDLINE: runs the bash command line CMDLINE on a pseudo-terminal
# (util-linux script(1)); what the terminal shows goes to stdout. script runs
# the line with $SHELL, which may be dash (CI's is): printf %q's quoting,
# $'...' for a control character, is bash's, so bash runs it.
on_terminal() { SHELL=$BASH script -qec "$1" /dev/null; }

checks_done() {
	echo "$1: $fails failed"
	[ "$fails" = 0 ]
}
