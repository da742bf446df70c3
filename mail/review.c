/* review: reply text -> struct sm_review. */
#include "mail/review.h"
#include "mail/reply.h"
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

int sm_review_from_thread(const struct sm_thread *t, const struct sm_thread_review *tr,
			  struct sm_review *out)
{
	const struct sm_mail *reply = &t->mails[tr->reply].mail;
	const struct sm_mail *patch = &t->mails[tr->patch].mail;
	struct sm_reply_text rt;

	memset(out, 0, sizeof(*out));
	sm_reply_extract(reply->body, reply->from, &rt);
	if (!rt.trailers.nr && !*rt.comment) {
		sm_reply_text_release(&rt);
		return 0;
	}
	out->message_id = xstrdup(reply->message_id);
	out->author = xstrdup(reply->from);
	out->date = xstrdup(reply->date);
	out->tree = xstrdup(sm_thread_patch_tree(t, tr->patch));
	out->subject = xstrdup(patch->subject);
	out->link = xasprintf(SM_LORE_LINK "%s", reply->message_id);
	out->trailers = rt.trailers;
	out->comment = rt.comment;
	out->via_cover = tr->via_cover;
	return 1;
}
