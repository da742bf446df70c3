#include "trees/trial.h"
#include "trees/part_tree.h"
#include "trees/pick.h"
#include "trees/repo.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <stdlib.h>
#include <string.h>

int sm_trial_open(struct sm_trial *t, git_repository *like)
{
	git_odb *odb = NULL;
	const char *path = git_repository_path(like);

	memset(t, 0, sizeof(*t));
	if (git_repository_open(&t->repo, path) < 0)
		return sm_error("%s: cannot open for a trial cherry-pick (%s)", path, sm_git_error());
	if (git_mempack_new(&t->mem) < 0)
		goto fail;
	if (git_repository_odb(&odb, t->repo) < 0 || git_odb_add_backend(odb, t->mem, 999) < 0) {
		t->mem->free(t->mem);	/* not added: still ours */
		goto fail;
	}
	git_odb_free(odb);
	return 0;
fail:
	sm_error("%s: no in-memory object store for a trial cherry-pick (%s)", path,
		 sm_git_error());
	git_odb_free(odb);
	git_repository_free(t->repo);
	memset(t, 0, sizeof(*t));
	return -1;
}

int sm_trial_borrow(struct sm_trial *t, git_repository *other)
{
	const char *mine = git_repository_commondir(t->repo);
	const char *theirs = git_repository_commondir(other);
	git_odb *odb = NULL;
	char *objects;
	int ret = 0;

	if (!strcmp(mine, theirs))
		return 0;
	objects = xasprintf("%sobjects", theirs);	/* commondir ends in '/' */
	if (git_repository_odb(&odb, t->repo) < 0 || git_odb_add_disk_alternate(odb, objects) < 0)
		ret = sm_error("%s: cannot read its objects for a trial cherry-pick (%s)", objects,
			       sm_git_error());
	git_odb_free(odb);
	free(objects);
	return ret;
}

static int lookup(git_repository *repo, const char *hex, git_commit **out)
{
	git_oid id;

	if (git_oid_fromstr(&id, hex) < 0 || git_commit_lookup(out, repo, &id) < 0)
		return sm_error("commit %.12s: not in the repository", hex);
	return 0;
}

/* The change from a to b (trees of t's repository, b's in memory) as git
 * show prints a commit's: its --stat, then the patch. */
static int landed_change(struct sm_trial *t, git_tree *a, git_tree *b, struct strbuf *stat,
			 struct strbuf *patch)
{
	git_diff *d = NULL;
	git_diff_options opts;
	int ret = 0;

	sm_diff_options_init(&opts);
	if (sm_diff_changed_files(&d, t->repo, a, b, &opts) < 0 || sm_diff_show(d, stat, patch) < 0)
		ret = sm_error("cannot diff the picked tree (%s)", sm_git_error());
	git_diff_free(d);
	return ret;
}

/* sm_trial_apply; with stat and patch not NULL, also the last one's
 * change as it landed (sm_trial_patch). */
static int apply(struct sm_trial *t, const git_oid *onto, const char *const *ids, size_t n,
		 size_t *failed, struct strlist *conflicts, struct strbuf *stat, struct strbuf *patch)
{
	git_commit *base = NULL;
	git_tree *cur = NULL;
	int ret = SM_PICK_CLEAN;

	t->unchanged = 0;
	strlist_clear(&t->moved_from);
	if (git_commit_lookup(&base, t->repo, onto) < 0 || git_commit_tree(&cur, base) < 0) {
		char hex[41];

		git_oid_tostr(hex, sizeof(hex), onto);
		git_commit_free(base);
		return sm_error("commit %.12s: cannot read its tree (%s)", hex, sm_git_error());
	}
	git_commit_free(base);
	for (size_t i = 0; i < n && ret == SM_PICK_CLEAN; i++) {
		git_commit *c = NULL;
		git_tree *next = NULL;
		git_oid tree;

		if (lookup(t->repo, ids[i], &c) < 0) {
			ret = -1;
			break;
		}
		/* the next one merges onto this result (or the last is
		 * compared with it): its tree, in memory */
		ret = sm_pick_merge(t->repo, c, cur, &tree, conflicts, &t->moved_from);
		if (ret == SM_PICK_CLEAN && git_tree_lookup(&next, t->repo, &tree) < 0)
			ret = sm_error("commit %.12s: cannot hold the picked tree (%s)", ids[i],
				       sm_git_error());
		if (ret == SM_PICK_CLEAN && i + 1 == n) {
			t->unchanged = sm_pick_changes_nothing(t->repo, c, cur, next);
			if (patch && landed_change(t, cur, next, stat, patch) < 0)
				ret = -1;
		}
		git_commit_free(c);
		if (ret == SM_PICK_CONFLICT && failed)
			*failed = i;
		if (ret != SM_PICK_CLEAN) {
			git_tree_free(next);
			break;
		}
		git_tree_free(cur);
		cur = next;
	}
	git_tree_free(cur);
	/* what the merges wrote is forgotten; the repository's own objects
	 * were never touched */
	git_mempack_reset(t->mem);
	return ret;
}

int sm_trial_apply(struct sm_trial *t, const git_oid *onto, const char *const *ids, size_t n,
		   size_t *failed, struct strlist *conflicts)
{
	return apply(t, onto, ids, n, failed, conflicts, NULL, NULL);
}

int sm_trial_patch(struct sm_trial *t, const git_oid *onto, const char *const *ids, size_t n,
		   struct strbuf *stat, struct strbuf *patch)
{
	return apply(t, onto, ids, n, NULL, NULL, stat, patch);
}

int sm_trial_applies(struct sm_trial *t, const git_oid *onto, const char *const *ids, size_t n,
		     struct strlist *conflicts)
{
	int r = sm_trial_apply(t, onto, ids, n, NULL, conflicts);

	sm_clear_error();
	return r == SM_PICK_CLEAN ? 1 : r == SM_PICK_CONFLICT ? 0 : -1;
}

void sm_trial_release(struct sm_trial *t)
{
	git_repository_free(t->repo);	/* frees its object store, and mem with it */
	strlist_clear(&t->moved_from);
	memset(t, 0, sizeof(*t));
}
