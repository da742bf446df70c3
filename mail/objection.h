/* objection: a reply's line that asks for the patch not to be applied, as
 * the stable lists say NAK: "Please drop." under the quoted commit message
 * of an AUTOSEL patch, "This patch should not be backported." The reply
 * reader (mail/reply.h) decides where such a line counts; this says only
 * whether a line is one. */
#ifndef SM_MAIL_OBJECTION_H
#define SM_MAIL_OBJECTION_H
#include <stddef.h>

/* Is line[0..len) (unquoted, without "\n") an objection? Either, in any
 * case, with "." or "!" or nothing after it:
 *   [please] VERB [OBJECT] [up|yet] [from|for|in|to|into SCOPE]
 * where VERB is drop, don't/do not apply, backport, queue, take or pick,
 * OBJECT this, it, this one, this/the patch, commit, change or series, them
 * or these, and SCOPE up to 24 bytes ("5.10", "all stable trees"); or a line
 * that starts "This/The patch/commit/change should not be backported" or
 * "... should not go to stable" and then ends or goes on after "." */
int sm_is_objection(const char *line, size_t len);

#endif
