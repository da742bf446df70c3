#!/usr/bin/env python3
"""bench/harvest-gen.py OUT.mbox N UPSTREAM_IDS_FILE

Writes N real-looking list messages as one mbox: threads of a stable review
patch ("[PATCH 6.1 NNN/MMM] ...", "[ Upstream commit <id> ]" naming a commit
of the bench's upstream repository) or an ordinary "[PATCH vN x/y]" patch,
each followed by replies whose bodies are REAL list replies from
../shared/corpus/lists (tegra Tested-by replies, hwmon review replies),
repeated with new Message-IDs, In-Reply-To and References."""
import email, email.policy, glob, os, random, sys

out_path, n, ids_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
shared = os.environ.get("SM_SHARED") or os.path.join(os.path.dirname(__file__), "..", "..", "shared")
ids = open(ids_path).read().split()
rnd = random.Random(1)

def bodies(pattern):
    res = []
    for f in sorted(glob.glob(os.path.join(shared, pattern))):
        m = email.message_from_binary_file(open(f, "rb"), policy=email.policy.default)
        if m.is_multipart() or not m["Subject"] or not m["Subject"].lower().startswith("re:"):
            continue
        try:
            b = m.get_content()
        except Exception:
            continue
        res.append((str(m["From"]), b))
    return res

replies = bodies("corpus/lists/tegra/stable-rc-review-single-replies/*/*")
replies += bodies("corpus/lists/hwmon/month-2022-07/*/*")[:80]
if not replies:
    sys.exit("bench/harvest-gen.py: no reply templates under %s/corpus/lists (set SM_SHARED)" % shared)

patch_body = """6.1-stable review patch.  If anyone has any objections, please let me know.

------------------

From: Alice Developer <alice@example.com>

[ Upstream commit %s ]

The limit register was read before the chip was powered up, so the first
reading after resume returned 0xff.  Read it after power-up instead.

Signed-off-by: Alice Developer <alice@example.com>
Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>
---
 drivers/hwmon/lm90.c |    4 ++--
 1 file changed, 2 insertions(+), 2 deletions(-)

diff --git a/drivers/hwmon/lm90.c b/drivers/hwmon/lm90.c
--- a/drivers/hwmon/lm90.c
+++ b/drivers/hwmon/lm90.c
@@ -1,4 +1,4 @@
 static int lm90_resume(struct device *dev)
 {
-	lm90_read_limits(dev);
 	lm90_power_up(dev);
+	lm90_read_limits(dev);
"""

out = open(out_path, "w", encoding="utf-8", errors="surrogateescape")
written, t = 0, 0
base = 1719820800
while written < n:
    t += 1
    stable = t % 2 == 0
    root = "bench-%d-0@example.org" % t
    subj = ("[PATCH 6.1 %03d/%03d] hwmon: (lm90) Fix resume %d" % (t % 500 + 1, 500, t)
            if stable else "[PATCH v%d %d/3] drm/foo: rework the widget %d" % (t % 3 + 1, t % 3 + 1, t))
    body = patch_body % ids[t % len(ids)] if stable else patch_body.replace("[ Upstream commit %s ]\n", "")
    date = base + t * 60
    out.write("From bench@example.org Mon Jul  1 09:00:00 2024\n")
    out.write("From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\nTo: stable@vger.kernel.org\n"
              "Cc: linux-kernel@vger.kernel.org\nSubject: %s\nDate: %s\nMessage-ID: <%s>\n\n%s\n"
              % (subj, email.utils.formatdate(date), root, body))
    written += 1
    refs = "<%s>" % root
    for r in range(1, 5):
        if written >= n:
            break
        frm, rb = replies[rnd.randrange(len(replies))]
        mid = "bench-%d-%d@example.org" % (t, r)
        parent = root if r < 3 else "bench-%d-%d@example.org" % (t, r - 1)
        rb = rb.replace("\nFrom ", "\n>From ")
        out.write("From bench@example.org Mon Jul  1 09:00:00 2024\n")
        out.write("From: %s\nTo: stable@vger.kernel.org\nSubject: Re: %s\nDate: %s\nMessage-ID: <%s>\n"
                  "In-Reply-To: <%s>\nReferences: %s\n\n%s\n"
                  % (frm, subj, email.utils.formatdate(date + r * 600), mid, parent, refs, rb))
        written += 1
out.close()
