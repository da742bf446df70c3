#!/usr/bin/env bash
# stablemate harvest end to end: a real notmuch database, a real upstream git
# repository, the notes read back with plain git.
#  - fixture stable thread (tests/fixtures/mail/README.md): Tested-by to the
#    cover reaches both patches, quoted trailers and the bot are ignored, a
#    NAK, "commit X upstream." and "[ Upstream commit X ]" mapping;
#  - latin-1 and base64 replies; a message whose file went bad: one line, skipped;
#  - --dry-run writes nothing; a rerun does nothing; a crash between the
#    note write and the recorded revision does not duplicate the review; a notes ref
#    moved by another writer (plain git) keeps its text;
#  - a stable FAILED notice: recorded on the original it pastes, as is an
#    "added to the tree" notice; the answer to either goes on that original,
#    for its tree;
#  - patches reviewed before they are merged: kept, found once upstream
#    moves (by subject, or by a Link: to the mail), their reviews noted;
#    a patch that arrives after the answer to it: the answer noted;
#    a fix pasted in a reply: the answer to it goes on that fix;
#  - real hwmon stable threads mapped by subject against an upstream history.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mail_lib.sh"
fx=$SM_SRCDIR/tests/fixtures/mail
ref=refs/notes/stable-review

up=$TMP/up
upstream_repo "$up"
base=$(commit_file "$up" README "linux" "Linux 6.10")
sha1=$(commit_file "$up" drivers/hwmon/lm90.c "int limit = 10;" "hwmon: (lm90) Fix the limit")
sha2=$(commit_file "$up" drivers/hwmon/pmbus.c "int page; int checked;" "hwmon: (pmbus) Check the page")
sed -e "s/@SHA1@/$sha1/" -e "s/@SHA2@/${sha2:0:12}/" "$fx/stable-thread.mbox.in" > "$TMP/thread.mbox"
as_mbox "$fx/latin1-reply.eml" "$fx/base64-tested.eml" >> "$TMP/thread.mbox"

db=$TMP/db
mkdir -p "$db"
"$STABLEMATE" import --maildir "$db/stable" --db "$db" --mbox "$TMP/thread.mbox" > /dev/null
# A message whose file is damaged after indexing: harvest names it and goes on.
printf 'From: x <x@example.org>\nTo: stable@vger.kernel.org\nMessage-ID: <damaged@example.org>\nIn-Reply-To: <p1@kernel.org>\nSubject: Re: [PATCH 6.1 001/002] hwmon: (lm90) Fix the limit\n\nAcked-by: x <x@example.org>\n' > "$TMP/damaged.eml"
as_mbox "$TMP/damaged.eml" > "$TMP/damaged.mbox"
"$STABLEMATE" import --maildir "$db/stable" --db "$db" --mbox "$TMP/damaged.mbox" > /dev/null
damaged=$(nm "$db" search --output=files id:damaged@example.org)
cp "$fx/broken.eml" "$damaged"

H() { "$STABLEMATE" harvest --db "$db" --repo "$up" --bot-address bot@stablemate.example "$@"; }

# 1. dry run: what would be written, nothing written
H --dry-run --json > "$TMP/dry.json" 2> "$TMP/dry.err"
[ "$(json_get "$TMP/dry.json" stats.messages)" = 10 ] || fail "dry run saw $(json_get "$TMP/dry.json" stats)"
[ "$(json_get "$TMP/dry.json" stats.mapped)" = 2 ] || fail "dry run mapped $(json_get "$TMP/dry.json" stats)"
git -C "$up" rev-parse -q --verify "$ref" >/dev/null && fail "dry run wrote notes"
nm "$db" config list | grepq '^stablemate\.harvest-' && fail "dry run recorded a revision"

# 2. the real run
H --json > "$TMP/h1.json" 2> "$TMP/h1.err"
cat "$TMP/h1.err"
[ "$(json_get "$TMP/h1.json" stats.skipped_broken)" = 1 ] || fail "damaged file not skipped"
grep -q "damaged@example.org" "$TMP/h1.err" || fail "warning does not name the message"
[ "$(grep -c . "$TMP/h1.err")" = 1 ] || fail "more than one warning line"
[ "$(json_get "$TMP/h1.json" stats.patches)" = 2 ] || fail "patches: $(json_get "$TMP/h1.json" stats)"
# p1: Jon (via cover), Rene (via cover, base64), Rita, Joerg (latin-1); p2: Jon, Rene, Guenter
[ "$(json_get "$TMP/h1.json" stats.reviews_added)" = 7 ] || fail "reviews: $(json_get "$TMP/h1.json" stats)"
git -C "$up" notes --ref="$ref" show "$sha1" > "$TMP/n1.txt"
git -C "$up" notes --ref="$ref" show "$sha2" > "$TMP/n2.txt"
for id in tested@nvidia.com reviewed@example.com latin1-reply@example.de base64-tested@example.org; do
	grep -q "<$id>" "$TMP/n1.txt" || fail "note on lm90 lacks $id"
done
grep -q "Reviewed-by: Rita Reviewer <reviewer@example.com>" "$TMP/n1.txt" || fail "Rita's trailer missing"
grep -qF "Reviewed-by: Jörg Müller <joerg@example.de>" "$TMP/n1.txt" || fail "latin-1 trailer missing or not UTF-8: $(grep joerg "$TMP/n1.txt")"
grep -qF "Tested-by: René Tester <rene@example.org>" "$TMP/n1.txt" || fail "base64 trailer missing: $(grep rene@ "$TMP/n1.txt")"
grep -q "Via: cover letter" "$TMP/n1.txt" || fail "cover-letter reply not marked"
grep -q "Quoted Person" "$TMP/n1.txt" && fail "quoted trailer harvested"
grep -q "bot@stablemate.example" "$TMP/n1.txt" && fail "the bot's own reply harvested"
grep -q "Nacked-by: Guenter Maintainer <guenter@example.net>" "$TMP/n2.txt" || fail "NAK missing"
grep -q "lore.kernel.org/r/nak@example.net" "$TMP/n2.txt" || fail "lore link missing"
grep -q "6.1" "$TMP/n2.txt" || fail "tree missing"
[ "$(nm "$db" config list | grep -c '^stablemate\.harvest-[0-9a-f]*=')" = 1 ] || fail "no revision recorded"
[ "$(nm "$db" count tag:stablemate-harvested)" = 0 ] || fail "messages were tagged"
echo "first run: $(json_get "$TMP/h1.json" stats)"

