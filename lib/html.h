/* html: escaping for the static pages stablemate writes (the dashboard). */
#ifndef SM_HTML_H
#define SM_HTML_H
#include "lib/strbuf.h"

/* Appends s with &, <, >, " and ' escaped: safe in text and quoted attributes. */
void html_escape(struct strbuf *out, const char *s);
/* A file-name-safe form of s: bytes outside [A-Za-z0-9._-] become '_', a
 * leading '.' too (no hidden files, no ".."). */
void file_slug(struct strbuf *out, const char *s);

#endif
