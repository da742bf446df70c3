/* scan: every commit of a mainline range, classified for each stable tree. */
#ifndef SM_TREES_SCAN_H
#define SM_TREES_SCAN_H
#include <stddef.h>
#include "rules/classify.h"
#include "lib/strlist.h"
#include "lib/json.h"
#include "lib/strbuf.h"

struct sm_progress;
struct sm_note;
struct sm_review;

struct sm_tree_spec {
	const char *name;		/* "linux-6.1.y" */
	const char *repo;		/* path of the repository holding the branch */
	const char *branch;		/* "linux-6.1.y", "refs/heads/linux-6.1.y", "origin/..." */
	struct sm_version version;	/* 6.1 */
};

struct sm_scan_tree_result {
	struct sm_verdict verdict;	/* classifier verdict for this tree + tree reasons */
	int present;			/* already in the tree (upstream id or patch-id) */
	char *present_as;		/* the stable commit id when present */
	int applies;			/* -1 not checked, 0 conflicts, 1 applies cleanly */
	/* When it conflicts and deps is not empty: 1 when it applies cleanly
	 * once deps are applied first, in order; 0 when not even then; -1
	 * not tried (or a dependency not in the repository). */
	int applies_after_deps;
	/* When it conflicts (and not after deps): the first other scanned
	 * tree's backport of it (a commit naming it as its upstream) that
	 * applies cleanly, and that tree's name (opts->trees' own); NULL when
	 * none. backport_prereqs: that tree's commits applied before it, the
	 * prerequisites it took for the backport (Stable-dep-of:) which this
	 * tree lacks, oldest first. */
	char *backport_applies;
	const char *backport_tree;
	struct strlist backport_prereqs;
	struct strlist deps;		/* upstream ids to apply first: the prerequisites its
					 * stable tags name that the tree lacks */
	/* --search: when it still conflicts (alone, after deps, and no other
	 * tree's backport applies), the search of trees/deps.h for the
	 * commits to the files in conflict that the tree lacks: -1 not
	 * searched, 0 none of search_considered helped (none: the conflict
	 * is with the tree's own changes), 1 it applies after deps and
	 * search_extra (upstream ids, oldest first), in commit order. */
	int search;
	size_t search_considered;
	struct strlist search_extra;
	struct strlist search_order;	/* deps and search_extra, in the order to pick them */
	/* opts->tree_patches: when it applies (alone, after deps, after what
	 * the search found, or as another tree's backport), its change as
	 * it lands on the tree (sm_trial_patch) and that change's --stat;
	 * NULL otherwise. */
	char *patch, *patch_stat;
	/* Set by trees/afterlife.h: */
	struct strlist take_with;	/* later upstream fixes of it the tree lacks, oldest first */
	char *queued;			/* the stable-queue patch it is queued as, or NULL */
	/* From the item's review note (trees/tree_reviews.h), NULL when none:
	 * the NAK that stands for the tree's version (a veto), and the
	 * stable queue's latest notice for it. */
	const struct sm_review *nak, *queue_notice;
};

/* A later upstream commit whose stable tag names a scanned commit as its
 * prerequisite ("Cc: stable@vger.kernel.org # 6.1.x: <id>: subject"). */
struct sm_scan_needer {
	char id[41];
	char *subject;
	struct sm_commit msg;	/* its message parsed: the tags and their trees */
};

struct sm_scan_item {
	char id[41];			/* upstream commit */
	struct sm_commit commit;	/* parsed message + diffstat */
	struct sm_verdict verdict;	/* for no particular tree */
	struct sm_verdict model;	/* the model's reasons, the same for every tree:
					 * made while loading, freed once judged */
	char *fixes_first_release;	/* first tag containing the Fixes: target, or NULL */
	struct sm_scan_tree_result *trees;	/* opts->nr_trees entries */
	char patch_id[41];		/* "" for merges and empty commits */
	char *fixes_target;		/* full id of the Fixes: target that decided, or NULL */
	/* Set by trees/afterlife.h: */
	long long committed;		/* committer time, seconds since the epoch */
	char *reverted_by;		/* the upstream commit reverting it for good, or NULL */
	struct strlist later_fixes;	/* later upstream commits fixing it, recursively */
	struct sm_scan_needer *needed_by;	/* oldest first */
	size_t nr_needed_by;
	char *cve;			/* the CVE it is the fix of, or NULL */
	char *soak_wait;		/* the soak time it waits for, or NULL */
	int soak_tag;			/* stable tag setting that wait; -1: minimum soak */
	struct sm_note *review_note;	/* its review note (opts->notes_ref), or NULL */
};

