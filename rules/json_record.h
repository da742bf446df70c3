/* json_record: one JSON record of classify's batch input (a JSONL line, an
 * element of a JSON array, or a whole JSON object) read into a commit.
 *
 * A record holds the message as "description" or "message", or as
 * "subject" and "body" (a kernel CVE description's opening line, "In the
 * Linux kernel, the following vulnerability has been resolved:", is
 * dropped); "cve" or "id" names it. A CVE JSON 5 record, as the kernel
 * CVE team publishes them, is read too: its English description, named by
 * its cveMetadata.cveId; "files", [{"file": "drivers/x.c",
 * "added": 3, "removed": 1}], gives the diff's paths and sizes when only
 * numstat is at hand (a bare path string says nothing of size and is left
 * out; a count absent or null is 0, as numstat's "-" for a binary file). */
#ifndef SM_RULES_JSON_RECORD_H
#define SM_RULES_JSON_RECORD_H
#include <stddef.h>
#include "lib/strbuf.h"
#include "rules/commit.h"

/* The members of the record read last, kept from record to record so a
 * corpus reads into the same buffers. */
struct sm_json_record {
	struct strbuf desc, msg, subject, body, cve, id, files;
	struct strbuf scratch;
};
#define SM_JSON_RECORD_INIT { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, \
			      STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT }

void sm_json_record_release(struct sm_json_record *r);

/* Reads the JSON object json[0..len) into c. *id gets the record's name
 * ("cve", else "id": a string, or a number as written), NULL when it has
 * none; it lives until the next call. Returns 0, or -1 with why in err
 * ("not a JSON object", "no \"description\", \"message\" or \"subject\"
 * member", "files[0]: \"added\" is -3, not a count of lines") and c left
 * released: a file's lines taken wrong would pass a 5,000-line change for
 * a tiny one. */
int sm_json_record_read(struct sm_json_record *r, const char *json, size_t len,
			struct sm_commit *c, const char **id, struct strbuf *err);

/* Does the first line of text[0..len) (white space skipped) open JSON
 * records: "{" before a member name or "}", "[" before an object, an array,
 * a string or "]", or either alone on its line? Not "[PATCH] net: ...". */
int sm_json_records_start(const char *text, size_t len);

/* Calls fn with each record of a JSON text in memory and the line it starts
 * on (from 1): JSON lines, one object, objects one after the other (as `jq`
 * prints them) or arrays of them, each element a record. Stops at fn's
 * non-zero return and returns it; -1 where the text stops being JSON, with
 * *line set to the line; else 0. */
typedef int (*sm_json_record_fn)(const char *json, size_t len, unsigned long line, void *ctx);
int sm_json_records_each(const char *text, size_t len, sm_json_record_fn fn, void *ctx,
			 unsigned long *line);

#endif