# 3. rerun: no work
H --json > "$TMP/h2.json" 2>/dev/null
[ "$(json_get "$TMP/h2.json" stats.messages)" = 0 ] || fail "rerun processed messages again"
git -C "$up" notes --ref="$ref" show "$sha1" | cmp -s - "$TMP/n1.txt" || fail "rerun changed the note"

# 4. another writer (a person with plain git) moved the notes ref meanwhile
git -C "$up" -c user.name=Human -c user.email=h@example.org notes --ref="$ref" append \
	-m "Checked on my boards too. -- a human" "$sha1"

# 5. crash between the note write and the recorded revision
printf 'From: Late Reviewer <late@example.com>\nTo: stable@vger.kernel.org\nMessage-ID: <late@example.com>\nIn-Reply-To: <p1@kernel.org>\nSubject: Re: [PATCH 6.1 001/002] hwmon: (lm90) Fix the limit\nDate: Tue, 02 Jul 2024 10:00:00 +0000\n\nAcked-by: Late Reviewer <late@example.com>\n' > "$TMP/late.eml"
as_mbox "$TMP/late.eml" > "$TMP/late.mbox"
"$STABLEMATE" import --maildir "$db/stable" --db "$db" --mbox "$TMP/late.mbox" > /dev/null
set +e
SM_HARVEST_CRASH_AFTER_NOTE=1 H > /dev/null 2>&1; rc=$?
set -e
[ $rc -eq 3 ] || fail "the crash hook did not fire (rc $rc)"
[ "$(git -C "$up" notes --ref="$ref" show "$sha1" | grep -c '^Review: <late@example.com>')" = 1 ] ||
	fail "the note was not written before the crash"
H --dry-run --json > "$TMP/hd.json" 2>/dev/null
[ "$(json_get "$TMP/hd.json" stats.messages)" = 1 ] || fail "after the crash the late message is not pending"
H --json > "$TMP/h3.json" 2>/dev/null
[ "$(json_get "$TMP/h3.json" stats.reviews_added)" = 0 ] || fail "review added twice"
[ "$(json_get "$TMP/h3.json" stats.reviews_known)" = 1 ] || fail "review not recognised: $(json_get "$TMP/h3.json" stats)"
[ "$(git -C "$up" notes --ref="$ref" show "$sha1" | grep -c '^Review: <late@example.com>')" = 1 ] ||
	fail "review duplicated after the crash"
H --json > "$TMP/h4.json" 2>/dev/null
[ "$(json_get "$TMP/h4.json" stats.messages)" = 0 ] || fail "the late message is pending after the rerun"
git -C "$up" notes --ref="$ref" show "$sha1" | grepq "Checked on my boards too. -- a human" ||
	fail "the other writer's note text was lost"
grep -q "^Review: <reviewed@example.com>" <(git -C "$up" notes --ref="$ref" show "$sha1") ||
	fail "earlier reviews lost"
echo "crash between note and revision: review stored once, nothing pending after the rerun"
echo "notes ref moved by another writer: its text kept, the new review merged in"

# 5b. a patch the maintainer applied under another subject, its diff changed
# too (no subject or patch-id finds it), is found by the commit's Link: to it
mkdir -p "$up/drivers/hwmon"
printf 'int limit = read_limit(); /* once */\n' > "$up/drivers/hwmon/tmp401.c"
git -C "$up" add drivers/hwmon/tmp401.c
git -C "$up" commit -q -F - <<'MSG'
hwmon: (tmp401) Read the limit register once

The limit was read twice, and the second read could see a torn value.

Signed-off-by: Ann Author <ann@example.org>
Link: https://lore.kernel.org/r/20240105.linkmap@example.org
Signed-off-by: Guenter Roeck <linux@roeck-us.net>
MSG
linked=$(git -C "$up" rev-parse HEAD)
cat > "$TMP/linked-patch.eml" <<'EOF'
From: Ann Author <ann@example.org>
To: linux-kernel@vger.kernel.org
Subject: [PATCH v2] hwmon: tmp401: fix a double read of the limit
Date: Fri, 05 Jan 2024 10:00:00 +0000
Message-ID: <20240105.linkmap@example.org>

The limit was read twice.

Signed-off-by: Ann Author <ann@example.org>
---
diff --git a/drivers/hwmon/tmp401.c b/drivers/hwmon/tmp401.c
--- a/drivers/hwmon/tmp401.c
+++ b/drivers/hwmon/tmp401.c
@@ -1 +1 @@
-int limit = read_limit() + read_limit();
+int limit = read_limit();
EOF
cat > "$TMP/linked-reply.eml" <<'EOF'
From: Rita Reviewer <reviewer@example.com>
To: linux-kernel@vger.kernel.org
Subject: Re: [PATCH v2] hwmon: tmp401: fix a double read of the limit
Date: Fri, 05 Jan 2024 12:00:00 +0000
Message-ID: <20240105.linkmap-reply@example.com>
In-Reply-To: <20240105.linkmap@example.org>

> The limit was read twice.

Right, and the torn read is real on my board.

Reviewed-by: Rita Reviewer <reviewer@example.com>
EOF
as_mbox "$TMP/linked-patch.eml" "$TMP/linked-reply.eml" > "$TMP/linked.mbox"
"$STABLEMATE" import --maildir "$db/linked" --db "$db" --mbox "$TMP/linked.mbox" > /dev/null
H --query 'path:linked/**' --json > "$TMP/h5.json" 2> "$TMP/h5.err" || fail "harvest: $(cat "$TMP/h5.err")"
[ "$(json_get "$TMP/h5.json" stats.mapped)" = 1 ] || fail "linked patch: $(json_get "$TMP/h5.json" stats)"
git -C "$up" notes --ref="$ref" show "$linked" > "$TMP/n5.txt" || fail "no note on the linked commit"
grep -q "^Review: <20240105.linkmap-reply@example.com>" "$TMP/n5.txt" || fail "linked: $(cat "$TMP/n5.txt")"
grep -q "Reviewed-by: Rita Reviewer <reviewer@example.com>" "$TMP/n5.txt" || fail "linked: no trailer"
echo "a patch applied under another subject: mapped by the commit's Link: to its Message-ID"

