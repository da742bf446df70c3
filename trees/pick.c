#include "trees/pick.h"
#include "trees/repo.h"
#include "trees/part_tree.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include <string.h>

/* Can gone (a conflict's file the tree deleted, its blob before) and
 * added (one only the tree has, its blob) be one file the tree moved?
 * Half alike or more, as git calls a rename (libgit2's merge leaves small
 * files out of its rename search). */
static int one_file(git_repository *repo, const git_oid *gone, const git_oid *added)
{
	git_hashsig *a = sm_blob_signature(repo, gone), *b = a ? sm_blob_signature(repo, added) : NULL;
	int alike = a && b && git_hashsig_compare(a, b) >= 50;

	git_hashsig_free(a);
	git_hashsig_free(b);
	return alike;
}

/* The paths of index's conflicts, each once, appended to out. A file the
 * tree moved and the change edits can conflict under both names, as two
 * entries libgit2 does not tie together: the old name (no "ours": the
 * tree deleted it there) and the new (only "ours": the tree added it).
 * When the two are alike, the old name is left out: one file, named as
 * the tree has it. */
static void conflict_paths(git_repository *repo, git_index *index, struct strlist *out,
			   struct strlist *moved_from)
{
	git_index_conflict_iterator *it = NULL;
	const git_index_entry *anc, *ours, *theirs;
	struct strlist gone = STRLIST_INIT, added = STRLIST_INIT;
	/* blob ids by the lists' order; no more than the index's entries */
	size_t most = git_index_entrycount(index) + 1;
	git_oid *gone_ids, *added_ids;

	if (git_index_conflict_iterator_new(&it, index) < 0)
		return;
	gone_ids = xcalloc(most, sizeof(*gone_ids));
	added_ids = xcalloc(most, sizeof(*added_ids));
	while (git_index_conflict_next(&anc, &ours, &theirs, it) == 0) {
		const char *path = ours ? ours->path : theirs ? theirs->path : anc ? anc->path : "?";
		int listed = strlist_contains(out, path);	/* by an earlier merge */

		if (!listed)
			strlist_append(out, path);
		if (!ours && anc) {
			if (listed)
				continue;	/* not this merge's to take out */
			git_oid_cpy(&gone_ids[gone.nr], &anc->id);
			strlist_append(&gone, path);
		} else if (ours && !anc && !theirs) {
			git_oid_cpy(&added_ids[added.nr], &ours->id);
			strlist_append(&added, path);
		}
	}
	git_index_conflict_iterator_free(it);
	for (size_t i = 0; i < gone.nr; i++) {
		int moved = 0;

		for (size_t k = 0; k < added.nr && !moved; k++)
			moved = one_file(repo, &gone_ids[i], &added_ids[k]);
		if (!moved)
			continue;
		strlist_remove(out, gone.items[i]);
		if (moved_from)
			strlist_append(moved_from, gone.items[i]);
	}
	free(gone_ids);
	free(added_ids);
	strlist_clear(&gone);
	strlist_clear(&added);
}

/* The merge of whole trees; a clean one's tree into *merged. */
static int merge_whole(git_repository *repo, git_tree *base, git_tree *onto, git_tree *theirs,
		       const git_merge_options *opts, git_oid *merged, struct strlist *conflicts,
		       struct strlist *moved_from)
{
	git_index *index = NULL;
	int ret = SM_PICK_CLEAN;

	if (git_merge_trees(&index, repo, base, onto, theirs, opts) < 0)
		return -1;
	if (git_index_has_conflicts(index)) {
		if (conflicts)
			conflict_paths(repo, index, conflicts, moved_from);
		ret = SM_PICK_CONFLICT;
	} else if (git_index_write_tree_to(merged, index, repo) < 0) {
		ret = -1;
	}
	git_index_free(index);
	return ret;
}

/* The merge of the three trees' files at paths alone (part_tree.h), its
 * result put back over onto into *merged. */
static int merge_parts(git_repository *repo, git_tree *base, git_tree *onto, git_tree *theirs,
		       const git_merge_options *opts, const struct strlist *paths,
		       git_oid *merged, struct strlist *conflicts)
{
	git_tree *part[3] = { NULL, NULL, NULL }, *result = NULL;
	git_tree *whole[3] = { base, onto, theirs };
	git_oid id;
	int ret = 0;

	for (int k = 0; k < 3 && !ret; k++)
		ret = sm_part_tree(repo, whole[k], paths, &id) < 0 ||
		      git_tree_lookup(&part[k], repo, &id) < 0 ? -1 : 0;
	if (!ret)
		ret = merge_whole(repo, part[0], part[1], part[2], opts, &id, conflicts, NULL);
	if (ret == SM_PICK_CLEAN &&
	    (git_tree_lookup(&result, repo, &id) < 0 ||
	     sm_part_overlay(repo, onto, result, paths, merged) < 0))
		ret = -1;
	git_tree_free(result);
	for (int k = 0; k < 3; k++)
		git_tree_free(part[k]);
	return ret;
}

