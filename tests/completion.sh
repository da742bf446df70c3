#!/usr/bin/env bash
# completion.sh: the bash completion (contrib/completion/stablemate) driven in
# a real bash: subcommands, options from each command's --help, branch names
# of the repository named on the line for --tree/--onto, "--opt=VALUE"
# forms, files for --config, and `complete -p` registering it.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
mkdir bin && ln -s "$STABLEMATE" bin/stablemate
git init -q -b master repo
git -C repo -c user.name=t -c user.email=t@e commit -q --allow-empty -m init
git -C repo branch linux-6.1.y
git -C repo branch linux-6.6.y
git -C repo branch feature
touch bot.conf bot.conf.old

# complete WORDS...: prints COMPREPLY, one per line, sorted
complete_line() {
	PATH="$TMP/bin:$PATH" bash --norc --noprofile -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_stablemate
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$SM_SRCDIR/contrib/completion/stablemate" "$@"
}
expect() {
	local want=$1; shift
	local got; got=$(complete_line "$@" | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || fail "completing '$*': got '$got', want '$want'"
}

expect "scan" stablemate sc
expect "daemon dashboard deps" stablemate d
expect "missing" stablemate mi
# options come from the command's own --help
got=$(complete_line stablemate scan --c | tr '\n' ' ')
for o in --cache-dir --candidates --check-applies; do
	grep -qw -- "$o" <<<"$got" || fail "scan --c: $o missing from '$got'"
done
got=$(complete_line stablemate dashboard --)
grep -qx -- "--out" <<<"$got" || fail "dashboard options: --out missing"
# branch names of the repository named by -C
expect "linux-6.1.y linux-6.6.y" stablemate scan --upstream repo --tree linux-
expect "--onto=linux-6.1.y" stablemate steal --repo repo --onto=linux-6.1
expect "v1..linux-6.1.y v1..linux-6.6.y" stablemate scan --upstream repo --range v1..linux
# files for --config
expect "bot.conf bot.conf.old" stablemate run --config bot.c
# notes subcommands
expect "setup show sync" stablemate notes s
# registered for the command
reg=$(bash --norc --noprofile -c '. "$1"; complete -p stablemate' _ "$SM_SRCDIR/contrib/completion/stablemate")
[ "$reg" = "complete -F _stablemate stablemate" ] || fail "complete -p: $reg"
echo "ok: bash completion of commands, options, branches, files"
