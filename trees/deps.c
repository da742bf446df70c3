#include "trees/deps.h"
#include "trees/tree_state.h"
#include "trees/repo.h"
#include "lib/util.h"
#include <string.h>

static struct sm_dep *dep_get(struct sm_deps_result *res, const git_oid *id)
{
	char hex[41];
	struct sm_dep *d;

	git_oid_tostr(hex, sizeof(hex), id);
	for (size_t i = 0; i < res->nr; i++)
		if (!strcmp(res->deps[i].id, hex))
			return &res->deps[i];
	ALLOC_GROW(res->deps, res->nr, res->alloc);
	d = &res->deps[res->nr++];
	memset(d, 0, sizeof(*d));
	memcpy(d->id, hex, 41);
	return d;
}

static size_t blob_lines(git_repository *repo, git_commit *c, const char *path)
{
	git_tree *tree = NULL;
	git_tree_entry *te = NULL;
	git_blob *blob = NULL;
	size_t n = 0;

	if (git_commit_tree(&tree, c) == 0 && git_tree_entry_bypath(&te, tree, path) == 0 &&
	    git_blob_lookup(&blob, repo, git_tree_entry_id(te)) == 0) {
		const char *p = git_blob_rawcontent(blob);
		size_t len = (size_t)git_blob_rawsize(blob);

		for (size_t i = 0; i < len; i++)
			n += p[i] == '\n';
		if (len && p[len - 1] != '\n')
			n++;
	}
	git_blob_free(blob);
	git_tree_entry_free(te);
	git_tree_free(tree);
	return n;
}

static int path_in_commit(git_commit *c, const char *path)
{
	git_tree *tree = NULL;
	git_tree_entry *te = NULL;
	int found = 0;

	if (git_commit_tree(&tree, c) == 0 && git_tree_entry_bypath(&te, tree, path) == 0)
		found = 1;
	git_tree_entry_free(te);
	git_tree_free(tree);
	return found;
}

static int blame_range(git_repository *repo, git_commit *parent, const git_oid *base,
		       const char *path, size_t from, size_t to, struct sm_deps_result *res)
{
	git_blame_options opts;
	git_blame *blame = NULL;

	git_blame_options_init(&opts, GIT_BLAME_OPTIONS_VERSION);
	git_oid_cpy(&opts.newest_commit, git_commit_id(parent));
	if (base)
		git_oid_cpy(&opts.oldest_commit, base);
	opts.min_line = from;
	opts.max_line = to;
	if (git_blame_file(&blame, repo, path, &opts) < 0)
		return sm_error("%s: blame failed (%s)", path, sm_git_error());
	for (uint32_t i = 0; i < git_blame_get_hunk_count(blame); i++) {
		const git_blame_hunk *h = git_blame_get_hunk_byindex(blame, i);
		struct sm_dep *d;

		if (!h || h->boundary || (base && git_oid_equal(&h->final_commit_id, base)))
			continue;
		d = dep_get(res, &h->final_commit_id);
		d->lines += (unsigned)h->lines_in_hunk;
		if (!strlist_contains(&d->paths, path))
			strlist_append(&d->paths, path);
	}
	git_blame_free(blame);
	return 0;
}

