/* notes: reviews stored as git notes on the upstream commit, under
 * refs/notes/stable-review by default, in the format README.md documents.
 * One note per upstream commit, one block per review (keyed by Message-ID). */
#ifndef SM_GITNOTES_NOTES_H
#define SM_GITNOTES_NOTES_H
#include <git2.h>
#include "lib/strbuf.h"
#include "lib/strlist.h"

#define SM_NOTES_REF_DEFAULT "refs/notes/stable-review"

struct sm_review {
	char *message_id;	/* without <> */
	char *author;		/* "Name <email>" */
	char *date;		/* RFC 2822 or ISO 8601, as the mail had it */
	char *tree;		/* "6.1", "" when not tree-specific */
	char *subject;		/* of the reviewed patch mail */
	char *link;		/* https://lore.kernel.org/r/<message-id> */
	struct strlist trailers;	/* "Reviewed-by: Name <email>", "Nacked-by: ..." */
	char *comment;		/* the reviewer's own words, quotes and signature removed */
	int via_cover;		/* the reply was to the series' cover letter */
};

void sm_review_release(struct sm_review *r);

/* Adds r to the note on commit (creating or merging). *added is 1 when the
 * review was new, 0 when a review with that Message-ID was already there.
 * The ref update is compare-and-swap: if another writer moved the notes
 * ref, the note is re-read and merged, never overwritten. 0 or -1. */
int sm_notes_add_review(git_repository *repo, const char *notes_ref,
			const git_oid *commit, const struct sm_review *r, int *added);
/* The note text of commit: 0 found, 1 no note, -1 error (sm_error). */
int sm_notes_read(git_repository *repo, const char *notes_ref,
		  const git_oid *commit, struct strbuf *out);
/* Parses note text into reviews (caller releases each and frees the array). */
int sm_notes_parse(const char *text, struct sm_review **reviews, size_t *nr);
/* Formats one review block as stored in the note. */
void sm_review_format(const struct sm_review *r, struct strbuf *out);

#endif
