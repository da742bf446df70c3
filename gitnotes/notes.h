/* notes: reviews stored as git notes on the upstream commit, under
 * refs/notes/stable-review by default, in the format README.md ("The review-note format")
 * documents. One note per upstream commit, one block per review (keyed by
 * Message-ID); text in a note that is not a stablemate block is kept as is. */
#ifndef SM_GITNOTES_NOTES_H
#define SM_GITNOTES_NOTES_H
#include <git2.h>
#include "lib/strbuf.h"
#include "lib/strlist.h"

#define SM_NOTES_REF_DEFAULT "refs/notes/stable-review"

/* A notes ref as git notes --ref takes it: refs/notes/NAME as it is,
 * notes/NAME under refs/, anything else under refs/notes/ (so
 * "refs/heads/x" is refs/notes/refs/heads/x, as in git); the caller frees
 * the result. */
char *sm_notes_ref_full(const char *name);

struct sm_review {
	char *message_id;	/* without <> */
	char *author;		/* "Name <email>" */
	char *date;		/* RFC 2822 or ISO 8601, as the mail had it */
	char *tree;		/* "6.1", "" when not tree-specific */
	char *subject;		/* of the reviewed patch mail */
	char *link;		/* https://lore.kernel.org/r/<message-id> */
	struct strlist trailers;	/* "Reviewed-by: Name <email>", "Nacked-by: ..." */
	/* Trailers the sender wrote in someone else's name (the trailer's address
	 * is not the sender's, nor a known alias of it) or from a mail without a
	 * usable From: "Reviewed-by: A <a@x> (sent by m@y)". Never a review. */
	struct strlist unverified;
	char *comment;		/* the reviewer's own words, quotes and signature removed */
	int via_cover;		/* the reply was to the series' cover letter */
	/* A stable queue's notice about the patch and tree, not a review:
	 * SM_NOTICE_FAILED or SM_NOTICE_QUEUED; "" or NULL for a review. */
	char *notice;
};

/* The notices a block may record (its "Notice:" line). */
#define SM_NOTICE_FAILED "failed to apply"	/* "FAILED: patch ... failed to apply to 6.1-stable tree" */
#define SM_NOTICE_QUEUED "queued"		/* "Patch ... has been added to the 6.12-stable tree" */

/* Does the block record a stable queue's notice (not a review)? */
static inline int sm_review_is_notice(const struct sm_review *r)
{
	return r->notice && *r->notice;
}
/* What a notice block says, for a line of text: "failed to apply to 6.1"
 * or "queued for 6.12" ("a tree" when it names none). */
void sm_review_notice_describe(const struct sm_review *r, struct strbuf *out);

void sm_review_release(struct sm_review *r);
/* Does the block count as a review? Not when its only trailers are
 * unverified, nor when the mail had no usable sender (no Author:), nor
 * when it records a notice. */
int sm_review_counts(const struct sm_review *r);
/* r, a review of commit (40 hex), as one JSON object: message_id, commit,
 * tree, author, date, subject, link, via_cover_letter, notice (null for a
 * review), trailers[], unverified[], counts_as_review, comment. */
struct json_writer;
void sm_review_json(const struct sm_review *r, const char *commit, struct json_writer *w);

/* Adds r to the note on commit (creating or merging). *added is 1 when the
 * review was new, 0 when a review with that Message-ID was already there.
 * The ref update is compare-and-swap: if another writer moved the notes
 * ref, the note is re-read and merged, never overwritten. 0 or -1. */
int sm_notes_add_review(git_repository *repo, const char *notes_ref,
			const git_oid *commit, const struct sm_review *r, int *added);
/* What sm_notes_read returns when it did not fail (-1, sm_error). */
enum sm_note_status {
	SM_NOTE_FOUND = 0,	/* the note's text was appended to out */
	SM_NOTE_NONE = 1,	/* commit has no note */
};

/* The note text of commit: SM_NOTE_FOUND, SM_NOTE_NONE, or -1 (sm_error). */
int sm_notes_read(git_repository *repo, const char *notes_ref,
		  const git_oid *commit, struct strbuf *out);
/* The note of commit, parsed into n (released by the caller, also when
 * the commit has none: n is then empty): SM_NOTE_FOUND, SM_NOTE_NONE or -1
 * (sm_error; n empty). */
struct sm_note;
int sm_note_read(git_repository *repo, const char *notes_ref, const git_oid *commit,
		 struct sm_note *n);
/* Parses note text into reviews (caller releases each and frees the array). */
int sm_notes_parse(const char *text, struct sm_review **reviews, size_t *nr);
/* Formats one review block as stored in the note. */
void sm_review_format(const struct sm_review *r, struct strbuf *out);

/* A line "<id> (\"subject\")" of a FAILED notice's list of possible
 * dependencies (7 to 40 hex digits, a space, '('): the id's length, 0 when
 * line[0..len) is none. */
size_t sm_notice_dependency_id(const char *line, size_t len);
/* The commit ids a FAILED notice's block lists as possible dependencies
 * (its comment's "<id> (\"subject\")" lines, as harvest writes them),
 * appended to ids in their order; nothing for other blocks. */
void sm_review_notice_dependencies(const struct sm_review *r, struct strlist *ids);

/* A notice block as one line: "failed to apply to 6.1 (sender, date);
 * possible dependencies: A, B" (at most max_ids of them, then " and N
 * more"; 0: all), "queued for 6.12 (sender, date)". */
