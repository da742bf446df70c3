/* ident: who a trailer names and who sent the mail, and whether they are
 * the same person. A trailer counts as the sender's review only when its
 * address is the sender's From: address (case-insensitive) or a known
 * alias of it (an aliases file, the format of git's .mailmap: every
 * <address> on one line belongs to one person). */
#ifndef SM_MAIL_IDENT_H
#define SM_MAIL_IDENT_H
#include <stddef.h>
#include "lib/strbuf.h"
#include "lib/strlist.h"

/* Cleans a person as mail clients decorate it, as b4 does:
 *   "A <a@b.example<mailto:a@b.example>>", "A <mailto:a@b.example>",
 *   "A a@b.example [mailto:a@b.example]", "A &lt;a@b.example&gt;"
 * become "A <a@b.example>" (a bare address stays bare). Appends to out;
 * returns 1 when an address was found, 0 when not (out gets s trimmed). */
int sm_ident_clean(const char *s, size_t len, struct strbuf *out);
/* The address of a (cleaned or not) person, lower case, into out ("" if none). */
void sm_ident_address(const char *s, struct strbuf *out);

struct sm_aliases {
	struct strlist addr;	/* lower-case addresses... */
	size_t *person;		/* ...and the line (person) each belongs to */
	size_t alloc;
};
#define SM_ALIASES_INIT { STRLIST_INIT, NULL, 0 }

/* Reads an aliases file; 0, or -1 (sm_error naming the file and line). */
int sm_aliases_load(struct sm_aliases *a, const char *path);
/* The same, from text (name is used in errors). */
int sm_aliases_parse(struct sm_aliases *a, const char *text, const char *name);
void sm_aliases_release(struct sm_aliases *a);
/* Are the two addresses the same person? a may be NULL (no aliases).
 * An empty address is nobody's. */
int sm_aliases_same(const struct sm_aliases *a, const char *addr1, const char *addr2);

#endif
