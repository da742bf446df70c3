/* report: per subscriber, one mail per run listing the new candidates for
 * their trees (the cover), with each candidate patch as a reply in the
 * thread, "[PATCH 6.1 03/12] subject", whose body starts with the
 * "commit <sha> upstream." line the harvest maps replies by.
 *
 * Composing writes into the state's queue; sending empties it, first
 * settling any mail a crash left in sending/ (bot/recover.h). A candidate
 * is new for a subscriber and tree when the state does not know the key
 * "<subscriber> <upstream id> <tree>". */
#ifndef SM_BOT_REPORT_H
#define SM_BOT_REPORT_H
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include "bot/boot_stage.h"
#include "bot/config.h"
#include "bot/state.h"
#include "trees/scan.h"

struct sm_report_opts {
	const struct sm_bot_config *cfg;
	const struct sm_scan_result *scan;	/* of cfg's trees, in cfg's order */
	const char *range;			/* the scanned range, for the text */
	int dry_run;				/* write the mails out, queue nothing */
	const char *maildir;			/* dry run: deliver here (created) ... */
	FILE *out;				/* ... or, when NULL, as an mbox to out */
	time_t now;				/* 0: time(NULL) */
	const struct sm_bot_boot_results *boot;	/* [boot] results, or NULL */
};

struct sm_report_stats {
	unsigned subscribers;	/* subscribers with a report this run */
	unsigned picks;		/* new (subscriber, candidate, tree) triples */
	unsigned composed;	/* mails composed (cover + patches + withdrawals) */
	unsigned withdrawn;	/* replies withdrawing a candidate mailed before */
	unsigned sent, refused, deferred, left;
	int server_down;	/* the connection failed or dropped */
	unsigned in_doubt_sent;	/* left in sending/ by a crash, found in the archive */
	unsigned in_doubt_resent;	/* left in sending/ by a crash, sent again */
};

/* Composes every subscriber's report into the queue (or the dry-run
 * output). 0 or -1 (sm_error). */
int sm_report_compose(const struct sm_report_opts *o, struct sm_bot_state *st,
		      struct sm_report_stats *stats);
/* Sends the queue in order, moving each mail to sent/ or (refused for
 * good) to failed/, then folds sent/ into sent.log. A dead server stops
 * the sending and leaves the rest queued. Stops between two mails when
 * *stop becomes non-zero. Returns 0 when the queue is empty afterwards,
 * -1 otherwise (sm_error says why). */
int sm_report_send(const struct sm_bot_config *cfg, struct sm_bot_state *st,
		   volatile sig_atomic_t *stop, struct sm_report_stats *stats);

/* The subject line of patch i (1-based) of n for a tree version. */
void sm_report_patch_subject(struct strbuf *out, const char *version, unsigned i,
			     unsigned n, const char *subject);

#endif
