#!/usr/bin/env python3
# bench/mbox-gen.py OUT SIZE: an mboxrd of ordinary list mail of about SIZE
# bytes (e.g. 1G, 64M): patch mails with a diff, and replies quoting them
# with a trailer, 1-8 KB each, every Message-ID unique, a fixed seed.
import random, sys

def size_arg(s):
    mul = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1:].upper(), 1)
    return int(s.rstrip("kKmMgG")) * mul

out_path, want = sys.argv[1], size_arg(sys.argv[2])
rnd = random.Random(10)
words = ("the driver queue device reset lock memory page buffer fix leak race error path "
         "when while after before free alloc count return value check missing call on of in "
         "for with from into under kernel stable patch commit review test build boot").split()
subsys = ["net", "usb", "mm", "drm/amd", "ext4", "btrfs", "ALSA: hda", "x86/mm", "hwmon", "scsi"]

def text(n):
    return " ".join(rnd.choice(words) for _ in range(n))

def para(lines):
    return "".join(text(rnd.randint(8, 13)) + "\n" for _ in range(lines))

def diff(lines):
    f = "drivers/%s/%s.c" % (rnd.choice(["net", "usb", "gpu", "scsi"]), rnd.choice(words))
    out = ["diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -%d,7 +%d,7 @@\n" % (f, f, f, f, 10, 10)]
    for _ in range(lines):
        out.append(rnd.choice(" +-") + "\t" + text(rnd.randint(3, 8)) + ";\n")
    return "".join(out)

written, i, patches = 0, 0, []
with open(out_path, "w") as out:
    while written < want:
        i += 1
        date = "Mon, %02d Jul 2024 %02d:%02d:00 +0000" % (1 + i % 28, i % 24, i % 60)
        if not patches or rnd.random() < 0.4:
            mid = "patch-%d@example.org" % i
            subj = "[PATCH] %s: %s" % (rnd.choice(subsys), text(6))
            body = para(rnd.randint(3, 10)) + "\nSigned-off-by: Dev %d <dev%d@example.org>\n---\n" % (i % 97, i % 97)
            body += diff(rnd.randint(20, 120))
            hdr = ""
            patches.append((mid, subj))
            patches = patches[-200:]
        else:
            parent, psubj = rnd.choice(patches)
            mid = "reply-%d@example.org" % i
            subj = "Re: " + psubj
            hdr = "In-Reply-To: <%s>\nReferences: <%s>\n" % (parent, parent)
            body = "".join("> " + l + "\n" for l in para(rnd.randint(3, 20)).splitlines())
            body += "\n" + para(rnd.randint(1, 6))
            if rnd.random() < 0.2:
                body += "\nFrom the tests here it works.\n"
            body += "\nReviewed-by: Rev %d <rev%d@example.org>\n" % (i % 31, i % 31)
        body = "".join((">" + l if l.lstrip(">").startswith("From ") else l)
                       for l in body.splitlines(True))
        msg = ("From %s Mon Jul  1 09:00:00 2024\nFrom: Person %d <p%d@example.org>\n"
               "To: linux-kernel@vger.kernel.org\nSubject: %s\nDate: %s\nMessage-ID: <%s>\n%s\n%s\n"
               % (mid, i % 500, i % 500, subj, date, mid, hdr, body))
        out.write(msg)
        written += len(msg)
print("%d messages, %d bytes" % (i, written))
