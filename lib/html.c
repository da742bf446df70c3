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
