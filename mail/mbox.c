/* mbox: splitting a byte stream on "From " lines, one message at a time. */
#include "mail/mbox.h"
#include "mail/stream.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

/* A line longer than this is not a separator: its start is looked at, its
 * rest goes straight into the message. */
#define LINE_CAP 8192

enum sep { SEP_NO, SEP_YES, SEP_IF_HEADER_NEXT };

/* Does the line look like "Header-Name: ..."? */
static int is_header_line(const char *s, size_t len)
{
	const char *q = s, *end = s + len;

	while (q < end && (isalnum((unsigned char)*q) || *q == '-' || *q == '_'))
		q++;
	return q > s && q < end && *q == ':';
}

static int is_blank(const char *s, size_t len)
{
	return (len == 1 && s[0] == '\n') || (len == 2 && s[0] == '\r' && s[1] == '\n') || !len;
}

/*
 * The splitting decision, first part. line is one whole line (its '\n'
 * included); after_blank: the line before it was blank, or it is the first.
 * A "From " line is a separator when it carries a time ("From x Mon Jul  1
 * 09:00:00 2024"); a dateless one (mboxo writers that drop the date) only
 * after a blank line and when a header line follows (SEP_IF_HEADER_NEXT).
 * "From the user's view..." in a body is neither. The second part is
 * starts_message_line(): past the first line of the input, a dateless one
 * must also be followed by a mail's header block (mboxo does not escape a
 * body's "From my testing:", and a trailer under it looks like a header).
 */
static enum sep from_line(const char *line, size_t len, int after_blank)
{
	const char *p, *e = line + len;

	if (len < 5 || memcmp(line, "From ", 5))
		return SEP_NO;
	while (e > line && (e[-1] == '\n' || e[-1] == '\r'))
		e--;
	for (p = line + 5; p + 3 < e; p++)
		if (isdigit((unsigned char)p[0]) && p[1] == ':' && isdigit((unsigned char)p[2]) &&
		    isdigit((unsigned char)p[3]))
			return SEP_YES;
	return after_blank ? SEP_IF_HEADER_NEXT : SEP_NO;
}

/* In a header block after a dateless "From " line: 1 when this header line
 * shows a message starts (From:, Message-ID:, Subject:, Date:), 0 when the
 * block may go on (another header, a continuation), -1 when it shows none
 * does (a blank or non-header line ends the block without one). */
static int starts_message_line(const char *s, size_t n)
{
	if (is_blank(s, n))
		return -1;
	if (*s == ' ' || *s == '\t')
		return 0;
	if (!is_header_line(s, n))
		return -1;
	return !strncasecmp(s, "From:", 5) || (n >= 11 && !strncasecmp(s, "Message-ID:", 11)) ||
	       (n >= 8 && !strncasecmp(s, "Subject:", 8)) || !strncasecmp(s, "Date:", 5);
}

/* A held dateless "From " line: waiting for the next line (HOLD_NEXT) or,
 * past the input's first line, for its header block to show a message. */
enum { HOLD_NONE, HOLD_NEXT, HOLD_BLOCK };
#define HOLD_MAX (8 * LINE_CAP)

struct sm_mbox_parser {
	size_t max;
	sm_mbox_msg_fn fn;
	void *data;
	struct strbuf line;	/* the current line, up to LINE_CAP */
	int long_line;		/* the current line went past LINE_CAP */
	struct strbuf held;	/* a dateless "From " line, then its header block */
	int hold;		/* HOLD_* */
	size_t held_from;	/* the length of the "From " line in held */
	unsigned long held_lineno;
	int held_at_start;	/* it is the input's first line */
	unsigned long lineno;	/* lines seen */
	struct strbuf msg;	/* the current message (empty once over the cap) */
	size_t size;		/* the current message's size, also past the cap */
	int over;
	int seen_sep;		/* a separator was seen: text before the first is dropped */
	int after_blank;
	int in_headers;
	int msgid_next;		/* "Message-ID:" was empty: the value is on the next line */
	char msgid[256];
	char from[128];		/* the separator line of the current message */
	unsigned count;
	int err;
};

struct sm_mbox_parser *sm_mbox_parser_new(size_t max_message, sm_mbox_msg_fn fn, void *data)
{
	struct sm_mbox_parser *p = xcalloc(1, sizeof(*p));

	strbuf_init(&p->line, 0);
	strbuf_init(&p->held, 0);
	strbuf_init(&p->msg, 0);
	p->max = max_message ? max_message : SM_MBOX_MAX_MESSAGE;
	p->fn = fn;
	p->data = data;
	p->after_blank = 1;
	p->in_headers = 1;
	return p;
}

void sm_mbox_parser_free(struct sm_mbox_parser *p)
{
	if (!p)
		return;
	strbuf_release(&p->line);
	strbuf_release(&p->held);
	strbuf_release(&p->msg);
	free(p);
}

