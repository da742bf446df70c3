/* tree_reviews: a NAK and the stable queue's word for one tree (see
 * tree_reviews.h). */
#include "trees/tree_reviews.h"
#include "lib/util.h"
#include <limits.h>
#include <stdlib.h>
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

struct dated {
	long long when;		/* its date, or that of the dated block before it */
	size_t at;		/* its index in the note */
};

static int by_date(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;

	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The blocks of n in date order, as indices into n->reviews (*nr of
 * them): a block without a readable date stays right after the block
 * before it. A sort, not an insertion: a note is anyone's text, and may
 * hold thousands of blocks. */
static size_t *dated_order(const struct sm_note *n, size_t *nr)
{
	struct dated *d = xcalloc(n->nr ? n->nr : 1, sizeof(*d));
	size_t *at = xcalloc(n->nr ? n->nr : 1, sizeof(*at));
	long long last = LLONG_MIN;

	for (size_t i = 0; i < n->nr; i++) {
		long long when = sm_review_date_epoch(n->reviews[i].date);

		if (when >= 0)
			last = when;
		d[i].when = last;
		d[i].at = i;
	}
	qsort(d, n->nr, sizeof(*d), by_date);
	for (size_t i = 0; i < n->nr; i++)
		at[i] = d[i].at;
	free(d);
	*nr = n->nr;
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

/* The sender's address, lower case, for comparing: "" when none. */
static char *sender_key(const char *who)
{
	size_t len;
	const char *a = address_of(who ? who : "", &len);
	char *key = xstrndup(a, len);

	for (char *p = key; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return key;
}

/* From the latest block back: the first notice is the latest; a NAK
 * stands unless its sender approved the patch for the tree in a later
 * block, which the walk has seen already (approved). So the first NAK
 * that stands is the latest, and the walk stops once it has both. */
void sm_tree_reviews_find(const struct sm_note *n, const struct sm_version *v,
			  struct sm_tree_reviews *out)
{
	size_t nr, *order = dated_order(n, &nr);
	struct strlist approved = STRLIST_INIT;

	memset(out, 0, sizeof(*out));
	for (size_t k = nr; k-- > 0 && !(out->nak && out->notice);) {
		const struct sm_review *r = &n->reviews[order[k]];
		int nak;
		char *who;

		if (!sm_review_tree_covers(r->tree, v))
			continue;
		if (sm_review_is_notice(r)) {
			if (!out->notice)
				out->notice = r;
			continue;
		}
		if (!sm_review_counts(r) || out->nak)
			continue;
		nak = has_trailer(r, sm_trailer_is_nak);
		who = sender_key(r->author);
		if (nak && (!*who || !strlist_contains(&approved, who)))
			out->nak = r;
		else if (!nak && *who && has_trailer(r, sm_trailer_is_approval) &&
			 !strlist_contains(&approved, who))
			strlist_append(&approved, who);
		free(who);
	}
	strlist_clear(&approved);
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