# list_thread NAME SUBJECT DATE DAY BODY: a patch mail <DAY.NAME@example.org>
# on the list and Rita's Reviewed-by reply to it, imported into $db/NAME
list_thread() {
	cat > "$TMP/$1.eml" <<EOF
From: Dev One <dev@example.org>
To: linux-hwmon@vger.kernel.org
Subject: [PATCH] $2
Date: $3 10:00:00 +0000
Message-ID: <$4.$1@example.org>

$5

Signed-off-by: Dev One <dev@example.org>
EOF
	cat > "$TMP/$1-reply.eml" <<EOF
From: Rita Reviewer <reviewer@example.com>
To: linux-hwmon@vger.kernel.org
Subject: Re: [PATCH] $2
Date: $3 12:00:00 +0000
Message-ID: <$4.$1-reply@example.com>
In-Reply-To: <$4.$1@example.org>

Reviewed-by: Rita Reviewer <reviewer@example.com>
EOF
	as_mbox "$TMP/$1.eml" "$TMP/$1-reply.eml" > "$TMP/$1.mbox"
	"$STABLEMATE" import --maildir "$db/$1" --db "$db" --mbox "$TMP/$1.mbox" > /dev/null
}

# 5b. a commit made with "git commit" keeps a subject's double space, the
# mail's subject is read with one (as git mailinfo reads it): mapped
spaced=$(commit_file "$up" drivers/hwmon/it87.c "int div = 8;" "hwmon: (it87)  Fix the  fan divisor")
list_thread spaced "hwmon: (it87)  Fix the  fan divisor" "Sat, 06 Jan 2024" 20240106 "The divisor is 8."
H --query 'path:spaced/**' --json > "$TMP/h5b.json" 2> "$TMP/h5b.err" || fail "harvest: $(cat "$TMP/h5b.err")"
[ "$(json_get "$TMP/h5b.json" stats.mapped)" = 1 ] || fail "spaced subject: $(json_get "$TMP/h5b.json" stats) $(cat "$TMP/h5b.err")"
git -C "$up" notes --ref="$ref" show "$spaced" | grepq "^Review: <20240106.spaced-reply@example.com>" ||
	fail "no note on the commit whose subject has double spaces"
echo "a subject with double spaces: mapped as git mailinfo would read it"

# 5c. a stable branch checked out (a maintainer applying patches in a
# linux-stable clone): a list patch maps to the upstream commit, not to the
# tree's backport of the same subject, so every tree sees its review
shunt=$(commit_file "$up" drivers/hwmon/ina2xx.c "int shunt = 1;" "hwmon: (ina2xx) Fix the shunt resistor")
git -C "$up" checkout -q -b linux-6.1.y "$base"
backport=$(commit_file "$up" drivers/hwmon/ina2xx.c "int shunt = 1;" "hwmon: (ina2xx) Fix the shunt resistor")
list_thread shunt "hwmon: (ina2xx) Fix the shunt resistor" "Sun, 07 Jan 2024" 20240107 "The shunt is 1 milliohm."
H --query 'path:shunt/**' --dry-run --json > "$TMP/h5c.json" 2> "$TMP/h5c.err" || fail "harvest: $(cat "$TMP/h5c.err")"
[ "$(json_get "$TMP/h5c.json" stats.upstream_ref)" = master ] ||
	fail "with linux-6.1.y checked out, mapped against $(json_get "$TMP/h5c.json" stats.upstream_ref)"
[ "$(json_get "$TMP/h5c.json" stats.upstream_note)" = "HEAD's linux-6.1.y is a stable branch" ] ||
	fail "the reason: $(json_get "$TMP/h5c.json" stats.upstream_note)"
H --query 'path:shunt/**' > "$TMP/h5c.txt" 2>&1 || fail "harvest: $(cat "$TMP/h5c.txt")"
grepq "^harvest: patches mapped against master (HEAD's linux-6.1.y is a stable branch)$" "$TMP/h5c.txt" ||
	fail "the text does not say what it mapped against: $(cat "$TMP/h5c.txt")"
git -C "$up" notes --ref="$ref" show "$shunt" | grepq "^Review: <20240107.shunt-reply@example.com>" ||
	fail "no note on the upstream commit"
git -C "$up" notes --ref="$ref" show "$backport" > /dev/null 2>&1 && fail "a note on the stable backport"
git -C "$up" checkout -q master
H --query 'path:shunt/**' --dry-run --json > "$TMP/h5d.json" 2>/dev/null
[ "$(json_get "$TMP/h5d.json" stats.upstream_ref)" = master ] && [ "$(json_get "$TMP/h5d.json" stats.upstream_note)" = None ] ||
	fail "with master checked out: $(json_get "$TMP/h5d.json" stats)"
# git init, then fetch: HEAD is unborn, master is only origin/master; the
# bot's upstream.branch "master" names it, as a tree's branch name does
git init -q "$TMP/fetched-up"
git -C "$TMP/fetched-up" remote add origin "$up"
git -C "$TMP/fetched-up" fetch -q origin
for refarg in "" "--upstream-ref master"; do
	# shellcheck disable=SC2086
	"$STABLEMATE" harvest --db "$db" --repo "$TMP/fetched-up" --query 'path:shunt/**' --dry-run --json $refarg \
		> "$TMP/h5e.json" 2> "$TMP/h5e.err" || fail "harvest ${refarg:-(default)}: $(cat "$TMP/h5e.err")"
	[ "$(json_get "$TMP/h5e.json" stats.upstream_ref)" = origin/master ] &&
		[ "$(json_get "$TMP/h5e.json" stats.mapped)" = 1 ] ||
		fail "harvest ${refarg:-(default)} with only origin/master: $(json_get "$TMP/h5e.json" stats)"
