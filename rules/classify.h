/* classify: the verdict on one commit, for one stable tree or for none.
 * The rules (keywords, authors, thresholds) are data files under rules/. */
#ifndef SM_RULES_CLASSIFY_H
#define SM_RULES_CLASSIFY_H
#include "rules/commit.h"
#include "lib/json.h"

enum sm_verdict_kind { SM_REJECT, SM_MAYBE, SM_CANDIDATE };

/* A reason's strings belong to its verdict (sm_verdict_release frees them). */
struct sm_reason {
	const char *code;	/* stable name: "stable-tag", "keyword:use-after-free" */
	const char *text;	/* one line for people */
	int weight;		/* score contribution (0 for notes) */
};

struct sm_verdict_block;

struct sm_verdict {
	enum sm_verdict_kind kind;
	int score;
	int vetoed;		/* a hard rule (merge, tree out of range) rejects */
	int manual_only;	/* noautosel: stable material, never auto-picked */
	int codes_only;		/* the reasons carry no text (NULL): sm_classify_codes */
	struct sm_reason *reasons;
	size_t nr_reasons, alloc_reasons;
	/* the reasons' strings, a few blocks for all of them: a verdict has
	 * a score of strings and a scan keeps 15,000 verdicts */
	struct sm_verdict_block *blocks;
};

struct sm_tree_ctx {
	const char *name;	/* "linux-6.1.y", or NULL */
	struct sm_version version;	/* major 0 = no tree given */
};

struct sm_rules;

/* Loads keywords.rules, authors.rules, thresholds.rules and, when present,
 * model.rules (the learned weights, rules/model.h) from dir; dir
 * NULL means $STABLEMATE_RULES, then the installed data, then the source
 * tree's rules/. Returns 0 or -1 (sm_error names file and line). */
int sm_rules_load(struct sm_rules **out, const char *dir);
void sm_rules_free(struct sm_rules *r);
/* The directory the rules came from. */
const char *sm_rules_dir(const struct sm_rules *r);
int sm_rules_candidate_score(const struct sm_rules *r);
int sm_rules_maybe_score(const struct sm_rules *r);
/* The weight of a reason that alone should make a commit a candidate
 * (scan's "fix-for-fix"): the candidate score with hand weights; with the
 * learned model, the distance from maybe to candidate (scores there are
 * log-odds, a commit's own evidence puts it near maybe already). */
int sm_rules_promote_weight(const struct sm_rules *r);

/* Classifies c for tree (NULL or version.major 0: for no particular tree). */
void sm_classify(const struct sm_rules *r, const struct sm_commit *c,
		 const struct sm_tree_ctx *tree, struct sm_verdict *out);
/* sm_classify, but the reasons carry codes and weights only (text NULL),
 * for a caller that prints no text (classify --batch): the same verdict,
 * score and reasons in the same order, without formatting what no one reads. */
void sm_classify_codes(const struct sm_rules *r, const struct sm_commit *c,
		       const struct sm_tree_ctx *tree, struct sm_verdict *out);
/* sm_classify of one commit for several trees: the learned model's part of
 * the verdict depends on the commit alone, so it is worked out once into
 * *model (sm_verdict_init'ed by the caller before the first call for the
 * commit, sm_verdict_release'd after the last) and copied by the next
 * calls. out is what sm_classify gives. */
void sm_classify_shared(const struct sm_rules *r, const struct sm_commit *c,
			const struct sm_tree_ctx *tree, struct sm_verdict *model,
			struct sm_verdict *out);
/* The first sm_classify_shared call's work on *model alone, ahead (scan
 * does it on the thread that loaded the commit); nothing without a model.
 * Any thread may classify; one that did frees its match data and feature
 * buffers with sm_classify_thread_release() before it ends. */
void sm_classify_model(const struct sm_rules *r, const struct sm_commit *c,
		       struct sm_verdict *model);
void sm_classify_thread_release(void);

/* For callers that add reasons of their own (scan: already present,
 * Fixes target not in the tree...): add, then re-run sm_verdict_finish. */
void sm_verdict_init(struct sm_verdict *v);
void sm_verdict_add(struct sm_verdict *v, const char *code, int weight,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void sm_verdict_veto(struct sm_verdict *v, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Appends copies of from's reasons (not its veto or manual_only). */
void sm_verdict_add_reasons(struct sm_verdict *v, const struct sm_verdict *from);
void sm_verdict_finish(const struct sm_rules *r, struct sm_verdict *v);
/* The sum of v's reason weights so far: its score before the cap of
 * manual-only tags (sm_verdict_finish). */
int sm_verdict_weight_sum(const struct sm_verdict *v);
void sm_verdict_release(struct sm_verdict *v);
const char *sm_verdict_name(enum sm_verdict_kind k);
int sm_verdict_has(const struct sm_verdict *v, const char *code_prefix);
/* {"verdict":..,"score":..,"manual_only":..,"reasons":[{code,weight,text}]} */
void sm_verdict_json(const struct sm_verdict *v, struct json_writer *w, const char *key);
/* The model's reasons that are the score's bookkeeping, not facts of the
 * commit: where every commit starts, and the features too light to list. */
#define SM_REASON_MODEL_BIAS "model:bias"
#define SM_REASON_MODEL_OTHERS "model:other-features"
/* "candidate (score 153): fixes-tag, keyword:fix, ..." (the model's bias
 * and other-features, on every line alike, left out). */
void sm_verdict_summary(const struct sm_verdict *v, struct strbuf *out);
/* One line a reason, as classify prints them: indent, the weight, the code
 * and what it says ("  +119  keyword:info-leak   says \"padding bytes\""). */
void sm_verdict_reason_lines(const struct sm_verdict *v, const char *indent, struct strbuf *out);

#endif
