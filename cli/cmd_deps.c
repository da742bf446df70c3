/* stablemate deps: commits a fix needs before it applies to a tree. */
#include "cli/cli.h"
#include "cli/output.h"
#include "trees/deps_search.h"
#include "trees/tree_state.h"
#include "trees/repo.h"
#include "trees/tree_reviews.h"
#include "lib/json.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate deps [-C REPO] --tree BRANCH[=VER] [--depth N] [--search N]\n"
		    "                [--cache-dir DIR | --no-cache] [--json] FIX",
	.description =
"Lists the commits that must go into the tree before FIX applies: the lines\n"
"FIX changes (and, for pure additions, the lines around them) are blamed in\n"
"FIX's parent through libgit2, back to the tree's branch point (its release\n"
"tag, e.g. v6.1, else the merge base); every commit found that the tree does\n"
"not carry yet (by upstream id, or subject) is a dependency. They are listed\n"
"oldest first. \"new file\" marks a dependency that created a file FIX\n"
"changes, and files FIX changes that the tree lacks are listed: FIX then\n"
"belongs to a feature the tree does not have, added by the commit named. A\n"
"file mainline moved since is no missing feature: \"moved\" gives its name in\n"
"the tree and the commit that moved it. Dependencies of dependencies\n"
"are followed the same way, level by level (--depth; \"via\" marks a commit\n"
"only a dependency needs), up to 64 commits. The last line is a trial\n"
"cherry-pick in memory onto the tree: FIX after the list, and alone. When it\n"
"still conflicts, the newest commits (--search, default 16) to the files in\n"
"conflict that the tree lacks are tried in with the list, oldest first, and\n"
"the fewest of them that make FIX apply are named. When the stable queue's\n"
"FAILED notice for the tree is in FIX's review note (harvest keeps it), the\n"
"possible dependencies its script listed are named too, each marked when the\n"
"list has it or the tree took it, and those the tree lacks are tried in with\n"
"the list in one more trial.\n",
	.epilog =
"Exit status: 0 on success, 1 on an error, 2 on a usage error.\n"
"\n"
"Example:\n"
"  stablemate deps -C ~/linux --tree linux-6.1.y 1a2b3c4d5e6f\n",
};

static void print_trial(int applies, const struct strlist *conflicts)
{
	if (applies < 0) {
		printf("not tried");
		return;
	}
	if (applies) {
		printf("applies cleanly");
		return;
	}
	printf("conflict in %s", conflicts->nr ? conflicts->items[0] : "?");
	for (size_t k = 1; k < conflicts->nr; k++)
		printf(", %s", conflicts->items[k]);
}

/* The fix's files the tree lacks under their names: moved (there under
 * an older name, which the trial uses) or missing (the feature, and the
 * commit that added it when found). */
static void print_missing(const struct sm_deps_result *r, const char *tree)
{
	for (size_t k = 0; k < r->nr_origins; k++) {
		const struct sm_path_origin *o = &r->origins[k];

		if (o->tree_path)
			printf("  moved: %s is %s in %s (moved by %.12s %s)\n", o->path, o->tree_path,
			       tree, o->by, o->subject);
		else if (o->by[0])
			printf("  feature missing: %s does not exist in %s (added by %.12s %s)\n",
			       o->path, tree, o->by, o->subject);
		else
			printf("  feature missing: %s does not exist in %s\n", o->path, tree);
	}
	/* not placed (no branch point to walk from) */
	if (!r->nr_origins)
		for (size_t k = 0; k < r->missing_files.nr; k++)
			printf("  feature missing: %s does not exist in %s\n", r->missing_files.items[k],
			       tree);
}

/* "trial on linux-6.1.y: after these 2, applies cleanly; alone, conflict
 * in f.c": whether the list is enough, the question a maintainer asks next */
