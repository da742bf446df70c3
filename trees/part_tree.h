/* part_tree: a tree of a few of a big tree's files. libgit2 reads every
 * file of a tree it applies a patch to (git_apply_to_tree) or merges
 * (git_merge_trees) into an index: about 0.1 s on a kernel tree of 80,000
 * files, for a change of one file. A change decides nothing outside its
 * own files, so the patch or the merge runs on a part of the tree made of
 * those files alone, and its result is put back over the whole tree
 * (git_tree_create_updated writes only the trees on the changed paths). */
#ifndef SM_TREES_PART_TREE_H
#define SM_TREES_PART_TREE_H
#include <git2.h>
#include "lib/strlist.h"

/* The paths diff reads or writes, appended to out: each delta's old path,
 * and its new path when that differs. */
void sm_diff_paths(git_diff *diff, struct strlist *out);

/* The paths whose file differs between trees a and b (in id or mode;
 * added or deleted; every file of a directory only one has), appended to
 * out in git's order. A subtree whose id is the same on both sides is
 * not read. 0, or -1 (libgit2's error) when a tree cannot be read. */
int sm_tree_diff_paths(git_repository *repo, git_tree *a, git_tree *b, struct strlist *out);

/* The files tree has at paths (blobs: files and links; and submodules'
 * commits; a path it lacks, or where it has a directory, is left out), as
 * a tree of their own written to repo, into *out. 0 or a libgit2 error. */
int sm_part_tree(git_repository *repo, git_tree *tree, const struct strlist *paths, git_oid *out);

/* onto with the files at paths as part has them (part: what a patch or a
 * merge made of sm_part_tree's tree): replaced or added, and removed
 * where part lacks them; the whole tree, written to repo, into *out.
 * 0 or a libgit2 error. */
int sm_part_overlay(git_repository *repo, git_tree *onto, git_tree *part,
		    const struct strlist *paths, git_oid *out);

/* git_diff_tree_to_tree of a and b (either may be NULL: an empty tree)
 * with opts, limited to the files that differ (sm_tree_diff_paths, given
 * as a literal path list): the same deltas, and so the same text, without
 * opening every subtree of both (libgit2's diff of two kernel trees takes
 * 20 ms for a one-line change). Writes nothing. *out to git_diff_free.
 * 0 or a libgit2 error. */
int sm_diff_changed_files(git_diff **out, git_repository *repo, git_tree *a, git_tree *b,
			  const git_diff_options *opts);

#endif
