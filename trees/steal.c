#include "trees/steal.h"
#include "trees/pick.h"
#include "trees/repo.h"
#include "trees/tree_state.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include <stdio.h>
#include <string.h>

static struct sm_steal_entry *add_entry(struct sm_steal_result *res, const char *id,
					const char *subject)
{
	struct sm_steal_entry *e;

	ALLOC_GROW(res->entries, res->nr, res->alloc);
	e = &res->entries[res->nr++];
	memset(e, 0, sizeof(*e));
	snprintf(e->upstream, sizeof(e->upstream), "%s", id);
	e->subject = xstrdup(subject ? subject : "");
	return e;
}

/* Already picked (or tried) in this run? */
static int tried(const struct sm_steal_result *res, const char *id)
{
	for (size_t i = 0; i < res->nr; i++)
		if (!strcmp(res->entries[i].upstream, id))
			return 1;
	return 0;
}

/* Picks the commit pick_hex (the upstream commit upstream_id, or a stable
 * tree's backport of it) onto *cur; fills e and moves *cur when it
 * applied. Returns -1 on an error, else SM_PICK_CLEAN, or SM_PICK_CONFLICT
 * with e->reason set (as for the other reasons to leave it out). */
static int pick_one(git_repository *repo, const char *pick_hex, const char *upstream_id,
		    git_oid *cur, const git_signature *committer, const char *ident,
		    struct sm_steal_entry *e)
{
	git_commit *c = NULL, *onto = NULL;
	struct strlist conflicts = STRLIST_INIT;
	git_oid id, tree, new_id;
	const char *pick_msg;
	char *msg, *owned_msg;
	int r, ret = -1;

	if (git_oid_fromstr(&id, pick_hex) < 0 || git_commit_lookup(&c, repo, &id) < 0 ||
	    git_commit_lookup(&onto, repo, cur) < 0) {
		sm_error("commit %.12s: unreadable (%s)", pick_hex, sm_git_error());
		goto out;
	}
	r = sm_pick_tree(repo, c, onto, &tree, &conflicts);
	if (r < 0) {
		e->reason = xstrdup(sm_last_error());
		sm_clear_error();
		ret = SM_PICK_CONFLICT;
		goto out;
	}
	if (r == SM_PICK_CONFLICT) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "does not apply: conflict in ");
		for (size_t k = 0; k < conflicts.nr; k++)
			strbuf_addf(&sb, "%s%s", k ? ", " : "", conflicts.items[k]);
		e->reason = strbuf_detach(&sb, NULL);
		ret = SM_PICK_CONFLICT;
		goto out;
	}
	if (git_oid_equal(&tree, git_commit_tree_id(onto))) {
		e->reason = xstrdup("empty: the change is already in the tree");
		ret = SM_PICK_CONFLICT;
		goto out;
	}
	/* a backport's own "commit X upstream." line stays (sm_stable_message) */
	pick_msg = sm_commit_utf8(c, git_commit_message(c), &owned_msg);
	msg = sm_stable_message(pick_msg, upstream_id, ident);
	free(owned_msg);
	r = sm_commit_write(repo, c, committer, msg, &tree, cur, &new_id);
	free(msg);
	if (r < 0)
		goto out;
	*cur = new_id;
	git_oid_tostr(e->stable, 41, &new_id);
	ret = SM_PICK_CLEAN;
out:
	strlist_clear(&conflicts);
	git_commit_free(c);
	git_commit_free(onto);
	return ret;
}

/* The trees of --backports-from, their indexes built once, and the tree
 * picked onto (for the prerequisites of a backport it has already) */
struct backport_trees {
	struct sm_tree_state *states;
	size_t nr;
	struct sm_tree_state *onto;	/* NULL without --backports-from */
};

static void release_entry(struct sm_steal_entry *e)
{
	FREE_ALL(e->subject, e->reason, e->with, e->prereq_of, e->needed_by, e->backport,
		 e->backport_tree);
}

/* The prerequisites tree t took for its backport (at) of upstream_id,
 * picked in order onto *cur into pre[] (*nr of them), leaving out those
 * picked in this run already or that the tree picked onto has. 1 when all
 * applied, 0 when one did not (its reason appended to why; pre[] then
 * released), -1 on an error. */
