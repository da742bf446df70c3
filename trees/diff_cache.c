/* diff_cache: the facts a scan derives from each commit's diff, on disk.
 *
 * Why one file per repository and range start, read whole: a scan asks
 * for every commit of one window at once. A file per commit would cost an
 * open and a read per commit (a good part of what the cache saves), and
 * one file for all commits ever scanned would make every scan read them
 * all. A range start (v6.6 in v6.6..v6.7 or v6.6..master) is what the
 * windows a maintainer scans share: the file of a growing range gets the
 * new commits added, and a shorter range from the same start hits. About
 * 140 bytes a commit on bench/scan's history (1.4 MB per 10,000), read
 * and parsed in a few milliseconds.
 *
 * The file (text; a path is written with its length, so any byte goes):
 *	stablemate-diff-cache 2 libgit2 1.5.1
 *	repo /path/to/linux/.git/
 *	from <40 hex: the range start>
 *	count <entries>
 *	walk <40 hex: the range end, or -> <commits>
 *	<id> <patch-id, - for none, m for no facts> <has_diff> <the 13 sm_diffstat numbers> <files>
 *	<added> <removed> <1: new, 2: deleted> <path length> <path>	(per file)
 *	...
 *	end <SHA-1 of everything above this line>
 * The first <commits> entries are the range start..end in the order the
 * scan walks it (topological, oldest first; merges are listed with no
 * facts): the set and its order follow from the two ids, so a rerun of the
 * same range walks no history either.
 * Anything that does not parse exactly so, or whose header is not this
 * build's, is ignored whole (state "rebuilt") and written anew. */
#include "trees/diff_cache.h"
#include "lib/util.h"
#include "lib/fileio.h"
#include <git2.h>
#include <stdio.h>
#include <string.h>

/* Bump when what is stored, or what sm_commit_parse_diff, the diff text
 * (trees/commitdiff.c) or the patch-id derive from a diff, changes. */
/* 4: renames found (trees/commitdiff.c); 5: hunks end at their counts,
 * whitespace-only is per hunk, in order (rules/diffstat.c); 6: device-ID
 * entries span lines (rules/device_ids.c); 7: a code line whose comment
 * alone changed is a comment change (rules/recomment.c); 8: MAINTAINERS,
 * CREDITS and .mailmap are documentation; 9: '#' lines of device trees and
 * Rust are code; 10: code after a comment on its line is code; 11: git's
 * indent heuristic (lib/git.h sm_diff_options_init); 12: the white space
 * field is 2 for stray semicolons only */
#define DIFF_CACHE_VERSION 12
#define MAGIC "stablemate-diff-cache"

struct sm_diff_cache_entry {
	char id[41];
	char patch_id[41];	/* "" when none */
	int has_diff;
	struct sm_diffstat diff;
	size_t file, nr_files;	/* into dc->files */
	int no_facts;		/* listed for the walk only (a merge) */
	int added;		/* sm_diff_cache_add'ed again this run */
};

static void header(struct strbuf *sb, const char *key)
{
	strbuf_addf(sb, MAGIC " %d libgit2 %d.%d.%d\n%s\n", DIFF_CACHE_VERSION,
		    LIBGIT2_VER_MAJOR, LIBGIT2_VER_MINOR, LIBGIT2_VER_REVISION, key);
}

/* Reads decimal digits at *p (at least one, below 2^32), then the
 * character sep. */
static int num(const char **p, const char *end, unsigned *out, char sep)
{
	const char *s = *p;
	unsigned long long v = 0;

	if (s >= end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned)(*s - '0');
		if (v > 0xffffffffULL)
			return -1;
	}
	if (s >= end || *s != sep)
		return -1;
	*out = (unsigned)v;
	*p = s + 1;
	return 0;
}

