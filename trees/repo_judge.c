/* repo_judge: classify --repo (see repo_judge.h). */
#include "trees/repo_judge.h"
#include "trees/repo.h"
#include "trees/mainline.h"
#include "lib/strlist.h"
#include "lib/util.h"
#include <string.h>

/* Mainline's files for the tree's veto file-not-in-tree: mainline's
 * branch as scan reads it past a range (trees/mainline.h). None found, or
 * the tree's own branch: nothing is vetoed for it. */
static void open_files(struct sm_repo_judge *j, const char *cache_dir)
{
	char *note = NULL, *ref = sm_mainline_ref(j->repo, NULL, NULL, cache_dir, &note);
	git_oid mainline;

	if (ref && sm_resolve_commit(j->repo, ref, &mainline) == 0) {
		sm_tree_files_init(&j->files, j->repo, &j->tree.tip, j->repo, &mainline);
		j->has_files = 1;
	}
	sm_clear_error();
	free(note);
	free(ref);
}

int sm_repo_judge_open(struct sm_repo_judge *j, const char *path, const struct sm_tree_spec *spec,
		       const char *cache_dir, struct sm_progress *progress)
{
	memset(j, 0, sizeof(*j));
	if (sm_repo_open(&j->repo, path) < 0)
		return -1;
	if (sm_release_tags_load(&j->tags, j->repo) < 0)
		goto fail;
	sm_release_tags_cache(&j->tags, j->repo, cache_dir);
	if (spec) {
		j->spec = *spec;
		j->spec.repo = NULL;	/* the branch is in this repository */
		if (sm_tree_state_open_progress(&j->tree, &j->spec, j->repo, path, cache_dir,
						progress) < 0)
			goto fail;
		j->has_tree = 1;
		open_files(j, cache_dir);
	}
	return 0;
fail:
	sm_release_tags_release(&j->tags);
	git_repository_free(j->repo);
	j->repo = NULL;
	return -1;
}

void sm_repo_judge_commit(struct sm_repo_judge *j, const struct sm_rules *r,
			  const struct sm_commit *c, const char *patch_id, struct sm_verdict *v,
			  struct sm_repo_fixes **fixes)
{
	struct sm_repo_fixes *f = xcalloc(c->nr_fixes + 1, sizeof(*f));
	const struct sm_fixes_target **tg = xcalloc(c->nr_fixes + 1, sizeof(*tg));
	struct sm_tree_judge_input in = { .c = c, .id = c->id, .patch_id = patch_id, .targets = tg };
	git_oid id;

	for (size_t k = 0; k < c->nr_fixes; k++) {
		f[k].written = c->fixes[k].sha;
		if (!f[k].written)
			continue;
		f[k].resolved = !sm_fixes_target_resolve(&j->tags, j->repo, f[k].written,
							 &f[k].target);
		if (f[k].resolved)
			tg[in.nr_targets++] = &f[k].target;
		else
			in.unresolved++;
	}
	/* A mail, or a commit of another repository: matched by its subject
	 * too, and by the upstream id a backport's message names. */
	if (!c->id || sm_resolve_hex(j->repo, c->id, &id) < 0) {
		in.outside = 1;
		in.id = c->upstream_sha;
	}
	sm_clear_error();	/* an unknown id is a fact of the verdict, not an error */
	if (j->has_tree) {
		struct strlist deps = STRLIST_INIT;	/* said in v's prereq reasons */

		sm_tree_judge(r, &j->tree, &j->tags, j->repo, &in, v, NULL, &deps);
		if (j->has_files)
			sm_tree_files_judge(&j->files, r, c, j->spec.name, v);
		sm_verdict_finish(r, v);
		strlist_clear(&deps);
	}
	free(tg);
	*fixes = f;
}

/* The tree against mainline, for a patch's file the tree keeps where
 * mainline moved it from (sm_patch_fit), or NULL */
static struct sm_tree_files *judge_gone(struct sm_repo_judge *j)
{
	return j->has_files ? &j->files : NULL;
}

enum sm_patch_fit sm_repo_judge_apply(struct sm_repo_judge *j, const struct sm_rules *r,
				      const char *text, size_t len, struct sm_verdict *v,
				      struct sm_patch_fit_info *info)
{
	git_commit *tip = NULL;
	git_tree *tree = NULL;
	enum sm_patch_fit fit = SM_PATCH_UNKNOWN;

	memset(info, 0, sizeof(*info));
	if (!j->has_tree)
		return fit;
	if (git_commit_lookup(&tip, j->tree.repo, &j->tree.tip) == 0 &&
	    git_commit_tree(&tree, tip) == 0) {
		/* the series starts at the tip with its first patch */
		if (j->in_order && !j->series_open)
			j->series_open = sm_patch_series_open(&j->series, j->tree.repo,
							      git_tree_id(tree), judge_gone(j)) == 0;
		if (!j->in_order)
			fit = sm_patch_fit(j->tree.repo, tree, text, len, judge_gone(j), info);
		else if (j->series_open)
			fit = sm_patch_series_next(&j->series, text, len, info);
	}
	sm_clear_error();
	git_tree_free(tree);
	git_commit_free(tip);
	sm_repo_judge_present(j, r, fit, info, v);
	return fit;
}

void sm_repo_judge_present(struct sm_repo_judge *j, const struct sm_rules *r,
			   enum sm_patch_fit fit, const struct sm_patch_fit_info *info,
			   struct sm_verdict *v)
{
	/* said once: a tree commit the index matched already says it */
	if (fit == SM_PATCH_APPLIED && !info->after && !sm_verdict_has(v, "present")) {
		sm_verdict_veto(v, "present", "the patch is in %s already: %s", j->spec.name,
				info->three_way ?
				"a three-way merge on its base changes nothing (git am -3)" :
				"only its reverse applies (git apply -R --check)");
		sm_verdict_finish(r, v);
	}
}

void sm_repo_judge_series(struct sm_repo_judge *j, const char *const *texts, const size_t *lens,
			  size_t n, enum sm_patch_fit *fits, struct sm_patch_fit_info *infos)
{
	struct sm_patch_series s;
	git_commit *tip = NULL;
	int open = 0;

	if (j->has_tree && git_commit_lookup(&tip, j->tree.repo, &j->tree.tip) == 0)
		open = sm_patch_series_open(&s, j->tree.repo, git_commit_tree_id(tip), judge_gone(j)) == 0;
	for (size_t i = 0; i < n; i++) {
		memset(&infos[i], 0, sizeof(infos[i]));
		fits[i] = open ? sm_patch_series_next(&s, texts[i], lens[i], &infos[i]) :
				 SM_PATCH_UNKNOWN;
	}
	if (open)
		sm_patch_series_release(&s);
	sm_clear_error();
	git_commit_free(tip);
}

void sm_repo_judge_close(struct sm_repo_judge *j)
{
	if (j->series_open)
		sm_patch_series_release(&j->series);
	if (j->has_files)
		sm_tree_files_release(&j->files);
	if (j->has_tree)
		sm_tree_state_close(&j->tree);
	sm_release_tags_release(&j->tags);
	git_repository_free(j->repo);
	memset(j, 0, sizeof(*j));
}
