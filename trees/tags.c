#include "trees/tags.h"
#include "trees/repo.h"
#include "lib/util.h"
#include <string.h>

struct load_ctx {
	struct sm_release_tags *t;
	git_repository *repo;
};

static int tag_cb(const char *refname, void *payload)
{
	struct load_ctx *ctx = payload;
	struct sm_release *r;
	struct sm_version v;
	git_object *obj = NULL, *peeled = NULL;
	git_oid oid;
	const char *name;
	int rc;

	if (!skip_prefix(refname, "refs/tags/", &name))
		return 0;
	if (sm_version_from_tag(name, &v, &rc) < 0 || rc != 0 || v.patch > 0)
		return 0;
	if (git_reference_name_to_id(&oid, ctx->repo, refname) < 0 ||
	    git_object_lookup(&obj, ctx->repo, &oid, GIT_OBJECT_ANY) < 0)
		return 0;
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) == 0) {
		ALLOC_GROW(ctx->t->tags, ctx->t->nr, ctx->t->alloc);
		r = &ctx->t->tags[ctx->t->nr++];
		r->name = xstrdup(name);
		r->version = v;
		git_oid_cpy(&r->commit, git_object_id(peeled));
	}
	git_object_free(peeled);
	git_object_free(obj);
	return 0;
}

static int cmp_release(const void *a, const void *b)
{
	const struct sm_release *x = a, *y = b;

	return sm_version_cmp(&x->version, &y->version);
}

int sm_release_tags_load(struct sm_release_tags *t, git_repository *repo)
{
	struct load_ctx ctx = { t, repo };

	memset(t, 0, sizeof(*t));
	if (git_reference_foreach_name(repo, tag_cb, &ctx) < 0)
		return sm_error("%s: cannot list tags (%s)", sm_repo_name(repo), sm_git_error());
	qsort(t->tags, t->nr, sizeof(*t->tags), cmp_release);
	return 0;
}

void sm_release_tags_release(struct sm_release_tags *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->tags[i].name);
	free(t->tags);
	free(t->map);
	free(t->sorted);
	memset(t, 0, sizeof(*t));
}

struct sm_oid_release {
	git_oid id;
	int used;
	unsigned release;
};

static size_t oid_hash(const git_oid *id)
{
	size_t h;

	memcpy(&h, id->id, sizeof(h));
	return h;
}

static void map_put(struct sm_release_tags *t, const git_oid *id, unsigned release);

static void map_grow(struct sm_release_tags *t)
{
	struct sm_oid_release *old = t->map;
	size_t old_size = t->map_size;

	t->map_size = old_size ? old_size * 2 : 1024;
	t->map = xcalloc(t->map_size, sizeof(*t->map));
	t->map_nr = 0;
	for (size_t i = 0; i < old_size; i++)
		if (old[i].used)
			map_put(t, &old[i].id, old[i].release);
	free(old);
}

static void map_put(struct sm_release_tags *t, const git_oid *id, unsigned release)
{
	size_t i;

	if ((t->map_nr + 1) * 2 > t->map_size)
		map_grow(t);
	for (i = oid_hash(id) & (t->map_size - 1); t->map[i].used; i = (i + 1) & (t->map_size - 1))
		if (git_oid_equal(&t->map[i].id, id))
			return;		/* an older release already has it */
	t->map[i].used = 1;
	t->map[i].id = *id;
	t->map[i].release = release;
	t->map_nr++;
}

static const struct sm_oid_release *map_get(const struct sm_release_tags *t, const git_oid *id)
{
	if (!t->map_size)
		return NULL;
	for (size_t i = oid_hash(id) & (t->map_size - 1); t->map[i].used;
	     i = (i + 1) & (t->map_size - 1))
		if (git_oid_equal(&t->map[i].id, id))
			return &t->map[i];
	return NULL;
}

static int cmp_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

static void build_map(struct sm_release_tags *t, git_repository *repo)
{
	size_t n = 0;

	t->map_built = 1;
	for (size_t k = 0; k < t->nr; k++) {
		git_revwalk *w = NULL;
		git_oid id;

		if (git_revwalk_new(&w, repo) < 0)
			return;
		if (git_revwalk_push(w, &t->tags[k].commit) == 0) {
			for (size_t j = 0; j < k; j++)
				git_revwalk_hide(w, &t->tags[j].commit);
			while (git_revwalk_next(&id, w) == 0)
				map_put(t, &id, (unsigned)k);
		}
		git_revwalk_free(w);
	}
	t->sorted = xcalloc(t->map_nr + 1, sizeof(*t->sorted));
	for (size_t i = 0; i < t->map_size; i++)
		if (t->map[i].used)
			t->sorted[n++] = t->map[i].id;
	qsort(t->sorted, n, sizeof(*t->sorted), cmp_oid);
}

int sm_release_tags_resolve(struct sm_release_tags *t, git_repository *repo, const char *hex,
			    git_oid *out)
{
	size_t len = strlen(hex), lo = 0, hi;
	git_oid prefix;

	if (len < 7 || len > GIT_OID_HEXSZ || !is_hex_string(hex, len) ||
	    git_oid_fromstrn(&prefix, hex, len) < 0)
		return sm_resolve_hex(repo, hex, out);
	if (!t->map_built)
		build_map(t, repo);
	hi = t->map_nr;
	while (lo < hi) {	/* first oid >= prefix */
		size_t mid = lo + (hi - lo) / 2;

		if (git_oid_cmp(&t->sorted[mid], &prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->map_nr && !git_oid_ncmp(&t->sorted[lo], &prefix, len)) {
		if (lo + 1 < t->map_nr && !git_oid_ncmp(&t->sorted[lo + 1], &prefix, len))
			return -1;	/* ambiguous */
		*out = t->sorted[lo];
		return 0;
	}
	return sm_resolve_hex(repo, hex, out);
}

const struct sm_release *sm_first_release(struct sm_release_tags *t,
					  git_repository *repo, const git_oid *commit)
{
	const struct sm_oid_release *e;

	if (!t->map_built)
		build_map(t, repo);
	e = map_get(t, commit);
	return e ? &t->tags[e->release] : NULL;
}

const struct sm_release *sm_release_find(const struct sm_release_tags *t,
					 const struct sm_version *v)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!sm_version_cmp_tree(&t->tags[i].version, v))
			return &t->tags[i];
	return NULL;
}
