#include "trees/rewrite.h"
#include "trees/pick.h"
#include "trees/repo.h"
#include "trees/patchid.h"
#include "trees/upstream_index.h"
#include "lib/json.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>

struct chain {
	git_oid *ids;		/* oldest first: the commits above the anchor */
	size_t nr, alloc;
};

/* The local branch reference for name ("6.1" is linux-6.1.y when no
 * branch has that name, as for the other tree commands). */
static int branch_ref(git_repository *repo, const char *name, git_reference **out)
{
	char stable[64];

	if (git_branch_lookup(out, repo, name, GIT_BRANCH_LOCAL) == 0)
		return 0;
	if (starts_with(name, "refs/heads/") && git_reference_lookup(out, repo, name) == 0)
		return 0;
	if (sm_version_branch(name, stable, sizeof(stable)) &&
	    git_branch_lookup(out, repo, stable, GIT_BRANCH_LOCAL) == 0)
		return 0;
	return sm_error("%s: no such local branch in %s", name, sm_repo_name(repo));
}

/* Collects the first-parent commits from tip down to (not including)
 * anchor; fails when anchor is not reached or a merge is in the way. */
static int collect(git_repository *repo, const char *branch, const git_oid *tip,
		   const git_oid *anchor, const char *anchor_name, struct chain *ch)
{
	git_oid cur = *tip;

	while (!git_oid_equal(&cur, anchor)) {
		git_commit *c = NULL;
		char hex[41];

		git_oid_tostr(hex, sizeof(hex), &cur);
		if (git_commit_lookup(&c, repo, &cur) < 0)
			return sm_error("%s: commit %s unreadable (%s)", branch, hex, sm_git_error());
		if (git_commit_parentcount(c) > 1) {
			git_commit_free(c);
			return sm_error("%s: merge commit %.12s lies above %s; stablemate only "
					"rewrites linear history", branch, hex, anchor_name);
		}
		if (git_commit_parentcount(c) == 0) {
			git_commit_free(c);
			return sm_error("%s: %s is not on the branch", branch, anchor_name);
		}
		ALLOC_GROW(ch->ids, ch->nr, ch->alloc);
		ch->ids[ch->nr++] = cur;
		cur = *git_commit_parent_id(c, 0);
		git_commit_free(c);
	}
	for (size_t i = 0; i < ch->nr / 2; i++) {
		git_oid t = ch->ids[i];

		ch->ids[i] = ch->ids[ch->nr - 1 - i];
		ch->ids[ch->nr - 1 - i] = t;
	}
	return 0;
}

/* Replays ch onto base; *out gets the new tip and each ch->ids[i] the id of
 * its replayed commit. SM_PICK_CLEAN, SM_PICK_CONFLICT or -1 (sm_error). */
static int replay(git_repository *repo, const char *branch, struct chain *ch,
		  const git_oid *base, const git_signature *committer, git_oid *out,
		  struct sm_rewrite_result *res)
{
	git_oid cur = *base;

	for (size_t i = 0; i < ch->nr; i++) {
		git_commit *c = NULL, *onto = NULL;
		git_oid tree;
		int r;

		if (git_commit_lookup(&c, repo, &ch->ids[i]) < 0 ||
		    git_commit_lookup(&onto, repo, &cur) < 0) {
			git_commit_free(c);
			return sm_error("%s: %s", branch, sm_git_error());
		}
		r = sm_pick_tree(repo, c, onto, &tree, &res->conflict_paths);
		if (r == SM_PICK_CONFLICT) {
			struct strbuf paths = STRBUF_INIT;

			git_oid_tostr(res->conflict_commit, 41, &ch->ids[i]);
			res->conflict_subject = sm_commit_subject(c);
			for (size_t k = 0; k < res->conflict_paths.nr; k++)
				strbuf_addf(&paths, "%s%s", k ? ", " : "", res->conflict_paths.items[k]);
			sm_error("%s: conflict replaying %.12s (\"%s\") in %s; branch left unchanged",
				 branch, res->conflict_commit, res->conflict_subject, paths.buf);
			strbuf_release(&paths);
		}
		if (r == SM_PICK_CLEAN)
			r = sm_commit_write(repo, c, committer, NULL, &tree, &cur, &cur);
		git_commit_free(c);
		git_commit_free(onto);
		if (r)
			return r;
		ch->ids[i] = cur;
		res->replayed++;
	}
	*out = cur;
	return SM_PICK_CLEAN;
}