done
[ "$(json_get "$TMP/h5e.json" stats.upstream_note)" = None ] || fail "a ref given needs no reason"
# a clone of the stable branch alone: nothing else to map against, and said
git clone -q --single-branch -b linux-6.1.y "$up" "$TMP/stable-only"
"$STABLEMATE" harvest --db "$db" --repo "$TMP/stable-only" --query 'path:shunt/**' --dry-run --json \
	> "$TMP/h5f.json" 2> "$TMP/h5f.err" || fail "harvest of a stable-only clone: $(cat "$TMP/h5f.err")"
[ "$(json_get "$TMP/h5f.json" stats.upstream_ref)" = linux-6.1.y ] &&
	[ "$(json_get "$TMP/h5f.json" stats.upstream_note)" = "HEAD's linux-6.1.y is a stable branch, and no master or main is here" ] ||
	fail "a stable-only clone: $(json_get "$TMP/h5f.json" stats)"
echo "a stable branch checked out: list patches still map to mainline's commits"

# 5g. the stable scripts' FAILED notice pastes the original commit under
# "original commit in Linus's tree": its author's answer is a review of that
# commit for the notice's tree, found by the pasted id even when a newer
# commit has the same subject (the subject index takes the newest)
race=$(commit_file "$up" drivers/hwmon/max16065.c "int v = READ_ONCE(adc);" "hwmon: (max16065) Use READ_ONCE")
newer_race=$(commit_file "$up" drivers/hwmon/max16065.c "int v = READ_ONCE(adc); int f = READ_ONCE(fault);" \
	"hwmon: (max16065) Use READ_ONCE")
cat > "$TMP/failed.eml" <<EOF
From: Sasha Levin <sashal@kernel.org>
To: stable@vger.kernel.org, dev@example.org
Subject: FAILED: Patch "hwmon: (max16065) Use READ_ONCE" failed to apply to 6.12-stable tree
Date: Sat, 28 Feb 2026 20:26:55 -0500
Message-ID: <20260301012655.failed-6.12@kernel.org>

The patch below does not apply to the 6.12-stable tree.
If someone wants it applied there, or to any other stable or longterm
tree, then please email the backport, including the original git commit
id to <stable@vger.kernel.org>.

Possible dependencies:

${race:0:12} ("hwmon: (max16065) Use READ_ONCE")
5a2b3c4d5e6f ("hwmon: (max16065) Add the fault register")

Thanks,
Sasha

------------------ original commit in Linus's tree ------------------

From $race Mon Sep 17 00:00:00 2001
From: Dev One <dev@example.org>
Date: Tue, 3 Feb 2026 20:14:43 +0800
Subject: [PATCH] hwmon: (max16065) Use READ_ONCE

The value was read twice.

Cc: stable@vger.kernel.org
Signed-off-by: Dev One <dev@example.org>
---
diff --git a/drivers/hwmon/max16065.c b/drivers/hwmon/max16065.c
--- a/drivers/hwmon/max16065.c
+++ b/drivers/hwmon/max16065.c
@@ -1 +1 @@
-int v = adc;
+int v = READ_ONCE(adc);
EOF
cat > "$TMP/failed-reply.eml" <<'EOF'
From: Dev One <dev@example.org>
To: stable@vger.kernel.org
Subject: Re: FAILED: Patch "hwmon: (max16065) Use READ_ONCE" failed to apply to 6.12-stable tree
Date: Sun, 01 Mar 2026 09:00:00 +0000
Message-ID: <20260301.failed-reply@example.org>
In-Reply-To: <20260301012655.failed-6.12@kernel.org>

6.12 reads the value once already: the race came in with 6.13.

Please drop it from 6.12.
EOF
as_mbox "$TMP/failed.eml" "$TMP/failed-reply.eml" > "$TMP/failed.mbox"
"$STABLEMATE" import --maildir "$db/failed" --db "$db" --mbox "$TMP/failed.mbox" > /dev/null
H --query 'path:failed/**' --json > "$TMP/h5g.json" 2> "$TMP/h5g.err" || fail "harvest: $(cat "$TMP/h5g.err")"
[ "$(json_get "$TMP/h5g.json" stats.mapped)" = 1 ] || fail "FAILED notice: $(json_get "$TMP/h5g.json" stats)"
git -C "$up" notes --ref="$ref" show "$race" > "$TMP/n5g.txt" 2>/dev/null ||
	fail "no note on the commit the notice names: $(git -C "$up" notes --ref="$ref" show "$newer_race" 2>&1)"
grepq "^Review: <20260301.failed-reply@example.org>" "$TMP/n5g.txt" || fail "FAILED reply: $(cat "$TMP/n5g.txt")"
grepq "^Tree: 6.12$" "$TMP/n5g.txt" || fail "FAILED reply without the notice's tree: $(cat "$TMP/n5g.txt")"
grepq "Nacked-by: Dev One <dev@example.org>" "$TMP/n5g.txt" || fail "the drop request is no NAK: $(cat "$TMP/n5g.txt")"
git -C "$up" notes --ref="$ref" show "$newer_race" > /dev/null 2>&1 && fail "a note on the newer commit of that subject"
# the notice itself is recorded on the same note, as a block that is no review
[ "$(json_get "$TMP/h5g.json" stats.notices_added)" = 1 ] || fail "FAILED notice not recorded: $(json_get "$TMP/h5g.json" stats)"
[ "$(json_get "$TMP/h5g.json" stats.reviews_added)" = 1 ] || fail "FAILED notice counted as a review: $(json_get "$TMP/h5g.json" stats)"
python3 - "$TMP/n5g.txt" <<'PY' || fail "FAILED notice block: $(cat "$TMP/n5g.txt")"
import sys
blocks = open(sys.argv[1]).read().split("\n\n")
notice = [b for b in blocks if b.startswith("Review: <20260301012655.failed-6.12@kernel.org>")]
assert len(notice) == 1, blocks
lines = notice[0].splitlines()
assert "Tree: 6.12" in lines and "Notice: failed to apply" in lines, lines
assert "Author: Sasha Levin <sashal@kernel.org>" in lines, lines
assert not any(l.startswith("Trailers:") for l in lines), lines
# its list of possible dependencies, without the patch itself
i = lines.index("Comment:")
assert lines[i + 1:] == ["    Possible dependencies, as the stable queue's script lists them:",
                         '    5a2b3c4d5e6f ("hwmon: (max16065) Add the fault register")'], lines
