#!/usr/bin/env python3
"""help2scd: a subcommand's man page, in scdoc, from its --help text.

`stablemate CMD --help` is generated from the command's option table, so the
page and --help cannot drift: the usage lines become SYNOPSIS, the option
lines ("  -x, --long ARG   text" with indented continuation lines) become
OPTIONS, and the rest (prose, indented tables, examples) becomes DESCRIPTION.
A hand-written doc/man/stablemate-CMD.extra.scd, when present, is appended
(EXAMPLES and the like).

usage: help2scd.py CMD ONE-LINE-SUMMARY < help.txt > stablemate-CMD.1.scd
"""
import re
import sys

OPT = re.compile(r"^ {1,6}(-[-A-Za-z0-9]|--[a-z])")


def esc(s):
    """Escapes scdoc's markup characters in running text."""
    s = s.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")
    return s


def split_option(line):
    """'  --tree BRANCH   text' -> ('--tree BRANCH', 'text')."""
    body = line.strip()
    m = re.match(r"^(\S.*?)(?: {2,}|\t+)(\S.*)$", body)
    if m:
        return m.group(1), m.group(2)
    return body, ""


def main():
    cmd, summary = sys.argv[1], sys.argv[2]
    lines = sys.stdin.read().rstrip("\n").split("\n")
    i = 0
    synopsis = []
    while i < len(lines) and lines[i].strip():
        synopsis.append(re.sub(r"^usage: ", "", lines[i].rstrip()).strip())
        i += 1
    desc, opts, block = [], [], []

    def flush_block():
        if block:
            desc.append("```\n" + "\n".join(block) + "\n```")
            block.clear()

    para = []

    def flush_para():
        if para:
            desc.append(esc(" ".join(para)))
            para.clear()

    while i < len(lines):
        line = lines[i].rstrip()
        if not line.strip():
            flush_para()
            flush_block()
            i += 1
            continue
        if OPT.match(line):
            flush_para()
            flush_block()
            name, text = split_option(line)
            indent = len(line) - len(line.lstrip())
            i += 1
            more = [text] if text else []
            while i < len(lines) and lines[i].strip() and \
                    len(lines[i]) - len(lines[i].lstrip()) > indent and \
                    not OPT.match(lines[i]):
                more.append(lines[i].strip())
                i += 1
            opts.append((name, " ".join(more)))
            continue
        if line.startswith(" "):
            flush_para()
            block.append(line)
        else:
            flush_block()
            if re.match(r"^[A-Z][A-Za-z ]*:$", line) and line[:-1] in ("Options",):
                i += 1
                continue
            para.append(line.strip())
        i += 1
    flush_para()
    flush_block()

    out = sys.stdout
    out.write("stablemate-%s(1)\n\n" % cmd)
    out.write("# NAME\n\nstablemate-%s - %s\n\n" % (cmd, esc(summary)))
    out.write("# SYNOPSIS\n\n")
    out.write("```\n" + "\n".join(synopsis) + "\n```\n\n")
    if desc:
        out.write("# DESCRIPTION\n\n" + "\n\n".join(desc) + "\n\n")
    if opts:
        out.write("# OPTIONS\n\n")
        for name, text in opts:
            out.write("*%s*\n" % esc(name))
            out.write("\t%s\n\n" % (esc(text) if text else "(no description)"))
    out.write("# SEE ALSO\n\n*stablemate*(1), *stablemate-config*(5), "
              "*stablemate-notes*(5), and README.md of the source tree.\n")


if __name__ == "__main__":
    main()
