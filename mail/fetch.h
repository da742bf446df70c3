/* fetch: a thread's mbox from a public-inbox server over HTTP (libcurl),
 * as b4 does: GET <base>/<Message-ID>/t.mbox.gz, un-gzipped and split into
 * messages while it arrives (one message in memory at a time). */
#ifndef SM_MAIL_FETCH_H
#define SM_MAIL_FETCH_H
#include <stddef.h>
#include "mail/mbox.h"

/* The most a reply may hold, compressed or not, unless told otherwise. */
#define SM_FETCH_MAX_REPLY ((size_t)256 << 20)

/* base_url like "https://lore.kernel.org/all"; msgid with or without <>.
 * Each message of the thread goes to fn as soon as it is complete (one over
 * max_message comes with too_big set). A reply over max_reply bytes (0: the
 * default), a truncated gzip or an HTTP error stop it: -1 (sm_error with the
 * URL and reason); the messages already passed to fn were complete, a
 * cut-off last one is never passed. 0 on success, or fn's < 0. */
int sm_fetch_thread(const char *base_url, const char *msgid, size_t max_reply,
		    size_t max_message, sm_mbox_msg_fn fn, void *data);

#endif
