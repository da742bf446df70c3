/* branch_cache: the cache of an index over one branch (see branch_cache.h). */
#include "trees/branch_cache.h"
#include "trees/repo.h"
#include "lib/util.h"
#include "lib/fileio.h"
#include "lib/progress.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* One sm_branch_index_build: the index, its branch and its file. */
struct build {
	const struct sm_branch_index_ops *ops;
	void *data;			/* handed to the ops */
	git_repository *repo;
	const char *refname;		/* the branch as given */
	struct sm_progress *progress;	/* may be NULL */
	struct sm_branch_head *head;	/* the caller's: tip, base, state, counts, path */
	git_oid tip;
	const char *key_repo;		/* the file's key: git_repository_path() */
	const char *key_base;		/* the base's full id, or "-" */
};

static int is_full_id(const char *s)
{
	return strlen(s) == 40 && is_lower_hex(s, 40);
}

void sm_branch_cache_add_entry(struct strbuf *sb, const char *id, const char *a, const char *b,
			       const char *subject)
{
	strbuf_addf(sb, "%s %s %s %s\n", id, *a ? a : "-", *b ? b : "-", subject);
}

int sm_branch_cache_split_entry(const char *line, size_t len, struct sm_branch_entry_line *e)
{
	const char *p = line, *end = line + len;

	for (int i = 0; i < 3; i++) {
		const char *sp = memchr(p, ' ', end - p);

		if (!sp)
			return -1;
		e->field[i] = p;
		e->len[i] = sp - p;
		if (i && e->len[i] == 1 && *p == '-') {
			e->field[i] = NULL;
			e->len[i] = 0;
		}
		p = sp + 1;
	}
	e->field[3] = p;
	e->len[3] = end - p;
	return 0;
}

/* Parses text as b's cache file, handing the entry lines to
 * ops->read_entry: 0 with the file's tip in tip and the number of entries
 * in *nr, or -1 when it is not one (another magic or key, malformed or
 * truncated). */
static int parse(const struct build *b, const char *text, char tip[64], size_t *nr)
{
	const char *p = text;
	char repo[4096], ref[4096], base[64];
	unsigned long count = 0, seen = 0;
	int n = 0;

	if (!skip_prefix(p, b->ops->magic, &p) || *p++ != '\n')
		return -1;
	if (sscanf(p, "repo %4095[^\n]\nbranch %4095[^\n]\nbase %63s\ntip %63s\ncount %lu\n%n",
		   repo, ref, base, tip, &count, &n) != 5 || !n)
		return -1;
	p += n;
	if (strcmp(repo, b->key_repo) || strcmp(ref, b->refname) || strcmp(base, b->key_base) ||
	    !is_full_id(tip))
		return -1;
	while (*p && !starts_with(p, "end\n")) {
		const char *nl = strchr(p, '\n');

		if (!nl || b->ops->read_entry(b->data, p, nl - p) < 0)
			return -1;
		seen++;
		p = nl + 1;
	}
	if (!starts_with(p, "end\n") || p[4] != '\0' || seen != count)
		return -1;
	*nr = seen;
	return 0;
}

/* Reads b's cache file and says how the index of the tip is to be built:
 * NEW (no file), HIT (the file's tip is the tip), INCREMENTAL (the tip
 * descends from the file's tip, put in *cached_tip) or REBUILT (the file
 * is unusable or its tip no longer on the branch: what read_entry added
 * was dropped). Sets head->from_cache. Never an error. */
static enum sm_cache_state read_cache(struct build *b, git_oid *cached_tip)
{
	struct sm_branch_head *head = b->head;
	struct strbuf text = STRBUF_INIT;
	enum sm_cache_state state;
	char file_tip[64];

	if (!file_exists(head->cache_path))
		return SM_CACHE_NEW;
	if (read_file(head->cache_path, &text) < 0 ||
	    parse(b, text.buf, file_tip, &head->from_cache) < 0) {
		sm_clear_error();
		state = SM_CACHE_REBUILT;
	} else if (!strcmp(file_tip, head->tip)) {
		state = SM_CACHE_HIT;
	} else if (git_oid_fromstr(cached_tip, file_tip) == 0 &&
		   git_graph_descendant_of(b->repo, &b->tip, cached_tip) == 1) {
		state = SM_CACHE_INCREMENTAL;
	} else {
		/* The branch was rewritten (or the tip is unknown): the
		 * cached entries may name commits no longer on it. */
		state = SM_CACHE_REBUILT;
	}
	if (state == SM_CACHE_REBUILT) {
		b->ops->clear(b->data);
		head->from_cache = 0;
	}
	strbuf_release(&text);
	return state;
}

