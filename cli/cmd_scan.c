/* stablemate scan: classify a mainline range for each stable tree. */
#include "cli/cli.h"
#include "trees/scan.h"
#include "mail/series.h"
#include "trees/tree_state.h"
#include "rules/classify.h"
#include "lib/json.h"
#include "lib/util.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
"usage: stablemate scan --upstream REPO --range A..B --tree BRANCH[=VERSION]...\n"
"                       [--tree-repo PATH] [--check-applies] [--candidates]\n"
"                       [--rules DIR] [--cache-dir DIR | --no-cache] [--json]\n"
"                       [--upstream-ref REF | --no-upstream-ref] [--min-soak-days N]\n"
"                       [--queue DIR] [--cve-dir DIR] [--notmuch DB [--series-whole]]\n"
"\n"
"Classifies every commit of a mainline range and says, for each stable tree,\n"
"whether it is a candidate and why. On top of the classifier's reasons (stable\n"
"tag, Fixes:, keywords, size...) each tree gets:\n"
"  present          already in the tree (by the upstream id its commit names,\n"
"                   by patch-id, or by subject): rejected\n"
"  bug-in-tree      the Fixes: target's first release (the earliest vX.Y tag\n"
"                   containing it) is not newer than the tree\n"
"  bug-not-in-tree  the Fixes: target came after the tree's release and was not\n"
"                   backported: the tree never had the bug (rejected)\n"
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
"  queued           already in the --queue directory for that tree (rejected)\n"
"  cve              the fix of a CVE of --cve-dir, with the record's verdict\n"
"                   for the tree (still affected, fixed in X.Y.Z)\n"
"  series           with --notmuch: its posted series (part 3/7 of <cover>;\n"
"                   1/7 and 2/7 are not in the tree)\n"
"  series-part      with --series-whole: an earlier part the candidate needs\n"
"                   (the deps blame finds it), promoted to a candidate\n"
"\n"
"Options:\n"
"  --upstream REPO     the mainline repository (default: .)\n"
"  --range A..B        the commits to classify, e.g. v6.6..v6.7; merges in the\n"
"                      range are listed and rejected as merges\n"
"  --tree BRANCH[=VER] a stable branch (repeatable); the kernel version comes\n"
"                      from the name (linux-6.1.y) unless given (=6.1). The\n"
"                      tree's history is indexed from its release tag (v6.1)\n"
"  --tree-repo PATH    the repository holding the --tree branches (default:\n"
"                      the upstream repository)\n"
"  --check-applies     try to cherry-pick each candidate onto each tree, in\n"
"                      memory (slower)\n"
"  --candidates        text output lists only commits that are a candidate\n"
"                      (or maybe) for some tree\n"
"  --rules DIR         the classifier's rules directory\n"
"  --cache-dir DIR     where the upstream indexes are cached (default:\n"
"                      $XDG_CACHE_HOME/stablemate); --no-cache: none\n"
"  --json              print the whole result as JSON\n"
"  --upstream-ref REF  look past the range up to REF for reverts and later\n"
"                      fixes (default: the branch HEAD of --upstream is on);\n"
"                      read once into an index cached like the tree indexes\n"
"  --no-upstream-ref   do not look past the range\n"
"  --min-soak-days N   hold back (maybe) commits in mainline for less than N\n"
"                      days (default 0)\n"
"  --queue DIR         a stable-queue checkout (queue-6.1/series and patches)\n"
"  --cve-dir DIR       the kernel CVE records (DIR/cve/published/YYYY/*.json)\n"
"  --notmuch DB        find each candidate's patch mail and series in this\n"
"                      notmuch database (mapped against --upstream-ref)\n"
"  --series-whole      promote the missing earlier parts a candidate needs\n"
"\n"
"Exit status: 0 on success, 1 on an error (unknown revision, shallow\n"
"repository...), 2 on a usage error.\n"
"\n"
"Example:\n"
"  stablemate scan --upstream ~/linux --range v6.6..v6.7 --tree linux-6.1.y --tree linux-6.6.y\n";

/* A number of days, 0 to 3650. */
static int parse_days(const char *s, int *out)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (!*s || *end || n < 0 || n > 3650)
		return -1;
	*out = (int)n;
	return 0;
}

static int tree_reason(const char *code)
{
	static const char *const life[] = { "reverted", "revert-undone", "fixed-later", "soak",
					    "soak-met", "queued", "cve", "revert-of-absent",
					    "series", "series-part" };

	for (size_t i = 0; i < ARRAY_SIZE(life); i++)
		if (!strcmp(code, life[i]))
			return 1;
	return !strcmp(code, "present") || starts_with(code, "bug-") ||
	       !strcmp(code, "fix-for-fix") || starts_with(code, "prereq");
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
	printf("scan %s in %s: %zu commits, %zu candidates for at least one tree\n",
	       o->range, o->upstream, r->nr, nr_cand);
	for (size_t t = 0; t < o->nr_trees; t++)
		printf("  tree %s (%d.%d): index %s\n", o->trees[t].name, o->trees[t].version.major,
		       o->trees[t].version.minor, r->tree_cache_state[t]);
	if (r->lifecycle_ref)
		printf("  upstream %s: index %s, %zu commits from the range start\n",
		       r->lifecycle_ref, r->lifecycle_cache, r->lifecycle_nr);
	if (o->queue_dir)
		printf("  queue %s: %zu patches\n", o->queue_dir, r->nr_queued);
	if (o->cve_dir)
		printf("  cve %s: %zu records with a fixing commit\n", o->cve_dir, r->nr_cves);
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
		printf("    any tree: %s\n", strbuf_str(&sb));
		if (it->fixes_target)
			printf("    fixes: %.12s (first released in %s)\n", it->fixes_target,
			       it->fixes_first_release ? it->fixes_first_release : "no release");
		for (size_t t = 0; t < o->nr_trees; t++) {
			const struct sm_scan_tree_result *tr = &it->trees[t];

			strbuf_reset(&sb);
			sm_verdict_summary(&tr->verdict, &sb);
			printf("    %s: %s\n", o->trees[t].name, strbuf_str(&sb));
			for (size_t k = 0; k < tr->verdict.nr_reasons; k++)
				if (tree_reason(tr->verdict.reasons[k].code))
					printf("        %s: %s\n", tr->verdict.reasons[k].code,
					       tr->verdict.reasons[k].text);
			if (tr->applies >= 0)
				printf("        applies: %s\n", tr->applies ? "cleanly" : "no (conflict)");
		}
	}
	strbuf_release(&sb);
}

