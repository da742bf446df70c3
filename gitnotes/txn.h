/* txn.h: one compare-and-swap write of a notes ref (gitnotes/ internal).
 * sm_notes_txn_run() calls apply() once per attempt on a fresh read of the
 * ref; apply reads notes with sm_notes_txn_read() and writes them with
 * sm_notes_txn_write() (kept in memory). At the end one notes commit is
 * built on the commit read (its tree through an in-memory index) and the
 * ref moves to it if it still points where it was read; otherwise
 * everything is redone. */
#ifndef SM_GITNOTES_TXN_H
#define SM_GITNOTES_TXN_H
#include "gitnotes/format.h"
#include "lib/git.h"

struct sm_notes_txn {
	git_repository *repo;
	const char *ref;
	git_commit *base;	/* the ref's commit when read; NULL: no ref yet */
	git_oid base_oid;
	git_commit *tip;	/* the commit to move the ref to, once built */
	git_signature *sig;
	int changed;
	struct sm_notes_pending {
		git_oid commit;
		char *text;
	} *pending;		/* notes written in this attempt */
	size_t nr_pending, alloc_pending;
	/* Set by apply: record this commit as a second parent (a merge). */
	const git_commit *merge_parent;
};

int sm_notes_txn_run(git_repository *repo, const char *notes_ref,
		     int (*apply)(struct sm_notes_txn *t, void *data), void *data,
		     const char *log_message);
/* SM_NOTE_FOUND (text appended to out), SM_NOTE_NONE, or -1 (sm_error). */
int sm_notes_txn_read(struct sm_notes_txn *t, const git_oid *commit, struct strbuf *out);
int sm_notes_txn_write(struct sm_notes_txn *t, const git_oid *commit, const char *text);
void sm_notes_txn_release(struct sm_notes_txn *t);
/* The whole text of a note's blob appended to out (git_note_message()
 * stops at a NUL byte). 0, or -1 (libgit2's error only). */
int sm_notes_blob_text(git_repository *repo, const git_oid *blob_id, struct strbuf *out);

#endif
