/* bot_cli: what report, run and daemon share (defined in cli/cmd_run.c). */
#ifndef SM_CLI_BOT_CLI_H
#define SM_CLI_BOT_CLI_H
#include "cli/cli.h"

/* Parses the common options and runs one bot cycle; returns the exit code. */
int bot_cycle_command(const char *cmd, const struct sm_usage *usage, int harvest, int argc,
		      char **argv);
/* The config file: given, else $STABLEMATE_CONFIG, else the default path. */
const char *bot_config_path(const char *given);
/* --dry-run[=MAILDIR] into a struct sm_cycle_opts (opt->value). */
int bot_opt_dry_run(const struct sm_option *opt, const char *arg);

/* --config FILE and --range R, shared by report, run and daemon. */
#define OPT_BOT_CYCLE(config, range) \
	OPT_STRING(0, "config", (config), "FILE", \
		   "the bot's config (default $STABLEMATE_CONFIG, then\n" \
		   "${XDG_CONFIG_HOME:-~/.config}/stablemate/bot.conf);\n" \
		   "see README.md, Configuration"), \
	OPT_STRING(0, "range", (range), "R", "the upstream range to scan (default upstream.range)")

#endif
