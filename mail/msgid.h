/* msgid: what a Message-ID may be used for. notmuch keeps whatever a mail
 * says ("foo bar", "<>", "a<b@x"); a review note is keyed by the id, and a
 * lore link is built from it, so both check it first. */
#ifndef SM_MAIL_MSGID_H
#define SM_MAIL_MSGID_H
#include "lib/strbuf.h"

/* Can id key a review block (non-empty, no white space, control
 * character, '<' or '>')? */
int sm_msgid_is_key(const char *id);
/* Is id an address (local@domain, both parts non-empty, a key too)?
 * Only those make lore links and fetch URLs. */
int sm_msgid_is_address(const char *id);
/* The key kept for a message whose id cannot be one: "notmuch-sha1-" and
 * the SHA-1 of the raw id, as notmuch names the ids it must derive. */
char *sm_msgid_derived(const char *raw);
/* notmuch's name of an id too long for a Xapian term ("notmuch-sha1-"
 * and the SHA-1 of the id and its terminating NUL; notmuch 0.37 renames
 * ids of about 180 characters and more): a reply's In-Reply-To still
 * holds the raw id. */
char *sm_msgid_notmuch_compressed(const char *id);
/* id percent-encoded as one URL path segment, as lore (public-inbox) does:
 * everything but letters, digits and -._~!$&'()*+,;=:@ becomes %XX. */
void sm_msgid_url_escape(const char *id, struct strbuf *out);
/* The Message-ID a commit's trailer line (len bytes, no newline) names:
 * "Link: https://lore.kernel.org/r/ID" (or lore's list archives,
 * lore.kernel.org/LIST/ID/, and lkml.kernel.org/r/ID), "Link:
 * https://patch.msgid.link/ID" (netdev's, msgid.link too), DRM's
 * patchwork.freedesktop.org/patch/msgid/ID, or "Message-Id: <ID>";
 * percent-decoded, without <>. NULL when it names none or the id is
 * no address. Caller frees. */
char *sm_msgid_from_trailer(const char *line, size_t len);

#endif
