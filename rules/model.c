/* model: rules/model.rules read, and one commit scored and explained. */
#include "rules/model.h"
#include "rules/features.h"
#include "rules/rules_load.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOP_FIXED 12	/* the hand rules' facts (tags, keywords, sizes) listed */
#define TOP_OPEN 6	/* other features (words, subsystems, paths...) listed */

/* The features the hand rules had (keywords.rules, authors.rules and the
 * structural rules): a maintainer knows them, so they are listed whenever
 * they count, ahead of the strongest of the others. */
static int is_rule_feature(const char *name, size_t len)
{
	/* the words ("s:", "b2:"...), most of what is asked, have none of
	 * these prefixes */
	if (len >= 3 && (name[1] == ':' || name[2] == ':'))
		return 0;
	static const char *const prefixes[] = { "keyword:", "subject-keyword:", "stable-", "fixes-",
						"person:", "reported-by:" };
	static const char *const names[] = { "tiny-diff", "too-large", "docs-only", "device-id",
					     "revert" };

	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (len >= strlen(prefixes[i]) && !memcmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (len == strlen(names[i]) && !memcmp(name, names[i], len))
			return 1;
	return 0;
}

int sm_model_score_of(double p)
{
	if (p <= 0)
		p = 1e-6;
	if (p >= 1)
		p = 1 - 1e-6;
	return (int)lround(SM_MODEL_SCALE * log(p / (1 - p)));
}

/* A name is found by the low bits of its 64-bit hash (the slot) and the
 * high half (a 31-bit tag): a name the model lacks is taken for one it has
 * about once in 2^31 lookups — rare, and always the same for the same
 * name, so the score stays deterministic. */
static size_t slot_of(uint64_t h, size_t mask)
{
	return (size_t)h & mask;
}

static uint32_t tag_of(uint64_t h)
{
	return (uint32_t)(h >> 32) | 1;
}

#define NAME_IS_RULE (1u << 31)
/* the weight shows as a score of its own (round(SM_MODEL_SCALE * w) is
 * not 0), so a verdict may list it */
#define NAME_IS_LISTED (1u << 30)
#define NAME_AT(v) ((v) & ~(NAME_IS_RULE | NAME_IS_LISTED))

static void put(struct sm_model *m, uint64_t h, float w, uint32_t name_at)
{
	size_t i = slot_of(h, m->mask);
	uint32_t tag = tag_of(h);

	while (m->slots[i].tag && m->slots[i].tag != tag)
		i = (i + 1) & m->mask;
	if (!m->slots[i].tag)
		m->nr++;
	m->slots[i].tag = tag;
	m->slots[i].weight = w;
	m->name_at[i] = name_at | (lround(SM_MODEL_SCALE * w) ? NAME_IS_LISTED : 0);
	sm_feature_filter_add(m->present, h);
}

/* The slot of the feature with hash h, or -1 when the model lacks it. */
static inline long slot_find(const struct sm_model *m, uint64_t h)
{
	size_t i = slot_of(h, m->mask);
	uint32_t tag = tag_of(h);

	/* only a slot with this very tag can answer */
	if (!sm_feature_filter_has(m->present, h))
		return -1;
	while (m->slots[i].tag) {
		if (m->slots[i].tag == tag)
			return (long)i;
		i = (i + 1) & m->mask;
	}
	return -1;
}

/* sm_model_weight, inlined into the per-feature callbacks */
static inline double weight_of(const struct sm_model *m, uint64_t h)
{
	long i = slot_find(m, h);

	return i < 0 ? 0 : m->slots[i].weight;
}

double sm_model_weight(const struct sm_model *m, uint64_t h)
{
	return weight_of(m, h);
}

static int parse_double(const char *s, double *out)
{
	char *e;

	errno = 0;
	*out = strtod(s, &e);
	return errno || e == s || (*e && !isspace((unsigned char)*e)) || !isfinite(*out) ? -1 : 0;
}

/* A weight, bias or missing-part value: at most SM_MODEL_MAX_WEIGHT. */
static int parse_weight(const char *s, double *out)
{
	return parse_double(s, out) || fabs(*out) > SM_MODEL_MAX_WEIGHT ? -1 : 0;
}

int sm_model_load(struct sm_model **out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct sm_model *m;
	size_t lines = 0, slots = 1024;
	unsigned lineno = 0;
	int have_format = 0, have_bias = 0, have_c = 0, have_m = 0;

	*out = NULL;
	if (!file_exists(path))
		return SM_MODEL_ABSENT;
	if (read_file(path, &sb))
		return -1;
	for (size_t i = 0; i < sb.len; i++)
		lines += sb.buf[i] == '\n';
	while (slots < lines + lines / 2 + 2)
		slots *= 2;
	m = xcalloc(1, sizeof(*m));
	m->path = xstrdup(path);
	m->slots = xcalloc(slots, sizeof(*m->slots));
	m->name_at = xcalloc(slots, sizeof(*m->name_at));
	m->mask = slots - 1;
	for (char *line = sb.buf + utf8_bom_len(sb.buf, sb.len), *nl; line && *line; line = nl) {
		char *key, *val, *end;
		double d;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		lineno++;
		/* trailing blanks, "\r" of a file written on Windows among them,
		 * are no part of a feature's name */
		for (end = line + strlen(line); end > line && isspace((unsigned char)end[-1]);)
			*--end = '\0';
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line || *line == '#')
			continue;
		key = line;
		val = key + strcspn(key, " \t");
		if (*val)
			*val++ = '\0';
		while (*val == ' ' || *val == '\t')
			val++;
		if (!strcmp(key, "format")) {
			if (strcmp(val, SM_MODEL_FORMAT))
				goto bad_format;
			have_format = 1;
			continue;
		}
		if (!have_format)
			goto bad_format;
		if (!strcmp(key, "weight")) {
			char *name = val + strcspn(val, " \t");
			size_t len, at;

			while (*name == ' ' || *name == '\t')
				name++;
			len = strlen(name);
			at = (size_t)(name - sb.buf);	/* where m->names will have it */
			if (!*name || parse_weight(val, &d) || at > NAME_AT(UINT32_MAX))
				goto bad_line;
			put(m, sm_feature_hash(name, len), (float)d,
			    (uint32_t)at | (is_rule_feature(name, len) ? NAME_IS_RULE : 0));
		} else if (!strcmp(key, "missing")) {
			char *num = val + strcspn(val, " \t");
			int part = -1;

			if (*num)
				*num++ = '\0';
			for (int k = 1; k < SM_NR_PARTS; k++)
				if (!strcmp(val, sm_feature_part_name((enum sm_feature_part)k)))
					part = k;
			if (part < 0 || parse_weight(num, &d))
				goto bad_line;
			m->missing[part] = d;
		} else if (!strcmp(key, "bias") || !strcmp(key, "candidate") || !strcmp(key, "maybe")) {
			if (key[0] == 'b' ? parse_weight(val, &d) : parse_double(val, &d))
				goto bad_line;
			if (key[0] == 'b') {
				m->bias = d;
				have_bias = 1;
			} else if (d <= 0 || d >= 1) {
				goto bad_line;
			} else if (key[0] == 'c') {
				m->candidate_p = d;
				have_c = 1;
			} else {
				m->maybe_p = d;
				have_m = 1;
			}
		} else {
			/* other settings (training notes) are for people */
			continue;
		}
	}
	if (!have_format) {
		lineno = 1;
		goto bad_format;
	}
	if (!have_bias || !have_c || !have_m || m->maybe_p > m->candidate_p) {
		sm_error("%s: needs \"bias\", \"candidate\" and \"maybe\" (maybe <= candidate)", path);
		goto fail;
	}
	m->candidate = sm_model_score_of(m->candidate_p);
	m->maybe = sm_model_score_of(m->maybe_p);
	m->names = strbuf_detach(&sb, NULL);
	*out = m;
	return SM_MODEL_LOADED;
bad_format:
	sm_error("%s:%u: not a model file (expected \"format %s\" first)", path, lineno,
		 SM_MODEL_FORMAT);
	goto fail;
bad_line:
	sm_error("%s:%u: expected \"weight NUMBER NAME\", \"missing diff|trailers|author NUMBER\" or "
		 "\"bias|candidate|maybe NUMBER\" (weights and bias at most %g either way, "
		 "candidate and maybe in (0, 1))", path, lineno, SM_MODEL_MAX_WEIGHT);
fail:
	strbuf_release(&sb);
	sm_model_free(m);
	return -1;
}