PY
"$STABLEMATE" notes show "$race" --repo "$up" > "$TMP/s5g.txt" || fail "notes show: $(cat "$TMP/s5g.txt")"
grepq "^1 review: 6.12 (1)$" "$TMP/s5g.txt" || fail "notes show counts the notice as a review: $(cat "$TMP/s5g.txt")"
grepq "^stable queue: failed to apply to 6.12 (Sat, 28 Feb 2026 20:26:55 -0500)$" "$TMP/s5g.txt" ||
	fail "notes show: no stable queue line: $(cat "$TMP/s5g.txt")"
"$STABLEMATE" classify "$TMP/failed.eml" > "$TMP/failed-classify.txt" 2>&1 ||
	fail "classify: $(cat "$TMP/failed-classify.txt")"
grepq "^$race  hwmon: (max16065) Use READ_ONCE$" "$TMP/failed-classify.txt" ||
	fail "classify does not name the pasted commit: $(cat "$TMP/failed-classify.txt")"
grepq '^  pasted in: FAILED: Patch "hwmon: (max16065) Use READ_ONCE" failed to apply to 6.12-stable tree$' \
	"$TMP/failed-classify.txt" || fail "classify does not say where it was pasted: $(cat "$TMP/failed-classify.txt")"
echo "a FAILED notice: recorded on the pasted original, and its answer is a review of it for the notice's tree"

# 5h. a fix proposed in a reply, pasted as format-patch wrote it: the
# Tested-by answering it is a review of that fix (by its title), for the
# tree of the -rc it answered, and no review of the -rc's patch
fault=$(commit_file "$up" drivers/hwmon/max16065.c "int f = READ_ONCE(fault) & 1;" \
	"hwmon: (max16065) Check the fault bit alone")
cat > "$TMP/rc.eml" <<'EOF'
From: Greg KH <gregkh@linuxfoundation.org>
To: stable@vger.kernel.org
Subject: [PATCH 6.1 1/1] hwmon: (lm90) Fix the limit
Date: Mon, 02 Mar 2026 09:00:00 +0000
Message-ID: <20260302.rc-patch@kernel.org>

commit 1111111111111111111111111111111111111111 upstream.
---
diff --git a/drivers/hwmon/lm90.c b/drivers/hwmon/lm90.c
--- a/drivers/hwmon/lm90.c
+++ b/drivers/hwmon/lm90.c
@@ -1 +1 @@
-int limit = 9;
+int limit = 10;
EOF
cat > "$TMP/rc-fix.eml" <<'EOF'
From: Dev One <dev@example.org>
To: stable@vger.kernel.org
Subject: Re: [PATCH 6.1 1/1] hwmon: (lm90) Fix the limit
Date: Mon, 02 Mar 2026 10:00:00 +0000
Message-ID: <20260302.rc-fix@example.org>
In-Reply-To: <20260302.rc-patch@kernel.org>

This one needs the fault fix below on 6.1 too. Please try it.

From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001
From: Dev One <dev@example.org>
Date: Mon, 2 Mar 2026 09:58:00 +0000
Subject: [PATCH] hwmon: (max16065) Check the fault bit
 alone

The fault register has other bits.

Signed-off-by: Dev One <dev@example.org>
---
diff --git a/drivers/hwmon/max16065.c b/drivers/hwmon/max16065.c
--- a/drivers/hwmon/max16065.c
+++ b/drivers/hwmon/max16065.c
@@ -1 +1 @@
-int f = READ_ONCE(fault);
+int f = READ_ONCE(fault) & 1;
EOF
cat > "$TMP/rc-tested.eml" <<'EOF'
From: Tess Tester <tess@example.org>
To: stable@vger.kernel.org
Subject: Re: [PATCH 6.1 1/1] hwmon: (lm90) Fix the limit
Date: Mon, 02 Mar 2026 12:00:00 +0000
Message-ID: <20260302.rc-tested@example.org>
In-Reply-To: <20260302.rc-fix@example.org>

> Please try it.

It fixes my board.

Tested-by: Tess Tester <tess@example.org>
EOF
as_mbox "$TMP/rc.eml" "$TMP/rc-fix.eml" "$TMP/rc-tested.eml" > "$TMP/rc.mbox"
"$STABLEMATE" import --maildir "$db/rcfix" --db "$db" --mbox "$TMP/rc.mbox" > /dev/null
H --query 'path:rcfix/**' --json > "$TMP/h5h.json" 2> "$TMP/h5h.err" || fail "harvest: $(cat "$TMP/h5h.err")"
git -C "$up" notes --ref="$ref" show "$fault" > "$TMP/n5h.txt" 2>/dev/null ||
	fail "no note on the pasted fix: $(json_get "$TMP/h5h.json" stats) $(cat "$TMP/h5h.err")"
grepq "^Review: <20260302.rc-tested@example.org>" "$TMP/n5h.txt" || fail "pasted fix: $(cat "$TMP/n5h.txt")"
grepq "^Tree: 6.1$" "$TMP/n5h.txt" || fail "pasted fix without the tree it answered: $(cat "$TMP/n5h.txt")"
grepq "^Subject: hwmon: (max16065) Check the fault bit alone$" "$TMP/n5h.txt" ||
	fail "pasted fix's note names another subject: $(cat "$TMP/n5h.txt")"
grepq "Tested-by: Tess Tester <tess@example.org>" "$TMP/n5h.txt" || fail "pasted fix: no Tested-by"
grepq "rc-fix@example.org" "$TMP/n5h.txt" && fail "the proposer's own words stored as a review"
echo "a fix pasted in a reply: its Tested-by goes on that fix, for the tree it answered"

# 5i. the stable queue's notice that a patch "has been added to the
# 6.12-stable tree" pastes the queue's copy (an mbox "From " line of a
# sender, "[ Upstream commit X ]"): "Please don't pick this change yet."
# answering it is a NAK of X for 6.12
queued=$(commit_file "$up" fs/f2fs/gc.c "if (!valid) continue;" "f2fs: fix to avoid migrating empty section")
cat > "$TMP/added.eml" <<EOF
From: Greg KH <gregkh@linuxfoundation.org>
To: stable-commits@vger.kernel.org
Subject: Patch "f2fs: fix to avoid migrating empty section" has been added to the 6.12-stable tree
Date: Thu, 05 Mar 2026 10:00:00 +0100
Message-ID: <2026030500-added-f2fs@gregkh>

