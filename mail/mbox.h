/* mbox: reading mboxo/mboxrd files (gzip too) as a stream of single
 * messages: one message in memory at a time, each capped in size. */
#ifndef SM_MAIL_MBOX_H
#define SM_MAIL_MBOX_H
#include <stddef.h>
#include "lib/strbuf.h"

/* One message's cap unless the caller gives another (--max-message-size). */
#define SM_MBOX_MAX_MESSAGE ((size_t)64 << 20)

/* One message of an mbox (the "From " line removed, ">From " unescaped). */
struct sm_mbox_msg {
	const char *data;	/* NULL when too_big */
	size_t len;
	unsigned n;		/* its number in the mbox, from 1 */
	size_t size;		/* its whole size, also when too big */
	const char *msgid;	/* its Message-ID header as written, "" when none */
	const char *from;	/* its "From " line after "From " (at most 127 bytes;
				 * git format-patch puts the commit id there), or "" */
	int too_big;		/* over the cap: not kept, only named */
};
/* A negative return stops the reading and is returned. */
typedef int (*sm_mbox_msg_fn)(const struct sm_mbox_msg *m, void *data);

/* The splitter, fed with bytes in any pieces (an sm_sink_fn, see
 * mail/stream.h); calls fn once per message as soon as it has ended. */
struct sm_mbox_parser;
struct sm_mbox_parser *sm_mbox_parser_new(size_t max_message, sm_mbox_msg_fn fn, void *data);
int sm_mbox_parser_feed(const char *buf, size_t len, void *parser);
/* The input has ended (completely: a cut-off input is never finished, so
 * its partial last message is dropped). Returns the number of messages or
 * the callback's < 0. */
int sm_mbox_parser_finish(struct sm_mbox_parser *p);
unsigned sm_mbox_parser_count(const struct sm_mbox_parser *p);
void sm_mbox_parser_free(struct sm_mbox_parser *p);

/* Reads the mbox at path ("-": stdin), gzipped or not, as a stream. Returns
 * the number of messages, -1 (sm_error naming path: unreadable, corrupt or
 * truncated gzip; the messages before the damage have been passed to fn,
 * the partial one has not) or the callback's < 0. */
int sm_mbox_stream(const char *path, size_t max_message, sm_mbox_msg_fn fn, void *data);

/* Reads a small file whole into out, un-gzipping it when it starts with the
 * gzip magic (tests, single mails). */
int sm_mbox_read(const char *path, struct strbuf *out);

/* Called with one message (the "From " line removed, ">From " unescaped).
 * A negative return stops the split and is returned. */
typedef int (*sm_mbox_fn)(const char *msg, size_t len, void *data);
/* Splits an mbox already in memory (no size cap); returns the number of
 * messages or a callback's < 0. */
int sm_mbox_split(const char *mbox, size_t len, sm_mbox_fn fn, void *data);

#endif