int cmd_scan(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "upstream", required_argument, NULL, 'u' },
		{ "range", required_argument, NULL, 'r' },
		{ "tree", required_argument, NULL, 't' },
		{ "tree-repo", required_argument, NULL, 'R' },
		{ "check-applies", no_argument, NULL, 'a' },
		{ "candidates", no_argument, NULL, 'c' },
		{ "rules", required_argument, NULL, 'L' },
		{ "cache-dir", required_argument, NULL, 'D' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'j' },
		{ "upstream-ref", required_argument, NULL, 'U' },
		{ "no-upstream-ref", no_argument, NULL, 'X' },
		{ "min-soak-days", required_argument, NULL, 'S' },
		{ "queue", required_argument, NULL, 'Q' },
		{ "cve-dir", required_argument, NULL, 'C' },
		{ "notmuch", required_argument, NULL, 'M' },
		{ "series-whole", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sm_scan_opts o;
	struct sm_scan_result r;
	struct sm_tree_spec *trees = NULL;
	char **tree_args = NULL;
	size_t nr_tree_args = 0;
	const char *tree_repo = NULL, *rules_dir = NULL;
	struct sm_rules *rules = NULL;
	int json = 0, candidates = 0, c, ret;
	struct sm_series_opts series = { NULL, NULL, 0 };
	struct sm_series_stats sst = { 0, 0, 0 };

	if (cli_wants_help(argc, argv))
		cli_help(usage);
	memset(&o, 0, sizeof(o));
	o.upstream = ".";
	tree_args = xcalloc(argc + 1, sizeof(*tree_args));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'u': o.upstream = optarg; break;
		case 'r': o.range = optarg; break;
		case 't': tree_args[nr_tree_args++] = optarg; break;
		case 'R': tree_repo = optarg; break;
		case 'a': o.check_applies = 1; break;
		case 'c': candidates = 1; break;
		case 'L': rules_dir = optarg; break;
		case 'D': o.cache_dir = optarg; break;
		case 'N': o.cache_dir = ""; break;
		case 'j': json = 1; break;
		case 'U': o.upstream_ref = optarg; break;
		case 'X': o.upstream_ref = ""; break;
		case 'S':
			if (parse_days(optarg, &o.min_soak_days) < 0) {
				free(tree_args);
				return cli_usage_error("scan", "--min-soak-days: '%s' is not a number of days", optarg);
			}
			break;
		case 'Q': o.queue_dir = optarg; break;
		case 'C': o.cve_dir = optarg; break;
		case 'M': series.db_path = optarg; break;
		case 'W': series.whole = 1; break;
		default:
			free(tree_args);
			return cli_usage_error("scan", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		free(tree_args);
		return cli_usage_error("scan", "unexpected argument '%s'", argv[optind]);
	}
	if (series.whole && !series.db_path) {
		free(tree_args);
		return cli_usage_error("scan", "--series-whole needs --notmuch DB");
	}
	if (!o.range || !nr_tree_args) {
		free(tree_args);
		return cli_usage_error("scan", "--range and at least one --tree are required");
	}
	trees = xcalloc(nr_tree_args, sizeof(*trees));
	for (size_t i = 0; i < nr_tree_args; i++)
		if (sm_tree_spec_parse(&trees[i], tree_args[i], tree_repo) < 0) {
			free(trees);
			free(tree_args);
			return cli_usage_error("scan", "%s", sm_last_error());
		}
	o.trees = trees;
	o.nr_trees = nr_tree_args;
	if (sm_rules_load(&rules, rules_dir) < 0) {
		free(trees);
		free(tree_args);
		return cli_fail("scan");
	}
	o.rules = rules;
	ret = sm_scan(&o, &r);
	series.upstream_ref = o.upstream_ref && *o.upstream_ref ? o.upstream_ref : r.lifecycle_ref;
	if (ret == 0 && series.db_path && sm_series_annotate(&series, &o, &r, &sst) < 0) {
		sm_scan_result_release(&r);
		ret = -1;
	}
	if (ret < 0) {
		ret = cli_fail("scan");
	} else {
		if (json) {
			struct strbuf sb = STRBUF_INIT;
			struct json_writer w;

			json_init(&w, &sb);
			sm_scan_result_json(&r, &o, &w);
			fwrite(sb.buf, 1, sb.len, stdout);
			fputc('\n', stdout);
			strbuf_release(&sb);
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
	free(tree_args);
	return ret;
}
