#!/usr/bin/env bash
# terminal.sh: on a terminal, stablemate shows no terminal control
# characters from the text it prints (cli/terminal.h). A mail whose subject
# carries an OSC title sequence, a colour, a UTF-8 C1 CSI and a CR is
# classified on a real pseudo-terminal (util-linux script): the terminal gets
# a '?' for each, on stdout and in an error on stderr; to a pipe the bytes
# stay as they were, and JSON escapes them (DEL and C1 too) either way.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip "no script(1) (util-linux) for a pseudo-terminal"

# on_tty OUT CMD...: what a terminal shows of CMD's stdout and stderr, in OUT
on_tty() {
	local out=$1; shift
	on_terminal "$(printf '%q ' "$@")" > "$out" || true
}

printf 'From: Eve <eve@evil.example>\nSubject: [PATCH] x86: fix \033]0;owned\007a leak \033[31mnow\302\23331m\rNAKed\n\nThis fixes a use-after-free.\n\nSigned-off-by: Eve <eve@evil.example>\n' > "$TMP/evil.eml"

on_tty "$TMP/tty.out" "$STABLEMATE" classify "$TMP/evil.eml"
grepq -F 'x86: fix ?]0;owned?a leak ?[31mnow?31m?NAKed' "$TMP/tty.out" ||
	fail "the subject on a terminal: $(cat -A "$TMP/tty.out")"
grepq 'verdict: ' "$TMP/tty.out" || fail "no verdict on the terminal: $(cat -A "$TMP/tty.out")"
# script(1) turns each newline into CRLF; no other CR, no ESC, BEL or C1

if LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' <(sed 's/\r$//' "$TMP/tty.out"); then
	fail "a control character reached the terminal: $(cat -A "$TMP/tty.out")"
fi
# an error naming a file with an ESC in its name: masked on stderr too
on_tty "$TMP/err.out" "$STABLEMATE" classify "$TMP/no$(printf '\033')[2Jsuch.eml"
grepq -F "no?[2Jsuch.eml: No such file" "$TMP/err.out" || fail "stderr on a terminal: $(cat -A "$TMP/err.out")"
# to a pipe, the bytes as they are (a script gets the subject as written)
"$STABLEMATE" classify "$TMP/evil.eml" | head -1 > "$TMP/pipe.out"
grepq -F "$(printf 'fix \033]0;owned\007a leak')" "$TMP/pipe.out" || fail "the pipe's text changed: $(cat -A "$TMP/pipe.out")"
# JSON on a terminal: controls escaped by JSON, nothing for the guard to do
on_tty "$TMP/json.out" "$STABLEMATE" classify --json "$TMP/evil.eml"
grepq -F '"subject":"x86: fix \u001b]0;owned\u0007a leak \u001b[31mnow\u009b31m\rNAKed"' "$TMP/json.out" ||
	fail "JSON on a terminal: $(cat -A "$TMP/json.out")"
echo "terminal: controls of a subject and a file name shown as '?'; a pipe gets the bytes, JSON escapes them"
