/* trial: does a series of commits apply, in order, onto a commit? Asked
 * without a trace in the repository.
 *
 * A cherry-pick merges in memory, but the files it merges and the trees of
 * a result are objects, and libgit2 writes objects to the repository's
 * store: until 2026-12-06 scan --check-applies and backports --mine, which
 * only read, left every tree they tried in .git/objects as loose objects
 * (29 for one scan of the test repository; git gc warns at thousands). A
 * trial runs on a repository handle of its own whose object store has an
 * in-memory layer above the files (libgit2's mempack, the highest
 * priority, so it takes every write): what a trial writes is read back
 * from memory while it lasts and dropped when it ends.
 *
 * One thread at a time per struct sm_trial (it is its own handle: other
 * threads may read the repository through theirs meanwhile). */
#ifndef SM_TREES_TRIAL_H
#define SM_TREES_TRIAL_H
#include <git2.h>
#include <stddef.h>
#include "lib/strlist.h"

struct sm_trial {
	git_repository *repo;	/* a handle of its own on the repository */
	git_odb_backend *mem;	/* the in-memory layer; repo's object store owns it */
	/* After a trial where all apply: 1 when the last one changed nothing
	 * (sm_pick_changes_nothing: the tree has its change already), else 0. */
	int unchanged;
	/* After a trial where one conflicts: the other names of its
	 * conflicting files the tree moved, which the conflicts list leaves
	 * out (sm_merge_change): mainline's names, whose history a search
	 * for what the tree lacks reads too. */
	struct strlist moved_from;
};

/* Opens a trial handle on the repository of like. 0 or -1 (sm_error). */
int sm_trial_open(struct sm_trial *t, git_repository *like);
/* Lets the trial read other's objects too (its object store as an
 * alternate, as git's objects/info/alternates does, for this handle only):
 * a commit that only other holds, mainline's when the trees are a clone of
 * their own (scan --tree-repo), can then be tried. Nothing when other is
 * the trial's own repository. 0 or -1 (sm_error). */
int sm_trial_borrow(struct sm_trial *t, git_repository *other);
/* Cherry-picks the commits ids[0..n) (full hex ids; each its change
 * against its first parent) one after the other onto the commit onto.
 * Returns SM_PICK_CLEAN (trees/pick.h) when all apply, SM_PICK_CONFLICT
 * when one does not (*failed, when not NULL, says which: its index;
 * its conflicting paths are appended to conflicts when not NULL), -1 when
 * one cannot be tried (not in the repository, a merge, a root commit:
 * sm_error names it). Nothing it wrote stays. */
int sm_trial_apply(struct sm_trial *t, const git_oid *onto, const char *const *ids, size_t n,
		   size_t *failed, struct strlist *conflicts);
/* sm_trial_apply, and when all apply, the last one's change as it landed
 * on the tree: the diff from the tree after ids[0..n-1) to the tree after
 * all of them, its --stat appended to stat and the patch (git's format, as
 * git show prints it) to patch. That is the backport a maintainer would
 * send: the tree's own file names (a file mainline moved is changed under
 * its old name) and line numbers. SM_PICK_* or -1, as sm_trial_apply. */
struct strbuf;
int sm_trial_patch(struct sm_trial *t, const git_oid *onto, const char *const *ids, size_t n,
		   struct strbuf *stat, struct strbuf *patch);
/* sm_trial_apply as a yes/no for a report: 1 all apply, 0 one conflicts,
 * -1 cannot tell (why is dropped: a report says "not checked"). */
int sm_trial_applies(struct sm_trial *t, const git_oid *onto, const char *const *ids, size_t n,
		     struct strlist *conflicts);
void sm_trial_release(struct sm_trial *t);

#endif
