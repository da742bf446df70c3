/* series: a scanned candidate's posted series, from the notmuch database.
 * The candidate's patch mail is found by its subject; its thread gives the
 * series (same version and count, [PATCH vN k/n]) and the cover
 * letter (with b4's base-commit and prerequisite-patch-id lines); each
 * earlier part is mapped to its upstream commit (mail/map.h) and looked up
 * in each tree. With whole set, an earlier part the candidate needs (the
 * deps blame finds it under the lines the candidate changes) that is in
 * the range and missing from the tree is promoted to a candidate for it.
 * Runs after sm_scan, on its result; no network. */
#ifndef SM_MAIL_SERIES_H
#define SM_MAIL_SERIES_H
#include "trees/scan.h"

struct sm_series_opts {
	const char *db_path;		/* notmuch database */
	const char *upstream_ref;	/* mapping ref; NULL: HEAD */
	int whole;			/* promote the missing parts the candidate needs */
};

struct sm_series_stats {
	size_t looked_up;	/* candidates searched for */
	size_t found;		/* found in a posted series */
	size_t promoted;	/* parts promoted (tree verdicts) */
};

/* Adds "series" reasons to the tree verdicts of r's candidates (and
 * "series-part" ones with whole). 0 or -1 (sm_error: the database or the
 * repository cannot be opened). */
int sm_series_annotate(const struct sm_series_opts *so, const struct sm_scan_opts *o,
		       struct sm_scan_result *r, struct sm_series_stats *st);

#endif
