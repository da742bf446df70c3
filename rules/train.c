/* train: the labelled commits as feature ids, the fit and the model file. */
#include "rules/train.h"
#include "rules/features.h"
#include "rules/model.h"
#include "rules/rules_load.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/progress.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hand weights are points (candidate at 60); this many make one unit of
 * log-odds in the prior. */
#define POINTS_PER_LOGIT 40.0

void sm_train_opts_default(struct sm_train_opts *o)
{
	memset(o, 0, sizeof(*o));	/* every field not set below is off: no progress meter */
	o->min_df = 3;
	o->epochs = 12;
	o->rate = 0.1;
	o->l2 = 10.0;
	o->smoothing = 0.02;
	o->folds = 5;
	o->candidate_recall = 0;	/* 0: the best F1 */
	o->maybe_recall = 0.95;
	o->seed = 20161201;
}

static void grow_index(struct sm_trainset *t)
{
	size_t size = t->mask ? (t->mask + 1) * 2 : 1 << 16;
	uint64_t *keys = xcalloc(size, sizeof(*keys));
	uint32_t *slots = xcalloc(size, sizeof(*slots));

	for (size_t i = 0; t->mask && i <= t->mask; i++) {
		size_t j;

		if (!t->slots[i])
			continue;
		j = (size_t)(t->keys[i] ^ (t->keys[i] >> 31)) & (size - 1);
		while (slots[j])
			j = (j + 1) & (size - 1);
		keys[j] = t->keys[i];
		slots[j] = t->slots[i];
	}
	free(t->keys);
	free(t->slots);
	t->keys = keys;
	t->slots = slots;
	t->mask = size - 1;
}

/* The id of a name, added (with prior 0) when new. */
static uint32_t intern(struct sm_trainset *t, const char *name, size_t len, uint64_t h)
{
	size_t j;

	if (!t->mask || t->nr_names * 2 >= t->mask)
		grow_index(t);
	j = (size_t)(h ^ (h >> 31)) & t->mask;
	while (t->slots[j]) {
		if (t->keys[j] == h)
			return t->slots[j] - 1;
		j = (j + 1) & t->mask;
	}
	if (t->nr_names >= t->alloc_names) {
		t->alloc_names = t->alloc_names ? t->alloc_names * 2 : 4096;
		t->names = xrealloc(t->names, t->alloc_names * sizeof(*t->names));
		t->df = xrealloc(t->df, t->alloc_names * sizeof(*t->df));
		t->prior = xrealloc(t->prior, t->alloc_names * sizeof(*t->prior));
	}
	t->names[t->nr_names] = xstrndup(name, len);
	t->df[t->nr_names] = 0;
	t->prior[t->nr_names] = 0;
	t->keys[j] = h;
	t->slots[j] = (uint32_t)++t->nr_names;
	return (uint32_t)(t->nr_names - 1);
}

static void set_prior(struct sm_trainset *t, const char *name, double points)
{
	uint32_t id = intern(t, name, strlen(name), sm_feature_hash(name, strlen(name)));

	t->prior[id] = points / POINTS_PER_LOGIT;
}

void sm_trainset_init(struct sm_trainset *t, const struct sm_rules *r)
{
	char buf[160];

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < r->nr_keywords; i++) {
		const struct sm_keyword_rule *k = &r->keywords[i];

		snprintf(buf, sizeof(buf), "keyword:%s", k->id);
		set_prior(t, buf, k->weight);
		snprintf(buf, sizeof(buf), "subject-keyword:%s", k->id);
		set_prior(t, buf, k->weight > 0 ? k->weight * r->t.subject_bonus_pct / 100.0 : 0);
	}
	for (size_t i = 0; i < r->nr_authors; i++) {
		const struct sm_author_rule *a = &r->authors[i];
		char role[32], first[32];
		size_t n = 0, k = 0;

		for (; a->role[k] && k + 1 < sizeof(role); k++)
			role[k] = (char)(a->role[k] >= 'A' && a->role[k] <= 'Z' ? a->role[k] + 32 : a->role[k]);
		role[k] = '\0';
		while (((a->pattern[n] | 32) >= 'a' && (a->pattern[n] | 32) <= 'z') ||
		       (a->pattern[n] >= '0' && a->pattern[n] <= '9')) {
			if (n + 1 >= sizeof(first))
				break;
			first[n] = (char)(a->pattern[n] >= 'A' && a->pattern[n] <= 'Z' ? a->pattern[n] + 32 :
					  a->pattern[n]);
			n++;
		}
		first[n] = '\0';
		snprintf(buf, sizeof(buf), "person:%s:%s", role, first);
		set_prior(t, buf, a->weight);
	}
	set_prior(t, "stable-tag", r->t.stable_tag);
	set_prior(t, "stable-noautosel", r->t.stable_tag);
	set_prior(t, "fixes-tag", r->t.fixes);
	set_prior(t, "fixes-malformed", r->t.fixes_malformed);
	set_prior(t, "tiny-diff", r->t.tiny);
	set_prior(t, "too-large", r->t.large);
	set_prior(t, "docs-only", r->t.docs_only);
	set_prior(t, "device-id", r->t.device_id);
}

