/* lifecycle: the index of later Fixes: targets, reverts and stable-tag
 * prerequisites (see lifecycle.h). */
#include "trees/lifecycle.h"
#include "trees/branch_cache.h"
#include "trees/repo.h"
#include "rules/commit.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* 2: subjects in UTF-8 (a commit in another charset converted, not as stored)
 * 3: the prerequisites stable tags name, as "+id" after the Fixes: ids */
#define CACHE_MAGIC "stablemate-lifecycle-index 3"
#define MIN_ABBREV 7

enum { REF_FIXES, REF_REVERTS, REF_NEEDS };

struct sm_life_ref {
	char named[41];		/* the id as written, lower case */
	size_t entry;		/* the commit that names it */
	int kind;
};

/* Copies the hex run at p (MIN_ABBREV..40 digits, then no hex digit) to
 * out in lower case; 0 when there is none. */
static int hex_run(const char *p, char out[41])
{
	size_t n = 0;

	while (isxdigit((unsigned char)p[n]) && n <= 40)
		n++;
	if (n < MIN_ABBREV || n > 40)
		return 0;
	for (size_t i = 0; i < n; i++)
		out[i] = tolower((unsigned char)p[i]);
	out[n] = '\0';
	return 1;
}

/* Appends the prerequisite a stable tag line (p, up to its newline nl or
 * the end) names, as "+id", to refs. */
static void add_prereq(const char *p, const char *nl, struct strbuf *refs)
{
	size_t len = nl ? (size_t)(nl - p) : strlen(p);
	struct sm_stable_tag t;
	char *line, hex[41];

	if (!memmem(p, len, "stable", 6) || !memchr(p, '#', len))
		return;		/* no stable tag with a version comment */
	line = xstrndup(p, len);
	if (sm_stable_tag_parse(line, &t) == 1) {
		if (t.prereq_sha && hex_run(t.prereq_sha, hex)) {
			if (refs->len)
				strbuf_addch(refs, ',');
			strbuf_addf(refs, "+%s", hex);
		}
		sm_stable_tag_release(&t);
	}
	free(line);
}

/* Reads the Fixes: ids, the prerequisites of the stable tags ("+id") and
 * the reverted id out of a commit message. */
static void parse_message(const char *msg, char reverts[41], struct strbuf *refs)
{
	const char *p = msg, *r;
	char hex[41];

	reverts[0] = '\0';
	r = strstr(msg, "This reverts commit ");
	if (r && !hex_run(r + strlen("This reverts commit "), reverts))
		reverts[0] = '\0';
	while (p && *p) {
		const char *nl = strchr(p, '\n'), *v;

		if (istarts_with(p, "Fixes:")) {
			v = p + strlen("Fixes:");
			while (*v == ' ' || *v == '\t')
				v++;
			if (istarts_with(v, "commit "))
				v += strlen("commit ");
			if (hex_run(v, hex)) {
				if (refs->len)
					strbuf_addch(refs, ',');
				strbuf_addstr(refs, hex);
			}
		} else if (istarts_with(p, "Cc:")) {
			add_prereq(p, nl, refs);
		}
		p = nl ? nl + 1 : NULL;
	}
}

static struct sm_life_entry *new_entry(struct sm_lifecycle *lc)
{
	struct sm_life_entry *e;

