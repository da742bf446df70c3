/* stablemate train: fit the learned classifier (rules/model.rules) to
 * labelled commits: labelled records (--input), or a mainline range labelled by
 * whether the maintainer's stable trees carry each commit. */
#include "cli/cli.h"
#include "cli/output.h"
#include "lib/progress.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "mail/records.h"
#include "rules/classify.h"
#include "rules/train.h"
#include "trees/repo.h"
#include "trees/scan.h"
#include "trees/strmap.h"
#include "trees/tree_state.h"
#include "trees/tree_files.h"
#include "trees/upstream_index.h"
#include <assert.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate train --input FILE --labels TSV [options]\n"
		    "stablemate train --upstream REPO --range A..B --trees BRANCH,BRANCH... [options]",
	.description =
"Fits the learned classifier to labelled commits and writes it as a model\n"
"file (`classify`, `scan` and the bot read model.rules from the rules\n"
"directory). The fit is deterministic: the same commits give the same file.\n"
"\n"
"Labels come from commits (--input: an mbox of format-patch mails, \"From\n"
"<sha>\" lines, `git log` output with the messages, -p, --stat, --numstat, or\n"
"JSON records with an \"id\", read as classify --batch reads them, gzipped or\n"
"not; --mbox is its old name) and a\n"
"TSV whose first two columns are the id (full or 7+ hex digits) and\n"
"\"stable\" or \"not-stable\" (a header line \"id ...\" is skipped; mails the\n"
"TSV does not name are left out; an id labelled both ways is an error);\n"
"or from a repository: every non-merge commit of A..B is labelled stable\n"
"when one of the comma-separated stable branches carries it (by the upstream\n"
"id its backport names, patch-id or subject, as scan finds it); A should be\n"
"at or after the trees' release. A commit that changes only files none of\n"
"the trees has (scan's file-not-in-tree) is left out: no tree could take it.\n",
	.epilog =
"Exit status: 0 on success, 1 on an error, 2 on bad usage.\n"
"\n"
"Examples:\n"
"  stablemate train --input tip-commits.mbox.gz --labels tip-commits-labels.tsv -o rules/model.rules\n"
"  stablemate train --upstream ~/linux --range v6.6..v6.8 --trees linux-6.6.y -o ~/rules/model.rules\n",
};

struct train_cli {
	struct sm_rules *rules;
	struct sm_trainset set;
	unsigned unlabelled, without_id;
	/* --trees: commits of the range whose files no tree has, so no tree
	 * could take them (trees/tree_files.h): left out, not labelled */
	unsigned no_tree_could;
	struct cli_cut_paths cut;	/* of the labelled commits */
	struct sm_progress *progress;	/* lib/progress.h, or NULL */
	struct strbuf *features;	/* --features: the lines to write, or NULL */
};

/* --features: a line for the commit just added to t->set (id, label, its
 * feature names, tab-separated), for fitting other models to the same
 * facts (bench/selection-models). A name holds no tab or newline of its
 * own: a subject's subsystem prefix could, so those become spaces. */
static void note_features(struct train_cli *t, const char *id, int stable)
{
	const struct sm_trainset *s = &t->set;
	size_t d = s->nr_docs - 1;

	if (!t->features)
		return;
	strbuf_addf(t->features, "%s\t%s", id, stable ? "stable" : "not-stable");
	for (size_t i = s->start[d]; i < s->start[d + 1]; i++) {
		size_t at = t->features->len + 1;

		strbuf_addch(t->features, '\t');
		strbuf_addstr(t->features, s->names[s->feat[i]]);
		for (char *p = t->features->buf + at; *p; p++)
			if (*p == '\t' || *p == '\n')
				*p = ' ';
	}
	strbuf_addch(t->features, '\n');
}

/* The TSV's labels: id -> label | line << 1 (the line for a conflict's
 * message). Ids may be abbreviated, as people write them: lengths holds
 * bit n for each length n given, so a mail's full id is tried at each. */
struct labels {
	struct strmap map;
	uint64_t lengths;
};

#define MIN_ID_LEN 7