static int pick_backport_prereqs(git_repository *repo, const struct backport_trees *bt,
				 const struct sm_tree_state *t, size_t at, const char *upstream_id,
				 git_oid *cur, const git_signature *committer, const char *ident,
				 const struct sm_steal_result *res, struct sm_steal_entry *pre,
				 size_t *nr, struct strbuf *why)
{
	size_t found[SM_PREREQ_WINDOW];
	size_t n = sm_upstream_index_prereqs_of(&t->idx, repo, at, upstream_id, found,
						SM_PREREQ_WINDOW);

	*nr = 0;
	for (size_t k = 0; k < n; k++) {
		const struct sm_upstream_entry *pe = &t->idx.entries[found[k]];
		const char *up = pe->upstream[0] ? pe->upstream : pe->stable;
		struct sm_steal_entry *e = &pre[*nr];
		int r;

		if (tried(res, up) ||
		    (bt->onto && sm_tree_state_carries(bt->onto, up, pe->patch_id, pe->subject)))
			continue;
		memset(e, 0, sizeof(*e));
		snprintf(e->upstream, sizeof(e->upstream), "%s", up);
		e->subject = xstrdup(pe->subject);
		e->prereq_of = xstrdup(upstream_id);
		e->backport = xstrdup(pe->stable);
		e->backport_tree = xstrdup(t->spec->name);
		(*nr)++;
		r = pick_one(repo, pe->stable, up, cur, committer, ident, e);
		if (r == SM_PICK_CLEAN)
			continue;
		if (r > 0 && starts_with(e->reason, "empty")) {
			release_entry(&pre[--*nr]);	/* its change is in the tree */
			continue;
		}
		if (r > 0)
			strbuf_addf(why, "; %s's backport needs %.12s (%s) first, which %s", t->spec->name,
				    pe->stable, pe->subject, e->reason);
		for (size_t i = 0; i < *nr; i++)
			release_entry(&pre[i]);
		*nr = 0;
		return r < 0 ? -1 : 0;
	}
	return 1;
}

/* Puts pre[] (nr entries, picked) before entry at of res. */
static void insert_entries(struct sm_steal_result *res, size_t at, struct sm_steal_entry *pre,
			   size_t nr)
{
	if (!nr)
		return;
	ALLOC_GROW(res->entries, res->nr + nr, res->alloc);
	memmove(&res->entries[at + nr], &res->entries[at], (res->nr - at) * sizeof(*res->entries));
	memcpy(&res->entries[at], pre, nr * sizeof(*pre));
	res->nr += nr;
	res->nr_picked += nr;
}

/* Picks upstream_id (entry ei of res) onto *cur, and when it does not
 * apply, the first backport of it in bt that does, with the prerequisites
 * that tree took for it (their entries go before ei). Returns 0 or -1
 * (error). */
static int pick_candidate(git_repository *repo, const char *upstream_id, git_oid *cur,
			  const git_signature *committer, const char *ident,
			  const struct backport_trees *bt, struct sm_steal_result *res, size_t ei)
{
	struct strbuf tried_too = STRBUF_INIT;
	struct sm_steal_entry *e = &res->entries[ei];
	int r = pick_one(repo, upstream_id, upstream_id, cur, committer, ident, e);

	if (r != SM_PICK_CONFLICT || !starts_with(e->reason, "does not apply"))
		return r < 0 ? -1 : 0;
	for (size_t k = 0; k < bt->nr; k++) {
		const struct sm_tree_state *t = &bt->states[k];
		const struct sm_upstream_entry *b = sm_upstream_index_backport_of(&t->idx, upstream_id);
		struct sm_steal_entry tryout = { 0 }, pre[SM_PREREQ_WINDOW];
		size_t nr_pre;
		git_oid at = *cur;

		if (!b)
			continue;
		r = pick_backport_prereqs(repo, bt, t, (size_t)(b - t->idx.entries), upstream_id, &at,
					  committer, ident, res, pre, &nr_pre, &tried_too);
		if (r < 0)
			return -1;
		if (!r)
			continue;
		r = pick_one(repo, b->stable, upstream_id, &at, committer, ident, &tryout);
		if (r < 0) {
			for (size_t i = 0; i < nr_pre; i++)
				release_entry(&pre[i]);
			return -1;
		}
		if (r == SM_PICK_CLEAN) {
			insert_entries(res, ei, pre, nr_pre);
			e = &res->entries[ei + nr_pre];
			*cur = at;
			memcpy(e->stable, tryout.stable, sizeof(e->stable));
			free(e->reason);
			e->reason = NULL;
			e->backport = xstrdup(b->stable);
			e->backport_tree = xstrdup(t->spec->name);
			strbuf_release(&tried_too);
			return 0;
		}
		for (size_t i = 0; i < nr_pre; i++)
			release_entry(&pre[i]);
		strbuf_addf(&tried_too, "; %s's backport %.12s: %s", t->spec->name, b->stable,
			    tryout.reason);
		free(tryout.reason);
	}
	if (tried_too.len) {
		char *reason = xasprintf("%s%s", e->reason, tried_too.buf);

		free(e->reason);
		e->reason = reason;
	}
	strbuf_release(&tried_too);
	return 0;
}

