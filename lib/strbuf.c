#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* What buf points at while nothing is allocated (alloc == 0). Nothing writes
 * into it or frees it: every write first grows the buffer. */
char strbuf_slopbuf[1];

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->buf = strbuf_slopbuf;
	sb->len = sb->alloc = 0;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;

	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->alloc)
		return;
	if (need < sb->alloc * 2)
		need = sb->alloc * 2;
	if (need < 64)
		need = 64;
	if (!sb->alloc) {
		/* The slop buffer (or a zeroed strbuf's NULL): nothing to keep. */
		sb->buf = xmalloc(need);
		sb->buf[0] = '\0';
	} else {
		sb->buf = xrealloc(sb->buf, need);
	}
	sb->alloc = need;
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc) {
		if (!len)
			return;
		strbuf_grow(sb, len);
	}
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_add_masked(struct strbuf *sb, const char *s, size_t len)
{
	size_t start = 0, i = 0;

	while (i < len) {
		size_t n = control_char_len(s + i, len - i);

		if (!n) {
			i++;
			continue;
		}
		strbuf_add(sb, s + start, i - start);
		strbuf_addch(sb, '?');
		i += n;
		start = i;
	}
	strbuf_add(sb, s + start, len - start);
}

void strbuf_trim(struct strbuf *sb)
{
	size_t start = 0;

	if (!sb->len)
		return;
	while (sb->len && isspace((unsigned char)sb->buf[sb->len - 1]))
		sb->len--;
	while (start < sb->len && isspace((unsigned char)sb->buf[start]))
		start++;
	memmove(sb->buf, sb->buf + start, sb->len - start);
	strbuf_setlen(sb, sb->len - start);
}
