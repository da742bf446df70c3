/* stablemate notes: show the review notes of a commit (upstream or stable),
 * merge another maintainer's notes ref, add review blocks from a file. */
#include "cli/cli.h"
#include "cli/output.h"
#include "gitnotes/notes.h"
#include "gitnotes/sync.h"
#include "trees/repo.h"
#include "trees/tree_reviews.h"
#include "lib/fileio.h"
#include "lib/json.h"
#include "lib/util.h"
#include "rules/commit.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate notes show COMMIT [-C DIR] [--notes-ref REF] [--json]\n"
		    "stablemate notes merge REF [-C DIR] [--notes-ref REF]\n"
		    "stablemate notes add [COMMIT] [FILE] [-C DIR] [--notes-ref REF] [--one-by-one]\n"
		    "stablemate notes setup [--remote NAME URL] [-C DIR] [--notes-ref REF]\n"
		    "stablemate notes sync [-C DIR] [--notes-ref REF]",
	.description =
"Reviews harvested from the lists are git notes on the upstream commit,\n"
"under refs/notes/stable-review (one block per review; see the README).\n"
"\n"
"  show    the reviews of COMMIT from every tree; a stable commit is mapped to\n"
"          its upstream original through its 'commit X upstream.' line\n"
"  merge   merge a fetched notes ref (e.g. refs/notes/remotes/greg/stable-review)\n"
"          into ours, review by review (the union; text nobody wrote twice kept)\n"
"  add     add the review blocks of FILE (default stdin, the note format) to\n"
"          COMMIT; a line 'commit <id>' switches to another commit\n"
"  setup   make plain `git log` show the reviews (notes.displayRef) and, with\n"
"          --remote NAME URL, add that maintainer's repository as a remote\n"
"          whose notes are fetched into refs/notes/remotes/NAME/stable-review\n"
"  sync    fetch the notes of every remote set up so, and merge each into\n"
"          ours review by review\n",
};

/* The options every notes subcommand takes (before or after its name). */
static const char *notes_repo, *notes_ref_arg;
static int notes_json, notes_one_by_one;
static const char *notes_remote;

static const struct sm_option common_options[] = {
	OPT_REPO(&notes_repo, "the git repository (default: the current directory)"),
	OPT_STRING(0, "notes-ref", &notes_ref_arg, "REF",
		   "notes ref (default refs/notes/stable-review; a bare\n"
		   "name means refs/notes/NAME, as with git notes --ref)"),
	OPT_QUIET(NULL),
	OPT_END()
};

static const struct sm_option show_options[] = {
	OPT_INHERIT(common_options),
	OPT_BOOL(0, "json", &notes_json, "show: machine-readable output"),
	OPT_END()
};

static const struct sm_option merge_options[] = {
	OPT_INHERIT(common_options),
	OPT_END()
};

static const struct sm_option add_options[] = {
	OPT_INHERIT(common_options),
	OPT_BOOL(0, "one-by-one", &notes_one_by_one,
		 "add: one ref update per review instead of one in all"),
	OPT_END()
};

static const struct sm_option setup_options[] = {
	OPT_INHERIT(common_options),
	OPT_STRING(0, "remote", &notes_remote, "NAME",
		   "setup: add remote NAME (its URL is the argument) whose\nnotes sync fetches"),
	OPT_END()
};

/* notes --help lists every subcommand's options. */
static const struct sm_option all_options[] = {
	OPT_INHERIT(common_options),
	OPT_STRING(0, "remote", &notes_remote, "NAME",
		   "setup: add remote NAME (its URL is the argument) whose\nnotes sync fetches"),
	OPT_BOOL(0, "json", &notes_json, "show: machine-readable output"),
	OPT_BOOL(0, "one-by-one", &notes_one_by_one,
		 "add: one ref update per review instead of one in all"),
	OPT_END()
};

struct opts {
	const char *repo_dir;
	char *notes_ref;
	int json;
	int one_by_one;
	const char *args[3];
	int nargs;
};

