#include "trees/part_tree.h"
#include "trees/repo.h"
#include "trees/tree_walk.h"
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

/* A file that differs (sm_tree_walk): its path, to out. */
static int add_path(void *out, const char *dir, const git_tree_entry *a, const git_tree_entry *b)
{
	struct strbuf path = STRBUF_INIT;

	strbuf_addstr(&path, dir);
	strbuf_addstr(&path, git_tree_entry_name(a ? a : b));
	strlist_append(out, path.buf);
	strbuf_release(&path);
	return 0;
}

int sm_tree_diff_paths(git_repository *repo, git_tree *a, git_tree *b, struct strlist *out)
{
	const struct sm_tree_walk w = { .repo = repo, .file = add_path, .ctx = out };

	return sm_tree_walk(&w, a, b);
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
