/* note: a whole note as review blocks plus foreign text, its merge and
 * its canonical text. Foreign text (anything that is not a well-formed
 * block) is kept byte for byte so a person's words are never lost. */
#include "gitnotes/format.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>
#include <time.h>

static int line_blank(const struct sm_line *l)
{
	for (size_t i = 0; i < l->len; i++)
		if (!isspace((unsigned char)l->s[i]))
			return 0;
	return 1;
}

static void split_lines(const char *text, struct sm_line **out, size_t *nr)
{
	size_t alloc = 0;
	const char *p = text;

	*out = NULL;
	*nr = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		ALLOC_GROW(*out, *nr, alloc);
		(*out)[*nr].s = p;
		(*out)[*nr].len = len;
		(*nr)++;
		if (!nl)
			break;
		p = nl + 1;
	}
}

/* Adds lines[from..to) as one foreign chunk, blank lines at the ends dropped. */
static void add_foreign(struct sm_note *n, const struct sm_line *lines, size_t from, size_t to)
{
	struct strbuf sb = STRBUF_INIT;

	while (from < to && line_blank(&lines[from]))
		from++;
	while (to > from && line_blank(&lines[to - 1]))
		to--;
	if (from == to)
		return;
	for (size_t i = from; i < to; i++) {
		strbuf_add(&sb, lines[i].s, lines[i].len);
		strbuf_addch(&sb, '\n');
	}
	if (strlist_contains(&n->other, sb.buf))
		strbuf_release(&sb);
	else
		strlist_append_nodup(&n->other, strbuf_detach(&sb, NULL));
}

static ssize_t find_review(const struct sm_note *n, const char *message_id)
{
	for (size_t i = 0; i < n->nr; i++)
		if (!strcmp(n->reviews[i].message_id, message_id))
			return (ssize_t)i;
	return -1;
}

void sm_note_parse(struct sm_note *n, const char *text)
{
	struct sm_line *lines;
	size_t nr, i = 0, foreign_from = 0;

	memset(n, 0, sizeof(*n));
	split_lines(text ? text : "", &lines, &nr);
	while (i < nr) {
		struct sm_review r;
		size_t end;

		if ((i == 0 || line_blank(&lines[i - 1])) &&
		    !sm_review_parse_block(lines, nr, i, &r, &end)) {
			add_foreign(n, lines, foreign_from, i);
			if (find_review(n, r.message_id) < 0) {
				ALLOC_GROW(n->reviews, n->nr, n->alloc);
				n->reviews[n->nr++] = r;
			} else {
				sm_review_release(&r);	/* a duplicate: first one wins */
			}
			i = end;
			foreign_from = end;
			continue;
		}
		i++;
	}
	add_foreign(n, lines, foreign_from, nr);
	free(lines);
}

void sm_note_release(struct sm_note *n)
{
	for (size_t i = 0; i < n->nr; i++)
		sm_review_release(&n->reviews[i]);
	free(n->reviews);
	strlist_clear(&n->other);
	memset(n, 0, sizeof(*n));
}

/* The stored form of r, so a review added in memory compares and sorts
 * exactly like the same review read back from a note. */
static void canonical_copy(struct sm_review *dst, const struct sm_review *src)
{
	struct strbuf sb = STRBUF_INIT;
	struct sm_line *lines;
	size_t nr, end;

	sm_review_format(src, &sb);
	split_lines(sb.buf, &lines, &nr);
	if (sm_review_parse_block(lines, nr, 0, dst, &end))
		sm_review_copy(dst, src);	/* not reached: format output parses */
	free(lines);
	strbuf_release(&sb);
}