static int read_labels(const char *path, struct strbuf *buf, struct labels *labels)
{
	unsigned lineno = 0;

	if (read_file(path, buf))
		return -1;
	for (char *p = buf->buf + utf8_bom_len(buf->buf, buf->len); p && *p; ) {
		char *nl = strchr(p, '\n'), *tab, *lab;
		size_t id_len, label, old;

		if (nl)
			*nl++ = '\0';
		lineno++;
		p[strcspn(p, "\r")] = '\0';	/* a TSV written on Windows */
		tab = strchr(p, '\t');
		if (!*p || (lineno == 1 && !strncmp(p, "id\t", 3))) {
			p = nl;
			continue;
		}
		if (!tab)
			return sm_error("%s:%u: expected \"id<TAB>label\"", path, lineno);
		*tab = '\0';
		lab = tab + 1;
		lab[strcspn(lab, "\t")] = '\0';
		id_len = strlen(p);
		if (id_len < MIN_ID_LEN || id_len > 40 || !is_hex_string(p, id_len))
			return sm_error("%s:%u: \"%s\" is not a commit id (%d to 40 hex digits)", path,
					lineno, p, MIN_ID_LEN);
		str_to_lower(p);
		if (!strcmp(lab, "stable") || !strcmp(lab, "1"))
			label = 1;
		else if (!strcmp(lab, "not-stable") || !strcmp(lab, "0"))
			label = 0;
		else
			return sm_error("%s:%u: label \"%s\" is neither \"stable\" nor \"not-stable\"",
					path, lineno, lab);
		if (strmap_get(&labels->map, p, &old) && (old & 1) != label)
			return sm_error("%s:%u: %s is labelled %s here and %s on line %zu", path, lineno,
					p, label ? "stable" : "not-stable",
					label ? "not-stable" : "stable", old >> 1);
		strmap_put(&labels->map, p, label | (size_t)lineno << 1);
		labels->lengths |= 1ull << id_len;
		p = nl;
	}
	return 0;
}

/* The label of commit id (40 hex digits), given in full or abbreviated:
 * 1 with *label set, 0 when the TSV does not name it, -1 when it names it
 * twice (in full and abbreviated, or at two lengths) with both labels. */
static int label_of(const struct labels *labels, const char *id, const char *tsv, size_t *label)
{
	char prefix[41];
	size_t found = 0, val;

	for (size_t n = MIN_ID_LEN; n <= 40; n++) {
		if (!(labels->lengths & (1ull << n)))
			continue;
		memcpy(prefix, id, n);
		prefix[n] = '\0';
		if (!strmap_get(&labels->map, prefix, &val))
			continue;
		if (found && (found & 1) != (val & 1)) {
			size_t first = found < val ? found : val, then = found < val ? val : found;

			return sm_error("%s: %s is labelled %s on line %zu and %s on line %zu", tsv,
					id, first & 1 ? "stable" : "not-stable", first >> 1,
					then & 1 ? "stable" : "not-stable", then >> 1);
		}
		found = val;
	}
	*label = found & 1;
	return found != 0;
}

/* The labelled commits of --input, as classify --batch reads them */
struct labelled_input {
	struct train_cli *t;
	const struct labels *labels;
	const char *tsv;
};

/* One commit of the input (sm_record_fn), added to the training set when
 * the TSV labels it. -1 on an error in the labels. */
