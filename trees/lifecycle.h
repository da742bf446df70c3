/* lifecycle: what mainline did to a commit after it landed, read once
 * from the upstream branch (base..tip, base being the scanned range's
 * start) into an index of each commit's Fixes: targets, the prerequisites
 * its stable tags name ("Cc: stable@vger.kernel.org # 6.1.x: <sha>:
 * subject") and the commit its "This reverts commit <sha>" line names.
 *
 * The index is cached as the upstream index is (trees/branch_cache.h):
 * one file per repository + branch + base, stamped with the tip; a tip
 * that grew is read incrementally, a rewritten branch or a file that does
 * not parse is rebuilt. */
#ifndef SM_TREES_LIFECYCLE_H
#define SM_TREES_LIFECYCLE_H
#include <stddef.h>
#include <git2.h>
#include "trees/strmap.h"
#include "trees/upstream_index.h"
#include "lib/strlist.h"

struct sm_life_entry {
	char id[41];
	char reverts[41];	/* the id its revert line names (may be abbreviated), "" */
	/* Fixes: ids and, each after a '+', stable-tag prerequisite ids
	 * (lower case, as written) joined by ',', "" */
	char *refs;
	char *subject;
};

struct sm_lifecycle {
	char *refname;
	char tip[41];
	char base[41];		/* "" when the whole history is indexed */
	struct sm_life_entry *entries;	/* oldest first (topological) */
	size_t nr, alloc;
	enum sm_cache_state cache_state;
	size_t scanned;		/* commits read from the repository this run */
	char *cache_path;
	struct strmap by_id;
	struct sm_life_ref *refs;	/* every id named, sorted by that id */
	size_t nr_refs, alloc_refs;
};

/* Builds the index of branch over base..branch (base NULL: whole history).
 * cache_dir as for sm_upstream_index_build ("" turns the cache off).
 * Returns 0 or -1 (sm_error names the branch). */
int sm_lifecycle_build(struct sm_lifecycle *lc, git_repository *repo, const char *branch,
		       const git_oid *base, const char *cache_dir);
/* sm_lifecycle_build with a walk the caller made (trees/branch_cache.h). */
struct sm_known_walk;
int sm_lifecycle_build_known(struct sm_lifecycle *lc, git_repository *repo, const char *branch,
			     const git_oid *base, const char *cache_dir,
			     const struct sm_known_walk *known);
void sm_lifecycle_release(struct sm_lifecycle *lc);

/* The entry of a commit of the branch, or NULL. */
const struct sm_life_entry *sm_lifecycle_entry(const struct sm_lifecycle *lc, const char *id);

/* The commit that reverts id for good (a revert that was itself reverted
 * does not count, a revert of that revert does), or NULL. When a revert
 * was undone, *undone (may be NULL) gets the first such revert. */
const struct sm_life_entry *sm_lifecycle_reverted(const struct sm_lifecycle *lc, const char *id,
						  const struct sm_life_entry **undone);

/* Appends to out (full ids, oldest first) every later commit whose Fixes:
 * names id, then the ones naming those, recursively. Fixes that were
 * reverted for good are left out. */
void sm_lifecycle_fixed_by(const struct sm_lifecycle *lc, const char *id, struct strlist *out);

/* Appends to out (full ids, once each, oldest first) every other commit
 * whose stable tag names id as a prerequisite, unless reverted for good.
 * Which trees each tag asks for is in the commit's message. */
void sm_lifecycle_needed_by(const struct sm_lifecycle *lc, const char *id, struct strlist *out);

#endif
