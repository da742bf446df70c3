/* line: reading a commit's text a line at a time, as rules/commit.c and
 * rules/diffstat.c do. A line comes without its "\n", or "\r\n" for text
 * saved with CRLF line ends (a mail or a file from Windows): the "\r" is
 * no part of a path, a trailer or a diff line. */
#ifndef SM_RULES_LINE_H
#define SM_RULES_LINE_H
#include <ctype.h>
#include <stddef.h>
#include <string.h>

struct line {
	const char *p;
	size_t len;
};

/* The line at *pos (before end) into l, *pos moved past it; 0 at the end. */
static inline int next_line(const char **pos, const char *end, struct line *l)
{
	const char *s = *pos, *nl;

	if (s >= end)
		return 0;
	nl = memchr(s, '\n', (size_t)(end - s));
	l->p = s;
	l->len = nl ? (size_t)(nl - s) : (size_t)(end - s);
	if (l->len && l->p[l->len - 1] == '\r')
		l->len--;
	*pos = nl ? nl + 1 : end;
	return 1;
}

/* s[0..len) holds white space only (or nothing) */
static inline int is_blank_text(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

static inline int is_blank(const struct line *l)
{
	return is_blank_text(l->p, l->len);
}

#endif
