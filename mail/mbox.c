/* mbox: splitting on "From " lines; gzip through gmime's filter. */
#include "mail/mbox.h"
#include "mail/message.h"
#include "lib/util.h"
#include "lib/fileio.h"
#include <gmime/gmime.h>
#include <ctype.h>
#include <string.h>

int sm_gunzip(const char *data, size_t len, struct strbuf *out, const char *what)
{
	GMimeStream *src, *filt;
	GMimeFilter *gz;
	char buf[65536];
	ssize_t n;
	size_t before = out->len;

	sm_mail_library_init();
	src = g_mime_stream_mem_new_with_buffer(data, len);
	filt = g_mime_stream_filter_new(src);
	gz = g_mime_filter_gzip_new(GMIME_FILTER_GZIP_MODE_UNZIP, 0);
	g_mime_stream_filter_add(GMIME_STREAM_FILTER(filt), gz);
	g_object_unref(gz);
	while ((n = g_mime_stream_read(filt, buf, sizeof(buf))) > 0)
		strbuf_add(out, buf, n);
	g_object_unref(filt);
	g_object_unref(src);
	if (n < 0 || (out->len == before && len > 20))
		return sm_error("%s: not a valid gzip file", what);
	return 0;
}

int sm_mbox_read(const char *path, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;
	int ret = 0;

	if (read_file(path, &raw) < 0) {
		strbuf_release(&raw);
		return -1;
	}
	if (raw.len >= 2 && (unsigned char)raw.buf[0] == 0x1f && (unsigned char)raw.buf[1] == 0x8b)
		ret = sm_gunzip(raw.buf, raw.len, out, path);
	else
		strbuf_add(out, raw.buf ? raw.buf : "", raw.len);
	strbuf_release(&raw);
	return ret;
}

/* Does the line at p (up to end) look like "Header-Name: ..."? */
static int is_header_line(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && (isalnum((unsigned char)*q) || *q == '-' || *q == '_'))
		q++;
	return q > p && q < end && *q == ':';
}

/* Does a message start at p: a header block (header lines and their
 * continuations, up to a blank line or the end) holding From:, Message-ID:,
 * Subject: or Date:? "Tested-by: A <a@b>" after a body's "From my
 * testing:" line is a header-like line, but no message starts there. */
static int starts_message(const char *p, const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl : end;

		if (e == p || (e - p == 1 && *p == '\r'))
			return 0;	/* the blank line ends the headers */
		if (*p != ' ' && *p != '\t') {
			if (!is_header_line(p, e))
				return 0;
			if (istarts_with(p, "From:") || istarts_with(p, "Message-ID:") ||
			    istarts_with(p, "Subject:") || istarts_with(p, "Date:"))
				return 1;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* A "From " separator: "From sender date" with a time in it, or (mboxo
 * writers that drop the date) at the start or after a blank line with a
 * header on the next line. "From the user's view..." in a body is neither.
 * A dateless one must also start a message (mboxo does not escape a body's
 * "From my testing:", and a trailer under it looks like a header): if not,
 * the line stays in its message, with a warning. A dated one always
 * splits (what follows it may be a broken mail, named on import). */
static int is_separator(const char *mbox, const char *line, const char *end)
{
	const char *p, *nl;
	int sep = 0, dated = 0;

	if (end - line < 5 || strncmp(line, "From ", 5))
		return 0;
	nl = memchr(line, '\n', end - line);
	nl = nl ? nl : end;
	for (p = line + 5; !sep && p + 4 < nl; p++)
		if (isdigit((unsigned char)p[0]) && p[1] == ':' && isdigit((unsigned char)p[2]) &&
		    isdigit((unsigned char)p[3]))
			sep = dated = 1;
	if (!sep && (line == mbox || (line - mbox >= 2 && line[-2] == '\n') ||
		     (line - mbox >= 3 && line[-2] == '\r' && line[-3] == '\n')))
		sep = nl < end && is_header_line(nl + 1, end);
	if (sep && !dated && line != mbox && !starts_message(nl < end ? nl + 1 : end, end)) {
		size_t lineno = 1;

		for (p = mbox; p < line; p++)
			lineno += *p == '\n';
		sm_warn("mbox line %zu: \"%.*s\" is followed by no mail headers: a body line "
			"an mboxo writer did not escape; kept in its message", lineno,
			(int)(nl - line > 60 ? 60 : nl - line), line);
		return 0;
	}
	return sep;
}

static int emit(const char *start, const char *stop, struct strbuf *msg,
		sm_mbox_fn fn, void *data)
{
	const char *p, *nl;

	strbuf_reset(msg);
	for (p = start; p < stop; p = nl) {
		const char *q = p;

		nl = memchr(p, '\n', stop - p);
		nl = nl ? nl + 1 : stop;
		/* mboxrd: ">From ", ">>From " lose one '>'. */
		while (q < nl && *q == '>')
			q++;
		if (q > p && nl - q >= 5 && !strncmp(q, "From ", 5))
			p++;
		strbuf_add(msg, p, nl - p);
	}
	return fn(msg->buf ? msg->buf : "", msg->len, data);
}

int sm_mbox_split(const char *mbox, size_t len, sm_mbox_fn fn, void *data)
{
	const char *end = mbox + len, *p = mbox, *start = NULL, *nl;
	struct strbuf msg = STRBUF_INIT;
	int count = 0, ret;

	for (p = mbox; p < end; p = nl) {
		nl = memchr(p, '\n', end - p);
		nl = nl ? nl + 1 : end;
		if (!is_separator(mbox, p, end))
			continue;
		if (start && p > start) {
			if ((ret = emit(start, p, &msg, fn, data)) < 0)
				goto out;
			count++;
		}
		start = nl;
	}
	if (!start && len)
		start = mbox;	/* a single message without a "From " line */
	if (start && start < end) {
		if ((ret = emit(start, end, &msg, fn, data)) < 0)
			goto out;
		count++;
	}
	ret = count;
out:
	strbuf_release(&msg);
	return ret;
}
