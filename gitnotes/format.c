/* format: one review block <-> struct sm_review (README.md, "The review-note format").
 *
 *   Review: <message-id>
 *   Tree: 6.1
 *   Author: Name <email>
 *   Date: Tue, 2 Jan 2024 07:30:12 -0800
 *   Subject: Re: [PATCH 6.1 012/100] ...
 *   Link: https://lore.kernel.org/r/message-id
 *   Via: cover letter
 *   Notice: failed to apply	(a stable queue's notice, not a review)
 *   Trailers:
 *     Reviewed-by: Name <email>
 *   Unverified:
 *     Acked-by: Other <other@x> (sent by name@email)
 *   Comment:
 *       the reviewer's words, four spaces in
 *
 * Empty fields are left out. The text is a fixed point of git's
 * stripspace (no trailing blanks, no double blank lines), so a person's
 * `git notes edit` does not change it. */
#include "gitnotes/format.h"
#include "lib/json.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>

static void free_str(char **p)
{
	free(*p);
	*p = NULL;
}

void sm_review_release(struct sm_review *r)
{
	free_str(&r->message_id);
	free_str(&r->author);
	free_str(&r->date);
	free_str(&r->tree);
	free_str(&r->subject);
	free_str(&r->link);
	free_str(&r->comment);
	free_str(&r->notice);
	strlist_clear(&r->trailers);
	strlist_clear(&r->unverified);
	r->via_cover = 0;
}

int sm_review_counts(const struct sm_review *r)
{
	if (sm_review_is_notice(r))
		return 0;
	if (r->trailers.nr)
		return 1;
	return !r->unverified.nr && r->author && *r->author;
}

int sm_trailer_is_nak(const char *trailer)
{
	return istarts_with(trailer, "Nacked-by:") || istarts_with(trailer, "NAK") ||
	       istarts_with(trailer, "Nack");
}

int sm_trailer_is_approval(const char *trailer)
{
	return istarts_with(trailer, "Reviewed-by:") || istarts_with(trailer, "Acked-by:") ||
	       istarts_with(trailer, "Tested-by:") || istarts_with(trailer, "Reported-and-tested-by:");
}

void sm_review_notice_describe(const struct sm_review *r, struct strbuf *out)
{
	const char *tree = r->tree && *r->tree ? r->tree : "a tree";

	if (!strcmp(r->notice, SM_NOTICE_FAILED))
		strbuf_addf(out, "failed to apply to %s", tree);
	else
		strbuf_addf(out, "queued for %s", tree);
}

void sm_review_notice_line_marked(const struct sm_review *r, size_t max_ids, sm_notice_mark_fn mark,
				  void *ctx, struct strbuf *out)
{
	struct strlist ids = STRLIST_INIT;
	size_t shown;

	sm_review_notice_describe(r, out);
	strbuf_addf(out, " (%s, %s)", r->author && *r->author ? r->author : "no sender",
		    r->date ? r->date : "");
	sm_review_notice_dependencies(r, &ids);
	shown = max_ids && ids.nr > max_ids ? max_ids : ids.nr;
	for (size_t i = 0; i < shown; i++) {
		strbuf_addf(out, "%s%s", i ? ", " : "; possible dependencies: ", ids.items[i]);
		if (mark)
			mark(ctx, ids.items[i], out);
	}
	if (shown < ids.nr)
		strbuf_addf(out, " and %zu more", ids.nr - shown);
	strlist_clear(&ids);
}

void sm_review_notice_line(const struct sm_review *r, size_t max_ids, struct strbuf *out)
{
	sm_review_notice_line_marked(r, max_ids, NULL, NULL, out);
}

size_t sm_notice_dependency_id(const char *line, size_t len)
{
	size_t n = 0;

	while (n < len && n < 40 && isxdigit((unsigned char)line[n]))
		n++;
	return n >= 7 && n + 2 < len && line[n] == ' ' && line[n + 1] == '(' ? n : 0;
}

