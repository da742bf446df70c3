/* tree_walk: two trees read side by side (see tree_walk.h). */
#include "trees/tree_walk.h"
#include "lib/strbuf.h"
#include <string.h>

struct walk {
	const struct sm_tree_walk *w;
	struct strbuf dir;	/* the directory walked, "dir/" */
};

/* git's order of a tree's entries: a directory sorts as if its name ended
 * in '/'. <0, 0 or >0, as strcmp. */
static int entry_cmp(const git_tree_entry *a, const git_tree_entry *b)
{
	const char *na = git_tree_entry_name(a), *nb = git_tree_entry_name(b);
	size_t la = strlen(na), lb = strlen(nb), l = la < lb ? la : lb;
	int c = memcmp(na, nb, l);
	unsigned char ca, cb;

	if (c)
		return c;
	ca = la > l ? (unsigned char)na[l] :
	     git_tree_entry_type(a) == GIT_OBJECT_TREE ? '/' : 0;
	cb = lb > l ? (unsigned char)nb[l] :
	     git_tree_entry_type(b) == GIT_OBJECT_TREE ? '/' : 0;
	return ca < cb ? -1 : ca > cb;
}

/* The subtree of entry e (NULL: none) into *out. */
static int lookup(struct walk *k, const git_tree_entry *e, git_tree **out)
{
	*out = NULL;
	if (!e)
		return 0;
	if (k->w->lookup)
		return k->w->lookup(k->w->ctx, out, git_tree_entry_id(e));
	return git_tree_lookup(out, k->w->repo, git_tree_entry_id(e));
}

static int walk_trees(struct walk *k, git_tree *a, git_tree *b);

/* A directory on one side (the other NULL), or changed on both. */
static int walk_dir(struct walk *k, const git_tree_entry *ea, const git_tree_entry *eb)
{
	git_tree *a = NULL, *b = NULL;
	size_t len = k->dir.len;
	int ret = -1;

	if (lookup(k, ea, &a) < 0 || lookup(k, eb, &b) < 0)
		goto out;
	strbuf_addstr(&k->dir, git_tree_entry_name(ea ? ea : eb));
	strbuf_addch(&k->dir, '/');
	ret = walk_trees(k, a, b);
	strbuf_setlen(&k->dir, len);
out:
	git_tree_free(a);
	git_tree_free(b);
	return ret;
}

/* An entry only one side has: a file, or every file under a directory. */
static int one_side(struct walk *k, const git_tree_entry *ea, const git_tree_entry *eb)
{
	const git_tree_entry *e = ea ? ea : eb;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		return walk_dir(k, ea, eb);
	return k->w->file(k->w->ctx, k->dir.buf, ea, eb);
}

static int walk_trees(struct walk *k, git_tree *a, git_tree *b)
{
	size_t i = 0, j = 0, na = a ? git_tree_entrycount(a) : 0, nb = b ? git_tree_entrycount(b) : 0;
	int ret = 0;

	while (!ret && (i < na || j < nb)) {
		const git_tree_entry *ea = i < na ? git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *eb = j < nb ? git_tree_entry_byindex(b, j) : NULL;
		int c = !ea ? 1 : !eb ? -1 : entry_cmp(ea, eb);

		if (c < 0) {
			ret = one_side(k, ea, NULL);
			i++;
		} else if (c > 0) {
			ret = one_side(k, NULL, eb);
			j++;
		} else {
			i++;
			j++;
			if (git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)) &&
			    git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb))
				continue;
			if (git_tree_entry_type(ea) == GIT_OBJECT_TREE)
				ret = walk_dir(k, ea, eb);
			else
				ret = k->w->file(k->w->ctx, k->dir.buf, ea, eb);
		}
	}
	return ret;
}

int sm_tree_walk(const struct sm_tree_walk *w, git_tree *a, git_tree *b)
{
	struct walk k = { w, STRBUF_INIT };
	int ret = walk_trees(&k, a, b);

	strbuf_release(&k.dir);
	return ret;
}
