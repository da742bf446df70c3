/* features: the facts of one commit the learned model weighs, extracted
 * once, the same way for classify, scan and training. Every feature is
 * binary (present or not) and named, e.g. "stable-tag", "keyword:leak",
 * "s:leak" (a subject word), "b2:use after" (a body word pair),
 * "prefix:x86/mm", "diff:top:drivers", "author:tglx@linutronix.de".
 * Names are case-folded; each name is reported at most once a commit. */
#ifndef SM_RULES_FEATURES_H
#define SM_RULES_FEATURES_H
#include <stddef.h>
#include <stdint.h>
#include "rules/classify.h"

/* name is not NUL-terminated (len bytes, valid during the call); hash is
 * sm_feature_hash(name, len); detail, possibly NULL, says for people where
 * the feature came from ("subject says \"leak\""). */
typedef void (*sm_feature_fn)(void *ctx, const char *name, size_t len, uint64_t hash,
			      const char *detail);

void sm_features_extract(const struct sm_rules *r, const struct sm_commit *c, sm_feature_fn fn,
			 void *ctx);

/* A set of feature hashes, as a caller that only weighs features (the
 * model) knows them: bit sm_feature_filter_bit(hash) of its
 * SM_FEATURE_FILTER_BITS is set for each. It may hold more (two names may
 * share a bit), never fewer. */
#define SM_FEATURE_FILTER_BITS 262144
static inline size_t sm_feature_filter_bit(uint64_t hash)
{
	return (size_t)(hash >> 33) & (SM_FEATURE_FILTER_BITS - 1);
}

static inline int sm_feature_filter_has(const uint64_t *set, uint64_t hash)
{
	size_t bit = sm_feature_filter_bit(hash);

	return (set[bit / 64] >> (bit % 64)) & 1;
}

static inline void sm_feature_filter_add(uint64_t *set, uint64_t hash)
{
	size_t bit = sm_feature_filter_bit(hash);

	set[bit / 64] |= 1ull << (bit % 64);
}

/* The features of sm_features_extract in the same order, less those
 * outside known (NULL: none left out), with detail NULL unless
 * want_detail. Most word pairs are in no model: they are dropped here,
 * before the once-a-commit check and the call. */
void sm_features_extract_known(const struct sm_rules *r, const struct sm_commit *c,
			       const uint64_t *known, int want_detail, sm_feature_fn fn,
			       void *ctx);
/* Frees the calling thread's buffers of sm_features_extract. */
void sm_features_thread_release(void);

/* 64-bit FNV-1a: what the model file's names are looked up by. */
uint64_t sm_feature_hash(const char *name, size_t len);

/* Word features (s:, s2:, b:, b2:), subsystem prefixes and people are
 * "open" features, learned from the words they name; the rest are the
 * fixed facts (tags, trailers, keyword rules, diff facts). */
int sm_feature_is_open(const char *name, size_t len);

/* The part of a commit a feature comes from, for inputs that lack a part
 * (a CVE description has no trailers, a bare message no diff or author):
 * the model then adds the part's average weight over its training
 * commits instead of nothing. */
enum sm_feature_part { SM_PART_TEXT, SM_PART_DIFF, SM_PART_TRAILERS, SM_PART_PEOPLE, SM_NR_PARTS };
enum sm_feature_part sm_feature_part(const char *name, size_t len);
/* The parts c lacks, as a bit mask of 1 << part. */
unsigned sm_commit_missing_parts(const struct sm_commit *c);
const char *sm_feature_part_name(enum sm_feature_part part);

/* One line for people about a feature, by its name ("word \"leak\" in the
 * subject"); detail wins when given. */
void sm_feature_describe(const char *name, size_t len, const char *detail, struct strbuf *out);

#endif
