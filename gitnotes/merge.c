/* merge: another maintainer's notes ref into ours, block by block. */
#include "gitnotes/txn.h"
#include "lib/util.h"
#include <string.h>

struct merge {
	git_commit *theirs;
	const char *theirs_ref;
	struct sm_notes_merge_stats st;
};

static const char *theirs_name(const struct merge *m)
{
	return m->theirs_ref;
}

static int apply_merge(struct sm_notes_txn *t, void *data)
{
	struct merge *m = data;
	struct strbuf ours = STRBUF_INIT, out = STRBUF_INIT;
	git_note_iterator *it = NULL;
	git_oid blob_id, annotated;
	int rc = 0, err;

	memset(&m->st, 0, sizeof(m->st));
	if (!t->base) {
		/* Nothing of ours yet: take theirs as it is. */
		if (git_commit_dup(&t->tip, m->theirs) < 0)
			return sm_error("%s: %s", t->ref, sm_git_error());
		t->changed = 1;
		err = git_note_commit_iterator_new(&it, m->theirs);
		while (!err && !git_note_next(&blob_id, &annotated, it)) {
			git_blob *blob = NULL;

			m->st.notes++;
			/* every review of theirs is new to us: count them */
			if (git_blob_lookup(&blob, t->repo, &blob_id) == 0) {
				struct strbuf text = STRBUF_INIT;
				struct sm_note n;

				/* blob content is not NUL-terminated */
				strbuf_add(&text, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
				sm_note_parse(&n, text.buf);
				m->st.reviews_added += n.nr;
				sm_note_release(&n);
				strbuf_release(&text);
				git_blob_free(blob);
			}
		}
		git_note_iterator_free(it);
		m->st.notes_changed = m->st.notes;
		return 0;
	}
	if (git_oid_equal(&t->base_oid, git_commit_id(m->theirs)) ||
	    git_graph_descendant_of(t->repo, &t->base_oid, git_commit_id(m->theirs)) == 1) {
		m->st.up_to_date = 1;	/* merged before: theirs is in our history */
		return 0;
	}
	if (git_note_commit_iterator_new(&it, m->theirs) < 0)
		return sm_error("reading the notes of the other ref: %s", sm_git_error());
	while ((err = git_note_next(&blob_id, &annotated, it)) == 0) {
		git_blob *blob = NULL;
		struct sm_note mine, theirs;
		char hex[GIT_OID_HEXSZ + 1];
		size_t added;

		m->st.notes++;
		git_oid_tostr(hex, sizeof(hex), &annotated);
		if (git_blob_lookup(&blob, t->repo, &blob_id) < 0) {
			rc = sm_error("the note of %s in the other ref: %s", hex, sm_git_error());
			break;
		}
		strbuf_reset(&ours);
		if (sm_notes_txn_read(t, &annotated, &ours) < 0) {
			git_blob_free(blob);
			rc = -1;
			break;
		}
		{
			struct strbuf their_text = STRBUF_INIT;

			strbuf_add(&their_text, git_blob_rawcontent(blob),
				   (size_t)git_blob_rawsize(blob));
			git_blob_free(blob);
			if (memchr(their_text.buf, '\0', their_text.len)) {
				strbuf_release(&their_text);
				rc = sm_error("%s: the note of %s holds binary data (a NUL byte); "
					      "not merging it", theirs_name(m), hex);
				break;
			}
			sm_note_parse(&theirs, their_text.buf);
			strbuf_release(&their_text);
		}
		sm_note_parse(&mine, ours.buf);
		{
			size_t other_before = mine.other.nr, filled;

			added = sm_note_merge(&mine, &theirs, &filled);
			if (added || filled || mine.other.nr != other_before) {
				strbuf_reset(&out);
				sm_note_format(&mine, &out);
				if (strcmp(out.buf, ours.buf)) {
					if (sm_notes_txn_write(t, &annotated, out.buf))
						rc = -1;
					m->st.notes_changed++;
				}
			}
		}
		m->st.reviews_added += added;
		sm_note_release(&mine);
		sm_note_release(&theirs);
		if (rc)
			break;
	}
	git_note_iterator_free(it);
	strbuf_release(&ours);
	strbuf_release(&out);
	if (!rc && err < 0 && err != GIT_ITEROVER)
		rc = sm_error("reading the notes of the other ref: %s", sm_git_error());
	if (!rc)
		t->merge_parent = m->theirs;
	return rc;
}

int sm_notes_merge_ref(git_repository *repo, const char *ours_ref,
		       const char *theirs_ref, struct sm_notes_merge_stats *st)
{
	struct merge m;
	git_reference *ref = NULL;
	git_object *obj = NULL;
	char *msg;
	int rc;

	memset(&m, 0, sizeof(m));
	if (!ours_ref)
		ours_ref = SM_NOTES_REF_DEFAULT;
	if (git_reference_lookup(&ref, repo, theirs_ref) < 0)
		return sm_error("%s: %s", theirs_ref, sm_git_error());
	rc = git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT);
	git_reference_free(ref);
	if (rc < 0)
		return sm_error("%s: not a notes commit: %s", theirs_ref, sm_git_error());
	m.theirs = (git_commit *)obj;
	m.theirs_ref = theirs_ref;
	msg = xasprintf("stablemate: merged notes from %s", theirs_ref);
	rc = sm_notes_txn_run(repo, ours_ref, apply_merge, &m, msg);
	free(msg);
	git_commit_free(m.theirs);
	if (st)
		*st = m.st;
	return rc;
}