/* Does onto have every file of paths that base has (at that path)? Then
 * no file the change from base edits, deletes or renames was moved in
 * onto, and a merge of those files alone is the merge of the trees. */
static int onto_has_all(git_tree *base, git_tree *onto, const struct strlist *paths)
{
	for (size_t i = 0; i < paths->nr; i++)
		if (sm_tree_blob_at(base, paths->items[i], NULL) &&
		    !sm_tree_blob_at(onto, paths->items[i], NULL))
			return 0;
	return 1;
}

int sm_merge_change(git_repository *repo, git_tree *base, git_tree *onto, git_tree *theirs,
		    git_oid *merged, struct strlist *conflicts, struct strlist *moved_from)
{
	git_merge_options opts;
	struct strlist paths = STRLIST_INIT;
	int ret;

	git_merge_options_init(&opts, GIT_MERGE_OPTIONS_VERSION);
	opts.flags |= GIT_MERGE_FIND_RENAMES;
	if (sm_tree_diff_paths(repo, base, theirs, &paths) < 0)
		ret = -1;
	/* a file onto moved must be found by libgit2's rename search, which
	 * reads all of onto: only then are the whole trees merged */
	else if (onto_has_all(base, onto, &paths))
		ret = merge_parts(repo, base, onto, theirs, &opts, &paths, merged, conflicts);
	else
		ret = merge_whole(repo, base, onto, theirs, &opts, merged, conflicts, moved_from);
	strlist_clear(&paths);
	return ret;
}

int sm_pick_merge(git_repository *repo, git_commit *pick, git_tree *onto, git_oid *merged,
		  struct strlist *conflicts, struct strlist *moved_from)
{
	git_commit *parent = NULL;
	git_tree *base = NULL, *theirs = NULL;
	char hex[41];
	int ret = -1;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
	if (git_commit_parentcount(pick) > 1)
		return sm_error("commit %.12s: is a merge; stablemate does not replay merges", hex);
	if (git_commit_parentcount(pick) == 0)
		return sm_error("commit %.12s: is a root commit; nothing to cherry-pick against", hex);
	/* git_cherrypick_commit's merge, on a tree instead of a commit: the
	 * change from the first parent to pick, merged onto onto */
	if (git_commit_parent(&parent, pick, 0) < 0 || git_commit_tree(&base, parent) < 0 ||
	    git_commit_tree(&theirs, pick) < 0 ||
	    (ret = sm_merge_change(repo, base, onto, theirs, merged, conflicts, moved_from)) < 0)
		ret = sm_error("commit %.12s: cherry-pick failed (%s)", hex, sm_git_error());
	git_tree_free(theirs);
	git_tree_free(base);
	git_commit_free(parent);
	return ret;
}

/* Is path the same in merged as in onto: both without it, or both with
 * the same blob and mode? */
static int same_in_both(git_tree *merged, git_tree *onto, const char *path)
{
	git_tree_entry *a = NULL, *b = NULL;
	int same;

	if (git_tree_entry_bypath(&a, merged, path) < 0)
		a = NULL;
	if (git_tree_entry_bypath(&b, onto, path) < 0)
		b = NULL;
	if (!a || !b)
		same = !a && !b;
	else
		same = git_oid_equal(git_tree_entry_id(a), git_tree_entry_id(b)) &&
		       git_tree_entry_filemode(a) == git_tree_entry_filemode(b);
	git_tree_entry_free(a);
	git_tree_entry_free(b);
	return same;
}

int sm_pick_changes_nothing(git_repository *repo, git_commit *pick, git_tree *onto,
			    git_tree *merged)
{
	git_commit *parent = NULL;
	git_tree *before = NULL, *after = NULL;
	struct strlist paths = STRLIST_INIT;
	int nothing = 0;

	if (git_commit_parent(&parent, pick, 0) < 0 || git_commit_tree(&before, parent) < 0 ||
	    git_commit_tree(&after, pick) < 0 || sm_tree_diff_paths(repo, before, after, &paths) < 0)
		goto out;
	nothing = paths.nr > 0;
	for (size_t i = 0; nothing && i < paths.nr; i++) {
		const char *path = paths.items[i];

		/* a file the tree lacks at the pick's path (mainline moved
		 * it): the merge may have changed it under its other name,
		 * which these paths do not show, so nothing certain */
		if (sm_tree_blob_at(before, path, NULL) && !sm_tree_blob_at(onto, path, NULL))
			nothing = 0;
		else
			nothing = same_in_both(merged, onto, path);
	}
out:
	strlist_clear(&paths);
	git_tree_free(after);
	git_tree_free(before);
	git_commit_free(parent);
	sm_clear_error();
	return nothing;
}

