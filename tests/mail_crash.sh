#!/usr/bin/env bash
# kill -9 at every step of an import (issue 17 items 3 and 12): the importer
# SIGKILLs itself after step N (SM_TEST_CRASH_AFTER=N: a message written to
# tmp/, the batch synced, renamed into cur/, indexed, the database committed,
# the state file written), for every N; a plain rerun must then end with
# every message indexed, the public-inbox state naming the last commit, and
# no temporary file of the dead importer left in tmp/.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mail_lib.sh"
command -v notmuch >/dev/null || skip "notmuch missing"
command -v python3 >/dev/null || skip "python3 missing"

# 7 mails as files: 4 in epoch 0, 3 in epoch 1 of a public-inbox
mkdir -p "$TMP/mails"
gen_mails 7 k 2 > "$TMP/all.mbox"
python3 - "$TMP/all.mbox" "$TMP/mails" <<'PY'
import sys
parts = open(sys.argv[1]).read().split("\nFrom k-")
for i, p in enumerate(parts, 1):
    body = p.split("\n", 1)[1]
    open("%s/%02d.eml" % (sys.argv[2], i), "w").write(body.replace("\n>From ", "\nFrom "))
PY
mapfile -t files < <(ls "$TMP"/mails/*.eml)
[ "${#files[@]}" = 7 ] || fail "not 7 mails"
pi_from_files "$TMP/pi/git/0.git" "${files[@]:0:4}"
pi_from_files "$TMP/pi/git/1.git" "${files[@]:4:3}"
head1=$(git --git-dir="$TMP/pi/git/1.git" rev-parse HEAD)

# crash_loop NAME IMPORT-ARGS...: kill after step 1, 2, ... until a run ends by itself
crash_loop() {
	local name=$1 n=1 rc db; shift
	while :; do
		db=$TMP/db-$name-$n
		mkdir -p "$db"
		set +e
		# (through peak_rss: no "Killed" line from bash)
		SM_TEST_CRASH_AFTER=$n peak_rss /dev/null "$STABLEMATE" import --maildir "$db/m" \
			--db "$db" "$@" > /dev/null 2> "$TMP/crash.err"
		rc=$?
		set -e
		[ $rc = 0 ] && break
		[ $rc = 137 ] || fail "$name: step $n: exit $rc, not killed: $(cat "$TMP/crash.err")"
		left=$(find "$db/m/tmp" -type f | wc -l)
		"$STABLEMATE" import --maildir "$db/m" --db "$db" "$@" --json > "$TMP/rerun.json" \
			2> "$TMP/rerun.err" || fail "$name: rerun after step $n: $(cat "$TMP/rerun.err")"
		got=$(nm "$db" count '*')
		[ "$got" = 7 ] || fail "$name: killed after step $n, then rerun: $got of 7 indexed"
		[ -z "$(ls -A "$db/m/tmp")" ] || fail "$name: step $n: files left in tmp/: $(ls "$db/m/tmp")"
		if [ "$left" -gt 0 ]; then
			grep -q "removed $left temporary file" "$TMP/rerun.err" ||
				fail "$name: step $n: $left stale files, rerun said: $(cat "$TMP/rerun.err")"
		fi
		if [ "$name" = public-inbox ]; then
			grep -q "1.git $head1" "$db/m/.stablemate-import-state" ||
				fail "$name: step $n: the state does not name the last commit"
		fi
		rm -rf "$db"
		n=$((n + 1))
	done
	[ $n -gt 9 ] || fail "$name: only $((n - 1)) steps to kill at"
	echo "$name: killed after each of $((n - 1)) steps; every rerun indexed 7 of 7, tmp/ empty"
}

crash_loop public-inbox --public-inbox "$TMP/pi"
crash_loop mbox --mbox "$TMP/all.mbox"
echo ok
