/* compose: one RFC 5322 mail built with gmime from plain UTF-8 text:
 * addresses and subject RFC 2047-encoded where needed, the body as
 * text/plain; charset=utf-8 in 8bit (quoted-printable only when a line is
 * too long for SMTP), Message-ID, Date, threading and list headers. */
#ifndef SM_BOT_COMPOSE_H
#define SM_BOT_COMPOSE_H
#include <time.h>
#include "lib/strbuf.h"
#include "lib/strlist.h"

/* A mail to send; mail/message.h's struct sm_mail is one that was received. */
struct sm_outgoing {
	const char *from;		/* "Name <addr>" (UTF-8) */
	const char *to;
	const struct strlist *cc;	/* may be NULL */
	const char *subject;		/* UTF-8 */
	const char *message_id;		/* without <> */
	const char *in_reply_to;	/* without <>, or NULL */
	const char *list_id;		/* List-Id value, or NULL */
	const char *upstream;		/* X-Stablemate-Upstream, or NULL */
	const char *tree;		/* X-Stablemate-Tree, or NULL */
	const char *subscriber;		/* X-Stablemate-Subscriber, or NULL */
	time_t date;
	const char *body;		/* UTF-8 text, LF line ends */
};

/* Appends the mail (headers and body, LF line ends) to out. 0 or -1. */
int sm_compose(const struct sm_outgoing *m, struct strbuf *out);
/* A new unique Message-ID (without <>) in the domain of addr; caller frees. */
char *sm_compose_message_id(const char *addr);

#endif
