/* backports: where an upstream fix went in other stable trees, whether
 * each backport differs from the upstream patch, and whether it applies
 * cleanly to my tree (a trial cherry-pick in memory). */
#ifndef SM_TREES_BACKPORTS_H
#define SM_TREES_BACKPORTS_H
#include <stddef.h>
#include <git2.h>
#include "trees/scan.h"
#include "trees/upstream_index.h"
#include "lib/strlist.h"

/* A commit the tree took as the backport's prerequisite: its
 * "Stable-dep-of:" names the fix (the stable scripts put it just before). */
struct sm_backport_prereq {
	char stable[41];
	char upstream[41];	/* the upstream id it names ("" when none) */
	char *subject;
	int mine_lacks;		/* with a tree of mine: it is not there */
};

struct sm_backport {
	const char *tree;	/* the spec's name */
	enum sm_match how;	/* SM_MATCH_NONE: not backported there */
	char stable[41];
	int differs;		/* patch-id differs from upstream's */
	unsigned lines_differ;	/* +/- lines in one patch and not the other */
	/* when it differs: the files only the backport changes, and only
	 * upstream's does (a file mainline moved: the tree's name, mainline's) */
	struct strlist files_here, files_upstream;
	int applies;		/* onto my tree: -1 not checked, 0 conflict, 1 clean */
	int change_there;	/* applies, and changes nothing in my tree (trees/pick.h) */
	/* when it conflicts: 1 when it applies after the prerequisites below
	 * that my tree lacks, 0 not even then, -1 not tried (none lacking) */
	int applies_after_prereqs;
	struct strlist conflicts;
	char reverted_by[41];	/* the tree's later revert of stable, "" when none */
	struct sm_backport_prereq *prereqs;	/* oldest first */
	size_t nr_prereqs;
};

struct sm_backports_result {
	char fix[41];
	char *subject;
	char patch_id[41];
	struct sm_backport *trees;
	size_t nr;
	const char *mine;	/* my tree's branch, or NULL */
	int mine_has;		/* the fix is already in my tree */
	char mine_as[41];
	char mine_reverted_by[41];	/* my tree's later revert of mine_as, "" when none */
	int upstream_applies;	/* the upstream commit itself onto my tree (-1 unchecked) */
	/* it applies and changes nothing there: my tree has its change
	 * under no id, patch-id or subject of it (trees/pick.h) */
	int upstream_changes_nothing;
};

/* All trees' branches are in repo. mine may be NULL. Returns 0 or -1. */
int sm_backports(git_repository *repo, const char *fix, const struct sm_tree_spec *trees,
		 size_t nr, const struct sm_tree_spec *mine, const char *cache_dir,
		 struct sm_backports_result *res);
void sm_backports_result_release(struct sm_backports_result *res);
/* res as one JSON object: fix, subject, patch_id, trees[] (tree, backported,
 * and when it was: stable, matched_by, differs, lines_differ,
 * files_only_backport[], files_only_upstream[]; then
 * applies_to_mine (null when not checked), applies_after_prerequisites (null
 * when not tried: it applies alone, or mine lacks none), conflicts[] and prerequisites[]
 * (stable, upstream, subject, mine_lacks: null without a tree of mine)), and
 * with a tree of mine, mine (tree, has_fix, as, upstream_applies). */
void sm_backports_result_json(const struct sm_backports_result *res, struct json_writer *w);

#endif