static void print_applies(const struct sm_deps_result *r, const char *tree)
{
	printf("trial on %s: ", tree);
	if (r->nr) {
		if (r->nr == 1)
			printf("after this one, ");
		else
			printf("after these %zu, ", r->nr);
		print_trial(r->applies_after, &r->conflicts_after);
		printf("; alone, ");
	}
	print_trial(r->applies_alone, &r->conflicts_alone);
	if (r->change_there)
		printf(", and changes nothing: its change is in %s already", tree);
	printf("\n");
}

/* What the search found beyond the list: the commits to name, or why none */
static void print_search(const struct sm_deps_result *r, const char *tree)
{
	const struct sm_deps_search *s = &r->search;

	if (!s->tried)
		return;
	if (!s->considered) {
		printf("  no other commit to the files in conflict since %s is missing from %s: "
		       "the conflict is with the tree's own changes\n", r->base_name, tree);
		return;
	}
	if (!s->applies) {
		printf("  still conflicts after the %zu%s commit%s to those files that %s lacks\n",
		       s->considered, s->more ? " newest" : "", s->considered == 1 ? "" : "s", tree);
		return;
	}
	printf("  applies cleanly after %zu more (of %zu%s commit%s to those files that %s lacks; "
	       "take them in with the list, oldest first):\n", s->nr, s->considered,
	       s->more ? " newest" : "", s->considered == 1 ? "" : "s", tree);
	for (size_t i = 0; i < s->nr; i++) {
		const struct sm_dep *d = &s->extra[i];

		printf("    %.12s %s (%s", d->id, d->subject, d->paths.items[0]);
		for (size_t k = 1; k < d->paths.nr; k++)
			printf(", %s", d->paths.items[k]);
		printf(")\n");
	}
}

/* The fix's review note: harvest records the stable queue's notices in
 * it, a FAILED one with the commits its script takes for possible
 * dependencies (is_queue_failure picks those for the tree). */
static int read_queue_notes(git_repository *repo, const char *notes_ref, const char *fix,
			    struct sm_note *n)
{
	git_oid oid;

	if (sm_resolve_commit(repo, fix, &oid) < 0)
		return -1;
	return sm_note_read(repo, notes_ref, &oid, n) < 0 ? -1 : 0;
}

static int is_queue_failure(const struct sm_review *rv, const struct sm_version *v)
{
	return sm_review_is_notice(rv) && !strcmp(rv->notice, SM_NOTICE_FAILED) &&
	       sm_review_tree_covers(rv->tree, v);
}

/* The possible dependencies of the tree's FAILED notices, each once: deps
 * settles them against the tree and tries them in. */
static void queue_dependencies(const struct sm_note *n, const struct sm_version *v,
			       struct strlist *ids)
{
	for (size_t i = 0; i < n->nr; i++) {
		struct strlist some = STRLIST_INIT;

		if (!is_queue_failure(&n->reviews[i], v))
			continue;
		sm_review_notice_dependencies(&n->reviews[i], &some);
		for (size_t k = 0; k < some.nr; k++)
			if (!strlist_contains(ids, some.items[k]))
				strlist_append(ids, some.items[k]);
		strlist_clear(&some);
	}
}

/* How the tree sees one of them: " (listed above)", " (in linux-6.1.y
 * already)", " (not in this repository)", or "" (the tree lacks it) */
static const char *outside_mark(const struct sm_deps_result *r, const char *id, const char *tree,
				char *buf, size_t size)
{
	for (size_t k = 0; k < r->nr_outside; k++) {
		if (strcmp(r->outside[k].as_written, id))
			continue;
		switch (r->outside[k].state) {
		case SM_OUTSIDE_LISTED:
			return " (listed above)";
		case SM_OUTSIDE_IN_TREE:
			snprintf(buf, size, " (in %s already)", tree);
			return buf;
		case SM_OUTSIDE_UNKNOWN:
			return " (not in this repository)";
		case SM_OUTSIDE_FIX:
			return " (the fix itself)";
		case SM_OUTSIDE_MERGE:
			return " (a merge)";
		case SM_OUTSIDE_NEEDED:
			return "";
		}
	}
	return "";
}

/* "trial on linux-6.1.y after the list and the stable queue's 1 it lacks
 * (d2a1e3b4c5f6): applies cleanly": was the script's list what was missing? */
