/* path_origin: where a file of a fix comes from when a tree lacks it under
 * the fix's name. Mainline moves files (a driver into its own directory, a
 * directory renamed) after a stable tree's release; the tree still has the
 * file under its old name, and a cherry-pick, which finds renames
 * (trees/pick.c), carries the fix there. That is no missing feature, and
 * deps must not say it is. Only a file that no commit moved from a name
 * the tree has is missing, and then the commit that added it is the
 * feature the tree lacks. */
#ifndef SM_TREES_PATH_ORIGIN_H
#define SM_TREES_PATH_ORIGIN_H
#include <git2.h>

struct sm_deps_history;

/* What a commit did to a path of its tree. */
enum sm_path_change {
	SM_PATH_KEPT = 0,	/* its first parent has the path already */
	SM_PATH_ADDED = 1,	/* it created the file */
	SM_PATH_MOVED = 2,	/* it moved the file there from another path */
};

/* What c (one parent) did to path, which c's tree has: SM_PATH_* or -1
 * (sm_error). SM_PATH_MOVED sets *from to the old path (caller frees);
 * renames are found as git's diff.renames finds them. */
int sm_path_change_in(git_repository *repo, git_commit *c, const char *path, char **from);

struct sm_path_origin {
	char *path;		/* the file as the fix names it */
	char *tree_path;	/* moved: the tree's name for it; NULL: the tree lacks it */
	/* The commit that moved it away from tree_path (the oldest move of
	 * a file moved more than once), or that added it; "" when neither
	 * was found (a merge made it, or history was cut short). */
	char by[41];
	char *subject;		/* by's subject; NULL when by is "" */
};

/* Where path, a file of fix that tip_tree lacks, comes from: the commits
 * of history (base..fix, as sm_deps_history_build walks it) older than
 * the fix are read newest first for the one that made the path, and a
 * move is followed to the older name, up to a few moves, until a name
 * tip_tree has or the commit that added the file. Returns 0 (out filled;
 * release it with sm_path_origin_release) or -1 (sm_error). */
int sm_path_origin_find(git_repository *repo, const struct sm_deps_history *history,
			git_commit *fix, git_tree *tip_tree, const char *path,
			struct sm_path_origin *out);
void sm_path_origin_release(struct sm_path_origin *o);

#endif
