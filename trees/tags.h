/* tags: the release tag graph of a repository (v4.1, v4.4, ... final
 * releases; -rc tags are ignored), read through libgit2 once. */
#ifndef SM_TREES_TAGS_H
#define SM_TREES_TAGS_H
#include <git2.h>
#include "rules/version.h"

struct sm_oid_release;

struct sm_release {
	char *name;		/* "v4.4" */
	struct sm_version version;
	git_oid commit;
};

struct sm_release_tags {
	struct sm_release *tags;	/* oldest version first */
	size_t nr, alloc;
	/* commit -> index of its first release, built on first use by one walk
	 * over the history of all release tags (tag k minus tags 0..k-1). */
	struct sm_oid_release *map;
	size_t map_size, map_nr;
	int map_built;
	int map_used;			/* looked up in (sm_first_release, _resolve) */
	git_oid *sorted;		/* the map's commits, sorted, for prefixes */
	/* sm_release_tags_cache: where the map is kept between runs, and how
	 * it was got (sm_cache_state_name; SM_CACHE_OFF, 0: no cache). */
	char *map_cache_path;
	int map_cache_state;
};

/* Reads refs/tags/v* release tags. Returns 0 or -1 (sm_error). */
int sm_release_tags_load(struct sm_release_tags *t, git_repository *repo);
void sm_release_tags_release(struct sm_release_tags *t);
/* Keeps the first-release map of sm_first_release in cache_dir (NULL: the
 * default, "": off) between runs, under the repository and the exact set
 * of release tags (a new or moved tag makes a new map): a run whose tags
 * did not change walks no history for it. A damaged or foreign file is
 * ignored and rewritten; a file that cannot be written is a warning. */
void sm_release_tags_cache(struct sm_release_tags *t, git_repository *repo,
			   const char *cache_dir);
/* Builds the map of sm_first_release now (read from the cache, or one
 * walk) with repo, which may be another handle on the same repository:
 * a scan builds it on its loader thread. The map does not count as used
 * (map_used) until a look-up. Not to be called while another thread
 * looks up in t. */
void sm_release_tags_prepare(struct sm_release_tags *t, git_repository *repo);
/* The earliest release containing commit, or NULL when none does. The
 * first call walks the history of every release tag once (commits of
 * tag k not reachable from an older tag belong to tag k); later calls are
 * hash lookups. */
const struct sm_release *sm_first_release(struct sm_release_tags *t,
					  git_repository *repo, const git_oid *commit);
/* Resolves an abbreviated commit id among the commits of the release tags
 * history (a sorted array: no object database look-up), falling back to
 * the repository for others. 0, or -1 when unknown or ambiguous. */
int sm_release_tags_resolve(struct sm_release_tags *t, git_repository *repo, const char *hex,
			    git_oid *out);
/* The tag of release v (major.minor), or NULL. */
const struct sm_release *sm_release_find(const struct sm_release_tags *t,
					 const struct sm_version *v);

#endif
