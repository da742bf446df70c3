/* mainline: which branch of a repository is mainline, when the user did
 * not say (--upstream-ref). HEAD's branch is, in a clone of linux.git; in
 * a clone of linux-stable.git a maintainer often has a stable branch
 * checked out (linux-6.6.y, to apply patches), or none at all (git init,
 * then fetch): there mainline is master, as linux-stable.git names it. */
#ifndef SM_TREES_MAINLINE_H
#define SM_TREES_MAINLINE_H
#include <git2.h>

/* The ref to read as mainline. With end (a range's end, named end_name):
 * HEAD's branch ("HEAD" when detached) when it holds end, else the first
 * of master, main and each remote's master and main that holds it, else
 * end_name itself (nothing past the range). Without end: HEAD's branch
 * unless HEAD is unborn or on a stable branch (linux-X.Y.y), else the
 * first of those that exists, else HEAD's branch all the same ("HEAD" when
 * unborn). *note is a note on that choice in a few words when it is not
 * HEAD's branch taken as it is ("HEAD's linux-6.6.y does not hold v6.9",
 * "HEAD's linux-6.1.y is a stable branch, and no master or main is here"),
 * else NULL. cache_dir (may be NULL) keeps the ancestry answers
 * (trees/ancestry.h). Caller frees both. */
char *sm_mainline_ref(git_repository *repo, const git_oid *end, const char *end_name,
		      const char *cache_dir, char **note);

/* Whether name (a branch, maybe "origin/linux-6.1.y") is a stable tree's
 * branch as kernel.org names them: linux-X.Y.y. */
int sm_is_stable_branch_name(const char *name);

#endif