This is a note to let you know that I've just added the patch titled

    f2fs: fix to avoid migrating empty section

to the 6.12-stable tree which can be found at:
    http://www.kernel.org/git/?p=linux/kernel/git/stable/stable-queue.git;a=summary


From stable+bounces-223179-greg=kroah.com@vger.kernel.org Thu Mar  5 09:48:57 2026
From: Robert Garcia <rob_garcia@163.com>
Date: Thu,  5 Mar 2026 16:48:03 +0800
Subject: f2fs: fix to avoid migrating empty section
Message-ID: <20260305084803.210354-1-rob_garcia@163.com>

From: Chao Yu <chao@kernel.org>

[ Upstream commit $queued ]

Check whether the current section is empty before GC.

Signed-off-by: Chao Yu <chao@kernel.org>
---
--- a/fs/f2fs/gc.c
+++ b/fs/f2fs/gc.c
@@ -1 +1 @@
-if (0) continue;
+if (!valid) continue;
EOF
cat > "$TMP/added-reply.eml" <<'EOF'
From: Chao Yu <chao@kernel.org>
To: stable@vger.kernel.org
Subject: Re: Patch "f2fs: fix to avoid migrating empty section" has been added to the 6.12-stable tree
Date: Thu, 05 Mar 2026 12:00:00 +0100
Message-ID: <20260305.added-reply@kernel.org>
In-Reply-To: <2026030500-added-f2fs@gregkh>

It needs is_cursec() from 6.13 first.

Please don't pick this change yet.
EOF
as_mbox "$TMP/added.eml" "$TMP/added-reply.eml" > "$TMP/added.mbox"
"$STABLEMATE" import --maildir "$db/added" --db "$db" --mbox "$TMP/added.mbox" > /dev/null
H --query 'path:added/**' --json > "$TMP/h5i.json" 2> "$TMP/h5i.err" || fail "harvest: $(cat "$TMP/h5i.err")"
git -C "$up" notes --ref="$ref" show "$queued" > "$TMP/n5i.txt" 2>/dev/null ||
	fail "no note on the queued commit: $(json_get "$TMP/h5i.json" stats) $(cat "$TMP/h5i.err")"
grepq "^Tree: 6.12$" "$TMP/n5i.txt" || fail "added notice: no tree: $(cat "$TMP/n5i.txt")"
grepq "Nacked-by: Chao Yu <chao@kernel.org>" "$TMP/n5i.txt" || fail "added notice: no NAK: $(cat "$TMP/n5i.txt")"
grepq "^Notice: queued$" "$TMP/n5i.txt" || fail "added notice not recorded: $(cat "$TMP/n5i.txt")"
"$STABLEMATE" classify "$TMP/added.eml" > "$TMP/added-classify.txt" 2>&1 ||
	fail "classify: $(cat "$TMP/added-classify.txt")"
grepq "^f2fs: fix to avoid migrating empty section$" "$TMP/added-classify.txt" ||
	fail "classify does not judge the queued patch: $(cat "$TMP/added-classify.txt")"
# the default query reads stable-commits@, where the "added" notices go
H --dry-run --json > "$TMP/h5i-default.json" 2>/dev/null || fail "harvest with the default query"
python3 - "$TMP/h5i-default.json" <<'PY' || fail "the default query misses the stable-commits list: $(cat "$TMP/h5i-default.json")"
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
assert any(e["event"] == "notice" and e["message_id"] == "2026030500-added-f2fs@gregkh" for e in ev)
PY
echo "an \"added to the 6.12-stable tree\" notice: \"Please don't pick this change yet.\" is a NAK for 6.12"

# 5j. patches reviewed on the list before they are merged: no upstream
# commit yet, so each waits (in the database's config, by the cursor); once
# upstream moves and they are found (by subject; by the Link: to the mail
# when the maintainer changed the subject), their threads are read again
# and the reviews reach the notes
cat > "$TMP/pre.eml" <<'EOF'
From: Dev One <dev@example.org>
To: linux-kernel@vger.kernel.org
Subject: [PATCH] hwmon: (nct6775) Fix the fan limit
Date: Tue, 10 Mar 2026 09:00:00 +0000
Message-ID: <20260310.pre-limit@example.org>

The limit register is 16 bits wide.

Signed-off-by: Dev One <dev@example.org>
---
diff --git a/drivers/hwmon/nct6775.c b/drivers/hwmon/nct6775.c
--- a/drivers/hwmon/nct6775.c
+++ b/drivers/hwmon/nct6775.c
@@ -1 +1 @@
-u8 limit;
+u16 limit;
EOF
cat > "$TMP/pre2.eml" <<'EOF'
From: Dev One <dev@example.org>
To: linux-kernel@vger.kernel.org
Subject: [PATCH] hwmon: (nct6775) Check the divisor
Date: Tue, 10 Mar 2026 09:05:00 +0000
Message-ID: <20260310.pre-div@example.org>

A zero divisor crashes the read.

Signed-off-by: Dev One <dev@example.org>
---
diff --git a/drivers/hwmon/nct6775.c b/drivers/hwmon/nct6775.c
--- a/drivers/hwmon/nct6775.c
+++ b/drivers/hwmon/nct6775.c
@@ -2 +2 @@
-return v / div;
+return div ? v / div : 0;
EOF
for n in limit div; do
	cat > "$TMP/pre-$n-reply.eml" <<EOF
From: Rita Reviewer <reviewer@example.com>
To: linux-kernel@vger.kernel.org
Subject: Re: [PATCH] hwmon: (nct6775) ...
Date: Wed, 11 Mar 2026 09:00:00 +0000
Message-ID: <20260311.review-$n@example.com>
In-Reply-To: <20260310.pre-$n@example.org>

