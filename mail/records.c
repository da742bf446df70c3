/* records: the commits of one input (JSONL, a JSON text, git log output
 * or an mbox) read as a stream; see records.h. */
#include "mail/records.h"
#include "lib/fileio.h"
#include "lib/json_read.h"
#include "lib/util.h"
#include "mail/mbox.h"
#include "mail/plain.h"
#include "mail/stream.h"
#include "rules/gitlog.h"
#include "rules/json_record.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A first line longer than this is no "commit <id> (refs)" line, nor the
 * "{" or "[" that opens a JSON text laid out over lines */
#define FIRST_LINE_MAX 4096

struct reader {
	struct sm_records *r;
	const char *name;	/* r->path in messages: "-" is "(standard input)" */
	/* 0 until the first non-blank byte; then 'f' until the first line is
	 * whole, then 'j' JSONL, 'a' another JSON text (read whole into doc),
	 * 'g' git log or 'm' mbox */
	int mode;
	unsigned bom;		/* bytes of a UTF-8 byte-order mark read at the start */
	int past_bom;		/* 1 once a byte that is not one was */
	/* the blank lines before the first line, which the line numbers
	 * of errors count too */
	unsigned long blank_lines;
	struct strbuf first;	/* in mode 'f': the first line so far */
	struct sm_lines lines;	/* JSONL and git log */
	struct sm_gitlog log;
	int colored;		/* git log under color.ui=always: escapes stripped */
	struct strbuf plain_line;	/* a line without them */
	struct sm_mbox_parser *mbox;
	struct sm_json_record rec;	/* a JSON record's members, kept */
	struct strbuf err;	/* why a record is unreadable */
	struct strbuf doc;	/* mode 'a' */
	int stopped;		/* a JSON record's callback stopped the reading */
	struct strbuf open;	/* mode 'j': an object laid out over lines, so far */
	unsigned long open_line;	/* the line it began on */
};

int sm_record_parse(struct sm_commit *c, const char *text, size_t len, const char *path,
		    unsigned n)
{
	struct strbuf plain = STRBUF_INIT;
	long nul = binary_nul_offset(text, len);
	char what[300];
	int ret;

	/* a verdict on random bytes is noise, and printing their "subject"
	 * garbles the terminal */
	if (nul >= 0)
		return sm_error("binary data (a NUL byte at offset %ld): not a commit, a mail or JSON",
				nul);
	if (!sm_mail_is_encoded(text, len))
		return sm_commit_parse(c, text, len);
	if (n)
		snprintf(what, sizeof(what), "%s: message %u", path, n);
	else
		snprintf(what, sizeof(what), "%s", path);
	if (sm_mail_to_plain(text, len, what, &plain)) {
		sm_warn("%s; read undecoded", sm_last_error());
		return sm_commit_parse(c, text, len);
	}
	ret = sm_commit_parse(c, plain.buf, plain.len);
	strbuf_release(&plain);
	return ret;
}

void sm_record_id_from_separator(struct sm_commit *c, const char *from)
{
	if (!c->id && !c->is_cover_letter && strlen(from) > 40 && from[40] == ' ' &&
	    is_hex_string(from, 40))
		c->id = xstrndup(from, 40);
}

int sm_records_refuse_messageless(const char *path, const char *line, size_t len)
{
	const char *what = sm_gitlog_messageless(line, len);

	if (!what)
		return 0;
	return sm_error("%s: looks like %s: give `git log`, `git log --numstat` or `git log -p`",
			path, what);
}

/* A record that cannot be read, said as fmt: strict, the error that stops
 * the reading; else a warning that says what is skipped ("skipped", "the
 * rest skipped"), counted. */
static int unreadable_as(struct reader *rd, const char *skipped, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int unreadable_as(struct reader *rd, const char *skipped, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rd->r->strict)
		return sm_error("%s", msg);
	sm_warn("%s (%s)", msg, skipped);
	rd->r->bad++;
	return 0;
}

/* one record */
#define unreadable(rd, ...) unreadable_as(rd, "skipped", __VA_ARGS__)

static int mbox_message(const struct sm_mbox_msg *m, void *ctx)
{
	struct reader *rd = ctx;
	struct sm_commit c;

	rd->r->records++;
	if (m->too_big)
		return unreadable(rd, "%s: message %u%s%s: %zu bytes, over the %zu-byte record size limit",
				  rd->name, m->n, *m->msgid ? " " : "", m->msgid, m->size,
				  rd->r->max_record);
	if (sm_record_parse(&c, m->data, m->len, rd->name, m->n))
		return unreadable(rd, "%s: message %u: %s", rd->name, m->n, sm_last_error());
	sm_record_id_from_separator(&c, m->from);
	return rd->r->fn(&c, NULL, rd->r->ctx);
}

