/* afterlife: a scanned commit's life after it landed, added to scan's
 * verdicts: reverted or fixed later upstream (trees/lifecycle.h), soak
 * time (trees/soak.h), already queued (trees/queue.h), CVE (trees/cve.h),
 * what its review notes say for each tree (trees/tree_reviews.h).
 * scan.c calls it at three points: per commit, per tree before the verdict
 * is finished, and after (soak holds a candidate back as "maybe"). */
#ifndef SM_TREES_AFTERLIFE_H
#define SM_TREES_AFTERLIFE_H
#include "trees/scan.h"
#include "trees/lifecycle.h"
#include "trees/soak.h"
#include "trees/queue.h"
#include "trees/cve.h"
#include "trees/tags.h"
#include "gitnotes/notes.h"

struct sm_afterlife {
	const struct sm_scan_opts *o;
	git_repository *repo;
	struct sm_release_tags *tags;
	int have_life, have_queue, have_cve;
	struct sm_lifecycle life;
	struct sm_soak soak;
	struct sm_stable_queue queue;
	struct sm_cve_db cve;
	struct sm_notes_index notes;	/* the review notes, listed once */
};

/* The lifecycle index over from..upstream ref that the options ask for,
 * built apart from sm_afterlife_open so that scan can build it on its
 * loader thread: repo may be any handle on the scan's repository. */
struct sm_afterlife_life {
	int ret;		/* 1 built, 0 turned off (or handed over), -1 failed */
	struct sm_lifecycle lc;
	char *ref;		/* the upstream ref */
	char *note;		/* a note on the default's choice, or NULL */
	char *error;		/* ret -1: the error line (sm_error is per thread) */
};
/* known: the walk of the range (may be NULL), reused when the upstream
 * ref is the range's end (trees/branch_cache.h). */
void sm_afterlife_life_build(struct sm_afterlife_life *l, const struct sm_scan_opts *o,
			     git_repository *repo, const git_oid *from,
			     const struct sm_known_walk *known);
void sm_afterlife_life_release(struct sm_afterlife_life *l);

/* Reads what the options ask for: the -rc tags, the queue and the CVE
 * records, and takes over life (its index, or its error; life is released
 * either way). Fills out's summary fields. 0 or -1 (sm_error). */
int sm_afterlife_open(struct sm_afterlife *a, const struct sm_scan_opts *o, git_repository *repo,
		      struct sm_release_tags *tags, struct sm_afterlife_life *life,
		      struct sm_scan_result *out);
void sm_afterlife_close(struct sm_afterlife *a);
/* After the tree-less classification of it: its reverts, later fixes,
 * CVE and soak, added to it->verdict (finished again). */
void sm_afterlife_item(struct sm_afterlife *a, struct sm_scan_item *it);
/* For tree ti (t, its state) before its verdict is finished. */
struct sm_tree_state;
void sm_afterlife_tree(struct sm_afterlife *a, struct sm_scan_item *it, size_t ti,
		       struct sm_tree_state *t);
/* After a verdict is finished: a candidate still soaking becomes maybe
 * (v is it->verdict when ti is (size_t)-1). */
void sm_afterlife_hold(struct sm_afterlife *a, const struct sm_scan_item *it, size_t ti,
		       struct sm_verdict *v);
/* Frees the item's and tree results' lifecycle fields. */
void sm_afterlife_item_release(struct sm_scan_item *it, size_t nr_trees);

#endif
