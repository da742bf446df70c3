#!/usr/bin/env bash
# demo.sh: the bot's loop on the shipped sample data, no server needed.
# Builds a small mainline with v5.15/v6.1/v6.2 tags and two stable branches
# from the real commit messages in sample/bot/commits/, writes the
# subscribers' reports into a list Maildir (--dry-run=MAILDIR: nothing is
# sent or recorded), shows one report and one patch mail, adds a reviewer's
# reply to that list, harvests it with notmuch into a git note and shows the
# note with plain git. Takes a few seconds.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
S=${STABLEMATE:-${SM_BUILD:-$top/build}/stablemate}
[ -x "$S" ] || { echo "demo: $S not built (run ./run-tests or make first)" >&2; exit 1; }
command -v notmuch >/dev/null || { echo "demo: notmuch is not installed" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/stablemate-demo.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
if [ -t 1 ]; then say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }; else say() { printf '\n== %s\n' "$*"; }; fi

say "1. a sample mainline: $(ls "$top"/sample/bot/commits | wc -l) real kernel commits, tags v5.15 v6.1 v6.2, stable branches"
"$top/bot/sample-repo.sh" "$top/sample/bot/commits" linux >/dev/null
git -C linux log --oneline --decorate v6.1..v6.2 | sed 's/^/   /'

LIST=$T/list
mkdir -p "$LIST"/{new,cur,tmp}
printf '[database]\npath=%s\n' "$LIST" > notmuch-config
export NOTMUCH_CONFIG=$T/notmuch-config
notmuch new >/dev/null 2>&1
"$top/bot/sample-conf.sh" v6.1..v6.2 > bot.conf
cat >> bot.conf <<CONF
[notmuch]
	database = $LIST
	query = not tag:stablemate-harvested
[bot]
	from = Stable Bot <stablebot@example.org>
	listId = Stable candidates <candidates.example.org>
	stateDir = state
	cacheDir = cache
[subscriber "greg"]
	address = Greg Kroah-Hartman <greg@example.org>
	trees = linux-6.1.y
[subscriber "hwmon"]
	address = Guenter Roeck <linux@example.org>
	trees = linux-6.1.y, linux-5.15.y
	minVerdict = maybe
	paths = drivers/hwmon/
CONF
say "2. stablemate run --config bot.conf --dry-run=list/   (the reports land in the list's Maildir)"
"$S" run --config bot.conf --dry-run="$LIST" | sed 's/^/   /'

hdr() { sed -n "/^\$/q;/^$2: /I{s///p;q}" "$1"; }
cover= patch=
for f in "$LIST"/new/*; do
	[ "$(hdr "$f" X-Stablemate-Subscriber)" = greg ] || continue
	if [ -z "$(hdr "$f" X-Stablemate-Upstream)" ]; then cover=$f
	elif grep -q '^Subject: .*(occ) Fix division' "$f"; then patch=$f; fi
done
say "3. greg's report (the cover of the thread)"
sed -n '/^\(From\|To\|Subject\|Message-Id\|List-Id\|X-Stablemate-[A-Za-z]*\):/p;/^$/q' "$cover" | sed 's/^/   /'
sed '1,/^$/d' "$cover" | sed -n '1,40p' | sed 's/^/   | /'
echo "   | ..."
say "4. one patch of the thread, as a reviewer sees it in mutt"
sed -n '/^\(Subject\|In-Reply-To\|X-Stablemate-[A-Za-z]*\):/p;/^$/q' "$patch" | sed 's/^/   /'
sed '1,/^$/d' "$patch" | sed -n '1,6p' | sed 's/^/   | /'
echo "   | ..."

say "5. a reviewer answers that patch on the list (Reviewed-by + a comment)"
up=$(hdr "$patch" X-Stablemate-Upstream)
cat > "$LIST/new/reply.eml" <<MAILEOF
From: Eddie James <eajames@linux.ibm.com>
To: Stable Bot <stablebot@example.org>
Cc: stable@vger.kernel.org
Subject: Re: $(hdr "$patch" Subject)
Date: $(date -R)
Message-ID: <demo-reply-1@linux.ibm.com>
In-Reply-To: $(hdr "$patch" Message-Id)
References: $(hdr "$patch" In-Reply-To) $(hdr "$patch" Message-Id)

> commit $up upstream.
>
> The code in occ_get_powr_avg() invokes div64_u64() without checking the
> divisor.

Yes please, 6.1 has the same unchecked division.

Reviewed-by: Eddie James <eajames@linux.ibm.com>
MAILEOF
sed 's/^/   | /' "$LIST/new/reply.eml" | sed -n '1,3p;12,$p'
notmuch new >/dev/null 2>&1
say "6. stablemate harvest --db list --repo linux   (what 'stablemate run' does before reporting)"
"$S" harvest --db "$LIST" --repo linux --query 'not tag:stablemate-harvested' \
	--bot-address stablebot@example.org | sed 's/^/   /'
say "7. git log --notes=stable-review -1 ${up:0:12}"
git -C linux log --notes=stable-review -1 "$up" | sed 's/^/   /'
