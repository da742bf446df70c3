/* branch_cache: the cache of an index over one branch (see branch_cache.h). */
#include "trees/branch_cache.h"
#include "trees/repo.h"
#include "lib/util.h"
#include "lib/fileio.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* A cache file's header: the key (repo, refname, base) and the tip. */
struct header {
	const char *magic;	/* the first line, without its newline */
	const char *repo;	/* git_repository_path() of the repository */
	const char *refname;	/* the branch as given */
	const char *base;	/* the base's full id, or "-" */
	const char *tip;	/* the branch's tip now: full id */
};

static int is_full_id(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]) || isupper((unsigned char)s[n]))
			return 0;
	return n == 40;
}

/* Parses text as a cache file for h's key, handing the entry lines to
 * ops->read_entry: 0 with the file's tip in tip and the number of entries
 * in *nr, or -1 when it is not one (another key, malformed or truncated). */
static int parse(const struct header *h, const char *text, const struct sm_branch_index_ops *ops,
		 void *data, char tip[64], size_t *nr)
{
	const char *p = text;
	char repo[4096], ref[4096], base[64];
	unsigned long count = 0, seen = 0;
	int n = 0;

	if (!skip_prefix(p, h->magic, &p) || *p++ != '\n')
		return -1;
	if (sscanf(p, "repo %4095[^\n]\nbranch %4095[^\n]\nbase %63s\ntip %63s\ncount %lu\n%n",
		   repo, ref, base, tip, &count, &n) != 5 || !n)
		return -1;
	p += n;
	if (strcmp(repo, h->repo) || strcmp(ref, h->refname) || strcmp(base, h->base) ||
	    !is_full_id(tip))
		return -1;
	while (*p && !starts_with(p, "end\n")) {
		const char *nl = strchr(p, '\n');

		if (!nl || ops->read_entry(data, p, nl - p) < 0)
			return -1;
		seen++;
		p = nl + 1;
	}
	if (!starts_with(p, "end\n") || p[4] != '\0' || seen != count)
		return -1;
	*nr = seen;
	return 0;
}

/* Reads the file at path for h's key and says how the index of h->tip
 * is to be built: NEW (no file), HIT (the file's tip is h->tip),
 * INCREMENTAL (h->tip descends from the file's tip, put in *cached_tip)
 * or REBUILT (the file is unusable or its tip no longer on the branch:
 * what read_entry added was dropped). Never an error. */
static enum sm_cache_state read_cache(const struct header *h, const char *path,
				      git_repository *repo,
				      const struct sm_branch_index_ops *ops, void *data,
				      git_oid *cached_tip, size_t *nr)
{
	struct strbuf text = STRBUF_INIT;
	enum sm_cache_state state;
	git_oid tip;
	char file_tip[64];

	*nr = 0;
	if (!file_exists(path))
		return SM_CACHE_NEW;
	if (read_file(path, &text) < 0 || parse(h, text.buf, ops, data, file_tip, nr) < 0) {
		sm_clear_error();
		state = SM_CACHE_REBUILT;
	} else if (!strcmp(file_tip, h->tip)) {
		state = SM_CACHE_HIT;
	} else if (git_oid_fromstr(cached_tip, file_tip) == 0 &&
		   git_oid_fromstr(&tip, h->tip) == 0 &&
		   git_graph_descendant_of(repo, &tip, cached_tip) == 1) {
		state = SM_CACHE_INCREMENTAL;
	} else {
		/* The branch was rewritten (or the tip is unknown): the
		 * cached entries may name commits no longer on it. */
		state = SM_CACHE_REBUILT;
	}
	if (state == SM_CACHE_REBUILT) {
		ops->clear(data);
		*nr = 0;
	}
	strbuf_release(&text);
	return state;
}

static void write_cache(const struct header *h, const char *path,
			const struct sm_branch_index_ops *ops, void *data)
{
	struct strbuf entries = STRBUF_INIT, sb = STRBUF_INIT;
	size_t count = ops->write_entries(data, &entries);

	strbuf_addf(&sb, "%s\nrepo %s\nbranch %s\nbase %s\ntip %s\ncount %zu\n", h->magic,
		    h->repo, h->refname, h->base, h->tip, count);
	strbuf_add(&sb, entries.buf, entries.len);
	strbuf_addstr(&sb, "end\n");
	write_cache_file(path, sb.buf, sb.len, ops->what);
	strbuf_release(&entries);
	strbuf_release(&sb);
}

int sm_branch_index_build(const struct sm_branch_index_ops *ops, void *data,
			  git_repository *repo, const char *refname, const git_oid *base,
			  const char *cache_dir, struct sm_branch_head *head)
{
	struct header h = { .magic = ops->magic, .refname = refname };
	git_oid tip, cached_tip;
	char *key;
	int ret;

	memset(head, 0, sizeof(*head));
	if (sm_resolve_commit(repo, refname, &tip) < 0)
		return -1;
	git_oid_tostr(head->tip, sizeof(head->tip), &tip);
	if (base)
		git_oid_tostr(head->base, sizeof(head->base), base);
	h.repo = git_repository_path(repo);
	h.base = head->base[0] ? head->base : "-";
	h.tip = head->tip;
	key = xasprintf("%s\n%s\n%s", h.repo, h.refname, h.base);
	head->cache_path = sm_cache_file(cache_dir, ops->subdir, key, ".idx");
	free(key);
	if (!head->cache_path)
		return ops->walk(data, repo, &tip, base, NULL);
	head->cache_state = read_cache(&h, head->cache_path, repo, ops, data, &cached_tip,
				       &head->from_cache);
	if (head->cache_state == SM_CACHE_HIT)
		return 0;
	ret = ops->walk(data, repo, &tip, base,
			head->cache_state == SM_CACHE_INCREMENTAL ? &cached_tip : NULL);
	if (!ret)
		write_cache(&h, head->cache_path, ops, data);
	return ret;
}
