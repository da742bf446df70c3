/* series_fits: classify --check-applies' answers for the numbered patch
 * mails of a list, each series of a mail thread (mail/thread_series.h)
 * tried in patch order onto a tree (sm_repo_judge_series), whatever order
 * its mails came in, and kept until each mail is judged in its turn. */
#ifndef SM_MAIL_SERIES_FITS_H
#define SM_MAIL_SERIES_FITS_H
#include <stddef.h>
#include "mail/thread_series.h"
#include "trees/repo_judge.h"

struct sm_series_fits {
	struct sm_thread_parts parts;
	struct sm_series_fit {
		size_t seq;			/* the caller's number of the mail */
		char *text;			/* decoded; until tried */
		size_t len;
		enum sm_patch_fit fit;
		struct sm_patch_fit_info info;
		int taken;
	} *v;					/* in seq order */
	size_t nr, alloc;
};

#define SM_SERIES_FITS_INIT { SM_THREAD_PARTS_INIT, NULL, 0, 0 }

/* Keeps the mail text[0..len), the caller's number seq (higher than the
 * last one's), when it is a numbered patch of a series; decoded as
 * --check-applies reads a mail (mail/plain.h). name: for gmime's errors,
 * which only leave the mail out (it is then tried alone). */
void sm_series_fits_add(struct sm_series_fits *s, const char *text, size_t len, size_t seq,
			const char *name);
/* Tries every series kept, in patch order, onto j's tree. */
void sm_series_fits_try(struct sm_series_fits *s, struct sm_repo_judge *j);
/* 1 and the fit found for mail seq (its info moved into *info, for the
 * caller to sm_patch_fit_info_release), once; 0 for a mail of no series. */
int sm_series_fits_take(struct sm_series_fits *s, size_t seq, enum sm_patch_fit *fit,
			struct sm_patch_fit_info *info);
void sm_series_fits_release(struct sm_series_fits *s);

#endif
