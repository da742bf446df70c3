/* repo: the libgit2 plumbing every trees/ command shares: opening a
 * repository (refusing shallow clones), resolving revisions, loading a
 * commit into an sm_commit with its diff, and libgit2's error text. */
#ifndef SM_TREES_REPO_H
#define SM_TREES_REPO_H
#include "lib/git.h"
#include <git2/sys/hashsig.h>
#include "lib/strbuf.h"
#include "rules/commit.h"

/* Opens the repository at or above path (a work tree, a .git or bare
 * directory, or a directory in one), as git -C path finds it; NULL or ".":
 * the one git would use here (GIT_DIR if set, else found upward from the
 * current directory). A shallow repository is refused: the tag graph and
 * the index need the whole history.
 * Returns 0 or -1 (sm_error names path). Free with git_repository_free. */
int sm_repo_open(git_repository **out, const char *path);
/* Resolves spec (a branch, tag, "origin/x", sha, "HEAD~2") to a commit.
 * Returns 0 or -1 with "spec: unknown revision in <repo>". */
int sm_resolve_commit(git_repository *repo, const char *spec, git_oid *out);
/* Resolves a range "A..B" into its two ends, each as sm_resolve_commit
 * does; an empty side is HEAD, as git reads it ("v6.7.." is v6.7..HEAD).
 * Returns 0, or -1 with "RANGE: not a range of the form A..B" (no "..",
 * "A...B", "..") or "range RANGE: " and the end that did not resolve. */
int sm_resolve_range(git_repository *repo, const char *range, git_oid *from, git_oid *to);
/* B of "A..B" as written, "HEAD" when it is empty, range itself when it is
 * no range: the name its end goes by in messages. */
const char *sm_range_end(const char *range);
/* Is from..to written the wrong way round: two different commits, to an
 * ancestor of from (so the range is empty, where to..from is not)? */
int sm_range_reversed(git_repository *repo, const git_oid *from, const git_oid *to);
/* What to say of such a range "A..B": appends "B is an ancestor of A (a
 * range is OLDER..NEWER)" to out, an empty side named HEAD. */
void sm_range_reversed_text(const char *range, struct strbuf *out);
/* Resolves a stable branch's name as sm_resolve_commit does, and failing
 * that as the remote-tracking branch of that name when exactly one remote
 * has it, as `git checkout NAME` picks it: in a fresh clone of
 * linux-stable, linux-6.1.y is origin/linux-6.1.y. A version alone ("6.1")
 * that names nothing is the branch linux-6.1.y, as kernel.org names them.
 * The name that resolved goes to ref (size bytes). Returns 0 or -1 (sm_error names the branch,
 * and the remotes when several have it). */
int sm_resolve_branch(git_repository *repo, const char *name, git_oid *out, char *ref,
		      size_t size);
/* A ref the user named (--upstream-ref master, the bot's upstream.branch)
 * as sm_resolve_branch resolves it ("origin/master" where only origin has
 * a master: git init, then fetch), else name itself, whose error comes
 * where it is used. Caller frees. */
char *sm_resolve_ref_name(git_repository *repo, const char *name);
/* The names of repo's remotes, each once, in the config's order, appended
 * to out. Read in one plain pass over the config (see each_remote in
 * repo.c: libgit2 1.5's git_remote_list leaks under ASan). */
struct strlist;
void sm_remote_names(git_repository *repo, struct strlist *out);
/* When name is a kernel version alone ("6.1", not "v6.1" or "6.1.90"),
 * kernel.org's branch of it ("linux-6.1.y") into out (size bytes) and 1;
 * else 0. */
int sm_version_branch(const char *name, char *out, size_t size);
/* Is there a file (a blob) at path in tree? 1, its id into *blob when
 * blob is not NULL; 0 when there is none (nothing said). */
int sm_tree_blob_at(git_tree *tree, const char *path, git_oid *blob);
/* The similarity signature of blob id (libgit2's, as rename detection
 * uses it: git_hashsig_compare of two gives 0..100), or NULL when it
 * cannot be read or is too small to compare (nothing said). Free with
 * git_hashsig_free. */
