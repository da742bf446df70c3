#!/usr/bin/env python3
"""md2scd: a section-5 man page, in scdoc, from a section of README.md.

The README is the one place that holds the configuration keys and the note
format; stablemate-config(5) and stablemate-notes(5) are cut from it at build
time so the two cannot drift. Converts headings, paragraphs, lists, fenced
code and pipe tables (one definition per row: the first cell is the term,
the other cells its text, prefixed by their column headers after the second).

usage: md2scd.py README.md "HEADING" NAME SECTION "ONE-LINE SUMMARY" > NAME.SECTION.scd
"""
import re
import sys


def esc(s):
    return s.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")


def inline(s):
    """Markdown inline markup to scdoc: **b** -> *b*, `code` -> code."""
    out, pos = [], 0
    for m in re.finditer(r"\*\*(.+?)\*\*|`([^`]+)`|(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", s):
        out.append(esc(s[pos:m.start()]))
        if m.group(1) is not None:
            out.append("*" + esc(m.group(1)) + "*")
        elif m.group(2) is not None:
            out.append(esc(m.group(2)))
        else:
            out.append("_" + esc(m.group(3)) + "_")
        pos = m.end()
    out.append(esc(s[pos:]))
    return "".join(out)


def cells(row):
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|"):
        row = row[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)]


def section(lines, heading):
    level = len(heading) - len(heading.lstrip("#"))
    start = None
    for i, l in enumerate(lines):
        if start is None:
            if l.rstrip() == heading:
                start = i + 1
        elif l.startswith("#") and not in_fence(lines, start, i):
            lv = len(l) - len(l.lstrip("#"))
            if lv <= level:
                return lines[start:i]
    if start is None:
        sys.exit("md2scd: heading %r not found" % heading)
    return lines[start:]


def in_fence(lines, start, i):
    return sum(1 for l in lines[start:i] if l.startswith("```")) % 2 == 1


def convert(body, out):
    i = 0
    while i < len(body):
        l = body[i].rstrip()
        if l.startswith("```"):
            j = i + 1
            block = []
            while j < len(body) and not body[j].startswith("```"):
                block.append(body[j].rstrip())
                j += 1
            out.append("```\n" + "\n".join(block) + "\n```")
            i = j + 1
        elif l.startswith("#"):
            out.append("## " + inline(l.lstrip("#").strip()))
            i += 1
        elif l.startswith("|"):
            rows = []
            while i < len(body) and body[i].startswith("|"):
                rows.append(cells(body[i]))
                i += 1
            head, data = rows[0], [r for r in rows[2:]]
            for r in data:
                term = inline(r[0])
                text = inline(r[1]) if len(r) > 1 else ""
                extra = ["%s: %s" % (esc(head[k]), inline(r[k]))
                         for k in range(2, min(len(r), len(head)))
                         if r[k] and r[k] not in ("—", "-")]
                out.append("*%s*\n\t%s" % (term, ". ".join([text] + extra) if extra else text))
        elif re.match(r"^\s*[-*] ", l):
            items = []
            while i < len(body) and body[i].strip():
                if re.match(r"^\s*[-*] ", body[i]):
                    items.append(re.sub(r"^\s*[-*] ", "", body[i].rstrip()))
                else:
                    items[-1] += " " + body[i].strip()
                i += 1
            out.append("\n".join("- " + inline(t) for t in items))
        elif not l.strip():
            i += 1
        else:
            para = []
            while i < len(body) and body[i].strip() and not re.match(r"^(```|#|\||\s*[-*] )", body[i]):
                para.append(body[i].strip())
                i += 1
            out.append(inline(" ".join(para)))


def main():
    readme, heading, name, sec, summary = sys.argv[1:6]
    lines = open(readme, encoding="utf-8").read().split("\n")
    out = []
    convert(section(lines, heading), out)
    sys.stdout.write("%s(%s)\n\n# NAME\n\n%s - %s\n\n# DESCRIPTION\n\n" % (name, sec, name, esc(summary)))
    sys.stdout.write("\n\n".join(out) + "\n\n")
    sys.stdout.write("# SEE ALSO\n\n*stablemate*(1), *stablemate-run*(1), *stablemate-notes*(5), "
                     "*stablemate-config*(5), *git-notes*(1)\n")


if __name__ == "__main__":
    main()
