/* steal: a new branch made of a range's candidates for a tree, each
 * cherry-picked (in memory) in upstream order onto the tree's tip with the
 * stable-style "commit <sha> upstream." line and a Signed-off-by. Each
 * candidate's later upstream fixes the tree lacks (scan's take_with) are
 * picked right after it, in upstream order, and the prerequisites its
 * stable tags name that the tree lacks (scan's deps) right before it. */
#ifndef SM_TREES_STEAL_H
#define SM_TREES_STEAL_H
#include <stddef.h>
#include "trees/scan.h"

struct sm_steal_opts {
	const char *repo;		/* holds the upstream range and the tree */
	const char *range;		/* "v4.4..v4.5" */
	struct sm_tree_spec onto;	/* the tree (its repo is ignored: repo) */
	const char *branch;		/* the new branch; must not exist */
	const char *signoff;		/* "Name <email>"; NULL: repo's user.name/email */
	int include_maybe;		/* pick "maybe" verdicts too */
	const struct sm_rules *rules;
	const char *cache_dir;		/* as sm_scan_opts.cache_dir */
	/* As the sm_scan_opts fields of the same names: */
	const char *upstream_ref;
	int min_soak_days;
	const char *queue_dir;
	const char *notes_ref;		/* review notes (trees/scan.h's notes_ref) */
	/* Other stable trees (in repo): when a candidate does not apply, the
	 * first of these whose backport of it (by the upstream id its
	 * message names) applies is picked instead, as a maintainer takes
	 * 6.6's backport for 6.1. */
	const struct sm_tree_spec *backports_from;
	size_t nr_backports_from;
	/* A candidate that conflicts on the tree (after its prerequisites):
	 * the search of scan --search, up to this many commits (0: none);
	 * what it finds is picked before the candidate. */
	unsigned search;
};

struct sm_steal_entry {
	char upstream[41];
	char stable[41];	/* the new commit; "" when left out */
	char *subject;
	char *reason;		/* why it was left out; NULL when picked */
	char *with;		/* a later fix: the candidate it goes with, else NULL */
	char *prereq_of;	/* a prerequisite its stable tag names: that candidate */
	char *needed_by;	/* found by the search (search): the candidate it makes apply */
	/* picked from another tree: its backport there and the tree; NULL
	 * when the upstream commit itself was picked */
	char *backport, *backport_tree;
};

struct sm_steal_result {
	char base[41];		/* the tree tip the branch starts from */
	char tip[41];		/* the new branch's tip */
	char *refname;		/* refs/heads/<branch> */
	struct sm_steal_entry *entries;	/* picked and left out, upstream order */
	size_t nr, alloc;
	size_t nr_picked, nr_scanned;
};

/* Returns 0 (branch created, even with nothing picked) or -1 (sm_error;
 * no branch created). */
int sm_steal(const struct sm_steal_opts *o, struct sm_steal_result *res);
void sm_steal_result_release(struct sm_steal_result *res);
/* res as one JSON object: branch, base, tip, scanned, picked, commits[]
 * (upstream, subject, stable and left_out (one of them null), with,
 * prereq_of, backport and backport_tree). */
void sm_steal_result_json(const struct sm_steal_result *res, struct json_writer *w);

#endif
