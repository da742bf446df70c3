/* libFuzzer target: a review note's text, as anyone who can push to a
 * shared notes ref may write it, through the parser and back. Besides not
 * crashing, the canonical text must be a fixed point: parsing what
 * sm_note_format wrote and formatting it again gives the same bytes, and
 * from then on the same blocks (so a rerun never rewrites, duplicates or
 * loses one). The first round may merge foreign chunks or drop a second
 * block of one Message-ID: that is the canonical form's job. */
#include "fuzz/fuzz.h"
#include "gitnotes/notes.h"
#include "lib/util.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
	sm_note_release(&a);
	sm_note_release(&b);
	sm_note_release(&c);
	strbuf_release(&once);
	strbuf_release(&twice);
	free(text);
	return 0;
}
