/* add: reviews into notes, merged with what is there, in one
 * compare-and-swap write per call. */
#include "gitnotes/txn.h"
#include "lib/util.h"
#include <string.h>

struct batch {
	const git_oid *commits;
	const struct sm_review *reviews;
	size_t nr;
	size_t *order;		/* indices sorted by commit, then input order */
	size_t added;
};

static int cmp_order(const void *a, const void *b, void *data)
{
	const git_oid *commits = data;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = git_oid_cmp(&commits[x], &commits[y]);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

static int apply_batch(struct sm_notes_txn *t, void *data)
{
	struct batch *b = data;
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	size_t i = 0;
	int rc = 0;

	b->added = 0;
	while (i < b->nr) {
		const git_oid *commit = &b->commits[b->order[i]];
		struct sm_note note;
		size_t added = 0;
		int changed = 0;

		strbuf_reset(&text);
		if (sm_notes_txn_read(t, commit, &text) < 0) {
			rc = -1;
			break;
		}
		sm_note_parse(&note, text.buf);
		for (; i < b->nr && git_oid_equal(&b->commits[b->order[i]], commit); i++) {
			int r = sm_note_add(&note, &b->reviews[b->order[i]]);

			added += r == SM_NOTE_ADDED;
			changed |= r != SM_NOTE_PRESENT;
		}
		if (changed) {
			strbuf_reset(&out);
			sm_note_format(&note, &out);
			if (strcmp(out.buf, text.buf) && sm_notes_txn_write(t, commit, out.buf))
				rc = -1;
		}
		sm_note_release(&note);
		if (rc)
			break;
		b->added += added;
	}
	strbuf_release(&text);
	strbuf_release(&out);
	return rc;
}

int sm_notes_add_batch(git_repository *repo, const char *notes_ref,
		       const git_oid *commits, const struct sm_review *reviews,
		       size_t nr, size_t *added)
{
	struct batch b = { commits, reviews, nr, NULL, 0 };
	int rc;

	*added = 0;
	for (size_t i = 0; i < nr; i++) {
		struct strbuf mid = STRBUF_INIT;
		int empty;

		sm_review_message_id(reviews[i].message_id, &mid);
		empty = !mid.len || strchr(mid.buf, ' ') || strchr(mid.buf, '<') ||
			strchr(mid.buf, '>');
		strbuf_release(&mid);
		if (empty) {
			char hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), &commits[i]);
			return sm_error("review of %s: no valid Message-ID ('%s')", hex,
					reviews[i].message_id ? reviews[i].message_id : "");
		}
	}
	if (!nr)
		return 0;
	b.order = xmalloc(nr * sizeof(*b.order));
	for (size_t i = 0; i < nr; i++)
		b.order[i] = i;
	qsort_r(b.order, nr, sizeof(*b.order), cmp_order, (void *)commits);
	rc = sm_notes_txn_run(repo, notes_ref, apply_batch, &b, "stablemate: add reviews");
	free(b.order);
	if (!rc)
		*added = b.added;
	return rc;
}

int sm_notes_add_review(git_repository *repo, const char *notes_ref,
			const git_oid *commit, const struct sm_review *r, int *added)
{
	size_t n = 0;
	int rc = sm_notes_add_batch(repo, notes_ref, commit, r, 1, &n);

	*added = (int)n;
	return rc;
}