	ALLOC_GROW(lc->entries, lc->nr, lc->alloc);
	e = &lc->entries[lc->nr++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* Reads one commit into a new entry (sm_branch_index_ops.add_commit). */
static int index_commit(void *data, git_repository *repo, const git_oid *id)
{
	struct sm_lifecycle *lc = data;
	git_commit *c = NULL;
	const char *msg;
	char *owned_msg;
	struct sm_life_entry *e;
	struct strbuf refs = STRBUF_INIT;

	if (git_commit_lookup(&c, repo, id) < 0) {
		char hex[41];

		git_oid_tostr(hex, sizeof(hex), id);
		return sm_error("%s: commit %s unreadable (%s)", lc->refname, hex, sm_git_error());
	}
	msg = sm_commit_utf8(c, git_commit_message(c), &owned_msg);
	e = new_entry(lc);
	git_oid_tostr(e->id, sizeof(e->id), id);
	parse_message(msg ? msg : "", e->reverts, &refs);
	free(owned_msg);
	e->refs = strbuf_detach(&refs, NULL);
	e->subject = sm_commit_subject(c);
	git_commit_free(c);
	return 0;
}

static int is_id(const char *s, size_t len, int allow_short)
{
	return len <= 40 && len >= (allow_short ? MIN_ABBREV : 40) && is_lower_hex(s, len);
}

/* Reads one cache entry line, "<id> <reverts|-> <refs|-> <subject>". */
static int read_entry(void *data, const char *line, size_t len)
{
	struct sm_lifecycle *lc = data;
	struct sm_branch_entry_line f;
	struct sm_life_entry *e;
	const char *refs_end;

	if (sm_branch_cache_split_entry(line, len, &f) < 0 || !is_id(f.field[0], f.len[0], 0) ||
	    (f.field[1] && !is_id(f.field[1], f.len[1], 1)))
		return -1;
	refs_end = f.field[2] ? f.field[2] + f.len[2] : NULL;
	for (const char *q = f.field[2]; q && q < refs_end;) {
		const char *end = memchr(q, ',', refs_end - q);

		if (!end)
			end = refs_end;
		if (*q == '+')
			q++;	/* a prerequisite */
		if (!is_id(q, end - q, 1))
			return -1;
		q = end + 1;
	}
	e = new_entry(lc);
	memcpy(e->id, f.field[0], 40);
	if (f.field[1])
		memcpy(e->reverts, f.field[1], f.len[1]);
	e->refs = f.field[2] ? xstrndup(f.field[2], f.len[2]) : xstrdup("");
	e->subject = xstrndup(f.field[3], f.len[3]);
	return 0;
}

static void clear_entries(void *data)
{
	struct sm_lifecycle *lc = data;

	for (size_t i = 0; i < lc->nr; i++) {
		free(lc->entries[i].refs);
		free(lc->entries[i].subject);
	}
	lc->nr = 0;
}

static size_t write_entries(void *data, struct strbuf *sb)
{
	const struct sm_lifecycle *lc = data;

	for (size_t i = 0; i < lc->nr; i++)
		sm_branch_cache_add_entry(sb, lc->entries[i].id, lc->entries[i].reverts,
					  lc->entries[i].refs, lc->entries[i].subject);
	return lc->nr;
}

static const struct sm_branch_index_ops life_ops = {
	.magic = CACHE_MAGIC,
	.subdir = "lifecycle-index",
	.what = "lifecycle cache",
	.read_entry = read_entry,
	.write_entries = write_entries,
	.clear = clear_entries,
	.add_commit = index_commit,
};

static int ref_cmp(const void *a, const void *b)
{
	const struct sm_life_ref *x = a, *y = b;
	int c = strcmp(x->named, y->named);

	return c ? c : (x->entry < y->entry ? -1 : x->entry > y->entry);
}

static void add_ref(struct sm_lifecycle *lc, const char *named, size_t len, size_t entry, int kind)
{
	struct sm_life_ref *r;

	ALLOC_GROW(lc->refs, lc->nr_refs, lc->alloc_refs);
	r = &lc->refs[lc->nr_refs++];
	memcpy(r->named, named, len);
	r->named[len] = '\0';
	r->entry = entry;
	r->kind = kind;
}

static void build_maps(struct sm_lifecycle *lc)
{
	for (size_t i = 0; i < lc->nr; i++) {
		const struct sm_life_entry *e = &lc->entries[i];

		strmap_put(&lc->by_id, e->id, i);
		if (e->reverts[0])
			add_ref(lc, e->reverts, strlen(e->reverts), i, REF_REVERTS);
		for (const char *q = e->refs; *q;) {
			const char *end = strchr(q, ',');
			size_t len = end ? (size_t)(end - q) : strlen(q);

			if (*q == '+')
				add_ref(lc, q + 1, len - 1, i, REF_NEEDS);
			else
				add_ref(lc, q, len, i, REF_FIXES);
			q += len + (end != NULL);
		}
	}
	if (lc->nr_refs)
		qsort(lc->refs, lc->nr_refs, sizeof(*lc->refs), ref_cmp);
}

int sm_lifecycle_build(struct sm_lifecycle *lc, git_repository *repo, const char *branch,
		       const git_oid *base, const char *cache_dir)
{
	return sm_lifecycle_build_known(lc, repo, branch, base, cache_dir, NULL);
}

int sm_lifecycle_build_known(struct sm_lifecycle *lc, git_repository *repo, const char *branch,
			     const git_oid *base, const char *cache_dir,
			     const struct sm_known_walk *known)
{
	struct sm_branch_head head;
	int ret;

	memset(lc, 0, sizeof(*lc));
	lc->refname = xstrdup(branch);
	ret = sm_branch_index_build(&life_ops, lc, repo, branch, base, cache_dir, NULL, known, &head);
	memcpy(lc->tip, head.tip, sizeof(lc->tip));
	memcpy(lc->base, head.base, sizeof(lc->base));
	lc->cache_state = head.cache_state;
	lc->scanned = head.scanned;
	lc->cache_path = head.cache_path;
	if (!ret)
		build_maps(lc);
	return ret;
}

void sm_lifecycle_release(struct sm_lifecycle *lc)
{
	clear_entries(lc);
	FREE_ALL(lc->entries, lc->refname, lc->cache_path, lc->refs);
	strmap_clear(&lc->by_id);
	memset(lc, 0, sizeof(*lc));
}

const struct sm_life_entry *sm_lifecycle_entry(const struct sm_lifecycle *lc, const char *id)
{
	size_t i;

	return strmap_get(&lc->by_id, id, &i) ? &lc->entries[i] : NULL;
}

/* Calls fn for each entry that names id (a full id) as kind, oldest
 * first; stops when fn returns non-zero and returns that. */
static int each_naming(const struct sm_lifecycle *lc, const char *id, int kind,
		       int (*fn)(const struct sm_lifecycle *, size_t, void *), void *data)
{
	size_t lo = 0, hi = lc->nr_refs;

	/* The first ref whose named id is not below id's first digits. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strncmp(lc->refs[mid].named, id, MIN_ABBREV) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < lc->nr_refs && !strncmp(lc->refs[lo].named, id, MIN_ABBREV); lo++) {
		const struct sm_life_ref *r = &lc->refs[lo];
		int ret;

		if (r->kind != kind || !starts_with(id, r->named))
			continue;
		if ((ret = fn(lc, r->entry, data)))
			return ret;
	}
	return 0;
}

struct revert_search {
	const struct sm_life_entry *found, *undone;
	int depth;
};

static const struct sm_life_entry *reverted(const struct sm_lifecycle *lc, const char *id,
					    const struct sm_life_entry **undone, int depth);

static int revert_cb(const struct sm_lifecycle *lc, size_t entry, void *data)
{
	struct revert_search *s = data;
	const struct sm_life_entry *e = &lc->entries[entry];

	if (reverted(lc, e->id, NULL, s->depth + 1)) {
		if (!s->undone)
			s->undone = e;
		return 0;
	}
	s->found = e;
	return 1;
}

static const struct sm_life_entry *reverted(const struct sm_lifecycle *lc, const char *id,
					    const struct sm_life_entry **undone, int depth)
{
	struct revert_search s = { NULL, NULL, depth };

	if (depth > 32)	/* a revert chain this long is not real history */
		return NULL;
	each_naming(lc, id, REF_REVERTS, revert_cb, &s);
	if (undone)
		*undone = s.undone;
	return s.found;
}

const struct sm_life_entry *sm_lifecycle_reverted(const struct sm_lifecycle *lc, const char *id,
						  const struct sm_life_entry **undone)
{
	return reverted(lc, id, undone, 0);
}

/* Entries found by each_naming, each once (fix_cb). */
struct fix_search {
	size_t *found;
	size_t nr, alloc;
};

static int fix_cb(const struct sm_lifecycle *lc, size_t entry, void *data)
{
	struct fix_search *s = data;

	for (size_t i = 0; i < s->nr; i++)
		if (s->found[i] == entry)
			return 0;
	if (sm_lifecycle_reverted(lc, lc->entries[entry].id, NULL))
		return 0;
	ALLOC_GROW(s->found, s->nr, s->alloc);
	s->found[s->nr++] = entry;
	return 0;
}

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The commits naming id as kind, oldest first, into out (the naming of
 * those too when recursive), leaving out id itself and what was reverted
 * for good. */
static void naming_commits(const struct sm_lifecycle *lc, const char *id, int kind, int recursive,
			   struct strlist *out)
{
	struct fix_search s = { NULL, 0, 0 };

	each_naming(lc, id, kind, fix_cb, &s);
	/* Breadth first: each found commit is searched in turn (s.nr grows). */
	for (size_t i = 0; recursive && i < s.nr; i++)
		each_naming(lc, lc->entries[s.found[i]].id, kind, fix_cb, &s);
	if (s.nr)
		qsort(s.found, s.nr, sizeof(*s.found), size_cmp);
	for (size_t i = 0; i < s.nr; i++)
		if (strcmp(lc->entries[s.found[i]].id, id))
			strlist_append(out, lc->entries[s.found[i]].id);
	free(s.found);
}

void sm_lifecycle_fixed_by(const struct sm_lifecycle *lc, const char *id, struct strlist *out)
{
	naming_commits(lc, id, REF_FIXES, 1, out);
}

void sm_lifecycle_needed_by(const struct sm_lifecycle *lc, const char *id, struct strlist *out)
{
	naming_commits(lc, id, REF_NEEDS, 0, out);
}
