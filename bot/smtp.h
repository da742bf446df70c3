/* smtp: sending one message over SMTP with libcurl, reusing the connection
 * across messages of a run. */
#ifndef SM_BOT_SMTP_H
#define SM_BOT_SMTP_H
#include <stddef.h>
#include "bot/config.h"
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
};

enum sm_send_result {
	SM_SEND_OK = 0,
	SM_SEND_REFUSED = 1,	/* the server refused this message for good (5xx) */
	SM_SEND_DEFERRED = 2,	/* refused for now (4xx): keep it queued, go on */
	SM_SEND_DOWN = -1,	/* no connection, or it dropped: stop, keep the queue */
};

/* 0 or -1 (sm_error: the password file or $ENV). */
int sm_smtp_open(struct sm_smtp *s, const struct sm_bot_config *c);
/* msg has LF line ends (CRLF is produced while sending). Every result but
 * SM_SEND_OK leaves a one-line reason in sm_last_error(). SM_SEND_OK means
 * at least one recipient took the message: s->refused lists the others. */
enum sm_send_result sm_smtp_send(struct sm_smtp *s, const char *from,
				 const struct strlist *rcpts, const char *msg, size_t len);
void sm_smtp_close(struct sm_smtp *s);

#endif
