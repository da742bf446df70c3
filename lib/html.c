/* html: escaping for the static pages stablemate writes. */
#include "lib/html.h"
#include <string.h>

void html_escape(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&#39;"); break;
		default: strbuf_addch(out, *s);
		}
	}
}

static int unreserved(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_' || c == '~' || c == '@';
}

void url_escape_segment(struct strbuf *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		/* "." and ".." as a whole segment would walk the path */
		if (*p == '.' && (p == (const unsigned char *)s) &&
		    (!p[1] || (p[1] == '.' && !p[2]))) {
			strbuf_addstr(out, "%2E");
			continue;
		}
		if (unreserved(*p)) {
			strbuf_addch(out, *p);
		} else {
			strbuf_addch(out, '%');
			strbuf_addch(out, hex[*p >> 4]);
			strbuf_addch(out, hex[*p & 15]);
		}
	}
}

void file_slug(struct strbuf *out, const char *s)
{
	size_t start = out->len;

	for (; s && *s; s++) {
		char c = *s;
		int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '_' ||
			 (c == '.' && out->len > start);
		strbuf_addch(out, ok ? c : '_');
	}
	if (out->len == start)
		strbuf_addch(out, '_');
}