/* argv[0] is the subcommand's name. */
static int parse_opts(int argc, char **argv, const struct sm_option *table, struct opts *o,
		      const char *sub)
{
	argc = cli_parse_options("notes", argc, argv, table, &usage, 0);
	memset(o, 0, sizeof(*o));
	if (argc > (int)ARRAY_SIZE(o->args))
		return cli_usage_error("notes", "%s: too many arguments", sub);
	for (int i = 0; i < argc; i++)
		o->args[o->nargs++] = argv[i];
	o->repo_dir = notes_repo;
	o->json = notes_json;
	o->one_by_one = notes_one_by_one;
	o->notes_ref = sm_notes_ref_full(notes_ref_arg ? notes_ref_arg : SM_NOTES_REF_DEFAULT);
	return 0;
}

/* COMMIT as a revision of repo, or a full hex id of an object it lacks
 * (notes may be on commits the repository does not have). */
static int resolve_commit(git_repository *repo, const char *spec, git_oid *oid,
			  git_commit **commit)
{
	git_object *obj = NULL;

	*commit = NULL;
	if (git_revparse_single(&obj, repo, spec) == 0) {
		git_object *peeled = NULL;
		int err = git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT);

		git_object_free(obj);
		if (err < 0)
			return sm_error("%s: not a commit", spec);
		*commit = (git_commit *)peeled;
		git_oid_cpy(oid, git_commit_id(*commit));
		return 0;
	}
	if (strlen(spec) == GIT_OID_HEXSZ && is_hex_string(spec, GIT_OID_HEXSZ) &&
	    git_oid_fromstr(oid, spec) == 0)
		return 0;
	return sm_error("%s: no such commit in %s", spec, git_repository_path(repo));
}

struct shown {
	git_oid oid;
	const char *why;	/* "upstream", "commit" */
	struct sm_note note;
	int found;
};

/* The stable queue's notices of the note, one line:
 * "stable queue: failed to apply to 6.1 (Sat, 28 Feb 2026 ...), queued for 6.12 (...)". */
static void add_notices(struct strbuf *out, const struct shown *shown, size_t nshown)
{
	size_t n = 0;

	for (size_t i = 0; i < nshown; i++) {
		for (size_t j = 0; j < shown[i].note.nr; j++) {
			const struct sm_review *r = &shown[i].note.reviews[j];

			if (!sm_review_is_notice(r))
				continue;
			strbuf_addstr(out, n++ ? ", " : "stable queue: ");
			sm_review_notice_describe(r, out);
			if (r->date && *r->date)
				strbuf_addf(out, " (%s)", r->date);
		}
	}
	if (n)
		strbuf_addch(out, '\n');
}

/* The trees a NAK block of n names (its Tree:, both ends of a range), as
 * versions "6.1", each once, appended to out. */
static void nak_trees(const struct sm_note *n, struct strlist *out)
{
	for (size_t j = 0; j < n->nr; j++) {
		const struct sm_review *r = &n->reviews[j];
		const char *p = r->tree ? r->tree : "";
		int nak = 0;

		for (size_t t = 0; t < r->trailers.nr; t++)
			nak |= sm_trailer_is_nak(r->trailers.items[t]);
		while (nak && sm_review_counts(r) && *p) {
			struct sm_version v;
			char buf[32];

			if (sm_version_parse(p, &p, &v) < 0)
				break;
			if (!strlist_contains(out, sm_version_str(&v, buf, sizeof(buf))))
				strlist_append(out, buf);
			if (*p == '-')
				p++;
		}
	}
}

/* For each tree a NAK names, whether it stands, as scan decides it
 * (trees/tree_reviews.h): "NAK for 6.1 stands: Nacked-by: ... (date):
 * comment (scan vetoes it for 6.1)", or "NAK for 6.1 taken back: its
 * sender approved it later". */