void sm_review_notice_dependencies(const struct sm_review *r, struct strlist *ids)
{
	const char *p = r->comment ? r->comment : "";

	if (!r->notice || strcmp(r->notice, SM_NOTICE_FAILED))
		return;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), id = sm_notice_dependency_id(p, len);

		if (id)
			strlist_append_nodup(ids, xstrndup(p, id));
		if (!nl)
			break;
		p = nl + 1;
	}
}

static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

void sm_review_copy(struct sm_review *dst, const struct sm_review *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->message_id = dup_or_empty(src->message_id);
	dst->author = dup_or_empty(src->author);
	dst->date = dup_or_empty(src->date);
	dst->tree = dup_or_empty(src->tree);
	dst->subject = dup_or_empty(src->subject);
	dst->link = dup_or_empty(src->link);
	dst->comment = dup_or_empty(src->comment);
	dst->notice = dup_or_empty(src->notice);
	dst->via_cover = src->via_cover;
	for (size_t i = 0; i < src->trailers.nr; i++)
		strlist_append(&dst->trailers, src->trailers.items[i]);
	for (size_t i = 0; i < src->unverified.nr; i++)
		strlist_append(&dst->unverified, src->unverified.items[i]);
}

/* s with line breaks and tabs made spaces, outer white space trimmed and
 * other terminal controls masked: a note is shown by `git log --notes`
 * to everyone who fetches it, and its text came from anyone's mail. */
static void add_one_line(struct strbuf *out, const char *s)
{
	const char *b = s, *e;

	while (*b && isspace((unsigned char)*b))
		b++;
	e = b + strlen(b);
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	for (const char *p = b; p < e; p++) {
		size_t n;

		if (*p == '\n' || *p == '\r' || *p == '\t') {
			strbuf_addch(out, ' ');
		} else if ((n = control_char_len(p, (size_t)(e - p)))) {
			strbuf_addch(out, '?');
			p += n - 1;
		} else {
			strbuf_addch(out, *p);
		}
	}
}

void sm_review_field_value(const char *value, struct strbuf *out)
{
	add_one_line(out, value ? value : "");
}

static int is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

void sm_review_message_id(const char *in, struct strbuf *out)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *s;
	size_t len;

	add_one_line(&tmp, in ? in : "");
	s = tmp.buf;
	len = tmp.len;
	if (len >= 2 && s[0] == '<' && s[len - 1] == '>') {
		s++;
		len -= 2;
	}
	strbuf_add(out, s, len);
	strbuf_release(&tmp);
}

static void add_field(struct strbuf *out, const char *key, const char *value)
{
	size_t start;

	if (!value)
		return;
	start = out->len;
	strbuf_addf(out, "%s: ", key);
	add_one_line(out, value);
	if (out->len == start + strlen(key) + 2)
		strbuf_setlen(out, start);	/* empty: leave the field out */
	else
		strbuf_addch(out, '\n');
}

void sm_comment_normalize(const char *comment, struct strbuf *out)
{
	const char *p = comment ? comment : "", *line;
	int pending_blank = 0, any = 0;
	size_t len;

	while (next_text_line(&p, &line, &len)) {
		const char *end = line + len;

		while (end > line && isspace((unsigned char)end[-1]))
			end--;
		if (end == line) {
			pending_blank = any;
		} else {
			if (pending_blank)
				strbuf_addch(out, '\n');
			if (any)
				strbuf_addch(out, '\n');
			strbuf_add_masked(out, line, (size_t)(end - line));
			any = 1;
			pending_blank = 0;
		}
	}
}

/* "Key:" then one line per item, two spaces in; nothing when all are empty. */
static void add_list(struct strbuf *out, const char *key, const struct strlist *l)
{
	struct strbuf tmp = STRBUF_INIT;
	int any = 0;

	for (size_t i = 0; i < l->nr; i++) {
		strbuf_reset(&tmp);
		add_one_line(&tmp, l->items[i]);
		if (!tmp.len)
			continue;
		if (!any++)
			strbuf_addf(out, "%s:\n", key);
		strbuf_addf(out, "  %s\n", tmp.buf);
	}
	strbuf_release(&tmp);
}

