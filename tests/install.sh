#!/usr/bin/env bash
# install.sh: `make install DESTDIR=...` puts a man page for stablemate and
# each subcommand, stablemate-config(5), stablemate-notes(5) and the bash
# completion in place; `man -l` renders each page without warnings; `man
# stablemate-scan` finds it through MANPATH; and every option a command's
# --help lists is on its man page (the pages are made from --help, so this
# is the check that they cannot drift).
. "$(dirname "$0")/lib.sh"
command -v scdoc >/dev/null || skip "no scdoc (Debian package scdoc): no man pages built"
command -v man >/dev/null || skip "no man (Debian package man-db)"
build=${SM_BUILDDIR:?}
make -s -C "$build" install DESTDIR="$TMP/inst" >"$TMP/install.log" 2>&1 ||
	fail "make install: $(tail -5 "$TMP/install.log")"
man1=$(find "$TMP/inst" -type d -path '*/man/man1')
man5=$(find "$TMP/inst" -type d -path '*/man/man5')
[ -n "$man1" ] && [ -n "$man5" ] || fail "no man1/man5 directories installed"
comp=$(find "$TMP/inst" -path '*/bash-completion/completions/stablemate')
[ -n "$comp" ] || fail "bash completion not installed"

render() { MANWIDTH=100 man --warnings -l "$1" 2>"$TMP/warn" | col -b; }
cmds=$("$STABLEMATE" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ "$(wc -w <<<"$cmds")" -ge 16 ] || fail "command list: $cmds"
main=$(render "$man1/stablemate.1")
n=0
for c in $cmds; do
	page=$man1/stablemate-$c.1
	[ -s "$page" ] || fail "no man page for $c"
	text=$(render "$page")
	[ -s "$TMP/warn" ] && fail "man warns on stablemate-$c.1: $(head -3 "$TMP/warn")"
	grep -q "^NAME" <<<"$text" || fail "stablemate-$c.1 has no NAME"
	grep -q "stablemate-$c(1)" <<<"$main" || fail "stablemate(1) does not list $c"
	for o in $("$STABLEMATE" "$c" --help | grep -oE -- '(^|[[ ,|])--[a-z][a-z0-9-]*' | sed -E 's/^[[ ,|]//' | sort -u); do
		grep -qe "$o" <<<"$text" || fail "stablemate-$c(1) lacks $o of its --help"
	done
	n=$((n + 1))
done
cfg=$(render "$man5/stablemate-config.5")
for key in upstream.repo smtp.security subscriber.NAME.trees bot.stateDir; do
	grep -q "$key" <<<"$cfg" || fail "stablemate-config(5) lacks $key"
done
notes=$(render "$man5/stablemate-notes.5")
grep -q "Review: <20240102153012.GA1@roeck-us.net>" <<<"$notes" || fail "stablemate-notes(5) lacks the example"
found=$(MANPATH="$(dirname "$man1")" man stablemate-scan 2>"$TMP/man.err" | col -b)
grep -q "stablemate-scan - " <<<"$found" ||
	fail "man stablemate-scan does not find the page through MANPATH: $(head -c 300 "$TMP/man.err")"
# The bot's systemd unit: installed where systemd reads units, naming the
# installed binary; systemd-analyze finds nothing wrong in it (its command,
# its keys, its man pages), the binary's path put under DESTDIR to check it.
unit=$(find "$TMP/inst" -path '*/lib/systemd/system/stablemate.service')
[ -n "$unit" ] || fail "the systemd unit is not installed"
exe=$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "$unit")
[ -x "$TMP/inst$exe" ] || fail "the unit's ExecStart names $exe, which make install did not put there"
if command -v systemd-analyze >/dev/null; then
	sed "s|^ExecStart=$exe|ExecStart=$TMP/inst$exe|" "$unit" > "$TMP/stablemate.service"
	MANPATH="$(dirname "$man1")" systemd-analyze verify "$TMP/stablemate.service" > "$TMP/verify.out" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$TMP/verify.out")"
	[ -s "$TMP/verify.out" ] && fail "systemd-analyze verify warns: $(cat "$TMP/verify.out")"
fi
echo "ok: $n command pages, stablemate(1), config(5), notes(5), completion and the systemd unit installed"
