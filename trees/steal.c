#include "trees/steal.h"
#include "trees/pick.h"
#include "trees/repo.h"
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

/* Picks one candidate onto *cur; fills e and moves *cur when it applied. */
static int pick_one(git_repository *repo, const char *upstream_id, git_oid *cur,
		    const git_signature *committer, const char *ident, struct sm_steal_entry *e)
{
	git_commit *c = NULL, *onto = NULL;
	struct strlist conflicts = STRLIST_INIT;
	git_oid id, tree, new_id;
	const char *upstream_msg;
	char *msg, *owned_msg;
	int r, ret = -1;

	if (git_oid_fromstr(&id, upstream_id) < 0 || git_commit_lookup(&c, repo, &id) < 0 ||
	    git_commit_lookup(&onto, repo, cur) < 0) {
		sm_error("commit %.12s: unreadable (%s)", upstream_id, sm_git_error());
		goto out;
	}
	r = sm_pick_tree(repo, c, onto, &tree, &conflicts);
	if (r < 0) {
		e->reason = xstrdup(sm_last_error());
		sm_clear_error();
		ret = 0;
		goto out;
	}
	if (r == SM_PICK_CONFLICT) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "does not apply: conflict in ");
		for (size_t k = 0; k < conflicts.nr; k++)
			strbuf_addf(&sb, "%s%s", k ? ", " : "", conflicts.items[k]);
		e->reason = strbuf_detach(&sb, NULL);
		ret = 0;
		goto out;
	}
	if (git_oid_equal(&tree, git_commit_tree_id(onto))) {
		e->reason = xstrdup("empty: the change is already in the tree");
		ret = 0;
		goto out;
	}
	upstream_msg = sm_commit_utf8(c, git_commit_message(c), &owned_msg);
	msg = sm_stable_message(upstream_msg, upstream_id, ident);
	free(owned_msg);
	r = sm_commit_write(repo, c, committer, msg, &tree, cur, &new_id);
	free(msg);
	if (r < 0)
		goto out;
	*cur = new_id;
	git_oid_tostr(e->stable, 41, &new_id);
	ret = 0;
out:
	strlist_clear(&conflicts);
	git_commit_free(c);
	git_commit_free(onto);
	return ret;
}

int sm_steal(const struct sm_steal_opts *o, struct sm_steal_result *res)
{
	git_repository *repo = NULL;
	git_reference *ref = NULL;
	git_signature *committer = NULL;
	struct sm_scan_opts so;
	struct sm_scan_result sr = { 0 };
	struct sm_tree_spec tree = o->onto;
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
	so.queue_dir = o->queue_dir;
	if (sm_scan(&so, &sr) < 0)
		goto out;
	res->nr_scanned = sr.nr;
	for (size_t i = 0; i < sr.nr; i++) {
		const struct sm_scan_item *it = &sr.items[i];
		const struct sm_scan_tree_result *tr = &it->trees[0];
		struct sm_steal_entry *e;

		if (tr->present || !(tr->verdict.kind == SM_CANDIDATE ||
				     (o->include_maybe && tr->verdict.kind == SM_MAYBE)))
			continue;
		if (tried(res, it->id))
			continue;	/* picked already as an earlier one's later fix */
		e = add_entry(res, it->id, it->commit.subject);
		if (pick_one(repo, it->id, &cur, committer, ident, e) < 0)
			goto out;
		if (!e->reason)
			res->nr_picked++;
		for (size_t k = 0; k < tr->take_with.nr; k++) {
			const char *fid = tr->take_with.items[k];
			char *subj = NULL;
			git_commit *fc = NULL;
			git_oid foid;

			if (tried(res, fid))
				continue;
			if (git_oid_fromstr(&foid, fid) == 0 && git_commit_lookup(&fc, repo, &foid) == 0)
				subj = sm_commit_subject(fc);
			e = add_entry(res, fid, subj);
			free(subj);
			git_commit_free(fc);
			e->with = xstrdup(it->id);
			if (pick_one(repo, fid, &cur, committer, ident, e) < 0)
				goto out;
			if (!e->reason)
				res->nr_picked++;
		}
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
		FREE_ALL(res->entries[i].subject, res->entries[i].reason, res->entries[i].with);
	free(res->entries);
	free(res->refname);
	memset(res, 0, sizeof(*res));
}

static void steal_entry_json(const struct sm_steal_entry *e, struct json_writer *w)
{
	json_object_begin(w, NULL);
	JSON_STRINGS(w, "upstream subject stable left_out with", e->upstream, e->subject,
		     e->reason ? NULL : e->stable, e->reason, e->with);
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