Reviewed-by: Rita Reviewer <reviewer@example.com>
EOF
done
as_mbox "$TMP/pre.eml" "$TMP/pre2.eml" "$TMP/pre-limit-reply.eml" "$TMP/pre-div-reply.eml" > "$TMP/pre.mbox"
"$STABLEMATE" import --maildir "$db/premerge" --db "$db" --mbox "$TMP/pre.mbox" > /dev/null
H --query 'path:premerge/**' --json > "$TMP/h5j.json" 2> "$TMP/h5j.err" || fail "harvest: $(cat "$TMP/h5j.err")"
[ "$(json_get "$TMP/h5j.json" stats.unmapped)" = 2 ] && [ "$(json_get "$TMP/h5j.json" stats.pending)" = 2 ] ||
	fail "patches not merged yet: $(json_get "$TMP/h5j.json" stats)"
[ "$(grep -c "no upstream commit found" "$TMP/h5j.err")" = 2 ] || fail "unmapped warnings: $(cat "$TMP/h5j.err")"
# (one line per waiting patch under the key's "tip <upstream id>" line)
nm "$db" config list | grep -A2 '^stablemate\.harvest-[0-9a-f]*\.pending=tip ' |
	grepq '^[0-9]*	20260310\.pre-limit@example\.org	hwmon: (nct6775) Fix the fan limit$' ||
	fail "the waiting patch is not recorded: $(nm "$db" config list)"
# upstream has not moved: nothing is looked up again, nothing said again
H --query 'path:premerge/**' --json > "$TMP/h5j2.json" 2> "$TMP/h5j2.err"
[ "$(json_get "$TMP/h5j2.json" stats.pending)" = 2 ] && [ "$(json_get "$TMP/h5j2.json" stats.pending_mapped)" = 0 ] ||
	fail "a rerun with upstream unchanged: $(json_get "$TMP/h5j2.json" stats)"
