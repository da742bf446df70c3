#!/bin/sh
# gen-man.sh STABLEMATE SRCDIR OUTDIR: renders every man page into OUTDIR.
#   stablemate(1)            doc/man/stablemate.1.scd, with the command list
#                            of `stablemate --help` put in
#   stablemate-CMD(1)        from `stablemate CMD --help` (help2scd.py), plus
#                            doc/man/stablemate-CMD.extra.scd when present
#   stablemate-config(5),    cut from README.md's sections (md2scd.py)
#   stablemate-notes(5)
# scdoc (Debian package scdoc) turns each .scd into roff.
set -eu
sm=$1 src=$2 out=$3
mkdir -p "$out"
tab=$(printf '\t')
"$sm" --help | sed -n "/^Commands:/,/^\$/s/^  \([a-z][a-z-]*\)  *\(.*\)/\1$tab\2/p" > "$out/commands.txt"
[ -s "$out/commands.txt" ] || { echo "gen-man: no command list from $sm --help" >&2; exit 1; }

: > "$out/commands.scd"
while IFS="$tab" read -r cmd summary; do
	page=$out/stablemate-$cmd.1
	"$sm" "$cmd" --help | python3 "$src/doc/man/help2scd.py" "$cmd" "$summary" > "$page.scd"
	if [ -f "$src/doc/man/stablemate-$cmd.extra.scd" ]; then
		cat "$src/doc/man/stablemate-$cmd.extra.scd" >> "$page.scd"
	fi
	scdoc < "$page.scd" > "$page"
	printf '*%s*(1)\n\t%s\n\n' "stablemate-$cmd" "$summary" >> "$out/commands.scd"
done < "$out/commands.txt"

awk -v list="$out/commands.scd" '
	/^@COMMANDS@$/ { while ((getline l < list) > 0) print l; next }
	{ print }' "$src/doc/man/stablemate.1.scd" | scdoc > "$out/stablemate.1"

python3 "$src/doc/man/md2scd.py" "$src/README.md" "### Configuration" stablemate-config 5 \
	"the stablemate bot's configuration file (git-config syntax)" | scdoc > "$out/stablemate-config.5"
python3 "$src/doc/man/md2scd.py" "$src/README.md" "## The review-note format (refs/notes/stable-review)" \
	stablemate-notes 5 "the review-note format of refs/notes/stable-review" | scdoc > "$out/stablemate-notes.5"