struct add_ctx {
	struct sm_trainset *t;
};

static void add_feature(void *ctx, const char *name, size_t len, uint64_t h, const char *detail)
{
	struct sm_trainset *t = ((struct add_ctx *)ctx)->t;
	uint32_t id = intern(t, name, len, h);

	(void)detail;
	t->df[id]++;
	ALLOC_GROW(t->feat, t->nr_feat, t->alloc_feat);
	t->feat[t->nr_feat++] = id;
}

void sm_trainset_add(struct sm_trainset *t, const struct sm_rules *r, const struct sm_commit *c,
		     int stable)
{
	struct add_ctx a = { t };

	if (t->nr_docs + 1 >= t->alloc_docs) {
		t->alloc_docs = t->alloc_docs ? t->alloc_docs * 2 : 1024;
		t->start = xrealloc(t->start, (t->alloc_docs + 1) * sizeof(*t->start));
		t->label = xrealloc(t->label, t->alloc_docs * sizeof(*t->label));
	}
	if (!t->nr_docs)
		t->start[0] = 0;
	sm_features_extract(r, c, add_feature, &a);
	t->label[t->nr_docs] = stable ? 1 : 0;
	t->nr_positive += stable ? 1 : 0;
	t->start[++t->nr_docs] = t->nr_feat;
}

void sm_trainset_release(struct sm_trainset *t)
{
	for (size_t i = 0; i < t->nr_names; i++)
		free(t->names[i]);
	FREE_ALL(t->names, t->df, t->prior, t->keys, t->slots, t->feat, t->start, t->label);
	memset(t, 0, sizeof(*t));
}

/* xorshift64*: the one source of randomness, seeded. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void shuffle(size_t *a, size_t n, uint64_t *s)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(next_random(s) % i), tmp = a[i - 1];

		a[i - 1] = a[j];
		a[j] = tmp;
	}
}

/* Rare open features are noise; a feature nearly every commit has
 * ("diff:text", a Signed-off-by) says nothing and only trades weight with
 * the bias, which would then misjudge inputs that lack it. */
static int usable(const struct sm_trainset *t, const struct sm_train_opts *o, uint32_t id)
{
	const char *n = t->names[id];

	if (t->df[id] * 20 > t->nr_docs * 19)
		return 0;
	return !sm_feature_is_open(n, strlen(n)) || t->df[id] >= o->min_df;
}

static double sigmoid(double z)
{
	return z >= 0 ? 1 / (1 + exp(-z)) : exp(z) / (1 + exp(z));
}

static double logit_of(const struct sm_trainset *t, const double *w, double bias, size_t d)
{
	double z = bias;

	for (size_t k = t->start[d]; k < t->start[d + 1]; k++)
		z += w[t->feat[k]];
	return z;
}

