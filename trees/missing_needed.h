/* missing_needed: of the commits one stable tree has and the other lacks
 * (trees/missing.h), those the other tree does not need at all, moved
 * from a side's only[] to its not_needed[] with the reason:
 *
 *   bug-not-in-tree   every Fixes: target of the commit came into mainline
 *                     after the two branches' merge base (its first release
 *                     is later than the base's; --since-release: than the
 *                     other branch's release) and the other branch has no
 *                     backport of it, nor does this side (a fix of a commit
 *                     this side took and the other lacks stays in only[],
 *                     marked with fix_of: the two go together);
 *   file-not-in-tree  the other branch has none of the files the commit
 *                     changes (trees/tree_files.h: files it creates do not
 *                     count, and a file the other tree may have under
 *                     another name does not count as absent).
 *
 * Comparing 6.6.y with 6.1.y, most of what 6.6.y has and 6.1.y lacks fixes
 * code 6.1 never had; comparing two 6.1.y trees, such a commit is a fix
 * of a backport the other tree did not take. An entry the other branch
 * took and reverted keeps its own story (revert) and is not judged. */
#ifndef SM_TREES_MISSING_NEEDED_H
#define SM_TREES_MISSING_NEEDED_H
#include <git2.h>
#include "trees/missing.h"
#include "trees/upstream_index.h"

/* Judges both sides of res (sm_missing's result, indexes ia for side a
 * and ib for side b, as it built them), with the release tags of the
 * repository (none: no Fixes: judgement). mainline_of_a, _b: the release
 * up to which branch a, b holds all of mainline (--since-release: its
 * own); NULL for the release that holds the merge base. Nothing certain,
 * nothing moved: a commit that cannot be read is not judged. */
struct sm_release_tags;
struct sm_release;
void sm_missing_judge_needed(git_repository *repo, struct sm_missing_result *res,
			     const struct sm_upstream_index *ia,
			     const struct sm_upstream_index *ib, struct sm_release_tags *tags,
			     const struct sm_release *mainline_of_a,
			     const struct sm_release *mainline_of_b);

#endif
