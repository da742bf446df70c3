/* thread: linking replies to the patches and cover letters they answer. */
#include "mail/thread.h"
#include "mail/msgid.h"
#include "mail/reply.h"
#include "mail/review.h"
#include "rules/commit.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NONE ((size_t)-1)

size_t sm_thread_add(struct sm_thread *t, struct sm_mail *m, int is_new)
{
	struct sm_thread_mail *tm;

	ALLOC_GROW(t->mails, t->nr, t->alloc);
	tm = &t->mails[t->nr];
	memset(tm, 0, sizeof(*tm));
	tm->mail = *m;
	memset(m, 0, sizeof(*m));
	tm->is_new = is_new;
	tm->parent = tm->cover = NONE;
	return t->nr++;
}

struct id_index {
	const char *id;
	size_t idx;
};

static int cmp_id(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static size_t lookup(const struct id_index *ix, size_t nr, const char *id)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ix[mid].id, id);

		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && !strcmp(ix[lo].id, id) ? ix[lo].idx : NONE;
}

/* notmuch renames ids too long for a Xapian term; a reply still names the raw one. */
#define NOTMUCH_SHORTEST_COMPRESSED 100

static size_t lookup_ref(const struct id_index *ix, size_t nr, const char *id)
{
	size_t j = lookup(ix, nr, id);

	if (j == NONE && strlen(id) >= NOTMUCH_SHORTEST_COMPRESSED) {
		char *c = sm_msgid_notmuch_compressed(id);

		j = lookup(ix, nr, c);
		free(c);
	}
	return j;
}

/* Is tm a reply that ends with a patch pasted whole (rules/commit.h)? Its
 * ps is then the pasted patch's. */
static int reply_with_pasted_patch(struct sm_thread_mail *tm)
{
	struct sm_patch_subject pasted;
	size_t at;
	char *subject;

	tm->is_pasted = 0;
	tm->patch_at = 0;
	if (!tm->ps.is_reply || !tm->mail.has_diff ||
	    !(subject = sm_pasted_patch_subject(tm->mail.body, strlen(tm->mail.body), &at)))
		return 0;
	sm_patch_subject_parse(subject, &pasted);
	free(subject);
	if (pasted.is_reply || pasted.is_cover || !*pasted.title)
		return 0;
	tm->ps = pasted;
	tm->is_pasted = 1;
	tm->patch_at = at;
	return 1;
}

static int classify(struct sm_thread_mail *tm)
{
	const struct sm_mail *m = &tm->mail;

	sm_patch_subject_parse(m->subject, &tm->ps);
	if (reply_with_pasted_patch(tm))
		return SM_MAIL_PATCH;
	if (tm->ps.is_patch && !tm->ps.is_reply) {
		if (tm->ps.is_cover)
			return SM_MAIL_COVER;
		/* "[PATCH] x" without a diff, sent in reply: a reply without "Re:". */
		if (!m->has_diff && m->in_reply_to)
			return SM_MAIL_REPLY;
		return SM_MAIL_PATCH;
	}
	if (!tm->ps.is_reply && m->has_diff && !strstr(m->subject, "GIT PULL"))
		return SM_MAIL_PATCH;
	if (tm->ps.is_reply || m->in_reply_to || m->references.nr)
		return SM_MAIL_REPLY;
	return SM_MAIL_OTHER;
}

/* The mail i answers directly: In-Reply-To, else the nearest Reference we have. */
static size_t direct_parent(const struct sm_thread *t, const struct id_index *ix, size_t i)
{
	const struct sm_mail *m = &t->mails[i].mail;
	size_t j, k;

	if (m->in_reply_to) {
		j = lookup_ref(ix, t->nr, m->in_reply_to);
		if (j != NONE && j != i)
			return j;
	}
	for (k = m->references.nr; k-- > 0;) {
		j = lookup_ref(ix, t->nr, m->references.items[k]);
		if (j != NONE && j != i)
			return j;
	}
	return NONE;
}

/* The nearest patch or cover letter above i. */
static size_t patch_ancestor(const struct sm_thread *t, const struct id_index *ix, size_t i)
{
	size_t j = direct_parent(t, ix, i), steps = 0;

	while (j != NONE && steps++ < t->nr) {
		int k = t->mails[j].kind;

		if (k == SM_MAIL_PATCH || k == SM_MAIL_COVER)
			return j;
		j = direct_parent(t, ix, j);
	}
	return NONE;
}

/* The nearest cover letter above i (patches of a deep-threaded series between). */
static size_t cover_ancestor(const struct sm_thread *t, const struct id_index *ix, size_t i)
{
	size_t j = direct_parent(t, ix, i), steps = 0;

	while (j != NONE && steps++ < t->nr) {
		if (t->mails[j].kind == SM_MAIL_COVER)
			return j;
		j = direct_parent(t, ix, j);
	}
	return NONE;
}

static int same_series(const struct sm_thread_mail *cover, const struct sm_thread_mail *p)
{
	return cover->ps.version == p->ps.version &&
	       (!p->ps.total || cover->ps.total == p->ps.total);
}

static void add_review(struct sm_thread *t, size_t patch, size_t reply, int via_cover)
{
	ALLOC_GROW(t->reviews, t->nr_reviews, t->alloc_reviews);
	t->reviews[t->nr_reviews].patch = patch;
	t->reviews[t->nr_reviews].reply = reply;
	t->reviews[t->nr_reviews].via_cover = via_cover;
	t->reviews[t->nr_reviews].names = 0;
	t->nr_reviews++;
}

