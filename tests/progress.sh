#!/usr/bin/env bash
# progress.sh: the progress line on a terminal (lib/progress.h). scan,
# missing, import, harvest and train run under a real pseudo-terminal
# (util-linux script) with SM_PROGRESS_DELAY_MS=0: their stderr shows the
# line, rewritten with '\r' and ended with ", done."; with stderr redirected
# to a file, with --quiet, or before the delay has passed, nothing shows;
# standard output is the same byte for byte either way.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip "no script(1) (util-linux) for a pseudo-terminal"

bash "$SM_SRCDIR/tests/trees_mkrepo.sh" "$TMP" >/dev/null
repo=$TMP/linux
export XDG_CACHE_HOME=$TMP/cache
rules=$TMP/rules
mkdir -p "$rules"
cp "$SM_SRCDIR"/rules/keywords.rules "$SM_SRCDIR"/rules/authors.rules "$SM_SRCDIR"/rules/thresholds.rules "$rules/"
git -C "$repo" format-patch -q --stdout v4.4..v4.5 > "$TMP/w.mbox"
n=0

# on_tty OUT CMD...: runs CMD in $repo on a pseudo-terminal, its stdout to
# OUT; what the terminal shows (stderr) goes to OUT.tty.
on_tty() {
	local out=$1 cmd; shift
	cmd="cd $(printf '%q' "$repo") && $(printf '%q ' "$@") > $(printf '%q' "$out")"
	on_terminal "$cmd" > "$out.tty" || fail "on a terminal: $* failed: $(cat "$out.tty")"
}
# plain OUT CMD...: the same with stderr to OUT.err, not a terminal.
plain() {
	local out=$1; shift
	(cd "$repo" && "$@" > "$out" 2> "$out.err") || fail "$* failed: $(cat "$out.err")"
}
# check NAME LINE CMD...: CMD shows LINE (an ERE for the ", done." line) on
# a terminal, after a '\r'; shows no progress with stderr to a file, with
# -q, or with a delay longer than the run; stdout is the same in all four.
check() {
	local name=$1 line=$2; shift 2
	local o=$TMP/$name
	SM_PROGRESS_DELAY_MS=0 on_tty "$o.1" "$@"
	grepq -E $'\r'"$line, done\." "$o.1.tty" || fail "$name: no '$line, done.' on the terminal: $(cat -A "$o.1.tty")"
	[ "$(tr -cd '\r' < "$o.1.tty" | wc -c)" -ge 2 ] || fail "$name: the line is not rewritten: $(cat -A "$o.1.tty")"
	SM_PROGRESS_DELAY_MS=0 plain "$o.2" "$@"
	if grepq -E "$line|done\." "$o.2.err"; then fail "$name: progress with stderr not a terminal: $(cat "$o.2.err")"; fi
	SM_PROGRESS_DELAY_MS=0 on_tty "$o.3" "$@" -q
	if grepq -E "$line|done\." "$o.3.tty"; then fail "$name: progress under --quiet: $(cat -A "$o.3.tty")"; fi
	SM_PROGRESS_DELAY_MS=600000 on_tty "$o.4" "$@"
	if grepq -E "$line|done\." "$o.4.tty"; then fail "$name: progress before the delay: $(cat -A "$o.4.tty")"; fi
	for i in 2 3 4; do
		cmp -s "$o.1" "$o.$i" || fail "$name: stdout differs on a terminal and off it ($i)"
	done
	[ -s "$o.1" ] || [ "$name" = train ] || fail "$name: no output"
	n=$((n + 1))
}

check scan 'Scanning v4\.4\.\.v4\.5: 100% \(14/14\)' \
	"$STABLEMATE" scan --range v4.4..v4.5 --tree linux-4.1.y --tree linux-4.4.y --no-cache --json
grepq -E $'\r''Indexing linux-4\.4\.y: [0-9]+, done\.' "$TMP/scan.1.tty" || fail "scan: no index line: $(cat -A "$TMP/scan.1.tty")"
check missing 'Indexing linux-4\.4\.y: [0-9]+' \
	"$STABLEMATE" missing --no-cache linux-4.1.y linux-4.4.y
for i in 1 2 3; do mkdir -p "$TMP/db$i"; done
# import: each run into a database of its own, so that each reports the same.
SM_PROGRESS_DELAY_MS=0 on_tty "$TMP/import.1" "$STABLEMATE" import --maildir "$TMP/db1/in" --db "$TMP/db1" --mbox "$TMP/w.mbox"
grepq -E $'\r''Importing messages: 13, done\.' "$TMP/import.1.tty" || fail "import: no line: $(cat -A "$TMP/import.1.tty")"
SM_PROGRESS_DELAY_MS=0 plain "$TMP/import.2" "$STABLEMATE" import --maildir "$TMP/db2/in" --db "$TMP/db2" --mbox "$TMP/w.mbox"
if grepq 'Importing' "$TMP/import.2.err"; then fail "import: progress off a terminal"; fi
SM_PROGRESS_DELAY_MS=0 on_tty "$TMP/import.3" "$STABLEMATE" import --maildir "$TMP/db3/in" --db "$TMP/db3" --mbox "$TMP/w.mbox" -q
if grepq 'Importing' "$TMP/import.3.tty"; then fail "import: progress under --quiet"; fi
cmp -s "$TMP/import.1" "$TMP/import.2" && cmp -s "$TMP/import.1" "$TMP/import.3" || fail "import: stdout differs"
n=$((n + 1))
check harvest 'Harvesting messages: 100% \(13/13\)' \
	"$STABLEMATE" harvest --db "$TMP/db1" -C "$repo" --query '*' --dry-run --json
check train 'Fitting: 100% \([0-9]+/[0-9]+\)' \
	"$STABLEMATE" train --upstream "$repo" --range v4.4..v4.5 --trees linux-4.1.y,linux-4.4.y \
	--no-cache -o "$TMP/model.rules" -r "$rules"
grepq -E $'\r''Reading commits: 13, done\.' "$TMP/train.1.tty" || fail "train: no commit count: $(cat -A "$TMP/train.1.tty")"
echo "progress: $n commands show it on a terminal only, stdout unchanged"
