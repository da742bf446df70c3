/* stablemate insert: rewrite a branch with one more commit in the middle. */
#include "cli/cli.h"
#include "cli/output.h"
#include "trees/rewrite.h"
#include "trees/repo.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate insert [-C REPO] --after X [--signoff 'Name <email>'] [--as-is]\n"
		    "                  [--json] BRANCH COMMIT",
	.description =
"Rewrites BRANCH with COMMIT cherry-picked right after its commit X, and the\n"
"commits that were above X replayed on top, all in memory. The inserted\n"
"commit keeps its author and gets the stable-style \"commit <sha> upstream.\"\n"
"line and a Signed-off-by (unless --as-is); a backport taken from another\n"
"stable tree, which names its upstream commit already, keeps that line and\n"
"gets the Signed-off-by only. A COMMIT the branch carries already (by upstream\n"
"id or patch-id, and not reverted there) is refused. Only when everything replays\n"
"cleanly does BRANCH move, checked against its old tip; the old tip is kept\n"
"in refs/stablemate/backup/BRANCH. On a conflict stablemate stops, names the\n"
"commit and files, and leaves BRANCH as it was. The work tree, the index and\n"
"HEAD are never touched, so a checked-out BRANCH is refused.\n",
	.epilog =
"Exit status: 0 when rewritten, 1 on a conflict or another error, 2 on a usage\n"
"error.\n"
"\n"
"Example:\n"
"  stablemate insert -C ~/linux-stable --after 0badc0ffee12 6.1-queue 1a2b3c4d5e6f\n",
};

int cmd_insert(int argc, char **argv)
{
	const char *path = ".";
	struct sm_insert_opts o = { NULL, NULL, 1 };
	git_repository *repo = NULL;
	struct sm_rewrite_result r;
	int json = 0, as_is = 0, ret;
	const struct sm_option options[] = {
		OPT_REPO(&path, "the repository (default: .)"),
		OPT_STRING(0, "after", &o.after, "X", "the commit of BRANCH to insert after"),
		OPT_STRING(0, "signoff", &o.signoff, "IDENT",
			   "committer and Signed-off-by (default: user.name/email)"),
		OPT_BOOL(0, "as-is", &as_is, "keep COMMIT's message unchanged"),
		OPT_JSON(&json),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("insert", argc, argv, options, &usage, 0);
	if (argc != 2 || !o.after)
		return cli_usage_error("insert", "expected --after X, BRANCH and COMMIT");
	if (as_is)
		o.stable_line = 0;
	if (sm_repo_open(&repo, path) < 0)
		return cli_fail("insert");
	ret = sm_insert(repo, argv[0], argv[1], &o, &r);
	ret = cli_rewrite_report("insert", argv[0], ret, json, &r);
	sm_rewrite_result_release(&r);
	git_repository_free(repo);
	return ret;
}