/* Fits on the documents whose fold is not skip (skip = -1: all). */
static void fit(const struct sm_trainset *t, const struct sm_train_opts *o,
		const unsigned char *fold, int skip, const unsigned char *use, double *w,
		double *bias)
{
	size_t n = 0, *order = xmalloc(t->nr_docs * sizeof(*order));
	double *g2 = xcalloc(t->nr_names, sizeof(*g2)), bg2 = 0;
	uint32_t *df = xcalloc(t->nr_names, sizeof(*df));
	size_t pos = 0;
	uint64_t seed = o->seed ? o->seed : 1;
	double hi = 1 - o->smoothing / 2, lo = o->smoothing / 2;

	for (size_t d = 0; d < t->nr_docs; d++) {
		if (skip >= 0 && fold[d] == skip)
			continue;
		order[n++] = d;
		pos += t->label[d];
		for (size_t k = t->start[d]; k < t->start[d + 1]; k++)
			df[t->feat[k]]++;
	}
	for (size_t j = 0; j < t->nr_names; j++)
		w[j] = use[j] ? t->prior[j] : 0;
	/* start at the base rate */
	*bias = log((pos + 1.0) / (n - pos + 1.0));
	for (unsigned e = 0; e < o->epochs; e++) {
		shuffle(order, n, &seed);
		for (size_t i = 0; i < n; i++) {
			size_t d = order[i];
			double z = *bias, g;

			for (size_t k = t->start[d]; k < t->start[d + 1]; k++)
				z += w[t->feat[k]];
			g = sigmoid(z) - (t->label[d] ? hi : lo);
			bg2 += g * g;
			*bias -= o->rate * g / sqrt(bg2 + 1e-8);
			for (size_t k = t->start[d]; k < t->start[d + 1]; k++) {
				uint32_t j = t->feat[k];
				double gj;

				if (!use[j])
					continue;
				/* the prior's pull, spread over the feature's documents */
				gj = g + o->l2 * (w[j] - t->prior[j]) / df[j];
				g2[j] += gj * gj;
				w[j] -= o->rate * gj / sqrt(g2[j] + 1e-8);
			}
		}
	}
	free(order);
	free(g2);
	free(df);
}

struct scored {
	double p;
	unsigned char label;
};

static int by_p_desc(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;

	return x->p < y->p ? 1 : x->p > y->p ? -1 : (int)x->label - (int)y->label;
}

/* The threshold of the best F1 (precision and recall weighed alike). */
static double threshold_max_f1(const struct scored *s, size_t n, size_t pos, double *precision,
			       double *recall)
{
	size_t tp = 0, best = 0;
	double best_f1 = -1;

	for (size_t i = 0; i < n; i++) {
		double f1;

		tp += s[i].label;
		if (i + 1 < n && s[i + 1].p == s[i].p)
			continue;
		f1 = 2.0 * (double)tp / (double)(i + 1 + pos);
		if (f1 > best_f1) {
			best_f1 = f1;
			best = i;
			*precision = (double)tp / (double)(i + 1);
			*recall = (double)tp / (double)pos;
		}
	}
	return best + 1 < n ? (s[best].p + s[best + 1].p) / 2 : s[best].p;
}

/* The highest threshold keeping recall >= want; its precision and recall. */
static double threshold_for(const struct scored *s, size_t n, size_t pos, double want,
			    double *precision, double *recall)
{
	size_t tp = 0;

	for (size_t i = 0; i < n; i++) {
		tp += s[i].label;
		if ((double)tp / (double)pos >= want && (i + 1 == n || s[i + 1].p < s[i].p)) {
			*precision = (double)tp / (double)(i + 1);
			*recall = (double)tp / (double)pos;
			/* halfway to the next score down, so the tier is stable */
			return i + 1 < n ? (s[i].p + s[i + 1].p) / 2 : s[i].p;
		}
	}
	*precision = (double)pos / (double)n;
	*recall = 1;
	return s[n - 1].p;
}

/* Each part's average weight over the training commits: what a commit
 * lacking that part (no diff, no trailers) is given instead of nothing,
 * so that a bare description is not judged as a commit whose diff and
 * trailers all weigh 0. */
static void missing_parts(const struct sm_trainset *t, const double *w,
			  struct sm_train_result *res)
{
	unsigned char *part = xmalloc(t->nr_names);
	double sum[SM_NR_PARTS] = { 0 };

	for (size_t j = 0; j < t->nr_names; j++)
		part[j] = (unsigned char)sm_feature_part(t->names[j], strlen(t->names[j]));
	for (size_t d = 0; d < t->nr_docs; d++)
		for (size_t k = t->start[d]; k < t->start[d + 1]; k++)
			sum[part[t->feat[k]]] += w[t->feat[k]];
	for (int p = 1; p < SM_NR_PARTS; p++)
		res->missing[p] = sum[p] / (double)t->nr_docs;
	free(part);
}