/* A commit of `git log` output (sm_gitlog_fn) */
static int log_commit(const char *text, size_t len, unsigned n, int too_big, void *ctx)
{
	struct reader *rd = ctx;
	struct sm_commit c;

	rd->r->records++;
	if (too_big)
		return unreadable(rd, "%s: commit %u %s: %zu bytes, over the %zu-byte record size limit",
				  rd->name, n, rd->log.id, len, rd->r->max_record);
	/* a NUL byte ends a line in git log -z output: no binary data here */
	if (sm_commit_parse(&c, text, len))
		return unreadable(rd, "%s: commit %u %s: %s", rd->name, n, rd->log.id,
				  sm_last_error());
	return rd->r->fn(&c, NULL, rd->r->ctx);
}

/* A line of `git log` output (sm_line_fn) */
static int log_line(const char *line, size_t n, unsigned long lineno, int too_long, void *ctx)
{
	struct reader *rd = ctx;

	(void)lineno, (void)too_long;	/* line is NULL when too long */
	if (rd->colored && line) {
		strbuf_reset(&rd->plain_line);
		strbuf_add(&rd->plain_line, line, n);
		strbuf_setlen(&rd->plain_line, strip_ansi_escapes(rd->plain_line.buf, n));
		line = rd->plain_line.buf;
		n = rd->plain_line.len;
	}
	return sm_gitlog_line(&rd->log, line, n);
}

/* A line of spaces, tabs and a CR at most: no record. */
static int is_blank(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++, n--;
	return !n;
}

/* Is line[0..len) one whole JSON value, as a JSONL line is (or an
 * object laid out over lines, gathered)? */
static int whole_json_line(const char *line, size_t len)
{
	size_t end;

	return !json_value_end(line, len, &end) && is_blank(line + end, len - end);
}

/* Hands on c, the commit of the JSON record of line lineno, when it was
 * read (ok); else says why not (rd->err). */
static int json_judged(struct reader *rd, int ok, struct sm_commit *c, const char *name,
		       unsigned long lineno)
{
	int rc = ok ? rd->r->fn(c, name, rd->r->ctx) :
		      unreadable(rd, "%s:%lu: %s", rd->name, lineno, rd->err.buf);

	/* sm_json_records_each's -1 also means "not JSON": told apart */
	rd->stopped = rc < 0;
	return rc;
}

/* One JSON record, from line lineno of the input (sm_json_record_fn). */
static int json_record(const char *json, size_t n, unsigned long lineno, void *ctx)
{
	struct reader *rd = ctx;
	struct sm_commit c;
	const char *name;
	int ok;

	rd->r->records++;
	strbuf_reset(&rd->err);
	if (rd->mode == 'a')	/* lineno is the line of the JSON text read */
		lineno += rd->blank_lines;
	ok = !sm_json_record_read(&rd->rec, json, n, &c, &name, &rd->err);
	return json_judged(rd, ok, &c, name, lineno);
}

/* The object begun on line rd->open_line, handed on when closed; else a
 * record cut short (another began, or the input ended), said as such. */
static int flush_open(struct reader *rd)
{
	size_t end;
	int rc;

	if (!json_value_end(rd->open.buf, rd->open.len, &end)) {
		rc = json_record(rd->open.buf, rd->open.len, rd->open_line, rd);
	} else {
		rd->r->records++;
		/* one line alone is a bad line more likely than an object */
		rc = unreadable(rd, "%s:%lu: not JSON%s", rd->name, rd->open_line,
				memchr(rd->open.buf, '\n', rd->open.len) ?
				" (an object begun here is not closed)" : "");
	}
	strbuf_reset(&rd->open);
	return rc;
}

/* One JSONL line (the input is read a line at a time). Amid JSON lines,
 * an object may be laid out over lines, as jq prints one: a line that
 * opens an object it does not close gathers the lines after it, up to
 * the one that closes it or the next that opens another at its start. */
