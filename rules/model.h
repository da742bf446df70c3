/* model: the learned classifier, a logistic regression over the features
 * of rules/features.h, read from rules/model.rules (a text file: bias,
 * tier thresholds, one "weight  name" line per feature). A commit's score
 * is 100 x its log-odds of being stable material: the bias plus the
 * weights of the features it has. */
#ifndef SM_RULES_MODEL_H
#define SM_RULES_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include "rules/classify.h"
#include "rules/features.h"

#define SM_MODEL_FORMAT "stablemate-model 1"
#define SM_MODEL_SCALE 100.0	/* score units per unit of log-odds */
/* The largest weight, bias or missing-part value a model file may hold, in
 * log-odds (trained ones stay under 10): a sum of up to 2,048 of them, as
 * a score, still fits an int. */
#define SM_MODEL_MAX_WEIGHT 100.0

struct sm_model {
	char *path;
	double bias;
	double candidate_p, maybe_p;	/* tier thresholds as probabilities */
	int candidate, maybe;		/* the same as scores */
	double missing[4];		/* per sm_feature_part: added when c lacks it */
	struct sm_model_slot {
		uint32_t tag;		/* the hash's high half, | 1; 0 = empty */
		float weight;
	} *slots;			/* open addressing on the hash's low half:
					 * 8 bytes a slot, so the table stays in cache */
	size_t mask, nr;
	/* Per slot, where its feature's name is in names (bit 31: a hand
	 * rule's fact, listed among TOP_FIXED): for naming the few features
	 * a verdict lists without copying every name that might be listed. */
	uint32_t *name_at;
	char *names;			/* the file's text, names NUL-terminated in it */
	/* Bit sm_feature_filter_bit(hash) set for each feature in slots: a
	 * clear bit answers "no weight" from 32 KiB that stay in the
	 * first-level cache (most word pairs are not in the model); the
	 * feature extraction drops those features before they are asked.
	 * With 15,000 features, 1 name in 17 the model lacks passes it (1 in
	 * 5 with 8 KiB, which cost 4% more time). */
	uint64_t present[SM_FEATURE_FILTER_BITS / 64];
};

/* What sm_model_load returns when it did not fail (-1). */
enum sm_model_status {
	SM_MODEL_LOADED = 0,
	SM_MODEL_ABSENT = 1,	/* no such file: *out is NULL (the hand weights decide) */
};

/* Reads path. Returns SM_MODEL_LOADED, SM_MODEL_ABSENT, or -1 (sm_error
 * names file and line). */
int sm_model_load(struct sm_model **out, const char *path);
void sm_model_free(struct sm_model *m);
/* The weight of a feature by its name's hash, 0 when the model lacks it. */
double sm_model_weight(const struct sm_model *m, uint64_t hash);
/* Scores c: adds the reasons "model:bias", the features that weigh most
 * and "model:other-features", whose weights sum to the score. */
void sm_model_explain(const struct sm_rules *r, const struct sm_model *m,
		      const struct sm_commit *c, struct sm_verdict *v);
/* The log-odds of c alone (for training and benches: no reasons). */
double sm_model_logit(const struct sm_rules *r, const struct sm_model *m,
		      const struct sm_commit *c);
/* round(SM_MODEL_SCALE * log(p / (1 - p))) */
int sm_model_score_of(double p);

#endif