void sm_review_format(const struct sm_review *r, struct strbuf *out)
{
	struct strbuf tmp = STRBUF_INIT;

	strbuf_addstr(out, "Review: <");
	sm_review_message_id(r->message_id, out);
	strbuf_addstr(out, ">\n");
	add_field(out, "Tree", r->tree);
	add_field(out, "Author", r->author);
	add_field(out, "Date", r->date);
	add_field(out, "Subject", r->subject);
	add_field(out, "Link", r->link);
	if (r->via_cover)
		strbuf_addstr(out, "Via: cover letter\n");
	add_field(out, "Notice", r->notice);
	add_list(out, "Trailers", &r->trailers);
	add_list(out, "Unverified", &r->unverified);
	sm_comment_normalize(r->comment, &tmp);
	if (tmp.len) {
		const char *p = tmp.buf;

		strbuf_addstr(out, "Comment:\n");
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);

			if (n)
				strbuf_addstr(out, "    ");
			strbuf_add(out, p, n);
			strbuf_addch(out, '\n');
			if (!nl)
				break;
			p = nl + 1;
		}
	}
	strbuf_release(&tmp);
}

/* ---- parsing one block ---- */

static const char *const field_names[] = {
	"Tree", "Author", "Date", "Subject", "Link", "Via", "Notice",
};
#define NR_TEXT_FIELDS 5	/* the first five, kept as written */

static char **field_slot(struct sm_review *r, size_t i)
{
	switch (i) {
	case 0: return &r->tree;
	case 1: return &r->author;
	case 2: return &r->date;
	case 3: return &r->subject;
	case 4: return &r->link;
	}
	return NULL;
}

static char *trimmed_dup(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	char *tmp = xstrndup(s, len);

	add_one_line(&sb, tmp);
	free(tmp);
	return strbuf_detach(&sb, NULL);
}

enum section { SEC_FIELDS, SEC_TRAILERS, SEC_UNVERIFIED, SEC_COMMENT };

/* Is lines[i..] after a blank run a comment line (4 spaces, non-blank)? */
static int comment_continues(const struct sm_line *lines, size_t nr, size_t i)
{
	while (i < nr && is_blank(lines[i].s, lines[i].len))
		i++;
	return i < nr && lines[i].len > 4 && !memcmp(lines[i].s, "    ", 4) &&
	       !is_blank(lines[i].s, lines[i].len);
}

/* One "Key: value" field line (trailing blanks already cut): 0, or -1
 * for an unknown key, a repeated one, or a Via: or Notice: we do not
 * know (a later stablemate's: the block is then kept as foreign text). */
static int parse_field(struct sm_review *r, const char *s, size_t len, unsigned *seen)
{
	size_t f, kl = 0;
	char *val;

	for (f = 0; f < ARRAY_SIZE(field_names); f++) {
		kl = strlen(field_names[f]);
		if (len > kl + 1 && !memcmp(s, field_names[f], kl) && s[kl] == ':' &&
		    s[kl + 1] == ' ')
			break;
	}
	if (f == ARRAY_SIZE(field_names) || (*seen & (1u << f)))
		return -1;
	*seen |= 1u << f;
	val = trimmed_dup(s + kl + 2, len - kl - 2);
	if (f == 5) {	/* Via */
		int ok = !strcmp(val, "cover letter");

		free(val);
		if (!ok)
			return -1;
		r->via_cover = 1;
		return 0;
	}
	if (f == 6) {	/* Notice */
		if (strcmp(val, SM_NOTICE_FAILED) && strcmp(val, SM_NOTICE_QUEUED)) {
			free(val);
			return -1;
		}
		r->notice = val;
		return 0;
	}
	*field_slot(r, f) = val;
	return 0;
}

int sm_review_parse_block(const struct sm_line *lines, size_t nr, size_t start,
			  struct sm_review *r, size_t *end)
{
	struct strbuf comment = STRBUF_INIT;
	struct strbuf mid = STRBUF_INIT;
	enum section sec = SEC_FIELDS;
	unsigned seen = 0;
	size_t i = start;
	const char *v;