static int cmp_dep(const void *a, const void *b)
{
	const struct sm_dep *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

int sm_deps(git_repository *repo, const char *fix, const struct sm_tree_spec *tree,
	    const char *cache_dir, struct sm_deps_result *res)
{
	struct sm_tree_state t;
	git_commit *c = NULL, *parent = NULL, *tip = NULL;
	git_tree *old_tree = NULL, *new_tree = NULL;
	git_diff *diff = NULL;
	git_diff_options dopts;
	git_oid fid, base;
	int has_base = 0, ret = -1;
	size_t kept = 0;

	memset(res, 0, sizeof(*res));
	if (sm_resolve_commit(repo, fix, &fid) < 0)
		return -1;
	git_oid_tostr(res->fix, sizeof(res->fix), &fid);
	if (sm_tree_state_open(&t, tree, repo, NULL, cache_dir) < 0)
		return -1;
	if (git_commit_lookup(&c, repo, &fid) < 0 || git_commit_parentcount(c) != 1) {
		sm_error("%s: not a commit with one parent", fix);
		goto out;
	}
	res->subject = xstrdup(git_commit_summary(c) ? git_commit_summary(c) : "");
	if (git_commit_parent(&parent, c, 0) < 0 || git_commit_lookup(&tip, repo, &t.tip) < 0 ||
	    git_commit_tree(&old_tree, parent) < 0 || git_commit_tree(&new_tree, c) < 0) {
		sm_error("%s: %s", fix, sm_git_error());
		goto out;
	}
	if (t.has_base) {
		base = t.base;
		has_base = 1;
	} else if (git_merge_base(&base, repo, &t.tip, git_commit_id(parent)) == 0) {
		has_base = 1;
	}
	if (has_base)
		git_oid_tostr(res->base, sizeof(res->base), &base);
	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	dopts.context_lines = 0;
	if (git_diff_tree_to_tree(&diff, repo, old_tree, new_tree, &dopts) < 0) {
		sm_error("%s: cannot diff (%s)", fix, sm_git_error());
		goto out;
	}
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *dl = git_diff_get_delta(diff, i);
		const char *path = dl->old_file.path;
		git_patch *patch = NULL;
		size_t nlines;

		if (dl->status == GIT_DELTA_ADDED)
			continue;
		if (!path_in_commit(tip, path) && !strlist_contains(&res->missing_files, path))
			strlist_append(&res->missing_files, path);
		nlines = blob_lines(repo, parent, path);
		if (!nlines || git_patch_from_diff(&patch, diff, i) < 0 || !patch)
			continue;
		for (size_t h = 0; h < git_patch_num_hunks(patch); h++) {
			const git_diff_hunk *hunk;
			size_t from, to, nl;

			if (git_patch_get_hunk(&hunk, &nl, patch, h) < 0)
				continue;
			if (hunk->old_lines > 0) {
				from = hunk->old_start;
				to = hunk->old_start + hunk->old_lines - 1;
			} else {	/* pure addition: the lines around it */
				from = hunk->old_start ? hunk->old_start : 1;
				to = hunk->old_start + 1;
			}
			/* One line either side: a change next to another one
			 * conflicts just the same. */
			if (from > 1)
				from--;
			to++;
			if (to > nlines)
				to = nlines;
			if (from > to)
				from = to;
			if (blame_range(repo, parent, has_base ? &base : NULL, path, from, to, res) < 0) {
				git_patch_free(patch);
				goto out;
			}
		}
		git_patch_free(patch);
	}
	/* Drop what the tree already carries; date and flag the rest. */
	for (size_t i = 0; i < res->nr; i++) {
		struct sm_dep *d = &res->deps[i];
		git_commit *dc = NULL;
		git_oid did;

		git_oid_fromstr(&did, d->id);
		if (git_commit_lookup(&dc, repo, &did) < 0) {
			strlist_clear(&d->paths);
			continue;
		}
		if (sm_upstream_index_find(&t.idx, d->id, NULL, git_commit_summary(dc), NULL) ||
		    git_oid_equal(&did, &t.tip) || git_graph_descendant_of(repo, &t.tip, &did) == 1) {
			res->already_in_tree++;
			strlist_clear(&d->paths);
			git_commit_free(dc);
			continue;
		}
		d->subject = xstrdup(git_commit_summary(dc) ? git_commit_summary(dc) : "");
		d->time = (long long)git_commit_time(dc);
		if (git_commit_parentcount(dc) == 1) {
			git_commit *dp = NULL;

			if (git_commit_parent(&dp, dc, 0) == 0)
				for (size_t k = 0; k < d->paths.nr; k++)
					if (!path_in_commit(dp, d->paths.items[k]))
						d->new_file = 1;
			git_commit_free(dp);
		}
		git_commit_free(dc);
		res->deps[kept++] = *d;
	}
	res->nr = kept;
	qsort(res->deps, res->nr, sizeof(*res->deps), cmp_dep);
	ret = 0;
out:
	git_diff_free(diff);
	git_tree_free(old_tree);
	git_tree_free(new_tree);
	git_commit_free(tip);
	git_commit_free(parent);
	git_commit_free(c);
	sm_tree_state_close(&t);
	if (ret < 0)
		sm_deps_result_release(res);
	return ret;
}

void sm_deps_result_release(struct sm_deps_result *res)
{
	for (size_t i = 0; i < res->nr; i++) {
		free(res->deps[i].subject);
		strlist_clear(&res->deps[i].paths);
	}
	free(res->deps);
	free(res->subject);
	strlist_clear(&res->missing_files);
	memset(res, 0, sizeof(*res));
}
