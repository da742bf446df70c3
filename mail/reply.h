/* reply: what a replier wrote in a follow-up mail: the trailers on their
 * own lines (not in "> " quotes, not inside a patch pasted in the reply)
 * and the comment text with quotes, attributions and signature removed. */
#ifndef SM_MAIL_REPLY_H
#define SM_MAIL_REPLY_H
#include "lib/strlist.h"

struct sm_reply_text {
	struct strlist trailers;	/* "Reviewed-by: A <a@b>", "Nacked-by: ..." */
	char *comment;			/* "" when the reply only quoted */
};

/* author ("Name <email>") fills a bare "NAK"/"NACK" line. */
void sm_reply_extract(const char *body, const char *author, struct sm_reply_text *out);
void sm_reply_text_release(struct sm_reply_text *r);

/* Is line (without "\n") a review trailer? Returns the canonical
 * "Key: value" (caller frees) or NULL. author fills "NAK." lines. */
char *sm_review_trailer(const char *line, size_t len, const char *author);

#endif
