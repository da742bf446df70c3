/* tree_reviews: a NAK and the stable queue's word for one tree (see
 * tree_reviews.h). */
#include "trees/tree_reviews.h"
#include "lib/util.h"
#include <string.h>
#include <strings.h>

int sm_review_tree_covers(const char *tree, const struct sm_version *v)
{
	struct sm_version lo, hi;
	const char *end;

	if (!tree || sm_version_parse(tree, &end, &lo) < 0)
		return 0;
	if (!*end)
		return !sm_version_cmp_tree(&lo, v);
	if (*end != '-' || sm_version_parse(end + 1, &end, &hi) < 0 || *end)
		return 0;
	return sm_version_cmp_tree(&lo, v) <= 0 && sm_version_cmp_tree(v, &hi) <= 0;
}

static int has_trailer(const struct sm_review *r, int (*is)(const char *))
{
	for (size_t i = 0; i < r->trailers.nr; i++)
		if (is(r->trailers.items[i]))
			return 1;
	return 0;
}

/* Blocks of n for the tree in date order: indices into n->reviews. */
static size_t *dated_order(const struct sm_note *n, size_t *nr)
{
	size_t *at = xcalloc(n->nr ? n->nr : 1, sizeof(*at));
	long long *when = xcalloc(n->nr ? n->nr : 1, sizeof(*when));

	*nr = n->nr;
	for (size_t i = 0; i < n->nr; i++) {
		size_t k = i;

		when[i] = sm_review_date_epoch(n->reviews[i].date);
		/* insertion sort, stable: a few blocks a note */
		while (k > 0 && when[at[k - 1]] >= 0 && when[i] >= 0 && when[at[k - 1]] > when[i]) {
			at[k] = at[k - 1];
			k--;
		}
		at[k] = i;
	}
	free(when);
	return at;
}

/* The address of "Name <addr>" (or the whole text), its length in *len:
 * one sender may write their name two ways. */
static const char *address_of(const char *who, size_t *len)
{
	const char *lt = strrchr(who, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (!gt) {
		*len = strlen(who);
		return who;
	}
	*len = (size_t)(gt - lt - 1);
	return lt + 1;
}

static int same_sender(const char *a, const char *b)
{
	size_t la, lb;
	const char *x = address_of(a, &la), *y = address_of(b, &lb);

	return la && la == lb && !strncasecmp(x, y, la);
}

/* Did the sender of nak approve the patch for the tree after it? */
static int withdrawn(const struct sm_note *n, const size_t *order, size_t from, size_t nr,
		     const struct sm_version *v)
{
	const struct sm_review *nak = &n->reviews[order[from]];

	for (size_t k = from + 1; k < nr; k++) {
		const struct sm_review *r = &n->reviews[order[k]];

		if (sm_review_counts(r) && sm_review_tree_covers(r->tree, v) && r->author &&
		    nak->author && same_sender(r->author, nak->author) &&
		    has_trailer(r, sm_trailer_is_approval) && !has_trailer(r, sm_trailer_is_nak))
			return 1;
	}
	return 0;
}

void sm_tree_reviews_find(const struct sm_note *n, const struct sm_version *v,
			  struct sm_tree_reviews *out)
{
	size_t nr, *order = dated_order(n, &nr);

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < nr; k++) {
		const struct sm_review *r = &n->reviews[order[k]];

		if (!sm_review_tree_covers(r->tree, v))
			continue;
		if (sm_review_is_notice(r))
			out->notice = r;
		else if (sm_review_counts(r) && has_trailer(r, sm_trailer_is_nak) &&
			 !withdrawn(n, order, k, nr, v))
			out->nak = r;
	}
	free(order);
}

void sm_tree_reviews_nak_text(const struct sm_review *nak, struct strbuf *out)
{
	const char *comment = nak->comment ? nak->comment : "";
	size_t len = strcspn(comment, "\n");

	for (size_t i = 0; i < nak->trailers.nr; i++)
		if (sm_trailer_is_nak(nak->trailers.items[i])) {
			strbuf_addstr(out, nak->trailers.items[i]);
			break;
		}
	if (nak->date && *nak->date)
		strbuf_addf(out, " (%s)", nak->date);
	if (len)
		strbuf_addf(out, ": %.*s%s", (int)(len > 100 ? 100 : len), comment,
			    len > 100 ? "..." : "");
}

void sm_tree_reviews_notice_text(const struct sm_review *notice, struct strbuf *out)
{
	struct strlist ids = STRLIST_INIT;

	sm_review_notice_describe(notice, out);
	strbuf_addf(out, " (%s, %s)", notice->author && *notice->author ? notice->author : "no sender",
		    notice->date ? notice->date : "");
	sm_review_notice_dependencies(notice, &ids);
	for (size_t i = 0; i < ids.nr; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "; possible dependencies: ", ids.items[i]);
	strlist_clear(&ids);
}
