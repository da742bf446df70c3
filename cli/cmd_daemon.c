/* stablemate daemon: the bot cycle at an interval, backing off on failure. */
#include "bot/cycle.h"
#include "cli/bot_cli.h"
#include "cli/cli.h"
#include "lib/util.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>


static const struct sm_usage usage = {
	.synopsis = "stablemate daemon --interval SECS [--config FILE] [--range R] [--retry SECS]\n"
		    "                  [--max-backoff SECS] [--cycles N] [--dry-run=MAILDIR] [-q]",
	.description =
"Runs 'stablemate run' every SECS seconds, one log line per cycle on stdout.\n"
"After a failed cycle it retries after --retry seconds (default 60, or the\n"
"interval if shorter), doubling the delay on each failure in a row up to\n"
"--max-backoff (default 3600, or the interval if longer). SIGTERM or SIGINT\n"
"lets the current step finish (a mail being sent is finished, unsent mails\n"
"stay queued), saves the state and exits 0. The config is read again each\n"
"cycle, so edits take effect without a restart.\n",
};

static void on_signal(int sig)
{
	(void)sig;
	sm_bot_stop = 1;
}

int cmd_daemon(int argc, char **argv)
{
	struct sm_daemon_opts o = { 0 };
	struct sigaction sa;
	const char *config = NULL;
	unsigned unset = ~0u;
	int have_interval, have_retry, have_max;
	const struct sm_option options[] = {
		OPT_SECONDS("interval", &o.interval, "run a cycle every SECS seconds (at least 1)"),
		OPT_BOT_CYCLE(&config, &o.cycle.range),
		OPT_SECONDS("retry", &o.retry, "first delay after a failed cycle"),
		OPT_SECONDS("max-backoff", &o.max_backoff, "longest delay after failures in a row"),
		OPT_UINT(0, "cycles", &o.max_cycles, "N",
			 "stop after N cycles (exit 1 if the last one failed)"),
		OPT_CALLBACK_F(0, "dry-run", &o.cycle, "MAILDIR",
			       "harvest without writing notes, deliver the mails into\n"
			       "MAILDIR instead of sending; record nothing",
			       PARSE_OPT_OPTARG, bot_opt_dry_run),
		OPT_QUIET(NULL),
		OPT_END()
	};

	o.cycle.harvest = 1;
	o.interval = o.retry = o.max_backoff = unset;
	argc = cli_parse_options("daemon", argc, argv, options, &usage, 0);
	if (argc > 0)
		return cli_usage_error("daemon", "unexpected argument '%s'", argv[0]);
	if (o.cycle.dry_run && !o.cycle.maildir)
		return cli_usage_error("daemon", "--dry-run=MAILDIR needs a directory");
	have_interval = o.interval != unset;
	have_retry = o.retry != unset;
	have_max = o.max_backoff != unset;
	if (!have_interval || !o.interval)
		return cli_usage_error("daemon", "--interval SECS (at least 1) is needed");
	if (!have_retry)
		o.retry = o.interval < 60 ? o.interval : 60;
	if (!have_max)
		o.max_backoff = o.interval > 3600 ? o.interval : 3600;
	if (!o.retry)
		o.retry = 1;
	if (o.max_backoff < o.retry)
		o.max_backoff = o.retry;
	o.cycle.config = bot_config_path(config);
	o.log = stdout;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	return sm_bot_daemon(&o) ? 1 : 0;
}
