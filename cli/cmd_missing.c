/* stablemate missing: upstream commits in one stable tree and not the other. */
#include "cli/cli.h"
#include "cli/output.h"
#include "trees/missing.h"
#include "trees/repo.h"
#include "trees/tree_state.h"
#include "trees/tree_reviews.h"
#include "lib/progress.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate missing [-C REPO] [--cache-dir DIR | --no-cache] [--check-applies]\n"
		    "                   [--since-release] [--all] [--json] TREE_A[=VERSION] TREE_B[=VERSION]",
	.description =
"Lists the upstream commits that one stable branch carries and the other does\n"
"not, both ways, since the two branches' merge base (e.g. Greg's linux-6.1.y\n"
"against mine). Each commit stands for the upstream id its message names\n"
"(\"commit <sha> upstream.\", \"[ Upstream commit <sha> ]\", \"(cherry picked\n"
"from commit <sha>)\", \"upstream commit <sha>\"), or for itself when it names\n"
"none; it is looked up on the other side by that id, then by patch-id (as\n"
"git patch-id --stable), then by subject. Merges and release commits\n"
"(\"Linux 6.1.5\") are left out, and so is a commit a branch took and then\n"
"reverted, with its revert: those are listed apart, \"taken and reverted\".\n"
"A commit a branch took only as the prerequisite of another (its\n"
"\"Stable-dep-of: <id>\" trailer) is listed apart too when the other branch\n"
"has that one without it; when it lacks that one too, the line says so.\n"
"A commit the other branch does not need is listed apart too, \"not needed\",\n"
"with the reason: every Fixes: target came after the merge base and the\n"
"other branch has no backport of it (bug-not-in-tree), or the other branch\n"
"has none of the files it changes (file-not-in-tree); --all lists them as\n"
"missing. A fix of a commit the other branch lacks too says so.\n"
"With --since-release each branch is read from its own release tag instead\n"
"(v6.6 for linux-6.6.y, or TREE=VERSION): what 6.6.y took since v6.6 that\n"
"6.1.y did not take since v6.1, nor has from mainline. Both branches' indexes\n"
"are cached, keyed by\n"
"their tips, so a rerun only reads new commits.\n"
"A commit one side lacks carries a NAK that stands for that side's version\n"
"and the stable queue's latest notice about it (\"could not apply it\",\n"
"\"queued\"), when the review notes (--notes-ref) hold them: harvest\n"
"records them.\n",
	.epilog =
"Output: one line per commit, \"<upstream id> <stable id on its side> <subject>\";\n"
"with --check-applies, \"[applies to TREE]\" or \"[conflicts on TREE]\" after it.\n"
"Exit status: 0 on success, 1 on an error, 2 on a usage error.\n"
"\n"
"Example:\n"
"  stablemate missing -C ~/linux-stable origin/linux-6.1.y linux-6.1.y\n"
"  stablemate missing -C ~/linux-stable --since-release linux-6.6.y linux-6.1.y\n",
};

/* " [applies to linux-6.1.y]", " [applies to linux-6.1.y after 1a2b3c4d5e6f]",
 * " [conflicts on linux-6.1.y]"; nothing when not tried */
static void print_trial(const struct sm_missing_entry *e, const char *other)
{
	if (e->applies < 0)
		return;
	if (e->change_there) {
		printf(" [in %s already: cherry-picked, it changes nothing]", other);
		return;
	}
	printf(" [%s %s", e->applies ? "applies to" : "conflicts on", other);
	for (size_t k = 0; k < e->after.nr; k++)
		printf("%s%.12s", k ? ", " : " after ", e->after.items[k]);
	putchar(']');
}

/* What the review notes harvest keeps (notes, listed once for both sides)
 * say of each commit one side has and other lacks, for other's version
 * (v, NULL: not known): a NAK that stands for it, and the stable queue's
 * latest notice, its date and its possible dependencies. */