static int update_branch(git_repository *repo, git_reference *ref, const char *shortname,
			 const git_oid *old_tip, const git_oid *new_tip, const char *why,
			 struct sm_rewrite_result *res)
{
	git_reference *backup = NULL, *moved = NULL;
	char *logmsg = xasprintf("stablemate %s", why);

	res->backup_ref = xasprintf("refs/stablemate/backup/%s", shortname);
	if (git_reference_create(&backup, repo, res->backup_ref, old_tip, 1, logmsg) < 0) {
		free(logmsg);
		return sm_error("%s: cannot write %s (%s)", shortname, res->backup_ref, sm_git_error());
	}
	git_reference_free(backup);
	/* Checked against the old tip: a branch moved meanwhile is not lost. */
	if (git_reference_create_matching(&moved, repo, git_reference_name(ref), new_tip, 1,
					  old_tip, logmsg) < 0) {
		free(logmsg);
		return sm_error("%s: cannot update the branch (%s)", shortname, sm_git_error());
	}
	git_reference_free(moved);
	free(logmsg);
	git_oid_tostr(res->new_tip, 41, new_tip);
	return 0;
}

/* The work tree where ref is checked out, in path (size bytes): this
 * repository's own, or a linked one (git worktree add), whose index and
 * files a moved branch would leave holding the old commits as changes,
 * as git branch -f refuses to. 1 when checked out, else 0. */
static int checked_out_in(git_repository *repo, git_reference *ref, char *path, size_t size)
{
	git_strarray names = { 0 };
	int found = 0;

	if (!git_repository_is_bare(repo) && git_branch_is_head(ref) == 1) {
		snprintf(path, size, "%s", sm_repo_name(repo));
		return 1;
	}
	/* from a linked work tree, the main one is no entry of the list */
	if (git_repository_is_worktree(repo) == 1) {
		git_repository *main_repo = NULL;
		git_reference *head = NULL;

		if (git_repository_open(&main_repo, git_repository_commondir(repo)) == 0 &&
		    !git_repository_is_bare(main_repo) && git_repository_head(&head, main_repo) == 0 &&
		    !strcmp(git_reference_name(head), git_reference_name(ref))) {
			snprintf(path, size, "%s", sm_repo_name(main_repo));
			found = 1;
		}
		git_reference_free(head);
		git_repository_free(main_repo);
		if (found)
			return 1;
	}
	if (git_worktree_list(&names, repo) < 0)
		return 0;
	for (size_t i = 0; i < names.count && !found; i++) {
		git_reference *head = NULL;
		git_worktree *wt = NULL;

		if (git_repository_head_for_worktree(&head, repo, names.strings[i]) == 0 &&
		    !strcmp(git_reference_name(head), git_reference_name(ref)) &&
		    git_worktree_lookup(&wt, repo, names.strings[i]) == 0) {
			snprintf(path, size, "%s", git_worktree_path(wt));
			found = 1;
		}
		git_worktree_free(wt);
		git_reference_free(head);
	}
	git_strarray_dispose(&names);
	sm_clear_error();
	return found;
}

static int prepare(git_repository *repo, const char *branch, git_reference **ref, git_oid *tip,
		   struct sm_rewrite_result *res)
{
	char where[4096];

	memset(res, 0, sizeof(*res));
	if (branch_ref(repo, branch, ref) < 0)
		return -1;
	if (checked_out_in(repo, *ref, where, sizeof(where))) {
		git_reference_free(*ref);
		*ref = NULL;
		return sm_error("%s: is checked out in %s; switch to another branch first "
				"(stablemate never touches the work tree)", branch, where);
	}
	if (sm_resolve_commit(repo, git_reference_name(*ref), tip) < 0) {
		git_reference_free(*ref);
		*ref = NULL;
		return -1;
	}
	git_oid_tostr(res->old_tip, 41, tip);
	return 0;
}

/* Do the ids a and b (7 to 40 hex digits, either abbreviated) name the
 * same commit, as far as the shorter one tells? */
static int same_id(const char *a, const char *b)
{
	size_t n = strlen(a), m = b ? strlen(b) : 0;

	if (m < n)
		n = m;
	return n >= 7 && !strncasecmp(a, b, n);
}

/* The commits of ch whose Fixes: name victim, by its id or the upstream
 * id its message names, into out as "<id> <subject>". */