/* A title shorter than this ("Linux 6.1.9") is no name to look for */
#define MIN_NAMED_TITLE 16
/* A reply naming more patches than this is about the series, not them */
#define MAX_NAMED 4

/* The text as one line, with the quoted lines (markers gone) or without
 * them, each run of blanks one space: a title quoted from a cover's
 * shortlog, or wrapped in a sentence, reads as the patch's subject has it. */
static char *flat_text(const char *body, int with_quotes)
{
	struct strbuf sb = STRBUF_INIT;
	const char *pos = body ? body : "", *line;
	size_t len;

	while (next_text_line(&pos, &line, &len)) {
		size_t i;

		if (sm_is_quote_line(line, len) && !with_quotes)
			continue;
		i = sm_quote_markers_len(line, len);
		strbuf_add(&sb, line + i, len - i);
		strbuf_addch(&sb, ' ');
	}
	squeeze_blanks(sb.buf);
	strbuf_setlen(&sb, strlen(sb.buf));
	return strbuf_detach(&sb, NULL);
}

/* "[PATCH 5.15 00/23] 5.15.160-rc1 review": a stable -rc review, whose
 * cover lists every patch in a shortlog that a report quotes in part */
static int is_rc_review(const struct sm_patch_subject *ps)
{
	return strstr(ps->title, "-rc") && ends_with_n(ps->title, strlen(ps->title), " review");
}

/* The reviews first..t->nr_reviews of reply r to cover c: which patches
 * it names (struct sm_thread_review's names). Its own words name a patch
 * by title ("commit abc123 (\"nfsd: ...\")"); so does its quote of an -rc
 * review's shortlog, which a regression report trims to the entry it is
 * about ("bisect is pointing to the above commit"). Other covers' quotes
 * name nothing: a backport series' cover lists its commits, and a reply
 * that quotes the first of them talks about the series. */
static void mark_named(struct sm_thread *t, size_t first, size_t r, size_t c)
{
	size_t n = t->nr_reviews - first, named = 0;
	char *text;

	if (n < 2)
		return;
	text = flat_text(t->mails[r].mail.body, is_rc_review(&t->mails[c].ps));
	for (size_t k = first; k < t->nr_reviews; k++) {
		struct sm_thread_review *rv = &t->reviews[k];
		/* blanks squeezed already (struct sm_mail's subject) */
		const char *title = t->mails[rv->patch].ps.title;

		rv->names = strlen(title) >= MIN_NAMED_TITLE && strstr(text, title) ? 1 : -1;
		named += rv->names > 0;
	}
	if (!named || named == n || named > MAX_NAMED)
		for (size_t k = first; k < t->nr_reviews; k++)
			t->reviews[k].names = 0;
	free(text);
}

void sm_thread_resolve(struct sm_thread *t, const char *bot_address)
{
	struct id_index *ix = xcalloc(t->nr, sizeof(*ix));
	size_t i, j, first;

	for (i = 0; i < t->nr; i++) {
		t->mails[i].kind = classify(&t->mails[i]);
		ix[i].id = t->mails[i].mail.message_id;
		ix[i].idx = i;
	}
	qsort(ix, t->nr, sizeof(*ix), cmp_id);
	t->nr_reviews = 0;

	for (i = 0; i < t->nr; i++) {
		struct sm_thread_mail *tm = &t->mails[i];

		tm->parent = patch_ancestor(t, ix, i);
		if (tm->kind != SM_MAIL_PATCH || tm->is_pasted)
			continue;
		j = cover_ancestor(t, ix, i);
		if (j != NONE && same_series(&t->mails[j], tm)) {
			tm->cover = j;
			continue;
		}
		if (tm->ps.total < 2)
			continue;
		/* Not threaded to a cover: the sender's cover of the same version and size. */
		for (j = 0; j < t->nr; j++) {
			const struct sm_thread_mail *c = &t->mails[j];

			if (c->kind == SM_MAIL_COVER && same_series(c, tm) &&
			    !strcmp(c->mail.from_addr, tm->mail.from_addr) &&
			    !c->mail.in_reply_to) {
				tm->cover = j;
				break;
			}
		}
	}

	/* a fix proposed in answer to a patch or an -rc review is for its tree */
	for (i = 0; i < t->nr; i++) {
		struct sm_thread_mail *tm = &t->mails[i];

		if (tm->is_pasted && !tm->ps.tree[0] && tm->parent != NONE)
			snprintf(tm->ps.tree, sizeof(tm->ps.tree), "%s",
				 sm_thread_patch_tree(t, tm->parent));
	}

	for (i = 0; i < t->nr; i++) {
		const struct sm_thread_mail *r = &t->mails[i];
		size_t a = r->parent;

		if (r->kind != SM_MAIL_REPLY || !r->is_new || a == NONE)
			continue;
		if (bot_address && *bot_address && !strcasecmp(r->mail.from_addr, bot_address))
			continue;
		if (t->mails[a].kind == SM_MAIL_PATCH) {
			add_review(t, a, i, 0);
			continue;
		}
		first = t->nr_reviews;
		for (j = 0; j < t->nr; j++)
			if (t->mails[j].kind == SM_MAIL_PATCH && t->mails[j].cover == a)
				add_review(t, j, i, 1);
		mark_named(t, first, i, a);
	}
	free(ix);
}

void sm_thread_release(struct sm_thread *t)
{
	for (size_t i = 0; i < t->nr; i++)
		sm_mail_release(&t->mails[i].mail);
	free(t->mails);
	free(t->reviews);
	memset(t, 0, sizeof(*t));
}
