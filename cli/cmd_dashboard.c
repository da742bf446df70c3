/* stablemate dashboard: write the bot's view as a static site. */
#include "bot/dashboard.h"
#include "bot/scan_config.h"
#include "cli/bot_cli.h"
#include "cli/cli.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate dashboard [--config FILE] --out DIR [--range REV..REV]\n"
		    "                     [--commit-url URL] [--thread-url URL] [-q]",
	.description =
"Writes a static site (plain HTML and CSS, no server needed; it works from\n"
"file:// and behind any web server): per tree the candidates and maybes of\n"
"the configured range with verdict, score and reasons, the reviews in the\n"
"notes, the mail state (queued, sent, refused) and the last boot result;\n"
"and a page per candidate with links to the upstream commit and the list\n"
"threads. The scan uses the upstream index cache, so it is quick when\n"
"`run` has scanned the same range before.\n",
};

int cmd_dashboard(int argc, char **argv)
{
	const char *config = NULL, *out = NULL, *range = NULL, *commit_url = NULL,
		   *thread_url = NULL;
	struct sm_bot_config cfg;
	struct sm_rules *rules = NULL;
	struct sm_scan_result scan = { 0 };
	struct sm_dashboard_opts o = { 0 };
	struct sm_dashboard_stats st;
	int quiet = 0, ret = 1;

	const struct sm_option options[] = {
		OPT_BOT_CYCLE(&config, &range),
		OPT_STRING(0, "out", &out, "DIR", "where the site goes (created; files replaced atomically)"),
		OPT_STRING(0, "commit-url", &commit_url, "URL",
			   "link for a commit, %s is the id (default git.kernel.org)"),
		OPT_STRING(0, "thread-url", &thread_url, "URL",
			   "link for a Message-ID, %s is the id (default\n"
			   "lore.kernel.org/r/)"),
		OPT_QUIET(&quiet),
		OPT_END()
	};

	argc = cli_parse_options("dashboard", argc, argv, options, &usage, 0);
	if (argc > 0)
		return cli_usage_error("dashboard", "unexpected argument '%s'", argv[0]);
	if (!out)
		return cli_usage_error("dashboard", "--out DIR is required");
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
