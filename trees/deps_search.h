/* deps_search: what else a fix that still conflicts on a tree needs. The
 * commits between the tree's branch point and the fix that change a file
 * in conflict and that the tree lacks, newest first up to a bound, are
 * cherry-picked in memory (trees/trial.h) with the fix's known
 * dependencies, in commit order; those that conflict themselves are
 * dropped, and when the fix then applies, each it also applies without is
 * dropped, newest first. Blame (trees/deps.h) finds what touched the fix's
 * own lines; this finds what --depth cut off and what touched the lines
 * around them, and when there is nothing to find, the conflict is with the
 * tree's own changes. deps, scan --search and steal --search use it. */
#ifndef SM_TREES_DEPS_SEARCH_H
#define SM_TREES_DEPS_SEARCH_H
#include <git2.h>
#include "trees/deps.h"

struct sm_trial;
struct sm_tree_state;

/* The default search_max of the deps command, and the most allowed. */
#define SM_DEPS_SEARCH_DEFAULT 16
#define SM_DEPS_SEARCH_MAX 256

/* Does a go before b when they are picked? Oldest first; of two made in
 * the same second (a series applied at once) the ancestor first. */
int sm_dep_before(git_repository *repo, const struct sm_dep *a, const struct sm_dep *b);
/* deps[0..nr) in that order (an insertion sort: the order needs the
 * repository, and the lists are a few dozen long). */
void sm_deps_sort(git_repository *repo, struct sm_dep **deps, size_t nr);

/* Do trees a and b differ at path (a file or a directory)? Level by level:
 * a subtree whose id is the same on both sides holds no change and is not
 * read, so a commit elsewhere in the tree costs two root-tree look-ups
 * (the search asks this of every commit since the tree's release). */
int sm_tree_differs_at(git_repository *repo, git_tree *a, git_tree *b, const char *path);

/* The commits of base..tip with one parent, newest first (topological),
 * and their trees and their parents' trees: one walk that a scan's
 * searches of one tree share (each search walking the history itself
 * took 0.2 s on bench/scan's repository). */
struct sm_deps_history {
	struct sm_history_commit {
		git_oid id, tree, parent_tree;
	} *commits;
	size_t nr, alloc;
	int truncated;	/* stopped at its bound, older commits left out */
};
int sm_deps_history_build(struct sm_deps_history *h, git_repository *repo, const git_oid *tip,
			  const git_oid *base);
void sm_deps_history_release(struct sm_deps_history *h);

/* The search (see above): fix, in repo, conflicts on tree t, alone or
 * after deps[0..nr_deps) (full ids, the tree lacks them); the files in
 * conflict are the trials' own. base is the tree's branch point (NULL: no
 * search). history, when not NULL, is base..X for some X that has the
 * fix (its commits that are not the fix's ancestors are left out); NULL:
 * the search walks base..fix itself. trial is a handle on t's repository
 * that reads repo's commits too (sm_trial_borrow). out is released with
 * sm_deps_search_release. */
void sm_deps_search(git_repository *repo, struct sm_tree_state *t, struct sm_trial *trial,
		    git_commit *fix, const git_oid *base, const struct sm_deps_history *history,
		    const char *const *deps, size_t nr_deps, unsigned max,
		    struct sm_deps_search *out);
void sm_deps_search_release(struct sm_deps_search *s);

#endif