void sm_model_free(struct sm_model *m)
{
	if (!m)
		return;
	free(m->path);
	free(m->slots);
	free(m->name_at);
	free(m->names);
	free(m);
}

/* A feature a verdict may list: its weight and slot (the model has its
 * name: nothing is copied for the many features that rank for a while and
 * then drop off) and, for people, where it came from. */
struct hit {
	double w;
	uint32_t slot;
	int has_detail;
	char detail[100];
};

struct explain {
	const struct sm_model *m;
	double sum;
	unsigned others;
	struct hit fixed[TOP_FIXED], open[TOP_OPEN];
	size_t nr_fixed, nr_open;
};

/* Keeps the list sorted by |w|, largest first; ties keep arrival order. */
static void keep(struct hit *list, size_t *nr, size_t max, double w, uint32_t slot,
		 const char *detail)
{
	size_t at = *nr;

	while (at > 0 && fabs(list[at - 1].w) < fabs(w))
		at--;
	if (at >= max)
		return;
	if (*nr < max)
		(*nr)++;
	memmove(&list[at + 1], &list[at], (*nr - 1 - at) * sizeof(*list));
	list[at].w = w;
	list[at].slot = slot;
	list[at].has_detail = detail != NULL;
	if (detail)
		snprintf(list[at].detail, sizeof(list[at].detail), "%s", detail);
}