static void find_fixes_of(git_repository *repo, git_commit *victim, const struct chain *ch,
			  struct strlist *out)
{
	char own[41], *owned, *upstream;
	const char *msg = sm_commit_utf8(victim, git_commit_message(victim), &owned);

	git_oid_tostr(own, sizeof(own), git_commit_id(victim));
	upstream = msg ? sm_find_upstream_ref(msg, strlen(msg)) : NULL;
	free(owned);
	for (size_t i = 0; i < ch->nr; i++) {
		git_commit *c = NULL;
		struct sm_commit parsed;

		if (git_commit_lookup(&c, repo, &ch->ids[i]) < 0 ||
		    sm_commit_load(repo, c, 0, &parsed, NULL) < 0) {
			git_commit_free(c);
			sm_clear_error();
			continue;
		}
		for (size_t k = 0; k < parsed.nr_fixes; k++) {
			const char *f = parsed.fixes[k].sha;

			if (f && (same_id(f, own) || same_id(f, upstream))) {
				strlist_append_nodup(out, xasprintf("%s %s", parsed.id, parsed.subject ?
								    parsed.subject : ""));
				break;
			}
		}
		sm_commit_release(&parsed);
		git_commit_free(c);
	}
	free(upstream);
}

int sm_yank(git_repository *repo, const char *branch, const char *commit,
	    struct sm_rewrite_result *res)
{
	git_reference *ref = NULL;
	git_commit *victim = NULL;
	git_signature *committer = NULL;
	struct chain ch = { NULL, 0, 0 };
	git_oid tip, target, base, new_tip;
	int ret = -1;

	if (prepare(repo, branch, &ref, &tip, res) < 0)
		return -1;
	if (sm_resolve_commit(repo, commit, &target) < 0)
		goto out;
	if (git_commit_lookup(&victim, repo, &target) < 0)
		goto out;
	if (git_commit_parentcount(victim) != 1) {
		sm_error("%s: %s has %u parents; only a commit with one parent can be yanked",
			 branch, commit, git_commit_parentcount(victim));
		goto out;
	}
	base = *git_commit_parent_id(victim, 0);
	if (collect(repo, branch, &tip, &target, commit, &ch) < 0)
		goto out;
	if (git_signature_default(&committer, repo) < 0)
		committer = NULL;
	ret = replay(repo, branch, &ch, &base, committer, &new_tip, res);
	if (ret == SM_PICK_CLEAN)	/* by the ids they have now */
		find_fixes_of(repo, victim, &ch, &res->fixed_by);
	if (ret == SM_PICK_CLEAN &&
	    update_branch(repo, ref, git_reference_shorthand(ref), &tip, &new_tip, "yank", res) < 0)
		ret = -1;
out:
	git_signature_free(committer);
	git_commit_free(victim);
	git_reference_free(ref);
	free(ch.ids);
	return ret;
}

/* Does the branch (tip) carry pick already, since the two part: by the
 * upstream id pick stands for (the one a backport names, else its own)
 * or by patch-id, and not reverted later? Returns 1 with sm_error saying
 * where, 0 when not, -1 on an error. */
static int carried_already(git_repository *repo, const char *branch, const git_oid *tip,
			   git_commit *pick)
{
	struct sm_upstream_index idx;
	const struct sm_upstream_entry *e;
	enum sm_match how;
	git_oid base;
	char hex[41], patch_id[41] = "", *named, *owned;
	const char *msg = sm_commit_utf8(pick, git_commit_message(pick), &owned);
	size_t *pairs;
	int ret = 0;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
	named = msg ? sm_find_stable_upstream_ref(msg, strlen(msg)) : NULL;
	free(owned);
	if (sm_patch_id_commit(repo, git_commit_id(pick), patch_id) < 0)
		sm_clear_error();
	if (git_merge_base(&base, repo, tip, git_commit_id(pick)) < 0) {
		sm_clear_error();
		free(named);
		return 0;	/* no history in common: nothing to find */
	}
	if (sm_upstream_index_build(&idx, repo, branch, &base, NULL) < 0) {
		free(named);
		return -1;
	}
	e = sm_upstream_index_find(&idx, named ? named : hex, patch_id, NULL, &how);
	if (e) {
		pairs = sm_upstream_index_revert_pairs(&idx, repo);
		if (!sm_upstream_index_revert_of(&idx, pairs, e)) {
			sm_error("%s: has %.12s already, as %.12s (matched by %s); nothing inserted",
				 branch, hex, e->stable, sm_match_name(how));
			ret = 1;
		}
		free(pairs);
	}
	sm_upstream_index_release(&idx);
	free(named);
	return ret;
}