[ -s "$TMP/h5j2.err" ] && fail "a rerun warned again: $(cat "$TMP/h5j2.err")"
# merged: one as sent, one under another subject with a Link: to the mail
limit=$(commit_file "$up" drivers/hwmon/nct6775.c "u16 limit;" "hwmon: (nct6775) Fix the fan limit")
div=$(commit_file "$up" drivers/hwmon/nct6775.c "u16 limit; return div ? v / div : 0;" \
	"hwmon: (nct6775) Check the fan divisor

Link: https://patch.msgid.link/20260310.pre-div@example.org")
H --query 'path:premerge/**' --json > "$TMP/h5j3.json" 2> "$TMP/h5j3.err" || fail "harvest: $(cat "$TMP/h5j3.err")"
[ "$(json_get "$TMP/h5j3.json" stats.pending_mapped)" = 2 ] && [ "$(json_get "$TMP/h5j3.json" stats.pending)" = 0 ] &&
	[ "$(json_get "$TMP/h5j3.json" stats.reviews_added)" = 2 ] && [ "$(json_get "$TMP/h5j3.json" stats.messages)" = 0 ] ||
	fail "merged patches not found again: $(json_get "$TMP/h5j3.json" stats) $(cat "$TMP/h5j3.err")"
for c in "$limit" "$div"; do
	git -C "$up" notes --ref="$ref" show "$c" 2>/dev/null | grepq "Reviewed-by: Rita Reviewer <reviewer@example.com>" ||
		fail "the early review is not on $c"
done
"$STABLEMATE" harvest --db "$db" --repo "$up" --query 'path:premerge/**' > "$TMP/h5j4.txt" 2>&1
grepq "^harvest: 0 messages" "$TMP/h5j4.txt" && ! grepq "upstream commit; " "$TMP/h5j4.txt" ||
	fail "after both were found: $(cat "$TMP/h5j4.txt")"
echo "patches reviewed before they were merged: their reviews reach the notes once they are"

# 5k. a patch that arrives after the answer to it (held up on its way):
# the run that read the answer had nothing to review; the run that reads
# the patch reads the thread again whole, and the review is noted
late=$(commit_file "$up" drivers/hwmon/adm9240.c "int fan_div = 2;" "hwmon: (adm9240) Fix the fan divisor")
cat > "$TMP/late-reply.eml" <<'EOF'
From: Rita Reviewer <reviewer@example.com>
To: stable@vger.kernel.org
Subject: Re: [PATCH 6.1] hwmon: (adm9240) Fix the fan divisor
Date: Thu, 12 Mar 2026 10:00:00 +0000
Message-ID: <20260312.late-review@example.com>
In-Reply-To: <20260312.late-patch@example.org>

Acked-by: Rita Reviewer <reviewer@example.com>
EOF
cat > "$TMP/late-patch.eml" <<'EOF'
From: Dev One <dev@example.org>
To: stable@vger.kernel.org
Subject: [PATCH 6.1] hwmon: (adm9240) Fix the fan divisor
Date: Thu, 12 Mar 2026 09:00:00 +0000
Message-ID: <20260312.late-patch@example.org>

The divisor starts at 2.

Signed-off-by: Dev One <dev@example.org>
---
diff --git a/drivers/hwmon/adm9240.c b/drivers/hwmon/adm9240.c
--- a/drivers/hwmon/adm9240.c
+++ b/drivers/hwmon/adm9240.c
@@ -1 +1 @@
-int fan_div = 1;
+int fan_div = 2;
EOF
as_mbox "$TMP/late-reply.eml" > "$TMP/late1.mbox"
as_mbox "$TMP/late-patch.eml" > "$TMP/late2.mbox"
"$STABLEMATE" import --maildir "$db/late" --db "$db" --mbox "$TMP/late1.mbox" > /dev/null
H --query 'path:late/**' --json > "$TMP/h5k1.json" 2>/dev/null || fail "harvest of the answer alone"
[ "$(json_get "$TMP/h5k1.json" stats.reviews_added)" = 0 ] || fail "a review of no patch: $(json_get "$TMP/h5k1.json" stats)"
"$STABLEMATE" import --maildir "$db/late" --db "$db" --mbox "$TMP/late2.mbox" > /dev/null
H --query 'path:late/**' --json > "$TMP/h5k2.json" 2>/dev/null || fail "harvest of the late patch"
[ "$(json_get "$TMP/h5k2.json" stats.threads_read_again)" = 1 ] &&
	[ "$(json_get "$TMP/h5k2.json" stats.reviews_added)" = 1 ] &&
	[ "$(json_get "$TMP/h5k2.json" stats.messages)" = 1 ] ||
	fail "the answer that came first: $(json_get "$TMP/h5k2.json" stats)"
git -C "$up" notes --ref="$ref" show "$late" 2>/dev/null | grepq "Acked-by: Rita Reviewer <reviewer@example.com>" ||
	fail "the early answer is not on the late patch's commit"
echo "a patch that came after its answer: the answer is noted"

# 6. real hwmon stable threads (public-inbox import), patches mapped by subject
[ -d "$SHARED/corpus/lists/hwmon" ] || skip "no ../shared corpus here"
mapfile -t files < <(find "$SHARED/corpus/lists/hwmon/stable-threads/cur" -type f | sort)
pi_from_files "$TMP/hwmon.git" "${files[@]}"
"$STABLEMATE" import --maildir "$db/hwmon" --db "$db" --public-inbox "$TMP/hwmon.git" > /dev/null
"$STABLEMATE" harvest --db "$db" --repo "$up" --query 'path:hwmon/**' --dry-run --json \
	> "$TMP/r1.json" 2>/dev/null
# Upstream gets a commit for each reviewed patch the dry run could not map.
python3 - "$TMP/r1.json" > "$TMP/titles.txt" <<'PY'
import json, re, sys
seen = set()
for e in json.load(open(sys.argv[1]))["events"]:
    if e["event"] == "unmapped":
        t = re.sub(r'^(\s*\[[^]]*\]\s*)+', '', e["subject"])
        # a stable queue's notice: the patch it is about
        t = re.sub(r'^(?:FAILED: )?[Pp]atch "(.*)" (?:failed to apply to|has been added to the) .*-stable tree$', r'\1', t)
        if t and t not in seen:
            seen.add(t); print(t)
PY
n=$(wc -l < "$TMP/titles.txt")
[ "$n" -gt 20 ] || fail "only $n unmapped reviewed patches in the hwmon threads"
commits_from_titles "$up" < "$TMP/titles.txt"
"$STABLEMATE" harvest --db "$db" --repo "$up" --query 'path:hwmon/**' --json > "$TMP/r2.json" 2>/dev/null
added=$(json_get "$TMP/r2.json" stats.reviews_added)
[ "$(json_get "$TMP/r2.json" stats.unmapped)" = 0 ] || fail "hwmon: $(json_get "$TMP/r2.json" stats)"
[ "$added" -gt 20 ] || fail "hwmon: only $added reviews"
nack=$(git -C "$up" log --format=%H --grep='^hwmon: Introduce hwmon_device_register_for_thermal' -n1)
[ -n "$nack" ] || fail "the NACKed patch was not among the reviewed ones"
git -C "$up" notes --ref="$ref" show "$nack" | grepq "Nacked-by: Guenter Roeck <linux@roeck-us.net>" ||
	fail "Guenter's NACK is not on the note"
# Guenter's "Please drop." under the quoted message of each AUTOSEL copy
# (4.19, 5.4, 5.10, 5.15, 5.18; "This patch should not be backported." for
# 5.17) is his NAK for each of those trees
drop=$(git -C "$up" log --format=%H --grep='^hwmon: Make chip parameter for' -n1)
[ -n "$drop" ] || fail "the AUTOSEL patch Guenter asked to drop is not upstream"
git -C "$up" notes --ref="$ref" show "$drop" > "$TMP/drop.txt"
for tree in 4.19 5.4 5.10 5.15 5.17 5.18; do
	python3 - "$TMP/drop.txt" "$tree" <<'PY' || fail "no NAK for $tree from the drop request: $(cat "$TMP/drop.txt")"
import re, sys
note, tree = open(sys.argv[1]).read(), sys.argv[2]
blocks = [b for b in re.split(r"\n(?=Review: )", note) if f"\nTree: {tree}\n" in b]
sys.exit(not any("Nacked-by: Guenter Roeck <linux@roeck-us.net>" in b for b in blocks))
PY
done
# the six FAILED notices of the max16065 fix (5.10 to 6.18), on its note
race=$(git -C "$up" log --format=%H --grep='^hwmon: (max16065) Use READ/WRITE_ONCE to avoid' -n1)
[ -n "$race" ] || fail "the max16065 fix of the FAILED notices is not upstream"
[ "$(json_get "$TMP/r2.json" stats.notices_added)" = 6 ] || fail "hwmon notices: $(json_get "$TMP/r2.json" stats)"
"$STABLEMATE" notes show "$race" --repo "$up" > "$TMP/s6.txt"
# in the order Sasha sent them, newest tree first
grepq "^stable queue: failed to apply to 6.18 (Sat, 28 Feb 2026 20:17:39 -0500), failed to apply to 6.12 (.*), failed to apply to 6.6 (.*), failed to apply to 6.1 (.*), failed to apply to 5.15 (.*), failed to apply to 5.10 (Sat, 28 Feb 2026 21:03:52 -0500)$" "$TMP/s6.txt" ||
	fail "the FAILED notices on the max16065 fix: $(cat "$TMP/s6.txt")"
echo "hwmon stable threads: $(json_get "$TMP/r2.json" stats)"

# --notes-ref takes a name as git notes --ref does: "mine" is
# refs/notes/mine, where plain git and the other subcommands read it
H --notes-ref mine --json > "$TMP/mine.json" 2>/dev/null || fail "harvest --notes-ref mine failed"
git -C "$up" rev-parse -q --verify refs/notes/mine > /dev/null ||
	fail "--notes-ref mine wrote no refs/notes/mine: $(git -C "$up" for-each-ref | grep mine)"
git -C "$up" notes --ref=mine show "$nack" | grepq "Nacked-by: Guenter Roeck <linux@roeck-us.net>" ||
	fail "the NACK is not in refs/notes/mine"
"$STABLEMATE" notes show "$nack" --repo "$up" --notes-ref notes/mine | grepq "Nacked-by: Guenter Roeck" ||
	fail "notes show --notes-ref notes/mine (git's other short form) does not read it"
echo "ok"
