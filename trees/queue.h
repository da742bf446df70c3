/* queue: the patches already queued for each stable tree, read from a
 * stable-queue checkout (queue-6.1/series naming patch files that carry
 * "commit <sha> upstream."). */
#ifndef SM_TREES_QUEUE_H
#define SM_TREES_QUEUE_H
#include <stddef.h>
#include "rules/version.h"

struct sm_queued {
	char upstream[41];	/* as the patch names it (may be abbreviated) */
	char *patch;		/* "queue-6.1/foo.patch" */
};

struct sm_stable_queue_tree {
	struct sm_version version;
	struct sm_queued *patches;
	size_t nr, alloc;
};

struct sm_stable_queue {
	char *dir;
	struct sm_stable_queue_tree *trees;
	size_t nr, alloc;
};

/* Reads every DIR/queue-X.Y/series and the patches it lists. A missing
 * patch file or a series that cannot be read is an error naming it; a
 * patch naming no upstream commit is skipped. 0 or -1 (sm_error). */
int sm_stable_queue_load(struct sm_stable_queue *q, const char *dir);
void sm_stable_queue_release(struct sm_stable_queue *q);
/* The queued patch for upstream commit id (full) in tree v, or NULL. */
const struct sm_queued *sm_stable_queue_find(const struct sm_stable_queue *q, const struct sm_version *v,
				      const char *id);

#endif
