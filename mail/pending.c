/* pending: the list of reviewed patches waiting for their upstream commit. */
#include "mail/pending.h"
#include "lib/util.h"
#include <errno.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

static char *one_line(const char *s)
{
	char *d = xstrdup(s ? s : "");

	for (char *p = d; *p; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	return d;
}

/* Adds the item; p owns msgid and title. */
static void push(struct sm_pending *p, long long since, char *msgid, char *title)
{
	if (!p->ids)
		p->ids = g_hash_table_new(g_str_hash, g_str_equal);
	ALLOC_GROW(p->items, p->nr, p->alloc);
	p->items[p->nr].since = since;
	p->items[p->nr].msgid = msgid;
	p->items[p->nr].title = title;
	p->nr++;
	g_hash_table_add(p->ids, msgid);
}

static int has_msgid(const struct sm_pending *p, const char *msgid)
{
	return p->ids && g_hash_table_contains(p->ids, msgid);
}

static void drop_item(struct sm_pending *p, size_t i)
{
	g_hash_table_remove(p->ids, p->items[i].msgid);
	free(p->items[i].msgid);
	free(p->items[i].title);
}

/* "<epoch>\t<msgid>\t<title>": 0, or -1 when the line does not read */
static int parse_item(struct sm_pending *p, const char *line, size_t len)
{
	char *copy = xstrndup(line, len), *tab1, *tab2, *end;
	long long since;

	tab1 = strchr(copy, '\t');
	tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
	if (!tab2 || tab2 == tab1 + 1 || strchr(tab2 + 1, '\t'))
		goto bad;
	*tab1 = *tab2 = '\0';
	errno = 0;
	since = strtoll(copy, &end, 10);
	if (errno || end == copy || *end || since < 0 || has_msgid(p, tab1 + 1))
		goto bad;
	push(p, since, xstrdup(tab1 + 1), xstrdup(tab2 + 1));
	free(copy);
	return 0;
bad:
	free(copy);
	return -1;
}

void sm_pending_parse(struct sm_pending *p, const char *text)
{
	const char *s = text ? text : "";

	memset(p, 0, sizeof(*p));
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);

		if (len == 44 && !strncmp(s, "tip ", 4) && is_hex_string(s + 4, 40)) {
			memcpy(p->tip, s + 4, 40);
			p->tip[40] = '\0';
		} else if (len) {
			parse_item(p, s, len);
		}
		s += len + (nl ? 1 : 0);
	}
}

void sm_pending_format(const struct sm_pending *p, struct strbuf *out)
{
	if (p->tip[0])
		strbuf_addf(out, "tip %s\n", p->tip);
	for (size_t i = 0; i < p->nr; i++)
		strbuf_addf(out, "%lld\t%s\t%s\n", p->items[i].since, p->items[i].msgid,
			    p->items[i].title);
}

int sm_pending_add(struct sm_pending *p, const char *msgid, const char *title, long long now)
{
	char *id = one_line(msgid);

	if (!*id || strchr(id, ' ') || has_msgid(p, id)) {
		free(id);
		return 0;
	}
	push(p, now, id, one_line(title));
	return 1;
}

size_t sm_pending_remove_marked(struct sm_pending *p, const unsigned char *marked)
{
	size_t kept = 0, n = p->nr;

	/* one pass, the kept ones moved down in order */
	for (size_t i = 0; i < p->nr; i++) {
		if (marked[i])
			drop_item(p, i);
		else
			p->items[kept++] = p->items[i];
	}
	p->nr = kept;
	return n - kept;
}

size_t sm_pending_expire(struct sm_pending *p, long long now)
{
	unsigned char *drop = xcalloc(p->nr ? p->nr : 1, 1);
	size_t n, kept = 0;

	for (size_t i = 0; i < p->nr; i++) {
		drop[i] = now - p->items[i].since >= (long long)SM_PENDING_DAYS * 86400;
		kept += !drop[i];
	}
	/* beyond the most kept, the oldest go too (added in order: first) */
	for (size_t i = 0; kept > SM_PENDING_MAX && i < p->nr; i++)
		if (!drop[i]) {
			drop[i] = 1;
			kept--;
		}
	n = sm_pending_remove_marked(p, drop);
	free(drop);
	return n;
}

void sm_pending_release(struct sm_pending *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		free(p->items[i].msgid);
		free(p->items[i].title);
	}
	if (p->ids)
		g_hash_table_destroy(p->ids);
	free(p->items);
	memset(p, 0, sizeof(*p));
}
