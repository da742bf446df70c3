#include "trees/part_tree.h"
#include "trees/repo.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <string.h>

void sm_diff_paths(git_diff *diff, struct strlist *out)
{
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		strlist_append(out, d->old_file.path);
		if (strcmp(d->new_file.path, d->old_file.path))
			strlist_append(out, d->new_file.path);
	}
}

static int changed_paths(git_repository *repo, git_tree *a, git_tree *b, struct strbuf *dir,
			 struct strlist *out);

/* The directory ea of a, eb of b (one of them NULL: a directory only one
 * side has), walked. */
static int changed_dir(git_repository *repo, const git_tree_entry *ea, const git_tree_entry *eb,
		       struct strbuf *dir, struct strlist *out)
{
	git_tree *a = NULL, *b = NULL;
	size_t len = dir->len;
	int ret = -1;

	if ((ea && git_tree_lookup(&a, repo, git_tree_entry_id(ea)) < 0) ||
	    (eb && git_tree_lookup(&b, repo, git_tree_entry_id(eb)) < 0))
		goto out;
	strbuf_addstr(dir, git_tree_entry_name(ea ? ea : eb));
	strbuf_addch(dir, '/');
	ret = changed_paths(repo, a, b, dir, out);
	strbuf_setlen(dir, len);
out:
	git_tree_free(a);
	git_tree_free(b);
	return ret;
}

/* One side's entry e: a file (or a link, a submodule) is a path; a
 * directory, every path under it. */
static int one_side(git_repository *repo, const git_tree_entry *ea, const git_tree_entry *eb,
		    struct strbuf *dir, struct strlist *out)
{
	const git_tree_entry *e = ea ? ea : eb;
	size_t len = dir->len;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		return changed_dir(repo, ea, eb, dir, out);
	strbuf_addstr(dir, git_tree_entry_name(e));
	strlist_append(out, dir->buf);
	strbuf_setlen(dir, len);
	return 0;
}

/* a and b (either may be NULL) side by side, in git's order: a subtree
 * whose id did not change is never opened (a commit's diff reads a few
 * trees, not the 5,000 of a kernel tree, as libgit2's diff does). */
static int changed_paths(git_repository *repo, git_tree *a, git_tree *b, struct strbuf *dir,
			 struct strlist *out)
{
	size_t i = 0, j = 0, na = a ? git_tree_entrycount(a) : 0, nb = b ? git_tree_entrycount(b) : 0;
	int ret = 0;

	while (!ret && (i < na || j < nb)) {
		const git_tree_entry *ea = i < na ? git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *eb = j < nb ? git_tree_entry_byindex(b, j) : NULL;
		int c = !ea ? 1 : !eb ? -1 : sm_tree_entry_cmp(ea, eb);

		if (c < 0) {
			ret = one_side(repo, ea, NULL, dir, out);
			i++;
		} else if (c > 0) {
			ret = one_side(repo, NULL, eb, dir, out);
			j++;
		} else {
			i++;
			j++;
			if (git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)) &&
			    git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb))
				continue;
			if (git_tree_entry_type(ea) == GIT_OBJECT_TREE)
				ret = changed_dir(repo, ea, eb, dir, out);
			else
				ret = one_side(repo, ea, NULL, dir, out);
		}
	}
	return ret;
}

int sm_tree_diff_paths(git_repository *repo, git_tree *a, git_tree *b, struct strlist *out)
{
	struct strbuf dir = STRBUF_INIT;
	int ret = changed_paths(repo, a, b, &dir, out);

	strbuf_release(&dir);
	return ret;
}

/* tree's file at path as an index entry (its path borrowed): a blob (a
 * file or a link) or a submodule's commit, whose id a change may move as
 * it changes a file; 0 when the tree has neither there. */
static int file_entry(git_tree *tree, const char *path, git_index_entry *e)
{
	git_tree_entry *te = NULL;
	int found = git_tree_entry_bypath(&te, tree, path) == 0 &&
		    (git_tree_entry_type(te) == GIT_OBJECT_BLOB ||
		     git_tree_entry_type(te) == GIT_OBJECT_COMMIT);

	memset(e, 0, sizeof(*e));
	if (found) {
		e->path = path;
		e->mode = (uint32_t)git_tree_entry_filemode(te);
		git_oid_cpy(&e->id, git_tree_entry_id(te));
	}
	git_tree_entry_free(te);
	return found;
}

int sm_part_tree(git_repository *repo, git_tree *tree, const struct strlist *paths, git_oid *out)
{
	git_index *index = NULL;
	int ret = git_index_new(&index);

	for (size_t i = 0; i < paths->nr && !ret; i++) {
		git_index_entry e;

		if (file_entry(tree, paths->items[i], &e))
			ret = git_index_add(index, &e);
	}
	if (!ret)
		ret = git_index_write_tree_to(out, index, repo);
	git_index_free(index);
	return ret;
}

int sm_part_overlay(git_repository *repo, git_tree *onto, git_tree *part,
		    const struct strlist *paths, git_oid *out)
{
	/* removals first, then the rest: one call that removes the file
	 * "x" and adds "x/y" fails (libgit2: "D/F conflict") */
	git_tree_update *ups = xcalloc(paths->nr + 1, sizeof(*ups));
	size_t nr_gone = 0, nr = 0;
	git_tree *between = NULL;
	git_oid id;
	int ret = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < paths->nr; i++) {
			git_index_entry e, there;
			int has = file_entry(part, paths->items[i], &e);

			if (pass == 0 && !has && file_entry(onto, paths->items[i], &there)) {
				ups[nr].action = GIT_TREE_UPDATE_REMOVE;
			} else if (pass == 1 && has) {
				ups[nr].action = GIT_TREE_UPDATE_UPSERT;
				git_oid_cpy(&ups[nr].id, &e.id);
				ups[nr].filemode = (git_filemode_t)e.mode;
			} else {
				continue;
			}
			ups[nr++].path = paths->items[i];
		}
		if (pass == 0)
			nr_gone = nr;
	}
	if (nr_gone && nr_gone < nr) {
		ret = git_tree_create_updated(&id, repo, onto, nr_gone, ups);
		if (!ret)
			ret = git_tree_lookup(&between, repo, &id);
		if (!ret)
			ret = git_tree_create_updated(out, repo, between, nr - nr_gone, ups + nr_gone);
	} else {
		ret = git_tree_create_updated(out, repo, onto, nr, ups);
	}
	git_tree_free(between);
	free(ups);
	return ret;
}

int sm_diff_changed_files(git_diff **out, git_repository *repo, git_tree *a, git_tree *b,
			  const git_diff_options *opts)
{
	struct strlist paths = STRLIST_INIT;
	git_diff_options o = *opts;
	int ret;

	*out = NULL;
	ret = sm_tree_diff_paths(repo, a, b, &paths);
	if (!ret) {
		/* a literal path list: libgit2's tree iterators then open only
		 * the directories on those paths */
		o.pathspec.strings = paths.items;
		o.pathspec.count = paths.nr;
		o.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
		ret = paths.nr ? git_diff_tree_to_tree(out, repo, a, b, &o) :
				 git_diff_tree_to_tree(out, repo, NULL, NULL, &o);
	}
	strlist_clear(&paths);
	return ret;
}
