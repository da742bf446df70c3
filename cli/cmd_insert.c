/* stablemate insert: rewrite a branch with one more commit in the middle. */
#include "cli/cli.h"
#include "trees/rewrite.h"
#include "trees/repo.h"
#include "lib/util.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
"usage: stablemate insert [-C REPO] --after X [--signoff 'Name <email>'] [--as-is]\n"
"                         [--json] BRANCH COMMIT\n"
"\n"
"Rewrites BRANCH with COMMIT cherry-picked right after its commit X, and the\n"
"commits that were above X replayed on top, all in memory. The inserted\n"
"commit keeps its author and gets the stable-style \"commit <sha> upstream.\"\n"
"line and a Signed-off-by (unless --as-is). Only when everything replays\n"
"cleanly does BRANCH move, checked against its old tip; the old tip is kept\n"
"in refs/stablemate/backup/BRANCH. On a conflict stablemate stops, names the\n"
"commit and files, and leaves BRANCH as it was. The work tree, the index and\n"
"HEAD are never touched, so a checked-out BRANCH is refused.\n"
"\n"
"Options:\n"
"  -C, --repo REPO     the repository (default: .)\n"
"  --after X           the commit of BRANCH to insert after\n"
"  --signoff IDENT     committer and Signed-off-by (default: user.name/email)\n"
"  --as-is             keep COMMIT's message unchanged\n"
"  --json              print the result as JSON\n"
"\n"
"Exit status: 0 when rewritten, 1 on a conflict or another error, 2 on a usage\n"
"error.\n"
"\n"
"Example:\n"
"  stablemate insert -C ~/linux-stable --after 0badc0ffee12 6.1-queue 1a2b3c4d5e6f\n";

int cli_rewrite_report(const char *cmd, const char *branch, int ret, int json,
		       struct sm_rewrite_result *r);

int cmd_insert(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "repo", required_argument, NULL, 'C' },
		{ "after", required_argument, NULL, 'a' },
		{ "signoff", required_argument, NULL, 's' },
		{ "as-is", no_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *path = ".";
	struct sm_insert_opts o = { NULL, NULL, 1 };
	git_repository *repo = NULL;
	struct sm_rewrite_result r;
	int json = 0, c, ret;

	if (cli_wants_help(argc, argv))
		cli_help(usage);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hC:", longopts, NULL)) != -1) {
		switch (c) {
		case 'C': path = optarg; break;
		case 'a': o.after = optarg; break;
		case 's': o.signoff = optarg; break;
		case 'i': o.stable_line = 0; break;
		case 'j': json = 1; break;
		default:
			return cli_usage_error("insert", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 2 || !o.after)
		return cli_usage_error("insert", "expected --after X, BRANCH and COMMIT");
	if (sm_repo_open(&repo, path) < 0)
		return cli_fail("insert");
	ret = sm_insert(repo, argv[optind], argv[optind + 1], &o, &r);
	ret = cli_rewrite_report("insert", argv[optind], ret, json, &r);
	sm_rewrite_result_release(&r);
	git_repository_free(repo);
	return ret;
}
