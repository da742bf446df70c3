/* commitdiff: a commit's patch against its first parent, in git's patch
 * format, with as little work as git itself does: the two trees are walked
 * side by side and a subtree whose id did not change is never opened
 * (trees/tree_walk.h), then
 * each changed file's two blobs are diffed as plain buffers (libgit2's
 * xdiff, no repository: no config snapshot, no attribute look-ups, no
 * re-hashing of the blobs).
 *
 * The text is byte for byte what git_diff_tree_to_tree + git_diff_print
 * give with git's own options (sm_diff_options_init: the indent heuristic),
 * and so git show's (the diff statistics and the patch-id are computed from
 * it). The
 * cases whose headers have more to say (binary files, empty files, mode
 * or type changes, submodules, paths git would quote, a file added and
 * another deleted: perhaps a rename) are left to that libgit2 path for
 * the whole commit, made on the files that differ alone.
 *
 * scan keeps what it derives from this text in its diff cache: a change to
 * the text bumps DIFF_CACHE_VERSION in trees/diff_cache.c. */
#include "trees/repo.h"
#include "trees/part_tree.h"
#include "trees/tree_walk.h"
#include "lib/util.h"
#include <stdatomic.h>
#include <string.h>

enum { FAST_OK = 0, FAST_ERROR = -1, FAST_FALLBACK = 1 };

struct cd_state {
	git_repository *repo;
	struct sm_tree_keep *keep;	/* may be NULL */
	struct strbuf *out;
	struct strbuf path;	/* the path of the file diffed */
	git_diff_options opts;	/* git's (sm_diff_options_init) */
	unsigned added, deleted;	/* files so far */
};

static int diff_print_cb(const git_diff_delta *d, const git_diff_hunk *h,
			 const git_diff_line *l, void *payload)
{
	struct strbuf *out = payload;

	(void)d;
	(void)h;
	if (l->origin == GIT_DIFF_LINE_CONTEXT || l->origin == GIT_DIFF_LINE_ADDITION ||
	    l->origin == GIT_DIFF_LINE_DELETION)
		strbuf_addch(out, l->origin);
	strbuf_add(out, l->content, l->content_len);
	return 0;
}

/* The hunks only: the file header is ours. */
static int hunk_print_cb(const git_diff_delta *d, const git_diff_hunk *h,
			 const git_diff_line *l, void *payload)
{
	if (l->origin == GIT_DIFF_LINE_FILE_HDR)
		return 0;
	return diff_print_cb(d, h, l, payload);
}

/* Renames found as git show, git log -p and git format-patch find them
 * (diff.renames), so a moved file reads as classify reads it from git
 * show and as git patch-id has it, not as all its lines deleted and added:
 * first the files moved unchanged, however many (git finds those by their
 * blob id with no limit; libgit2 would try only the first 1,000 deleted
 * files for each added one), then the rest at least 50% alike, within
 * libgit2's (and git's) default limit. */
int sm_diff_find_renames(git_diff *diff)
{
	git_diff_find_options find;

	git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
	find.flags = GIT_DIFF_FIND_RENAMES | GIT_DIFF_FIND_EXACT_MATCH_ONLY;
	find.rename_limit = (size_t)-1;
	if (git_diff_find_similar(diff, &find) < 0)
		return -1;
	git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
	find.flags = GIT_DIFF_FIND_RENAMES;
	return git_diff_find_similar(diff, &find);
}

/* libgit2's slow path: whole, its diff of the two trees, the reference
 * for the text; else its diff of the files that differ alone, the same
 * deltas without opening every subtree of both (20 ms a commit on a
 * kernel tree; trees/part_tree.h). */
static int diff_text_libgit2(git_repository *repo, git_tree *old_tree, git_tree *new_tree,
			     int whole, struct strbuf *out)
{
	git_diff *diff = NULL;
	git_diff_options opts;
	int ret = -1;

	sm_diff_options_init(&opts);
	if ((whole ? git_diff_tree_to_tree(&diff, repo, old_tree, new_tree, &opts) :
		     sm_diff_changed_files(&diff, repo, old_tree, new_tree, &opts)) == 0 &&
	    sm_diff_find_renames(diff) == 0 &&
	    git_diff_print(diff, GIT_DIFF_FORMAT_PATCH, diff_print_cb, out) == 0)
		ret = 0;
	git_diff_free(diff);
	return ret;
}