static int read_review_notes(git_repository *repo, const struct sm_notes_index *notes,
			     struct sm_missing_side *side, const struct sm_version *v)
{
	if (!v)
		return 0;
	for (size_t i = 0; i < side->nr; i++) {
		struct sm_missing_entry *e = &side->only[i];
		struct sm_tree_reviews said;
		struct sm_note note;
		git_oid oid;
		int rc;

		if (git_oid_fromstr(&oid, e->upstream))
			continue;
		rc = sm_notes_index_read(notes, repo, &oid, &note);
		if (rc < 0) {
			sm_note_release(&note);
			return -1;
		}
		sm_tree_reviews_find(&note, v, &said);
		if (said.nak) {
			struct strbuf sb = STRBUF_INIT;

			sm_tree_reviews_nak_text(said.nak, &sb);
			e->nak = strbuf_detach(&sb, NULL);
		}
		if (said.notice) {
			struct strlist ids = STRLIST_INIT;
			struct strbuf deps = STRBUF_INIT;

			e->queue_notice = !strcmp(said.notice->notice, SM_NOTICE_FAILED) ? SM_NOTICE_FAILED
											 : SM_NOTICE_QUEUED;
			e->queue_date = xstrdup(said.notice->date);
			sm_review_notice_dependencies(said.notice, &ids);
			for (size_t k = 0; k < ids.nr; k++)
				strbuf_addf(&deps, "%s%s", k ? ", " : "", ids.items[k]);
			e->queue_deps = strbuf_detach(&deps, NULL);
			strlist_clear(&ids);
		}
		sm_note_release(&note);
	}
	return 0;
}

/* " (NAKed for 6.1: Nacked-by: ...)", then " (the stable queue could not
 * apply it to 6.1 on DATE; possible dependencies: ...)" or " (queued for
 * 6.1 in the stable queue on DATE)" */
static void print_review_notes(const struct sm_missing_entry *e, const struct sm_version *v)
{
	char tree[32];

	if (!v)		/* no version known: no notes were read */
		return;
	sm_version_str(v, tree, sizeof(tree));
	if (e->nak)
		printf(" (NAKed for %s: %s)", tree, e->nak);
	if (!e->queue_notice)
		return;
	if (!strcmp(e->queue_notice, SM_NOTICE_FAILED))
		printf(" (the stable queue could not apply it to %s: %s%s%s)", tree, e->queue_date,
		       *e->queue_deps ? "; possible dependencies: " : "", e->queue_deps);
	else
		printf(" (queued for %s in the stable queue: %s)", tree, e->queue_date);
}

static void print_side(const struct sm_missing_side *s, const struct sm_missing_side *other,
		       const struct sm_version *other_version)
{
	size_t applies = 0, there = 0;

	for (size_t i = 0; i < s->nr; i++) {
		there += s->only[i].change_there;
		applies += s->only[i].applies == 1 && !s->only[i].change_there;
	}
	printf("in %s, not in %s: %zu of %zu", s->branch, other->branch, s->nr, s->total);
	if (s->nr && s->only[0].applies >= 0)
		printf("; %zu appl%s to %s", applies, applies == 1 ? "ies" : "y", other->branch);
	if (there)	/* the trial found their change there (print_trial) */
		printf("; %zu in %s already", there, other->branch);
	putchar('\n');
	for (size_t i = 0; i < s->nr; i++) {
		printf("  %.12s %.12s %s", s->only[i].upstream, s->only[i].stable, s->only[i].subject);
		if (s->only[i].revert[0])
			printf(" (%s took it and reverted it: %.12s)", other->branch, s->only[i].revert);
		if (s->only[i].dep_of[0])
			printf(" (Stable-dep-of %.12s, which %s lacks too)", s->only[i].dep_of,
			       other->branch);
		if (s->only[i].fix_of[0])
			printf(" (fixes %.12s, which %s lacks too)", s->only[i].fix_of, other->branch);
		print_trial(&s->only[i], other->branch);
		print_review_notes(&s->only[i], other_version);
		putchar('\n');
	}
	if (s->nr_reverted)
		printf("taken and reverted in %s, left out: %zu\n", s->branch, s->nr_reverted);
	for (size_t i = 0; i < s->nr_reverted; i++)
		printf("  %.12s %.12s %s (reverted by %.12s)\n", s->reverted[i].upstream,
		       s->reverted[i].stable, s->reverted[i].subject, s->reverted[i].revert);
	if (s->nr_dep_met)
		printf("taken in %s as prerequisites of commits %s has without them, left out: %zu\n",
		       s->branch, other->branch, s->nr_dep_met);
	for (size_t i = 0; i < s->nr_dep_met; i++)
		printf("  %.12s %.12s %s (Stable-dep-of %.12s, in %s as %.12s)\n",
		       s->dep_met[i].upstream, s->dep_met[i].stable, s->dep_met[i].subject,
		       s->dep_met[i].dep_of, other->branch, s->dep_met[i].dep_there);
	if (s->nr_not_needed)
		printf("not needed in %s, left out: %zu\n", other->branch, s->nr_not_needed);
	for (size_t i = 0; i < s->nr_not_needed; i++)
		printf("  %.12s %.12s %s (%s: %s)\n", s->not_needed[i].upstream,
		       s->not_needed[i].stable, s->not_needed[i].subject, s->not_needed[i].why_code,
		       s->not_needed[i].why);
}

