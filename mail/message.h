/* message: one mail parsed with gmime into plain UTF-8 fields.
 * Headers are decoded (RFC 2047, folding undone), the text of every
 * text/plain part (and patch attachments) is decoded from its transfer
 * encoding and converted from its charset to UTF-8. */
#ifndef SM_MAIL_MESSAGE_H
#define SM_MAIL_MESSAGE_H
#include <stddef.h>
#include <time.h>
#include "lib/strlist.h"

struct sm_mail {
	char *file;		/* where it was read from, NULL for memory */
	char *message_id;	/* without <>; never NULL after a successful parse */
	char *from;		/* "Name <email>" (UTF-8), "" if none */
	char *from_addr;	/* the address alone, lower case, "" if none */
	char *date;		/* the Date: header as written, "" if none */
	time_t time;		/* 0 if the date did not parse */
	char *subject;		/* decoded, unfolded, blanks squeezed, "" if none */
	char *in_reply_to;	/* Message-ID without <>, NULL if none */
	struct strlist references;	/* References: in order, without <> */
	char *body;		/* UTF-8 text of the text parts, in order */
	int has_diff;		/* body holds a unified diff */
	int mime_too_deep;	/* parts below SM_MIME_MAX_DEPTH multiparts were left out */
};

/* Real mail nests a few multiparts; a hostile one 100,000. Deeper parts are
 * not read, with one warning naming the mail. */
#define SM_MIME_MAX_DEPTH 64

/* Parses a whole RFC 822 message. name (a file name, or NULL) is used in
 * the error. 0, or -1 (sm_error naming the message) when gmime cannot
 * make a message of it. m is zeroed first; release it in both cases. */
int sm_mail_parse(struct sm_mail *m, const char *data, size_t len, const char *name);
int sm_mail_parse_file(struct sm_mail *m, const char *path);
void sm_mail_release(struct sm_mail *m);

/* The Message-ID that starts m's thread, as git send-email threads a
 * series: the first of its References, else its In-Reply-To, else its
 * own (borrowed from m). */
const char *sm_mail_thread_root(const struct sm_mail *m);

/* Starts gmime once per process (the parse functions call it). */
void sm_mail_library_init(void);

/* Does text hold a unified diff ("diff --git", "--- a/" + "+++ b/", "Index:")? */
int sm_text_has_diff(const char *text);

#endif