struct sm_scan_opts {
	const char *upstream;		/* repository path */
	const char *range;		/* "v6.6..v6.7" (revspec); merges are classified as such */
	const struct sm_tree_spec *trees;
	size_t nr_trees;
	const struct sm_rules *rules;
	int check_applies;		/* try each candidate against each tree (slower) */
	unsigned search;		/* with check_applies: search up to this many commits
					 * for a candidate that still conflicts (0: none) */
	int tree_patches;		/* with check_applies: keep each flagged commit's
					 * change as it lands on each tree (the bot's
					 * patch mails) */
	const char *cache_dir;		/* upstream-index cache; NULL: $XDG_CACHE_HOME/stablemate */
	/* For trees/afterlife.h: */
	const char *upstream_ref;	/* read past the range up to here; NULL: HEAD's branch, "": off */
	int min_soak_days;		/* hold back commits younger than this in mainline */
	long long now;			/* the time soak is measured at; 0: now */
	const char *queue_dir;		/* stable-queue checkout, or NULL */
	const char *cve_dir;		/* kernel CVE records, or NULL */
	/* The review notes harvest writes (gitnotes/notes.h), in the upstream
	 * repository: a NAK given for a tree's version vetoes the commit
	 * there, the stable queue's notices are reasons. NULL: the default
	 * ref (nothing when it does not exist); "": none read. */
	const char *notes_ref;
	/* Added by the progress work: a meter (lib/progress.h) the scan counts
	 * its index builds and commits on, or NULL. */
	struct sm_progress *progress;
	/* The caller reads no commit's body from the result (scan's reports
	 * and steal print subjects only; the bot's mails quote bodies): each
	 * is freed once its commit is judged, about a quarter of what a judged
	 * commit kept (commit.body NULL then). */
	int forget_bodies;
};

/* What scan found about a tree's branch itself, for the reader. */
struct sm_scan_tree_info {
	/* The branch read: the name given, or what it resolved to
	 * (origin/linux-6.1.y in a fresh clone, linux-6.1.y for "6.1"). */
	char *branch;
	/* The tree's release tag ("v6.1") when it is on the branch, else
	 * NULL: then the tree's index holds the branch's whole history and
	 * no release dates a Fixes: target for it (trees/tree_judge.h). */
	char *base;
	/* A local branch behind the branch it tracks ("origin/linux-6.1.y"),
	 * by this many commits: what the tree took since looks missing. */
	size_t behind;
	char *upstream;		/* NULL when not behind */
	/* --check-applies: why no trial cherry-pick could run on this tree
	 * (its repository would not open a second handle), or NULL */
	char *trial_error;
};

struct sm_scan_result {
	struct sm_scan_item *items;	/* in upstream (topological, oldest first) order */
	size_t nr;
	/* How each tree's upstream index was got
	 * (sm_cache_state_name: "new", "hit", "incremental", "rebuilt", "off"). */
	const char **tree_cache_state;	/* opts->nr_trees entries, static strings */
	struct sm_scan_tree_info *tree_info;	/* opts->nr_trees entries */
	size_t nr_trees;		/* entries of each item's trees[] */
	/* The look-past-the-range index (trees/lifecycle.h). */
	const char *lifecycle_cache;	/* sm_cache_state_name, NULL when off */
	char *lifecycle_ref;		/* the branch it read, or NULL */
	char *lifecycle_note;		/* a note on the default's choice, or NULL */
	size_t lifecycle_nr;		/* commits it holds */
	size_t nr_queued, nr_cves;	/* queue patches and CVE records read */
	size_t nr_review_notes;		/* notes under opts->notes_ref */
	char *review_notes_ref;		/* the notes ref read, or NULL */
	/* The diff cache (trees/diff_cache.h): sm_cache_state_name, and how
	 * many commits' diffs it saved building. */
	const char *diff_cache;
	size_t diff_cache_hits;
	/* The first-release map of the release tags (trees/tags.h):
	 * sm_cache_state_name, NULL when the scan needed none. */
	const char *release_map_cache;
};

int sm_scan(const struct sm_scan_opts *o, struct sm_scan_result *out);
void sm_scan_result_release(struct sm_scan_result *r);
/* What a trial cherry-pick found beyond "cleanly" and "conflicts", for
 * the scan's output, the bot's report and the dashboard alike. Appends to
 * out, with a leading space, "after its prerequisite 9ebf95b3b661" (or
 * "prerequisites A, B") when tr applies only after its deps, else nothing. */
void sm_scan_after_deps_text(const struct sm_scan_tree_result *tr, struct strbuf *out);
/* Appends " after also taking 18d9299992cb, 0c6393406c58, which the tree
 * lacks, from the history of the files in conflict" when the search found what
 * makes tr apply (led by " after its prerequisite 9ebf95b3b661 and" when
 * it has deps, which go first), else nothing. */
void sm_scan_search_text(const struct sm_scan_tree_result *tr, struct strbuf *out);
/* Appends "linux-6.6.y's backport 1a2b3c4d5e6f <verb>", and " after
 * 0f1e2d3c4b5a, which that tree took first" when that backport needed its
 * tree's prerequisites; nothing when tr has no backport that applies. */
void sm_scan_backport_text(const struct sm_scan_tree_result *tr, const char *verb,
			   struct strbuf *out);
void sm_scan_result_json(const struct sm_scan_result *r, const struct sm_scan_opts *o,
			 struct json_writer *w);

#endif
