/* thread: which reply reviews which patch, among a set of parsed mails
 * (a notmuch thread, or an mbox). A reply belongs to its nearest ancestor
 * (In-Reply-To, then References from the nearest) that is a patch mail or
 * a cover letter; a reply to a cover letter reviews every patch of that
 * series (same sender, version and count, threaded under the cover), and
 * says which of them it names (struct sm_thread_review). */
#ifndef SM_MAIL_THREAD_H
#define SM_MAIL_THREAD_H
#include <stddef.h>
#include "mail/message.h"
#include "rules/patch_subject.h"

struct sm_thread_mail {
	struct sm_mail mail;		/* owned */
	struct sm_patch_subject ps;
	int kind;			/* SM_MAIL_PATCH, _COVER, _REPLY, _OTHER */
	size_t parent;			/* index of the patch/cover it answers, (size_t)-1 */
	size_t cover;			/* for a patch: its cover letter, (size_t)-1 */
	/* A reply that ends with the patch it proposes, pasted as git
	 * format-patch wrote it, is that patch (ps from its Subject:, its
	 * text from mail.body + patch_at), no part of the series it answers,
	 * for the tree of the mail it answers unless its subject names one. */
	int is_pasted;
	size_t patch_at;		/* 0 but for a pasted patch */
	int is_new;			/* caller's flag: reviews from it are wanted */
};

enum { SM_MAIL_OTHER, SM_MAIL_PATCH, SM_MAIL_COVER, SM_MAIL_REPLY };

struct sm_thread_review {
	size_t patch;		/* index of the patch mail reviewed */
	size_t reply;		/* index of the reply */
	int via_cover;
	/* A reply to a cover letter names the patches whose titles its text
	 * holds, quoted or its own (a regression report quotes the one entry
	 * of the cover's shortlog it is about): 1 it names this patch, -1 it
	 * names others and not this one, 0 it names none or every one (a
	 * whole quote of the cover). Always 0 for a reply to a patch. */
	int names;
};

struct sm_thread {
	struct sm_thread_mail *mails;
	size_t nr, alloc;
	struct sm_thread_review *reviews;
	size_t nr_reviews, alloc_reviews;
};

#define SM_THREAD_INIT { NULL, 0, 0, NULL, 0, 0 }

/* Takes ownership of *m (zeroed afterwards); returns its index. */
size_t sm_thread_add(struct sm_thread *t, struct sm_mail *m, int is_new);
/* Classifies the mails, links replies, fills t->reviews. Replies from
 * bot_address (may be NULL) and patch mails are never reviews. */
void sm_thread_resolve(struct sm_thread *t, const char *bot_address);
void sm_thread_release(struct sm_thread *t);

#endif