static void write_cache(const struct build *b)
{
	struct strbuf entries = STRBUF_INIT, sb = STRBUF_INIT;
	size_t count = b->ops->write_entries(b->data, &entries);

	strbuf_addf(&sb, "%s\nrepo %s\nbranch %s\nbase %s\ntip %s\ncount %zu\n", b->ops->magic,
		    b->key_repo, b->refname, b->key_base, b->head->tip, count);
	strbuf_add(&sb, entries.buf, entries.len);
	strbuf_addstr(&sb, "end\n");
	write_cache_file(b->head->cache_path, sb.buf, sb.len, b->ops->what);
	strbuf_release(&entries);
	strbuf_release(&sb);
}

/* Hands one commit to ops->add_commit, counting it in head->scanned. */
static int add_one(struct build *b, const git_oid *id)
{
	if (b->ops->add_commit(b->data, b->repo, id) < 0)
		return -1;
	sm_progress_update(b->progress, ++b->head->scanned);
	return 0;
}

/* Hands the commits of the tip in neither base nor hide (each may be
 * NULL) to add_one(), oldest first. */
static int walk(struct build *b, const git_oid *base, const git_oid *hide)
{
	git_revwalk *w = NULL;
	git_oid id;
	int err;

	if (git_revwalk_new(&w, b->repo) < 0)
		return sm_error("%s: %s", b->refname, sm_git_error());
	git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (git_revwalk_push(w, &b->tip) < 0 || (base && git_revwalk_hide(w, base) < 0) ||
	    (hide && git_revwalk_hide(w, hide) < 0)) {
		git_revwalk_free(w);
		return sm_error("%s: cannot walk history (%s)", b->refname, sm_git_error());
	}
	while (!(err = git_revwalk_next(&id, w))) {
		if (add_one(b, &id) < 0) {
			git_revwalk_free(w);
			return -1;
		}
	}
	git_revwalk_free(w);
	if (err != GIT_ITEROVER)
		return sm_error("%s: history walk failed (%s)", b->refname, sm_git_error());
	return 0;
}

/* The commits of known, as walk(b, base, NULL) would give them. */
static int walk_known(struct build *b, const struct sm_known_walk *known)
{
	for (size_t i = 0; i < known->nr; i++)
		if (add_one(b, &known->ids[i]) < 0)
			return -1;
	return 0;
}

/* walk() (or walk_known(), when known is the walk of base..tip) under
 * the progress phase "Indexing REFNAME". */
static int walk_counted(struct build *b, const git_oid *base, const git_oid *hide,
			const struct sm_known_walk *known)
{
	char *title;
	int ret;

	if (known && (hide || !base || !git_oid_equal(&known->base, base) ||
		      !git_oid_equal(&known->tip, &b->tip)))
		known = NULL;
	if (b->progress) {
		title = xasprintf("Indexing %s", b->refname);
		sm_progress_phase(b->progress, title, 0);
		free(title);
	}
	ret = known ? walk_known(b, known) : walk(b, base, hide);
	sm_progress_update(b->progress, b->head->scanned);
	return ret;
}

int sm_branch_index_build(const struct sm_branch_index_ops *ops, void *data,
			  git_repository *repo, const char *refname, const git_oid *base,
			  const char *cache_dir, struct sm_progress *progress,
			  const struct sm_known_walk *known, struct sm_branch_head *head)
{
	struct build b = {
		.ops = ops, .data = data, .repo = repo, .refname = refname,
		.progress = progress, .head = head,
	};
	git_oid cached_tip;
	char *key;
	int ret;

	memset(head, 0, sizeof(*head));
	if (sm_resolve_commit(repo, refname, &b.tip) < 0)
		return -1;
	git_oid_tostr(head->tip, sizeof(head->tip), &b.tip);
	if (base)
		git_oid_tostr(head->base, sizeof(head->base), base);
	b.key_repo = git_repository_path(repo);
	b.key_base = head->base[0] ? head->base : "-";
	key = xasprintf("%s\n%s\n%s", b.key_repo, refname, b.key_base);
	head->cache_path = sm_cache_file(cache_dir, ops->subdir, key, ".idx");
	free(key);
	if (!head->cache_path)
		return walk_counted(&b, base, NULL, known);
	head->cache_state = read_cache(&b, &cached_tip);
	if (head->cache_state == SM_CACHE_HIT)
		return 0;
	ret = walk_counted(&b, base,
			   head->cache_state == SM_CACHE_INCREMENTAL ? &cached_tip : NULL, known);
	if (!ret)
		write_cache(&b);
	return ret;
}
