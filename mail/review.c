/* review: reply text -> struct sm_review. */
#include "mail/review.h"
#include "mail/reply.h"
#include "mail/msgid.h"
#include "lib/util.h"
#include <string.h>

const char *sm_thread_patch_tree(const struct sm_thread *t, size_t patch)
{
	const struct sm_thread_mail *p = &t->mails[patch];

	if (p->ps.tree[0])
		return p->ps.tree;
	if (p->cover != (size_t)-1)
		return t->mails[p->cover].ps.tree;
	return "";
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

/* The sender's objection (mail/objection.h) to the patch the reply
 * answers is their NAK of it, as a bare "NAK" line is. Answering a cover
 * letter, "Please drop." is about the patches the reply names, if it
 * names some (mail/thread.h); else it names no one patch of the series:
 * the comment keeps it, no patch is NAKed for it. */
static void objection_nak(struct sm_reply_text *rt, const char *from,
			  const struct sm_thread_review *tr)
{
	char *nak;

	if (!rt->objection || (tr->via_cover && tr->names <= 0) || !*from)
		return;
	nak = xasprintf("Nacked-by: %s", from);
	if (strlist_contains(&rt->trailers, nak))
		free(nak);
	else
		strlist_append_nodup(&rt->trailers, nak);
}

int sm_review_from_thread(const struct sm_thread *t, const struct sm_thread_review *tr,
			  const struct sm_aliases *aliases, struct sm_review *out)
{
	const struct sm_mail *reply = &t->mails[tr->reply].mail;
	const struct sm_mail *patch = &t->mails[tr->patch].mail;
	struct sm_reply_text rt;

	memset(out, 0, sizeof(*out));
	/* A From: without an address (none, an empty group) is no sender. */
	sm_reply_extract_verified(reply->body, *reply->from_addr ? reply->from : "", aliases, &rt);
	objection_nak(&rt, *reply->from_addr ? reply->from : "", tr);
	/* A cover reply that names other patches of the series: its words
	 * are about them, its trailers (a Tested-by) still hold for this one */
	if (tr->names < 0) {
		free(rt.comment);
		rt.comment = xstrdup("");
	}
	if (!rt.trailers.nr && !rt.unverified.nr && !*rt.comment) {
		sm_reply_text_release(&rt);
		return 0;
	}
	out->message_id = xstrdup(reply->message_id);
	out->author = xstrdup(reply->from);
	out->date = xstrdup(reply->date);
	out->tree = xstrdup(sm_thread_patch_tree(t, tr->patch));
	out->subject = xstrdup(patch->subject);
	out->link = sm_lore_link(reply->message_id);
	if (!out->link)
		out->link = xstrdup("");
	out->trailers = rt.trailers;
	out->unverified = rt.unverified;
	out->comment = rt.comment;
	free(rt.objection);	/* said in the comment, and as a NAK above */
	out->via_cover = tr->via_cover;
	return 1;
}