int sm_insert(git_repository *repo, const char *branch, const char *commit,
	      const struct sm_insert_opts *o, struct sm_rewrite_result *res)
{
	git_reference *ref = NULL;
	git_commit *pick = NULL, *after = NULL;
	git_signature *committer = NULL;
	struct chain ch = { NULL, 0, 0 };
	git_oid tip, pick_id, after_id, tree, base, new_tip;
	char *msg = NULL, *ident = NULL;
	char hex[41];
	int ret = -1, r;

	if (prepare(repo, branch, &ref, &tip, res) < 0)
		return -1;
	if (sm_resolve_commit(repo, commit, &pick_id) < 0 ||
	    sm_resolve_commit(repo, o->after, &after_id) < 0)
		goto out;
	if (collect(repo, branch, &tip, &after_id, o->after, &ch) < 0)
		goto out;
	if (git_commit_lookup(&pick, repo, &pick_id) < 0 ||
	    git_commit_lookup(&after, repo, &after_id) < 0) {
		sm_error("%s: %s", branch, sm_git_error());
		goto out;
	}
	if (sm_committer(&committer, repo, o->signoff) < 0)
		goto out;
	if (carried_already(repo, branch, &tip, pick) != 0)
		goto out;
	r = sm_pick_tree(repo, pick, after, &tree, &res->conflict_paths);
	if (r != SM_PICK_CLEAN) {
		if (r == SM_PICK_CONFLICT) {
			git_oid_tostr(res->conflict_commit, 41, &pick_id);
			res->conflict_subject = sm_commit_subject(pick);
			sm_error("%s: %.12s (\"%s\") does not apply after %s (conflict in %s); "
				 "branch left unchanged", branch, res->conflict_commit,
				 res->conflict_subject, o->after,
				 res->conflict_paths.nr ? res->conflict_paths.items[0] : "?");
		}
		ret = r;
		goto out;
	}
	git_oid_tostr(hex, sizeof(hex), &pick_id);
	ident = sm_signature_str(committer);
	if (o->stable_line) {
		char *owned_msg;
		const char *pick_msg = sm_commit_utf8(pick, git_commit_message(pick), &owned_msg);

		msg = sm_stable_message(pick_msg, hex, ident);
		free(owned_msg);
	}
	if (sm_commit_write(repo, pick, committer, msg, &tree, &after_id, &base) < 0)
		goto out;
	ret = replay(repo, branch, &ch, &base, committer, &new_tip, res);
	if (ret == SM_PICK_CLEAN &&
	    update_branch(repo, ref, git_reference_shorthand(ref), &tip, &new_tip, "insert", res) < 0)
		ret = -1;
out:
	free(msg);
	free(ident);
	git_signature_free(committer);
	git_commit_free(pick);
	git_commit_free(after);
	git_reference_free(ref);
	free(ch.ids);
	return ret;
}

void sm_rewrite_result_release(struct sm_rewrite_result *res)
{
	free(res->backup_ref);
	free(res->conflict_subject);
	strlist_clear(&res->conflict_paths);
	strlist_clear(&res->fixed_by);
	memset(res, 0, sizeof(*res));
}

void sm_rewrite_result_json(const struct sm_rewrite_result *res, const char *branch,
			    int status, struct json_writer *w)
{
	json_object_begin(w, NULL);
	json_string(w, "branch", branch);
	json_bool(w, "rewritten", status == SM_PICK_CLEAN);
	json_string(w, "old_tip", res->old_tip);
	if (status == SM_PICK_CLEAN) {
		json_string(w, "new_tip", res->new_tip);
		json_string(w, "backup", res->backup_ref);
		json_int(w, "replayed", (long long)res->replayed);
		json_strlist(w, "fixed_by", &res->fixed_by);
	} else {
		json_object_begin(w, "conflict");
		json_string(w, "commit", res->conflict_commit);
		json_string(w, "subject", res->conflict_subject ? res->conflict_subject : "");
		json_strlist(w, "paths", &res->conflict_paths);
		json_object_end(w);
	}
	json_object_end(w);
}
