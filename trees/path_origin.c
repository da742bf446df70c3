/* path_origin: see path_origin.h. */
#include "trees/path_origin.h"
#include "trees/deps_search.h"
#include "trees/part_tree.h"
#include "trees/repo.h"
#include "lib/git.h"
#include "lib/util.h"
#include <string.h>

/* A file moved more often than this on its way from the tree's name is
 * left as "not found" (a bound on the walk, not a limit seen in practice). */
#define MAX_MOVES 8

int sm_path_change_in(git_repository *repo, git_commit *c, const char *path, char **from)
{
	git_commit *parent = NULL;
	git_tree *old_tree = NULL, *new_tree = NULL;
	git_diff *diff = NULL;
	git_diff_options opts;
	char hex[GIT_OID_HEXSZ + 1];
	int ret = -1;

	*from = NULL;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
	if (git_commit_parent(&parent, c, 0) < 0 || git_commit_tree(&old_tree, parent) < 0 ||
	    git_commit_tree(&new_tree, c) < 0) {
		sm_error("%.12s: %s", hex, sm_git_error());
		goto out;
	}
	if (sm_tree_blob_at(old_tree, path, NULL)) {
		ret = SM_PATH_KEPT;
		goto out;
	}
	/* renames pair files the commit deletes and adds: all of them are
	 * among the files it changes */
	if (sm_diff_changed_files(&diff, repo, old_tree, new_tree, &opts) < 0 ||
	    sm_diff_find_renames(diff) < 0) {
		sm_error("%.12s: cannot diff (%s)", hex, sm_git_error());
		goto out;
	}
	ret = SM_PATH_ADDED;
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		if (d->status == GIT_DELTA_RENAMED && !strcmp(d->new_file.path, path)) {
			*from = xstrdup(d->old_file.path);
			ret = SM_PATH_MOVED;
			break;
		}
	}
out:
	git_diff_free(diff);
	git_tree_free(new_tree);
	git_tree_free(old_tree);
	git_commit_free(parent);
	return ret;
}

/* The newest commit of h from index *i on that made path (has it, its
 * parent does not); its index in *i. 0 found, 1 none, -1 error. */
static int next_maker(git_repository *repo, const struct sm_deps_history *h, size_t *i,
		      const char *path)
{
	for (; *i < h->nr; ++*i) {
		const struct sm_history_commit *e = &h->commits[*i];
		git_tree *mine = NULL, *theirs = NULL;
		int made;

		if (git_tree_lookup(&mine, repo, &e->tree) < 0 ||
		    git_tree_lookup(&theirs, repo, &e->parent_tree) < 0) {
			git_tree_free(mine);
			return sm_error("cannot read the tree of %s (%s)", git_oid_tostr_s(&e->id),
					sm_git_error());
		}
		made = sm_tree_differs_at(repo, mine, theirs, path) &&
		       sm_tree_blob_at(mine, path, NULL) && !sm_tree_blob_at(theirs, path, NULL);
		git_tree_free(mine);
		git_tree_free(theirs);
		if (made)
			return 0;
	}
	return 1;
}

int sm_path_origin_find(git_repository *repo, const struct sm_deps_history *history,
			git_commit *fix, git_tree *tip_tree, const char *path,
			struct sm_path_origin *out)
{
	char *cur = xstrdup(path);
	size_t i = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->path = xstrdup(path);
	/* the fix's own place first: what is older comes after it */
	for (size_t k = 0; k < history->nr; k++)
		if (git_oid_equal(&history->commits[k].id, git_commit_id(fix))) {
			i = k + 1;
			break;
		}
	/* Back from the fix to the commit that made cur: one that added it
	 * ends the trail (the feature), one that moved it from a name the
	 * tree has ends it too (no feature missing), one that moved it from
	 * another name the tree lacks goes on with that name. Found nothing,
	 * or too many moves: by stays "" (nothing certain to say). */
	for (int moves = 0; moves <= MAX_MOVES; moves++, i++) {
		git_commit *c = NULL;
		char *from = NULL;
		int change;

		ret = next_maker(repo, history, &i, cur);
		if (ret) {
			ret = ret < 0 ? -1 : 0;
			break;
		}
		if (git_commit_lookup(&c, repo, &history->commits[i].id) < 0) {
			ret = sm_error("cannot read commit %s (%s)",
				       git_oid_tostr_s(&history->commits[i].id), sm_git_error());
			break;
		}
		change = sm_path_change_in(repo, c, cur, &from);
		if (change == SM_PATH_ADDED ||
		    (change == SM_PATH_MOVED && sm_tree_blob_at(tip_tree, from, NULL))) {
			git_oid_tostr(out->by, sizeof(out->by), git_commit_id(c));
			out->subject = sm_commit_subject(c);
			if (change == SM_PATH_MOVED)
				out->tree_path = xstrdup(from);
		}
		git_commit_free(c);
		if (change < 0)
			ret = -1;
		if (change != SM_PATH_MOVED || out->tree_path) {
			free(from);
			break;
		}
		free(cur);
		cur = from;
	}
	free(cur);
	if (ret < 0)
		sm_path_origin_release(out);
	return ret;
}

void sm_path_origin_release(struct sm_path_origin *o)
{
	free(o->path);
	free(o->tree_path);
	free(o->subject);
	memset(o, 0, sizeof(*o));
}
