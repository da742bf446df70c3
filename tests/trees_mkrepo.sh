#!/usr/bin/env bash
# trees_mkrepo.sh DIR: builds the trees tests' repository in DIR/linux with
# the git CLI: a "mainline" (master) with release tags v4.1, v4.4, v4.5 and
# two stable branches, linux-4.1.y and linux-4.4.y, whose cherry-picks carry
# each upstream-line form; one backport differs, one has no upstream line
# (found by patch-id), one fix-for-fix, a conflict, a merge, a prerequisite;
# and a branch next after v4.5, where a fix needs a cleanup 4.1 lacks.
# Commit messages are real (tests/fixtures/trees/msg-*.txt and the seed
# patch). Writes DIR/ids.sh: NAME=<full sha> for every commit named below.
set -euo pipefail
dir=$1
top=${SM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
fx=$top/tests/fixtures/trees
# the seed commit as the project ships it (../shared/seeds/ holds the same
# file): the repository, and so the README's scan example, is the same
# with or without ../shared
seed=$top/sample/commits/seed-e4ec8cc8039a.patch
. "$top/tests/gitrepo.sh"
# commit_msg MSGFILE [TRAILER...]: commit everything with a real message.
commit_msg() {
	local f=$1; shift
	{ cat "$f"; echo; for tr in "$@"; do echo "$tr"; done
	  echo "Signed-off-by: Kernel Dev <dev@example.org>"; } > "$dir/msg"
	git add -A
	tick
	git commit -q -F "$dir/msg"
}
commit_plain() { git add -A; tick; git commit -q -m "$1" -m "${2:-Plain change.}"; }

# --- v4.1: the base tree
mkfile sound/core/timer.c 30 timer
cat >> sound/core/timer.c <<'C'
static void snd_timer_user_tinterrupt(struct snd_timer_instance *timeri)
{
	if ((tu->filter & (1 << SNDRV_TIMER_EVENT_RESOLUTION)) &&
	    tu->last_resolution != resolution) {
		r1.event = SNDRV_TIMER_EVENT_RESOLUTION;
		r1.tstamp = tstamp;
		r1.val = resolution;
		snd_timer_user_append_to_tqueue(tu, &r1);
	}
}
C
mkfile drivers/i2c/busses/i2c-i801.c 40 i801
mkfile fs/xattr.c 40 xattr
mkfile net/tls/tls_sw.c 60 tls
mkfile fs/erofs/zmap.c 40 erofs
mkfile virt/kvm/arm64/vgic-its.c 40 its
echo "VERSION = 4.1" > Makefile
commit_plain "Linux 4.1"
git tag -a v4.1 -m "Linux 4.1"
record BASE41

# --- v4.1..v4.4
setline drivers/i2c/busses/i2c-i801.c 10 "	int i801_block_call = 1; /* block process call */"
setline drivers/i2c/busses/i2c-i801.c 11 "	int i801_block_len = len; /* block process call */"
commit_plain "i2c: i801: Add support for block process call" "Adds the block process call transaction type."
record C1
setline fs/xattr.c 5 "	int fremovexattr_helper = fdget(fd); /* helper */"
commit_plain "fs/xattr: factor out the fremovexattr helper" "Prepares the fd based helper."
record C2
mkfile fs/ext4/fc_replay.c 20 fc
commit_plain "ext4: add fast commit replay buddy handling" "New fast-commit replay code."
record C3
echo "VERSION = 4.4" > Makefile
commit_plain "Linux 4.4"
git tag -a v4.4 -m "Linux 4.4"
record BASE44

# --- the window v4.4..v4.5
awk '/^ALSA: timer:/{p=1} /^---$/{exit} p' "$seed" > "$dir/alsa.txt"
sed -i 's|^\t\tr1.event = SNDRV_TIMER_EVENT_RESOLUTION;|\t\tmemset(\&r1, 0, sizeof(r1));\n&|' sound/core/timer.c
commit_msg "$dir/alsa.txt"
record W1
setline drivers/i2c/busses/i2c-i801.c 11 "	int i801_block_len = min(len, I2C_SMBUS_BLOCK_MAX); /* block process call */"
commit_msg "$fx/msg-6.txt" "Fixes: ${C1:0:12} (\"i2c: i801: Add support for block process call\")"
record W2
setline fs/xattr.c 6 "	fdput(f); /* error path */"
commit_msg "$fx/msg-1.txt" "Fixes: ${C2:0:12} (\"fs/xattr: factor out the fremovexattr helper\")" \
	"Cc: stable@vger.kernel.org"
record W3
setline net/tls/tls_sw.c 20 "	int tls_async_notify = 1; /* async notify */"
setline net/tls/tls_sw.c 21 "	int tls_async_pending = 0; /* async notify */"
commit_plain "tls: add async notify of decrypt completion" "Adds the async notify path."
record W4A
setline net/tls/tls_sw.c 21 "	int tls_async_pending = atomic_read(&ctx->pending); /* async notify */"
commit_msg "$fx/msg-3.txt" "Fixes: ${W4A:0:12} (\"tls: add async notify of decrypt completion\")" \
	"Cc: stable@vger.kernel.org"
record W4
setline net/tls/tls_sw.c 30 "	int tls_partial = 1; /* partial read path */"
commit_plain "tls: rx: prepare the partial read path" "Prepares the partial read path."
record W5P
setline net/tls/tls_sw.c 31 "	int tls_partial_copy = darg.zc; /* partial read path */"
commit_msg "$fx/msg-2.txt" "Cc: stable@vger.kernel.org # 4.4.x: ${W5P:0:7}: tls: rx: prepare the partial read path" \
	"Cc: stable@vger.kernel.org # 4.4.x"
record W5
setline fs/erofs/zmap.c 12 "	int erofs_fmt = vi->z_advise & Z_EROFS_ADVISE_FMT; /* format */"
commit_msg "$fx/msg-5.txt" "Cc: stable@vger.kernel.org"
record W6
setline virt/kvm/arm64/vgic-its.c 8 "	int its_cache = vgic_get_irq_kref(irq); /* lpi cache */"
commit_msg "$fx/msg-7.txt" "Cc: stable@vger.kernel.org"
record W7
setline net/tls/tls_sw.c 40 "	int tls_tx_sched = !test_bit(BIT_TX_CLOSING, &ctx->flags); /* tx work */"
commit_msg "$fx/msg-4.txt" "Cc: stable@vger.kernel.org"
record W8
git checkout -q -b ext4-fixes
setline fs/ext4/fc_replay.c 7 "	int fc_buddy = ext4_mb_regenerate_buddy(sb); /* fc replay */"
commit_msg "$fx/msg-8.txt" "Cc: stable@vger.kernel.org"
record E1
git checkout -q master
setline fs/erofs/zmap.c 30 "	int erofs_other = 2; /* unrelated */"
commit_plain "erofs: tidy up zmap" "Unrelated tidy-up."
record W9
tick
git merge -q --no-ff ext4-fixes -m "Merge branch 'ext4-fixes'"
record MERGE
echo "VERSION = 4.5" > Makefile
commit_plain "Linux 4.5"
git tag -a v4.5 -m "Linux 4.5"
record BASE45

# stable_pick BRANCH-MSG-FILTER COMMIT: cherry-pick COMMIT, message via sed.
pick() {
	local c=$1 form=$2
	git cherry-pick -n "$c" >/dev/null
	git log -1 --format=%B "$c" > "$dir/orig"
	case $form in
	commit) { head -1 "$dir/orig"; echo; echo "commit $c upstream."; tail -n +2 "$dir/orig"; } ;;
	bracket) { head -1 "$dir/orig"; echo; echo "[ Upstream commit $c ]"; tail -n +2 "$dir/orig"; } ;;
	cherry) { cat "$dir/orig"; echo "(cherry picked from commit $c)"; } ;;
	lower) { head -1 "$dir/orig"; echo; echo "This is upstream commit $c"; tail -n +2 "$dir/orig"; } ;;
	none) cat "$dir/orig" ;;
	esac > "$dir/msg"
	echo "Signed-off-by: Test Maintainer <maint@example.org>" >> "$dir/msg"
	tick
	git commit -q -F "$dir/msg"
}