int sm_train_fit(const struct sm_trainset *t, const struct sm_train_opts *o,
		 struct sm_train_result *res)
{
	unsigned char *fold, *use;
	size_t *order;
	struct scored *s;
	double *w;
	uint64_t seed = o->seed ^ 0x9e3779b97f4a7c15ULL;
	unsigned folds = o->folds < 2 ? 2 : o->folds;

	memset(res, 0, sizeof(*res));
	if (!t->nr_positive || t->nr_positive == t->nr_docs)
		return sm_error("training needs both stable and other commits (%zu of %zu stable)",
				t->nr_positive, t->nr_docs);
	fold = xmalloc(t->nr_docs);
	use = xmalloc(t->nr_names);
	order = xmalloc(t->nr_docs * sizeof(*order));
	s = xmalloc(t->nr_docs * sizeof(*s));
	w = xmalloc(t->nr_names * sizeof(*w));
	for (size_t j = 0; j < t->nr_names; j++)
		use[j] = (unsigned char)usable(t, o, (uint32_t)j);
	for (size_t d = 0; d < t->nr_docs; d++)
		order[d] = d;
	shuffle(order, t->nr_docs, &seed);
	for (size_t i = 0; i < t->nr_docs; i++)
		fold[order[i]] = (unsigned char)(i % folds);
	/* out-of-fold scores: each commit scored by a model that never saw it */
	sm_progress_phase(o->progress, "Fitting", folds + 1);
	for (unsigned f = 0; f < folds; f++) {
		double bias;

		sm_progress_update(o->progress, f);
		fit(t, o, fold, (int)f, use, w, &bias);
		for (size_t d = 0; d < t->nr_docs; d++)
			if (fold[d] == f) {
				s[d].p = sigmoid(logit_of(t, w, bias, d));
				s[d].label = t->label[d];
			}
	}
	qsort(s, t->nr_docs, sizeof(*s), by_p_desc);
	if (o->candidate_recall > 0)
		res->candidate_p = threshold_for(s, t->nr_docs, t->nr_positive, o->candidate_recall,
						 &res->oof_cand_precision, &res->oof_cand_recall);
	else
		res->candidate_p = threshold_max_f1(s, t->nr_docs, t->nr_positive,
						    &res->oof_cand_precision, &res->oof_cand_recall);
	res->maybe_p = threshold_for(s, t->nr_docs, t->nr_positive, o->maybe_recall,
				     &res->oof_maybe_precision, &res->oof_maybe_recall);
	if (res->maybe_p > res->candidate_p)
		res->maybe_p = res->candidate_p;
	/* the model itself: every commit */
	sm_progress_update(o->progress, folds);
	fit(t, o, fold, -1, use, w, &res->bias);
	sm_progress_update(o->progress, folds + 1);
	for (size_t j = 0; j < t->nr_names; j++)
		if (!use[j])
			w[j] = 0;
	missing_parts(t, w, res);
	res->w = w;
	FREE_ALL(fold, use, order, s);
	return 0;
}

void sm_train_result_release(struct sm_train_result *res)
{
	free(res->w);
	memset(res, 0, sizeof(*res));
}

static const struct sm_trainset *sort_set;

static int by_name(const void *a, const void *b)
{
	return strcmp(sort_set->names[*(const uint32_t *)a], sort_set->names[*(const uint32_t *)b]);
}

/* A fit that diverged (a large --rate, no --l2) would be written as a file
 * that sm_model_load refuses: weights past SM_MODEL_MAX_WEIGHT, thresholds
 * that print as 0 or 1. Say so here, before anything is written. */
static int check_loadable(const struct sm_trainset *t, const struct sm_train_result *res)
{
	static const char hint[] = "the fit diverged: try a smaller --rate or a larger --l2";

	if (fabs(res->bias) > SM_MODEL_MAX_WEIGHT)
		return sm_error("%s (the bias is %.1f log-odds, at most %g)", hint, res->bias,
				SM_MODEL_MAX_WEIGHT);
	for (int k = 1; k < SM_NR_PARTS; k++)
		if (fabs(res->missing[k]) > SM_MODEL_MAX_WEIGHT)
			return sm_error("%s (a missing %s weighs %.1f log-odds, at most %g)", hint,
					sm_feature_part_name((enum sm_feature_part)k), res->missing[k],
					SM_MODEL_MAX_WEIGHT);
	for (size_t j = 0; j < t->nr_names; j++)
		if (fabs(res->w[j]) > SM_MODEL_MAX_WEIGHT)
			return sm_error("%s (%s weighs %.1f log-odds, at most %g)", hint, t->names[j],
					res->w[j], SM_MODEL_MAX_WEIGHT);
	/* written with four decimals: 0.0000 and 1.0000 are no thresholds */
	if (!(res->candidate_p >= 0.00005 && res->candidate_p < 0.99995 &&
	      res->maybe_p >= 0.00005 && res->maybe_p < 0.99995))
		return sm_error("%s (the thresholds are p >= %.2g and %.2g)", hint, res->candidate_p,
				res->maybe_p);
	return 0;
}