static int jsonl_line(const char *line, size_t n, unsigned long lineno, int too_long, void *ctx)
{
	struct reader *rd = ctx;
	struct sm_commit c;
	const char *name;
	size_t end;
	int rc;

	if (rd->open.len && !too_long && (!n || line[0] != '{')) {
		strbuf_addch(&rd->open, '\n');
		strbuf_add(&rd->open, line, n);
		if (rd->open.len > rd->r->max_record) {
			rd->r->records++;
			strbuf_reset(&rd->open);
			return unreadable(rd, "%s:%lu: an object over the %zu-byte record size limit",
					  rd->name, rd->open_line, rd->r->max_record);
		}
		/* only a line with a '}' can close it: the object is not
		 * read again for every line it has */
		if (!memchr(line, '}', n) || !whole_json_line(rd->open.buf, rd->open.len))
			return 0;
		return flush_open(rd);
	}
	if (rd->open.len && (rc = flush_open(rd)) < 0)
		return rc;
	if (too_long) {
		rd->r->records++;
		return unreadable(rd, "%s:%lu: %zu bytes, over the %zu-byte record size limit",
				  rd->name, lineno, n, rd->r->max_record);
	}
	if (is_blank(line, n))
		return 0;
	rd->r->records++;
	strbuf_reset(&rd->err);
	if (!sm_json_record_read(&rd->rec, line, n, &c, &name, &rd->err))
		return json_judged(rd, 1, &c, name, lineno);
	/* not read: the first line of an object laid out over lines? */
	if (line[0] == '{' && json_value_end(line, n, &end)) {
		rd->r->records--;	/* counted when it closes */
		strbuf_add(&rd->open, line, n);
		rd->open_line = lineno;
		return 0;
	}
	return json_judged(rd, 0, NULL, NULL, lineno);
}

/* Mode 'a' ends: the records of the JSON text read whole. */
static int json_document(struct reader *rd)
{
	unsigned long line;
	int rc = sm_json_records_each(rd->doc.buf, rd->doc.len, json_record, rd, &line);

	if (rc != -1 || rd->stopped)
		return rc;
	line += rd->blank_lines;
	rd->r->records++;
	return unreadable_as(rd, "the rest skipped", "%s:%lu: not JSON from here on", rd->name, line);
}

/* Mode 'f' ends: the first line (rd->first, whole, up to FIRST_LINE_MAX or
 * the input's end) picks the reader and is handed to it: JSONL when it is
 * a JSON object on its own (or too long to be the "{" of a JSON text laid
 * out over lines), another JSON text to read whole, `git log` output or an
 * mbox. */
static int choose(struct reader *rd)
{
	const char *nl = memchr(rd->first.buf, '\n', rd->first.len);
	size_t len = nl ? (size_t)(nl - rd->first.buf) : rd->first.len, max = rd->r->max_record;
	struct strbuf plain = STRBUF_INIT;
	int refused, log;

	if (rd->first.buf[0] == '{' &&
	    ((!nl && rd->first.len >= FIRST_LINE_MAX) || whole_json_line(rd->first.buf, len))) {
		rd->mode = 'j';
		sm_lines_init(&rd->lines, max, jsonl_line, rd);
		rd->lines.lineno = rd->blank_lines;
		return sm_lines_feed(rd->first.buf, rd->first.len, &rd->lines);
	}
	if (sm_json_records_start(rd->first.buf, len)) {
		rd->mode = 'a';
		strbuf_add(&rd->doc, rd->first.buf, rd->first.len);
		return 0;
	}
	/* `git log` under color.ui=always: each line's escapes go (log_line) */
	strbuf_add(&plain, rd->first.buf, len);
	strbuf_setlen(&plain, strip_ansi_escapes(plain.buf, len));
	refused = sm_records_refuse_messageless(rd->name, plain.buf, plain.len) < 0;
	log = sm_gitlog_is_header(plain.buf, plain.len);
	rd->colored = log && plain.len < len;
	strbuf_release(&plain);
	if (refused)
		return -1;
	if (log) {
		rd->mode = 'g';
		sm_gitlog_init(&rd->log, max, log_commit, rd);
		sm_lines_init(&rd->lines, max, log_line, rd);
		return sm_lines_feed(rd->first.buf, rd->first.len, &rd->lines);
	}
	rd->mode = 'm';
	rd->mbox = sm_mbox_parser_new(max, mbox_message, rd);
	return sm_mbox_parser_feed(rd->first.buf, rd->first.len, rd->mbox);
}

