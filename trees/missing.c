#include "trees/missing.h"
#include "trees/upstream_index.h"
#include "trees/repo.h"
#include "lib/json.h"
#include "rules/version.h"
#include "lib/util.h"
#include <string.h>

static int skipped(const struct sm_upstream_entry *e)
{
	struct sm_version v;
	int rc;

	return starts_with(e->subject, "Merge ") ||
	       sm_version_from_release_subject(e->subject, &v, &rc);
}

static size_t compare(const struct sm_upstream_index *from, const struct sm_upstream_index *to,
		      struct sm_missing_side *side)
{
	size_t both = 0;

	for (size_t i = 0; i < from->nr; i++) {
		const struct sm_upstream_entry *e = &from->entries[i];
		const char *up = e->upstream[0] ? e->upstream : e->stable;
		struct sm_missing_entry *m;

		if (skipped(e))
			continue;
		side->total++;
		if (sm_upstream_index_find(to, up, e->patch_id, e->subject, NULL)) {
			both++;
			continue;
		}
		ALLOC_GROW(side->only, side->nr, side->alloc);
		m = &side->only[side->nr++];
		memcpy(m->upstream, up, 41);
		memcpy(m->stable, e->stable, 41);
		m->subject = xstrdup(e->subject);
	}
	return both;
}

int sm_missing(git_repository *repo, const char *a, const char *b, const char *cache_dir,
	       struct sm_missing_result *res)
{
	return sm_missing_progress(repo, a, b, cache_dir, res, NULL);
}

int sm_missing_progress(git_repository *repo, const char *a, const char *b,
			const char *cache_dir, struct sm_missing_result *res,
			struct sm_progress *progress)
{
	struct sm_upstream_index ia, ib;
	git_oid oa, ob, base;
	char ref_a[256], ref_b[256];	/* as they resolved: origin/x in a clone */
	int has_base, ret = -1;

	memset(res, 0, sizeof(*res));
	res->a.branch = a;
	res->b.branch = b;
	if (sm_resolve_branch(repo, a, &oa, ref_a, sizeof(ref_a)) < 0 ||
	    sm_resolve_branch(repo, b, &ob, ref_b, sizeof(ref_b)) < 0)
		return -1;
	a = ref_a;
	b = ref_b;
	has_base = git_merge_base(&base, repo, &oa, &ob) == 0;
	if (has_base)
		git_oid_tostr(res->base, sizeof(res->base), &base);
	if (sm_upstream_index_build_progress(&ia, repo, a, has_base ? &base : NULL, cache_dir,
					     progress) < 0)
		return -1;
	if (sm_upstream_index_build_progress(&ib, repo, b, has_base ? &base : NULL, cache_dir,
					     progress) < 0)
		goto out_a;
	res->a.cache = sm_cache_state_name(ia.cache_state);
	res->b.cache = sm_cache_state_name(ib.cache_state);
	res->in_both = compare(&ia, &ib, &res->a);
	compare(&ib, &ia, &res->b);
	ret = 0;
	sm_upstream_index_release(&ib);
out_a:
	sm_upstream_index_release(&ia);
	return ret;
}

static void side_release(struct sm_missing_side *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->only[i].subject);
	free(s->only);
}

void sm_missing_result_release(struct sm_missing_result *res)
{
	side_release(&res->a);
	side_release(&res->b);
	memset(res, 0, sizeof(*res));
}

static void entry_json(const struct sm_missing_entry *e, struct json_writer *w)
{
	json_object_begin(w, NULL);
	JSON_STRINGS(w, "upstream stable subject", e->upstream, e->stable, e->subject);
	json_object_end(w);
}

static void side_json(const struct sm_missing_side *s, struct json_writer *w, const char *key)
{
	json_object_begin(w, key);
	json_string(w, "branch", s->branch);
	json_int(w, "total", (long long)s->total);
	json_string(w, "index_cache", s->cache ? s->cache : "off");
	json_array_begin(w, "only_here");
	for (size_t i = 0; i < s->nr; i++)
		entry_json(&s->only[i], w);
	json_array_end(w);
	json_object_end(w);
}

void sm_missing_result_json(const struct sm_missing_result *res, struct json_writer *w)
{
	json_object_begin(w, NULL);
	json_string(w, "merge_base", res->base[0] ? res->base : NULL);
	json_int(w, "in_both", (long long)res->in_both);
	side_json(&res->a, w, "a");
	side_json(&res->b, w, "b");
	json_object_end(w);
}
