/* patch_offset: a hunk where the tree has its lines. git apply finds a
 * hunk whose lines moved (the tree added or removed lines above it) by
 * looking for its context and removed lines near the line the hunk names,
 * and applies it there ("Hunk #1 succeeded at 692 (offset -11 lines)");
 * libgit2 applies a hunk at the line it names or not at all. So a patch
 * from the list would read as a conflict on most trees it fits. This
 * moves each hunk's header to the line where the tree's file has the
 * hunk's old lines, every one of them (no fuzz, as git apply without -C),
 * nearest to where the hunk says; libgit2 then applies it there, exactly. */
#ifndef SM_TREES_PATCH_OFFSET_H
#define SM_TREES_PATCH_OFFSET_H
#include <git2.h>
#include <stddef.h>

struct strbuf;

/* patch[0..len) (git's format) with each hunk header moved to where tree
 * has the hunk's old lines, appended to out; a hunk not found, of a file
 * tree lacks, or with no old lines to look for is left as it is. Returns
 * how many hunks moved. */
unsigned sm_patch_at_offsets(git_repository *repo, git_tree *tree, const char *patch, size_t len,
			     struct strbuf *out);

#endif
