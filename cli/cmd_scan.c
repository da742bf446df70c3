/* stablemate scan: classify a mainline range for each stable tree. */
#include "cli/cli.h"
#include "cli/output.h"
#include "lib/progress.h"
#include "trees/scan.h"
#include "gitnotes/notes.h"
#include "mail/series.h"
#include "trees/tree_state.h"
#include "rules/classify.h"
#include "lib/json.h"
#include "lib/strlist.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate scan [-C REPO] --range A..B --tree BRANCH[=VERSION]...\n"
		    "                [--tree-repo PATH] [--check-applies [--search N]] [--candidates]\n"
		    "                [--rules DIR] [--cache-dir DIR | --no-cache] [--json]\n"
		    "                [--upstream-ref REF | --no-upstream-ref] [--min-soak-days N]\n"
		    "                [--queue DIR] [--cve-dir DIR] [--notes-ref REF]\n"
		    "                [--notmuch DB [--series-whole]]",
	.description =
"Classifies every commit of a mainline range and says, for each stable tree,\n"
"whether it is a candidate and why. On top of the classifier's reasons (stable\n"
"tag, Fixes:, keywords, size...) each tree gets:\n"
"  present          already in the tree (by the upstream id its commit names,\n"
"                   by patch-id, or by subject): rejected\n"
"  bug-in-tree      the Fixes: target's first release (the earliest vX.Y tag\n"
"                   containing it) is not newer than the tree\n"
"  bug-not-in-tree  the Fixes: target came after the tree's release and was not\n"
"                   backported: the tree never had the bug (rejected)\n"
"  file-not-in-tree the tree has none of the files it changes, and none of\n"
"                   them can be one mainline moved: the code came later (rejected)\n"
"  fix-for-fix      the Fixes: target was backported into the tree, so the fix\n"
"                   is needed there even without a stable tag\n"
"  prereq           a prerequisite named in the stable tag (# 4.9.x: a1f84a3:\n"
"                   subject) that the tree lacks\n"
"  reverted         a later upstream commit reverts it (rejected); a revert\n"
"                   that was itself reverted does not count (revert-undone)\n"
"  fixed-later      later upstream commits whose Fixes: name it (recursively):\n"
"                   \"take together: <id> <subject>; ...\" (those the tree lacks)\n"
"  soak             a \"# after -rc3\" / \"# after 2 weeks\" condition not met yet,\n"
"                   or younger than --min-soak-days: a candidate becomes maybe\n"
"  revert-of-absent a revert of a commit the tree does not have (rejected)\n"
"  revert-of-backport a revert of a commit the tree took as a backport:\n"
"                   a candidate (mainline dropped the change)\n"
"  queued           already in the --queue directory for that tree, or the\n"
"                   stable queue's latest notice in the review notes says it\n"
"                   was added to the tree's queue (rejected)\n"
"  queue-failed     that notice says FAILED to apply: a backport is needed\n"
"  nak              the review notes (--notes-ref) hold a NAK for the tree's\n"
"                   version that its sender did not take back (rejected)\n"
"  cve              the fix of a CVE of --cve-dir, with the record's verdict\n"
"                   for the tree (still affected, fixed in X.Y.Z)\n"
"  series           with --notmuch: its posted series (part 3/7 of <cover>;\n"
"                   1/7 and 2/7 are not in the tree)\n"
"  series-part      with --series-whole: an earlier part the candidate needs\n"
"                   (the deps blame finds it), promoted to a candidate\n",
	.epilog =
"Exit status: 0 on success, 1 on an error (unknown revision, shallow\n"
"repository...), 2 on a usage error.\n"
"\n"
"Example:\n"
"  stablemate scan -C ~/linux --range v6.6..v6.7 --tree linux-6.1.y --tree linux-6.6.y\n",
};

