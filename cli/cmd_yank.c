/* stablemate yank: rewrite a branch without one commit. */
#include "cli/cli.h"
#include "trees/rewrite.h"
#include "trees/repo.h"
#include "lib/json.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const char *const synopsis[] = {
	"stablemate yank [-C REPO] [--json] BRANCH COMMIT",
	NULL
};

static const struct sm_usage usage = { synopsis,
"Rewrites BRANCH without COMMIT: the commits above COMMIT are replayed, in\n"
"memory, onto COMMIT's parent (authors and messages kept). Only when every one\n"
"replays cleanly does BRANCH move, checked against its old tip; the old tip\n"
"is kept in refs/stablemate/backup/BRANCH (restore with 'git branch -f BRANCH\n"
"refs/stablemate/backup/BRANCH'). On a conflict stablemate stops, names the\n"
"commit and files, and leaves BRANCH as it was. The work tree, the index and\n"
"HEAD are never touched, so a checked-out BRANCH is refused, and so is history\n"
"with a merge above COMMIT.\n",
"Exit status: 0 when rewritten, 1 on a conflict or another error, 2 on a usage\n"
"error.\n"
"\n"
"Example:\n"
"  stablemate yank -C ~/linux-stable 6.1-queue 1a2b3c4d5e6f\n"
};

int cli_rewrite_report(const char *cmd, const char *branch, int ret, int json,
		       struct sm_rewrite_result *r);

int cli_rewrite_report(const char *cmd, const char *branch, int ret, int json,
		       struct sm_rewrite_result *r)
{
	if (ret < 0)
		return cli_fail(cmd);
	if (json) {
		struct strbuf sb = STRBUF_INIT;
		struct json_writer w;

		json_init(&w, &sb);
		json_object_begin(&w, NULL);
		json_string(&w, "branch", branch);
		json_bool(&w, "rewritten", ret == 0);
		json_string(&w, "old_tip", r->old_tip);
		if (ret == 0) {
			json_string(&w, "new_tip", r->new_tip);
			json_string(&w, "backup", r->backup_ref);
			json_int(&w, "replayed", (long long)r->replayed);
		} else {
			json_object_begin(&w, "conflict");
			json_string(&w, "commit", r->conflict_commit);
			json_string(&w, "subject", r->conflict_subject ? r->conflict_subject : "");
			json_array_begin(&w, "paths");
			for (size_t i = 0; i < r->conflict_paths.nr; i++)
				json_string(&w, NULL, r->conflict_paths.items[i]);
			json_array_end(&w);
			json_object_end(&w);
		}
		json_object_end(&w);
		fwrite(sb.buf, 1, sb.len, stdout);
		fputc('\n', stdout);
		strbuf_release(&sb);
	} else if (ret == 0) {
		printf("%s: %.12s -> %.12s, %zu commit%s replayed; old tip kept in %s\n", branch,
		       r->old_tip, r->new_tip, r->replayed, r->replayed == 1 ? "" : "s",
		       r->backup_ref);
	}
	if (ret == 1) {
		fprintf(stderr, "stablemate %s: %s\n", cmd, sm_last_error());
		return 1;
	}
	return 0;
}

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