/* Paths git prints as they are (no C quoting). */
static int plain_name(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f || *s == '"' ||
		    *s == '\\')
			return 0;
	return 1;
}

static int is_file_mode(git_filemode_t m)
{
	return m == GIT_FILEMODE_BLOB || m == GIT_FILEMODE_BLOB_EXECUTABLE ||
	       m == GIT_FILEMODE_LINK;
}

static int load_blob(git_repository *repo, const git_tree_entry *e, git_blob **out)
{
	*out = NULL;
	if (!e)
		return 0;
	return git_blob_lookup(out, repo, git_tree_entry_id(e)) < 0 ? -1 : 0;
}

/* One file added (o NULL), deleted (n NULL) or changed in place, in dir
 * (sm_tree_walk). */
static int diff_file(void *ctx, const char *dir, const git_tree_entry *o, const git_tree_entry *n)
{
	struct cd_state *st = ctx;
	const git_tree_entry *e = n ? n : o;
	git_blob *ob = NULL, *nb = NULL;
	git_patch *patch = NULL;
	const char *path;
	char oa[8], na[8];
	int ret = FAST_ERROR;

	if ((o && !is_file_mode(git_tree_entry_filemode(o))) ||
	    (n && !is_file_mode(git_tree_entry_filemode(n))) ||
	    (o && n && git_tree_entry_filemode(o) != git_tree_entry_filemode(n)))
		return FAST_FALLBACK;
	st->added += !o;
	st->deleted += !n;
	if (st->added && st->deleted)	/* a rename, maybe: libgit2 tells */
		return FAST_FALLBACK;
	strbuf_reset(&st->path);
	strbuf_addstr(&st->path, dir);
	strbuf_addstr(&st->path, git_tree_entry_name(e));
	path = st->path.buf;
	if (!plain_name(path)) {
		ret = FAST_FALLBACK;
		goto out;
	}
	if (load_blob(st->repo, o, &ob) < 0 || load_blob(st->repo, n, &nb) < 0)
		goto out;
	if ((ob && !git_blob_rawsize(ob)) || (nb && !git_blob_rawsize(nb))) {
		ret = FAST_FALLBACK;
		goto out;
	}
	if (git_patch_from_buffers(&patch, ob ? git_blob_rawcontent(ob) : NULL,
				   ob ? (size_t)git_blob_rawsize(ob) : 0, path,
				   nb ? git_blob_rawcontent(nb) : NULL,
				   nb ? (size_t)git_blob_rawsize(nb) : 0, path, &st->opts) < 0)
		goto out;
	if ((git_patch_get_delta(patch)->flags & GIT_DIFF_FLAG_BINARY) ||
	    !git_patch_num_hunks(patch)) {
		ret = FAST_FALLBACK;
		goto out;
	}
	git_oid_tostr(oa, sizeof(oa), o ? git_tree_entry_id(o) : &(git_oid){ { 0 } });
	git_oid_tostr(na, sizeof(na), n ? git_tree_entry_id(n) : &(git_oid){ { 0 } });
	strbuf_addf(st->out, "diff --git a/%s b/%s\n", path, path);
	if (!o)
		strbuf_addf(st->out, "new file mode %o\nindex %s..%s\n--- /dev/null\n+++ b/%s\n",
			    (unsigned)git_tree_entry_filemode(n), oa, na, path);
	else if (!n)
		strbuf_addf(st->out, "deleted file mode %o\nindex %s..%s\n--- a/%s\n+++ /dev/null\n",
			    (unsigned)git_tree_entry_filemode(o), oa, na, path);
	else
		strbuf_addf(st->out, "index %s..%s %o\n--- a/%s\n+++ b/%s\n", oa, na,
			    (unsigned)git_tree_entry_filemode(o), path, path);
	ret = git_patch_print(patch, hunk_print_cb, st->out) < 0 ? FAST_ERROR : FAST_OK;
out:
	git_patch_free(patch);
	git_blob_free(ob);
	git_blob_free(nb);
	return ret;
}

void sm_tree_keep_release(struct sm_tree_keep *k)
{
	for (size_t i = 0; i < SM_TREE_KEEP; i++)
		git_tree_free(k->tree[i]);
	memset(k, 0, sizeof(*k));
}

/* git_tree_lookup through st->keep: a tree kept is handed out again (a
 * reference of its own for the caller), one looked up is kept. */
