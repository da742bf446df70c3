/* patch_subject: recognising patch mails by their subject line.
 *   [PATCH 4.4 012/100] x   [PATCH v3 2/7] x   [PATCH AUTOSEL 5.10 03/20] x
 *   [PATCH 6.1.y] x   [PATCH 00/27 5.10.y] x   [RFC PATCH net-next 0/3] x
 *   [PATCH RESEND] x   [PATCH 1 of 3] x   Re: [PATCH ...] x (a reply)
 *   [Patch]: x (a colon after the tags, as some mailers write)
 * and the stable scripts' notices about one patch and one tree:
 *   FAILED: patch "[PATCH] x" failed to apply to 6.1-stable tree
 *   Patch "x" has been added to the 6.12-stable tree */
#ifndef SM_RULES_PATCH_SUBJECT_H
#define SM_RULES_PATCH_SUBJECT_H
#include <stddef.h>

/* is_notice: the stable scripts' FAILED notice, their "has been added" one */
enum { SM_SUBJECT_FAILED = 1, SM_SUBJECT_QUEUED = 2 };

struct sm_patch_subject {
	int is_patch;		/* a [PATCH ...] tag was found */
	int is_reply;		/* "Re:" (or "Aw:", "Fwd:") in front */
	int is_cover;		/* number 0 of N */
	int is_pull;		/* a pull request's tag: [GIT PULL], [PULL REQUEST] */
	int is_notice;		/* a stable notice (SM_SUBJECT_FAILED or
				 * SM_SUBJECT_QUEUED): title is the patch's, tree
				 * the notice's; the notice carries the patch
				 * pasted whole, not as a [PATCH] mail (is_patch 0) */
	int rfc, resend, autosel;
	unsigned version;	/* v3 -> 3; 1 when not given */
	unsigned nr, total;	/* 2/7 -> 2, 7; 0, 0 when not numbered */
	char tree[16];		/* "4.4", "6.1" (from "6.1.y"), "6.18-7.0" (AUTOSEL's
				 * "7.0-6.18", for the trees of that range),
				 * "" when none */
	char title[512];	/* the subject after the tags, truncated */
	size_t title_at;	/* where the title starts in the subject, whole
				 * (a notice's: where the notice starts) */
};

/* Fills ps from subject; returns ps->is_patch. */
int sm_patch_subject_parse(const char *subject, struct sm_patch_subject *ps);

#endif