git_hashsig *sm_blob_signature(git_repository *repo, const git_oid *id);
/* The size of blob id in repo, or 0 when unknown (nothing said). The
 * object's header only: the content is not read. */
size_t sm_blob_size(git_repository *repo, const git_oid *id);
/* Can files of sizes a and b (0: unknown) be half alike, as git calls a
 * rename? Not when one is under a third of the other: libgit2's
 * similarity is about 2 * shared / (a + b). This spares reading and
 * hashing most files a search by likeness meets. */
static inline int sm_sizes_may_be_alike(size_t a, size_t b)
{
	return !a || !b || (a <= 3 * b && b <= 3 * a);
}
/* Resolves an abbreviated or full hex id to a commit id; 0 or -1 (quiet:
 * no sm_error, this is used for ids found in messages). */
int sm_resolve_hex(git_repository *repo, const char *hex, git_oid *out);
/* The patch of c against its first parent (the empty tree for a root
 * commit) in git's patch format, appended to out. Returns 0 or -1. */
int sm_commit_diff_text(git_repository *repo, git_commit *c, struct strbuf *out);
/* Finds renames in diff as git's diff.renames does (trees/commitdiff.c):
 * files moved unchanged, however many, then those at least 50% alike
 * within libgit2's limit. Returns 0 or a libgit2 error. */
int sm_diff_find_renames(git_diff *diff);
/* The trees a run of diffs looked up last, kept for the next diffs on the
 * same repository handle (and thread): a commit's old trees are mostly
 * trees a commit just before it brought in, and libgit2's object cache
 * (lib/git.c: bounded, evicted at random, for the commits) loses many of
 * them. Zeroed is empty; free with sm_tree_keep_release. */
#define SM_TREE_KEEP 256
struct sm_tree_keep {
	git_tree *tree[SM_TREE_KEEP];
	git_oid id[SM_TREE_KEEP];	/* tree[i]'s id, compared inline */
	size_t next;		/* the slot to fill next (the oldest) */
	/* The commit diffed last and its tree: the next commit is most
	 * often its child, whose old tree it is (no parent to read). */
	git_oid last_commit, last_tree;
	int has_last;
};
void sm_tree_keep_release(struct sm_tree_keep *k);
/* sm_commit_diff_text with the trees of keep (NULL: none). */
int sm_commit_diff_text_keep(git_repository *repo, git_commit *c, struct sm_tree_keep *keep,
			     struct strbuf *out);
/* Parses c's message (and diff when with_diff) into out; out->id is the
 * full id, is_merge is set for more than one parent. When patch_id is not
 * NULL and the commit has a diff, it gets the patch-id ("" otherwise).
 * Returns 0 or -1 (sm_error). Release out with sm_commit_release. */
int sm_commit_load(git_repository *repo, git_commit *c, int with_diff,
		   struct sm_commit *out, char patch_id[41]);
/* The diff part of sm_commit_load alone: the diff statistics of c against
 * its first parent added to out (parsed without its diff), and the
 * patch-id when patch_id is not NULL ("" for an empty diff). Returns 0 or
 * -1 (sm_error); out is left for the caller to release either way. */
int sm_commit_load_diff(git_repository *repo, git_commit *c, struct sm_commit *out,
			char patch_id[41]);
/* sm_commit_load_diff with the trees of keep (NULL: none). */
int sm_commit_load_diff_keep(git_repository *repo, git_commit *c, struct sm_tree_keep *keep,
			     struct sm_commit *out, char patch_id[41]);
/* "Name <email>" of a signature, caller frees. */
char *sm_signature_str(const git_signature *sig);
/* "Name <email>" of one of c's identities, the name in UTF-8
 * (sm_commit_utf8). Caller frees. */
char *sm_commit_ident_str(const git_commit *c, const git_signature *sig);
/* The repository's path for messages (work dir, else the git dir). */
const char *sm_repo_name(git_repository *repo);

#endif
