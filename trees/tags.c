#include "trees/tags.h"
#include "trees/repo.h"
#include "trees/cache.h"
#include "lib/util.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include <glib.h>
#include <stdio.h>
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
	/* Releases are vX.Y; in the 2.6 years they were v2.6.N (v2.6.12, the
	 * first in git, holds 1da177e4c3f4 "Linux-2.6.12-rc2", the target of
	 * thousands of Fixes: lines), and v2.6.N.M their stable releases. */
	if (sm_version_from_tag(name, &v, &rc) < 0 || rc != 0 ||
	    (v.patch > 0 && !(v.major == 2 && v.minor == 6)))
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
	if (t->nr)	/* qsort(NULL, 0, ...) is undefined: a clone without tags */
		qsort(t->tags, t->nr, sizeof(*t->tags), cmp_release);
	return 0;
}

void sm_release_tags_release(struct sm_release_tags *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->tags[i].name);
	FREE_ALL(t->tags, t->map, t->sorted, t->map_cache_path);
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

/* The map on disk (release-map/<sha1 of the repository>.map), binary:
 *	stablemate-release-map 1\n
 *	tags <SHA-1 of the "name commit" lines of the tags, in version order>\n
 *	count <n>\n
 *	n x (20-byte commit id, 2-byte release index, little-endian), by id
 *	end <SHA-1 of everything above>\n
 * The tags line is the key: the map follows from the tags alone. */
#define MAP_MAGIC "stablemate-release-map 1\n"

static void map_header(const struct sm_release_tags *t, struct strbuf *sb)
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA1);
	char hex[GIT_OID_HEXSZ + 1];

	for (size_t k = 0; k < t->nr; k++) {
		git_oid_tostr(hex, sizeof(hex), &t->tags[k].commit);
		g_checksum_update(ck, (const guchar *)t->tags[k].name, (gssize)strlen(t->tags[k].name));
		g_checksum_update(ck, (const guchar *)" ", 1);
		g_checksum_update(ck, (const guchar *)hex, GIT_OID_HEXSZ);
		g_checksum_update(ck, (const guchar *)"\n", 1);
	}
	strbuf_addf(sb, MAP_MAGIC "tags %s\n", g_checksum_get_string(ck));
	g_checksum_free(ck);
}

/* Reads the cached map for these tags; 0, or -1 when there is none. */
static int read_map(struct sm_release_tags *t)
{
	struct strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	const unsigned char *p, *end;
	unsigned long long count = 0;
	size_t size = 1024, digits = 0, body;
	int ret = -1;

	if (read_file(t->map_cache_path, &text) < 0) {
		sm_clear_error();
		goto out;
	}
	if (!sm_cache_check_sum(text.buf, text.len, &body))
		goto out;
	map_header(t, &want);
	if (body < want.len || memcmp(text.buf, want.buf, want.len) ||
	    strncmp(text.buf + want.len, "count ", 6))
		goto out;
	p = (const unsigned char *)text.buf + want.len + 6;
	end = (const unsigned char *)text.buf + body;
	/* The digits, then the newline (binary data follows: no sscanf). */
	for (; p < end && *p >= '0' && *p <= '9' && count < (1ULL << 40); p++, digits++)
		count = count * 10 + (unsigned)(*p - '0');
	if (!digits || p >= end || *p++ != '\n')
		goto out;
	if ((unsigned long long)(end - p) != count * 22)
		goto out;
	while (size < (count + 1) * 2)
		size *= 2;
	t->map_size = size;
	t->map = xcalloc(size, sizeof(*t->map));
	t->sorted = xcalloc(count + 1, sizeof(*t->sorted));
	for (size_t i = 0; i < count; i++, p += 22) {
		unsigned release = p[20] | (unsigned)p[21] << 8;

		if (release >= t->nr)
			goto out;
		memcpy(t->sorted[i].id, p, GIT_OID_RAWSZ);
		if (i && git_oid_cmp(&t->sorted[i - 1], &t->sorted[i]) >= 0)
			goto out;
		map_put(t, &t->sorted[i], release);
	}
	ret = 0;
out:
	if (ret < 0) {
		free(t->map);
		free(t->sorted);
		t->map = NULL;
		t->sorted = NULL;
		t->map_size = t->map_nr = 0;
	}
	strbuf_release(&want);
	strbuf_release(&text);
	return ret;
}

static void write_map(const struct sm_release_tags *t)
{
	struct strbuf sb = STRBUF_INIT;

	map_header(t, &sb);
	strbuf_addf(&sb, "count %zu\n", t->map_nr);
	for (size_t i = 0; i < t->map_nr; i++) {
		unsigned release = map_get(t, &t->sorted[i])->release;

		strbuf_add(&sb, t->sorted[i].id, GIT_OID_RAWSZ);
		strbuf_addch(&sb, (char)(release & 0xff));
		strbuf_addch(&sb, (char)(release >> 8));
	}
	sm_cache_add_sum(&sb);
	write_cache_file(t->map_cache_path, sb.buf, sb.len, "release map");
	strbuf_release(&sb);
}

void sm_release_tags_cache(struct sm_release_tags *t, git_repository *repo,
			   const char *cache_dir)
{
	free(t->map_cache_path);
	t->map_cache_path = sm_cache_file(cache_dir, "release-map", git_repository_path(repo),
					  ".map");
	t->map_cache_state = SM_CACHE_OFF;
}

static void build_map(struct sm_release_tags *t, git_repository *repo)
{
	size_t n = 0;
	int err, complete = 1;

	t->map_built = 1;
	if (t->map_cache_path) {
		int exists = file_exists(t->map_cache_path);

		if (exists && t->nr <= 0xffff && read_map(t) == 0) {
			t->map_cache_state = SM_CACHE_HIT;
			return;
		}
		t->map_cache_state = exists ? SM_CACHE_REBUILT : SM_CACHE_NEW;
	}
	for (size_t k = 0; k < t->nr; k++) {
		git_revwalk *w = NULL;
		git_oid id;

		if (git_revwalk_new(&w, repo) < 0)
			return;
		if (git_revwalk_push(w, &t->tags[k].commit) == 0) {
			for (size_t j = 0; j < k; j++)
				git_revwalk_hide(w, &t->tags[j].commit);
			while ((err = git_revwalk_next(&id, w)) == 0)
				map_put(t, &id, (unsigned)k);
			complete &= err == GIT_ITEROVER;
		}
		git_revwalk_free(w);
	}
	t->sorted = xcalloc(t->map_nr + 1, sizeof(*t->sorted));
	for (size_t i = 0; i < t->map_size; i++)
		if (t->map[i].used)
			t->sorted[n++] = t->map[i].id;
	qsort(t->sorted, n, sizeof(*t->sorted), cmp_oid);
	/* A walk that failed half-way is not kept. */
	if (t->map_cache_path && t->nr <= 0xffff && complete)
		write_map(t);
}

void sm_release_tags_prepare(struct sm_release_tags *t, git_repository *repo)
{
	if (!t->map_built)
		build_map(t, repo);
}

int sm_release_tags_resolve(struct sm_release_tags *t, git_repository *repo, const char *hex,
			    git_oid *out)
{
	size_t len = strlen(hex), lo = 0, hi;
	git_oid prefix;

	if (len < 7 || len > GIT_OID_HEXSZ || !is_hex_string(hex, len) ||
	    git_oid_fromstrn(&prefix, hex, len) < 0)
		return sm_resolve_hex(repo, hex, out);
	t->map_used = 1;
	sm_release_tags_prepare(t, repo);
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

	t->map_used = 1;
	sm_release_tags_prepare(t, repo);
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
