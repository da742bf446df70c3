/* patchid: the id of a change independent of where it applies, computed
 * as `git patch-id --stable` does (so ids match git's own output). */
#ifndef SM_TREES_PATCHID_H
#define SM_TREES_PATCHID_H
#include <stddef.h>
#include <git2.h>

/* From unified diff text (a mail body or `git show` output; text before
 * the first "diff --git" is ignored). out gets 40 hex digits + NUL.
 * Returns 0, or -1 (sm_error) when the text holds no diff. */
int sm_patch_id_from_text(const char *diff, size_t len, char out[41]);
/* From a commit against its first parent. Returns 0 or -1 (sm_error). */
int sm_patch_id_commit(git_repository *repo, const git_oid *commit, char out[41]);

#endif