/* The input as it is read (an sm_sink_fn): the first line picks the
 * reader (choose); then one line or one message in memory at a time (a
 * JSON text other than JSONL whole, up to the record size limit). */
static int feed(const char *buf, size_t len, void *ctx)
{
	struct reader *rd = ctx;

	if (!rd->mode) {
		static const unsigned char bom[3] = { 0xef, 0xbb, 0xbf };
		size_t skip = 0;

		/* A byte-order mark, as some editors write one, then blank
		 * lines; the first bytes may come alone (the gzip test). */
		for (; skip < len; skip++) {
			unsigned char ch = (unsigned char)buf[skip];

			if (!rd->past_bom && rd->bom < 3 && ch == bom[rd->bom]) {
				rd->bom++;
				continue;
			}
			rd->past_bom = 1;
			if (ch == '\n')
				rd->blank_lines++;
			else if (ch != ' ' && ch != '\t' && ch != '\r')
				break;
		}
		if (skip == len)
			return 0;
		rd->mode = 'f';
		buf += skip;
		len -= skip;
	}
	if (rd->mode == 'f') {
		/* up to the first line's end, which may come in a later call */
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl + 1 - buf) : len;

		strbuf_add(&rd->first, buf, n);
		buf += n;
		len -= n;
		if (!nl && rd->first.len < FIRST_LINE_MAX)
			return 0;
		if (choose(rd) < 0)
			return -1;
	}
	if (!len)
		return 0;
	if (rd->mode == 'a') {
		strbuf_add(&rd->doc, buf, len);
		if (rd->doc.len > rd->r->max_record)
			return sm_error("%s: a JSON text over the %zu-byte record size limit: give it "
					"as JSON lines (jq -c '.[]') or raise --max-record-size",
					rd->name, rd->r->max_record);
		return 0;
	}
	return rd->mode == 'm' ? sm_mbox_parser_feed(buf, len, rd->mbox) :
				 sm_lines_feed(buf, len, &rd->lines);
}

/* The end of the input: what the readers still hold. */
static int finish(struct reader *rd)
{
	if (rd->mode == 'f' && choose(rd) < 0)
		return -1;
	switch (rd->mode) {
	case 'j':
		if (sm_lines_finish(&rd->lines) < 0)
			return -1;
		return rd->open.len ? flush_open(rd) : 0;
	case 'a':
		return json_document(rd);
	case 'g':
		return sm_lines_finish(&rd->lines) < 0 ? -1 : sm_gitlog_finish(&rd->log);
	case 'm': {
		int n = sm_mbox_parser_finish(rd->mbox);

		return n < 0 ? n : 0;
	}
	}
	return 0;
}

/* Reads r's input: the file r->path, or buf[0..len) when buf is not
 * NULL, handed on chunk bytes at a time (0: at once). */
static int read_records(struct sm_records *r, const char *buf, size_t len, size_t chunk)
{
	struct reader rd = { .r = r, .name = input_name(r->path),
			     .rec = SM_JSON_RECORD_INIT, .err = STRBUF_INIT,
			     .first = STRBUF_INIT, .plain_line = STRBUF_INIT, .doc = STRBUF_INIT,
			     .open = STRBUF_INIT };
	int rc = 0;

	r->records = r->bad = 0;
	if (!buf) {
		rc = sm_stream_file(r->path, feed, &rd);
	} else {
		struct sm_decoder *d = sm_decoder_new(r->path, feed, &rd);

		for (size_t at = 0, n; rc >= 0 && at < len; at += n) {
			n = chunk && chunk < len - at ? chunk : len - at;
			rc = sm_decoder_feed(d, buf + at, n);
		}
		if (rc >= 0)
			rc = sm_decoder_finish(d);
		sm_decoder_free(d);
	}
	if (rc >= 0)
		rc = finish(&rd);
	sm_lines_release(&rd.lines);
	sm_gitlog_release(&rd.log);
	strbuf_release(&rd.first);
	sm_mbox_parser_free(rd.mbox);
	sm_json_record_release(&rd.rec);
	strbuf_release(&rd.err);
	strbuf_release(&rd.doc);
	strbuf_release(&rd.plain_line);
	strbuf_release(&rd.open);
	return rc < 0 ? rc : 0;
}

int sm_records_read(struct sm_records *r)
{
	return read_records(r, NULL, 0, 0);
}

int sm_records_read_mem(struct sm_records *r, const char *buf, size_t len, size_t chunk)
{
	return read_records(r, buf, len, chunk);
}