static int tree_lookup(void *ctx, git_tree **out, const git_oid *id)
{
	struct cd_state *st = ctx;
	struct sm_tree_keep *k = st->keep;

	if (!k)
		return git_tree_lookup(out, st->repo, id);
	/* Up to a few thousand compares a commit: memcmp of a constant
	 * size inlines, two libgit2 calls a slot did not. */
	for (size_t i = 0; i < SM_TREE_KEEP; i++)
		if (k->tree[i] && !memcmp(k->id[i].id, id->id, GIT_OID_RAWSZ))
			return git_tree_dup(out, k->tree[i]);
	if (git_tree_lookup(out, st->repo, id) < 0)
		return -1;
	git_tree_free(k->tree[k->next]);
	if (git_tree_dup(&k->tree[k->next], *out) < 0)
		k->tree[k->next] = NULL;
	else
		git_oid_cpy(&k->id[k->next], id);
	k->next = (k->next + 1) % SM_TREE_KEEP;
	return 0;
}

/* Both texts, compared: SM_DIFF_CHECK=1 in the environment (tests). */
static int check_against_libgit2(git_repository *repo, git_tree *ot, git_tree *nt,
				 const struct strbuf *fast, size_t from, const char *hex)
{
	struct strbuf ref = STRBUF_INIT;
	int ret = 0;

	if (diff_text_libgit2(repo, ot, nt, 1, &ref) < 0)
		ret = -1;
	else if (ref.len != fast->len - from || memcmp(ref.buf, fast->buf + from, ref.len))
		ret = sm_error("commit %s: fast diff text differs from libgit2's", hex);
	strbuf_release(&ref);
	return ret;
}

/* The tree of c's first parent: the one st->keep noted last when that is
 * the parent (a walk oldest first diffs a commit right after its parent),
 * else read through the parent commit. */
static int old_tree_lookup(struct cd_state *st, git_commit *c, git_tree **out)
{
	struct sm_tree_keep *k = st->keep;
	git_commit *parent = NULL;
	int ret;

	if (k && k->has_last && git_oid_equal(&k->last_commit, git_commit_parent_id(c, 0)))
		return tree_lookup(st, out, &k->last_tree);
	if (git_commit_parent(&parent, c, 0) < 0)
		return -1;
	ret = tree_lookup(st, out, git_commit_tree_id(parent));
	git_commit_free(parent);
	return ret;
}

int sm_commit_diff_text(git_repository *repo, git_commit *c, struct strbuf *out)
{
	return sm_commit_diff_text_keep(repo, c, NULL, out);
}

int sm_commit_diff_text_keep(git_repository *repo, git_commit *c, struct sm_tree_keep *keep,
			     struct strbuf *out)
{
	git_tree *new_tree = NULL, *old_tree = NULL;
	struct cd_state st = { .repo = repo, .keep = keep, .out = out, .path = STRBUF_INIT };
	size_t from = out->len;
	char hex[GIT_OID_HEXSZ + 1];
	/* read once; scan's two threads both diff, hence atomic */
	static atomic_int check = -1;
	int ret = -1, r;

	sm_diff_options_init(&st.opts);
	git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
	if (check < 0) {
		const char *v = getenv("SM_DIFF_CHECK");

		check = v && *v && strcmp(v, "0");
	}
	if (tree_lookup(&st, &new_tree, git_commit_tree_id(c)) < 0)
		goto out;
	if (git_commit_parentcount(c) > 0 && old_tree_lookup(&st, c, &old_tree) < 0)
		goto out;
	if (keep) {
		git_oid_cpy(&keep->last_commit, git_commit_id(c));
		git_oid_cpy(&keep->last_tree, git_commit_tree_id(c));
		keep->has_last = 1;
	}
	r = sm_tree_walk(&(struct sm_tree_walk){ .repo = repo, .lookup = tree_lookup,
						 .file = diff_file, .ctx = &st },
			 old_tree, new_tree);
	if (r == FAST_ERROR)
		goto out;
	if (r == FAST_FALLBACK) {
		strbuf_setlen(out, from);
		if (diff_text_libgit2(repo, old_tree, new_tree, 0, out) < 0)
			goto out;
	}
	if (check && check_against_libgit2(repo, old_tree, new_tree, out, from, hex) < 0)
		goto out_keep;
	ret = 0;
out:
	if (ret < 0)
		sm_error("commit %s: cannot diff (%s)", hex, sm_git_error());
out_keep:
	strbuf_release(&st.path);
	git_tree_free(old_tree);
	git_tree_free(new_tree);
	return ret;
}
