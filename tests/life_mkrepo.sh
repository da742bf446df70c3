#!/usr/bin/env bash
# life_mkrepo.sh DIR: builds, with the git CLI, the repository of the
# "life after landing" tests in DIR/linux: a mainline (master) with v4.1,
# a window v4.1..v4.2, and past it the reverts and later fixes of window
# commits, then v4.3-rc1 and -rc2; a stable branch linux-4.1.y at v4.1.
# Also DIR/queue (a stable-queue checkout) and DIR/cves (kernel CVE
# records in cve/published/2017/) naming commits of the repository.
# Writes DIR/ids.sh: NAME=<full sha> for every commit named below.
set -euo pipefail
dir=$1
rm -rf "$dir/queue" "$dir/cves"
. "$(dirname "$0")/gitrepo.sh"
# change FILE LINE TEXT SUBJECT BODY [TRAILER...]
change() {
	local f=$1 n=$2 text=$3 subj=$4 body=$5; shift 5
	setline "$f" "$n" "$text"
	{ echo "$subj"; echo; echo "$body"; echo
	  for tr in "$@"; do echo "$tr"; done
	  echo "Signed-off-by: Kernel Dev <dev@example.org>"; } > "$dir/msg"
	git add -A; tick; git commit -q -F "$dir/msg"
}
revert() { tick; git revert --no-edit "$1" >/dev/null; }
tag() { tick; git tag -a "$1" -m "$1"; }
stable="Cc: stable@vger.kernel.org"

mkfile drivers/misc/foo.c 30 foo
mkfile drivers/misc/bar.c 30 bar
mkfile drivers/net/baz.c 30 baz
mkfile fs/qux.c 30 qux
mkfile sound/quux.c 30 quux
mkfile mm/soak.c 30 soak
mkfile net/queued.c 30 queued
mkfile drivers/ser/ser.c 30 ser
mkfile drivers/zap/zap.c 30 zap
echo "VERSION = 4.1" > Makefile
git add -A; tick; git commit -q -m "Linux 4.1"
tag v4.1
git branch linux-4.1.y

# --- the window v4.1..v4.2
change drivers/misc/foo.c 7 "	int foo_probe = f7_probe(dev); /* probe */" \
	"foo: fix the f7 probe order" "The f7 device was probed before its clock was enabled, which hangs the bus." "$stable"
record REVERTED
change drivers/misc/bar.c 9 "	int bar_free = kfree_rcu(b); /* leak */" \
	"bar: fix a memory leak in bar_remove" "bar_remove() returned without freeing the ring, leaking it on every unbind." "$stable"
record RESTORED
change drivers/net/baz.c 11 "	int baz_len = min(len, BAZ_MAX); /* overflow */" \
	"baz: fix an out-of-bounds write in baz_rx" "A frame longer than BAZ_MAX overflowed the rx buffer." "$stable"
record FIXED2
change fs/qux.c 13 "	int qux_lock = mutex_lock(&q->lock); /* race */" \
	"qux: fix a race between qux_open and qux_release" "Take q->lock around the refcount, or a release racing an open frees q twice." "$stable"
record CHAIN
change sound/quux.c 5 "	int quux_check = ptr ? 1 : 0; /* null */" \
	"quux: fix a NULL pointer dereference in quux_probe" "quux_probe() used the platform data without checking it." "Cc: stable@vger.kernel.org # after -rc3"
record RC_MET
change net/queued.c 3 "	int queued_len = skb_headlen(skb); /* length */" \
	"net: queued: fix the header length check" "The header length was read from the wrong field, accepting short frames." "$stable"
record QUEUED
# A 4-part series; only part 3 is tagged for stable, and it changes a line
# that part 1 changed.
change drivers/ser/ser.c 6 "	int ser_irq_valid = irq > 0 && irq < NR_IRQS; /* helper */" \
	"ser: add the ser_irq_valid helper" "A helper for the irq checks of the next patches."
record SER1
change drivers/ser/ser.c 20 "	int ser_probe_irq = ser_irq_valid(irq); /* probe */" \
	"ser: use ser_irq_valid in ser_probe" "No functional change."
