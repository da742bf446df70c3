/* ident: person cleanup and alias matching for trailer verification. */
#include "mail/ident.h"
#include "lib/fileio.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>

static int addr_char(char c)
{
	return c && !isspace((unsigned char)c) && !strchr("<>[]()\"',;&", c);
}

/* The address starting at or after p (within [p, end)): skips "mailto:". */
static int take_address(const char *p, const char *end, const char **a, size_t *alen)
{
	const char *q;

	while (p < end && !addr_char(*p))
		p++;
	if ((size_t)(end - p) >= 7 && !strncasecmp(p, "mailto:", 7))
		p += 7;
	for (q = p; q < end && addr_char(*q); q++)
		;
	if (q == p || !memchr(p, '@', (size_t)(q - p)))
		return 0;
	*a = p;
	*alen = (size_t)(q - p);
	return 1;
}

int sm_ident_clean(const char *s, size_t len, struct strbuf *out)
{
	struct strbuf in = STRBUF_INIT;
	const char *p, *end, *lt, *a = NULL, *name_end;
	size_t alen = 0;
	int found = 0;

	/* HTML-escaped brackets first. */
	for (size_t i = 0; i < len; i++) {
		if (len - i >= 4 && !strncasecmp(s + i, "&lt;", 4)) {
			strbuf_addch(&in, '<');
			i += 3;
		} else if (len - i >= 4 && !strncasecmp(s + i, "&gt;", 4)) {
			strbuf_addch(&in, '>');
			i += 3;
		} else {
			strbuf_addch(&in, s[i]);
		}
	}
	p = in.buf;
	end = p + in.len;
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	lt = memchr(p, '<', (size_t)(end - p));
	if (lt) {
		found = take_address(lt + 1, end, &a, &alen);
		name_end = lt;
	} else {
		/* "Name a@b.example [mailto:...]": the first word with an '@'. */
		const char *w = p;

		name_end = end;
		while (w < end) {
			const char *we = w;

			while (we < end && !isspace((unsigned char)*we))
				we++;
			if (memchr(w, '@', (size_t)(we - w)) && take_address(w, we, &a, &alen)) {
				found = 1;
				name_end = w;
				break;
			}
			w = we;
			while (w < end && isspace((unsigned char)*w))
				w++;
		}
	}
	if (!found) {
		strbuf_add(out, p, (size_t)(end - p));
		strbuf_release(&in);
		return 0;
	}
	while (name_end > p && isspace((unsigned char)name_end[-1]))
		name_end--;
	if (name_end > p) {
		strbuf_add(out, p, (size_t)(name_end - p));
		strbuf_addf(out, " <%.*s>", (int)alen, a);
	} else {
		strbuf_add(out, a, alen);
	}
	strbuf_release(&in);
	return 1;
}

void sm_ident_address(const char *s, struct strbuf *out)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *a, *lt;
	size_t start = out->len;

	if (!s || !sm_ident_clean(s, strlen(s), &tmp)) {
		strbuf_release(&tmp);
		return;
	}
	a = tmp.buf;
	lt = strrchr(a, '<');
	if (lt)
		strbuf_add(out, lt + 1, strlen(lt + 1) - 1);
	else
		strbuf_addstr(out, a);
	for (size_t i = start; i < out->len; i++)
		out->buf[i] = (char)tolower((unsigned char)out->buf[i]);
	strbuf_release(&tmp);
}

int sm_aliases_parse(struct sm_aliases *a, const char *text, const char *name)
{
	const char *p = text ? text : "", *start;
	size_t line = 0, person = 0, len;

	while (next_text_line(&p, &start, &len)) {
		const char *e = start + len;
		const char *q = start;
		size_t n = 0;

		line++;
		while (q < e && isspace((unsigned char)*q))
			q++;
		if (q < e && *q != '#') {
			while ((q = memchr(q, '<', (size_t)(e - q)))) {
				const char *gt = memchr(q, '>', (size_t)(e - q));
				struct strbuf addr = STRBUF_INIT;

				if (!gt)
					return sm_error("%s:%zu: '<' without '>'", name, line);
				strbuf_add(&addr, q + 1, (size_t)(gt - q - 1));
				strbuf_trim(&addr);
				if (!addr.len || !strchr(addr.buf, '@')) {
					strbuf_release(&addr);
					return sm_error("%s:%zu: not an address between < and >",
							name, line);
				}
				for (size_t i = 0; i < addr.len; i++)
					addr.buf[i] = (char)tolower((unsigned char)addr.buf[i]);
				ALLOC_GROW(a->person, a->addr.nr, a->alloc);
				a->person[a->addr.nr] = person;
				strlist_append_nodup(&a->addr, strbuf_detach(&addr, NULL));
				n++;
				q = gt + 1;
			}
			if (!n)
				return sm_error("%s:%zu: no <address> on the line", name, line);
			person++;
		}
	}
	return 0;
}

int sm_aliases_load(struct sm_aliases *a, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (read_file(path, &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	rc = sm_aliases_parse(a, sb.buf, path);
	strbuf_release(&sb);
	return rc;
}

void sm_aliases_release(struct sm_aliases *a)
{
	strlist_clear(&a->addr);
	free(a->person);
	memset(a, 0, sizeof(*a));
}

int sm_aliases_same(const struct sm_aliases *a, const char *x, const char *y)
{
	if (!x || !y || !*x || !*y)
		return 0;
	if (!strcasecmp(x, y))
		return 1;
	if (!a)
		return 0;
	for (size_t i = 0; i < a->addr.nr; i++) {
		if (strcasecmp(a->addr.items[i], x))
			continue;
		for (size_t j = 0; j < a->addr.nr; j++)
			if (a->person[j] == a->person[i] && !strcasecmp(a->addr.items[j], y))
				return 1;
	}
	return 0;
}
