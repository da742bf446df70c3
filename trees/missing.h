/* missing: the upstream commits one stable tree has and another lacks,
 * both ways, since the two branches' merge base. Each side's commit
 * stands for the upstream id its message names (or itself), and is looked
 * up on the other side by upstream id, patch-id, then subject. Merges and
 * release commits ("Linux 6.1.5") are left out, and so is a commit the
 * branch reverted later, with its revert (listed apart), and one the
 * branch took as the prerequisite of a commit the other has (listed apart
 * too), and one the other branch does not need, a fix of a bug or of
 * files it does not have (trees/missing_needed.h; listed apart, unless
 * judge_needed is 0). With since_a/since_b each branch is read from its
 * own release tag instead (what 6.6.y took since v6.6 against what 6.1.y
 * took since v6.1). */
#ifndef SM_TREES_MISSING_H
#define SM_TREES_MISSING_H
#include <stddef.h>
#include <git2.h>
#include "lib/strlist.h"

struct sm_missing_entry {
	char upstream[41];	/* the upstream id (the commit's own id if it names none) */
	char stable[41];	/* the commit on its side */
	char *subject;
	char revert[41];	/* in reverted[]: the branch's commit reverting it;
				 * in only[]: the other branch's commit reverting
				 * its copy ("" when it has none) */
	/* Its "Stable-dep-of:" trailer: the upstream id this branch took it
	 * for, as a prerequisite ("" when none); in dep_met[], the other
	 * branch's commit carrying that one. */
	char dep_of[41];
	char dep_there[41];
	/* In only[], after sm_missing_try(): does stable apply to the other
	 * branch's tip (1), conflict (0), or not tried (-1)? One that
	 * conflicts alone is tried again after the entries before it that
	 * name it in their "Stable-dep-of:"; after[] holds those when that
	 * made it apply. */
	int applies;
	struct strlist after;
	/* applies == 1 and changes nothing there: the other branch has its
	 * change under no id, patch-id or subject of it (trees/pick.h) */
	int change_there;
	/* In only[]: the Fixes: target this branch took and the other lacks
	 * too ("" when none): the two go together. In not_needed[]: why the
	 * other branch does not need it (trees/missing_needed.h), its code
	 * ("bug-not-in-tree", "file-not-in-tree") and its words. */
	char fix_of[41];
	const char *why_code;
	char *why;
	/* In only[], set by a caller that reads the review notes (trees/ does
	 * not): the stable queue's latest notice about it for the other
	 * branch's version, "failed to apply" or "queued" (NULL: none), its
	 * date, and its possible dependencies ("" when none), ids joined by
	 * ", ". */
	const char *queue_notice;
	char *queue_date;
	char *queue_deps;
	/* Likewise: the NAK given for the other branch's version that stands
	 * (trees/tree_reviews.h), as sm_tree_reviews_nak_text says it, or
	 * NULL. */
	char *nak;
};

struct sm_missing_side {
	const char *branch;
	struct sm_missing_entry *only;	/* in this branch, not in the other */
	size_t nr, alloc;
	/* Taken and then reverted on this branch, since the base: in effect
	 * not in it, so left out of only[] (with their reverts), whichever
	 * side has the commit; the other tree's maintainer may want to know
	 * that this one backed it out. */
	struct sm_missing_entry *reverted;
	size_t nr_reverted, alloc_reverted;
	/* In this branch, not in the other, but taken only as the
	 * prerequisite of a commit ("Stable-dep-of:") the other branch has
	 * without it: most likely not needed there, so listed apart. */
	struct sm_missing_entry *dep_met;
	size_t nr_dep_met, alloc_dep_met;
	/* In this branch, not in the other, but fixing a bug or changing
	 * files the other does not have (trees/missing_needed.h): listed
	 * apart, with the reason. */
	struct sm_missing_entry *not_needed;
	size_t nr_not_needed, alloc_not_needed;
	size_t total;		/* commits of this branch since the base */
	char tip[41];		/* the branch's commit, as resolved */
	char since[32];		/* --since-release: the tag it was read from, "" */
	const char *cache;	/* sm_cache_state_name of its index */
};

struct sm_missing_result {
	char base[41];		/* merge base, "" when none */
	size_t in_both;		/* commits of a matched on b */
	struct sm_missing_side a, b;
};

int sm_missing(git_repository *repo, const char *a, const char *b, const char *cache_dir,
	       struct sm_missing_result *res);

struct sm_progress;
struct sm_version;
struct sm_missing_opts {
	const char *cache_dir;		/* as sm_upstream_index_build's */
	int judge_needed;		/* set apart what the other does not need */
	/* --since-release: each branch read from its own release tag (vX.Y
	 * of since_a, since_b) instead of the merge base, what each took
	 * since: a commit one lacks counts as there when it came from
	 * mainline in that one's release or before. NULL: the merge base. */
	const struct sm_version *since_a, *since_b;
	struct sm_progress *progress;	/* the index builds counted; may be NULL */
};
/* sm_missing with options. res->base is "" with since_a. */
int sm_missing_run(git_repository *repo, const char *a, const char *b,
		   const struct sm_missing_opts *o, struct sm_missing_result *res);
/* Tries each only[] entry of both sides onto the other branch's tip, a
 * cherry-pick in memory (trees/trial.h: nothing is written): what the
 * other tree can take as it is. Returns 0 or -1 (sm_error). */
int sm_missing_try(git_repository *repo, struct sm_missing_result *res);
void sm_missing_result_release(struct sm_missing_result *res);
/* res as one JSON object: merge_base (null when none), in_both, and each
 * side ("a", "b"): branch, total, index_cache, only_here[] (each with
 * other_revert, dep_of, fix_of, applies_to_other: null when not tried,
 * and applies_after[]), reverted[] (each with revert: the commit that
 * reverted it), prereq_of_present[] (each with dep_of and dep_there),
 * not_needed[] (each with reason and why), since (the release tag it was
 * read from with since_a, else null). */
struct json_writer;
void sm_missing_result_json(const struct sm_missing_result *res, struct json_writer *w);

#endif
