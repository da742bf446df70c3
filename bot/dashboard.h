/* dashboard: a static site of the bot's view (no server, no script needed):
 * per tree the candidates of a scan with verdict, score and reasons, the
 * reviews from the notes, the mail state (queued/sent/refused) and the last
 * boot result, and a page per candidate with links to the upstream commit
 * and the list threads.
 *
 * Layout written under out_dir (each file atomically):
 *   index.html            the trees, with counts and the boot verdict
 *   tree-SLUG.html        one tree's candidates and maybes
 *   c/ID.html             one candidate: per-tree verdicts, reviews, message
 *   style.css, filter.js  (the script only adds a filter box to the tables)
 * A boot result is read from STATE/boot/SLUG.json when present (its
 * "verdict", "summary" and "bisected" string members). */
#ifndef SM_BOT_DASHBOARD_H
#define SM_BOT_DASHBOARD_H
#include <time.h>
#include "bot/config.h"
#include "trees/scan.h"

struct sm_dashboard_opts {
	const struct sm_bot_config *cfg;
	const struct sm_scan_result *scan;	/* of cfg's trees, in cfg's order */
	const char *range;			/* what was scanned, for the header */
	const char *out_dir;
	const char *commit_url;		/* "%s" replaced by the id; NULL: git.kernel.org */
	const char *thread_url;		/* "%s" replaced by the Message-ID; NULL: lore */
	time_t now;			/* 0: time(NULL) */
};

struct sm_dashboard_stats {
	unsigned trees;
	unsigned listed;	/* (candidate or maybe, tree) rows */
	unsigned pages;		/* candidate pages */
	unsigned reviews;	/* blocks shown that count as a review (sm_review_counts) */
};

/* Writes the site. 0 or -1 (sm_error names the file or repository). */
int sm_dashboard_write(const struct sm_dashboard_opts *o, struct sm_dashboard_stats *st);

#endif