static void add_naks(struct strbuf *out, const struct shown *shown, size_t nshown)
{
	for (size_t i = 0; i < nshown; i++) {
		struct strlist trees = STRLIST_INIT;

		nak_trees(&shown[i].note, &trees);
		for (size_t k = 0; k < trees.nr; k++) {
			struct sm_tree_reviews said;
			struct sm_version v;

			if (sm_version_parse(trees.items[k], NULL, &v) < 0)
				continue;
			sm_tree_reviews_find(&shown[i].note, &v, &said);
			if (!said.nak) {
				strbuf_addf(out, "NAK for %s taken back: its sender approved it later\n",
					    trees.items[k]);
				continue;
			}
			strbuf_addf(out, "NAK for %s stands: ", trees.items[k]);
			sm_tree_reviews_nak_text(said.nak, out);
			strbuf_addf(out, " (scan vetoes it for %s)\n", trees.items[k]);
		}
		strlist_clear(&trees);
	}
}

/* "3 reviews: 6.1 (2), 6.6 (1)", trees in the order first seen; then the
 * NAKs per tree; then the stable queue's notices; then the blocks that are
 * no review (trailers in another's name, no sender). */
static void add_summary(struct strbuf *out, const struct shown *shown, size_t nshown,
			size_t total)
{
	struct strlist trees = STRLIST_INIT;
	size_t *counts = xcalloc(total ? total : 1, sizeof(*counts));
	size_t unverified = 0, notices = 0;

	for (size_t i = 0; i < nshown; i++) {
		for (size_t j = 0; j < shown[i].note.nr; j++) {
			const struct sm_review *r = &shown[i].note.reviews[j];
			const char *t = r->tree;
			size_t k;

			if (sm_review_is_notice(r)) {
				notices++;
				continue;
			}
			if (!sm_review_counts(r)) {
				unverified++;
				continue;
			}
			if (!t || !*t)
				t = "any tree";
			for (k = 0; k < trees.nr && strcmp(trees.items[k], t); k++)
				;
			if (k == trees.nr)
				strlist_append(&trees, t);
			counts[k]++;
		}
	}
	total -= unverified + notices;
	strbuf_addf(out, "\n%zu review%s", total, total == 1 ? "" : "s");
	for (size_t k = 0; k < trees.nr; k++)
		strbuf_addf(out, "%s %s (%zu)", k ? "," : ":", trees.items[k], counts[k]);
	strbuf_addch(out, '\n');
	add_naks(out, shown, nshown);
	add_notices(out, shown, nshown);
	if (unverified)
		strbuf_addf(out, "%zu unverified (trailers in another's name, or no usable "
			    "sender): not counted as reviews\n", unverified);
	free(counts);
	strlist_clear(&trees);
}