	memset(r, 0, sizeof(*r));
	if (lines[i].len < 9 || memcmp(lines[i].s, "Review: ", 8))
		return -1;
	v = lines[i].s + 8;
	{
		char *tmp = xstrndup(v, lines[i].len - 8);

		sm_review_message_id(tmp, &mid);
		free(tmp);
	}
	if (!mid.len || strchr(mid.buf, ' ') || strchr(mid.buf, '<') || strchr(mid.buf, '>'))
		goto fail;
	r->message_id = strbuf_detach(&mid, NULL);
	for (i++; i < nr; i++) {
		const char *s = lines[i].s;
		size_t len = lines[i].len;

		if (is_blank(s, len)) {
			if (sec == SEC_COMMENT && comment_continues(lines, nr, i)) {
				if (comment.len)
					strbuf_addch(&comment, '\n');
				while (i + 1 < nr && is_blank(lines[i + 1].s, lines[i + 1].len))
					i++;
				continue;
			}
			break;
		}
		if (sec == SEC_COMMENT) {
			if (len < 4 || memcmp(s, "    ", 4))
				goto fail;
			if (comment.len)
				strbuf_addch(&comment, '\n');
			strbuf_add(&comment, s + 4, len - 4);
			continue;
		}
		if (len > 2 && s[0] == ' ' && s[1] == ' ' && s[2] != ' ') {
			if (sec != SEC_TRAILERS && sec != SEC_UNVERIFIED)
				goto fail;
			strlist_append_nodup(sec == SEC_TRAILERS ? &r->trailers : &r->unverified,
					     trimmed_dup(s + 2, len - 2));
			continue;
		}
		while (len && isspace((unsigned char)s[len - 1]))
			len--;
		if (len == 9 && !memcmp(s, "Trailers:", 9)) {
			if (sec != SEC_FIELDS)
				goto fail;
			sec = SEC_TRAILERS;
			continue;
		}
		if (len == 11 && !memcmp(s, "Unverified:", 11)) {
			if (sec != SEC_FIELDS && sec != SEC_TRAILERS)
				goto fail;
			sec = SEC_UNVERIFIED;
			continue;
		}
		if (len == 8 && !memcmp(s, "Comment:", 8)) {
			sec = SEC_COMMENT;
			continue;
		}
		if (sec != SEC_FIELDS || parse_field(r, s, len, &seen))
			goto fail;
	}
	r->comment = strbuf_detach(&comment, NULL);
	for (size_t f = 0; f < NR_TEXT_FIELDS; f++)
		if (!*field_slot(r, f))
			*field_slot(r, f) = xstrdup("");
	if (!r->notice)
		r->notice = xstrdup("");
	*end = i;
	return 0;
fail:
	strbuf_release(&comment);
	strbuf_release(&mid);
	sm_review_release(r);
	return -1;
}

int sm_notes_parse(const char *text, struct sm_review **reviews, size_t *nr)
{
	struct sm_note n = SM_NOTE_INIT;

	sm_note_parse(&n, text ? text : "");
	*reviews = n.reviews;
	*nr = n.nr;
	n.reviews = NULL;
	n.nr = n.alloc = 0;
	sm_note_release(&n);
	return 0;
}

void sm_review_json(const struct sm_review *r, const char *commit, struct json_writer *w)
{
	json_object_begin(w, NULL);
	JSON_STRINGS(w, "message_id commit tree author date subject link", r->message_id,
		     commit, r->tree, r->author, r->date, r->subject, r->link);
	json_bool(w, "via_cover_letter", r->via_cover);
	json_string(w, "notice", sm_review_is_notice(r) ? r->notice : NULL);
	json_strlist(w, "trailers", &r->trailers);
	json_strlist(w, "unverified", &r->unverified);
	json_bool(w, "counts_as_review", sm_review_counts(r));
	json_string(w, "comment", r->comment);
	json_object_end(w);
}
