/* verdict: reasons, score and the resulting candidate/maybe/reject. */
#include "rules/rules_load.h"
#include "rules/model.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <stdarg.h>
#include <string.h>

void sm_verdict_init(struct sm_verdict *v)
{
	memset(v, 0, sizeof(*v));
}

/* Appends a reason with code and weight; its text is the caller's to set. */
static struct sm_reason *new_reason(struct sm_verdict *v, const char *code, int weight)
{
	struct sm_reason *r;

	ALLOC_GROW(v->reasons, v->nr_reasons, v->alloc_reasons);
	r = &v->reasons[v->nr_reasons++];
	r->code = xstrdup(code);
	r->weight = weight;
	return r;
}

static void add_reason(struct sm_verdict *v, const char *code, int weight, const char *fmt,
		       va_list ap)
{
	struct strbuf text = STRBUF_INIT;

	if (v->codes_only) {
		new_reason(v, code, weight)->text = NULL;
		return;
	}
	strbuf_vaddf(&text, fmt, ap);
	new_reason(v, code, weight)->text = strbuf_detach(&text, NULL);
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
	for (size_t i = 0; i < from->nr_reasons; i++) {
		const struct sm_reason *f = &from->reasons[i];

		new_reason(v, f->code, f->weight)->text =
			v->codes_only || !f->text ? NULL : xstrdup(f->text);
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

void sm_verdict_finish(const struct sm_rules *r, struct sm_verdict *v)
{
	int score = 0;
	int candidate = sm_rules_candidate_score(r), maybe = sm_rules_maybe_score(r);
	int cap = r->model ? candidate - 1 : r->t.manual_only_cap;

	for (size_t i = 0; i < v->nr_reasons; i++)
		score += v->reasons[i].weight;
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
	for (size_t i = 0; i < v->nr_reasons; i++) {
		free(v->reasons[i].code);
		free(v->reasons[i].text);
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

void sm_verdict_summary(const struct sm_verdict *v, struct strbuf *out)
{
	strbuf_addf(out, "%s (score %d)", sm_verdict_name(v->kind), v->score);
	for (size_t i = 0; i < v->nr_reasons; i++)
		strbuf_addf(out, "%s%s", i ? ", " : ": ", v->reasons[i].code);
}