record SER2
change drivers/ser/ser.c 6 "	int ser_irq_valid = irq > 0 && irq < NR_IRQS && irq != dev->irq_busy; /* helper */" \
	"ser: fix the irq check in ser_resume" "ser_resume() accepted the irq the device itself had marked busy, which hangs the device on resume." "$stable"
record SER3
change drivers/ser/ser.c 28 "	int ser_tidy = 0; /* tidy */" \
	"ser: tidy up the ser driver" "Whitespace and naming."
record SER4
# Two refactorings with no tag of their own: a fix past the range names
# them as its prerequisites, one for 4.1 and later, one for 4.4 and later.
change drivers/zap/zap.c 4 "	int zap_reset = zap_do_reset(zd); /* split */" \
	"zap: split zap_reset out of zap_probe" "zap_resume() will need the reset sequence on its own."
record ZAP_PRE
change drivers/zap/zap.c 9 "	struct zap_device *zd = dev_get_drvdata(dev); /* rename */" \
	"zap: rename zap_dev to zap_device" "Say what it is."
record ZAP_PRE44
echo "VERSION = 4.2" > Makefile
git add -A; tick; git commit -q -m "Linux 4.2"
tag v4.2

# --- past the range: reverts and later fixes
revert "$REVERTED"
record REVERT1
revert "$RESTORED"
record REVERT2
revert "$REVERT2"
record REAPPLY
change drivers/net/baz.c 12 "	int baz_ret = -ENODEV; /* no device */" \
	"baz: return -ENODEV from baz_rx without a device" "The overflow fix returned 0 when the device was gone." \
	"Fixes: ${FIXED2:0:12} (\"baz: fix an out-of-bounds write in baz_rx\")"
record LATER1
change drivers/net/baz.c 13 "	int baz_stat = dev->stats.rx_dropped++; /* stats */" \
	"baz: count the dropped oversize frames" "Oversize frames are now dropped, count them." \
	"Fixes: ${FIXED2:0:12} (\"baz: fix an out-of-bounds write in baz_rx\")"
record LATER2
change fs/qux.c 14 "	int qux_unlock = mutex_unlock(&q->lock); /* race */" \
	"qux: drop q->lock on the error path" "The race fix kept the lock held when qux_open failed." \
	"Fixes: ${CHAIN:0:12} (\"qux: fix a race between qux_open and qux_release\")"
record CHAIN1
change fs/qux.c 15 "	int qux_err = -EINTR; /* error */" \
	"qux: return -EINTR when the lock wait is interrupted" "The error path fix returned 0 on a signal." \
	"Fixes: ${CHAIN1:0:12} (\"qux: drop q->lock on the error path\")"
record CHAIN2
change fs/qux.c 16 "	int qux_sig = signal_pending(current); /* signal */" \
	"qux: check for a pending signal before the lock wait" "Follow-up of the -EINTR change." \
	"Fixes: ${CHAIN2:0:12} (\"qux: return -EINTR when the lock wait is interrupted\")"
record CHAIN3
change drivers/zap/zap.c 5 "	int zap_resumed = zap_reset(zd); /* resume */" \
	"zap: reset the device after a failed resume" "A failed resume left the device wedged until the next probe." \
	"Cc: stable@vger.kernel.org # 4.1.x: ${ZAP_PRE:0:12}: zap: split zap_reset out of zap_probe" \
	"Cc: stable@vger.kernel.org # 4.4.x: ${ZAP_PRE44:0:12}: zap: rename zap_dev to zap_device" \
	"$stable"
record ZAP_FIX
echo "VERSION = 4.3-rc1" > Makefile
git add -A; tick; git commit -q -m "Linux 4.3-rc1"
tag v4.3-rc1
change sound/quux.c 6 "	int quux_irq = platform_get_irq(pdev, 0); /* irq */" \
	"quux: fix the irq leak in quux_remove" "quux_remove() did not free the irq." "Cc: stable@vger.kernel.org # after -rc3"