static int open_backport_trees(const struct sm_steal_opts *o, const struct sm_tree_spec *onto,
			       git_repository *repo, struct backport_trees *bt)
{
	bt->states = xcalloc(o->nr_backports_from ? o->nr_backports_from : 1,
			     sizeof(*bt->states));
	for (; bt->nr < o->nr_backports_from; bt->nr++)
		if (sm_tree_state_open(&bt->states[bt->nr], &o->backports_from[bt->nr], repo,
				       NULL, o->cache_dir) < 0)
			return sm_error_wrap("--backports-from");
	if (bt->nr) {
		bt->onto = xcalloc(1, sizeof(*bt->onto));
		if (sm_tree_state_open(bt->onto, onto, repo, NULL, o->cache_dir) < 0) {
			free(bt->onto);
			bt->onto = NULL;
			return -1;
		}
	}
	return 0;
}

static void close_backport_trees(struct backport_trees *bt)
{
	for (size_t k = 0; k < bt->nr; k++)
		sm_tree_state_close(&bt->states[k]);
	if (bt->onto)
		sm_tree_state_close(bt->onto);
	free(bt->onto);
	free(bt->states);
	memset(bt, 0, sizeof(*bt));
}

/* pick_candidate for the entry just added, counted when picked. */
static int pick_and_count(git_repository *repo, const char *id, git_oid *cur,
			  const git_signature *committer, const char *ident,
			  const struct backport_trees *bt, struct sm_steal_result *res)
{
	size_t ei = res->nr - 1;

	if (pick_candidate(repo, id, cur, committer, ident, bt, res, ei) < 0)
		return -1;
	/* prerequisites inserted before it moved it */
	if (!res->entries[res->nr - 1].reason)
		res->nr_picked++;
	return 0;
}

/* How a commit picked with a candidate goes with it */
enum relation {
	LATER_FIX,	/* a later fix of it (entry's with) */
	PREREQ,		/* a prerequisite its stable tag names (prereq_of) */
	NEEDED,		/* what the search found it needs (needed_by) */
};

/* Picks id, which goes with the candidate cand as rel says. Once per run;
 * a prerequisite the repository lacks (its id as the tag wrote it) is left
 * out with that reason. Returns 0 or -1 (error). */
static int pick_related(git_repository *repo, const char *id, const char *cand,
			enum relation rel, git_oid *cur, const git_signature *committer,
			const char *ident, const struct backport_trees *bt,
			struct sm_steal_result *res)
{
	struct sm_steal_entry *e;
	git_commit *c = NULL;
	git_oid oid;
	char *subj = NULL;

	if (tried(res, id))
		return 0;
	if (strlen(id) == GIT_OID_HEXSZ && git_oid_fromstr(&oid, id) == 0 &&
	    git_commit_lookup(&c, repo, &oid) == 0)
		subj = sm_commit_subject(c);
	e = add_entry(res, id, subj);
	free(subj);
	*(rel == PREREQ ? &e->prereq_of : rel == NEEDED ? &e->needed_by : &e->with) = xstrdup(cand);
	if (!c) {
		sm_clear_error();
		e->reason = xstrdup("not in the repository");
		return 0;
	}
	git_commit_free(c);
	return pick_and_count(repo, id, cur, committer, ident, bt, res);
}