static int tree_reason(const char *code)
{
	static const char *const life[] = { "reverted", "revert-undone", "fixed-later", "soak",
					    "soak-met", "queued", "cve", "revert-of-absent", "nak",
					    "revert-of-backport",
					    "queue-failed", "review-note",
					    "series", "series-part" };

	for (size_t i = 0; i < ARRAY_SIZE(life); i++)
		if (!strcmp(code, life[i]))
			return 1;
	return !strcmp(code, "present") || starts_with(code, "bug-") ||
	       !strcmp(code, "fix-for-fix") || starts_with(code, "prereq") ||
	       !strcmp(code, "file-not-in-tree");
}

static void print_text(const struct sm_scan_result *r, const struct sm_scan_opts *o,
		       int candidates_only)
{
	struct strbuf sb = STRBUF_INIT;
	size_t nr_cand = 0;

	for (size_t i = 0; i < r->nr; i++)
		for (size_t t = 0; t < o->nr_trees; t++)
			if (r->items[i].trees[t].verdict.kind == SM_CANDIDATE) {
				nr_cand++;
				break;
			}
	printf("scan %s in %s: %zu commit%s, %zu candidate%s for at least one tree\n", o->range,
	       o->upstream, r->nr, r->nr == 1 ? "" : "s", nr_cand, nr_cand == 1 ? "" : "s");
	for (size_t t = 0; t < o->nr_trees; t++) {
		const struct sm_version *v = &o->trees[t].version;
		const struct sm_scan_tree_info *ti = &r->tree_info[t];

		/* the branch read, when not the name given ("6.1", a fresh clone's) */
		int other = ti->branch && strcmp(ti->branch, o->trees[t].name);

		strbuf_reset(&sb);
		sm_tree_caveats(v, ti->base != NULL, ti->behind, ti->upstream, &sb);
		if (ti->trial_error)
			strbuf_addf(&sb, "%sapplies not checked: %s", sb.len ? "; " : "",
				    ti->trial_error);
		printf("  tree %s (%d.%d%s%s): index %s%s%s\n", o->trees[t].name, v->major,
		       v->minor, other ? ", branch " : "", other ? ti->branch : "",
		       r->tree_cache_state[t], sb.len ? "; " : "", sb.buf);
	}
	if (r->lifecycle_ref)
		printf("  upstream %s: index %s, %zu commit%s from the range start%s%s%s\n",
		       r->lifecycle_ref, r->lifecycle_cache, r->lifecycle_nr,
		       r->lifecycle_nr == 1 ? "" : "s",
		       r->lifecycle_note ? " (" : "", r->lifecycle_note ? r->lifecycle_note : "",
		       r->lifecycle_note ? ")" : "");
	if (r->diff_cache)
		printf("  diff cache %s: %zu of %zu commit%s diffs read from it\n", r->diff_cache,
		       r->diff_cache_hits, r->nr, r->nr == 1 ? "'s" : "s'");
	if (r->release_map_cache)
		printf("  release map %s\n", r->release_map_cache);
	if (o->queue_dir)
		printf("  queue %s: %zu patches\n", o->queue_dir, r->nr_queued);
	if (o->cve_dir)
		printf("  cve %s: %zu records with a fixing commit\n", o->cve_dir, r->nr_cves);
	if (r->nr_review_notes)
		printf("  review notes %s: %zu commit%s with a note\n", r->review_notes_ref,
		       r->nr_review_notes, r->nr_review_notes == 1 ? "" : "s");
	for (size_t i = 0; i < r->nr; i++) {
		const struct sm_scan_item *it = &r->items[i];
		int show = !candidates_only;

		for (size_t t = 0; t < o->nr_trees && !show; t++)
			show = it->trees[t].verdict.kind != SM_REJECT;
		if (!show)
			continue;
		printf("\n%.12s %s\n", it->id, it->commit.subject ? it->commit.subject : "");
		strbuf_reset(&sb);
		sm_verdict_summary(&it->verdict, &sb);
		printf("    any tree: %s\n", sb.buf);
		if (it->fixes_target)
			printf("    fixes: %.12s (first released in %s)\n", it->fixes_target,
			       it->fixes_first_release ? it->fixes_first_release : "no release");
		for (size_t t = 0; t < o->nr_trees; t++) {
			const struct sm_scan_tree_result *tr = &it->trees[t];

			strbuf_reset(&sb);
			sm_verdict_summary(&tr->verdict, &sb);
			printf("    %s: %s\n", o->trees[t].name, sb.buf);
			for (size_t k = 0; k < tr->verdict.nr_reasons; k++)
				if (tree_reason(tr->verdict.reasons[k].code))
					printf("        %s: %s\n", tr->verdict.reasons[k].code,
					       tr->verdict.reasons[k].text);
			if (tr->applies_after_deps == 1 || tr->search == 1) {
				strbuf_reset(&sb);
				sm_scan_after_deps_text(tr, &sb);
				sm_scan_search_text(tr, &sb);
				printf("        applies: cleanly%s (alone: conflict)\n", sb.buf);
			} else if (tr->applies >= 0 && !tr->present) {
				printf("        applies: %s\n", tr->applies ? "cleanly" : "no (conflict)");
			}
			if (tr->search == 0 && tr->search_considered == 1)
				printf("        search: the one commit to the files in conflict that the "
				       "tree lacks does not help\n");
			else if (tr->search == 0 && tr->search_considered)
				printf("        search: none of the %zu commits to the files in conflict "
				       "that the tree lacks helps\n", tr->search_considered);
			else if (tr->search == 0)
				printf("        search: no commit to the files in conflict is missing: "
				       "the conflict is with the tree's own changes\n");
			if (tr->backport_applies) {
				strbuf_reset(&sb);
				sm_scan_backport_text(tr, "applies cleanly", &sb);
				printf("        %s\n", sb.buf);
			}
		}
	}
	strbuf_release(&sb);
}

