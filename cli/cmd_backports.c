/* stablemate backports: where a fix was backported, and how it differs. */
#include "cli/cli.h"
#include "cli/output.h"
#include "trees/backports.h"
#include "trees/tree_state.h"
#include "trees/repo.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate backports [-C REPO] --trees BRANCH[=VER][,BRANCH...] [--mine BRANCH[=VER]]\n"
		    "                     [--cache-dir DIR | --no-cache] [--json] FIX",
	.description =
"Shows where the upstream commit FIX was backported into other stable trees:\n"
"for each tree, the stable commit (found by the upstream id its message\n"
"names, by patch-id, or by subject), whether it differs from the upstream\n"
"patch (patch-id, how many +/- lines are in one and not the other, and the\n"
"files only one changes: a file mainline moved is changed under its old\n"
"name in an older tree), and,\n"
"with --mine, whether that backport cherry-picks cleanly onto my tree (tried\n"
"in memory; nothing is written). Each tree is indexed from its release tag.\n",
	.epilog =
"Exit status: 0 on success, 1 on an error, 2 on a usage error.\n"
"\n"
"Example:\n"
"  stablemate backports -C ~/linux --trees linux-6.6.y,linux-6.1.y --mine linux-5.15.y 1a2b3c4d5e6f\n",
};

static void print_list(const struct strlist *l)
{
	for (size_t k = 0; k < l->nr; k++)
		printf("%s%s", k ? ", " : "", l->items[k]);
}

/* "same as upstream", "differs from upstream (2 lines)", and when the
 * files differ (a file mainline moved, taken under the tree's name):
 * "same lines as upstream, in a.c where upstream has drv/c.c". */
static void print_difference(const struct sm_backport *b)
{
	int other_files = b->files_here.nr || b->files_upstream.nr;

	if (!b->differs)
		printf("same as upstream");
	else if (!b->lines_differ && other_files)
		printf("same lines as upstream");
	else
		printf("differs from upstream (%u lines)", b->lines_differ);
	if (!b->differs || !other_files)
		return;
	if (b->files_here.nr && b->files_upstream.nr) {
		printf(", in ");
		print_list(&b->files_here);
		printf(" where upstream has ");
		print_list(&b->files_upstream);
	} else if (b->files_here.nr) {
		printf(", also in ");
		print_list(&b->files_here);
	} else {
		printf(", without upstream's ");
		print_list(&b->files_upstream);
	}
}

static const char *applies_str(int a)
{
	return a < 0 ? "not checked" : a ? "applies cleanly" : "conflicts";
}

int cmd_backports(int argc, char **argv)
{
	const char *path = ".", *cache_dir = NULL;
	char *mine_arg = NULL;
	struct strlist tree_args = STRLIST_INIT;
	struct sm_tree_spec *trees = NULL, mine;
	git_repository *repo = NULL;
	struct sm_backports_result r;
	int json = 0, ret = 1;
	const struct sm_option options[] = {
		OPT_REPO(&path, "the repository with FIX and all branches (default: .)"),
		OPT_COMMA_LIST("trees", &tree_args, "LIST", "comma-separated stable branches to look in"),
		OPT_ALIAS(0, "tree", "trees"),
		OPT_STRING(0, "mine", &mine_arg, "BRANCH",
			   "my tree: is FIX there already, does each backport apply"),
		OPT_CACHE_DIR(&cache_dir),
		OPT_JSON(&json),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("backports", argc, argv, options, &usage, 0);
	if (argc != 1 || !tree_args.nr) {
		strlist_clear(&tree_args);
		return cli_usage_error("backports", "expected --trees and one FIX commit");
	}
	trees = xcalloc(tree_args.nr, sizeof(*trees));
	for (size_t i = 0; i < tree_args.nr; i++)
		if (sm_tree_spec_parse(&trees[i], tree_args.items[i], NULL) < 0) {
			ret = cli_usage_error("backports", "%s", sm_last_error());
			goto out;
		}
	if (mine_arg && sm_tree_spec_parse(&mine, mine_arg, NULL) < 0) {
		ret = cli_usage_error("backports", "%s", sm_last_error());
		goto out;
	}
	if (sm_repo_open(&repo, path) < 0 ||
	    sm_backports(repo, argv[0], trees, tree_args.nr, mine_arg ? &mine : NULL,
			 cache_dir, &r) < 0) {
		ret = cli_fail("backports");
		goto out;
	}
	if (json) {
		struct cli_json j;

		sm_backports_result_json(&r, cli_json_begin(&j));
		cli_json_end(&j);
	} else {
		printf("%.12s %s\n", r.fix, r.subject);
		for (size_t i = 0; i < r.nr; i++) {
			const struct sm_backport *b = &r.trees[i];

			if (b->how == SM_MATCH_NONE) {
				printf("  %s: not backported\n", b->tree);
				continue;
			}
			printf("  %s: %.12s (by %s), ", b->tree, b->stable, sm_match_name(b->how));
			print_difference(b);
			if (b->reverted_by[0])
				printf(", reverted there by %.12s", b->reverted_by);
			if (r.mine && !r.mine_has && b->change_there)
				printf(", its change is in %s already", r.mine);
			else if (r.mine && !r.mine_has && b->applies >= 0)
				printf(", %s to %s", applies_str(b->applies), r.mine);
			if (b->applies_after_prereqs >= 0) {
				size_t lacks = 0;

				for (size_t k = 0; k < b->nr_prereqs; k++)
					lacks += b->prereqs[k].mine_lacks != 0;
				printf("; %s after the prerequisite%s below that %s lacks",
				       b->applies_after_prereqs ? "applies cleanly" : "conflicts even",
				       lacks == 1 ? "" : "s", r.mine);
			}
			printf("\n");
			for (size_t k = 0; k < b->conflicts.nr; k++)
				printf("      conflict: %s\n", b->conflicts.items[k]);
			for (size_t k = 0; k < b->nr_prereqs; k++) {
				const struct sm_backport_prereq *p = &b->prereqs[k];

				printf("      with prerequisite %.12s (%s), upstream %.12s%s%s\n", p->stable,
				       p->subject, p->upstream[0] ? p->upstream : "unknown",
				       p->mine_lacks ? "; not in " : "", p->mine_lacks ? r.mine : "");
			}
		}
		if (r.mine) {
			if (r.mine_has && r.mine_reverted_by[0])
				printf("  %s (mine): took it as %.12s, then reverted it (%.12s)\n", r.mine,
				       r.mine_as, r.mine_reverted_by);
			else if (r.mine_has)
				printf("  %s (mine): already has it as %.12s\n", r.mine, r.mine_as);
			else if (r.upstream_changes_nothing)
				printf("  %s (mine): no commit of it, but its change is there: "
				       "cherry-picked, the upstream commit changes nothing\n", r.mine);
			else
				printf("  %s (mine): not there; upstream commit %s\n", r.mine,
				       applies_str(r.upstream_applies));
		}
	}
	sm_backports_result_release(&r);
	ret = 0;
out:
	git_repository_free(repo);
	free(trees);
	strlist_clear(&tree_args);
	return ret;
}
