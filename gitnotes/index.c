/* index: every note of a notes ref listed once (see notes.h). */
#include "gitnotes/notes.h"
#include "gitnotes/txn.h"
#include "lib/git.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

static int by_commit(const void *a, const void *b)
{
	const struct sm_notes_index_entry *x = a, *y = b;

	return git_oid_cmp(&x->commit, &y->commit);
}

int sm_notes_index_load(struct sm_notes_index *ix, git_repository *repo, const char *notes_ref)
{
	git_note_iterator *it = NULL;
	git_reference *ref = NULL;
	git_object *tip = NULL;
	git_oid blob, commit;
	size_t alloc = 0;
	int err;

	memset(ix, 0, sizeof(*ix));
	if (!notes_ref)
		notes_ref = SM_NOTES_REF_DEFAULT;
	err = git_reference_lookup(&ref, repo, notes_ref);
	if (err == GIT_ENOTFOUND)
		return 0;	/* no notes yet: nothing to say */
	if (err < 0)
		return sm_error("%s: %s", notes_ref, sm_git_error());
	/* Peeled here: libgit2 1.5's git_note_iterator_new frees an
	 * uninitialised tree when the ref names no commit (valgrind). */
	if (git_reference_peel(&tip, ref, GIT_OBJECT_COMMIT) < 0) {
		git_reference_free(ref);
		return sm_error("%s: not a notes commit: %s", notes_ref, sm_git_error());
	}
	git_reference_free(ref);
	err = git_note_commit_iterator_new(&it, (git_commit *)tip);
	git_object_free(tip);
	if (err < 0)
		return sm_error("%s: listing the notes: %s", notes_ref, sm_git_error());
	while ((err = git_note_next(&blob, &commit, it)) == 0) {
		ALLOC_GROW(ix->entries, ix->nr + 1, alloc);
		ix->entries[ix->nr].commit = commit;
		ix->entries[ix->nr].blob = blob;
		ix->nr++;
	}
	git_note_iterator_free(it);
	if (err != GIT_ITEROVER) {
		sm_notes_index_release(ix);
		return sm_error("%s: listing the notes: %s", notes_ref, sm_git_error());
	}
	qsort(ix->entries, ix->nr, sizeof(*ix->entries), by_commit);
	return 0;
}

int sm_notes_index_read(const struct sm_notes_index *ix, git_repository *repo,
			const git_oid *commit, struct sm_note *n)
{
	struct sm_notes_index_entry key, *e;
	struct strbuf text = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];

	sm_note_parse(n, "");
	if (!ix->nr)
		return SM_NOTE_NONE;
	key.commit = *commit;
	e = bsearch(&key, ix->entries, ix->nr, sizeof(*ix->entries), by_commit);
	if (!e)
		return SM_NOTE_NONE;
	if (sm_notes_blob_text(repo, &e->blob, &text) < 0) {
		git_oid_tostr(hex, sizeof(hex), commit);
		return sm_error("reading the note of %s: %s", hex, sm_git_error());
	}
	sm_note_release(n);
	sm_note_parse(n, text.buf);
	strbuf_release(&text);
	return SM_NOTE_FOUND;
}

void sm_notes_index_release(struct sm_notes_index *ix)
{
	free(ix->entries);
	memset(ix, 0, sizeof(*ix));
}