unsigned sm_mbox_parser_count(const struct sm_mbox_parser *p)
{
	return p->count;
}

static void msg_add(struct sm_mbox_parser *p, const char *s, size_t n)
{
	p->size += n;
	if (p->over)
		return;
	if (p->msg.len + n > p->max) {
		p->over = 1;
		strbuf_release(&p->msg);
		return;
	}
	strbuf_add(&p->msg, s, n);
}

static void new_message(struct sm_mbox_parser *p)
{
	if (p->msg.alloc > ((size_t)1 << 20))
		strbuf_release(&p->msg);	/* a big message's memory is not kept */
	else
		strbuf_reset(&p->msg);
	p->size = 0;
	p->over = 0;
	p->in_headers = 1;
	p->msgid_next = 0;
	p->msgid[0] = '\0';
	p->from[0] = '\0';
	p->after_blank = 0;
}

static void set_msgid(struct sm_mbox_parser *p, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= sizeof(p->msgid))
		n = sizeof(p->msgid) - 1;
	memcpy(p->msgid, s, n);
	p->msgid[n] = '\0';
	p->msgid_next = !n;
}

/* Keeps what follows "From " on the separator line s[0..n). */
static void set_from(struct sm_mbox_parser *p, const char *s, size_t n)
{
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (n >= 5 && !memcmp(s, "From ", 5)) {
		s += 5;
		n -= 5;
	} else {
		n = 0;
	}
	if (n >= sizeof(p->from))
		n = sizeof(p->from) - 1;
	memcpy(p->from, s, n);
	p->from[n] = '\0';
}

static int emit(struct sm_mbox_parser *p)
{
	struct sm_mbox_msg m = {
		.data = p->over ? NULL : p->msg.buf,
		.len = p->over ? 0 : p->msg.len,
		.n = ++p->count,
		.size = p->size,
		.msgid = p->msgid,
		.from = p->from,
		.too_big = p->over,
	};
	int rc = p->fn(&m, p->data);

	if (rc < 0)
		p->err = rc;
	return rc < 0 ? rc : 0;
}

/* A separator: the message before it is complete. */
static int boundary(struct sm_mbox_parser *p)
{
	int rc = 0;

	if (p->seen_sep && p->size)
		rc = emit(p);
	p->seen_sep = 1;
	new_message(p);
	return rc;
}

/* A line (or a long line's start) of the current message. */
static void body_line(struct sm_mbox_parser *p, const char *s, size_t n)
{
	const char *q = s;

	/* mboxrd: ">From ", ">>From " lose one '>'. */
	while (q < s + n && *q == '>')
		q++;
	if (q > s && (size_t)(s + n - q) >= 5 && !memcmp(q, "From ", 5))
		s++, n--;
	if (p->in_headers) {
		if (is_blank(s, n))
			p->in_headers = 0;
		else if (p->msgid_next && (*s == ' ' || *s == '\t'))
			set_msgid(p, s, n);
		else {
			p->msgid_next = 0;
			if (!p->msgid[0] && n > 11 && !strncasecmp(s, "Message-ID:", 11))
				set_msgid(p, s + 11, n - 11);
		}
	}
	p->after_blank = is_blank(s, n);
	msg_add(p, s, n);
}

/* The held lines were a body's after all: back into the current message,
 * with a warning when they looked like a separator and a header block. */
static void release_held(struct sm_mbox_parser *p, int warn)
{
	const char *q = p->held.buf, *end = p->held.buf + p->held.len;

	if (warn) {
		size_t n = p->held_from;

		while (n && (q[n - 1] == '\n' || q[n - 1] == '\r'))
			n--;
		sm_warn("mbox line %lu: \"%.*s\" is followed by no mail headers: a body line "
			"an mboxo writer did not escape; kept in its message", p->held_lineno,
			(int)(n > 60 ? 60 : n), q);
	}
	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		size_t n = nl ? (size_t)(nl - q) + 1 : (size_t)(end - q);

		body_line(p, q, n);
		q += n;
	}
	strbuf_reset(&p->held);
	p->hold = HOLD_NONE;
}

/* The held "From " line was a separator: its header block opens the next message. */
static int confirm_held(struct sm_mbox_parser *p)
{
	struct strbuf block = STRBUF_INIT;
	const char *q, *end;
	int rc;

	strbuf_add(&block, p->held.buf + p->held_from, p->held.len - p->held_from);
	strbuf_reset(&p->held);
	p->hold = HOLD_NONE;
	rc = boundary(p);
	for (q = block.buf, end = block.buf + block.len; rc == 0 && q < end;) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		size_t n = nl ? (size_t)(nl - q) + 1 : (size_t)(end - q);

		body_line(p, q, n);
		q += n;
	}
	strbuf_release(&block);
	return rc < 0 ? p->err : 0;
}