static int notes_show(const struct opts *o, git_repository *repo)
{
	git_commit *commit = NULL;
	git_oid oid;
	struct shown shown[2];
	size_t nshown = 0, total = 0;
	char hex[GIT_OID_HEXSZ + 1], uphex[GIT_OID_HEXSZ + 1] = "";
	struct strbuf out = STRBUF_INIT;
	int rc = -1;

	memset(shown, 0, sizeof(shown));
	if (resolve_commit(repo, o->args[0], &oid, &commit))
		goto out;
	git_oid_tostr(hex, sizeof(hex), &oid);
	if (commit) {
		const char *msg = git_commit_message(commit);
		char *up = sm_find_upstream_ref(msg, strlen(msg));

		if (up) {
			git_oid upoid;
			git_commit *upc = NULL;

			if (resolve_commit(repo, up, &upoid, &upc) == 0) {
				git_oid_tostr(uphex, sizeof(uphex), &upoid);
				if (!git_oid_equal(&upoid, &oid)) {
					shown[nshown].oid = upoid;
					shown[nshown++].why = "upstream";
				}
			} else {
				sm_warn("%s names upstream commit %s, which %s lacks", hex, up,
					git_repository_path(repo));
			}
			git_commit_free(upc);
			free(up);
		}
	}
	shown[nshown].oid = oid;
	shown[nshown++].why = "commit";
	for (size_t i = 0; i < nshown; i++) {
		struct strbuf text = STRBUF_INIT;
		int r = sm_notes_read(repo, o->notes_ref, &shown[i].oid, &text);

		if (r < 0) {
			strbuf_release(&text);
			goto out;
		}
		shown[i].found = r == SM_NOTE_FOUND;
		sm_note_parse(&shown[i].note, text.buf);
		total += shown[i].note.nr;
		strbuf_release(&text);
	}
	if (o->json) {
		struct cli_json j;
		struct json_writer *w = cli_json_begin(&j);

		json_object_begin(w, NULL);
		json_string(w, "commit", hex);
		json_string(w, "upstream", uphex[0] ? uphex : NULL);
		json_string(w, "notes_ref", o->notes_ref);
		json_array_begin(w, "reviews");
		for (size_t i = 0; i < nshown; i++) {
			char on[GIT_OID_HEXSZ + 1];

			git_oid_tostr(on, sizeof(on), &shown[i].oid);
			for (size_t k = 0; k < shown[i].note.nr; k++)
				sm_review_json(&shown[i].note.reviews[k], on, w);
		}
		json_array_end(w);
		json_array_begin(w, "other_text");
		for (size_t i = 0; i < nshown; i++)
			for (size_t k = 0; k < shown[i].note.other.nr; k++)
				json_string(w, NULL, shown[i].note.other.items[k]);
		json_array_end(w);
		json_object_end(w);
		cli_json_end(&j);
	} else {
		int any = 0;

		for (size_t i = 0; i < nshown; i++) {
			char on[GIT_OID_HEXSZ + 1];

			if (!shown[i].found)
				continue;
			git_oid_tostr(on, sizeof(on), &shown[i].oid);
			if (any++)
				strbuf_addch(&out, '\n');
			if (!strcmp(shown[i].why, "upstream"))
				strbuf_addf(&out, "Notes of upstream commit %s (of %s):\n\n", on, hex);
			else
				strbuf_addf(&out, "Notes of commit %s:\n\n", on);
			sm_note_format(&shown[i].note, &out);
		}
		if (!any)
			strbuf_addf(&out, "no reviews of %s%s%s in %s\n", hex,
				    uphex[0] ? " or its upstream " : "", uphex, o->notes_ref);
		else
			add_summary(&out, shown, nshown, total);
		fwrite(out.buf, 1, out.len, stdout);
	}
	rc = 0;
out:
	for (size_t i = 0; i < nshown; i++)
		sm_note_release(&shown[i].note);
	strbuf_release(&out);
	git_commit_free(commit);
	return rc;
}

static int notes_merge(const struct opts *o, git_repository *repo)
{
	struct sm_notes_merge_stats st;
	char *theirs = sm_notes_ref_full(o->args[0]);
	int rc = -1;

	if (sm_notes_merge_ref(repo, o->notes_ref, theirs, &st))
		goto out;
	if (st.up_to_date)
		printf("%s: already merged into %s\n", theirs, o->notes_ref);
	else
		printf("merged %s into %s: %zu notes read, %zu reviews added, %zu notes changed\n",
		       theirs, o->notes_ref, st.notes, st.reviews_added, st.notes_changed);
	rc = 0;
out:
	free(theirs);
	return rc;
}

struct add_input {
	git_oid *commits;
	struct sm_review *reviews;
	size_t nr, alloc;
};