static int add_commit(struct sm_commit *c, const char *name, void *ctx)
{
	struct labelled_input *in = ctx;
	struct train_cli *t = in->t;
	size_t label = 0;
	int rc = 0;

	if (!c->id && name) {	/* a JSON record's "id", in any case */
		c->id = xstrdup(name);
		str_to_lower(c->id);
	}
	if (!c->id || strlen(c->id) != 40 || !is_hex_string(c->id, 40))
		t->unlabelled++, t->without_id++;
	else if (!(rc = label_of(in->labels, c->id, in->tsv, &label)))
		t->unlabelled++;
	else if (rc > 0) {
		cli_count_cut_paths(&t->cut, c);
		sm_trainset_add(&t->set, t->rules, c, (int)label);
		note_features(t, c->id, (int)label);
	}
	sm_progress_update(t->progress, t->set.nr_docs);
	sm_commit_release(c);
	return rc < 0 ? -1 : 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int from_input(struct train_cli *t, const char *input, const char *tsv, struct strbuf *source)
{
	struct strbuf lbuf = STRBUF_INIT;
	struct labels labels = { STRMAP_INIT, 0 };
	struct labelled_input in = { t, &labels, tsv };
	/* strict: a model fitted around an unreadable record (binary data,
	 * a bad JSON record) is not the one asked for. No size limit: a
	 * commit of generated register headers is tens of megabytes of diff,
	 * and one record at a time is in memory. */
	struct sm_records records = { .path = input, .max_record = SIZE_MAX, .strict = 1,
				      .fn = add_commit, .ctx = &in };
	const char *name = input_name(input);
	int ret = 0;

	if (read_labels(tsv, &lbuf, &labels) || sm_records_read(&records) < 0) {
		ret = -1;
		goto out;
	}
	if (!records.records)
		ret = sm_error("%s: no commit in it (give format-patch mails, `git log` output with "
			       "the messages or JSON records)", name);
	else if (!t->set.nr_docs && t->without_id == t->unlabelled)
		ret = sm_error("%s: no message names its commit (the \"From <40-digit id>\" line "
			       "git format-patch writes, or git log's \"commit <40-digit id>\"): "
			       "nothing to look up in %s", name, tsv);
	else if (!t->set.nr_docs)
		ret = sm_error("%s: no message of it is labelled in %s", name, tsv);
	else	/* the model learns from what it is given: say what it was not */
		cli_warn_cut_paths(input, &t->cut, "the model learns nothing of their directories");
	/* base names: the file says what, not where on one machine */
	strbuf_addf(source, "%s with labels %s", strcmp(input, "-") ? base_name(input) : name,
		    base_name(tsv));
out:
	strmap_clear(&labels.map);
	strbuf_release(&lbuf);
	return ret;
}

/* Does every tree of files[0..nr) lack all the files c changes? */
static int lacked_by_all(struct sm_tree_files *files, size_t nr, const struct sm_commit *c)
{
	const char *first;
	size_t n;

	for (size_t k = 0; k < nr; k++)
		if (!sm_tree_files_lacks(&files[k], c, &first, &n))
			return 0;
	return nr > 0;
}

static int from_trees(struct train_cli *t, const char *upstream, const char *range,
		      const char *trees_arg, const char *tree_repo, const char *cache_dir,
		      struct strbuf *source)
{
	git_repository *repo = NULL;
	git_revwalk *w = NULL;
	struct sm_tree_spec *specs = NULL;
	struct sm_tree_state *states = NULL;
	struct sm_tree_files *files = NULL;
	size_t nr = 0, opened = 0;
	char *list = xstrdup(trees_arg);
	git_oid from, to, id;
	int ret = -1;

	if (sm_repo_open(&repo, upstream) < 0 || sm_resolve_range(repo, range, &from, &to) < 0)
		goto out;
	for (char *s = list, *comma; s && *s; s = comma) {
		comma = strchr(s, ',');
		if (comma)
			*comma++ = '\0';
		if (!*s) {
			sm_error("--trees %s: an empty branch name", trees_arg);
			goto out;
		}
		specs = xrealloc(specs, (nr + 1) * sizeof(*specs));
		if (sm_tree_spec_parse(&specs[nr], s, tree_repo) < 0)
			goto out;
		nr++;
	}
	if (!nr) {
		sm_error("--trees: no branch named");
		goto out;
	}
	states = xcalloc(nr, sizeof(*states));
	files = xcalloc(nr, sizeof(*files));
	for (; opened < nr; opened++) {
		if (sm_tree_state_open_progress(&states[opened], &specs[opened], repo, upstream,
						cache_dir, t->progress) < 0)
			goto out;
		sm_tree_files_init(&files[opened], states[opened].repo, &states[opened].tip, repo,
				   &to);
	}
	sm_progress_phase(t->progress, "Reading commits", 0);
	if (git_revwalk_new(&w, repo) < 0 || git_revwalk_push(w, &to) < 0 ||
	    git_revwalk_hide(w, &from) < 0) {
		sm_error("range %s: %s", range, sm_git_error());
		goto out;
	}
	git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	while (git_revwalk_next(&id, w) == 0) {
		git_commit *gc;
		struct sm_commit c;
		char patch_id[41];
		int stable = 0;
		char hex[41];

		if (git_commit_lookup(&gc, repo, &id) < 0) {
			sm_error("commit %s: unreadable (%s)", git_oid_tostr(hex, sizeof(hex), &id),
				 sm_git_error());
			goto out;
		}
		if (git_commit_parentcount(gc) > 1) {
			git_commit_free(gc);
			continue;
		}
		if (sm_commit_load(repo, gc, 1, &c, patch_id) < 0) {
			git_commit_free(gc);
			goto out;
		}
		git_commit_free(gc);
		for (size_t k = 0; k < nr && !stable; k++)
			stable = sm_upstream_index_find(&states[k].idx, c.id, patch_id, c.subject,
							NULL) != NULL;
		/* A fix of code none of the trees has is no choice a maintainer
		 * made: "not stable" would teach the model that such fixes are
		 * not fixes. */
		if (!stable && lacked_by_all(files, nr, &c)) {
			t->no_tree_could++;
			sm_commit_release(&c);
			continue;
		}
		sm_trainset_add(&t->set, t->rules, &c, stable);
		note_features(t, c.id, stable);
		sm_commit_release(&c);
		sm_progress_update(t->progress, t->set.nr_docs);
	}
	if (!t->set.nr_docs) {
		struct strbuf why = STRBUF_INIT;

		if (sm_range_reversed(repo, &from, &to))
			sm_range_reversed_text(range, &why);
		else if (t->no_tree_could)
			strbuf_addf(&why, "its %u commit%s change%s only files none of the trees has",
				    t->no_tree_could, t->no_tree_could == 1 ? "" : "s",
				    t->no_tree_could == 1 ? "s" : "");
		else
			strbuf_addstr(&why, "it holds merges only, or nothing");
		sm_error("%s: no commit to label: %s", range, why.buf);
		strbuf_release(&why);
		goto out;
	}
	strbuf_addf(source, "%s %s, labelled by %s", upstream, range, trees_arg);
	if (t->no_tree_could)
		strbuf_addf(source, " (%u commit%s of files none of them has left out)",
			    t->no_tree_could, t->no_tree_could == 1 ? "" : "s");
	ret = 0;
out:
	for (size_t k = 0; k < opened; k++) {
		sm_tree_files_release(&files[k]);
		sm_tree_state_close(&states[k]);
	}
	free(files);
	free(states);
	free(specs);
	free(list);
	git_revwalk_free(w);
	git_repository_free(repo);
	return ret;
}

/* The numbers the fit's options take. A rate of 0 learns nothing, and
 * smoothing of a half or more turns the labels around. */
static const struct number_range {
	const char *option, *text;
	double lo, hi;
	int lo_open, hi_open;
} number_ranges[] = {
	{ "candidate-recall", "(0, 1]", 0, 1, 1, 0 },
	{ "maybe-recall", "(0, 1]", 0, 1, 1, 0 },
	{ "l2", "[0, 100]", 0, 100, 0, 0 },
	{ "rate", "(0, 100]", 0, 100, 1, 0 },
	{ "smoothing", "[0, 0.5)", 0, 0.5, 0, 1 },
};

static int opt_number(const struct sm_option *opt, const char *arg)
{
	const struct number_range *r = NULL;
	char *end;
	double d = strtod(arg, &end);

	for (size_t i = 0; i < ARRAY_SIZE(number_ranges); i++)
		if (!strcmp(opt->long_name, number_ranges[i].option))
			r = &number_ranges[i];
	assert(r);	/* every option using opt_number is in the table */
	/* written so that NaN fails every test */
	if (!*arg || *end || !(r->lo_open ? d > r->lo : d >= r->lo) ||
	    !(r->hi_open ? d < r->hi : d <= r->hi))
		return sm_error("--%s: '%s' is not a number in %s", opt->long_name, arg, r->text);
	*(double *)opt->value = d;
	return 0;
}

int cmd_train(int argc, char **argv)
{
	const char *input = NULL, *labels = NULL, *upstream = NULL, *range = NULL, *trees = NULL;
	const char *tree_repo = NULL, *cache_dir = NULL, *output = "model.rules", *rules_dir = NULL;
	const char *features_out = NULL;
	struct strbuf features = STRBUF_INIT;
	struct train_cli t = { 0 };
	struct sm_train_opts o;
	struct sm_train_result res;
	struct strbuf source = STRBUF_INIT;
	int quiet = 0, ret = 0;
	const struct sm_option options[] = {
		OPT_GROUP("labels:"),
		OPT_STRING(0, "input", &input, "FILE",
			   "commits as format-patch mails, `git log -p` output\n"
			   "or JSON records, as classify --batch reads them,\n"
			   "gzipped or not (- for stdin)"),
		OPT_ALIAS(0, "mbox", "input"),
		OPT_STRING(0, "labels", &labels, "TSV", "id<TAB>stable|not-stable for the input"),
		OPT_REPO(&upstream, "the mainline repository to label from"),
		OPT_STRING(0, "range", &range, "A..B", "the commits to label (with --repo)"),
		OPT_STRING(0, "trees", &trees, "LIST", "stable branches, comma-separated"),
		OPT_STRING(0, "tree-repo", &tree_repo, "DIR",
			   "the repository holding the branches (default: --repo)"),
		OPT_CACHE_DIR(&cache_dir),
		OPT_GROUP("the fit:"),
		OPT_STRING('o', "output", &output, "FILE", "the model file to write (default: model.rules)"),
		OPT_STRING('r', "rules", &rules_dir, "DIR", "the hand rules whose weights are the prior"),
		OPT_CALLBACK(0, "candidate-recall", &o.candidate_recall, "R",
			     "candidate: the highest threshold keeping this out-of-fold\n"
			     "recall (default: the threshold of the best out-of-fold F1)", opt_number),
		OPT_CALLBACK(0, "maybe-recall", &o.maybe_recall, "R",
			     "maybe: the same, for the wide net (default 0.95)", opt_number),
		OPT_UINT(0, "min-df", &o.min_df, "N", "leave out words in fewer than N commits (default 3)"),
		OPT_UINT(0, "epochs", &o.epochs, "N", "passes over the data (default 12)"),
		OPT_CALLBACK(0, "l2", &o.l2, "X", "the pull toward the hand weights (default 10)",
			     opt_number),
		OPT_CALLBACK(0, "rate", &o.rate, "X", "AdaGrad's step (default 0.1)", opt_number),
		OPT_CALLBACK(0, "smoothing", &o.smoothing, "X", "label smoothing (default 0.02)",
			     opt_number),
		OPT_GROUP("output:"),
		OPT_STRING(0, "features", &features_out, "FILE",
			   "also write each labelled commit's features, a line each"),
		OPT_QUIET(&quiet),
		OPT_END()
	};

	sm_train_opts_default(&o);
	argc = cli_parse_options("train", argc, argv, options, &usage, 0);
	if (argc > 0)
		return cli_usage_error("train", "unexpected argument '%s'", argv[0]);
	if (!!input + !!upstream != 1)
		return cli_usage_error("train", "give either --input and --labels, or --upstream");
	if (input && !labels)
		return cli_usage_error("train", "--input needs --labels");
	if (upstream && (!range || !trees))
		return cli_usage_error("train", "--upstream needs --range and --trees");
	if (!o.epochs || o.epochs > 1000 || !o.min_df)
		return cli_usage_error("train", "--epochs and --min-df: 1 or more (epochs at most 1000)");
	if (o.candidate_recall > 0 && o.maybe_recall < o.candidate_recall)
		return cli_usage_error("train", "--maybe-recall %g is below --candidate-recall %g: "
				       "the wide net would be narrower", o.maybe_recall,
				       o.candidate_recall);
	if (sm_rules_load(&t.rules, rules_dir))
		return cli_fail("train");
	sm_trainset_init(&t.set, t.rules);
	if (features_out)
		t.features = &features;
	t.progress = o.progress = sm_progress_start("Reading commits", 0);
	if (input ? from_input(&t, input, labels, &source) :
	    from_trees(&t, upstream, range, trees, tree_repo, cache_dir, &source)) {
		sm_progress_abort(&t.progress);
		ret = cli_fail("train");
		goto out;
	}
	if (sm_train_fit(&t.set, &o, &res)) {
		sm_progress_abort(&t.progress);
		ret = cli_fail("train");
		goto out;
	}
	sm_progress_stop(&t.progress);
	o.progress = NULL;
	if (sm_train_write(&t.set, &o, &res, source.buf, output) ||
	    (features_out && write_file_atomic(features_out, features.buf, features.len)))
		ret = cli_fail("train");
	else if (!quiet)
		fprintf(stderr,
			"stablemate train: %zu commits (%zu stable)%s%s; wrote %s\n"
			"  out-of-fold, candidate (p >= %.3f): precision %.3f, recall %.3f\n"
			"  out-of-fold, candidate or maybe (p >= %.3f): precision %.3f, recall %.3f\n",
			t.set.nr_docs, t.set.nr_positive,
			t.unlabelled ? ", messages not in the labels left out" : "",
			t.no_tree_could ? ", commits of files none of the trees has left out" : "", output,
			res.candidate_p, res.oof_cand_precision, res.oof_cand_recall, res.maybe_p,
			res.oof_maybe_precision, res.oof_maybe_recall);
	sm_train_result_release(&res);
out:
	sm_progress_abort(&t.progress);
	sm_trainset_release(&t.set);
	sm_rules_free(t.rules);
	strbuf_release(&source);
	strbuf_release(&features);
	return ret;
}
