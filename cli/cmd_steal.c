/* stablemate steal: cherry-pick a range's candidates onto a new branch. */
#include "cli/cli.h"
#include "cli/output.h"
#include "trees/steal.h"
#include "gitnotes/notes.h"
#include "trees/tree_state.h"
#include "rules/classify.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate steal [-C REPO] --range A..B --onto BRANCH[=VER] --branch NEW\n"
		    "                 [--signoff 'Name <email>'] [--include-maybe] [--rules DIR]\n"
		    "                 [--cache-dir DIR | --no-cache] [--json]\n"
		    "                 [--upstream-ref REF | --no-upstream-ref] [--min-soak-days N]\n"
		    "                 [--queue DIR] [--backports-from BRANCH[=VER][,BRANCH...]]\n"
		    "                 [--search N]",
	.description =
"Scans the range like 'stablemate scan' for the tree BRANCH and creates the\n"
"branch NEW at BRANCH's tip with every candidate cherry-picked in upstream\n"
"order. Each picked commit keeps its author; its message gets the stable-style\n"
"\"commit <sha> upstream.\" line under the subject and a Signed-off-by of the\n"
"committer. A candidate that does not apply (conflict), or whose change is\n"
"already in the tree, is left out and listed with the reason; the rest still\n"
"go in. A candidate's later upstream fixes (commits whose Fixes: name it, up\n"
"to --upstream-ref) that the tree lacks are picked right after it, and the\n"
"prerequisites its stable tags name for the tree (\"# 6.1.x: <id>: subject\")\n"
"that the tree lacks right before it, from inside the range or not. A candidate\n"
"that was reverted upstream, or is in the --queue directory, is not picked.\n"
"With --backports-from, a candidate that does not apply is taken from the\n"
"first of those stable trees whose backport of it (the commit there naming\n"
"it as its upstream) applies; the backport's own upstream line stays.\n"
"With --search N, a candidate that conflicts on the tree (after its\n"
"prerequisites) gets the search of 'scan --search': the fewest of the N newest\n"
"commits to the files in conflict that the tree lacks that make it apply are\n"
"picked before it, in commit order (\"needed by <id>\").\n"
"The cherry-picks are done in memory: the work tree, the index and\n"
"HEAD are never touched, and BRANCH does not move.\n",
	.epilog =
"Exit status: 0 when NEW was created (even if some candidates were left out),\n"
"1 on an error (nothing created), 2 on a usage error.\n"
"\n"
"Example:\n"
"  stablemate steal -C ~/linux --range v6.6..v6.7 --onto linux-6.1.y --branch 6.1-queue\n"
"  stablemate steal --range v6.6..v6.7 --onto 5.15 --branch 5.15-queue --backports-from 6.1,6.6\n",
};

