/* ancestry: whether one commit descends from another, kept between runs.
 * The answer follows from the two ids alone (commits never change), yet
 * git_graph_descendant_of may walk a whole stable branch for it (a tree's
 * tip against its release tag, on every scan). */
#ifndef SM_TREES_ANCESTRY_H
#define SM_TREES_ANCESTRY_H
#include <git2.h>

/* git_graph_descendant_of(repo, commit, ancestor), its answers kept in
 * cache_dir/ancestry/ (NULL: sm_default_cache_dir(); "": off), the last
 * 256 per repository. 1 or 0; a failed look-up is 0 and not kept. A
 * damaged file is ignored and rewritten; one that cannot be written is a
 * warning. */
int sm_descendant_of_cached(git_repository *repo, const git_oid *commit,
			    const git_oid *ancestor, const char *cache_dir);

#endif
