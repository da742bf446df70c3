/* stablemate yank: rewrite a branch without one commit. */
#include "cli/cli.h"
#include "cli/output.h"
#include "trees/rewrite.h"
#include "trees/repo.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate yank [-C REPO] [--json] BRANCH COMMIT",
	.description =
"Rewrites BRANCH without COMMIT: the commits above COMMIT are replayed, in\n"
"memory, onto COMMIT's parent (authors and messages kept). Only when every one\n"
"replays cleanly does BRANCH move, checked against its old tip; the old tip\n"
"is kept in refs/stablemate/backup/BRANCH (restore with 'git branch -f BRANCH\n"
"refs/stablemate/backup/BRANCH'). On a conflict stablemate stops, names the\n"
"commit and files, and leaves BRANCH as it was. The work tree, the index and\n"
"HEAD are never touched, so a checked-out BRANCH is refused, and so is history\n"
"with a merge above COMMIT.\n",
	.epilog =
"Exit status: 0 when rewritten, 1 on a conflict or another error, 2 on a usage\n"
"error.\n"
"\n"
"Example:\n"
"  stablemate yank -C ~/linux-stable 6.1-queue 1a2b3c4d5e6f\n",
};

int cmd_yank(int argc, char **argv)
{
	const char *path = ".";
	git_repository *repo = NULL;
	struct sm_rewrite_result r;
	int json = 0, ret;
	const struct sm_option options[] = {
		OPT_REPO(&path, "the repository (default: .)"),
		OPT_JSON(&json),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("yank", argc, argv, options, &usage, 0);
	if (argc != 2)
		return cli_usage_error("yank", "expected BRANCH and COMMIT");
	if (sm_repo_open(&repo, path) < 0)
		return cli_fail("yank");
	ret = sm_yank(repo, argv[0], argv[1], &r);
	ret = cli_rewrite_report("yank", argv[0], ret, json, &r);
	sm_rewrite_result_release(&r);
	git_repository_free(repo);
	return ret;
}
