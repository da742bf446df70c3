/* missing_needed: see missing_needed.h. */
#include "trees/missing_needed.h"
#include "trees/repo.h"
#include "trees/tags.h"
#include "trees/tree_files.h"
#include "trees/tree_judge.h"
#include "rules/commit.h"
#include "lib/util.h"
#include <string.h>

struct needed {
	git_repository *repo;
	struct sm_release_tags *tags;	/* NULL: no release tags */
	git_oid base;			/* the merge base */
	int has_base;
	int base_state;			/* 0 not looked up, 1 base_release set, -1 none */
	const struct sm_release *base_release;
	/* the other branch of the side being judged holds all of mainline up
	 * to this release (NULL: base_release) */
	const struct sm_release *other_mainline;
	struct sm_tree_keep keep;	/* for the diffs, one side at a time */
};

/* The release up to which the other branch holds all of mainline: its own
 * with --since-release, else the first that holds the merge base; NULL
 * when none does (or no release tags). */
static const struct sm_release *base_release(struct needed *n)
{
	if (n->other_mainline)
		return n->other_mainline;
	if (!n->base_state) {
		n->base_release = n->tags && n->has_base ?
			sm_first_release(n->tags, n->repo, &n->base) : NULL;
		n->base_state = n->base_release ? 1 : -1;
	}
	return n->base_release;
}

enum fixes_verdict { FIXES_NEEDED, FIXES_NOT_NEEDED, FIXES_TOGETHER };

/* What c's Fixes: tags say of the other branch (index other), this side's
 * index being own: FIXES_NOT_NEEDED with the reason in *why when every
 * target came after the merge base's release and neither branch carries
 * it; FIXES_TOGETHER, the target in fix_of, when this side carries one
 * the other lacks; else FIXES_NEEDED (no tag, a target the other has, one
 * that does not resolve or predates the base: the other may well have
 * the bug). */
static enum fixes_verdict judge_fixes(struct needed *n, const struct sm_commit *c,
				      const struct sm_upstream_index *own,
				      const struct sm_upstream_index *other, const char *other_name,
				      char fix_of[41], char **why)
{
	const struct sm_release *base = NULL;
	struct sm_fixes_target first_absent;
	size_t absent = 0;

	memset(&first_absent, 0, sizeof(first_absent));

	for (size_t k = 0; k < c->nr_fixes; k++) {
		const struct sm_fixes_tag *f = &c->fixes[k];
		struct sm_fixes_target t;

		if (!sm_fixes_names_commit(f))
			continue;
		if (!base && !(base = base_release(n)))
			return FIXES_NEEDED;
		if (sm_fixes_target_resolve(n->tags, n->repo, f->sha, &t) < 0) {
			sm_clear_error();
			return FIXES_NEEDED;
		}
		/* in a release no later than the base's: the other branch
		 * may have it from mainline */
		if (t.first && sm_version_cmp(&t.first->version, &base->version) <= 0)
			return FIXES_NEEDED;
		if (sm_upstream_index_find(other, t.hex, NULL, NULL, NULL))
			return FIXES_NEEDED;
		if (sm_upstream_index_find(own, t.hex, NULL, NULL, NULL)) {
			memcpy(fix_of, t.hex, 41);
			return FIXES_TOGETHER;
		}
		if (!absent++)
			first_absent = t;
	}
	if (!absent)
		return FIXES_NEEDED;
	if (first_absent.first)
		*why = xasprintf("the Fixes: target %.12s came in %s, after %s, and %s has no backport of it",
				 first_absent.hex, first_absent.first->name, base->name, other_name);
	else
		*why = xasprintf("the Fixes: target %.12s is in no release yet, and %s has no backport of it",
				 first_absent.hex, other_name);
	return FIXES_NOT_NEEDED;
}

/* Why the other branch (its files in files) lacks every file c changes,
 * or NULL when it does not. */
static char *judge_files(struct sm_tree_files *files, const struct sm_commit *c,
			 const char *other_name)
{
	const char *first;
	size_t nr;

	if (!sm_tree_files_lacks(files, c, &first, &nr))
		return NULL;
	if (nr == 1)
		return xasprintf("%s is not in %s", first, other_name);
	return xasprintf("none of the %zu files it changes is in %s (%s and %zu more)", nr,
			 other_name, first, nr - 1);
}

/* Judges side's only[] (own: its index) against the other branch (other,
 * its index), moving what the other does not need to not_needed[]. */
static void judge_side(struct needed *n, struct sm_missing_side *side,
		       const struct sm_upstream_index *own, const struct sm_missing_side *other_side,
		       const struct sm_upstream_index *other)
{
	struct sm_tree_files files;
	git_oid other_tip, tip;
	size_t kept = 0;

	git_oid_fromstr(&other_tip, other_side->tip);
	git_oid_fromstr(&tip, side->tip);
	/* this side's tip stands for mainline: it has the files its commits
	 * change, and what the other tree has that it lacks may be moved */
	sm_tree_files_init(&files, n->repo, &other_tip, n->repo, &tip);
	for (size_t i = 0; i < side->nr; i++) {
		struct sm_missing_entry *e = &side->only[i];
		git_commit *gc = NULL;
		git_oid id;
		struct sm_commit c;
		char *why = NULL;
		const char *code = NULL;

		if (!e->revert[0] && git_oid_fromstr(&id, e->stable) == 0 &&
		    git_commit_lookup(&gc, n->repo, &id) == 0 &&
		    sm_commit_load(n->repo, gc, 0, &c, NULL) == 0) {
			switch (judge_fixes(n, &c, own, other, other_side->branch, e->fix_of, &why)) {
			case FIXES_NOT_NEEDED:
				code = "bug-not-in-tree";
				break;
			case FIXES_TOGETHER:
				break;
			case FIXES_NEEDED:
				if (!c.is_merge &&
				    sm_commit_load_diff_keep(n->repo, gc, &n->keep, &c, NULL) == 0 &&
				    (why = judge_files(&files, &c, other_side->branch)))
					code = "file-not-in-tree";
				break;
			}
			sm_commit_release(&c);
		}
		git_commit_free(gc);
		sm_clear_error();
		if (!code) {
			side->only[kept++] = *e;
			continue;
		}
		ALLOC_GROW(side->not_needed, side->nr_not_needed + 1, side->alloc_not_needed);
		e->why_code = code;
		e->why = why;
		side->not_needed[side->nr_not_needed++] = *e;
	}
	side->nr = kept;
	sm_tree_files_release(&files);
	sm_tree_keep_release(&n->keep);
	memset(&n->keep, 0, sizeof(n->keep));
}

void sm_missing_judge_needed(git_repository *repo, struct sm_missing_result *res,
			     const struct sm_upstream_index *ia,
			     const struct sm_upstream_index *ib, struct sm_release_tags *tags,
			     const struct sm_release *mainline_of_a,
			     const struct sm_release *mainline_of_b)
{
	struct needed n;

	memset(&n, 0, sizeof(n));
	n.repo = repo;
	n.tags = tags && tags->nr ? tags : NULL;
	n.has_base = res->base[0] && git_oid_fromstr(&n.base, res->base) == 0;
	n.other_mainline = mainline_of_b;
	judge_side(&n, &res->a, ia, &res->b, ib);
	n.other_mainline = mainline_of_a;
	judge_side(&n, &res->b, ib, &res->a, ia);
}
