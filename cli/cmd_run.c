/* stablemate run: one whole bot cycle: scan, harvest, boot, report. Also holds
 * the option handling `report` shares (report is a cycle without harvest). */
#include "bot/cycle.h"
#include "cli/bot_cli.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "lib/fileio.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate run [--config FILE] [--range REV..REV] [--dry-run[=MAILDIR]] [--json] [-q]",
	.description =
"One whole bot cycle, as cron would run it: scan the upstream range for every\n"
"configured tree, harvest the list replies of the notmuch database into review\n"
"notes on the upstream commits (when notmuch.database is set), boot the\n"
"candidates of the trees a [boot] section names (see stablemate-config(5)),\n"
"then compose and send the subscribers' reports (see 'stablemate report --help').\n",
};

const char *bot_config_path(const char *given)
{
	static char buf[4096];
	const char *env = getenv("STABLEMATE_CONFIG");
	char *path;

	if (given)
		return given;
	if (env && *env)
		return env;
	path = xdg_path("XDG_CONFIG_HOME", ".config", "stablemate/bot.conf");
	snprintf(buf, sizeof(buf), "%s", path);
	free(path);
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
	if (json) {
		struct cli_json j;

		sm_cycle_stats_json(&st, o.dry_run, cli_json_begin(&j));
		cli_json_end(&j);
	}
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
