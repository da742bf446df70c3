/* rewrite: yank a commit out of a branch, or insert one in the middle,
 * by replaying the commits above it in memory. The branch moves only when
 * every commit replayed cleanly (ref update checked against the old tip);
 * its old tip is kept in refs/stablemate/backup/<branch>. A checked-out
 * branch is refused: its work tree would no longer match. */
#ifndef SM_TREES_REWRITE_H
#define SM_TREES_REWRITE_H
#include <git2.h>
#include "trees/pick.h"
#include "lib/strlist.h"

struct sm_rewrite_result {
	char old_tip[41], new_tip[41];
	char *backup_ref;		/* refs/stablemate/backup/<branch> */
	size_t replayed;		/* commits replayed above the change */
	/* On a conflict (SM_PICK_CONFLICT): the commit that did not replay. */
	char conflict_commit[41];
	char *conflict_subject;
	struct strlist conflict_paths;
	/* yank: the commits above the yanked one whose Fixes: name it (by
	 * its id or the upstream id it stands for), "<id> <subject>", oldest
	 * first: fixes of a change no longer on the branch */
	struct strlist fixed_by;
};

struct sm_insert_opts {
	const char *after;	/* a commit of the branch */
	const char *signoff;	/* "Name <email>"; NULL: repo identity */
	int stable_line;	/* add "commit <sha> upstream." and Signed-off-by */
};

/* Both return SM_PICK_CLEAN (trees/pick.h) when the branch was rewritten,
 * SM_PICK_CONFLICT on a conflict (branch untouched, res says where, sm_error
 * has the one-line message), -1 on another error (sm_error). Release res
 * with sm_rewrite_result_release. */
int sm_yank(git_repository *repo, const char *branch, const char *commit,
	    struct sm_rewrite_result *res);
int sm_insert(git_repository *repo, const char *branch, const char *commit,
	      const struct sm_insert_opts *o, struct sm_rewrite_result *res);
void sm_rewrite_result_release(struct sm_rewrite_result *res);
/* The outcome status (SM_PICK_CLEAN or SM_PICK_CONFLICT) of a yank or an
 * insert on branch, with its res, as one JSON object: branch, rewritten,
 * old_tip, then new_tip, backup, replayed when clean, else conflict
 * (commit, subject, paths[]). */
struct json_writer;
void sm_rewrite_result_json(const struct sm_rewrite_result *res, const char *branch,
			    int status, struct json_writer *w);

#endif