/* With a line held, the next line s decides (returns 1), or is held too (0). */
static int resolve_held(struct sm_mbox_parser *p, const char *s, size_t n, int complete, int *rc)
{
	int st;

	*rc = 0;
	if (p->hold == HOLD_NEXT) {
		if (!complete || !is_header_line(s, n)) {
			release_held(p, 0);
			return 0;	/* s is processed as usual */
		}
		if (p->held_at_start) {
			*rc = confirm_held(p);	/* the input's first line needs no more */
			return 0;
		}
		p->hold = HOLD_BLOCK;
	}
	st = complete && p->held.len + n <= HOLD_MAX ? starts_message_line(s, n) : -1;
	if (st < 0) {
		release_held(p, 1);
		return 0;
	}
	if (st > 0) {
		*rc = confirm_held(p);
		return 0;
	}
	strbuf_add(&p->held, s, n);
	return 1;
}

/* One line; complete: its end was seen and it is not over LINE_CAP (a long
 * line's start is not complete). */
static int process_line(struct sm_mbox_parser *p, const char *s, size_t n, int complete)
{
	int rc, first = !p->lineno;

	p->lineno++;
	if (p->hold) {
		if (resolve_held(p, s, n, complete, &rc))
			return 0;
		if (rc < 0)
			return rc;
	}
	if (complete) {
		switch (from_line(s, n, p->after_blank)) {
		case SEP_YES:
			rc = boundary(p);
			set_from(p, s, n);
			return rc;
		case SEP_IF_HEADER_NEXT:
			strbuf_add(&p->held, s, n);
			p->held_from = n;
			p->held_lineno = p->lineno;
			p->held_at_start = first;
			p->hold = HOLD_NEXT;
			return 0;
		case SEP_NO:
			break;
		}
	}
	body_line(p, s, n);
	return 0;
}

int sm_mbox_parser_feed(const char *buf, size_t len, void *parser)
{
	struct sm_mbox_parser *p = parser;

	if (p->err)
		return p->err;
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) + 1 : len;

		if (p->long_line) {
			msg_add(p, buf, n);
			if (nl)
				p->long_line = 0, p->after_blank = 0;
		} else if (nl && !p->line.len) {
			/* A whole line in the input: no copy. A line longer than
			 * LINE_CAP counts as one whatever the pieces it came in. */
			if (process_line(p, buf, n, n - 1 <= LINE_CAP) < 0)
				return p->err;
		} else {
			strbuf_add(&p->line, buf, n);
			if (nl) {
				if (process_line(p, p->line.buf, p->line.len,
						 p->line.len - 1 <= LINE_CAP) < 0)
					return p->err;
				strbuf_reset(&p->line);
			} else if (p->line.len > LINE_CAP) {
				if (process_line(p, p->line.buf, p->line.len, 0) < 0)
					return p->err;
				strbuf_release(&p->line);
				p->long_line = 1;
			}
		}
		buf += n;
		len -= n;
	}
	return 0;
}

int sm_mbox_parser_finish(struct sm_mbox_parser *p)
{
	if (p->err)
		return p->err;
	if (p->line.len) {
		/* The last line, without its '\n'. */
		if (process_line(p, p->line.buf, p->line.len, 1) < 0)
			return p->err;
		strbuf_reset(&p->line);
	}
	if (p->hold)	/* nothing follows: a header block that shows no message */
		release_held(p, p->hold == HOLD_BLOCK);
	p->long_line = 0;
	if (p->size && emit(p) < 0)
		return p->err;
	new_message(p);
	return (int)p->count;
}

int sm_mbox_stream(const char *path, size_t max_message, sm_mbox_msg_fn fn, void *data)
{
	struct sm_mbox_parser *p = sm_mbox_parser_new(max_message, fn, data);
	int ret = sm_stream_file(path, sm_mbox_parser_feed, p);

	if (ret >= 0)
		ret = sm_mbox_parser_finish(p);
	sm_mbox_parser_free(p);
	return ret;
}

static int add_to(const char *buf, size_t len, void *sb)
{
	strbuf_add(sb, buf, len);
	return 0;
}

int sm_mbox_read(const char *path, struct strbuf *out)
{
	return sm_stream_file(path, add_to, out);
}

struct split_ctx {
	sm_mbox_fn fn;
	void *data;
};

static int split_one(const struct sm_mbox_msg *m, void *data)
{
	struct split_ctx *c = data;

	return c->fn(m->data, m->len, c->data);
}

int sm_mbox_split(const char *mbox, size_t len, sm_mbox_fn fn, void *data)
{
	struct split_ctx c = { fn, data };
	struct sm_mbox_parser *p = sm_mbox_parser_new(SIZE_MAX, split_one, &c);
	int ret = sm_mbox_parser_feed(mbox, len, p);

	if (ret >= 0)
		ret = sm_mbox_parser_finish(p);
	sm_mbox_parser_free(p);
	return ret;
}