# --- linux-4.1.y
git checkout -q -b linux-4.1.y v4.1
pick "$C1" commit
record S1
setline net/tls/tls_sw.c 40 "	int tls_tx_lock = spin_lock_bh(&ctx->lock); /* stable-only */"
commit_plain "tls: take the tx lock in the 4.1 backport" "Stable-only locking."
record S2
setline net/tls/tls_sw.c 40 "	int tls_tx_lock = spin_lock_irqsave(&ctx->lock); /* stable-only */"
commit_plain "tls: use irqsave for the 4.1 tx lock" "Stable-only follow-up of the tx lock."
record S2B
pick "$W6" cherry
record S3
pick "$W7" lower
record S4
echo "VERSION = 4.1.1" > Makefile
commit_plain "Linux 4.1.1"
record S5

# --- linux-4.4.y
git checkout -q -b linux-4.4.y v4.4
pick "$W3" commit
record T1
# A backport that differs from upstream: an extra line changed.
git cherry-pick -n "$W6" >/dev/null
setline fs/erofs/zmap.c 13 "	int erofs_fmt_44 = 0; /* 4.4 backport adjustment */"
{ git log -1 --format=%s "$W6"; echo; echo "[ Upstream commit $W6 ]"; echo;
  git log -1 --format=%b "$W6"; echo "[ adjusted for 4.4: no z_advise_fmt ]";
  echo "Signed-off-by: Test Maintainer <maint@example.org>"; } > "$dir/msg"
git add -A; tick; git commit -q -F "$dir/msg"
record T2
pick "$W1" none
record T3
echo "VERSION = 4.4.1" > Makefile
commit_plain "Linux 4.4.1"
record T4

# --- next: after v4.5, on a branch of its own and made last, so that no
# commit above changes. K1 reworks a line of sound/core/timer.c that 4.1
# has as v4.1 left it, and X1, a fix, changes that line again: on 4.1, X1
# conflicts until K1 is taken (the search's example; K1 is no feature, the
# file is in 4.1). E1's file, made by C3, 4.1 lacks altogether.
git checkout -q -b next v4.5
setline sound/core/timer.c 12 "	int timer_12 = snd_timer_resolution(timeri); /* sound/core/timer.c */"
commit_plain "ALSA: timer: read the resolution once in snd_timer_start1" "A cleanup."
record K1
setline sound/core/timer.c 12 "	int timer_12 = max(snd_timer_resolution(timeri), 100000UL); /* sound/core/timer.c */"
commit_msg "$fx/msg-9.txt" "Cc: stable@vger.kernel.org"
record X1

git checkout -q master
git branch -D ext4-fixes -q
rm -f "$dir/msg" "$dir/orig" "$dir/alsa.txt"