static void keep_hit(struct hit *list, size_t *nr, size_t max, const struct hit *h)
{
	keep(list, nr, max, h->w, h->slot, h->has_detail ? h->detail : NULL);
}

static const char *name_of(const struct sm_model *m, uint32_t slot)
{
	return m->names + NAME_AT(m->name_at[slot]);
}

static void explain_feature(void *ctx, const char *name, size_t len, uint64_t hash,
			    const char *detail)
{
	struct explain *x = ctx;
	long i = slot_find(x->m, hash);
	double w;

	(void)name, (void)len;
	if (i < 0 || (w = x->m->slots[i].weight) == 0)
		return;
	x->sum += w;
	x->others++;
	/* "+0" says nothing (and a hand rule's note of the same code, such as
	 * stable-prereq's "apply X first", is listed already): left to
	 * model:other-features */
	if (!(x->m->name_at[i] & NAME_IS_LISTED))
		return;
	if (x->m->name_at[i] & NAME_IS_RULE)
		keep(x->fixed, &x->nr_fixed, TOP_FIXED, w, (uint32_t)i, detail);
	else
		keep(x->open, &x->nr_open, TOP_OPEN, w, (uint32_t)i, detail);
}

static void sum_feature(void *ctx, const char *name, size_t len, uint64_t hash, const char *detail)
{
	struct explain *x = ctx;

	(void)name, (void)len, (void)detail;
	x->sum += weight_of(x->m, hash);
}

double sm_model_logit(const struct sm_rules *r, const struct sm_model *m, const struct sm_commit *c)
{
	struct explain x;

	unsigned missing = sm_commit_missing_parts(c);

	x.m = m;
	x.sum = m->bias;
	sm_features_extract_known(r, c, m->present, 0, sum_feature, &x);
	for (int k = 1; k < SM_NR_PARTS; k++)
		if (missing & (1u << k))
			x.sum += m->missing[k];
	return x.sum;
}

static void add_hits(const struct sm_model *m, struct sm_verdict *v, const struct hit *h,
		     size_t nr, int *listed)
{
	struct strbuf text = STRBUF_INIT;

	for (size_t i = 0; i < nr; i++) {
		const char *name = name_of(m, h[i].slot);
		int w = (int)lround(SM_MODEL_SCALE * h[i].w);

		if (v->codes_only) {
			sm_verdict_add(v, name, w, "%s", "");
			*listed += w;
			continue;
		}
		strbuf_reset(&text);
		sm_feature_describe(name, strlen(name), h[i].has_detail ? h[i].detail : NULL, &text);
		sm_verdict_add(v, name, w, "%s", text.buf);
		*listed += w;
	}
	strbuf_release(&text);
}

void sm_model_explain(const struct sm_rules *r, const struct sm_model *m,
		      const struct sm_commit *c, struct sm_verdict *v)
{
	struct explain xs, *x = &xs;
	int total, bias, listed = 0;

	unsigned missing = sm_commit_missing_parts(c);

	x->m = m;
	x->sum = 0;
	x->others = 0;
	x->nr_fixed = x->nr_open = 0;
	sm_features_extract_known(r, c, m->present, !v->codes_only, explain_feature, x);
	total = (int)lround(SM_MODEL_SCALE * (m->bias + x->sum));
	bias = (int)lround(SM_MODEL_SCALE * m->bias);
	sm_verdict_add(v, SM_REASON_MODEL_BIAS, bias,
		       "where every commit starts (the training data's base rate)");
	for (int k = 1; k < SM_NR_PARTS; k++) {
		int w = (int)lround(SM_MODEL_SCALE * m->missing[k]);
		char code[32];

		if (!(missing & (1u << k)) || !w)
			continue;
		strcpy(code, "model:no-");
		strcat(code, sm_feature_part_name((enum sm_feature_part)k));
		sm_verdict_add(v, code, w, "no %s given: what it weighs on average in the training commits",
			       sm_feature_part_name((enum sm_feature_part)k));
		total += w;
		listed += w;
	}
	/* the strongest of both kinds, in one list by weight */
	{
		struct hit all[TOP_FIXED + TOP_OPEN];
		size_t n = 0;

		for (size_t i = 0; i < x->nr_fixed; i++)
			keep_hit(all, &n, ARRAY_SIZE(all), &x->fixed[i]);
		for (size_t i = 0; i < x->nr_open; i++)
			keep_hit(all, &n, ARRAY_SIZE(all), &x->open[i]);
		add_hits(m, v, all, n, &listed);
		x->others -= (unsigned)n;
	}
	if (x->others)
		sm_verdict_add(v, SM_REASON_MODEL_OTHERS, total - bias - listed,
			       "%u more feature%s, each weighing less", x->others,
			       x->others == 1 ? "" : "s");
}
