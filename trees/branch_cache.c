/* branch_cache: the text cache file of a branch's index (see branch_cache.h). */
#include "trees/branch_cache.h"
#include "lib/util.h"
#include "lib/fileio.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

char *sm_branch_cache_path(const struct sm_branch_cache *c, const char *cache_dir,
			   const char *subdir)
{
	char *key = xasprintf("%s\n%s\n%s", c->repo, c->refname, c->base);
	char *path = sm_cache_file(cache_dir, subdir, key, ".idx");

	free(key);
	return path;
}

static int is_full_id(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]) || isupper((unsigned char)s[n]))
			return 0;
	return n == 40;
}

/* Parses text as a cache file for c's key; 0 with the file's tip in tip,
 * or -1 when it is not one (another key, malformed or truncated). */
static int parse(const struct sm_branch_cache *c, const char *text,
		 sm_branch_cache_entry_fn entry, void *data, char tip[64])
{
	const char *p = text;
	char repo[4096], ref[4096], base[64];
	unsigned long count = 0, seen = 0;
	int n = 0;

	if (!skip_prefix(p, c->magic, &p) || *p++ != '\n')
		return -1;
	if (sscanf(p, "repo %4095[^\n]\nbranch %4095[^\n]\nbase %63s\ntip %63s\ncount %lu\n%n",
		   repo, ref, base, tip, &count, &n) != 5 || !n)
		return -1;
	p += n;
	if (strcmp(repo, c->repo) || strcmp(ref, c->refname) || strcmp(base, c->base) ||
	    !is_full_id(tip))
		return -1;
	while (*p && !starts_with(p, "end\n")) {
		const char *nl = strchr(p, '\n');

		if (!nl || entry(data, p, nl - p) < 0)
			return -1;
		seen++;
		p = nl + 1;
	}
	if (!starts_with(p, "end\n") || p[4] != '\0' || seen != count)
		return -1;
	return 0;
}

enum sm_cache_state sm_branch_cache_read(const struct sm_branch_cache *c, const char *path,
					 git_repository *repo, sm_branch_cache_entry_fn entry,
					 void *data, git_oid *cached_tip)
{
	struct strbuf text = STRBUF_INIT;
	enum sm_cache_state state;
	git_oid tip;
	char file_tip[64];

	if (!file_exists(path))
		return SM_CACHE_NEW;
	if (read_file(path, &text) < 0 || parse(c, text.buf, entry, data, file_tip) < 0) {
		sm_clear_error();
		state = SM_CACHE_REBUILT;
	} else if (!strcmp(file_tip, c->tip)) {
		state = SM_CACHE_HIT;
	} else if (git_oid_fromstr(cached_tip, file_tip) == 0 &&
		   git_oid_fromstr(&tip, c->tip) == 0 &&
		   git_graph_descendant_of(repo, &tip, cached_tip) == 1) {
		state = SM_CACHE_INCREMENTAL;
	} else {
		/* The branch was rewritten (or the tip is unknown): the
		 * cached entries may name commits no longer on it. */
		state = SM_CACHE_REBUILT;
	}
	strbuf_release(&text);
	return state;
}

void sm_branch_cache_header(const struct sm_branch_cache *c, struct strbuf *sb)
{
	strbuf_addf(sb, "%s\nrepo %s\nbranch %s\nbase %s\ntip %s\ncount %zu\n", c->magic,
		    c->repo, c->refname, c->base, c->tip, c->count);
}

void sm_branch_cache_write(const char *path, struct strbuf *sb, const char *what)
{
	strbuf_addstr(sb, "end\n");
	write_cache_file(path, sb->buf, sb->len, what);
}
