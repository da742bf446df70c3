/* patch_apply: does a patch that is in no repository (a mail from the
 * list, `git format-patch` output) apply to a tree, as `git apply --check`
 * says, and if not, is it in the tree already, as `git apply -R --check`
 * says? libgit2 parses the patch (git's format: "diff --git" headers) and
 * applies it in memory, exactly (no fuzz, no three-way merge); it applies
 * forward only, so the reverse is the patch with its two sides swapped.
 * Nothing is written to the repository. */
#ifndef SM_TREES_PATCH_APPLY_H
#define SM_TREES_PATCH_APPLY_H
#include <git2.h>
#include <stddef.h>

enum sm_patch_fit {
	SM_PATCH_UNKNOWN = -1,	/* no patch libgit2 reads (no diff, a plain diff -u) */
	SM_PATCH_CONFLICTS = 0,	/* it does not apply, nor its reverse */
	SM_PATCH_APPLIES = 1,	/* it applies */
	SM_PATCH_APPLIED = 2,	/* only its reverse applies: the tree has it */
};

/* How the patch in text[0..len) (a whole mail or commit: the diff is found
 * in it, from its first "diff --git " line) fits tree, a tree of repo. */
enum sm_patch_fit sm_patch_fit(git_repository *repo, git_tree *tree, const char *text, size_t len);

/* The patch diff[0..len) with its sides swapped, appended to out: "---" and
 * "+++" names, "-" and "+" lines, hunk ranges, index ids, new and deleted
 * files, modes and renames. What `git apply -R` applies. */
struct strbuf;
void sm_patch_reverse(const char *diff, size_t len, struct strbuf *out);

#endif
