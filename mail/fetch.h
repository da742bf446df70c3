/* fetch: a thread's mbox from a public-inbox server over HTTP (libcurl),
 * as b4 does: GET <base>/<Message-ID>/t.mbox.gz, un-gzipped. */
#ifndef SM_MAIL_FETCH_H
#define SM_MAIL_FETCH_H
#include "lib/strbuf.h"

/* base_url like "https://lore.kernel.org/all"; msgid with or without <>.
 * out gets the mbox text. 0, or -1 (sm_error with the URL and reason). */
int sm_fetch_thread(const char *base_url, const char *msgid, struct strbuf *out);

#endif
