/* stablemate dashboard: write the bot's view as a static site. */
#include "bot/dashboard.h"
#include "bot/scan_config.h"
#include "cli/bot_cli.h"
#include "cli/cli.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const char usage[] =
"usage: stablemate dashboard [--config FILE] --out DIR [--range REV..REV]\n"
"                            [--commit-url URL] [--thread-url URL] [-q]\n"
"\n"
"Writes a static site (plain HTML and CSS, no server needed; it works from\n"
"file:// and behind any web server): per tree the candidates and maybes of\n"
"the configured range with verdict, score and reasons, the reviews in the\n"
"notes, the mail state (queued, sent, refused) and the last boot result;\n"
"and a page per candidate with links to the upstream commit and the list\n"
"threads. The scan uses the upstream index cache, so it is quick when\n"
"`run` has scanned the same range before.\n"
"\n"
"  --config FILE      the bot's config (default $STABLEMATE_CONFIG, then\n"
"                     ~/.config/stablemate/bot.conf)\n"
"  --out DIR          where the site goes (created; files replaced atomically)\n"
"  --range R          the upstream range (default upstream.range)\n"
"  --commit-url URL   link for a commit, %s is the id (default git.kernel.org)\n"
"  --thread-url URL   link for a Message-ID, %s is the id (default lore.kernel.org/r/)\n"
"  -q, --quiet        no summary line\n";

int cmd_dashboard(int argc, char **argv)
{
	const char *config = NULL, *out = NULL, *range = NULL, *commit_url = NULL,
		   *thread_url = NULL;
	struct sm_bot_config cfg;
	struct sm_rules *rules = NULL;
	struct sm_scan_result scan = { 0 };
	struct sm_dashboard_opts o = { 0 };
	struct sm_dashboard_stats st;
	int quiet = 0, bad = 0, ret = 1;

	if (cli_wants_help(argc, argv))
		cli_help(usage);
	for (int i = 1; i < argc; i++) {
		if (bot_take_arg("dashboard", argc, argv, &i, "--config", &config, &bad) ||
		    bot_take_arg("dashboard", argc, argv, &i, "--out", &out, &bad) ||
		    bot_take_arg("dashboard", argc, argv, &i, "--range", &range, &bad) ||
		    bot_take_arg("dashboard", argc, argv, &i, "--commit-url", &commit_url, &bad) ||
		    bot_take_arg("dashboard", argc, argv, &i, "--thread-url", &thread_url, &bad)) {
			if (bad)
				return bad;
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			quiet = 1;
		} else {
			return cli_usage_error("dashboard", "unknown argument '%s'", argv[i]);
		}
	}
	if (!out)
		return cli_usage_error("dashboard", "--out DIR is required");
	sm_set_quiet(quiet);
	if (sm_bot_config_load(&cfg, bot_config_path(config)))
		return cli_fail("dashboard");
	if (sm_rules_load(&rules, cfg.rules_dir) || sm_bot_scan(&cfg, rules, range, &scan))
		goto out;
	o.cfg = &cfg;
	o.scan = &scan;
	o.range = range ? range : cfg.range;
	o.out_dir = out;
	o.commit_url = commit_url;
	o.thread_url = thread_url;
	if (sm_dashboard_write(&o, &st))
		goto out;
	if (!quiet)
		printf("dashboard: %u tree%s, %u listed, %u candidate pages, %u reviews -> %s/index.html\n",
		       st.trees, st.trees == 1 ? "" : "s", st.listed, st.pages, st.reviews, out);
	ret = 0;
out:
	if (ret)
		ret = cli_fail("dashboard");
	sm_scan_result_release(&scan);
	if (rules)
		sm_rules_free(rules);
	sm_bot_config_release(&cfg);
	return ret;
}
