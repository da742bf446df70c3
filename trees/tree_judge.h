/* tree_judge: what one stable tree and the mainline tag graph know of a
 * commit, added as reasons to its verdict for that tree: already in the
 * tree, whether the tree has the bug its Fixes: tags name, a fix for a
 * fix the tree took, and the prerequisites its stable tags name. Shared
 * by scan (a mainline range) and classify --repo (one commit or mail,
 * which may not be in the repository at all). */
#ifndef SM_TREES_TREE_JUDGE_H
#define SM_TREES_TREE_JUDGE_H
#include <git2.h>
#include "lib/strlist.h"
#include "rules/classify.h"
#include "trees/tags.h"
#include "trees/tree_state.h"

/* A Fixes: target as the repository knows it. */
struct sm_fixes_target {
	git_oid id;
	char hex[41];
	const struct sm_release *first;	/* NULL: in no release */
};

/* Resolves the (abbreviated) id of a Fixes: tag among the release tags'
 * history, then the repository, and finds its first release. 0, or -1
 * when the repository lacks it or the prefix is ambiguous. */
int sm_fixes_target_resolve(struct sm_release_tags *tags, git_repository *repo,
			    const char *abbrev, struct sm_fixes_target *out);

/* The commit to judge: c parsed, id its commit id (NULL or "" for a mail
 * not in the repository), patch_id its `git patch-id --stable` (NULL or
 * "" when unknown), targets its resolved Fixes: targets (nr_targets of
 * them) and unresolved the number of Fixes: ids that did not resolve.
 * outside: c is in no repository the tree knows (a list mail, a local
 * commit), so a tree commit of the same subject is the patch even when it
 * names an upstream id (which c, unmerged, cannot have). */
struct sm_tree_judge_input {
	const struct sm_commit *c;
	const char *id;
	const char *patch_id;
	const struct sm_fixes_target *const *targets;
	size_t nr_targets;
	size_t unresolved;
	int outside;
};

/* Adds tree t's reasons for in to v: "present" (a veto; *present_as, when
 * not NULL, gets the tree's commit id, to free), "fix-for-fix",
 * "bug-in-tree" or "bug-not-in-tree" (a veto; only when every Fixes: id
 * resolved; without the tree's release tag on its branch, t->has_base 0,
 * from its index of the whole branch instead of the releases), "prereq"
 * or "prereq-present" (each prerequisite said once; those the tree lacks,
 * or took and reverted, appended to deps: full ids where the repository
 * has them, else as written). The caller runs
 * sm_verdict_finish after. tags and repo: the mainline tag graph, for
 * prerequisite ids. */
void sm_tree_judge(const struct sm_rules *r, struct sm_tree_state *t,
		   struct sm_release_tags *tags, git_repository *repo,
		   const struct sm_tree_judge_input *in, struct sm_verdict *v,
		   char **present_as, struct strlist *deps);
#endif
