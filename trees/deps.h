/* deps: the commits a fix needs before it applies to a tree. The lines the
 * fix changes are blamed (libgit2) in the fix's parent, back to the tree's
 * branch point; every commit found that the tree does not carry is a
 * dependency, oldest first. A dependency that created the file, or a file
 * the tree lacks altogether, is flagged: the fix then belongs to a feature
 * the tree does not have. Blame follows a file moved in mainline to the
 * name each dependency gave it, and a file the tree has under its old name
 * is not missing (trees/path_origin.h). The prerequisites the fix's stable
 * tags name for the tree ("# 6.1.x: <id>: subject") are dependencies too,
 * whether or not blame finds them. sm_deps_depth() follows dependencies of
 * dependencies (the same blame on each dependency's own changes), level by
 * level; sm_deps() is one level. */
#ifndef SM_TREES_DEPS_H
#define SM_TREES_DEPS_H
#include <stddef.h>
#include <git2.h>
#include "trees/scan.h"
#include "lib/strlist.h"
#include "trees/path_origin.h"

struct sm_dep {
	char id[41];
	char *subject;
	struct strlist paths;	/* files of the fix it last touched */
	unsigned lines;		/* lines of the fix's context it last touched */
	int new_file;		/* it created one of those files */
	int named;		/* the fix's stable tag names it as its prerequisite */
	long long time;		/* committer time, for the order */
	unsigned level;		/* 1: the fix needs it; 2: a level-1 dependency does; ... */
};

/* At most this many commits are blamed for one fix (a bound on the work in
 * a tree far behind; the result says when it was reached). */
#define SM_DEPS_MAX 64

/* What the search of trees/deps_search.h found. */
struct sm_deps_search {
	int tried;		/* 0: not searched (it applied, no bound, no branch
				 * point), or a commit of it could not be tried */
	size_t considered;	/* commits to the conflicting files the tree lacks, tried */
	int more;		/* the walk stopped at the bound: older ones not looked at */
	int applies;		/* 1: after the deps and extra[] (in commit order) it applies */
	struct sm_dep *extra;	/* the fewest found that make it apply; oldest first */
	size_t nr;
	/* applies: the ids to pick before the fix, the deps and extra[]
	 * together, in the order they were tried (commit order) */
	struct strlist order;
};

/* A commit named from outside the blame (the stable queue's FAILED notice
 * lists "possible dependencies"), as the tree sees it. */
enum sm_outside_state {
	SM_OUTSIDE_LISTED,	/* among deps[] already */
	SM_OUTSIDE_IN_TREE,	/* the tree carries it */
	SM_OUTSIDE_NEEDED,	/* the tree lacks it: tried in with deps[] */
	SM_OUTSIDE_UNKNOWN,	/* no commit of the repository */
	SM_OUTSIDE_FIX,		/* the fix itself (the script lists it too) */
	SM_OUTSIDE_MERGE,	/* a merge: nothing to pick */
};
struct sm_outside_dep {
	char *as_written;
	char id[41];		/* "" when unknown */
	enum sm_outside_state state;
	long long time;		/* committer time, for the trial's order; 0 when unknown */
};

struct sm_deps_result {
	char fix[41];
	char *subject;
	/* The tree has the fix already (not reverted): its commit there and
	 * how it was matched (sm_match_name); "" and NULL when not. Nothing
	 * else is then looked for: there is nothing to take. */
	char present_as[41];
	const char *present_how;
	char base[41];			/* blame stopped here */
	char base_name[64];		/* the tree's release tag ("v4.1"), else base */
	struct sm_dep *deps;		/* oldest first */
	size_t nr, alloc;
	struct strlist missing_files;	/* files of the fix the tree lacks */
	/* Each file of the fix the tree lacks under the fix's name: moved
	 * (tree_path: the tree has it under that name, not in
	 * missing_files) or not, with the commit that moved or added it
	 * (trees/path_origin.h). */
	struct sm_path_origin *origins;
	size_t nr_origins;
	struct strlist unknown_prereqs;	/* prerequisite ids of its tags the repository lacks */
	size_t already_in_tree;		/* commits found that the tree carries */
	unsigned level;			/* the deepest level looked at */
	int truncated;			/* stopped by the depth or SM_DEPS_MAX with more to follow */
	/* A trial cherry-pick onto the tree's tip, in memory (trees/trial.h):
	 * the fix alone, and after deps (oldest first; only when there are
	 * any). 1 clean, 0 conflicts (the paths in the strlist beside it),
	 * -1 not tried (a merge among them). */
	int applies_alone, applies_after;
	/* the fix alone applies and changes nothing: the tree has its
	 * change under no id, patch-id or subject of it (trees/pick.h) */
	int change_there;
	struct strlist conflicts_alone, conflicts_after;
	/* When the trial still conflicts: the search for what else it needs
	 * (sm_deps_depth's search_max; see sm_deps_search). */
	struct sm_deps_search search;
	/* sm_deps_depth's outside ids, each as the tree sees it, and a trial
	 * of the fix after deps[] and the NEEDED ones, in commit order: 1, 0
	 * (conflicts_with_outside), -1 not tried (none NEEDED). The question
	 * a FAILED notice asks: is its script's list what was missing? */
	struct sm_outside_dep *outside;
	size_t nr_outside;
	int applies_with_outside;
	struct strlist conflicts_with_outside;
};

/* tree's branch must be in repo. One level, and no trial (applies_alone
 * and applies_after are -1). Returns 0 or -1 (sm_error). */
int sm_deps(git_repository *repo, const char *fix, const struct sm_tree_spec *tree,
	    const char *cache_dir, struct sm_deps_result *res);
/* The same, following dependencies of dependencies up to max_depth levels
 * (0: until none is new, at most SM_DEPS_MAX commits), and with the trial.
 * When the fix still conflicts (after deps, or alone with none), the
 * search of trees/deps_search.h over up to search_max commits (0: none)
 * fills res->search. outside (may be NULL): commit ids, full or
 * abbreviated, named from elsewhere, settled into res->outside (not when
 * the tree carries the fix). */
int sm_deps_depth(git_repository *repo, const char *fix, const struct sm_tree_spec *tree,
		  const char *cache_dir, unsigned max_depth, unsigned search_max,
		  const struct strlist *outside, struct sm_deps_result *res);
void sm_deps_result_release(struct sm_deps_result *res);
/* res for the tree named tree as one JSON object: fix, subject, tree, base
 * (null when none), already_in_tree, levels, truncated, deps[] (id, subject,
 * lines, level, new_file, named_by_tag, paths[]), files_not_in_tree[],
 * feature_missing, files_origin[] (path, tree_path: null unless the tree
 * has it under that name, by and subject: the commit that moved or added
 * it, or null), prereqs_not_found[], applies_alone, applies_after_deps
 * (true, false or null: not tried), conflicts_alone[], conflicts_after_deps[],
 * search (null, or {applies, considered, more, extra[]: id, subject, paths[]}),
 * outside[] (id as named, commit: full id or null, state: "listed",
 * "in_tree", "needed", "unknown", "fix", "merge"), applies_with_outside
 * (null: not tried),
 * conflicts_with_outside[]. */
void sm_deps_result_json(const struct sm_deps_result *res, const char *tree,
			 struct json_writer *w);
/* The same members, into an object the caller opened (and closes). */
void sm_deps_result_json_members(const struct sm_deps_result *res, const char *tree,
				 struct json_writer *w);

#endif
