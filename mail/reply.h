/* reply: what a replier wrote in a follow-up mail: the trailers on their
 * own lines (not in "> " quotes, not inside a patch pasted in the reply)
 * and the comment text with quotes, attributions and signature removed.
 * A kernel test robot report is read as mail/robot.h says: its gist is the
 * comment, and it has no trailers. */
#ifndef SM_MAIL_REPLY_H
#define SM_MAIL_REPLY_H
#include "lib/strlist.h"

struct sm_aliases;

struct sm_reply_text {
	struct strlist trailers;	/* "Reviewed-by: A <a@b>", "Nacked-by: ..." */
	/* Trailers the sender wrote in another's name (the address is not the
	 * sender's nor an alias of it), or any trailer of a mail without a
	 * usable From:, with " (sent by SENDER)" appended. Never reviews. */
	struct strlist unverified;
	char *comment;			/* "" when the reply only quoted */
	/* The sender's request not to apply the patch (mail/objection.h), as
	 * written, or NULL: a line of the reply's own above any quoted diff,
	 * at its top or after quoted trailers (the end of the commit message
	 * it answers), not after other quoted text, where "Please drop." is
	 * about that text. Whether it is a NAK depends on what the reply
	 * answers (mail/review.h). */
	char *objection;
};

/* author ("Name <email>", "" when the mail had no usable From:) fills a bare
 * "NAK"/"NACK" line; a person trailer is the sender's only when its address
 * is author's address or, with aliases (may be NULL), a known alias of it. */
void sm_reply_extract_verified(const char *body, const char *author,
			       const struct sm_aliases *aliases, struct sm_reply_text *out);
/* The same without aliases. */
void sm_reply_extract(const char *body, const char *author, struct sm_reply_text *out);
void sm_reply_text_release(struct sm_reply_text *r);

/* Is line (without "\n") a review trailer? Returns the canonical
 * "Key: value" (caller frees) or NULL. author fills "NAK." lines. The
 * person of a -by trailer is cleaned (mail/ident.h: "A <a@b<mailto:a@b>>"
 * becomes "A <a@b>"). */
char *sm_review_trailer(const char *line, size_t len, const char *author);

/* Is line s[0..len) quoted: "> x", "| x", after at most three blanks? */
int sm_is_quote_line(const char *s, size_t len);
/* The length of s's quote markers with the blanks among and after them
 * ("> >  x": 5) */
size_t sm_quote_markers_len(const char *s, size_t len);

#endif
