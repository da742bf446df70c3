/* recomment: a C line removed and added again with only its comment
 * changed (a typo fixed in the comment after "x = 1;", or a device-ID
 * entry whose trailing comment names one more model) changes a comment,
 * not code. Within one change block of a hunk (the removed lines and the
 * added lines between two context lines) an added line whose code, with
 * comments and white space left out, is that of a removed line not paired
 * yet, while the whole lines differ, is paired with it. Lines that are the
 * same whole are a move, and stay code. */
#ifndef SM_RULES_RECOMMENT_H
#define SM_RULES_RECOMMENT_H
#include <stddef.h>

#define SM_RECOMMENT_MAX 64	/* removed lines a block remembers */

struct sm_recomment_line {
	const char *s;		/* the removed line (the caller's text) */
	size_t len;
	unsigned long long whole;	/* the caller's hash of it, white space out */
	unsigned long long code;	/* its code's, once hashed */
	unsigned char comment, hashed, paired;
};

struct sm_recomment {
	unsigned nr;
	int any_comment;	/* a removed line of the block has a comment */
	struct sm_recomment_line removed[SM_RECOMMENT_MAX];
};

/* A new change block begins (a context line, a hunk or a file). */
static inline void sm_recomment_reset(struct sm_recomment *rc)
{
	rc->nr = 0;
	rc->any_comment = 0;
}

/* A removed code line of the block (after its '-') and whole, its FNV-1a
 * hash with white space left out (diffstat's squeeze_hash, which the
 * caller has worked out already); s stays the caller's and must stay valid
 * until the block ends: its code is hashed only when an added line may
 * pair with it. */
void sm_recomment_removed(struct sm_recomment *rc, const char *s, size_t len,
			  unsigned long long whole);

/* An added code line (after its '+') and its whole hash, as above: 1 when
 * it pairs with a removed one, which then changed its comment only. Lines
 * with no comment on either side cannot, and their code is not hashed. */
int sm_recomment_added(struct sm_recomment *rc, const char *s, size_t len,
		       unsigned long long whole);

#endif
