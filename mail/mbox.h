/* mbox: reading mboxo/mboxrd files (gzip too) into single messages. */
#ifndef SM_MAIL_MBOX_H
#define SM_MAIL_MBOX_H
#include <stddef.h>
#include "lib/strbuf.h"

/* Reads path into out, un-gzipping it when it starts with the gzip magic. */
int sm_mbox_read(const char *path, struct strbuf *out);
/* Un-gzips data (len bytes) into out. 0, or -1 (sm_error naming what). */
int sm_gunzip(const char *data, size_t len, struct strbuf *out, const char *what);

/* Called with one message (the "From " line removed, ">From " unescaped).
 * A negative return stops the split and is returned. */
typedef int (*sm_mbox_fn)(const char *msg, size_t len, void *data);
/* Splits an mbox; returns the number of messages or a callback's < 0. */
int sm_mbox_split(const char *mbox, size_t len, sm_mbox_fn fn, void *data);

#endif
