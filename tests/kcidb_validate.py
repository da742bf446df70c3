#!/usr/bin/env python3
"""kcidb_validate.py SCHEMA DOC: checks a KCIDB document against the JSON
schema (Debian's python3-jsonschema) and that every build names a checkout
and every test a build of the same document. Prints the first problem."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
try:
    jsonschema.validate(doc, schema, format_checker=jsonschema.FormatChecker())
except jsonschema.ValidationError as e:
    print("%s: %s at %s" % (sys.argv[2], e.message, "/".join(str(p) for p in e.absolute_path)))
    sys.exit(1)
checkouts = {c["id"] for c in doc.get("checkouts", [])}
builds = {b["id"] for b in doc.get("builds", [])}
for b in doc.get("builds", []):
    if b["checkout_id"] not in checkouts:
        print("%s: build %s: no checkout %s" % (sys.argv[2], b["id"], b["checkout_id"]))
        sys.exit(1)
for t in doc.get("tests", []):
    if t["build_id"] not in builds:
        print("%s: test %s: no build %s" % (sys.argv[2], t["id"], t["build_id"]))
        sys.exit(1)
ids = [x["id"] for k in ("checkouts", "builds", "tests") for x in doc.get(k, [])]
if len(ids) != len(set(ids)):
    print("%s: duplicate ids" % sys.argv[2])
    sys.exit(1)
print("ok: %d checkouts, %d builds, %d tests" % (len(checkouts), len(builds), len(doc.get("tests", []))))