int sm_note_add(struct sm_note *n, const struct sm_review *r)
{
	struct strbuf mid = STRBUF_INIT, tree = STRBUF_INIT;
	ssize_t at;
	struct sm_review *stored;

	sm_review_message_id(r->message_id, &mid);
	at = find_review(n, mid.buf);
	strbuf_release(&mid);
	if (at < 0) {
		ALLOC_GROW(n->reviews, n->nr, n->alloc);
		canonical_copy(&n->reviews[n->nr++], r);
		return SM_NOTE_ADDED;
	}
	stored = &n->reviews[at];
	if (stored->tree && *stored->tree)
		return SM_NOTE_PRESENT;
	/* the same one-line form a formatted block has */
	sm_review_field_value(r->tree, &tree);
	if (!tree.len) {
		strbuf_release(&tree);
		return SM_NOTE_PRESENT;
	}
	free(stored->tree);
	stored->tree = strbuf_detach(&tree, NULL);
	return SM_NOTE_FILLED;
}

size_t sm_note_merge(struct sm_note *dst, const struct sm_note *src, size_t *filled)
{
	size_t added = 0;

	if (filled)
		*filled = 0;
	for (size_t i = 0; i < src->other.nr; i++)
		if (!strlist_contains(&dst->other, src->other.items[i]))
			strlist_append(&dst->other, src->other.items[i]);
	for (size_t i = 0; i < src->nr; i++) {
		int r = sm_note_add(dst, &src->reviews[i]);

		added += r == SM_NOTE_ADDED;
		if (filled && r == SM_NOTE_FILLED)
			(*filled)++;
	}
	return added;
}

/* Reads "Tue, 2 Jan 2024 07:30:12 -0800" and ISO 8601 forms. */
long long sm_review_date_epoch(const char *date)
{
	static const char *const formats[] = {
		"%a, %d %b %Y %H:%M:%S %z",
		"%d %b %Y %H:%M:%S %z",
		"%a, %d %b %Y %H:%M %z",
		"%Y-%m-%dT%H:%M:%S%z",
		"%Y-%m-%d %H:%M:%S %z",
		"%Y-%m-%d %H:%M:%S%z",
	};
	const char *s = date;

	if (!s)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		struct tm tm;
		const char *rest;
		time_t t;

		memset(&tm, 0, sizeof(tm));
		rest = strptime(s, formats[i], &tm);
		if (!rest)
			continue;
		while (isspace((unsigned char)*rest))
			rest++;
		if (*rest && *rest != '(')	/* "(PST)" comments are fine */
			continue;
		long off = tm.tm_gmtoff;

		t = timegm(&tm);
		if (t == (time_t)-1)
			continue;
		return (long long)t - off;
	}
	return -1;
}

struct sort_item {
	const struct sm_review *r;
	long long when;
};

static int cmp_items(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;

	/* Dated reviews first, oldest first; undated after; ties by Message-ID. */
	if ((x->when < 0) != (y->when < 0))
		return x->when < 0 ? 1 : -1;
	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	return strcmp(x->r->message_id, y->r->message_id);
}

void sm_note_format(const struct sm_note *n, struct strbuf *out)
{
	struct sort_item *items = xcalloc(n->nr ? n->nr : 1, sizeof(*items));
	int first = 1;

	for (size_t i = 0; i < n->other.nr; i++) {
		if (!first)
			strbuf_addch(out, '\n');
		strbuf_addstr(out, n->other.items[i]);
		first = 0;
	}
	for (size_t i = 0; i < n->nr; i++) {
		items[i].r = &n->reviews[i];
		items[i].when = sm_review_date_epoch(n->reviews[i].date);
	}
	qsort(items, n->nr, sizeof(*items), cmp_items);
	for (size_t i = 0; i < n->nr; i++) {
		if (!first)
			strbuf_addch(out, '\n');
		sm_review_format(items[i].r, out);
		first = 0;
	}
	free(items);
}

char *sm_notes_ref_full(const char *name)
{
	/* git's expand_notes_ref(): "refs/heads/x" is refs/notes/refs/heads/x
	 * there too, so no branch is ever read or written as notes */
	if (starts_with(name, "refs/notes/"))
		return xstrdup(name);
	if (starts_with(name, "notes/"))
		return xasprintf("refs/%s", name);
	return xasprintf("refs/notes/%s", name);
}
