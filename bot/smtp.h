/* smtp: sending one message over SMTP with libcurl, reusing the connection
 * across messages of a run. */
#ifndef SM_BOT_SMTP_H
#define SM_BOT_SMTP_H
#include <stddef.h>
#include "bot/config.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"

struct sm_smtp {
	void *curl;			/* CURL * */
	char *url;
	char *password;
	const struct sm_bot_config *cfg;
	char errbuf[256];
	/* Of the last send: each recipient the server refused, as
	 * "addr: 550 reply text" (libcurl goes on with the others). */
	struct strlist refused;
	char *pending_rcpt;		/* RCPT TO sent, reply not seen yet */
	int phase;			/* enum sm_smtp_step: where the dialogue is */
	char *last_reply;		/* the server's last reply line */
	int quitting;			/* QUIT sent: the dialogue is over */
};

/* Where an SMTP dialogue stopped, which decides whose fault a failure is:
 * up to MAIL FROM it is the server's or the configuration's (every mail
 * would fail the same way), after it the mail's. */
enum sm_smtp_step {
	SM_AT_CONNECT, SM_AT_HELLO, SM_AT_STARTTLS, SM_AT_AUTH,
	SM_AT_MAIL, SM_AT_RCPT, SM_AT_DATA, SM_AT_BODY
};

enum sm_send_result {
	SM_SEND_OK = 0,
	SM_SEND_REFUSED = 1,	/* this message refused for good: every recipient
				 * (5xx on RCPT TO) or its content (5xx after DATA) */
	SM_SEND_DEFERRED = 2,	/* refused for now (4xx on RCPT or DATA): keep it
				 * queued, go on */
	SM_SEND_DOWN = -1,	/* no connection, it dropped, or the server refused
				 * us before any mail (EHLO, STARTTLS, AUTH - a 535 bad
				 * password - or MAIL FROM): stop, keep the queue */
};

/* 0 or -1 (sm_error: the password file or $ENV). */
int sm_smtp_open(struct sm_smtp *s, const struct sm_bot_config *c);
/* msg's line ends may be LF, CRLF or a lone CR: each becomes CRLF on the
 * wire before libcurl dot-stuffs it, so no byte sequence in a message can end
 * the DATA early (SMTP smuggling). Every result but SM_SEND_OK leaves a
 * one-line reason in sm_last_error() naming the step and the server's reply
 * ("...: authentication as bot failed: Login denied; the server said
 * \"535 5.7.8 ...\""). SM_SEND_OK means at least one recipient took the
 * message: s->refused lists the others. */
enum sm_send_result sm_smtp_send(struct sm_smtp *s, const char *from,
				 const struct strlist *rcpts, const char *msg, size_t len);
void sm_smtp_close(struct sm_smtp *s);
/* Appends msg to out with every line end (LF, CRLF, lone CR) made CRLF and
 * a final CRLF ensured. */
void sm_smtp_crlf(struct strbuf *out, const char *msg, size_t len);

#endif