int sm_steal(const struct sm_steal_opts *o, struct sm_steal_result *res)
{
	git_repository *repo = NULL;
	git_reference *ref = NULL;
	git_signature *committer = NULL;
	struct sm_scan_opts so;
	struct sm_scan_result sr = { 0 };
	struct sm_tree_spec tree = o->onto;
	struct backport_trees bt = { 0 };
	git_oid cur;
	char *ident = NULL, onto[256];
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (sm_repo_open(&repo, o->repo) < 0)
		return -1;
	res->refname = xasprintf("refs/heads/%s", o->branch);
	if (git_reference_is_valid_name(res->refname) != 1) {
		sm_error("%s: not a valid branch name", o->branch);
		goto out;
	}
	if (git_reference_lookup(&ref, repo, res->refname) == 0) {
		sm_error("%s: branch already exists in %s; pick another name or delete it",
			 o->branch, sm_repo_name(repo));
		goto out;
	}
	if (sm_committer(&committer, repo, o->signoff) < 0)
		goto out;
	ident = sm_signature_str(committer);
	/* origin/linux-6.1.y when a fresh clone has only that (the scan
	 * below resolves it the same way) */
	if (sm_resolve_branch(repo, tree.branch, &cur, onto, sizeof(onto)) < 0)
		goto out;
	git_oid_tostr(res->base, 41, &cur);

	memset(&so, 0, sizeof(so));
	tree.repo = o->repo;
	so.upstream = o->repo;
	so.range = o->range;
	so.trees = &tree;
	so.nr_trees = 1;
	so.rules = o->rules;
	so.cache_dir = o->cache_dir;
	so.upstream_ref = o->upstream_ref;
	so.min_soak_days = o->min_soak_days;
	so.forget_bodies = 1;	/* the branch's entries name subjects */
	so.queue_dir = o->queue_dir;
	so.notes_ref = o->notes_ref;
	so.check_applies = o->search > 0;	/* the search follows a trial */
	so.search = o->search;
	if (sm_scan(&so, &sr) < 0 || open_backport_trees(o, &tree, repo, &bt) < 0)
		goto out;
	res->nr_scanned = sr.nr;
	for (size_t i = 0; i < sr.nr; i++) {
		const struct sm_scan_item *it = &sr.items[i];
		const struct sm_scan_tree_result *tr = &it->trees[0];

		if (tr->present || !(tr->verdict.kind == SM_CANDIDATE ||
				     (o->include_maybe && tr->verdict.kind == SM_MAYBE)))
			continue;
		if (tried(res, it->id))
			continue;	/* picked already as an earlier one's later fix */
		/* the search's order holds the prerequisites too, in commit
		 * order among what it found */
		for (size_t k = 0; k < tr->search_order.nr; k++)
			if (pick_related(repo, tr->search_order.items[k], it->id,
					 strlist_contains(&tr->deps, tr->search_order.items[k]) ?
					 PREREQ : NEEDED, &cur, committer, ident, &bt, res) < 0)
				goto out;
		for (size_t k = 0; k < tr->deps.nr; k++)
			if (pick_related(repo, tr->deps.items[k], it->id, PREREQ, &cur, committer,
					 ident, &bt, res) < 0)
				goto out;
		add_entry(res, it->id, it->commit.subject);
		if (pick_and_count(repo, it->id, &cur, committer, ident, &bt, res) < 0)
			goto out;
		for (size_t k = 0; k < tr->take_with.nr; k++)
			if (pick_related(repo, tr->take_with.items[k], it->id, LATER_FIX, &cur,
					 committer, ident, &bt, res) < 0)
				goto out;
	}
	git_oid_tostr(res->tip, 41, &cur);
	git_reference_free(ref);
	ref = NULL;
	if (git_reference_create(&ref, repo, res->refname, &cur, 0, "stablemate steal") < 0) {
		sm_error("%s: cannot create the branch (%s)", o->branch, sm_git_error());
		goto out;
	}
	ret = 0;
out:
	if (ret < 0)
		sm_steal_result_release(res);
	close_backport_trees(&bt);
	free(ident);
	sm_scan_result_release(&sr);
	git_signature_free(committer);
	git_reference_free(ref);
	git_repository_free(repo);
	return ret;
}

void sm_steal_result_release(struct sm_steal_result *res)
{
	for (size_t i = 0; i < res->nr; i++)
		release_entry(&res->entries[i]);
	free(res->entries);
	free(res->refname);
	memset(res, 0, sizeof(*res));
}

static void steal_entry_json(const struct sm_steal_entry *e, struct json_writer *w)
{
	json_object_begin(w, NULL);
	JSON_STRINGS(w, "upstream subject stable left_out with prereq_of needed_by backport backport_tree",
		     e->upstream, e->subject, e->reason ? NULL : e->stable, e->reason, e->with,
		     e->prereq_of, e->needed_by, e->backport, e->backport_tree);
	json_object_end(w);
}

void sm_steal_result_json(const struct sm_steal_result *res, struct json_writer *w)
{
	json_object_begin(w, NULL);
	JSON_STRINGS(w, "branch base tip", res->refname, res->base, res->tip);
	JSON_INTS(w, "scanned picked", res->nr_scanned, res->nr_picked);
	json_array_begin(w, "commits");
	for (size_t i = 0; i < res->nr; i++)
		steal_entry_json(&res->entries[i], w);
	json_array_end(w);
	json_object_end(w);
}
