/* stablemate daemon: the bot cycle at an interval, backing off on failure. */
#include "bot/cycle.h"
#include "cli/bot_cli.h"
#include "cli/cli.h"
#include "lib/util.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>


static const char usage[] =
"usage: stablemate daemon --interval SECS [--config FILE] [--range R] [--retry SECS]\n"
"                         [--max-backoff SECS] [--cycles N] [--dry-run=MAILDIR] [-q]\n"
"\n"
"Runs 'stablemate run' every SECS seconds, one log line per cycle on stdout.\n"
"After a failed cycle it retries after --retry seconds (default 60, or the\n"
"interval if shorter), doubling the delay on each failure in a row up to\n"
"--max-backoff (default 3600, or the interval if longer). SIGTERM or SIGINT\n"
"lets the current step finish (a mail being sent is finished, unsent mails\n"
"stay queued), saves the state and exits 0. The config is read again each\n"
"cycle, so edits take effect without a restart.\n"
"\n"
"  --cycles N           stop after N cycles (exit 1 if the last one failed)\n";

static void on_signal(int sig)
{
	(void)sig;
	sm_bot_stop = 1;
}

static int parse_uint(const char *cmd, const char *opt, const char *v, unsigned *out)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || n > 10000000UL || v[0] == '-')
		return cli_usage_error(cmd, "%s: not a number of seconds: '%s'", opt, v);
	*out = (unsigned)n;
	return 0;
}

int cmd_daemon(int argc, char **argv)
{
	struct sm_daemon_opts o = { 0 };
	struct sigaction sa;
	const char *config = NULL, *v = NULL;
	int bad = 0, have_interval = 0, have_retry = 0, have_max = 0;

	if (cli_wants_help(argc, argv))
		cli_help(usage);
	o.cycle.harvest = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (bot_take_arg("daemon", argc, argv, &i, "--config", &config, &bad) ||
		    bot_take_arg("daemon", argc, argv, &i, "--range", &o.cycle.range, &bad)) {
			if (bad)
				return bad;
		} else if (bot_take_arg("daemon", argc, argv, &i, "--interval", &v, &bad)) {
			if (bad || (bad = parse_uint("daemon", "--interval", v, &o.interval)))
				return bad;
			have_interval = 1;
		} else if (bot_take_arg("daemon", argc, argv, &i, "--retry", &v, &bad)) {
			if (bad || (bad = parse_uint("daemon", "--retry", v, &o.retry)))
				return bad;
			have_retry = 1;
		} else if (bot_take_arg("daemon", argc, argv, &i, "--max-backoff", &v, &bad)) {
			if (bad || (bad = parse_uint("daemon", "--max-backoff", v, &o.max_backoff)))
				return bad;
			have_max = 1;
		} else if (bot_take_arg("daemon", argc, argv, &i, "--cycles", &v, &bad)) {
			if (bad || (bad = parse_uint("daemon", "--cycles", v, &o.max_cycles)))
				return bad;
		} else if (skip_prefix(a, "--dry-run=", &o.cycle.maildir) && *o.cycle.maildir) {
			o.cycle.dry_run = 1;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			sm_set_quiet(1);
		} else {
			return cli_usage_error("daemon", "unknown argument '%s'", a);
		}
	}
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