static void print_outside_trial(const struct sm_deps_result *r, const char *tree)
{
	size_t needed = 0, shown = 0;

	if (r->applies_with_outside < 0)
		return;
	for (size_t k = 0; k < r->nr_outside; k++)
		needed += r->outside[k].state == SM_OUTSIDE_NEEDED;
	printf("trial on %s after %sthe stable queue's %zu it lacks (", tree,
	       r->nr ? "the list and " : "", needed);
	for (size_t k = 0; k < r->nr_outside; k++)
		if (r->outside[k].state == SM_OUTSIDE_NEEDED)
			printf("%s%.12s", shown++ ? ", " : "", r->outside[k].id);
	printf("): ");
	print_trial(r->applies_with_outside, &r->conflicts_with_outside);
	printf("\n");
}

/* A NAK that stands for the tree (trees/tree_reviews.h): a line, or, with
 * w, the JSON member nak (its text, or null). */
static void show_nak(const struct sm_note *n, const struct sm_tree_spec *tree,
		     struct json_writer *w)
{
	struct sm_tree_reviews said;
	struct strbuf sb = STRBUF_INIT;
	char ver[32];

	sm_tree_reviews_find(n, &tree->version, &said);
	if (said.nak)
		sm_tree_reviews_nak_text(said.nak, &sb);
	if (w)
		json_string(w, "nak", said.nak ? sb.buf : NULL);
	else if (said.nak)
		printf("NAKed for %s: %s (scan vetoes it for %s)\n",
		       sm_version_str(&tree->version, ver, sizeof(ver)), sb.buf, tree->name);
	strbuf_release(&sb);
}

/* The FAILED notices for the tree: a line each, or, with w, the JSON
 * array queue_failures (message_id, author, date, possible_dependencies). */
static void show_queue_notes(const struct sm_note *n, const struct sm_deps_result *r,
			     const struct sm_tree_spec *tree, struct json_writer *w)
{
	if (w)
		json_array_begin(w, "queue_failures");
	for (size_t i = 0; i < n->nr; i++) {
		const struct sm_review *rv = &n->reviews[i];
		struct strlist ids = STRLIST_INIT;
		char mark[160];

		if (!is_queue_failure(rv, &tree->version))
			continue;
		sm_review_notice_dependencies(rv, &ids);
		if (w) {
			json_object_begin(w, NULL);
			JSON_STRINGS(w, "message_id author date", rv->message_id, rv->author,
				     rv->date);
			json_strlist(w, "possible_dependencies", &ids);
			json_object_end(w);
		} else {
			printf("the stable queue could not apply it to %s (%s, %s); its script lists ",
			       rv->tree, *rv->author ? rv->author : "no sender", rv->date);
			if (!ids.nr)
				printf("no possible dependencies");
			else
				printf("%zu possible dependenc%s:", ids.nr, ids.nr == 1 ? "y" : "ies");
			for (size_t k = 0; k < ids.nr; k++)
				printf("%s %s%s", k ? "," : "", ids.items[k],
				       outside_mark(r, ids.items[k], tree->name, mark, sizeof(mark)));
			putchar('\n');
		}
		strlist_clear(&ids);
	}
	if (w)
		json_array_end(w);
	else
		print_outside_trial(r, tree->name);
}

