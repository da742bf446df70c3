#!/usr/bin/env bash
# CI stage: threads. scan loads and diffs commits in a second thread while
# the main thread judges them; the tests that run scan (unit, CLI, cache,
# bot) run again in a ThreadSanitizer build, and any report fails the
# stage. Suppressed: libgit2's own atomics only (tests/tsan.supp).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
reports=$(mktemp -d "${TMPDIR:-/tmp}/sm-ci-tsan.XXXXXX")
trap 'rm -rf "$reports"' EXIT

# TSan needs a memory layout some kernels refuse (high mmap_rnd_bits):
# probe with a two-line program before building everything with it.
probe=$reports/probe
if ! printf 'int main(void){return 0;}\n' | cc -x c -fsanitize=thread -o "$probe" - 2>/dev/null ||
	! "$probe" >/dev/null 2>&1; then
	echo "skipped: a ThreadSanitizer program does not build or run on this machine"
	exit 77
fi
rm -f "$probe"

SM_BUILD=$top/build-tsan \
CFLAGS="-O1 -g -fsanitize=thread -fno-omit-frame-pointer" LDFLAGS="-fsanitize=thread" \
G_SLICE=always-malloc \
TSAN_OPTIONS="suppressions=$top/tests/tsan.supp halt_on_error=0 log_path=$reports/tsan" \
SM_TESTS_SANITIZED=1 \
SM_TESTS="tests/test_trees tests/trees_cli.sh tests/scan_cache.sh tests/scan_agrees.sh tests/bot_e2e.sh" \
	"$top/run-tests"
rc=$?
# A report goes to a file of its own (log_path): a test that expects
# stablemate to fail would not notice one on its stderr.
shopt -s nullglob
logs=("$reports"/tsan.*)
if [ ${#logs[@]} -gt 0 ]; then
	echo "ThreadSanitizer: ${#logs[@]} process(es) reported data races:"
	head -60 "${logs[@]}"
	exit 1
fi
echo "ThreadSanitizer: no report"
exit $rc
