/* cycle: one whole bot run (scan, harvest, boot, report) and the daemon
 * loop around it. */
#ifndef SM_BOT_CYCLE_H
#define SM_BOT_CYCLE_H
#include <signal.h>
#include <stdio.h>
#include "bot/report.h"
#include "mail/harvest.h"

/* Set by the CLI's SIGTERM/SIGINT handler: the cycle finishes the step it
 * is in (a mail being sent is finished), saves the state and returns. */
extern volatile sig_atomic_t sm_bot_stop;

struct sm_cycle_opts {
	const char *config;		/* config file path */
	const char *range;		/* NULL: upstream.range of the config */
	int harvest;			/* run the harvest step (when notmuch.database is set) */
	int dry_run;			/* see sm_report_opts */
	const char *maildir;
	FILE *out;
};

struct sm_cycle_stats {
	size_t scanned;			/* upstream commits in the range */
	double scan_seconds, harvest_seconds, compose_seconds, send_seconds;
	int harvested;			/* the harvest step ran */
	struct sm_harvest_stats harvest;
	struct sm_report_stats report;
	unsigned boot_trees;		/* [boot] trees with a result this cycle */
	unsigned booted, boot_reused, boot_failed;
	double boot_seconds;
};

/* 0, or -1 (sm_error names the step: "scan: ...", "harvest: ..."). */
int sm_bot_cycle(const struct sm_cycle_opts *o, struct sm_cycle_stats *st);
/* One-line summary of a cycle ("scanned 120 commits; harvested ...; ..."). */
void sm_cycle_summary(const struct sm_cycle_stats *st, int dry_run, struct strbuf *out);
/* The same figures as one JSON object (run --json): dry_run, scanned,
 * scan_seconds, harvest (when harvested), boot (when booted), report. */
struct json_writer;
void sm_cycle_stats_json(const struct sm_cycle_stats *st, int dry_run, struct json_writer *w);

struct sm_daemon_opts {
	struct sm_cycle_opts cycle;
	unsigned interval;		/* seconds between successful cycles */
	unsigned retry;			/* first delay after a failure */
	unsigned max_backoff;		/* longest delay after failures */
	unsigned max_cycles;		/* 0: until stopped */
	FILE *log;			/* one line per cycle */
};

/* Runs cycles until sm_bot_stop (returns 0) or max_cycles (0 when the last
 * cycle succeeded, else -1). After n failures in a row the delay is
 * min(retry * 2^(n-1), max_backoff). */
int sm_bot_daemon(const struct sm_daemon_opts *o);
/* The delay after `failures` failures in a row (0: the interval). */
unsigned sm_daemon_delay(const struct sm_daemon_opts *o, unsigned failures);

#endif
