/* repo_judge: a commit or mail that need not be in any repository (a
 * patch from the list, `git show` output) judged against a mainline
 * repository's release tags and, for a stable tree, the tree's branch in
 * it, as scan judges the commits of a range (trees/tree_judge.h):
 * classify --repo. */
#ifndef SM_TREES_REPO_JUDGE_H
#define SM_TREES_REPO_JUDGE_H
#include <git2.h>
#include "trees/tags.h"
#include "trees/tree_judge.h"
#include "trees/tree_files.h"
#include "trees/patch_apply.h"

struct sm_progress;

struct sm_repo_judge {
	git_repository *repo;
	struct sm_release_tags tags;
	struct sm_tree_spec spec;	/* the tree's; its strings borrowed */
	struct sm_tree_state tree;
	int has_tree;
	/* the tree's files against mainline's (sm_mainline_ref), for the
	 * veto file-not-in-tree; has_files 0 when no mainline resolved */
	struct sm_tree_files files;
	int has_files;
	/* in_order (set by the caller): sm_repo_judge_apply tries each patch
	 * onto the tree the ones before it made (series, opened on the
	 * first) */
	int in_order;
	struct sm_patch_series series;
	int series_open;
};

/* One Fixes: tag of the commit, as the repository knows it. */
struct sm_repo_fixes {
	const char *written;		/* the id as the tag writes it (borrowed),
					 * NULL when the tag names none */
	int resolved;			/* 0: the repository lacks it */
	struct sm_fixes_target target;	/* when resolved */
};

/* Opens the repository at path and reads its release tags; with spec
 * (NULL: no tree), opens the tree's branch in it and indexes it (cached
 * in cache_dir as scan's index is; progress may be NULL). 0 or -1
 * (sm_error names the repository or the branch). */
int sm_repo_judge_open(struct sm_repo_judge *j, const char *path, const struct sm_tree_spec *spec,
		       const char *cache_dir, struct sm_progress *progress);
/* Adds the tree's reasons to v, which sm_classify made for c and the
 * tree, and finishes it again (sm_verdict_finish); without a tree, v is
 * left as it is. patch_id: c's
 * `git patch-id --stable`, NULL or "" when unknown. *fixes gets one entry
 * for each Fixes: tag of c, in order (c->nr_fixes of them; free() the
 * array). */
void sm_repo_judge_commit(struct sm_repo_judge *j, const struct sm_rules *r,
			  const struct sm_commit *c, const char *patch_id, struct sm_verdict *v,
			  struct sm_repo_fixes **fixes);
/* With a tree: how the patch in text[0..len) (a mail or a commit, decoded)
 * fits the tree's tip, or with in_order the tree the patches before it
 * made (trees/patch_apply.h; info filled in, for the caller to
 * sm_patch_fit_info_release). When the tree has it already (only its
 * reverse applies, or the three-way merge changes nothing), v gets the
 * veto "present" and is finished again (not when patches before it went
 * in: they may be what has it). SM_PATCH_UNKNOWN without a tree or a
 * patch in git's format. */
enum sm_patch_fit sm_repo_judge_apply(struct sm_repo_judge *j, const struct sm_rules *r,
				      const char *text, size_t len, struct sm_verdict *v,
				      struct sm_patch_fit_info *info);
/* With a tree: the patches texts[0..n) (lens[i] bytes each) tried in that
 * order onto the tree's tip as one series, each onto the tree the ones
 * before it made (sm_patch_series); fits[i] and infos[i] (for the caller
 * to sm_patch_fit_info_release) say how each went. The trees it makes
 * are dropped when it returns, whatever in_order says. Without a tree
 * (or when the tip cannot be read): SM_PATCH_UNKNOWN for each. */
void sm_repo_judge_series(struct sm_repo_judge *j, const char *const *texts, const size_t *lens,
			  size_t n, enum sm_patch_fit *fits, struct sm_patch_fit_info *infos);
/* What sm_repo_judge_apply adds to v for a patch it tried: the veto
 * "present" when the tree has it already, and none when patches before it
 * went in (info->after). For fits found by sm_repo_judge_series. */
void sm_repo_judge_present(struct sm_repo_judge *j, const struct sm_rules *r,
			   enum sm_patch_fit fit, const struct sm_patch_fit_info *info,
			   struct sm_verdict *v);
void sm_repo_judge_close(struct sm_repo_judge *j);
#endif