int cmd_missing(int argc, char **argv)
{
	const char *path = ".", *cache_dir = NULL, *notes_ref_arg = NULL;
	char *notes_ref;
	struct sm_notes_index notes = SM_NOTES_INDEX_INIT;
	git_repository *repo = NULL;
	struct sm_missing_result r;
	struct sm_version versions[2], *version[2] = { NULL, NULL };
	struct sm_progress *progress;
	int json = 0, check_applies = 0, all = 0, since_release = 0, ret = 0;
	struct sm_tree_spec specs[2];
	struct sm_missing_opts mo = { 0 };
	const struct sm_option options[] = {
		OPT_REPO(&path, "the repository holding both branches (default: .)"),
		OPT_CACHE_DIR(&cache_dir),
		OPT_BOOL(0, "check-applies", &check_applies,
			 "try each commit one tree lacks onto the other's tip,\n"
			 "in memory (after its Stable-dep-of prerequisites\n"
			 "when it conflicts alone)"),
		OPT_BOOL(0, "since-release", &since_release,
			 "read each branch from its own release tag, not\n"
			 "the merge base: what each took since"),
		OPT_BOOL(0, "all", &all,
			 "list the commits the other tree does not need\n"
			 "(a bug or files it lacks) as missing too"),
		OPT_STRING(0, "notes-ref", &notes_ref_arg, "REF",
			   "the review notes to read NAKs and the stable queue's\nnotices from (default " SM_NOTES_REF_DEFAULT ")"),
		OPT_JSON(&json),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("missing", argc, argv, options, &usage, 0);
	if (argc != 2)
		return cli_usage_error("missing", "expected two branches, TREE_A and TREE_B");
	if (since_release) {
		for (int k = 0; k < 2; k++)
			if (sm_tree_spec_parse(&specs[k], argv[k], NULL) < 0)
				return cli_fail("missing");
		argv[0] = (char *)specs[0].branch;
		argv[1] = (char *)specs[1].branch;
		mo.since_a = &specs[0].version;
		mo.since_b = &specs[1].version;
		version[0] = &specs[0].version;
		version[1] = &specs[1].version;
	} else {
		/* the stable queue's notices name a tree by its version */
		for (int k = 0; k < 2; k++)
			if (sm_tree_version_from_name(argv[k], &versions[k]) == 0)
				version[k] = &versions[k];
	}
	if (sm_repo_open(&repo, path) < 0)
		return cli_fail("missing");
	progress = sm_progress_start("Indexing", 0);
	mo.cache_dir = cache_dir;
	mo.judge_needed = !all;
	mo.progress = progress;
	if (sm_missing_run(repo, argv[0], argv[1], &mo, &r) < 0) {
		sm_progress_abort(&progress);
		git_repository_free(repo);
		return cli_fail("missing");
	}
	sm_progress_stop(&progress);
	if (check_applies && sm_missing_try(repo, &r) < 0) {
		sm_missing_result_release(&r);
		git_repository_free(repo);
		return cli_fail("missing");
	}
	notes_ref = sm_notes_ref_full(notes_ref_arg ? notes_ref_arg : SM_NOTES_REF_DEFAULT);
	/* no version known on either side: no tree to read the notes for */
	if ((version[0] || version[1]) &&
	    (sm_notes_index_load(&notes, repo, notes_ref) < 0 ||
	     read_review_notes(repo, &notes, &r.a, version[1]) < 0 ||
	     read_review_notes(repo, &notes, &r.b, version[0]) < 0)) {
		free(notes_ref);
		sm_notes_index_release(&notes);
		sm_missing_result_release(&r);
		git_repository_free(repo);
		return cli_fail("missing");
	}
	free(notes_ref);
	sm_notes_index_release(&notes);
	if (json) {
		struct cli_json j;

		sm_missing_result_json(&r, cli_json_begin_streamed(&j));
		cli_json_end(&j);
	} else {
		const char *s = r.in_both == 1 ? "" : "s";

		if (r.a.since[0])
			printf("since their releases: %s from %s, %s from %s; %zu commit%s in both\n",
			       r.a.branch, r.a.since, r.b.branch, r.b.since, r.in_both, s);
		else
			printf("merge base %.12s; %zu commit%s in both\n",
			       r.base[0] ? r.base : "(none)", r.in_both, s);
		print_side(&r.a, &r.b, version[1]);
		print_side(&r.b, &r.a, version[0]);
	}
	sm_missing_result_release(&r);
	git_repository_free(repo);
	return ret;
}
