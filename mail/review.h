/* review: a struct sm_review (gitnotes/notes.h) from one reply of a thread. */
#ifndef SM_MAIL_REVIEW_H
#define SM_MAIL_REVIEW_H
#include "mail/thread.h"
#include "mail/reply.h"
#include "gitnotes/notes.h"

#define SM_LORE_LINK "https://lore.kernel.org/r/"

/* The tree a patch is for ("6.1"), from its subject or its cover's; "" if none. */
const char *sm_thread_patch_tree(const struct sm_thread *t, size_t patch);
/* A patch's subject: its mail's, or a pasted patch's own (its title), not
 * that of the reply it came in. */
const char *sm_thread_patch_subject(const struct sm_thread *t, size_t patch);
struct sm_aliases;
/* What the replies of one thread say, each read once: a reply to a cover
 * letter reviews every patch of the series (a stable -rc has hundreds),
 * and its text is the same for all of them. Release it before the thread
 * or the aliases change. */
struct sm_reply_cache {
	size_t reply;		/* the reply rt is of; (size_t)-1: none */
	struct sm_reply_text rt;
};
#define SM_REPLY_CACHE_INIT { (size_t)-1, { STRLIST_INIT, STRLIST_INIT, NULL, NULL } }
void sm_reply_cache_release(struct sm_reply_cache *cache);
/* Fills out (caller releases with sm_review_release) with what review tr's
 * reply says of its patch. Returns 1 when it says something (a trailer or
 * comment text), 0 when it only quoted (out is then released already). A
 * person trailer is a review only when its address is the sender's (or,
 * with aliases, may be NULL, an alias of it); the others go to
 * out->unverified (mail/reply.h). The sender's objection ("Please drop.")
 * is their Nacked-by of the patch answered. A cover reply that names other
 * patches (tr->names < 0) gives this one its trailers only, and no NAK.
 * The Link: is left out when the reply's Message-ID is not an address.
 * cache may be NULL (the reply is read for this review alone). */
int sm_review_from_thread(const struct sm_thread *t, const struct sm_thread_review *tr,
			  const struct sm_aliases *aliases, struct sm_reply_cache *cache,
			  struct sm_review *out);
/* Fills out (caller releases) with a block for mail i when it is a
 * stable queue's notice about one patch and one tree (a new mail, not a
 * reply: "FAILED: patch \"x\" failed to apply to 6.1-stable tree",
 * "Patch \"x\" has been added to the 6.12-stable tree"): out->notice says
 * which, out->tree the tree, author, date and link the notice's. Such a
 * block is never a review. 1 when it is one, 0 when not (out untouched). */
int sm_notice_from_thread(const struct sm_thread *t, size_t i, struct sm_review *out);
/* SM_LORE_LINK and id percent-encoded; NULL when id is not an address. */
char *sm_lore_link(const char *id);

#endif
