/* tree_state: one stable tree opened for work: its repository, tip,
 * branch point (the tree's release tag, e.g. v6.1 for linux-6.1.y, when the
 * repository has it and it is on the branch) and its upstream index. */
#ifndef SM_TREES_TREE_STATE_H
#define SM_TREES_TREE_STATE_H
#include <git2.h>
#include "trees/scan.h"
#include "trees/upstream_index.h"
#include "lib/strbuf.h"

struct sm_tree_state {
	const struct sm_tree_spec *spec;
	git_repository *repo;	/* shared with the caller's when own_repo is 0 */
	int own_repo;
	git_oid tip;
	/* the branch as it resolved: spec->branch, or the remote-tracking
	 * branch of that name (sm_resolve_branch) */
	char branch[256];
	/* A local branch behind the remote-tracking branch it tracks (git
	 * status's "behind by N"): the tree took commits it lacks, whose
	 * fixes would look missing. 0 when not behind or tracking nothing. */
	size_t behind;
	char upstream[256];	/* the tracked branch, "origin/linux-6.1.y" */
	int has_base;
	git_oid base;
	char base_name[64];	/* "v6.1", "" without a base */
	struct sm_upstream_index idx;
	/* sm_upstream_index_revert_pairs of idx, made when first asked
	 * (sm_tree_state_revert_of); NULL until then */
	size_t *revert_pairs;
};

/* Opens spec's tree. When spec->repo is NULL or names shared_path, the
 * shared repository is used. Returns 0 or -1 (sm_error). */
int sm_tree_state_open(struct sm_tree_state *t, const struct sm_tree_spec *spec,
		       git_repository *shared, const char *shared_path, const char *cache_dir);
/* The same, its index build counted on progress (may be NULL). */
int sm_tree_state_open_progress(struct sm_tree_state *t, const struct sm_tree_spec *spec,
				git_repository *shared, const char *shared_path,
				const char *cache_dir, struct sm_progress *progress);
void sm_tree_state_close(struct sm_tree_state *t);
/* The tree's commit reverting e (an entry of t->idx) later on the branch,
 * or NULL when e stands (sm_upstream_index_revert_pairs). */
const struct sm_upstream_entry *sm_tree_state_revert_of(struct sm_tree_state *t,
							 const struct sm_upstream_entry *e);
/* The tree's commit for an upstream commit (sm_upstream_index_find's
 * look-up), unless the tree reverted it later: NULL when it does not
 * carry it. */
const struct sm_upstream_entry *sm_tree_state_carries(struct sm_tree_state *t,
						       const char *upstream, const char *patch_id,
						       const char *subject);
/* Does the tree have the commit id (hex, its subject)? By the index
 * (sm_tree_state_carries: a copy it took, or the commit itself since the
 * tree's release, and did not revert), else as the tip or an ancestor of
 * it (repo holds both): of its release, when it has one, as the index
 * holds the rest. */
int sm_tree_state_has(struct sm_tree_state *t, git_repository *repo, const git_oid *id,
		      const char *hex, const char *subject);
/* What a reader of a tree's verdicts must know of its branch, appended to
 * out (nothing when all is well), parts joined by "; ": its release tag v
 * is not on it (has_base 0: its whole history is indexed), and it lags
 * the branch upstream it tracks by behind commits (behind > 0). */
void sm_tree_caveats(const struct sm_version *v, int has_base, size_t behind,
		     const char *upstream, struct strbuf *out);
/* Fills spec->version from a name such as "linux-6.1.y", "stable-4.4" or
 * "6.1" (the first N.M in it). Returns 0 or -1 (sm_error naming it). */
int sm_tree_version_from_name(const char *name, struct sm_version *v);


/* Parses a --tree argument "BRANCH" or "BRANCH=VERSION" (arg is split in
 * place; spec borrows from it). repo is spec->repo (may be NULL). The
 * version comes from VERSION, else from the branch name. 0 or -1. */
int sm_tree_spec_parse(struct sm_tree_spec *spec, char *arg, const char *repo);
#endif
