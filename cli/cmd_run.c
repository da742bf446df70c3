/* stablemate run: one whole bot cycle: scan, harvest, boot, report. Also holds
 * the option handling `report` shares (report is a cycle without harvest). */
#include "bot/cycle.h"
#include "cli/bot_cli.h"
#include "cli/cli.h"
#include "lib/json.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const char *const synopsis[] = {
	"stablemate run [--config FILE] [--range REV..REV] [--dry-run[=MAILDIR]] [--json] [-q]",
	NULL
};

static const struct sm_usage usage = { synopsis,
"One whole bot cycle, as cron would run it: scan the upstream range for every\n"
"configured tree, harvest the list replies of the notmuch database into review\n"
"notes on the upstream commits (when notmuch.database is set), boot the\n"
"candidates of the trees a [boot] section names (see stablemate-config(5)),\n"
"then compose and send the subscribers' reports (see 'stablemate report --help').\n",
NULL
};

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

int bot_opt_dry_run(const struct sm_option *opt, const char *arg)
{
	struct sm_cycle_opts *o = opt->value;

	o->dry_run = 1;
	if (arg && !*arg)
		return sm_error("--dry-run=MAILDIR needs a directory");
	o->maildir = arg;
	return 0;
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
	if (st->boot_trees) {
		json_object_begin(&w, "boot");
		json_int(&w, "trees", st->boot_trees);
		json_int(&w, "booted", st->booted);
		json_int(&w, "reused", st->boot_reused);
		json_int(&w, "failed", st->boot_failed);
		json_double(&w, "seconds", st->boot_seconds);
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

int bot_cycle_command(const char *cmd, const struct sm_usage *usage, int harvest, int argc,
		      char **argv)
{
	struct sm_cycle_opts o = { 0 };
	struct sm_cycle_stats st;
	const char *config = NULL;
	int json = 0, quiet = 0, ret;
	const struct sm_option options[] = {
		OPT_BOT_CYCLE(&config, &o.range),
		OPT_CALLBACK_F(0, "dry-run", &o, "MAILDIR",
			       "harvest without writing notes, write the mails to\n"
			       "stdout as an mbox (or into MAILDIR) instead of\n"
			       "sending; record nothing", PARSE_OPT_OPTARG, bot_opt_dry_run),
		OPT_BOOL(0, "json", &json, "print the cycle's figures as JSON"),
		OPT_QUIET(&quiet),
		OPT_END()
	};

	o.harvest = harvest;
	argc = cli_parse_options(cmd, argc, argv, options, usage, 0);
	if (argc > 0)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[0]);
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
	return bot_cycle_command("run", &usage, 1, argc, argv);
}
