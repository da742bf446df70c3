/* stablemate steal: cherry-pick a range's candidates onto a new branch. */
#include "cli/cli.h"
#include "trees/steal.h"
#include "trees/tree_state.h"
#include "rules/classify.h"
#include "lib/json.h"
#include "lib/util.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
"usage: stablemate steal --upstream REPO --range A..B --onto BRANCH[=VER] --branch NEW\n"
"                        [--signoff 'Name <email>'] [--include-maybe] [--rules DIR]\n"
"                        [--cache-dir DIR | --no-cache] [--json]\n"
"                        [--upstream-ref REF | --no-upstream-ref] [--min-soak-days N]\n"
"                        [--queue DIR]\n"
"\n"
"Scans the range like 'stablemate scan' for the tree BRANCH and creates the\n"
"branch NEW at BRANCH's tip with every candidate cherry-picked in upstream\n"
"order. Each picked commit keeps its author; its message gets the stable-style\n"
"\"commit <sha> upstream.\" line under the subject and a Signed-off-by of the\n"
"committer. A candidate that does not apply (conflict), or whose change is\n"
"already in the tree, is left out and listed with the reason; the rest still\n"
"go in. A candidate's later upstream fixes (commits whose Fixes: name it, up\n"
"to --upstream-ref) that the tree lacks are picked right after it. A candidate\n"
"that was reverted upstream, or is in the --queue directory, is not picked.\n"
"The cherry-picks are done in memory: the work tree, the index and\n"
"HEAD are never touched, and BRANCH does not move.\n"
"\n"
"Options:\n"
"  --upstream REPO     the repository holding the range and the tree (default: .)\n"
"  --range A..B        the upstream commits to consider\n"
"  --onto BRANCH[=VER] the stable tree to start from (version from its name)\n"
"  --branch NEW        the branch to create; it must not exist\n"
"  --signoff IDENT     committer and Signed-off-by (default: the repository's\n"
"                      user.name and user.email)\n"
"  --include-maybe     also pick commits the classifier rates \"maybe\"\n"
"  --rules DIR         the classifier's rules directory\n"
"  --cache-dir DIR     index cache directory; --no-cache: none\n"
"  --json              print the result as JSON\n"
"  --upstream-ref REF  where to look for reverts and later fixes (default: the\n"
"                      branch HEAD is on); --no-upstream-ref: nowhere\n"
"  --min-soak-days N   leave out commits in mainline for less than N days\n"
"  --queue DIR         a stable-queue checkout: leave out what is queued\n"
"\n"
"Exit status: 0 when NEW was created (even if some candidates were left out),\n"
"1 on an error (nothing created), 2 on a usage error.\n"
"\n"
"Example:\n"
"  stablemate steal --upstream ~/linux --range v6.6..v6.7 --onto linux-6.1.y --branch 6.1-queue\n";

int cmd_steal(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "upstream", required_argument, NULL, 'u' },
		{ "repo", required_argument, NULL, 'u' },
		{ "range", required_argument, NULL, 'r' },
		{ "onto", required_argument, NULL, 'o' },
		{ "branch", required_argument, NULL, 'b' },
		{ "signoff", required_argument, NULL, 's' },
		{ "include-maybe", no_argument, NULL, 'm' },
		{ "rules", required_argument, NULL, 'L' },
		{ "cache-dir", required_argument, NULL, 'D' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'j' },
		{ "upstream-ref", required_argument, NULL, 'U' },
		{ "no-upstream-ref", no_argument, NULL, 'X' },
		{ "min-soak-days", required_argument, NULL, 'S' },
		{ "queue", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sm_steal_opts o;
	struct sm_steal_result r;
	struct sm_rules *rules = NULL;
	char *onto = NULL;
	const char *rules_dir = NULL;
	int json = 0, c;

	if (cli_wants_help(argc, argv))
		cli_help(usage);
	memset(&o, 0, sizeof(o));
	o.repo = ".";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'u': o.repo = optarg; break;
		case 'r': o.range = optarg; break;
		case 'o': onto = optarg; break;
		case 'b': o.branch = optarg; break;
		case 's': o.signoff = optarg; break;
		case 'm': o.include_maybe = 1; break;
		case 'L': rules_dir = optarg; break;
		case 'D': o.cache_dir = optarg; break;
		case 'N': o.cache_dir = ""; break;
		case 'j': json = 1; break;
		case 'U': o.upstream_ref = optarg; break;
		case 'X': o.upstream_ref = ""; break;
		case 'S': {
			char *end;
			long n = strtol(optarg, &end, 10);

			if (!*optarg || *end || n < 0 || n > 3650)
				return cli_usage_error("steal", "--min-soak-days: '%s' is not a number of days",
						       optarg);
			o.min_soak_days = (int)n;
			break;
		}
		case 'Q': o.queue_dir = optarg; break;
		default:
			return cli_usage_error("steal", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("steal", "unexpected argument '%s'", argv[optind]);
	if (!o.range || !onto || !o.branch)
		return cli_usage_error("steal", "--range, --onto and --branch are required");
	if (sm_tree_spec_parse(&o.onto, onto, NULL) < 0)
		return cli_usage_error("steal", "%s", sm_last_error());
	if (sm_rules_load(&rules, rules_dir) < 0)
		return cli_fail("steal");
	o.rules = rules;
	if (sm_steal(&o, &r) < 0) {
		sm_rules_free(rules);
		return cli_fail("steal");
	}
	if (json) {
		struct strbuf sb = STRBUF_INIT;
		struct json_writer w;

		json_init(&w, &sb);
		json_object_begin(&w, NULL);
		json_string(&w, "branch", r.refname);
		json_string(&w, "base", r.base);
		json_string(&w, "tip", r.tip);
		json_int(&w, "scanned", (long long)r.nr_scanned);
		json_int(&w, "picked", (long long)r.nr_picked);
		json_array_begin(&w, "commits");
		for (size_t i = 0; i < r.nr; i++) {
			json_object_begin(&w, NULL);
			json_string(&w, "upstream", r.entries[i].upstream);
			json_string(&w, "subject", r.entries[i].subject);
			if (r.entries[i].reason) {
				json_null(&w, "stable");
				json_string(&w, "left_out", r.entries[i].reason);
			} else {
				json_string(&w, "stable", r.entries[i].stable);
				json_null(&w, "left_out");
			}
			if (r.entries[i].with)
				json_string(&w, "with", r.entries[i].with);
			else
				json_null(&w, "with");
			json_object_end(&w);
		}
		json_array_end(&w);
		json_object_end(&w);
		fwrite(sb.buf, 1, sb.len, stdout);
		fputc('\n', stdout);
		strbuf_release(&sb);
	} else {
		printf("created %s at %.12s: %zu of %zu candidates picked onto %s (%.12s), %zu commits scanned\n",
		       o.branch, r.tip, r.nr_picked, r.nr, o.onto.name, r.base, r.nr_scanned);
		for (size_t i = 0; i < r.nr; i++)
			if (!r.entries[i].reason)
				printf("  picked   %.12s -> %.12s %s%s%.12s%s\n", r.entries[i].upstream,
				       r.entries[i].stable, r.entries[i].subject,
				       r.entries[i].with ? " (later fix of " : "",
				       r.entries[i].with ? r.entries[i].with : "",
				       r.entries[i].with ? ")" : "");
		for (size_t i = 0; i < r.nr; i++)
			if (r.entries[i].reason)
				printf("  left out %.12s %s: %s\n", r.entries[i].upstream,
				       r.entries[i].subject, r.entries[i].reason);
	}
	sm_steal_result_release(&r);
	sm_rules_free(rules);
	return 0;
}
