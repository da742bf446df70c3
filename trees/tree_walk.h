/* tree_walk: the files that differ between two trees, found as git finds
 * them: both trees read side by side in git's order, and a subtree whose
 * id is the same on both sides never opened (a commit's diff on a kernel
 * tree reads a few of its 5,000 trees, not all of them). A commit's diff
 * (commitdiff.c) and the changed paths of a merge or a patch
 * (part_tree.c) both walk so. */
#ifndef SM_TREES_TREE_WALK_H
#define SM_TREES_TREE_WALK_H
#include <git2.h>

struct sm_tree_walk {
	git_repository *repo;
	/* reads the subtree id into *out (NULL: git_tree_lookup in repo);
	 * 0, or -1 (libgit2's error) */
	int (*lookup)(void *ctx, git_tree **out, const git_oid *id);
	/* a file, link or submodule that differs: a NULL when only the
	 * second tree has it, b NULL when only the first has it. dir is its
	 * directory ("" at the top, else ending in '/'); its name is the
	 * entry's. A non-zero return stops the walk. */
	int (*file)(void *ctx, const char *dir, const git_tree_entry *a, const git_tree_entry *b);
	void *ctx;
};

/* Walks a and b (either may be NULL: an empty tree), calling w->file for
 * each file that differs (in id or mode, or on one side only), in git's
 * order. 0, the first non-zero return of w->file, or -1 when a subtree
 * cannot be read. */
int sm_tree_walk(const struct sm_tree_walk *w, git_tree *a, git_tree *b);

#endif
