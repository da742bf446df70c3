/* stablemate train: fit the learned classifier (rules/model.rules) to
 * labelled commits: a labelled mbox, or a mainline range labelled by
 * whether the maintainer's stable trees carry each commit. */
#include "cli/cli.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "rules/classify.h"
#include "rules/train.h"
#include "trees/repo.h"
#include "trees/scan.h"
#include "trees/strmap.h"
#include "trees/tree_state.h"
#include "trees/upstream_index.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: stablemate train --mbox FILE --labels TSV [options]\n"
"       stablemate train --upstream REPO --range A..B --trees BRANCH,BRANCH... [options]\n"
"\n"
"Fits the learned classifier to labelled commits and writes it as a model\n"
"file (`classify`, `scan` and the bot read model.rules from the rules\n"
"directory). The fit is deterministic: the same commits give the same file.\n"
"\n"
"Labels:\n"
"  --mbox FILE --labels TSV  commits as format-patch mails (\"From <sha>\" lines)\n"
"                  and a TSV whose first two columns are the id and \"stable\" or\n"
"                  \"not-stable\" (a header line \"id ...\" is skipped); commits of\n"
"                  the mbox the TSV does not name are left out\n"
"  --upstream REPO --range A..B --trees LIST\n"
"                  every non-merge commit of A..B in REPO is labelled stable\n"
"                  when one of the comma-separated stable branches carries it\n"
"                  (by the upstream id its backport names, patch-id or subject,\n"
"                  as scan finds it); A should be at or after the trees' release\n"
"  --tree-repo PATH  the repository holding the branches (default: REPO)\n"
"  --cache-dir DIR | --no-cache  where the branches' upstream indexes are cached\n"
"\n"
"Options:\n"
"  -o, --output FILE       the model file to write (default: model.rules)\n"
"  --rules DIR             the hand rules whose weights are the prior\n"
"  --candidate-recall R    candidate: the highest threshold keeping this\n"
"                          out-of-fold recall (default: the threshold of the\n"
"                          best out-of-fold F1, for precision)\n"
"  --maybe-recall R        maybe: the same for the wide net (default 0.95)\n"
"  --min-df N              leave out words in fewer than N commits (default 3)\n"
"  --epochs N              passes over the data (default 12)\n"
"  --l2 X, --rate X, --smoothing X  the fit's pull toward the hand weights,\n"
"                          step and label smoothing (defaults 10, 0.1, 0.02)\n"
"  -q, --quiet             no summary on standard error\n"
"\n"
"Exit status: 0 on success, 1 on an error, 2 on bad usage.\n"
"\n"
"Examples:\n"
"  stablemate train --mbox tip-commits.mbox --labels tip-commits-labels.tsv -o rules/model.rules\n"
"  stablemate train --upstream ~/linux --range v6.6..v6.8 --trees linux-6.6.y -o ~/my-rules/model.rules\n";

struct train_cli {
	struct sm_rules *rules;
	struct sm_trainset set;
	unsigned skipped, unlabelled;
};

static int read_labels(const char *path, struct strbuf *buf, struct strmap *labels)
{
	unsigned lineno = 0;

	if (read_file(path, buf))
		return -1;
	for (char *p = buf->buf; p && *p; ) {
		char *nl = strchr(p, '\n'), *tab, *lab, *end;

		if (nl)
			*nl++ = '\0';
		lineno++;
		tab = strchr(p, '\t');
		if (!*p || (lineno == 1 && !strncmp(p, "id\t", 3))) {
			p = nl;
			continue;
		}
		if (!tab)
			return sm_error("%s:%u: expected \"id<TAB>label\"", path, lineno);
		*tab = '\0';
		lab = tab + 1;
		end = lab + strcspn(lab, "\t");
		*end = '\0';
		if (!strcmp(lab, "stable") || !strcmp(lab, "1"))
			strmap_put(labels, p, 1);
		else if (!strcmp(lab, "not-stable") || !strcmp(lab, "0"))
			strmap_put(labels, p, 0);
		else
			return sm_error("%s:%u: label \"%s\" is neither \"stable\" nor \"not-stable\"",
					path, lineno, lab);
		p = nl;
	}
	return 0;
}