record RC_WAIT
echo "VERSION = 4.3-rc2" > Makefile
git add -A; tick; git commit -q -m "Linux 4.3-rc2"
tag v4.3-rc2
# Committed yesterday: younger than "4 weeks in mainline".
now=$(date +%s)
t=$((now - 86400 - 3600))
change mm/soak.c 8 "	int soak_pages = nr_free_pages(); /* accounting */" \
	"mm: soak: fix the free page accounting" "The free pages were counted twice." "Cc: stable@vger.kernel.org # after 4 weeks in mainline"
record WEEKS

# --- a stable-queue checkout: the queued fix is in queue-4.1
mkdir -p "$dir/queue/queue-4.1" "$dir/queue/queue-4.4"
{ echo "From: Kernel Dev <dev@example.org>"; echo "Subject: net: queued: fix the header length check"; echo
  echo "From: Kernel Dev <dev@example.org>"; echo; echo "commit $QUEUED upstream."; echo
  git log -1 --format=%b "$QUEUED"; echo "---"; git show --format= "$QUEUED"; } \
	> "$dir/queue/queue-4.1/net-queued-fix-the-header-length-check.patch"
printf '# queue for 4.1\nnet-queued-fix-the-header-length-check.patch\n' > "$dir/queue/queue-4.1/series"
: > "$dir/queue/queue-4.4/series"

# --- kernel CVE records (CVE JSON 5 as the vulns repository publishes it)
mkdir -p "$dir/cves/cve/published/2017"
cve() {	# cve ID FIX INTRO_VERSION [FIXED_STABLE]
	local stable_fix=""
	[ -n "${4:-}" ] && stable_fix=",{\"version\": \"$4\", \"lessThanOrEqual\": \"${4%.*}.*\", \"status\": \"unaffected\", \"versionType\": \"semver\"}"
	cat > "$dir/cves/cve/published/2017/$1.json" <<J
{"dataType": "CVE_RECORD", "dataVersion": "5.1",
 "cveMetadata": {"cveID": "$1", "assignerShortName": "Linux", "state": "PUBLISHED"},
 "containers": {"cna": {
  "title": "fix \"quoted\" \\u00e9",
  "affected": [
   {"product": "Linux", "vendor": "Linux", "defaultStatus": "unaffected",
    "programFiles": ["drivers/net/baz.c"],
    "versions": [{"version": "$BASE", "lessThan": "$2", "status": "affected", "versionType": "git"}]},
   {"product": "Linux", "vendor": "Linux", "defaultStatus": "affected",
    "versions": [{"version": "$3", "status": "affected"},
                 {"version": "0", "lessThan": "$3", "status": "unaffected", "versionType": "semver"}$stable_fix,
                 {"version": "4.2", "lessThanOrEqual": "*", "status": "unaffected", "versionType": "original_commit_for_fix"}]}]}}}
J
}
BASE=$(git rev-parse v4.1^{commit})
cve CVE-2017-1001 "$FIXED2" 4.1
cve CVE-2017-1002 "$CHAIN" 4.1 4.1.3
cve CVE-2017-1003 "$REVERT1" 4.4
# --- the series as posted (git format-patch, b4-style base-commit), in a
# notmuch database
mkdir -p "$dir/mail/cur" "$dir/fp"
git format-patch -q --cover-letter --thread=shallow --base="$SER1~1" -o "$dir/fp" "$SER1~1..$SER4"
for f in "$dir"/fp/*.patch; do
	sed -e '1{/^From [0-9a-f]\{40\} /d}' -e 's/\*\*\* SUBJECT HERE \*\*\*/ser: fix the irq handling/' \
	    -e 's/\*\*\* BLURB HERE \*\*\*/The irq checks of ser, and a fix of the resume check./' \
	    "$f" > "$dir/mail/cur/$(basename "$f" .patch):2,S"
done
rm -rf "$dir/fp"
printf '[database]\npath=%s\n[new]\ntags=\n' "$dir/mail" > "$dir/nmcfg"
notmuch --config="$dir/nmcfg" new >/dev/null
rm -f "$dir/msg"