int cmd_deps(int argc, char **argv)
{
	const char *path = ".", *cache_dir = NULL, *notes_ref_arg = NULL;
	char *tree_arg = NULL, *notes_ref;
	struct sm_note queue;
	struct strlist queue_deps = STRLIST_INIT;
	struct sm_tree_spec tree;
	git_repository *repo = NULL;
	struct sm_deps_result r;
	int json = 0;
	unsigned depth = 3, search = SM_DEPS_SEARCH_DEFAULT;
	const struct sm_option options[] = {
		OPT_REPO(&path, "the repository with FIX and the branch (default: .)"),
		OPT_STRING(0, "tree", &tree_arg, "BRANCH[=VER]", "the stable branch"),
		OPT_UINT(0, "depth", &depth, "N",
			 "levels of dependencies to follow (default 3; 1: the fix's\nown only; 0: until none is new)"),
		OPT_UINT(0, "search", &search, "N",
			 "when it still conflicts, try up to N more commits to the\nfiles in conflict (default 16; 0: none)"),
		OPT_STRING(0, "notes-ref", &notes_ref_arg, "REF",
			   "the review notes to read a NAK for the tree and the\nstable queue's FAILED notices from (default\n" SM_NOTES_REF_DEFAULT ")"),
		OPT_CACHE_DIR(&cache_dir),
		OPT_JSON(&json),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("deps", argc, argv, options, &usage, 0);
	if (argc != 1 || !tree_arg)
		return cli_usage_error("deps", "expected --tree and one FIX commit");
	if (sm_tree_spec_parse(&tree, tree_arg, NULL) < 0)
		return cli_usage_error("deps", "%s", sm_last_error());
	if (sm_repo_open(&repo, path) < 0)
		return cli_fail("deps");
	/* the notes first: a FAILED notice's possible dependencies are tried */
	notes_ref = sm_notes_ref_full(notes_ref_arg ? notes_ref_arg : SM_NOTES_REF_DEFAULT);
	if (read_queue_notes(repo, notes_ref, argv[0], &queue) < 0) {
		free(notes_ref);
		git_repository_free(repo);
		return cli_fail("deps");
	}
	free(notes_ref);
	queue_dependencies(&queue, &tree.version, &queue_deps);
	if (sm_deps_depth(repo, argv[0], &tree, cache_dir, depth, search, &queue_deps, &r) < 0) {
		strlist_clear(&queue_deps);
		sm_note_release(&queue);
		git_repository_free(repo);
		return cli_fail("deps");
	}
	strlist_clear(&queue_deps);
	if (json) {
		struct cli_json j;
		struct json_writer *w = cli_json_begin(&j);

		json_object_begin(w, NULL);
		sm_deps_result_json_members(&r, tree.name, w);
		show_nak(&queue, &tree, w);
		show_queue_notes(&queue, &r, &tree, w);
		json_object_end(w);
		cli_json_end(&j);
	} else {
		printf("%.12s %s\n", r.fix, r.subject);
		show_nak(&queue, &tree, NULL);
		if (r.present_as[0]) {
			printf("already in %s as %.12s (matched by %s): nothing to take\n", tree.name,
			       r.present_as, r.present_how);
			goto done;
		}
		printf("needs %zu commit%s first in %s (%zu more found are already there)\n", r.nr,
		       r.nr == 1 ? "" : "s", tree.name, r.already_in_tree);
		for (size_t i = 0; i < r.nr; i++) {
			const struct sm_dep *d = &r.deps[i];

			printf("  %.12s %s (", d->id, d->subject);
			if (d->paths.nr) {
				printf("%u line%s of %s", d->lines, d->lines == 1 ? "" : "s",
				       d->paths.items[0]);
				for (size_t k = 1; k < d->paths.nr; k++)
					printf(", %s", d->paths.items[k]);
			}
			printf("%s%s)%s%s\n", d->paths.nr && d->named ? "; " : "",
			       d->named ? "named by its stable tag" : "",
			       d->level > 1 ? " [via a dependency]" : "",
			       d->new_file ? " [new file: a feature]" : "");
		}
		for (size_t k = 0; k < r.unknown_prereqs.nr; k++)
			printf("  its stable tag names %s as a prerequisite, which is not in the repository\n",
			       r.unknown_prereqs.items[k]);
		if (r.truncated)
			printf("  (stopped after %u level%s: more may be needed; see --depth)\n", r.level,
			       r.level == 1 ? "" : "s");
		print_missing(&r, tree.name);
		print_applies(&r, tree.name);
		print_search(&r, tree.name);
		show_queue_notes(&queue, &r, &tree, NULL);
	}
done:
	sm_note_release(&queue);
	sm_deps_result_release(&r);
	git_repository_free(repo);
	return 0;
}