/* One section of the input (after a "commit X" line or the start). */
static int add_section(struct add_input *in, const char *file, unsigned lineno,
		       const git_oid *commit, int have_commit, const char *text)
{
	struct sm_note n;

	sm_note_parse(&n, text);
	if (n.other.nr) {
		char *first = xstrndup(n.other.items[0], strcspn(n.other.items[0], "\n"));

		sm_error("%s: section at line %u: not a review block: '%s'", file, lineno, first);
		free(first);
		sm_note_release(&n);
		return -1;
	}
	if (n.nr && !have_commit) {
		sm_note_release(&n);
		return sm_error("%s: reviews before any 'commit <id>' line and no COMMIT given", file);
	}
	for (size_t i = 0; i < n.nr; i++) {
		if (in->nr >= in->alloc) {
			in->alloc = in->alloc ? in->alloc * 2 : 64;
			in->commits = xrealloc(in->commits, in->alloc * sizeof(*in->commits));
			in->reviews = xrealloc(in->reviews, in->alloc * sizeof(*in->reviews));
		}
		git_oid_cpy(&in->commits[in->nr], commit);
		in->reviews[in->nr++] = n.reviews[i];
	}
	free(n.reviews);
	n.reviews = NULL;
	n.nr = 0;
	sm_note_release(&n);
	return 0;
}

static int read_add_input(git_repository *repo, const char *file, const char *commit_spec,
			  struct add_input *in)
{
	struct strbuf text = STRBUF_INIT, section = STRBUF_INIT;
	git_oid cur;
	int have = 0, rc = 0;
	unsigned lineno = 0, section_line = 1;
	const char *p;

	if (commit_spec) {
		git_commit *c = NULL;

		if (resolve_commit(repo, commit_spec, &cur, &c))
			return -1;
		git_commit_free(c);
		have = 1;
	}
	if (read_file(file, &text))
		return -1;
	p = text.buf;
	while (!rc && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		const char *id;

		lineno++;
		if (skip_prefix(p, "commit ", &id) && len > 7) {
			char *spec = xstrndup(id, strcspn(id, " \t\r\n"));
			git_commit *c = NULL;

			rc = add_section(in, file, section_line, &cur, have, section.buf);
			strbuf_reset(&section);
			section_line = lineno + 1;
			if (!rc && resolve_commit(repo, spec, &cur, &c))
				rc = sm_error_wrap("%s:%u", file, lineno);
			git_commit_free(c);
			free(spec);
			have = 1;
		} else {
			strbuf_add(&section, p, len);
		}
		p += len;
	}
	if (!rc)
		rc = add_section(in, file, section_line, &cur, have, section.buf);
	strbuf_release(&text);
	strbuf_release(&section);
	return rc;
}

static int notes_add(const struct opts *o, git_repository *repo)
{
	struct add_input in = { NULL, NULL, 0, 0 };
	const char *commit = NULL, *file = "-";
	size_t added = 0;
	int rc = -1;

	if (o->nargs == 2) {
		commit = o->args[0];
		file = o->args[1];
	} else if (o->nargs == 1) {
		/* One argument: a file if one exists by that name, else COMMIT. */
		if (file_exists(o->args[0]) || !strcmp(o->args[0], "-"))
			file = o->args[0];
		else
			commit = o->args[0];
	}
	if (read_add_input(repo, file, commit, &in))
		goto out;
	if (o->one_by_one) {
		for (size_t i = 0; i < in.nr; i++) {
			int one;

			if (sm_notes_add_review(repo, o->notes_ref, &in.commits[i], &in.reviews[i], &one))
				goto out;
			added += (size_t)one;
		}
	} else if (sm_notes_add_batch(repo, o->notes_ref, in.commits, in.reviews, in.nr, &added)) {
		goto out;
	}
	printf("%zu review%s added, %zu already there\n", added, added == 1 ? "" : "s",
	       in.nr - added);
	rc = 0;
out:
	for (size_t i = 0; i < in.nr; i++)
		sm_review_release(&in.reviews[i]);
	free(in.reviews);
	free(in.commits);
	return rc;
}

