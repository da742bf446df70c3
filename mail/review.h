/* review: a struct sm_review (gitnotes/notes.h) from one reply of a thread. */
#ifndef SM_MAIL_REVIEW_H
#define SM_MAIL_REVIEW_H
#include "mail/thread.h"
#include "gitnotes/notes.h"

#define SM_LORE_LINK "https://lore.kernel.org/r/"

/* The tree a patch is for ("6.1"), from its subject or its cover's; "" if none. */
const char *sm_thread_patch_tree(const struct sm_thread *t, size_t patch);
/* Fills out (caller releases with sm_review_release). Returns 1 when the
 * reply says something (a trailer or comment text), 0 when it only quoted
 * (out is then released already). */
int sm_review_from_thread(const struct sm_thread *t, const struct sm_thread_review *tr,
			  struct sm_review *out);

#endif
