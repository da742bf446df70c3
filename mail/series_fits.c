/* series_fits: a list's series tried in patch order (see series_fits.h). */
#include "mail/series_fits.h"
#include "mail/message.h"
#include "mail/plain.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <string.h>

void sm_series_fits_add(struct sm_series_fits *s, const char *text, size_t len, size_t seq,
			const char *name)
{
	struct strbuf plain = STRBUF_INIT;
	struct sm_series_fit *f;
	struct sm_mail m;
	int added = sm_mail_parse(&m, text, len, name) == 0 &&
		    sm_thread_parts_add(&s->parts, &m, s->nr);

	sm_mail_release(&m);
	sm_clear_error();
	if (!added)
		return;
	if (sm_mail_is_encoded(text, len) && sm_mail_to_plain(text, len, name, &plain) == 0) {
		text = plain.buf;
		len = plain.len;
	}
	sm_clear_error();
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	f = &s->v[s->nr++];
	memset(f, 0, sizeof(*f));
	f->seq = seq;
	f->text = xmalloc(len + 1);
	memcpy(f->text, text, len);
	f->text[len] = '\0';
	f->len = len;
	strbuf_release(&plain);
}

struct round_ctx {
	struct sm_series_fits *s;
	struct sm_repo_judge *j;
};

/* One round of a series: its mails (indexes into s->v) in patch order. */
static int try_round(const size_t *ats, size_t n, void *ctx)
{
	struct round_ctx *rc = ctx;
	const char **texts = xcalloc(n, sizeof(*texts));
	size_t *lens = xcalloc(n, sizeof(*lens));
	enum sm_patch_fit *fits = xcalloc(n, sizeof(*fits));
	struct sm_patch_fit_info *infos = xcalloc(n, sizeof(*infos));

	for (size_t i = 0; i < n; i++) {
		texts[i] = rc->s->v[ats[i]].text;
		lens[i] = rc->s->v[ats[i]].len;
	}
	sm_repo_judge_series(rc->j, texts, lens, n, fits, infos);
	for (size_t i = 0; i < n; i++) {
		struct sm_series_fit *f = &rc->s->v[ats[i]];

		f->fit = fits[i];
		f->info = infos[i];	/* moved */
		free(f->text);
		f->text = NULL;
	}
	free(infos);
	free(fits);
	free(lens);
	free(texts);
	return 0;
}

void sm_series_fits_try(struct sm_series_fits *s, struct sm_repo_judge *j)
{
	struct round_ctx rc = { s, j };

	sm_thread_parts_each_round(&s->parts, try_round, &rc);
}

int sm_series_fits_take(struct sm_series_fits *s, size_t seq, enum sm_patch_fit *fit,
			struct sm_patch_fit_info *info)
{
	size_t lo = 0, hi = s->nr;
	struct sm_series_fit *f;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->nr || s->v[lo].seq != seq || s->v[lo].taken)
		return 0;
	f = &s->v[lo];
	f->taken = 1;
	*fit = f->fit;
	*info = f->info;
	memset(&f->info, 0, sizeof(f->info));
	return 1;
}

void sm_series_fits_release(struct sm_series_fits *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->v[i].text);
		sm_patch_fit_info_release(&s->v[i].info);
	}
	free(s->v);
	sm_thread_parts_release(&s->parts);
	memset(s, 0, sizeof(*s));
}