int cmd_steal(int argc, char **argv)
{
	struct sm_steal_opts o;
	struct sm_steal_result r;
	struct sm_rules *rules = NULL;
	char *onto = NULL;
	const char *rules_dir = NULL;
	struct strlist backport_args = STRLIST_INIT;
	struct sm_tree_spec *backport_trees = NULL;
	int json = 0, ret = 1;
	const struct sm_option options[] = {
		OPT_REPO(&o.repo, "the repository holding the range and the tree (default: .)"),
		OPT_STRING(0, "range", &o.range, "A..B", "the upstream commits to consider"),
		OPT_STRING(0, "onto", &onto, "BRANCH[=VER]",
			   "the stable tree to start from (version from its name)"),
		OPT_STRING(0, "branch", &o.branch, "NEW", "the branch to create; it must not exist"),
		OPT_STRING(0, "signoff", &o.signoff, "IDENT",
			   "committer and Signed-off-by (default: the\n"
			   "repository's user.name and user.email)"),
		OPT_BOOL(0, "include-maybe", &o.include_maybe,
			 "also pick commits the classifier rates \"maybe\""),
		OPT_STRING(0, "rules", &rules_dir, "DIR", "the classifier's rules directory"),
		OPT_CACHE_DIR(&o.cache_dir),
		OPT_JSON(&json),
		OPT_UPSTREAM_REF(&o.upstream_ref,
				 "where to look for reverts and later fixes (default:\n"
				 "the branch HEAD is on when it holds the range's end,\n"
				 "else master or main)",
				 "look nowhere past the range"),
		OPT_DAYS("min-soak-days", &o.min_soak_days,
			 "leave out commits in mainline for less than N days"),
		OPT_STRING(0, "queue", &o.queue_dir, "DIR",
			   "a stable-queue checkout: leave out what is queued"),
		OPT_STRING(0, "notes-ref", &o.notes_ref, "REF",
			   "the review notes: a NAK for the tree's version or the\n"
			   "stable queue's \"queued\" keeps a commit out (default\n"
			   SM_NOTES_REF_DEFAULT "; \"\": none read)"),
		OPT_COMMA_LIST("backports-from", &backport_args, "LIST",
			       "comma-separated stable branches whose backport\n"
			       "of a candidate that does not apply is tried"),
		OPT_UINT(0, "search", &o.search, "N",
			 "for a candidate that conflicts, pick what the search\n"
			 "of up to N commits to the files in conflict finds first"),
		OPT_QUIET(NULL),
		OPT_END()
	};

	memset(&o, 0, sizeof(o));
	o.repo = ".";
	argc = cli_parse_options("steal", argc, argv, options, &usage, 0);
	if (argc > 0) {
		ret = cli_usage_error("steal", "unexpected argument '%s'", argv[0]);
		goto out;
	}
	if (!o.range || !onto || !o.branch) {
		ret = cli_usage_error("steal", "--range, --onto and --branch are required");
		goto out;
	}
	if (sm_tree_spec_parse(&o.onto, onto, NULL) < 0) {
		ret = cli_usage_error("steal", "%s", sm_last_error());
		goto out;
	}
	backport_trees = xcalloc(backport_args.nr + 1, sizeof(*backport_trees));
	for (size_t i = 0; i < backport_args.nr; i++)
		if (sm_tree_spec_parse(&backport_trees[i], backport_args.items[i], NULL) < 0) {
			ret = cli_usage_error("steal", "--backports-from: %s", sm_last_error());
			goto out;
		}
	o.backports_from = backport_trees;
	o.nr_backports_from = backport_args.nr;
	if (sm_rules_load(&rules, rules_dir) < 0) {
		ret = cli_fail("steal");
		goto out;
	}
	o.rules = rules;
	if (sm_steal(&o, &r) < 0) {
		ret = cli_fail("steal");
		goto out;
	}
	if (json) {
		struct cli_json j;

		sm_steal_result_json(&r, cli_json_begin(&j));
		cli_json_end(&j);
	} else {
		printf("created %s at %.12s: %zu of %zu candidates picked onto %s (%.12s), %zu commits scanned\n",
		       o.branch, r.tip, r.nr_picked, r.nr, o.onto.name, r.base, r.nr_scanned);
		for (size_t i = 0; i < r.nr; i++) {
			const struct sm_steal_entry *e = &r.entries[i];

			if (e->reason)
				continue;
			printf("  picked   %.12s -> %.12s %s", e->upstream, e->stable, e->subject);
			if (e->with)
				printf(" (later fix of %.12s)", e->with);
			if (e->prereq_of)
				printf(" (prerequisite of %.12s)", e->prereq_of);
			if (e->needed_by)
				printf(" (needed by %.12s: found by the search)", e->needed_by);
			if (e->backport)
				printf(" (%s's backport %.12s)", e->backport_tree, e->backport);
			putchar('\n');
		}
		for (size_t i = 0; i < r.nr; i++) {
			const struct sm_steal_entry *e = &r.entries[i];

			if (!e->reason)
				continue;
			printf("  left out %.12s%s%s", e->upstream, *e->subject ? " " : "", e->subject);
			if (e->prereq_of)
				printf(" (prerequisite of %.12s)", e->prereq_of);
			if (e->needed_by)
				printf(" (needed by %.12s)", e->needed_by);
			printf(": %s\n", e->reason);
		}
	}
	sm_steal_result_release(&r);
	ret = 0;
out:
	sm_rules_free(rules);
	free(backport_trees);
	strlist_clear(&backport_args);
	return ret;
}
