/* train: fits the model of rules/model.h to labelled commits.
 *
 * Logistic regression by AdaGrad stochastic gradient descent over a fixed,
 * seeded order (the same input always gives the same file), with an L2
 * pull toward a prior: the hand weights of keywords.rules,
 * authors.rules and thresholds.rules (scaled to log-odds) for the fixed
 * features, 0 for words. A feature the data never shows keeps its hand
 * weight; one the data shows often moves to what the data says. Labels are
 * noisy (LTS ChangeLogs miss non-LTS trees; real fixes of bugs that never
 * reached a release are "not stable"), so the targets are smoothed
 * (1 - s/2 and s/2 instead of 1 and 0), rare open features are dropped and
 * the tier thresholds come from out-of-fold scores, not from the fit. */
#ifndef SM_RULES_TRAIN_H
#define SM_RULES_TRAIN_H
#include <stddef.h>
#include <stdint.h>
#include "rules/classify.h"

struct sm_trainset {
	char **names;		/* feature names, by id */
	uint32_t *df;		/* documents holding each feature */
	double *prior;		/* the hand weight, in log-odds */
	size_t nr_names, alloc_names;
	uint64_t *keys;		/* name hash -> id + 1, open addressing */
	uint32_t *slots;
	size_t mask;
	uint32_t *feat;		/* documents' feature ids, one run each */
	size_t nr_feat, alloc_feat;
	size_t *start;		/* document i: feat[start[i] .. start[i + 1]) */
	unsigned char *label;	/* 1 stable, 0 not */
	size_t nr_docs, alloc_docs;
	size_t nr_positive;
};

struct sm_progress;

struct sm_train_opts {
	unsigned min_df;		/* open features in fewer documents are left out */
	unsigned epochs;
	double rate;			/* AdaGrad's step */
	double l2;			/* pull toward the prior, per epoch */
	double smoothing;		/* label smoothing s */
	unsigned folds;			/* for the out-of-fold thresholds */
	double candidate_recall;	/* candidate: the highest threshold with this recall;
					 * 0: the threshold of the best F1 */
	double maybe_recall;		/* maybe: the same, for the wide net */
	uint64_t seed;
	/* a meter (lib/progress.h) the fit counts its folds on, or NULL */
	struct sm_progress *progress;
};

/* Sets every field: the defaults above, NULL and 0 elsewhere. */
void sm_train_opts_default(struct sm_train_opts *o);

struct sm_train_result {
	double bias;
	double *w;			/* by feature id */
	double candidate_p, maybe_p;
	double missing[4];		/* per part: its average weight, for inputs lacking it */
	/* the out-of-fold figures the thresholds were chosen on */
	double oof_cand_precision, oof_cand_recall, oof_maybe_precision, oof_maybe_recall;
};

/* Starts a set with the fixed features of r and their prior weights. */
void sm_trainset_init(struct sm_trainset *t, const struct sm_rules *r);
void sm_trainset_add(struct sm_trainset *t, const struct sm_rules *r, const struct sm_commit *c,
		     int stable);
void sm_trainset_release(struct sm_trainset *t);

/* Fits, then picks the thresholds on out-of-fold scores. Returns 0, or -1
 * when the set cannot be learned from (no stable or no other commit). */
int sm_train_fit(const struct sm_trainset *t, const struct sm_train_opts *o,
		 struct sm_train_result *res);
void sm_train_result_release(struct sm_train_result *res);

/* Writes the model file (atomically), features sorted by name; source is
 * one line saying what it was trained on. Returns 0 or -1 (sm_error). */
int sm_train_write(const struct sm_trainset *t, const struct sm_train_opts *o,
		   const struct sm_train_result *res, const char *source, const char *path);

#endif
