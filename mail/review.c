/* review: reply text -> struct sm_review. */
#include "mail/review.h"
#include "mail/reply.h"
#include "mail/msgid.h"
#include "rules/commit.h"
#include "lib/util.h"
#include <string.h>
#include <strings.h>

const char *sm_thread_patch_tree(const struct sm_thread *t, size_t patch)
{
	const struct sm_thread_mail *p = &t->mails[patch];

	if (p->ps.tree[0])
		return p->ps.tree;
	if (p->cover != (size_t)-1)
		return t->mails[p->cover].ps.tree;
	return "";
}

const char *sm_thread_patch_subject(const struct sm_thread *t, size_t patch)
{
	const struct sm_thread_mail *p = &t->mails[patch];

	return p->is_pasted ? p->ps.title : p->mail.subject;
}

char *sm_lore_link(const char *id)
{
	struct strbuf sb = STRBUF_INIT;

	if (!sm_msgid_is_address(id))
		return NULL;
	strbuf_addstr(&sb, SM_LORE_LINK);
	sm_msgid_url_escape(id, &sb);
	return strbuf_detach(&sb, NULL);
}

/* The "Possible dependencies:" of a FAILED notice (Greg's script lists
 * the commits that touched the same lines since the tree's release, the
 * patch itself first), without the patch itself (self, its id, may be
 * NULL), one a line under a heading; nothing when it lists none. */
static void notice_dependencies(const char *body, const char *self, struct strbuf *out)
{
	const char *p = strstr(body, "\nPossible dependencies:\n");
	int listed = 0;

	if (!p)
		return;
	for (p = strchr(p + 1, '\n') + 1; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), id = sm_notice_dependency_id(p, len);

		if (!id && (len || listed))
			break;	/* the list ends at "thanks," or a blank after it */
		if (id && !(self && !strncasecmp(self, p, id))) {
			if (!listed++)
				strbuf_addstr(out, "Possible dependencies, as the stable queue's "
						   "script lists them:\n");
			strbuf_add(out, p, len);
			strbuf_addch(out, '\n');
		}
		if (!nl)
			break;
		p = nl + 1;
	}
}

int sm_notice_from_thread(const struct sm_thread *t, size_t i, struct sm_review *out)
{
	const struct sm_thread_mail *tm = &t->mails[i];
	const struct sm_mail *m = &tm->mail;

	if (tm->kind != SM_MAIL_PATCH || !tm->ps.is_notice || tm->ps.is_reply || tm->is_pasted)
		return 0;
	memset(out, 0, sizeof(*out));
	out->message_id = xstrdup(m->message_id);
	/* A From: without an address is no sender (as for a review) */
	out->author = xstrdup(*m->from_addr ? m->from : "");
	out->date = xstrdup(m->date);
	out->tree = xstrdup(tm->ps.tree);
	out->subject = xstrdup(m->subject);
	out->link = sm_lore_link(m->message_id);
	if (!out->link)
		out->link = xstrdup("");
	out->notice = xstrdup(tm->ps.is_notice == SM_SUBJECT_FAILED ? SM_NOTICE_FAILED
								       : SM_NOTICE_QUEUED);
	if (tm->ps.is_notice == SM_SUBJECT_FAILED && m->body) {
		struct strbuf deps = STRBUF_INIT;
		char *self = sm_find_upstream_ref(m->body, strlen(m->body));

		notice_dependencies(m->body, self, &deps);
		free(self);
		out->comment = strbuf_detach(&deps, NULL);
	} else {
		out->comment = xstrdup("");
	}
	return 1;
}

void sm_reply_cache_release(struct sm_reply_cache *cache)
{
	if (cache->reply != (size_t)-1)
		sm_reply_text_release(&cache->rt);
	cache->reply = (size_t)-1;
}

static void copy_list(struct strlist *to, const struct strlist *from)
{
	for (size_t i = 0; i < from->nr; i++)
		strlist_append(to, from->items[i]);
}

/* The reply's trailers for this review. A cover reply that names other
 * patches of the series (mail/thread.h) NAKs those, not this one; its
 * Tested-by and the like still hold for all. */
static void review_trailers(struct strlist *to, const struct sm_reply_text *rt,
			    const struct sm_thread_review *tr)
{
	for (size_t i = 0; i < rt->trailers.nr; i++)
		if (tr->names >= 0 || !istarts_with(rt->trailers.items[i], "Nacked-by:"))
			strlist_append(to, rt->trailers.items[i]);
}

/* The sender's objection (mail/objection.h) to the patch the reply
 * answers is their NAK of it, as a bare "NAK" line is. Answering a cover
 * letter, "Please drop." is about the patches the reply names, if it
 * names some (mail/thread.h); else it names no one patch of the series:
 * the comment keeps it, no patch is NAKed for it. */
static void objection_nak(const struct sm_reply_text *rt, const char *from,
			  const struct sm_thread_review *tr, struct strlist *trailers)
{
	char *nak;

	if (!rt->objection || (tr->via_cover && tr->names <= 0) || !*from)
		return;
	nak = xasprintf("Nacked-by: %s", from);
	if (strlist_contains(trailers, nak))
		free(nak);
	else
		strlist_append_nodup(trailers, nak);
}

int sm_review_from_thread(const struct sm_thread *t, const struct sm_thread_review *tr,
			  const struct sm_aliases *aliases, struct sm_reply_cache *cache,
			  struct sm_review *out)
{
	const struct sm_mail *reply = &t->mails[tr->reply].mail;
	/* A From: without an address (none, an empty group) is no sender. */
	const char *from = *reply->from_addr ? reply->from : "";
	struct sm_reply_cache own = SM_REPLY_CACHE_INIT, *c = cache ? cache : &own;
	struct strlist trailers = STRLIST_INIT;
	const char *comment;
	int said = 0;

	memset(out, 0, sizeof(*out));
	if (c->reply != tr->reply) {
		sm_reply_cache_release(c);
		sm_reply_extract_verified(reply->body, from, aliases, &c->rt);
		c->reply = tr->reply;
	}
	review_trailers(&trailers, &c->rt, tr);
	objection_nak(&c->rt, from, tr, &trailers);
	/* A cover reply that names other patches of the series: its words
	 * are about them */
	comment = tr->names < 0 ? "" : c->rt.comment;
	if (!trailers.nr && !c->rt.unverified.nr && !*comment) {
		strlist_clear(&trailers);
		goto out;
	}
	out->message_id = xstrdup(reply->message_id);
	out->author = xstrdup(reply->from);
	out->date = xstrdup(reply->date);
	out->tree = xstrdup(sm_thread_patch_tree(t, tr->patch));
	out->subject = xstrdup(sm_thread_patch_subject(t, tr->patch));
	out->link = sm_lore_link(reply->message_id);
	if (!out->link)
		out->link = xstrdup("");
	out->trailers = trailers;
	copy_list(&out->unverified, &c->rt.unverified);
	out->comment = xstrdup(comment);
	out->via_cover = tr->via_cover;
	said = 1;
out:
	if (!cache)
		sm_reply_cache_release(&own);
	return said;
}
