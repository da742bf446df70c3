#!/usr/bin/env python3
"""rebuild_commits.py MBOX REPO N: the first N commits of a format-patch mbox
(real mainline commits with their diffs) made again in a new git repository,
each with its author, date and message, its diff applied to a stand-in of
the files it touches: the lines its hunks show at their line numbers, a
filler line elsewhere. So the commit's diff is the mail's, hunk for hunk.
Each is preceded by a "setup for <id>" commit that writes the stand-ins.
Commits whose diff cannot be rebuilt so (renames, binary files, a missing
newline at the end) are left out. Prints "<mail id>\\t<new id>" per commit to
REPO/../rebuilt.tsv; tags v6.0 (before the first) and v6.1 (the tip)."""
import email.utils
import os
import re
import subprocess
import sys


def git(repo, *args, data=None, env=None):
    r = subprocess.run(("git",) + args, cwd=repo, input=data, capture_output=True, env=env)
    if r.returncode:
        raise RuntimeError(r.stderr.decode(errors="replace")[:200])
    return r.stdout


def headers(head):
    out, last = {}, None
    for line in head.split("\n")[1:]:
        if line[:1] in (" ", "\t") and last:
            out[last] += " " + line.strip()
        elif ":" in line:
            last, _, v = line.partition(":")
            out[last] = v.strip()
    return out


def stand_in(file_diff):
    """The old side of one file's hunks, at their line numbers; None when
    the file is new."""
    head = file_diff.split("\n@@")[0]
    if "\nnew file mode" in head:
        return None
    lines, last = {}, 0
    for h in re.finditer(r"(?m)^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@.*\n((?:[ +\-].*\n|\n)*)", file_diff):
        pos = int(h.group(1))
        for line in h.group(2).split("\n")[:-1]:
            if line.startswith("+"):
                continue
            lines[pos] = line[1:]
            pos += 1
        last = max(last, pos - 1)
    return "".join(lines.get(i, "/* filler %d */" % i) + "\n" for i in range(1, last + 1))


def main():
    mbox, repo, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
    text = open(mbox, encoding="utf-8", errors="surrogateescape").read()
    mails = re.split(r"(?m)^(?=From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$)", text)
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "master")
    git(repo, "config", "user.name", "Setup")
    git(repo, "config", "user.email", "setup@example.org")
    git(repo, "commit", "-q", "--allow-empty", "-m", "base")
    git(repo, "tag", "v6.0")
    made = []
    for m in mails:
        if len(made) >= want:
            break
        if not m.startswith("From ") or "\ndiff --git " not in m:
            continue
        head, _, rest = m.partition("\n\n")
        hdr = headers(head)
        body, _, diff = rest.partition("\ndiff --git ")
        diff = "diff --git " + re.sub(r"\n-- \n[0-9.]+\s*$", "\n", diff)
        if re.search(r"\\ No newline|Binary files|GIT binary patch|\nsimilarity index|\nrename from|\ncopy from", diff):
            continue
        files = [f for f in re.split(r"(?m)^(?=diff --git )", diff) if f.strip()]
        paths = [re.match(r"diff --git a/(\S+) b/", f) for f in files]
        if not all(paths):
            continue
        try:
            for p, f in zip(paths, files):
                old = stand_in(f)
                if old is None:
                    continue
                path = os.path.join(repo, p.group(1))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8", errors="surrogateescape") as out:
                    out.write(old)
                git(repo, "add", "-f", p.group(1))
            git(repo, "commit", "-q", "--allow-empty", "-m", "setup for " + m[5:45])
            patch = re.sub(r"(?m)^index [0-9a-f]+\.\.[0-9a-f]+.*\n", "", diff)
            git(repo, "apply", "--index", "--whitespace=nowarn", "-",
                data=patch.encode("utf-8", "surrogateescape"))
            name, addr = email.utils.parseaddr(hdr.get("From", ""))
            env = dict(os.environ, GIT_AUTHOR_NAME=name or "A", GIT_AUTHOR_EMAIL=addr or "a@b",
                       GIT_AUTHOR_DATE=hdr.get("Date", ""), GIT_COMMITTER_DATE=hdr.get("Date", ""))
            subject = re.sub(r"^\[PATCH[^\]]*\]\s*", "", hdr.get("Subject", "x"))
            message = subject + "\n\n" + body.split("\n---\n")[0].strip("\n") + "\n"
            git(repo, "commit", "-q", "-F", "-", data=message.encode("utf-8", "surrogateescape"), env=env)
            made.append((m[5:45], git(repo, "rev-parse", "HEAD").decode().strip()))
        except RuntimeError:
            subprocess.run(["git", "reset", "-q", "--hard", "HEAD"], cwd=repo)
            subprocess.run(["git", "clean", "-qfdx"], cwd=repo)
    git(repo, "tag", "v6.1")
    with open(os.path.join(repo, "..", "rebuilt.tsv"), "w") as out:
        for a, b in made:
            out.write("%s\t%s\n" % (a, b))


main()