static int notes_setup(const struct opts *o, git_repository *repo)
{
	struct sm_notes_setup_result res;
	const char *url = o->nargs ? o->args[0] : NULL;
	char *remote_ref = NULL;
	int rc = -1;

	if (sm_notes_setup(repo, o->notes_ref, notes_remote, url, &res))
		goto out;
	printf("notes.displayRef %s %s: plain `git log` shows the reviews\n", o->notes_ref,
	       res.display_added ? "added" : "already set");
	if (notes_remote) {
		remote_ref = sm_notes_remote_ref(notes_remote, o->notes_ref);
		printf("remote %s%s: its %s is fetched into %s (%s)\n", notes_remote,
		       res.remote_created ? " added" : "", o->notes_ref, remote_ref,
		       res.refspec_added ? "refspec added" : "refspec already there");
	}
	rc = 0;
out:
	free(remote_ref);
	return rc;
}

/* Returns -1, or 1 when a remote failed (named on stderr), else 0. */
static int notes_sync(const struct opts *o, git_repository *repo)
{
	struct sm_notes_sync_result res = { 0 };
	int r = sm_notes_sync(repo, o->notes_ref, &res);

	if (r < 0) {
		sm_notes_sync_result_release(&res);
		return -1;
	}
	for (size_t i = 0; i < res.nr; i++) {
		const struct sm_notes_sync_remote *sr = &res.remotes[i];

		if (sr->failed)
			fprintf(stderr, "stablemate notes: %s: %s\n", sr->name, sr->error);
		else if (!sr->fetched)
			printf("%s: no notes there yet\n", sr->name);
		else if (sr->merge.up_to_date)
			printf("%s: up to date\n", sr->name);
		else
			printf("%s: %zu notes read, %zu reviews added, %zu notes changed\n", sr->name,
			       sr->merge.notes, sr->merge.reviews_added, sr->merge.notes_changed);
	}
	sm_notes_sync_result_release(&res);
	return r == SM_SYNC_SOME_FAILED ? 1 : 0;
}

/* A notes subcommand: its options, how many arguments it takes (the usage
 * error when not) and what it does in the opened repository; run returns
 * -1 with sm_error() set, or the exit code. */
static const struct notes_cmd {
	const char *name;
	const struct sm_option *options;
	int min_args, max_args;
	int args_need_remote;	/* an argument only with --remote */
	const char *args_error;
	int (*run)(const struct opts *o, git_repository *repo);
} notes_cmds[] = {
	{ "show", show_options, 1, 1, 0, "show needs exactly one COMMIT", notes_show },
	{ "merge", merge_options, 1, 1, 0, "merge needs exactly one REF", notes_merge },
	{ "add", add_options, 0, 2, 0, "add takes at most COMMIT and FILE", notes_add },
	{ "setup", setup_options, 0, 1, 1, "setup takes a URL only with --remote NAME",
	  notes_setup },
	{ "sync", merge_options, 0, 0, 0, "sync takes no arguments", notes_sync },
};

static int run_notes_cmd(const struct notes_cmd *c, int argc, char **argv)
{
	struct opts o;
	git_repository *repo = NULL;
	int rc;

	if (parse_opts(argc, argv, c->options, &o, c->name))
		return 2;
	if (o.nargs < c->min_args || o.nargs > c->max_args ||
	    (o.nargs && c->args_need_remote && !notes_remote))
		rc = cli_usage_error("notes", "%s", c->args_error);
	else if (sm_repo_open(&repo, o.repo_dir) || (rc = c->run(&o, repo)) < 0)
		rc = cli_fail("notes");
	git_repository_free(repo);
	free(o.notes_ref);
	return rc;
}

int cmd_notes(int argc, char **argv)
{
	argc = cli_parse_options("notes", argc, argv, all_options, &usage,
				 PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 1) {
		cli_print_usage(stderr, all_options, &usage);
		return 2;
	}
	for (size_t i = 0; i < ARRAY_SIZE(notes_cmds); i++)
		if (!strcmp(argv[0], notes_cmds[i].name))
			return run_notes_cmd(&notes_cmds[i], argc, argv);
	return cli_usage_error("notes", "'%s' is not a notes command (show, merge, add, setup, sync)",
			       argv[0]);
}
