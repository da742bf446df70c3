/* stablemate run: one whole bot cycle: scan, harvest, report. Also holds
 * the option handling `report` shares (report is a cycle without harvest). */
#include "bot/cycle.h"
#include "cli/bot_cli.h"
#include "cli/cli.h"
#include "lib/json.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const char usage[] =
"usage: stablemate run [--config FILE] [--range REV..REV] [--dry-run[=MAILDIR]] [--json] [-q]\n"
"\n"
"One whole bot cycle, as cron would run it: scan the upstream range for every\n"
"configured tree, harvest the list replies of the notmuch database into review\n"
"notes on the upstream commits (when notmuch.database is set), then compose\n"
"and send the subscribers' reports (see 'stablemate report --help').\n"
"\n"
"  --config FILE        the bot's config (default $STABLEMATE_CONFIG, then\n"
"                       ~/.config/stablemate/bot.conf)\n"
"  --range R            the upstream range to scan (default upstream.range)\n"
"  --dry-run[=MAILDIR]  harvest without writing notes, write the mails to stdout\n"
"                       (or MAILDIR) instead of sending; record nothing\n"
"  --json               print the cycle's figures as JSON\n"
"  -q, --quiet          no warnings, no summary line\n";

const char *bot_config_path(const char *given)
{
	static char buf[4096];
	const char *env = getenv("STABLEMATE_CONFIG"), *home = getenv("HOME");

	if (given)
		return given;
	if (env && *env)
		return env;
	snprintf(buf, sizeof(buf), "%s/.config/stablemate/bot.conf", home ? home : ".");
	return buf;
}

/* "--name VALUE" or "--name=VALUE": 1 when argv[*i] is the option (value set,
 * *i advanced), 0 when it is not; *bad set when the value is missing. */
int bot_take_arg(const char *cmd, int argc, char **argv, int *i, const char *name,
		 const char **value, int *bad)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return 0;
	if (argv[*i][n] == '=') {
		*value = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n])
		return 0;
	if (*i + 1 >= argc) {
		*bad = cli_usage_error(cmd, "%s needs a value", name);
		return 1;
	}
	*value = argv[++*i];
	return 1;
}

static void print_json(const struct sm_cycle_stats *st, int dry_run)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;

	json_init(&w, &sb);
	json_object_begin(&w, NULL);
	json_bool(&w, "dry_run", dry_run);
	json_int(&w, "scanned", (long long)st->scanned);
	json_double(&w, "scan_seconds", st->scan_seconds);
	if (st->harvested) {
		json_object_begin(&w, "harvest");
		json_int(&w, "messages", st->harvest.messages);
		json_int(&w, "reviews_added", st->harvest.reviews_added);
		json_int(&w, "reviews_known", st->harvest.reviews_known);
		json_double(&w, "seconds", st->harvest_seconds);
		json_object_end(&w);
	}
	json_object_begin(&w, "report");
	json_int(&w, "subscribers", st->report.subscribers);
	json_int(&w, "candidates", st->report.picks);
	json_int(&w, "composed", st->report.composed);
	json_int(&w, "sent", st->report.sent);
	json_int(&w, "refused", st->report.refused);
	json_int(&w, "left_queued", st->report.left);
	json_double(&w, "compose_seconds", st->compose_seconds);
	json_double(&w, "send_seconds", st->send_seconds);
	json_object_end(&w);
	json_object_end(&w);
	puts(sb.buf);
	strbuf_release(&sb);
}

int bot_cycle_command(const char *cmd, const char *usage_text, int harvest, int argc, char **argv)
{
	struct sm_cycle_opts o = { 0 };
	struct sm_cycle_stats st;
	const char *config = NULL;
	int json = 0, quiet = 0, bad = 0, ret;

	if (cli_wants_help(argc, argv))
		cli_help(usage_text);
	o.harvest = harvest;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (bot_take_arg(cmd, argc, argv, &i, "--config", &config, &bad) ||
		    bot_take_arg(cmd, argc, argv, &i, "--range", &o.range, &bad)) {
			if (bad)
				return bad;
		} else if (!strcmp(a, "--dry-run")) {
			o.dry_run = 1;
		} else if (skip_prefix(a, "--dry-run=", &o.maildir)) {
			o.dry_run = 1;
			if (!*o.maildir)
				return cli_usage_error(cmd, "--dry-run=MAILDIR needs a directory");
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;
		} else {
			return cli_usage_error(cmd, "unknown argument '%s'", a);
		}
	}
	if (quiet)
		sm_set_quiet(1);
	o.config = bot_config_path(config);
	o.out = stdout;
	ret = sm_bot_cycle(&o, &st);
	if (json)
		print_json(&st, o.dry_run);
	if (ret)
		return cli_fail(cmd);
	if (!quiet && !json) {
		struct strbuf sb = STRBUF_INIT;

		sm_cycle_summary(&st, o.dry_run, &sb);
		/* With the mails on stdout, the summary goes to stderr. */
		fprintf(o.dry_run && !o.maildir ? stderr : stdout, "stablemate %s: %s\n", cmd, sb.buf);
		strbuf_release(&sb);
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	return bot_cycle_command("run", usage, 1, argc, argv);
}
