/* tree_files: see tree_files.h. */
#include "trees/tree_files.h"
#include "rules/classify.h"
#include "trees/repo.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <git2/sys/hashsig.h>
#include <string.h>

/* How alike (0..100) a file of mainline and one of the tree must be for
 * the one to be, perhaps, the other moved (see tree_files.h). */
#define MOVED_SIMILARITY 30

void sm_tree_files_init(struct sm_tree_files *f, git_repository *tree_repo, const git_oid *tip,
			git_repository *mainline_repo, const git_oid *mainline)
{
	memset(f, 0, sizeof(*f));	/* gone_names: STRMAP_INIT */
	f->tree_repo = tree_repo;
	f->mainline_repo = mainline_repo;
	git_oid_cpy(&f->tip, tip);
	git_oid_cpy(&f->mainline, mainline);
}

static int load(struct sm_tree_files *f)
{
	git_commit *a = NULL, *b = NULL;

	if (f->loaded)
		return f->loaded;
	f->loaded = -1;
	if (git_commit_lookup(&a, f->tree_repo, &f->tip) == 0 &&
	    git_commit_lookup(&b, f->mainline_repo, &f->mainline) == 0 &&
	    git_commit_tree(&f->tip_tree, a) == 0 && git_commit_tree(&f->mainline_tree, b) == 0)
		f->loaded = 1;
	git_commit_free(a);
	git_commit_free(b);
	sm_clear_error();
	return f->loaded;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The files of mine (the tree's, in f->tree_repo, under prefix) that
 * theirs (mainline's, in f->mainline_repo; NULL: none) lacks at the same
 * path, into f->gone. Subtrees with the same id on both sides hold no
 * change and are not read: a tree diff without the diff. */
static void collect_gone(struct sm_tree_files *f, git_tree *mine, git_tree *theirs,
			 struct strbuf *prefix)
{
	size_t at = prefix->len;

	for (size_t i = 0; i < git_tree_entrycount(mine); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(mine, i);
		const char *name = git_tree_entry_name(e);
		const git_tree_entry *m = theirs ? git_tree_entry_byname(theirs, name) : NULL;
		git_object_t type = git_tree_entry_type(e);

		if (m && git_oid_equal(git_tree_entry_id(e), git_tree_entry_id(m)))
			continue;
		strbuf_setlen(prefix, at);
		strbuf_addstr(prefix, name);
		if (type == GIT_OBJECT_TREE) {
			git_tree *sub = NULL, *their_sub = NULL;

			if (git_tree_lookup(&sub, f->tree_repo, git_tree_entry_id(e)) == 0) {
				if (m && git_tree_entry_type(m) == GIT_OBJECT_TREE &&
				    git_tree_lookup(&their_sub, f->mainline_repo, git_tree_entry_id(m)) < 0)
					their_sub = NULL;
				strbuf_addch(prefix, '/');
				collect_gone(f, sub, their_sub, prefix);
			}
			git_tree_free(their_sub);
			git_tree_free(sub);
		} else if (type == GIT_OBJECT_BLOB && (!m || git_tree_entry_type(m) != GIT_OBJECT_BLOB)) {
			struct sm_gone_file *g;

			ALLOC_GROW(f->gone, f->nr_gone + 1, f->alloc_gone);
			g = &f->gone[f->nr_gone++];
			memset(g, 0, sizeof(*g));
			g->path = xstrdup(prefix->buf);
			git_oid_cpy(&g->blob, git_tree_entry_id(e));
		}
	}
	strbuf_setlen(prefix, at);
	sm_clear_error();
}

static void build_gone(struct sm_tree_files *f)
{
	struct strbuf prefix = STRBUF_INIT;

	collect_gone(f, f->tip_tree, f->mainline_tree, &prefix);
	strbuf_release(&prefix);
	/* after the array stops moving: the map borrows the paths */
	for (size_t i = 0; i < f->nr_gone; i++)
		strmap_put(&f->gone_names, base_name(f->gone[i].path), i);
	f->gone_built = 1;
}

/* Do a and b end with the same extension (none for both counts)? */
static int same_kind(const char *a, const char *b)
{
	const char *da = strrchr(base_name(a), '.'), *db = strrchr(base_name(b), '.');

	return (!da && !db) || (da && db && !strcmp(da, db));
}

/* Can path (with signature *mine, made here when NULL, in mainline) be
 * part of a file mainline split? A split (x86's signal.c into signal_32.c
 * and signal_64.c in 6.2) leaves the old file in place, shrunk, so it is
 * no gone file: look for a file of the tree in the same directory, of the
 * same extension, that mainline has at its path but at most
 * SPLIT_SHRINK_PCT of its size, and that is MOVED_SIMILARITY alike. A
 * driver copied from its sibling does not shrink the sibling. */
#define SPLIT_SHRINK_PCT 75

/* The directory of path (root's own when path has none) in root, a tree
 * of repo, or NULL when root has no such directory. Free the result. */
static git_tree *dir_of(git_repository *repo, git_tree *root, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	git_tree_entry *te = NULL;
	git_tree *out = NULL;

	if (!slash)
		return git_tree_dup(&out, root) == 0 ? out : NULL;
	dir = xstrndup(path, (size_t)(slash - path));
	if (git_tree_entry_bypath(&te, root, dir) == 0 &&
	    git_tree_entry_type(te) == GIT_OBJECT_TREE &&
	    git_tree_lookup(&out, repo, git_tree_entry_id(te)) < 0)
		out = NULL;
	git_tree_entry_free(te);
	free(dir);
	return out;
}

static int maybe_split_from(struct sm_tree_files *f, const char *path, const git_oid *blob,
			    git_hashsig **mine)
{
	/* the directory on both sides, each read once */
	git_tree *here = dir_of(f->tree_repo, f->tip_tree, path);
	git_tree *there = here ? dir_of(f->mainline_repo, f->mainline_tree, path) : NULL;
	int split = 0;

	for (size_t i = 0; there && i < git_tree_entrycount(here) && !split; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(here, i), *m;
		git_hashsig *sig;
		size_t was;

		if (git_tree_entry_type(e) != GIT_OBJECT_BLOB || !same_kind(path, git_tree_entry_name(e)))
			continue;
		/* mainline still has it, shrunk */
		m = git_tree_entry_byname(there, git_tree_entry_name(e));
		if (!m || git_tree_entry_type(m) != GIT_OBJECT_BLOB ||
		    git_oid_equal(git_tree_entry_id(m), git_tree_entry_id(e)) ||
		    !(was = sm_blob_size(f->tree_repo, git_tree_entry_id(e))) ||
		    sm_blob_size(f->mainline_repo, git_tree_entry_id(m)) * 100 > was * SPLIT_SHRINK_PCT)
			continue;
		if (!*mine && !(*mine = sm_blob_signature(f->mainline_repo, blob)))
			split = 1;	/* cannot tell */
		else if ((sig = sm_blob_signature(f->tree_repo, git_tree_entry_id(e))) != NULL) {
			split = git_hashsig_compare(*mine, sig) >= MOVED_SIMILARITY;
			git_hashsig_free(sig);
		}
	}
	git_tree_free(there);
	git_tree_free(here);
	sm_clear_error();
	return split;
}

/* g's signature, made when first asked for (NULL: none can be made) */
static const git_hashsig *gone_signature(struct sm_tree_files *f, struct sm_gone_file *g)
{
	if (!g->sig_state) {
		g->sig = sm_blob_signature(f->tree_repo, &g->blob);
		g->sig_state = g->sig ? 1 : -1;
	}
	return g->sig;
}

/* Can path (blob in mainline) be a file of the tree mainline moved, or
 * split off one? */
static int maybe_moved(struct sm_tree_files *f, const char *path, const git_oid *blob)
{
	git_hashsig *mine = NULL;
	size_t ignored;
	int moved = 0;

	if (strmap_get(&f->gone_names, base_name(path), &ignored))
		return 1;
	for (size_t i = 0; i < f->nr_gone && !moved; i++) {
		struct sm_gone_file *g = &f->gone[i];

		if (!same_kind(path, g->path))
			continue;
		if (!mine && !(mine = sm_blob_signature(f->mainline_repo, blob)))
			return 1;	/* cannot tell */
		moved = gone_signature(f, g) && git_hashsig_compare(mine, g->sig) >= MOVED_SIMILARITY;
	}
	if (!moved)
		moved = maybe_split_from(f, path, blob, &mine);
	git_hashsig_free(mine);
	return moved;
}

int sm_tree_files_lacks(struct sm_tree_files *f, const struct sm_commit *c, const char **first,
			size_t *nr)
{
	size_t n = 0;

	*first = NULL;
	*nr = 0;
	/* numstat or --stat alone (classify's inputs) do not say which files
	 * a commit creates: a new file would read as one the tree lacks */
	if (!c->nr_files || c->diff.from_stat || load(f) < 0)
		return 0;
	for (size_t k = 0; k < c->nr_files; k++) {
		const struct sm_diff_file *d = &c->files[k];

		if (d->is_new)
			continue;
		/* the tree has it; or mainline no longer has it (deleted or
		 * moved again later): nothing certain */
		if (sm_tree_blob_at(f->tip_tree, d->path, NULL) ||
		    !sm_tree_blob_at(f->mainline_tree, d->path, NULL))
			return 0;
		if (!n++)
			*first = d->path;
	}
	if (!n)
		return 0;
	if (!f->gone_built)
		build_gone(f);
	for (size_t k = 0; k < c->nr_files; k++) {
		git_oid blob;

		if (!c->files[k].is_new && sm_tree_blob_at(f->mainline_tree, c->files[k].path, &blob) &&
		    maybe_moved(f, c->files[k].path, &blob))
			return 0;
	}
	*nr = n;
	return 1;
}

void sm_tree_files_judge(struct sm_tree_files *f, const struct sm_rules *r,
			 const struct sm_commit *c, const char *tree, struct sm_verdict *v)
{
	const char *first;
	size_t nr;

	if (v->vetoed || sm_verdict_weight_sum(v) < sm_rules_maybe_score(r) ||
	    !sm_tree_files_lacks(f, c, &first, &nr))
		return;
	if (nr == 1)
		sm_verdict_veto(v, "file-not-in-tree", "%s is not in %s: the code it changes came later",
				first, tree);
	else
		sm_verdict_veto(v, "file-not-in-tree",
				"none of the %zu files it changes is in %s (%s and %zu more): the code came later",
				nr, tree, first, nr - 1);
}

const char *sm_tree_files_most_like(struct sm_tree_files *f, const char *path,
				    const git_hashsig *sig, size_t size, const struct strlist *taken,
				    git_tree *now, int min, int *score)
{
	const char *best = NULL;
	int tied = 0;

	*score = 0;
	if (load(f) < 0)
		return NULL;
	if (!f->gone_built)
		build_gone(f);
	for (size_t i = 0; i < f->nr_gone; i++) {
		struct sm_gone_file *g = &f->gone[i];
		int s;

		/* the size first: a file that cannot be half alike is not
		 * read (its signature may be made for another file yet) */
		if (!same_kind(path, g->path) || strlist_contains(taken, g->path) ||
		    (!g->sig_state && !sm_sizes_may_be_alike(size, sm_blob_size(f->tree_repo, &g->blob))) ||
		    !gone_signature(f, g))
			continue;
		s = git_hashsig_compare(sig, g->sig);
		/* one the tree the patch goes onto lacks is none to tie with */
		if (s < min || s < *score || (now && !sm_tree_blob_at(now, g->path, NULL)))
			continue;
		tied = s == *score;
		*score = s;
		best = g->path;
	}
	sm_clear_error();
	/* two as alike (a copy): nothing says which one it was */
	if (tied)
		best = NULL;
	return best;
}

void sm_tree_files_release(struct sm_tree_files *f)
{
	git_tree_free(f->tip_tree);
	git_tree_free(f->mainline_tree);
	for (size_t i = 0; i < f->nr_gone; i++) {
		free(f->gone[i].path);
		git_hashsig_free(f->gone[i].sig);
	}
	free(f->gone);
	strmap_clear(&f->gone_names);
	memset(f, 0, sizeof(*f));
}