int sm_pick_tree(git_repository *repo, git_commit *pick, git_commit *onto, git_oid *tree,
		 struct strlist *conflicts)
{
	git_tree *onto_tree = NULL;
	char hex[41];
	int ret;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(pick));
	if (git_commit_tree(&onto_tree, onto) < 0)
		return sm_error("commit %.12s: cannot read the tree to pick onto (%s)", hex,
				sm_git_error());
	ret = sm_pick_merge(repo, pick, onto_tree, tree, conflicts, NULL);
	git_tree_free(onto_tree);
	return ret;
}

char *sm_stable_message(const char *msg, const char *upstream, const char *signoff)
{
	struct strbuf sb = STRBUF_INIT;
	const char *nl = strchr(msg, '\n'), *rest;
	char *sob = NULL, *named = sm_find_stable_upstream_ref(msg, strlen(msg));

	if (!nl)
		nl = msg + strlen(msg);
	if (named) {
		/* a backport from another stable tree: it names its upstream
		 * original already, and upstream (its own id) is none */
		strbuf_addstr(&sb, msg);
		free(named);
	} else {
		strbuf_add(&sb, msg, nl - msg);
		strbuf_addf(&sb, "\n\ncommit %s upstream.\n\n", upstream);
		rest = nl;
		while (*rest == '\n')
			rest++;
		strbuf_addstr(&sb, rest);
	}
	while (sb.len && (sb.buf[sb.len - 1] == '\n' || sb.buf[sb.len - 1] == ' '))
		strbuf_setlen(&sb, sb.len - 1);
	strbuf_addch(&sb, '\n');
	if (signoff) {
		sob = xasprintf("Signed-off-by: %s\n", signoff);
		/* Do not sign twice when the last trailer already is ours. */
		if (sb.len < strlen(sob) || strcmp(sb.buf + sb.len - strlen(sob), sob))
			strbuf_addstr(&sb, sob);
		free(sob);
	}
	return strbuf_detach(&sb, NULL);
}

int sm_ident_parse(git_signature **out, const char *s)
{
	const char *lt = strchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char *name, *email;
	int ret;

	if (!lt || !gt || gt[1] != '\0' || lt == s)
		return sm_error("'%s': not an identity of the form 'Name <email>'", s);
	name = xstrndup(s, lt - s);
	for (size_t n = strlen(name); n && name[n - 1] == ' '; n--)
		name[n - 1] = '\0';
	email = xstrndup(lt + 1, gt - lt - 1);
	ret = git_signature_now(out, name, email);
	free(name);
	free(email);
	if (ret < 0)
		return sm_error("'%s': not a usable identity (%s)", s, sm_git_error());
	return 0;
}

int sm_committer(git_signature **out, git_repository *repo, const char *ident)
{
	if (ident)
		return sm_ident_parse(out, ident);
	if (git_signature_default(out, repo) < 0)
		return sm_error("%s: no identity: set git's user.name and user.email, or pass --signoff",
				sm_repo_name(repo));
	return 0;
}

int sm_commit_write(git_repository *repo, const git_commit *from,
		    const git_signature *committer, const char *msg, const git_oid *tree_id,
		    const git_oid *parent_id, git_oid *out)
{
	git_tree *tree = NULL;
	git_commit *parent = NULL;
	const git_commit *parents[1];
	git_signature *author = NULL, *own_committer = NULL;
	char *owned_msg = NULL;
	int ret = -1;

	if (sm_commit_signature_utf8(&author, from, git_commit_author(from)) < 0 ||
	    (!committer &&
	     sm_commit_signature_utf8(&own_committer, from, git_commit_committer(from)) < 0))
		goto out_quiet;
	if (!msg)
		msg = sm_commit_utf8(from, git_commit_message(from), &owned_msg);
	if (git_tree_lookup(&tree, repo, tree_id) < 0 || git_commit_lookup(&parent, repo, parent_id) < 0)
		goto out;
	parents[0] = parent;
	if (git_commit_create(out, repo, NULL, author, committer ? committer : own_committer,
			      NULL, msg, tree, 1, parents) < 0)
		goto out;
	ret = 0;
out:
	if (ret < 0)
		sm_error("cannot write a commit in %s (%s)", sm_repo_name(repo), sm_git_error());
out_quiet:
	free(owned_msg);
	git_signature_free(author);
	git_signature_free(own_committer);
	git_tree_free(tree);
	git_commit_free(parent);
	return ret;
}