int cmd_scan(int argc, char **argv)
{
	struct sm_scan_opts o;
	struct sm_scan_result r;
	struct sm_tree_spec *trees = NULL;
	struct strlist tree_args = STRLIST_INIT;
	const char *tree_repo = NULL, *rules_dir = NULL;
	struct sm_rules *rules = NULL;
	int json = 0, candidates = 0, ret;
	struct sm_series_opts series = { NULL, NULL, 0 };
	struct sm_series_stats sst = { 0, 0, 0 };
	size_t nr_tree_args;
	const struct sm_option options[] = {
		OPT_REPO(&o.upstream, "the mainline repository (default: .)"),
		OPT_STRING(0, "range", &o.range, "A..B",
			   "the commits to classify, e.g. v6.6..v6.7; merges in\n"
			   "the range are listed and rejected as merges"),
		OPT_STRING_LIST(0, "tree", &tree_args, "BRANCH[=VER]",
				"a stable branch (repeatable); the kernel version\n"
				"comes from the name (linux-6.1.y) unless given\n"
				"(=6.1); a version alone (6.1) is linux-6.1.y.\n"
				"The tree's history is indexed from its release\n"
				"tag (v6.1)"),
		OPT_STRING(0, "tree-repo", &tree_repo, "PATH",
			   "the repository holding the --tree branches\n"
			   "(default: the upstream repository)"),
		OPT_BOOL(0, "check-applies", &o.check_applies,
			 "try to cherry-pick each candidate onto each tree,\n"
			 "in memory (slower); one that conflicts, after the\n"
			 "prerequisites its stable tags name, then another\n"
			 "tree's backport"),
		OPT_UINT(0, "search", &o.search, "N",
			 "with --check-applies: for one that still conflicts,\n"
			 "try up to N commits to the files in conflict that the\n"
			 "tree lacks, as deps does (default 0: no search)"),
		OPT_BOOL(0, "candidates", &candidates,
			 "text output lists only commits that are a\n"
			 "candidate (or maybe) for some tree"),
		OPT_STRING(0, "rules", &rules_dir, "DIR", "the classifier's rules directory"),
		OPT_CACHE_DIR(&o.cache_dir),
		OPT_JSON(&json),
		OPT_UPSTREAM_REF(&o.upstream_ref,
				 "look past the range up to REF for reverts and later\n"
				 "fixes (default: the branch HEAD of -C is on when it\n"
				 "holds the range's end, else master or main); read\n"
				 "once into an index cached like the tree indexes",
				 "do not look past the range"),
		OPT_DAYS("min-soak-days", &o.min_soak_days,
			 "hold back (maybe) commits in mainline for less than N\n"
			 "days (default 0)"),
		OPT_STRING(0, "queue", &o.queue_dir, "DIR",
			   "a stable-queue checkout (queue-6.1/series and patches)"),
		OPT_STRING(0, "cve-dir", &o.cve_dir, "DIR",
			   "the kernel CVE records (DIR/cve/published/YYYY/*.json)"),
		OPT_STRING(0, "notes-ref", &o.notes_ref, "REF",
			   "the review notes harvest writes: a NAK for a tree's\n"
			   "version vetoes the commit there, the stable queue's\n"
			   "notices are reasons (default " SM_NOTES_REF_DEFAULT ";\n"
			   "\"\": none read)"),
		OPT_STRING(0, "notmuch", &series.db_path, "DB",
			   "find each candidate's patch mail and series in this\n"
			   "notmuch database (mapped against --upstream-ref)"),
		OPT_BOOL(0, "series-whole", &series.whole,
			 "promote the missing earlier parts a candidate needs"),
		OPT_QUIET(NULL),
		OPT_END()
	};

	memset(&o, 0, sizeof(o));
	o.upstream = ".";
	argc = cli_parse_options("scan", argc, argv, options, &usage, 0);
	if (argc > 0) {
		strlist_clear(&tree_args);
		return cli_usage_error("scan", "unexpected argument '%s'", argv[0]);
	}
	nr_tree_args = tree_args.nr;
	if (series.whole && !series.db_path) {
		strlist_clear(&tree_args);
		return cli_usage_error("scan", "--series-whole needs --notmuch DB");
	}
	if (o.search && !o.check_applies) {
		strlist_clear(&tree_args);
		return cli_usage_error("scan", "--search needs --check-applies");
	}
	if (!o.range || !nr_tree_args) {
		strlist_clear(&tree_args);
		return cli_usage_error("scan", "--range and at least one --tree are required");
	}
	trees = xcalloc(nr_tree_args, sizeof(*trees));
	for (size_t i = 0; i < nr_tree_args; i++)
		if (sm_tree_spec_parse(&trees[i], tree_args.items[i], tree_repo) < 0) {
			free(trees);
			strlist_clear(&tree_args);
			return cli_usage_error("scan", "%s", sm_last_error());
		}
	o.trees = trees;
	o.nr_trees = nr_tree_args;
	if (sm_rules_load(&rules, rules_dir) < 0) {
		free(trees);
		strlist_clear(&tree_args);
		return cli_fail("scan");
	}
	o.rules = rules;
	o.forget_bodies = 1;	/* the reports print subjects, never bodies */
	o.progress = sm_progress_start("Scanning", 0);
	ret = sm_scan(&o, &r);
	if (ret < 0)
		sm_progress_abort(&o.progress);
	sm_progress_stop(&o.progress);
	series.upstream_ref = o.upstream_ref && *o.upstream_ref ? o.upstream_ref : r.lifecycle_ref;
	if (ret == 0 && series.db_path && sm_series_annotate(&series, &o, &r, &sst) < 0) {
		sm_scan_result_release(&r);
		ret = -1;
	}
	if (ret < 0) {
		ret = cli_fail("scan");
	} else {
		if (json) {
			struct cli_json j;

			sm_scan_result_json(&r, &o, cli_json_begin_streamed(&j));
			cli_json_end(&j);
		} else {
			print_text(&r, &o, candidates);
			if (series.db_path)
				printf("\nseries in %s: %zu candidates looked up, %zu in a posted series, %zu parts promoted\n",
				       series.db_path, sst.looked_up, sst.found, sst.promoted);
		}
		sm_scan_result_release(&r);
	}
	sm_rules_free(rules);
	free(trees);
	strlist_clear(&tree_args);
	return ret;
}
