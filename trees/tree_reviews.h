/* tree_reviews: what the review notes (gitnotes/notes.h) say of one
 * commit for one stable tree. A review of a tree's -rc ("[PATCH 6.1
 * 012/100]") carries the tree's version in its Tree:, and a NAK there asks
 * that tree not to take the patch; the stable queue's notices say whether
 * the queue took the patch for a version or could not apply it. A NAK of
 * the patch mail upstream (no Tree:) is left out: mainline took the commit
 * anyway, and the reviews show it. */
#ifndef SM_TREES_TREE_REVIEWS_H
#define SM_TREES_TREE_REVIEWS_H
#include "gitnotes/notes.h"
#include "rules/version.h"
#include "lib/strbuf.h"

/* Does a block's Tree: ("6.1"; AUTOSEL's range "6.18-7.0", oldest first)
 * cover the tree of version v? "" covers none. */
int sm_review_tree_covers(const char *tree, const struct sm_version *v);

struct sm_tree_reviews {
	/* The NAK that stands for the tree: the latest block for it with a
	 * NAK trailer whose sender gave no approval (Reviewed-by, Acked-by,
	 * Tested-by) for it in a later block. NULL: none. */
	const struct sm_review *nak;
	/* The stable queue's latest notice for the tree, or NULL. */
	const struct sm_review *notice;
};

/* Points out's fields into n (which must outlive them). Blocks are taken
 * in date order (as stablemate writes them; a note edited by hand may
 * not be), undated ones where the note has them. */
void sm_tree_reviews_find(const struct sm_note *n, const struct sm_version *v,
			  struct sm_tree_reviews *out);
/* "Nacked-by: A <a@x> (Tue, 2 Jan 2024 ...): the first line of the
 * comment", cut at 100 bytes of comment. */
void sm_tree_reviews_nak_text(const struct sm_review *nak, struct strbuf *out);

#endif