static int hex40(const char *s, const char *end)
{
	if (end - s < 40)
		return 0;
	for (int i = 0; i < 40; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

static struct sm_diff_file *new_file(struct sm_diff_cache *dc)
{
	ALLOC_GROW(dc->files, dc->nr_files, dc->alloc_files);
	return memset(&dc->files[dc->nr_files++], 0, sizeof(*dc->files));
}

/* One file line; its path is NUL-terminated in place. */
static int parse_file(struct sm_diff_cache *dc, char **pos, const char *end)
{
	const char *p = *pos;
	unsigned added, removed, flags, len;
	struct sm_diff_file *f;

	if (num(&p, end, &added, ' ') < 0 || num(&p, end, &removed, ' ') < 0 ||
	    num(&p, end, &flags, ' ') < 0 || flags > 3 || num(&p, end, &len, ' ') < 0 ||
	    (size_t)(end - p) <= len || p[len] != '\n')
		return -1;
	f = new_file(dc);
	f->path = (char *)p;
	f->path[len] = '\0';
	f->added = added;
	f->removed = removed;
	f->is_new = flags & 1;
	f->is_deleted = (flags >> 1) & 1;
	*pos = (char *)p + len + 1;
	return 0;
}

/* One commit line and its file lines. */
static int parse_entry(struct sm_diff_cache *dc, char **pos, const char *end)
{
	const char *p = *pos;
	struct sm_diff_cache_entry *e;
	struct sm_diffstat *d;
	unsigned v[16];

	if (!hex40(p, end) || end - p < 41 || p[40] != ' ')
		return -1;
	ALLOC_GROW(dc->entries, dc->nr, dc->alloc);
	e = memset(&dc->entries[dc->nr++], 0, sizeof(*e));
	memcpy(e->id, p, 40);
	p += 41;
	if (end - p >= 2 && (p[0] == '-' || p[0] == 'm') && p[1] == ' ') {
		e->no_facts = p[0] == 'm';
		p += 2;
	} else if (hex40(p, end) && end - p > 40 && p[40] == ' ') {
		memcpy(e->patch_id, p, 40);
		p += 41;
	} else {
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		if (num(&p, end, &v[i], i + 1 < ARRAY_SIZE(v) ? ' ' : '\n') < 0)
			return -1;
	d = &e->diff;
	e->has_diff = v[0] > 0;
	d->files = v[1], d->added = v[2], d->removed = v[3], d->doc_files = v[4];
	d->code_lines_changed = v[5], d->id_table_lines = v[6], d->comment_lines = v[7];
	d->whitespace_only = v[8] == 1, d->semicolons_only = v[8] == 2;
	d->added_checks = v[9], d->added_error_returns = v[10];
	d->new_files = v[11], d->deleted_files = v[12], d->from_stat = v[13] > 0;
	d->id_entries = v[14];
	e->file = dc->nr_files;
	e->nr_files = v[15];
	*pos = (char *)p;
	for (size_t i = 0; i < e->nr_files; i++)
		if (parse_file(dc, pos, end) < 0)
			return -1;
	return 0;
}

/* Checks the header and the checksum of dc->text, then reads the entries. */
static int parse(struct sm_diff_cache *dc)
{
	struct strbuf want = STRBUF_INIT;
	char *p = dc->text.buf, *end;
	size_t body;
	unsigned count, walk;
	int ok;

	if (!sm_cache_check_sum(dc->text.buf, dc->text.len, &body))
		return -1;
	end = dc->text.buf + body;
	header(&want, dc->key);
	ok = (size_t)(end - p) >= want.len && !memcmp(p, want.buf, want.len);
	p += want.len;
	strbuf_release(&want);
	if (!ok || strncmp(p, "count ", 6))
		return -1;
	p += 6;
	if (num((const char **)&p, end, &count, '\n') < 0 || strncmp(p, "walk ", 5))
		return -1;
	p += 5;
	if (hex40(p, end) && end - p > 40 && p[40] == ' ') {
		memcpy(dc->walk_to, p, 40);
		p += 41;
	} else if (end - p >= 2 && p[0] == '-' && p[1] == ' ') {
		p += 2;
	} else {
		return -1;
	}
	if (num((const char **)&p, end, &walk, '\n') < 0 || walk > count)
		return -1;
	dc->walk_nr = walk;
	while (p < end)
		if (parse_entry(dc, &p, end) < 0)
			return -1;
	return dc->nr == count ? 0 : -1;
}

static void reset_entries(struct sm_diff_cache *dc)
{
	strmap_clear(&dc->by_id);
	dc->nr = dc->nr_files = dc->walk_nr = 0;
	dc->walk_to[0] = '\0';
	strbuf_release(&dc->text);
}

void sm_diff_cache_open(struct sm_diff_cache *dc, const char *cache_dir, const char *repo_path,
			const char *from)
{
	memset(dc, 0, sizeof(*dc));
	strbuf_init(&dc->text, 0);
	strbuf_init(&dc->out, 0);
	dc->state = SM_CACHE_OFF;
	dc->key = xasprintf("repo %s\nfrom %s", repo_path, from);
	dc->path = sm_cache_file(cache_dir, "diff-cache", dc->key, ".facts");
	if (!dc->path) {
		free(dc->key);
		dc->key = NULL;
		return;
	}
	if (!file_exists(dc->path)) {
		dc->state = SM_CACHE_NEW;
		return;
	}
	if (read_file(dc->path, &dc->text) < 0 || parse(dc) < 0) {
		/* Not ours, or damaged: a cold cache, rewritten after the scan. */
		sm_clear_error();
		reset_entries(dc);
		dc->state = SM_CACHE_REBUILT;
		return;
	}
	/* The keys are the entries' own ids: the array no longer moves. */
	for (size_t i = 0; i < dc->nr; i++)
		strmap_put(&dc->by_id, dc->entries[i].id, i);
	dc->state = SM_CACHE_HIT;
}

int sm_diff_cache_get(const struct sm_diff_cache *dc, const char *id, struct sm_commit *c,
		      char patch_id[41])
{
	const struct sm_diff_cache_entry *e;
	size_t i;

	if (!dc->nr || !strmap_get(&dc->by_id, id, &i) || dc->entries[i].no_facts)
		return 0;
	e = &dc->entries[i];
	c->has_diff = e->has_diff;
	c->diff = e->diff;
	c->files = xcalloc(e->nr_files + 1, sizeof(*c->files));
	c->nr_files = c->alloc_files = e->nr_files;
	for (size_t k = 0; k < e->nr_files; k++) {
		c->files[k] = dc->files[e->file + k];
		c->files[k].path = xstrdup(dc->files[e->file + k].path);
	}
	memcpy(patch_id, e->patch_id, 41);
	return 1;
}

int sm_diff_cache_note(struct sm_diff_cache *dc, const char *id)
{
	size_t i;

	if (dc->nr && strmap_get(&dc->by_id, id, &i) && !dc->entries[i].no_facts) {
		dc->hits++;
		return 1;
	}
	dc->misses++;
	if (dc->state == SM_CACHE_HIT)
		dc->state = SM_CACHE_INCREMENTAL;
	return 0;
}

static void add_entry(struct strbuf *sb, const char *id, const char *patch_id, int has_diff,
		      const struct sm_diffstat *d, const struct sm_diff_file *files, size_t nr)
{
	static const struct sm_diffstat none;

	if (!d) {	/* no facts */
		patch_id = "m";
		d = &none;
	}
	strbuf_addf(sb, "%s %s %d %u %u %u %u %u %u %u %d %u %u %u %u %d %u %zu\n", id,
		    *patch_id ? patch_id : "-", !!has_diff, d->files, d->added, d->removed,
		    d->doc_files, d->code_lines_changed, d->id_table_lines, d->comment_lines,
		    d->whitespace_only ? 1 : d->semicolons_only ? 2 : 0, d->added_checks,
		    d->added_error_returns,
		    d->new_files, d->deleted_files, !!d->from_stat, d->id_entries, nr);
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(sb, "%u %u %u %zu %s\n", files[i].added, files[i].removed,
			    (files[i].is_new ? 1u : 0u) | (files[i].is_deleted ? 2u : 0u),
			    strlen(files[i].path), files[i].path);
}

void sm_diff_cache_add(struct sm_diff_cache *dc, const char *id, const struct sm_commit *c,
		       const char *patch_id)
{
	size_t i;

	if (!dc->path)
		return;
	if (dc->nr && strmap_get(&dc->by_id, id, &i))
		dc->entries[i].added = 1;
	if (c)
		add_entry(&dc->out, id, patch_id, c->has_diff, &c->diff, c->files, c->nr_files);
	else
		add_entry(&dc->out, id, "", 0, NULL, NULL, 0);
	dc->nr_out++;
}

int sm_diff_cache_walk(const struct sm_diff_cache *dc, const char *to, git_oid **ids, size_t *nr)
{
	git_oid *list;

	if (!dc->path || strcmp(dc->walk_to, to))
		return 0;
	list = xcalloc(dc->walk_nr + 1, sizeof(*list));
	for (size_t i = 0; i < dc->walk_nr; i++)
		if (git_oid_fromstr(&list[i], dc->entries[i].id) < 0) {
			free(list);
			return 0;
		}
	*ids = list;
	*nr = dc->walk_nr;
	return 1;
}

void sm_diff_cache_set_walk(struct sm_diff_cache *dc, const char *to, size_t nr)
{
	snprintf(dc->new_walk_to, sizeof(dc->new_walk_to), "%s", to);
	dc->new_walk_nr = nr;
}

void sm_diff_cache_write(struct sm_diff_cache *dc)
{
	struct strbuf sb = STRBUF_INIT;
	size_t kept = 0;

	if (!dc->path)
		return;
	for (size_t i = 0; i < dc->nr; i++)
		kept += !dc->entries[i].added;
	header(&sb, dc->key);
	strbuf_addf(&sb, "count %zu\nwalk %s %zu\n", dc->nr_out + kept,
		    dc->new_walk_to[0] && dc->new_walk_nr <= dc->nr_out ? dc->new_walk_to : "-",
		    dc->new_walk_nr <= dc->nr_out ? dc->new_walk_nr : 0);
	strbuf_add(&sb, dc->out.buf, dc->out.len);
	for (size_t i = 0; i < dc->nr; i++) {
		const struct sm_diff_cache_entry *e = &dc->entries[i];

		if (!e->added)
			add_entry(&sb, e->id, e->patch_id, e->has_diff,
				  e->no_facts ? NULL : &e->diff, dc->files + e->file, e->nr_files);
	}
	sm_cache_add_sum(&sb);
	write_cache_file(dc->path, sb.buf, sb.len, "diff cache");
	strbuf_release(&sb);
}

void sm_diff_cache_release(struct sm_diff_cache *dc)
{
	reset_entries(dc);
	free(dc->entries);
	free(dc->files);
	free(dc->path);
	free(dc->key);
	strbuf_release(&dc->out);
	memset(dc, 0, sizeof(*dc));
	strbuf_init(&dc->text, 0);
	strbuf_init(&dc->out, 0);
}
