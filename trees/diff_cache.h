/* diff_cache: what a scan derives from a commit's diff (the diff statistics
 * and files sm_commit_parse_diff fills in, and the patch-id), kept on disk
 * so that a later scan builds no diff for a commit it has seen.
 *
 * A commit's id fixes its parent and both trees, so the facts filed under
 * it never go stale; the file is stamped with a format version and the
 * libgit2 version (its xdiff makes the text). One file per repository and
 * range start, <cache_dir>/diff-cache/<sha1>.facts, read whole at open; it
 * also holds the last range's commits in walk order (the range's two ids
 * fix them too), so that a rerun walks no history. A
 * missing, foreign, truncated or garbled file (a SHA-1 of the content
 * ends it) is ignored and rewritten; it is only a cache, safe to delete. */
#ifndef SM_TREES_DIFF_CACHE_H
#define SM_TREES_DIFF_CACHE_H
#include <stddef.h>
#include <git2.h>
#include "lib/strbuf.h"
#include "rules/commit.h"
#include "trees/strmap.h"
#include "trees/cache.h"

struct sm_diff_cache_entry;

struct sm_diff_cache {
	char *path;			/* NULL when the cache is off */
	char *key;			/* what the file is for: repository and range start */
	enum sm_cache_state state;	/* NEW, REBUILT, or read: HIT until a miss is added */
	struct strbuf text;		/* the file as read; file paths point into it */
	struct sm_diff_cache_entry *entries;
	size_t nr, alloc;
	struct sm_diff_file *files;	/* the entries' files, paths borrowed from text */
	size_t nr_files, alloc_files;
	struct strmap by_id;		/* commit id -> entries[] */
	size_t hits, misses;		/* counted by sm_diff_cache_note */
	char walk_to[41];		/* the file's range end, "" if none */
	size_t walk_nr;			/* its commits: the first entries */
	struct strbuf out;		/* the new entries, built by sm_diff_cache_add */
	size_t nr_out;
	char new_walk_to[41];		/* sm_diff_cache_set_walk */
	size_t new_walk_nr;
};

/* Opens the cache of repo_path's commits from the range start `from` (hex)
 * in cache_dir (NULL: sm_default_cache_dir(); "": off, every look-up
 * misses). Never fails: an unreadable or bad file is a cold cache. */
void sm_diff_cache_open(struct sm_diff_cache *dc, const char *cache_dir, const char *repo_path,
			const char *from);
/* Fills c's diff facts (c was parsed without its diff) and patch_id from
 * the entry for commit id (40 hex). Returns 1, or 0 when not cached (c
 * and patch_id untouched). Read-only: any thread may call it. */
int sm_diff_cache_get(const struct sm_diff_cache *dc, const char *id, struct sm_commit *c,
		      char patch_id[41]);
/* Counts id as a hit or a miss (hits, misses; a miss makes a HIT state
 * INCREMENTAL). Returns 1 for a hit. */
int sm_diff_cache_note(struct sm_diff_cache *dc, const char *id);
/* Adds the facts of commit id (c loaded with its diff, patch_id "" for
 * none; c NULL: no facts, the commit is only listed for the walk, as a
 * merge is) to the file sm_diff_cache_write writes. */
void sm_diff_cache_add(struct sm_diff_cache *dc, const char *id, const struct sm_commit *c,
		       const char *patch_id);
/* The commits of the range from the cache's start to `to` (40 hex) in the
 * scan's walk order, when the file holds that walk: *ids (caller frees)
 * and *nr, and 1; else 0. */
int sm_diff_cache_walk(const struct sm_diff_cache *dc, const char *to, git_oid **ids,
		       size_t *nr);
/* The walk to `to` is the first nr commits sm_diff_cache_add added. */
void sm_diff_cache_set_walk(struct sm_diff_cache *dc, const char *to, size_t nr);
/* Writes the added entries, then the entries read and not added again,
 * atomically. A failure is a warning (sm_warn), not an error. */
void sm_diff_cache_write(struct sm_diff_cache *dc);
void sm_diff_cache_release(struct sm_diff_cache *dc);

#endif
