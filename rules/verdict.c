/* verdict: reasons, score and the resulting candidate/maybe/reject. */
#include "rules/rules_load.h"
#include "rules/model.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sm_verdict_init(struct sm_verdict *v)
{
	memset(v, 0, sizeof(*v));
}

struct sm_verdict_block {
	struct sm_verdict_block *next;
	size_t used, size;
	char data[];
};

/* Room for n more bytes of strings in v's newest block, or a new block
 * of size bytes (at least n) in front. */
static struct sm_verdict_block *verdict_room(struct sm_verdict *v, size_t n, size_t size)
{
	struct sm_verdict_block *b = v->blocks;

	if (!b || b->size - b->used < n) {
		if (size < n)
			size = n;
		b = xmalloc(sizeof(*b) + size);
		b->next = v->blocks;
		b->used = 0;
		b->size = size;
		v->blocks = b;
	}
	return b;
}

/* A copy of s[0..n) among v's strings. */
static char *verdict_strndup(struct sm_verdict *v, const char *s, size_t n)
{
	/* blocks of 512 bytes, then each twice the last */
	struct sm_verdict_block *b = verdict_room(v, n + 1, v->blocks ? 2 * v->blocks->size : 512);
	char *p;

	p = b->data + b->used;
	memcpy(p, s, n);
	p[n] = '\0';
	b->used += n + 1;
	return p;
}

/* Appends a reason with code and weight; its text is the caller's to set. */
static struct sm_reason *new_reason(struct sm_verdict *v, const char *code, int weight)
{
	struct sm_reason *r;

	ALLOC_GROW(v->reasons, v->nr_reasons, v->alloc_reasons);
	r = &v->reasons[v->nr_reasons++];
	r->code = verdict_strndup(v, code, strlen(code));
	r->text = NULL;
	r->weight = weight;
	return r;
}

static void add_reason(struct sm_verdict *v, const char *code, int weight, const char *fmt,
		       va_list ap)
{
	struct sm_reason *r = new_reason(v, code, weight);
	char buf[256];
	va_list again;
	int n;

	if (v->codes_only)
		return;
	/* most texts fit: formatted in place, no strbuf to grow */
	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0) {
		n = 0;
		buf[0] = '\0';
	}
	if ((size_t)n < sizeof(buf)) {
		r->text = verdict_strndup(v, buf, (size_t)n);
	} else {
		struct strbuf big = STRBUF_INIT;

		strbuf_vaddf(&big, fmt, again);
		r->text = verdict_strndup(v, big.buf, big.len);
		strbuf_release(&big);
	}
	va_end(again);
}

void sm_verdict_add(struct sm_verdict *v, const char *code, int weight, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_reason(v, code, weight, fmt, ap);
	va_end(ap);
}

void sm_verdict_add_reasons(struct sm_verdict *v, const struct sm_verdict *from)
{
	size_t need = 0;

	/* One block for all of from's strings and the few reasons a tree adds
	 * after them: a scan keeps a copy per tree of every commit, and the
	 * doubling blocks of one string at a time held twice what they used. */
	for (size_t i = 0; i < from->nr_reasons; i++) {
		need += strlen(from->reasons[i].code) + 1;
		if (!v->codes_only && from->reasons[i].text)
			need += strlen(from->reasons[i].text) + 1;
	}
	if (need)
		verdict_room(v, need, need + 256);
	if (v->nr_reasons + from->nr_reasons + 4 > v->alloc_reasons) {
		v->alloc_reasons = v->nr_reasons + from->nr_reasons + 4;
		v->reasons = xrealloc(v->reasons, v->alloc_reasons * sizeof(*v->reasons));
	}
	for (size_t i = 0; i < from->nr_reasons; i++) {
		const struct sm_reason *f = &from->reasons[i];

		struct sm_reason *r = new_reason(v, f->code, f->weight);

		if (!v->codes_only && f->text)
			r->text = verdict_strndup(v, f->text, strlen(f->text));
	}
}

void sm_verdict_veto(struct sm_verdict *v, const char *code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_reason(v, code, 0, fmt, ap);
	va_end(ap);
	v->vetoed = 1;
}

int sm_verdict_weight_sum(const struct sm_verdict *v)
{
	int score = 0;

	for (size_t i = 0; i < v->nr_reasons; i++)
		score += v->reasons[i].weight;
	return score;
}

void sm_verdict_finish(const struct sm_rules *r, struct sm_verdict *v)
{
	int score = sm_verdict_weight_sum(v);
	int candidate = sm_rules_candidate_score(r), maybe = sm_rules_maybe_score(r);
	int cap = r->model ? candidate - 1 : r->t.manual_only_cap;

	if (v->manual_only && score > cap)
		score = cap;
	v->score = score;
	if (v->vetoed)
		v->kind = SM_REJECT;
	else if (score >= candidate)
		v->kind = SM_CANDIDATE;
	else if (score >= maybe)
		v->kind = SM_MAYBE;
	else
		v->kind = SM_REJECT;
}

void sm_verdict_release(struct sm_verdict *v)
{
	while (v->blocks) {
		struct sm_verdict_block *next = v->blocks->next;

		free(v->blocks);
		v->blocks = next;
	}
	free(v->reasons);
	memset(v, 0, sizeof(*v));
}

const char *sm_verdict_name(enum sm_verdict_kind k)
{
	switch (k) {
	case SM_CANDIDATE:
		return "candidate";
	case SM_MAYBE:
		return "maybe";
	case SM_REJECT:
		break;
	}
	return "reject";
}

int sm_verdict_has(const struct sm_verdict *v, const char *code_prefix)
{
	size_t n = strlen(code_prefix);

	for (size_t i = 0; i < v->nr_reasons; i++)
		if (!strncmp(v->reasons[i].code, code_prefix, n))
			return 1;
	return 0;
}

static void reason_json(const struct sm_reason *r, struct json_writer *w)
{
	json_object_begin(w, NULL);
	json_string(w, "code", r->code);
	json_int(w, "weight", r->weight);
	json_string(w, "text", r->text);
	json_object_end(w);
}

void sm_verdict_json(const struct sm_verdict *v, struct json_writer *w, const char *key)
{
	json_object_begin(w, key);
	json_string(w, "verdict", sm_verdict_name(v->kind));
	json_int(w, "score", v->score);
	json_bool(w, "manual_only", v->manual_only);
	json_bool(w, "vetoed", v->vetoed);
	json_array_begin(w, "reasons");
	for (size_t i = 0; i < v->nr_reasons; i++)
		reason_json(&v->reasons[i], w);
	json_array_end(w);
	json_object_end(w);
}

void sm_verdict_reason_lines(const struct sm_verdict *v, const char *indent, struct strbuf *out)
{
	for (size_t i = 0; i < v->nr_reasons; i++)
		strbuf_addf(out, "%s%+5d  %-28s %s\n", indent, v->reasons[i].weight,
			    v->reasons[i].code, v->reasons[i].text ? v->reasons[i].text : "");
}

void sm_verdict_summary(const struct sm_verdict *v, struct strbuf *out)
{
	size_t listed = 0;

	strbuf_addf(out, "%s (score %d)", sm_verdict_name(v->kind), v->score);
	for (size_t i = 0; i < v->nr_reasons; i++) {
		const char *code = v->reasons[i].code;

		/* the score's bookkeeping, on every line alike: the facts only */
		if (!strcmp(code, SM_REASON_MODEL_BIAS) || !strcmp(code, SM_REASON_MODEL_OTHERS))
			continue;
		strbuf_addf(out, "%s%s", listed++ ? ", " : ": ", code);
	}
}
