/* tree_files: does a stable tree have the files a commit changes? A fix to
 * code the tree does not have (a driver or a feature added after its
 * release) fixes nothing there, and scan vetoes it ("file-not-in-tree").
 * But mainline moves files, and the tree has a moved file under its old
 * name, where a cherry-pick carries the fix (trees/pick.c finds renames).
 * So a file the tree lacks counts only when mainline still has it and it
 * can be none of the tree's files that mainline no longer has at their
 * path ("gone"): none bears its base name (a move mostly keeps it:
 * fs/cifs/file.c went to fs/smb/client/file.c), and none with the same
 * extension is 30% alike in content
 * (libgit2's similarity signatures, as rename detection uses; git calls a
 * rename at 50%). Nor when mainline split it off a file that stays: a file
 * of the tree in its directory, of its extension, that mainline shrank to
 * 75% or less of its size and that is 30% alike. Erring that way keeps a
 * fix rather than drops it. */
#ifndef SM_TREES_TREE_FILES_H
#define SM_TREES_TREE_FILES_H
#include <git2.h>
#include "lib/strlist.h"
#include "rules/commit.h"
#include "trees/strmap.h"

struct sm_tree_files {
	git_repository *tree_repo, *mainline_repo;	/* borrowed */
	git_oid tip, mainline;		/* the tree's tip, mainline's commit */
	git_tree *tip_tree, *mainline_tree;
	int loaded;			/* 0 not yet, 1 trees read, -1 unreadable */
	/* the tree's files mainline lacks at their path, read once, when
	 * first needed; by base name in gone_names */
	int gone_built;
	struct sm_gone_file {
		char *path;
		git_oid blob;
		struct git_hashsig *sig;	/* made when first compared */
		int sig_state;			/* 0 not yet, 1 made, -1 none */
	} *gone;
	size_t nr_gone, alloc_gone;
	struct strmap gone_names;	/* base name (in gone[].path) -> index */
};

/* f for the tree whose tip is tip in tree_repo, against mainline's tree
 * at the commit mainline in mainline_repo (scan: the range's end). Reads
 * nothing yet. */
void sm_tree_files_init(struct sm_tree_files *f, git_repository *tree_repo, const git_oid *tip,
			git_repository *mainline_repo, const git_oid *mainline);
/* 1 when the tree lacks every file c changes that existed before it (c
 * creates none of them), and mainline has each at that path, and none can
 * be a file the tree has under another path: *first is one of them
 * (borrowed from c) and *nr how many. 0 otherwise, and when c has no
 * such file, has only diff statistics (no diff: which files it creates
 * is unknown) or the trees cannot be read (nothing certain to say). */
int sm_tree_files_lacks(struct sm_tree_files *f, const struct sm_commit *c, const char **first,
			size_t *nr);
/* The veto "file-not-in-tree" on v (a verdict for the tree named tree,
 * not finished yet) when the classifier flags c (its weights reach r's
 * maybe score, no veto yet) and sm_tree_files_lacks says so. Shared by
 * scan and classify --repo. */
struct sm_rules;
struct sm_verdict;
void sm_tree_files_judge(struct sm_tree_files *f, const struct sm_rules *r,
			 const struct sm_commit *c, const char *tree, struct sm_verdict *v);
/* Of the tree's files mainline lacks at their path ("gone": among them,
 * under their old paths, the files mainline moved), the one of path's
 * kind (extension) most like sig, the signature of a mainline file the
 * tree lacks at path (of size bytes, 0: unknown), not in taken, and in
 * now, the tree the patch goes onto (NULL: the tip; a patch of a series
 * before it may have removed one). Its path (borrowed from f) with
 * *score its likeness (0..100), or NULL when none is at least min alike,
 * when two are the most alike (a copy: nothing tells which it was) or the
 * trees cannot be read. Each gone file's signature is made once, for this
 * and sm_tree_files_lacks. */
struct git_hashsig;
const char *sm_tree_files_most_like(struct sm_tree_files *f, const char *path,
				    const struct git_hashsig *sig, size_t size,
				    const struct strlist *taken, git_tree *now, int min,
				    int *score);
void sm_tree_files_release(struct sm_tree_files *f);

#endif
