/* upstream_index: for one branch, which upstream (mainline) commit each of
 * its commits carries.  A stable commit names its original in its message
 * ("commit <sha> upstream.", "[ Upstream commit <sha> ]", "(cherry picked
 * from commit <sha>)", "upstream commit <sha>"; see sm_find_upstream_ref);
 * a commit naming none is matched by its patch-id (as `git patch-id
 * --stable` computes it), then by its subject.
 *
 * The index covers base..tip of the branch (base: the tree's release tag,
 * or nothing for the whole history) and is cached on disk keyed by the
 * repository, branch and base, and stamped with the tip: a rerun on a tip
 * that grew only reads the new commits; a cache whose tip is no longer in
 * the branch, or that does not parse, is rebuilt and never trusted. */
#ifndef SM_TREES_UPSTREAM_INDEX_H
#define SM_TREES_UPSTREAM_INDEX_H
#include <stddef.h>
#include <git2.h>
#include "trees/strmap.h"
#include "trees/cache.h"

enum sm_match {
	SM_MATCH_NONE,
	SM_MATCH_UPSTREAM_ID,	/* the message names the upstream id */
	SM_MATCH_SAME_COMMIT,	/* the upstream commit itself is on the branch */
	SM_MATCH_PATCH_ID,	/* same patch-id, no upstream line */
	SM_MATCH_SUBJECT,	/* same subject, no upstream line */
};

struct sm_upstream_entry {
	char stable[41];	/* the commit on the branch */
	char upstream[41];	/* the upstream id its message names; "" if none
				 * (may be abbreviated when the repo lacks it) */
	char patch_id[41];	/* only for commits naming no upstream id; "" for
				 * others, merges and empty commits */
	char *subject;
};

struct sm_upstream_index {
	char *refname;		/* the branch as given */
	char tip[41];
	char base[41];		/* "" when the whole history is indexed */
	struct sm_upstream_entry *entries;	/* oldest first */
	size_t nr, alloc;
	enum sm_cache_state cache_state;
	size_t from_cache;	/* entries read from the cache */
	size_t scanned;		/* commits read from the repository this run */
	char *cache_path;	/* NULL when caching is off */
	struct strmap by_upstream, by_stable, by_patch_id, by_subject;
	size_t *abbrev;		/* entries whose upstream id is abbreviated */
	size_t nr_abbrev, alloc_abbrev;
};

/* Builds the index of branch (any revision naming a commit) in repo over
 * base..branch (base NULL: whole history). cache_dir NULL means
 * $XDG_CACHE_HOME/stablemate (or ~/.cache/stablemate); "" turns the cache
 * off. Returns 0 or -1 (sm_error names the branch or the cache file). A
 * cache that cannot be written is a warning, not an error.
 * Release with sm_upstream_index_release. */
int sm_upstream_index_build(struct sm_upstream_index *idx, git_repository *repo,
			    const char *branch, const git_oid *base, const char *cache_dir);
/* The same, counting the commits it reads on progress (lib/progress.h,
 * may be NULL) under the phase "Indexing BRANCH". */
struct sm_progress;
int sm_upstream_index_build_progress(struct sm_upstream_index *idx, git_repository *repo,
				     const char *branch, const git_oid *base,
				     const char *cache_dir, struct sm_progress *progress);
void sm_upstream_index_release(struct sm_upstream_index *idx);
/* The branch's commits it took and then reverted: paired[i] = 1 + the
 * index of the entry entry i is paired with, a commit and the later
 * revert ("This reverts commit X", X by the branch's own id or by the
 * upstream id a backported revert names) on the same branch; 0 when
 * none. Reverts are taken newest first, so a revert of a revert pairs
 * with the revert and the commit counts as in. Reads the message of
 * each "Revert ..." commit in repo. Caller frees. */
size_t *sm_upstream_index_revert_pairs(const struct sm_upstream_index *idx, git_repository *repo);
/* With pairs from sm_upstream_index_revert_pairs: the later commit
 * reverting e, or NULL when e stands (or is itself a revert). */
const struct sm_upstream_entry *sm_upstream_index_revert_of(const struct sm_upstream_index *idx,
							    const size_t *pairs,
							    const struct sm_upstream_entry *e);
/* The branch's backport of upstream: the commit naming it as its upstream
 * id (not one matched by patch-id, subject, or being upstream itself);
 * NULL when none. */
const struct sm_upstream_entry *sm_upstream_index_backport_of(const struct sm_upstream_index *idx,
							      const char *upstream);

/* The upstream id the "Stable-dep-of:" trailer of e's commit names, as
 * written (sm_find_stable_dep_of), into out; 0 when it has none or the
 * commit cannot be read. */
int sm_upstream_entry_dep_of(git_repository *repo, const struct sm_upstream_entry *e,
			     char out[41]);
/* The branch's commits taken as prerequisites of its entry at: those
 * before it in its batch (since the release commit before it, "Linux
 * 6.1.52", up to SM_PREREQ_BATCH_MAX entries back, and at least the
 * SM_PREREQ_WINDOW before it) whose "Stable-dep-of:" names upstream (the
 * stable scripts queue them with the fix, mostly just before it). Their
 * indices into out (at most max, oldest first); returns how many. Reads
 * their messages in repo. */
#define SM_PREREQ_WINDOW 16
#define SM_PREREQ_BATCH_MAX 2000
size_t sm_upstream_index_prereqs_of(const struct sm_upstream_index *idx, git_repository *repo,
				    size_t at, const char *upstream, size_t *out, size_t max);

/* Finds the branch's commit for an upstream commit: by the upstream id
 * its message names, by being that very commit, by patch_id (may be NULL
 * or "") among commits naming no upstream id, then by subject (may be
 * NULL). *how (may be NULL) says which. NULL when absent. */
const struct sm_upstream_entry *sm_upstream_index_find(const struct sm_upstream_index *idx,
							 const char *upstream, const char *patch_id,
							 const char *subject, enum sm_match *how);
/* The branch's commit with this subject, whatever upstream id it names,
 * or NULL: for a patch that is in no repository (a list mail), which has
 * no upstream id to be matched by. */
const struct sm_upstream_entry *sm_upstream_index_find_subject(const struct sm_upstream_index *idx,
								const char *subject);
/* The entry for a commit of the branch, or NULL. */
const struct sm_upstream_entry *sm_upstream_index_entry(const struct sm_upstream_index *idx,
							  const char *stable);
/* The upstream id a commit of the branch stands for: the id its message
 * names, else its own id. NULL when stable is not in the index. */
const char *sm_upstream_index_upstream_of(const struct sm_upstream_index *idx, const char *stable);

const char *sm_match_name(enum sm_match how);

#endif