int sm_train_write(const struct sm_trainset *t, const struct sm_train_opts *o,
		   const struct sm_train_result *res, const char *source, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t *ids = xmalloc((t->nr_names + 1) * sizeof(*ids));
	size_t n = 0, kept = 0;
	int rc;
	char cand_rule[96];

	if (o->candidate_recall > 0)
		snprintf(cand_rule, sizeof(cand_rule), "the highest threshold with recall >= %.2f there",
			 o->candidate_recall);
	else
		snprintf(cand_rule, sizeof(cand_rule), "the threshold of the best F1 there (precision "
			 "and recall weighed alike)");

	if (check_loadable(t, res)) {
		free(ids);
		return -1;
	}
	for (size_t j = 0; j < t->nr_names; j++)
		ids[n++] = (uint32_t)j;
	sort_set = t;
	qsort(ids, n, sizeof(*ids), by_name);
	sort_set = NULL;
	strbuf_addf(&sb,
		    "# model.rules: stablemate's learned classifier (written by stablemate train;\n"
		    "# rules/model.h and README \"The learned classifier\" say how to read it).\n"
		    "# A commit's score is 100 x (bias + the weights of the features it has),\n"
		    "# its log-odds of being stable material.\n"
		    "format %s\n"
		    "# trained on: %s\n"
		    "# commits: %zu, stable: %zu (%.1f%%)\n"
		    "# fit: logistic regression, AdaGrad SGD, %u epochs, step %g, seed %llu,\n"
		    "#      L2 pull %g toward the hand weights (%g points = 1 log-odds),\n"
		    "#      label smoothing %g, words in fewer than %u commits left out,\n"
		    "#      and words weighing under 0.01\n"
		    "# tiers, chosen on %u-fold out-of-fold scores of the training commits:\n"
		    "#   candidate = %s\n"
		    "#               (out-of-fold precision %.3f, recall %.3f)\n"
		    "#   maybe     = the highest threshold with recall >= %.2f there\n"
		    "#               (out-of-fold precision %.3f, recall %.3f)\n"
		    "bias %.4f\n"
		    "candidate %.4f\n"
		    "maybe %.4f\n"
		    "# inputs lacking a part (a CVE description has no trailers, a bare\n"
		    "# message no diff) get the part's average weight in the training commits\n"
		    "missing diff %.4f\n"
		    "missing trailers %.4f\n"
		    "missing author %.4f\n"
		    "#\n# weight  feature\n",
		    SM_MODEL_FORMAT, source, t->nr_docs, t->nr_positive,
		    100.0 * (double)t->nr_positive / (double)t->nr_docs, o->epochs, o->rate,
		    (unsigned long long)o->seed, o->l2, POINTS_PER_LOGIT, o->smoothing, o->min_df,
		    o->folds, cand_rule, res->oof_cand_precision, res->oof_cand_recall,
		    o->maybe_recall, res->oof_maybe_precision, res->oof_maybe_recall, res->bias,
		    res->candidate_p, res->maybe_p, res->missing[SM_PART_DIFF],
		    res->missing[SM_PART_TRAILERS], res->missing[SM_PART_PEOPLE]);
	for (size_t i = 0; i < n; i++) {
		uint32_t j = ids[i];
		double w = res->w[j];

		/* words weighing under 0.01 (one point of score) are left out */
		if (fabs(w) < (sm_feature_is_open(t->names[j], strlen(t->names[j])) ? 0.01 : 0.0005))
			continue;
		strbuf_addf(&sb, "weight %.3f %s\n", w, t->names[j]);
		kept++;
	}
	strbuf_addf(&sb, "# %zu features\n", kept);
	rc = write_file_atomic(path, sb.buf, sb.len);
	strbuf_release(&sb);
	free(ids);
	return rc;
}
