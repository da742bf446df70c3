/* thread_series: a list's patch mails as the series they were sent as
 * (see thread_series.h). */
#include "mail/thread_series.h"
#include "rules/patch_subject.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* The series of key (total patches), made when first seen */
static size_t series_of(struct sm_thread_parts *p, char *key, unsigned total)
{
	size_t i;

	if (strmap_get(&p->by_key, key, &i)) {
		free(key);
		return i;
	}
	ALLOC_GROW(p->series, p->nr_series + 1, p->alloc_series);
	i = p->nr_series++;
	p->series[i].key = key;
	p->series[i].round = 0;
	p->series[i].has = xcalloc(total + 1, 1);
	p->series[i].total = total;
	strmap_put(&p->by_key, key, i);
	return i;
}

int sm_thread_parts_add(struct sm_thread_parts *p, const struct sm_mail *m, size_t at)
{
	struct sm_patch_subject ps;
	struct sm_thread_series_seen *s;
	size_t i;

	if (!sm_patch_subject_parse(m->subject, &ps) || ps.is_reply || ps.is_cover ||
	    ps.total < 2 || ps.total > SM_THREAD_SERIES_MAX || !ps.nr || ps.nr > ps.total)
		return 0;
	i = series_of(p, xasprintf("%s v%u /%u", sm_mail_thread_root(m), ps.version, ps.total),
		      ps.total);
	s = &p->series[i];
	if (s->has[ps.nr]) {
		/* its number again: the series sent again */
		s->round++;
		memset(s->has, 0, s->total + 1);
	}
	s->has[ps.nr] = 1;
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr].series = i;
	p->v[p->nr].nr = ps.nr;
	p->v[p->nr].round = s->round;
	p->v[p->nr].at = at;
	p->nr++;
	return 1;
}

/* by series, then round, then number (then the order given) */
static int by_round_then_nr(const void *a, const void *b)
{
	const struct sm_thread_part *x = *(const struct sm_thread_part *const *)a;
	const struct sm_thread_part *y = *(const struct sm_thread_part *const *)b;
	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

struct round {
	size_t from, n;		/* in the sorted array */
	size_t first;		/* its first mail given */
};

static int by_first(const void *a, const void *b)
{
	const struct round *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

int sm_thread_parts_each_round(struct sm_thread_parts *p, sm_thread_round_fn fn, void *ctx)
{
	struct sm_thread_part **sorted = xcalloc(p->nr + 1, sizeof(*sorted));
	struct round *rounds = xcalloc(p->nr + 1, sizeof(*rounds));
	size_t *ats = xcalloc(p->nr + 1, sizeof(*ats)), nr_rounds = 0;
	int ret = 0;

	for (size_t i = 0; i < p->nr; i++)
		sorted[i] = &p->v[i];
	qsort(sorted, p->nr, sizeof(*sorted), by_round_then_nr);
	for (size_t i = 0; i < p->nr; i++) {
		struct round *r = nr_rounds ? &rounds[nr_rounds - 1] : NULL;

		if (!r || sorted[r->from]->series != sorted[i]->series ||
		    sorted[r->from]->round != sorted[i]->round) {
			r = &rounds[nr_rounds++];
			r->from = i;
			r->n = 0;
			r->first = sorted[i]->at;
		}
		r->n++;
		if (sorted[i]->at < r->first)
			r->first = sorted[i]->at;
	}
	qsort(rounds, nr_rounds, sizeof(*rounds), by_first);
	for (size_t k = 0; k < nr_rounds && !ret; k++) {
		for (size_t i = 0; i < rounds[k].n; i++)
			ats[i] = sorted[rounds[k].from + i]->at;
		ret = fn(ats, rounds[k].n, ctx);
	}
	free(ats);
	free(rounds);
	free(sorted);
	return ret;
}

void sm_thread_parts_release(struct sm_thread_parts *p)
{
	for (size_t i = 0; i < p->nr_series; i++) {
		free(p->series[i].key);
		free(p->series[i].has);
	}
	free(p->series);
	strmap_clear(&p->by_key);
	free(p->v);
	memset(p, 0, sizeof(*p));
}
