/* soak: how long a commit has been in mainline, against the conditions a
 * stable tag sets ("# after -rc3", "# after 6.8-rc1", "# after 4 weeks in
 * mainline") and a minimum soak time. -rc tags are read once. */
#ifndef SM_TREES_SOAK_H
#define SM_TREES_SOAK_H
#include <git2.h>
#include <time.h>
#include "trees/tags.h"
#include "lib/strbuf.h"

struct sm_rc_tag {
	struct sm_version version;	/* 6.8 */
	int rc;				/* 3 */
};

struct sm_soak {
	struct sm_rc_tag *rcs;
	size_t nr, alloc;
	time_t now;
};

int sm_soak_load(struct sm_soak *s, git_repository *repo, time_t now);
void sm_soak_release(struct sm_soak *s);

/* Checks one stable-tag condition for commit id (committed at when).
 * Returns 1 met, 0 not met yet, -1 not a soak condition. out gets one
 * line: what it waits for, or why it is met. */
int sm_soak_check(const struct sm_soak *s, struct sm_release_tags *tags, git_repository *repo,
		  const git_oid *id, time_t when, const char *condition, struct strbuf *out);

#endif
