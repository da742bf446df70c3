/* thread_series: the numbered patch mails of a list, in the order they
 * were given (a maildir's, an mbox's), grouped into the series they were
 * sent as and put in patch order, as git am applies a series. A list
 * delivers a series' mails in any order, mixed with other threads'.
 *
 * A series is its thread (sm_mail_thread_root: git send-email makes each
 * patch a reply to the cover letter or to the first patch), its version
 * and its length ("[PATCH v2 3/5]"). A number seen again in a series
 * starts a new round of it: the series sent again in its thread. */
#ifndef SM_MAIL_THREAD_SERIES_H
#define SM_MAIL_THREAD_SERIES_H
#include <stddef.h>
#include "mail/message.h"
#include "trees/strmap.h"

struct sm_thread_part {
	size_t series;		/* index in series */
	unsigned nr;		/* its number in the series */
	unsigned round;		/* which sending of the series (0 first) */
	size_t at;		/* the caller's index of the mail */
};

struct sm_thread_parts {
	struct sm_thread_part *v;
	size_t nr, alloc;
	struct sm_thread_series_seen {
		char *key;		/* thread root, version and length */
		unsigned round;		/* the latest round */
		unsigned char *has;	/* a byte per number: in that round */
		unsigned total;
	} *series;
	size_t nr_series, alloc_series;
	struct strmap by_key;	/* key -> index in series */
};

#define SM_THREAD_PARTS_INIT { NULL, 0, 0, NULL, 0, 0, STRMAP_INIT }

/* The longest series taken: the stable reviews' run to about 1,000
 * patches; "[PATCH 1/4294967295]" is no series. */
#define SM_THREAD_SERIES_MAX 9999

/* Adds m, the caller's mail number at, when it is a numbered patch of a
 * series of two or more (not its cover letter, not a reply). 1 when
 * added, else 0. */
int sm_thread_parts_add(struct sm_thread_parts *p, const struct sm_mail *m, size_t at);

/* fn(ats, n, ctx) for each round of each series: the indexes of its
 * mails in patch order, rounds in the order of their first mail given.
 * Stops at the first fn that returns non-zero and returns that. */
typedef int (*sm_thread_round_fn)(const size_t *ats, size_t n, void *ctx);
int sm_thread_parts_each_round(struct sm_thread_parts *p, sm_thread_round_fn fn, void *ctx);

void sm_thread_parts_release(struct sm_thread_parts *p);

#endif
