/* records: the commits of one input, as `classify --batch` and `train`
 * read it, so that a model learns from the text a verdict reads.
 *
 * An input is JSON lines (rules/json_record.h says what a record holds),
 * another JSON text of records (an array, jq's output: read whole, up to
 * the record size limit), `git log` output of any format with the
 * messages (under color.ui=always too) or an mbox, gzipped or not; its
 * first line says which. It is read as a stream, one record in memory at
 * a time. A mail whose text is encoded (quoted-printable, base64, RFC 2047,
 * multipart, another charset) is decoded as classify decodes it, and
 * git format-patch's "From <id>" separator names a commit that does not
 * name itself. */
#ifndef SM_MAIL_RECORDS_H
#define SM_MAIL_RECORDS_H
#include <stddef.h>
#include "rules/commit.h"

/* One record read: c is the callee's to release. name is the record's
 * name when the record gives one apart from its commit (a JSON record's
 * "cve" or "id"), else NULL; it lives until the callback returns. A
 * negative return stops the reading and is returned. */
typedef int (*sm_record_fn)(struct sm_commit *c, const char *name, void *ctx);

struct sm_records {
	const char *path;	/* "-": standard input */
	size_t max_record;	/* a larger record (a line, a mail) is unreadable */
	/* 0: an unreadable record (binary data, a bad JSON record, one over
	 * the limit) is named by sm_warn, counted in bad, and skipped;
	 * 1: it stops the reading, -1 with sm_error naming it */
	int strict;
	sm_record_fn fn;
	void *ctx;
	unsigned records, bad;	/* out: the records met, the unreadable of them */
};

/* Reads r->path and calls r->fn with each record. 0, or -1 (sm_error
 * naming the path: it cannot be read, it is git output without messages,
 * a JSON text over the size limit; strict: the first unreadable record),
 * or the callback's < 0. */
int sm_records_read(struct sm_records *r);
/* The same on an input in memory (r->path only names it), handed on at
 * most chunk bytes at a time (0: at once) as a stream cuts it: for tests
 * and fuzz/fuzz_records.c, which cut it anywhere. */
int sm_records_read_mem(struct sm_records *r, const char *buf, size_t len, size_t chunk);

/* Parses text[0..len), one commit or mail, into c: message n of the input
 * path, or path itself when n is 0 (for a warning). Binary data (a NUL
 * byte) is refused: -1, sm_error saying where. An encoded mail is decoded
 * first; one gmime cannot read is parsed as it is, with a warning. */
int sm_record_parse(struct sm_commit *c, const char *text, size_t len, const char *path,
		    unsigned n);

/* git format-patch's mbox separator "From <sha> Mon Sep 17 ..." (from:
 * what follows "From ") names the commit of a patch that does not name
 * its own; a cover letter's is the series' tip, not its id. */
void sm_record_id_from_separator(struct sm_commit *c, const char *from);

/* -1 (sm_error naming path) when line[0..len), an input's first line,
 * starts git output with no message in it (git log --oneline or --graph,
 * git cherry, a list of ids): all its lines read as one message would be
 * a verdict on nothing. Else 0. */
int sm_records_refuse_messageless(const char *path, const char *line, size_t len);

#endif
