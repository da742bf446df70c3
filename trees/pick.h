/* pick: cherry-picking in memory (libgit2 merges into an in-memory index;
 * the work tree, the index file and HEAD are never touched), and the
 * stable-style commit message. */
#ifndef SM_TREES_PICK_H
#define SM_TREES_PICK_H
#include <git2.h>
#include "lib/strlist.h"

/* What sm_pick_tree returns when it did not fail (and sm_yank, sm_insert
 * in trees/rewrite.h); a failure is -1 (sm_error). */
enum sm_pick_status {
	SM_PICK_CLEAN = 0,	/* the change applied */
	SM_PICK_CONFLICT = 1,	/* it did not; nothing was written */
};

/* Merges the change from base to theirs onto the tree onto, in memory,
 * finding renames, as git merges a cherry-pick or `git am -3` a patch on
 * its base. SM_PICK_CLEAN with the merged tree in *merged (written to
 * repo's object store, as the merged files: see trees/trial.h for a store
 * that forgets), SM_PICK_CONFLICT (conflicting paths appended to
 * conflicts when not NULL, each once), or -1 (libgit2's error, for the
 * caller to name). When onto has every file the change edits at its path,
 * only those files are merged (trees/part_tree.h: a kernel tree's other
 * 80,000 are not read); else the whole trees, so that libgit2 finds a
 * file onto moved. Such a file that conflicts is listed once, under
 * onto's name; its other name (base's and theirs') is appended to
 * moved_from when not NULL, for a caller that reads history under both. */
int sm_merge_change(git_repository *repo, git_tree *base, git_tree *onto, git_tree *theirs,
		    git_oid *merged, struct strlist *conflicts, struct strlist *moved_from);
/* Merges pick's change (against its first parent) onto the tree onto, in
 * memory, as git cherry-pick does: sm_merge_change's answers, or -1
 * (sm_error, naming the commit: a merge or root commit, an unreadable
 * object). */
int sm_pick_merge(git_repository *repo, git_commit *pick, git_tree *onto, git_oid *merged,
		  struct strlist *conflicts, struct strlist *moved_from);
/* After a clean sm_pick_merge of pick onto onto into merged: 1 when the
 * pick changed nothing there, every file it changes being the same in
 * merged as in onto (the tree has the change already: a commit of its
 * own made it, or a backport under another subject and patch-id), else
 * 0, and 0 when unsure (a file of the pick that onto lacks at that path,
 * one mainline moved, or a pick that changes no file). */
int sm_pick_changes_nothing(git_repository *repo, git_commit *pick, git_tree *onto,
			    git_tree *merged);
/* Applies pick's change (against its first parent) onto onto. Returns
 * SM_PICK_CLEAN and sets *tree when clean, SM_PICK_CONFLICT on a conflict
 * (conflicting paths appended to conflicts when not NULL), -1 on error
 * (sm_error). */
int sm_pick_tree(git_repository *repo, git_commit *pick, git_commit *onto, git_oid *tree,
		 struct strlist *conflicts);
/* The message of a stable backport: subject, blank line, "commit <upstream>
 * upstream.", blank line, the rest of msg, and "Signed-off-by: <signoff>"
 * unless msg already ends with it (signoff NULL: none). A msg that names
 * its upstream original as a stable tree does (a backport taken from
 * another stable branch) keeps that line and gets no second one.
 * Caller frees. */
char *sm_stable_message(const char *msg, const char *upstream, const char *signoff);
/* "Name <email>" into a signature stamped now; -1 (sm_error) when s is
 * not of that form. Free with git_signature_free. */
int sm_ident_parse(git_signature **out, const char *s);
/* The committer identity: ident when not NULL, else the repository's
 * user.name/user.email. Returns 0 or -1 (sm_error). */
int sm_committer(git_signature **out, git_repository *repo, const char *ident);
/* Writes a commit of tree with one parent, and no ref update, that carries
 * from's change: from's author, msg (NULL: from's message) and committer
 * (NULL: from's). Written in UTF-8 with no "encoding" header, as git
 * cherry-pick writes: a commit in another charset has its message and names
 * converted (sm_commit_utf8), so msg must be UTF-8. Returns 0 or -1. */
int sm_commit_write(git_repository *repo, const git_commit *from,
		    const git_signature *committer, const char *msg, const git_oid *tree,
		    const git_oid *parent, git_oid *out);

#endif