static void add_message(struct train_cli *t, const struct strmap *labels, const char *msg,
			size_t len)
{
	struct sm_commit c;
	size_t label;

	if (sm_commit_parse(&c, msg, len)) {
		t->skipped++;
		return;
	}
	if (!c.id || !strmap_get(labels, c.id, &label))
		t->unlabelled++;
	else
		sm_trainset_add(&t->set, t->rules, &c, (int)label);
	sm_commit_release(&c);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int from_mbox(struct train_cli *t, const char *mbox, const char *tsv, struct strbuf *source)
{
	struct strbuf buf = STRBUF_INIT, lbuf = STRBUF_INIT;
	struct strmap labels = STRMAP_INIT;
	const char *p, *end, *start = NULL;
	int ret = 0;

	if (read_labels(tsv, &lbuf, &labels) || read_file(mbox, &buf)) {
		ret = -1;
		goto out;
	}
	/* Messages start at "From " lines, which stay: format-patch's
	 * "From <sha> Mon Sep 17 ..." names the commit. */
	for (p = buf.buf, end = buf.buf + buf.len; p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;

		if ((size_t)(end - p) > 5 && !memcmp(p, "From ", 5) && (p == buf.buf || p[-1] == '\n')) {
			if (start)
				add_message(t, &labels, start, (size_t)(p - start));
			start = p;
		}
		p = next;
	}
	if (start)
		add_message(t, &labels, start, (size_t)(end - start));
	if (!t->set.nr_docs)
		ret = sm_error("%s: no message of it is labelled in %s", mbox, tsv);
	/* base names: the file says what, not where on one machine */
	strbuf_addf(source, "%s with labels %s", strcmp(mbox, "-") ? base_name(mbox) : "(standard input)",
		    base_name(tsv));
out:
	strmap_clear(&labels);
	strbuf_release(&lbuf);
	strbuf_release(&buf);
	return ret;
}

static int from_trees(struct train_cli *t, const char *upstream, const char *range,
		      const char *trees_arg, const char *tree_repo, const char *cache_dir,
		      struct strbuf *source)
{
	git_repository *repo = NULL;
	git_revwalk *w = NULL;
	struct sm_tree_spec *specs = NULL;
	struct sm_tree_state *states = NULL;
	size_t nr = 0, opened = 0;
	char *list = xstrdup(trees_arg), *a = NULL;
	const char *dots = strstr(range, "..");
	git_oid from, to, id;
	int ret = -1;

	if (!dots || dots == range || !dots[2] || strstr(range, "...")) {
		sm_error("%s: not a range of the form A..B", range);
		goto out;
	}
	if (sm_repo_open(&repo, upstream) < 0)
		goto out;
	a = xstrndup(range, (size_t)(dots - range));
	if (sm_resolve_commit(repo, a, &from) < 0 || sm_resolve_commit(repo, dots + 2, &to) < 0)
		goto out;
	for (char *s = list, *comma; s && *s; s = comma) {
		comma = strchr(s, ',');
		if (comma)
			*comma++ = '\0';
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
	for (; opened < nr; opened++)
		if (sm_tree_state_open(&states[opened], &specs[opened], repo, upstream, cache_dir) < 0)
			goto out;
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
		sm_trainset_add(&t->set, t->rules, &c, stable);
		sm_commit_release(&c);
	}
	strbuf_addf(source, "%s %s, labelled by %s", upstream, range, trees_arg);
	ret = 0;
out:
	for (size_t k = 0; k < opened; k++)
		sm_tree_state_close(&states[k]);
	free(states);
	free(specs);
	free(list);
	free(a);
	git_revwalk_free(w);
	git_repository_free(repo);
	return ret;
}

static int parse_ratio(const char *opt, const char *s, double *out)
{
	char *e;
	double d = strtod(s, &e);

	if (e == s || *e || d <= 0 || d > 1)
		return cli_usage_error("train", "%s %s: expected a number in (0, 1]", opt, s);
	*out = d;
	return 0;
}

static int parse_count(const char *opt, const char *s, unsigned *out)
{
	char *e;
	long v = strtol(s, &e, 10);

	if (e == s || *e || v < 1 || v > 1000)
		return cli_usage_error("train", "%s %s: expected a whole number 1..1000", opt, s);
	*out = (unsigned)v;
	return 0;
}

int cmd_train(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mbox", required_argument, NULL, 'm' },
		{ "labels", required_argument, NULL, 'l' },
		{ "upstream", required_argument, NULL, 'u' },
		{ "range", required_argument, NULL, 'R' },
		{ "trees", required_argument, NULL, 'T' },
		{ "tree-repo", required_argument, NULL, 'P' },
		{ "cache-dir", required_argument, NULL, 'C' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "output", required_argument, NULL, 'o' },
		{ "rules", required_argument, NULL, 'r' },
		{ "candidate-recall", required_argument, NULL, 'c' },
		{ "maybe-recall", required_argument, NULL, 'y' },
		{ "min-df", required_argument, NULL, 'd' },
		{ "epochs", required_argument, NULL, 'e' },
		{ "l2", required_argument, NULL, 'L' },
		{ "rate", required_argument, NULL, 'S' },
		{ "smoothing", required_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mbox = NULL, *labels = NULL, *upstream = NULL, *range = NULL, *trees = NULL;
	const char *tree_repo = NULL, *cache_dir = NULL, *output = "model.rules", *rules_dir = NULL;
	struct train_cli t = { 0 };
	struct sm_train_opts o;
	struct sm_train_result res;
	struct strbuf source = STRBUF_INIT;
	int c, quiet = 0, ret = 0;

	if (cli_wants_help(argc, argv))
		cli_help(usage);
	sm_train_opts_default(&o);
	while ((c = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': mbox = optarg; break;
		case 'l': labels = optarg; break;
		case 'u': upstream = optarg; break;
		case 'R': range = optarg; break;
		case 'T': trees = optarg; break;
		case 'P': tree_repo = optarg; break;
		case 'C': cache_dir = optarg; break;
		case 'N': cache_dir = ""; break;
		case 'o': output = optarg; break;
		case 'r': rules_dir = optarg; break;
		case 'c':
			if (parse_ratio("--candidate-recall", optarg, &o.candidate_recall))
				return 2;
			break;
		case 'y':
			if (parse_ratio("--maybe-recall", optarg, &o.maybe_recall))
				return 2;
			break;
		case 'd':
			if (parse_count("--min-df", optarg, &o.min_df))
				return 2;
			break;
		case 'e':
			if (parse_count("--epochs", optarg, &o.epochs))
				return 2;
			break;
		case 'L':
		case 'S':
		case 's': {
			char *e;
			double d = strtod(optarg, &e);

			if (e == optarg || *e || d < 0 || d > 100 || (c == 's' && d >= 1))
				return cli_usage_error("train", "%s: not a number in range", optarg);
			*(c == 'L' ? &o.l2 : c == 'S' ? &o.rate : &o.smoothing) = d;
			break;
		}
		case 'q': quiet = 1; break;
		default: return cli_usage_error("train", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage_error("train", "unexpected argument %s", argv[optind]);
	if (!!mbox + !!upstream != 1)
		return cli_usage_error("train", "give either --mbox and --labels, or --upstream");
	if (mbox && !labels)
		return cli_usage_error("train", "--mbox needs --labels");
	if (upstream && (!range || !trees))
		return cli_usage_error("train", "--upstream needs --range and --trees");
	if (sm_rules_load(&t.rules, rules_dir))
		return cli_fail("train");
	sm_trainset_init(&t.set, t.rules);
	if (mbox ? from_mbox(&t, mbox, labels, &source) :
	    from_trees(&t, upstream, range, trees, tree_repo, cache_dir, &source)) {
		ret = cli_fail("train");
		goto out;
	}
	if (sm_train_fit(&t.set, &o, &res)) {
		ret = cli_fail("train");
		goto out;
	}
	if (sm_train_write(&t.set, &o, &res, source.buf, output))
		ret = cli_fail("train");
	else if (!quiet)
		fprintf(stderr,
			"stablemate train: %zu commits (%zu stable)%s; wrote %s\n"
			"  out-of-fold, candidate (p >= %.3f): precision %.3f, recall %.3f\n"
			"  out-of-fold, candidate or maybe (p >= %.3f): precision %.3f, recall %.3f\n",
			t.set.nr_docs, t.set.nr_positive,
			t.unlabelled ? ", messages not in the labels left out" : "", output,
			res.candidate_p, res.oof_cand_precision, res.oof_cand_recall, res.maybe_p,
			res.oof_maybe_precision, res.oof_maybe_recall);
	sm_train_result_release(&res);
out:
	sm_trainset_release(&t.set);
	sm_rules_free(t.rules);
	strbuf_release(&source);
	return ret;
}