void sm_review_notice_line(const struct sm_review *r, size_t max_ids, struct strbuf *out);
/* The same, with what mark appends after each dependency's id (" (in
 * linux-6.1.y already)", or nothing): what the caller knows of it. */
typedef void (*sm_notice_mark_fn)(void *ctx, const char *id, struct strbuf *out);
void sm_review_notice_line_marked(const struct sm_review *r, size_t max_ids, sm_notice_mark_fn mark,
				  void *ctx, struct strbuf *out);

/* Deep copy; NULL fields of src become "" in dst. dst is overwritten. */
void sm_review_copy(struct sm_review *dst, const struct sm_review *src);

/* A whole note: the review blocks, and the text stablemate did not write
 * (a person's `git notes add`, a block it cannot read), kept verbatim. */
struct sm_note {
	struct sm_review *reviews;
	size_t nr, alloc;
	struct strlist other;	/* foreign chunks, verbatim, in note order */
};

#define SM_NOTE_INIT { NULL, 0, 0, STRLIST_INIT }

void sm_note_parse(struct sm_note *n, const char *text);
void sm_note_release(struct sm_note *n);
/* What sm_note_add did. A block with r's Message-ID is kept as stored,
 * but for its Tree: when it had none and r has one (the tree is learnt
 * from the thread, which a later harvest may hold more of). */
enum sm_note_add_result {
	SM_NOTE_PRESENT = 0,	/* the stored block is kept as it is */
	SM_NOTE_ADDED = 1,	/* a new block */
	SM_NOTE_FILLED = 2,	/* the stored block got r's Tree: */
};
int sm_note_add(struct sm_note *n, const struct sm_review *r);
/* Adds every review and foreign chunk of src that dst lacks; returns how
 * many reviews were added. *filled (may be NULL) counts the stored blocks
 * that got a Tree: from src. */
size_t sm_note_merge(struct sm_note *dst, const struct sm_note *src, size_t *filled);
/* The note text: foreign chunks first, then the blocks ordered by date,
 * then Message-ID, separated by blank lines. Same reviews, same text. */
void sm_note_format(const struct sm_note *n, struct strbuf *out);
/* Seconds since the epoch of an RFC 2822 or ISO 8601 date; -1 unreadable. */
long long sm_review_date_epoch(const char *date);

/* Adds nr reviews, reviews[i] to the note on commits[i], in one notes commit
 * and one compare-and-swap update of the ref (retried, re-read and merged
 * if the ref moved). *added counts the new ones. 0 or -1 (sm_error). */
int sm_notes_add_batch(git_repository *repo, const char *notes_ref,
		       const git_oid *commits, const struct sm_review *reviews,
		       size_t nr, size_t *added);

struct sm_notes_merge_stats {
	size_t notes;		/* notes read from the other ref */
	size_t reviews_added;	/* blocks new to ours */
	size_t notes_changed;	/* notes of ours rewritten */
	int up_to_date;		/* theirs was merged before: nothing to do */
};

/* Merges the notes under theirs_ref (e.g. a fetched
 * refs/notes/remotes/greg/stable-review) into ours_ref block by block:
 * the result is the union of reviews. The new notes commit has both refs'
 * commits as parents. 0 or -1 (sm_error). */
int sm_notes_merge_ref(git_repository *repo, const char *ours_ref,
		       const char *theirs_ref, struct sm_notes_merge_stats *st);

/* How many times a write re-reads and merges when the ref moved. */
#define SM_NOTES_MAX_ATTEMPTS 32

/* For tests: hook called after a write has built its notes commit and just
 * before the compare-and-swap of the ref, with the 0-based attempt. A hook
 * that moves the ref exercises the retry path. Non-zero aborts the write.
 * NULL removes it. Not thread-safe; tests only. */
typedef int (*sm_notes_update_hook)(git_repository *repo, const char *notes_ref,
				    unsigned attempt, void *data);
void sm_notes_set_update_hook(sm_notes_update_hook hook, void *data);
/* Attempts the last write of this thread needed (1 = no retry). */
unsigned sm_notes_last_attempts(void);

/* Every note under a notes ref, listed once, for a reader that asks of
 * many commits (scan: thousands of commits, a few of them reviewed): one
 * walk of the notes tree, then a binary search and a blob read for each
 * commit that has a note, where sm_note_read would resolve the ref and
 * walk the tree again each time. A snapshot: writes after the load are
 * not seen. */
struct sm_notes_index {
	struct sm_notes_index_entry {
		git_oid commit;	/* the annotated commit */
		git_oid blob;	/* its note */
	} *entries;		/* sorted by commit */
	size_t nr;
};

#define SM_NOTES_INDEX_INIT { NULL, 0 }

/* Lists the notes of notes_ref (NULL: the default); a ref that does not
 * exist lists none. 0, or -1 (sm_error naming the ref). */
int sm_notes_index_load(struct sm_notes_index *ix, git_repository *repo, const char *notes_ref);
/* The note of commit, parsed into n (released by the caller, also when
 * there is none): SM_NOTE_FOUND, SM_NOTE_NONE, or -1 (sm_error; n empty). */
int sm_notes_index_read(const struct sm_notes_index *ix, git_repository *repo,
			const git_oid *commit, struct sm_note *n);
void sm_notes_index_release(struct sm_notes_index *ix);

/* A trailer that refuses the patch ("Nacked-by:", "NAK", "Nack…"), and
 * one that approves it (Reviewed-by, Acked-by, Tested-by,
 * Reported-and-tested-by). */
int sm_trailer_is_nak(const char *trailer);
int sm_trailer_is_approval(const char *trailer);

#endif
