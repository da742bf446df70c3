/* libFuzzer target: a review note's text, as anyone who can push to a
 * shared notes ref may write it, through the parser and back. Besides not
 * crashing, the canonical text must be a fixed point: parsing what
 * sm_note_format wrote and formatting it again gives the same bytes, and
 * from then on the same blocks (so a rerun never rewrites, duplicates or
 * loses one). The first round may merge foreign chunks or drop a second
 * block of one Message-ID: that is the canonical form's job. What the
 * blocks say for a tree (trees/tree_reviews.h: the NAK that stands, the
 * stable queue's latest notice), as scan reads them, must not change
 * between the two rounds either. */
#include "fuzz/fuzz.h"
#include "gitnotes/notes.h"
#include "trees/tree_reviews.h"
#include "lib/util.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	return 0;
}

/* The Message-ID of what b and c say for version v must be the same. */
static void same_word(const struct sm_note *b, const struct sm_note *c, const struct sm_version *v)
{
	struct sm_tree_reviews x, y;
	struct strbuf sx = STRBUF_INIT, sy = STRBUF_INIT;

	sm_tree_reviews_find(b, v, &x);
	sm_tree_reviews_find(c, v, &y);
	if (!x.nak != !y.nak || !x.notice != !y.notice ||
	    (x.nak && strcmp(x.nak->message_id, y.nak->message_id)) ||
	    (x.notice && strcmp(x.notice->message_id, y.notice->message_id)))
		abort();
	if (x.nak) {
		sm_tree_reviews_nak_text(x.nak, &sx);
		sm_tree_reviews_nak_text(y.nak, &sy);
	}
	if (x.notice) {
		sm_review_notice_line(x.notice, 0, &sx);
		sm_review_notice_line(y.notice, 0, &sy);
	}
	if (strcmp(sx.buf, sy.buf))
		abort();
	strbuf_release(&sx);
	strbuf_release(&sy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct sm_version versions[] = { { 4, 1, -1 }, { 6, 1, -1 }, { 6, 6, -1 } };
	/* a note is text: git shows a blob with a NUL as binary, and
	 * stablemate refuses to rewrite one (gitnotes/txn.h) */
	char *text = xstrndup((const char *)data, size);
	struct sm_note a, b, c;
	struct strbuf once = STRBUF_INIT, twice = STRBUF_INIT;

	sm_note_parse(&a, text);
	sm_note_format(&a, &once);
	sm_note_parse(&b, once.buf);
	sm_note_format(&b, &twice);
	sm_note_parse(&c, twice.buf);
	if (strcmp(once.buf, twice.buf) || b.nr != c.nr || b.other.nr != c.other.nr)
		abort();
	for (size_t i = 0; i < b.nr; i++)
		if (strcmp(b.reviews[i].message_id, c.reviews[i].message_id) ||
		    strcmp(b.reviews[i].notice, c.reviews[i].notice) ||
		    sm_review_counts(&b.reviews[i]) != sm_review_counts(&c.reviews[i]))
			abort();
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++)
		same_word(&b, &c, &versions[i]);
	sm_note_release(&a);
	sm_note_release(&b);
	sm_note_release(&c);
	strbuf_release(&once);
	strbuf_release(&twice);
	free(text);
	return 0;
}
