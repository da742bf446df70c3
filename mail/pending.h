/* pending: reviewed patches that had no upstream commit when harvested.
 *
 * A patch reviewed on the list before it is merged cannot be mapped yet,
 * and the harvest cursor moves past its thread. harvest keeps such
 * patches in this list (in the notmuch database's config, next to the
 * cursor) and, once the upstream ref has moved, tries to map each again by
 * its Message-ID and subject; one that maps now has its thread harvested
 * again. An entry is given up SM_PENDING_DAYS after it was added, or
 * when SM_PENDING_MAX newer ones wait.
 *
 * The text form, one config value:
 *   tip <40 hex: the upstream tip the entries were last tried against>
 *   <epoch added>\t<Message-ID>\t<title>
 * Lines that do not read are dropped (the list is a cache of work, not a
 * record: at worst a review waits for someone to harvest its thread). */
#ifndef SM_MAIL_PENDING_H
#define SM_MAIL_PENDING_H
#include <stddef.h>
#include "lib/strbuf.h"

#define SM_PENDING_DAYS 180
/* At most this many are kept (the oldest go first): a 180-day backlog of a
 * whole list's unmerged versions stays a config value of a few MB. */
#define SM_PENDING_MAX 20000

struct sm_pending_patch {
	long long since;	/* seconds since the epoch when it was added */
	char *msgid;		/* the patch mail's, without <> */
	char *title;		/* its subject without tags, as mapped */
};

struct sm_pending {
	struct sm_pending_patch *items;
	size_t nr, alloc;
	char tip[41];		/* "" when never tried */
	void *ids;		/* the items' Message-IDs, a GHashTable set */
};

#define SM_PENDING_INIT { NULL, 0, 0, "", NULL }

void sm_pending_parse(struct sm_pending *p, const char *text);
void sm_pending_format(const struct sm_pending *p, struct strbuf *out);
/* Adds the patch unless its Message-ID is there: 1 added, 0 present.
 * Tabs and line breaks in the title become spaces. */
int sm_pending_add(struct sm_pending *p, const char *msgid, const char *title, long long now);
/* Removes every item i with marked[i] (marked has p->nr entries) in one
 * pass, the order of the others kept; returns how many. */
size_t sm_pending_remove_marked(struct sm_pending *p, const unsigned char *marked);
/* Removes the entries added SM_PENDING_DAYS or more before now, then the
 * oldest beyond SM_PENDING_MAX; returns how many. */
size_t sm_pending_expire(struct sm_pending *p, long long now);
void sm_pending_release(struct sm_pending *p);

#endif
