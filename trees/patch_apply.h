/* patch_apply: does a patch that is in no repository (a mail from the
 * list, `git format-patch` output) apply to a tree, as `git apply --check`
 * says, and if not, is it in the tree already, as `git apply -R --check`
 * says? libgit2 parses the patch (git's format: "diff --git" headers) and
 * applies it in memory, each hunk where the tree has its lines
 * (trees/patch_offset.h), with no fuzz; it applies forward only, so the
 * reverse is the patch with its two sides swapped. When neither applies,
 * as `git am -3` does: the patch is applied to its own base (the blobs its
 * "index" lines name, when the repository has them) and that change is
 * merged into the tree. Nothing is written to the repository. */
#ifndef SM_TREES_PATCH_APPLY_H
#define SM_TREES_PATCH_APPLY_H
#include <git2.h>
#include <stddef.h>
#include "lib/strlist.h"
#include "trees/trial.h"

enum sm_patch_fit {
	SM_PATCH_UNKNOWN = -1,	/* no patch libgit2 reads (no diff, a plain diff -u) */
	SM_PATCH_CONFLICTS = 0,	/* it does not apply, nor its reverse */
	SM_PATCH_APPLIES = 1,	/* it applies */
	SM_PATCH_APPLIED = 2,	/* the tree has it: only its reverse applies, or
				 * the three-way merge changes nothing */
	SM_PATCH_MERGES = 3,	/* not exactly, but the three-way merge takes it */
};

/* What sm_patch_fit found besides the answer. */
struct sm_patch_fit_info {
	int three_way;			/* 1: the three-way merge decided */
	struct strlist conflicts;	/* where it conflicts, each path once */
	/* the files the three-way merge found under another path, in pairs:
	 * the patch's path, then the tree's (a file at least half alike, of
	 * the same name, in the same directory or where mainline moved it
	 * from; or the one file that is the patch's base) */
	struct strlist moved;
	/* 1: the tree's files are the patch's base as they are, some at
	 * another path (moved): only the path made a merge needed */
	int base_as_is;
	/* SM_PATCH_CONFLICTS without a three-way merge: why none was tried
	 * ("the blob 1234567 of fs/x.c, the patch's base, is not in the
	 * repository"); else empty */
	char no_three_way[200];
	/* the patches of a series that went in before this one (onto the
	 * tree they made: sm_patch_series_next); 0 for one tried alone */
	unsigned after;
	/* the patches of its series tried before it, whether or not they
	 * went in (not a cover letter: no patch); 0 for one tried alone */
	unsigned tried_before;
};

/* How the patch in text[0..len) (a whole mail or commit: the diff is found
 * in it, from its first "diff --git " line) fits tree, a tree of repo.
 * gone, when not NULL, is the tree against mainline (trees/tree_files.h):
 * a file the patch changes that the tree lacks is looked for among the
 * tree's files mainline lacks, where mainline moved it from. info, when
 * not NULL, is filled in (sm_patch_fit_info_release it). */
struct sm_tree_files;
enum sm_patch_fit sm_patch_fit(git_repository *repo, git_tree *tree, const char *text, size_t len,
			       struct sm_tree_files *gone, struct sm_patch_fit_info *info);
void sm_patch_fit_info_release(struct sm_patch_fit_info *info);

/* A series tried in order, as `git am` applies an mbox: each patch onto
 * the tree the ones before it made (those that applied or merged; one
 * that does not is left out and the rest go on). The trees it makes are
 * held in memory (a trial's store, trees/trial.h) until it is released. */
struct sm_patch_series {
	struct sm_trial trial;
	struct sm_tree_files *gone;	/* borrowed, or NULL (sm_patch_fit) */
	git_oid tree;		/* where the next patch goes */
	unsigned applied;	/* how many went in */
	unsigned tried;		/* how many patches were tried */
};

/* Starts a series onto tree, a tree of repo (gone: as sm_patch_fit's).
 * 0 or -1 (sm_error). */
int sm_patch_series_open(struct sm_patch_series *s, git_repository *repo, const git_oid *tree,
			 struct sm_tree_files *gone);
/* sm_patch_fit of the next patch, onto the tree the series has made. */
enum sm_patch_fit sm_patch_series_next(struct sm_patch_series *s, const char *text, size_t len,
				       struct sm_patch_fit_info *info);
void sm_patch_series_release(struct sm_patch_series *s);

/* The patch diff[0..len) with its sides swapped, appended to out: "---" and
 * "+++" names, "-" and "+" lines, hunk ranges, index ids, new and deleted
 * files, modes and renames. What `git apply -R` applies. */
struct strbuf;
void sm_patch_reverse(const char *diff, size_t len, struct strbuf *out);

#endif
