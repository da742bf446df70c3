#include "trees/deps.h"
#include "trees/deps_search.h"
#include "trees/part_tree.h"
#include "trees/patchid.h"
#include "trees/tree_state.h"
#include "trees/repo.h"
#include "trees/trial.h"
#include "lib/json.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct sm_dep *dep_get(struct sm_deps_result *res, const git_oid *id)
{
	char hex[41];
	struct sm_dep *d;

	git_oid_tostr(hex, sizeof(hex), id);
	for (size_t i = 0; i < res->nr; i++)
		if (!strcmp(res->deps[i].id, hex))
			return &res->deps[i];
	ALLOC_GROW(res->deps, res->nr, res->alloc);
	d = &res->deps[res->nr++];
	memset(d, 0, sizeof(*d));
	memcpy(d->id, hex, 41);
	d->level = res->level;
	return d;
}

static size_t blob_lines(git_repository *repo, git_commit *c, const char *path)
{
	git_tree *tree = NULL;
	git_tree_entry *te = NULL;
	git_blob *blob = NULL;
	size_t n = 0;

	if (git_commit_tree(&tree, c) == 0 && git_tree_entry_bypath(&te, tree, path) == 0 &&
	    git_blob_lookup(&blob, repo, git_tree_entry_id(te)) == 0) {
		const char *p = git_blob_rawcontent(blob);
		size_t len = (size_t)git_blob_rawsize(blob);

		for (size_t i = 0; i < len; i++)
			n += p[i] == '\n';
		if (len && p[len - 1] != '\n')
			n++;
	}
	git_blob_free(blob);
	git_tree_entry_free(te);
	git_tree_free(tree);
	return n;
}

static int path_in_commit(git_commit *c, const char *path)
{
	git_tree *tree = NULL;
	int found = git_commit_tree(&tree, c) == 0 && sm_tree_blob_at(tree, path, NULL);

	git_tree_free(tree);
	return found;
}

static int blame_range(git_repository *repo, git_commit *parent, const git_oid *base,
		       const char *path, size_t from, size_t to, struct sm_deps_result *res)
{
	git_blame_options opts;
	git_blame *blame = NULL;

	git_blame_options_init(&opts, GIT_BLAME_OPTIONS_VERSION);
	git_oid_cpy(&opts.newest_commit, git_commit_id(parent));
	if (base)
		git_oid_cpy(&opts.oldest_commit, base);
	opts.min_line = from;
	opts.max_line = to;
	if (git_blame_file(&blame, repo, path, &opts) < 0)
		return sm_error("%s: blame failed (%s)", path, sm_git_error());
	for (uint32_t i = 0; i < git_blame_get_hunk_count(blame); i++) {
		const git_blame_hunk *h = git_blame_get_hunk_byindex(blame, i);
		const char *as;
		struct sm_dep *d;

		if (!h || h->boundary || (base && git_oid_equal(&h->final_commit_id, base)))
			continue;
		/* the file as that commit named it: blame follows moves */
		as = h->orig_path ? h->orig_path : path;
		d = dep_get(res, &h->final_commit_id);
		d->lines += (unsigned)h->lines_in_hunk;
		if (!strlist_contains(&d->paths, as))
			strlist_append(&d->paths, as);
	}
	git_blame_free(blame);
	return 0;
}

static int cmp_dep(const void *a, const void *b)
{
	const struct sm_dep *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* the same second: what a dependency needs goes first */
	if (x->level != y->level)
		return x->level > y->level ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* Blames the lines c changes (one line of context either side; for a pure
 * addition the lines around it) in c's parent, back to base, adding every
 * commit found to res at res->level. Files of c the tree's tip lacks go to
 * missing_files when note_missing (the fix itself, not its dependencies). */
static int blame_changes(git_repository *repo, git_commit *c, git_commit *tip,
			 const git_oid *base, int note_missing, struct sm_deps_result *res)
{
	git_commit *parent = NULL;
	git_tree *old_tree = NULL, *new_tree = NULL;
	git_diff *diff = NULL;
	git_diff_options dopts;
	char hex[GIT_OID_HEXSZ + 1];
	int ret = -1;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
	if (git_commit_parentcount(c) != 1)
		return sm_error("%.12s: not a commit with one parent", hex);
	if (git_commit_parent(&parent, c, 0) < 0 || git_commit_tree(&old_tree, parent) < 0 ||
	    git_commit_tree(&new_tree, c) < 0) {
		sm_error("%.12s: %s", hex, sm_git_error());
		goto out;
	}
	sm_diff_options_init(&dopts);
	dopts.context_lines = 0;
	if (sm_diff_changed_files(&diff, repo, old_tree, new_tree, &dopts) < 0) {
		sm_error("%.12s: cannot diff (%s)", hex, sm_git_error());
		goto out;
	}
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *dl = git_diff_get_delta(diff, i);
		const char *path = dl->old_file.path;
		git_patch *patch = NULL;
		size_t nlines;

		if (dl->status == GIT_DELTA_ADDED)
			continue;
		if (note_missing && !path_in_commit(tip, path) &&
		    !strlist_contains(&res->missing_files, path))
			strlist_append(&res->missing_files, path);
		nlines = blob_lines(repo, parent, path);
		if (!nlines || git_patch_from_diff(&patch, diff, i) < 0 || !patch)
			continue;
		for (size_t h = 0; h < git_patch_num_hunks(patch); h++) {
			const git_diff_hunk *hunk;
			size_t from, to, nl;

			if (git_patch_get_hunk(&hunk, &nl, patch, h) < 0)
				continue;
			if (hunk->old_lines > 0) {
				from = hunk->old_start;
				to = hunk->old_start + hunk->old_lines - 1;
			} else {	/* pure addition: the lines around it */
				from = hunk->old_start ? hunk->old_start : 1;
				to = hunk->old_start + 1;
			}
			/* One line either side: a change next to another one
			 * conflicts just the same. */
			if (from > 1)
				from--;
			to++;
			if (to > nlines)
				to = nlines;
			if (from > to)
				from = to;
			if (blame_range(repo, parent, base, path, from, to, res) < 0) {
				git_patch_free(patch);
				goto out;
			}
		}
		git_patch_free(patch);
	}
	ret = 0;
out:
	git_diff_free(diff);
	git_tree_free(old_tree);
	git_tree_free(new_tree);
	git_commit_free(parent);
	return ret;
}

/* The prerequisites c's stable tags name for the tree, as level-1
 * dependencies (named); an id the repository lacks goes to
 * unknown_prereqs, as written. */
static void tag_prereqs(git_repository *repo, git_commit *c, const struct sm_tree_spec *tree,
			struct sm_deps_result *res)
{
	struct sm_commit msg;

	if (sm_commit_load(repo, c, 0, &msg, NULL) < 0) {
		sm_clear_error();	/* it was read already: a message parses */
		return;
	}
	for (size_t k = 0; k < msg.nr_stable; k++) {
		const struct sm_stable_tag *st = &msg.stable[k];
		git_oid id;

		if (!st->prereq_sha || sm_stable_tag_wants(st, &tree->version) == 0)
			continue;
		if (sm_resolve_hex(repo, st->prereq_sha, &id) < 0) {
			if (!strlist_contains(&res->unknown_prereqs, st->prereq_sha))
				strlist_append(&res->unknown_prereqs, st->prereq_sha);
			continue;
		}
		dep_get(res, &id)->named = 1;
	}
	sm_commit_release(&msg);
}

/* Is d already in the tree? If not, fills its subject, time and new-file
 * flag. 1 in the tree (or unreadable), 0 a real dependency. */
static int settle_dep(git_repository *repo, struct sm_tree_state *t, struct sm_dep *d,
		      struct sm_deps_result *res)
{
	git_commit *dc = NULL;
	git_oid did;

	git_oid_fromstr(&did, d->id);
	if (git_commit_lookup(&dc, repo, &did) < 0)
		return 1;
	d->subject = sm_commit_subject(dc);
	if (sm_tree_state_has(t, repo, &did, d->id, d->subject)) {
		res->already_in_tree++;
		git_commit_free(dc);
		return 1;
	}
	d->time = (long long)git_commit_time(dc);
	/* created the file, and not just moved it: a feature */
	for (size_t k = 0; git_commit_parentcount(dc) == 1 && k < d->paths.nr; k++) {
		char *from = NULL;

		if (sm_path_change_in(repo, dc, d->paths.items[k], &from) == SM_PATH_ADDED)
			d->new_file = 1;
		free(from);
	}
	sm_clear_error();
	git_commit_free(dc);
	return 0;
}

/* Where each file of the fix that the tree lacks comes from: one mainline
 * moved after the tree's release is there under its old name, and is no
 * missing feature (it leaves missing_files). history (base..fix) is walked
 * here when it is first needed, and kept for the search. */
static void place_missing(git_repository *repo, git_commit *fix, git_commit *tip,
			  const git_oid *base, struct sm_deps_history *history, int *has_history,
			  struct sm_deps_result *res)
{
	struct strlist missing = STRLIST_INIT;
	git_tree *tip_tree = NULL;

	if (!res->missing_files.nr || !base)
		return;
	if (!*has_history) {
		if (sm_deps_history_build(history, repo, git_commit_id(fix), base) < 0) {
			sm_clear_error();	/* no walk: the files stay missing */
			return;
		}
		*has_history = 1;
	}
	if (git_commit_tree(&tip_tree, tip) < 0) {
		sm_clear_error();
		return;
	}
	res->origins = xcalloc(res->missing_files.nr, sizeof(*res->origins));
	for (size_t k = 0; k < res->missing_files.nr; k++) {
		struct sm_path_origin *o = &res->origins[res->nr_origins++];
		const char *path = res->missing_files.items[k];

		if (sm_path_origin_find(repo, history, fix, tip_tree, path, o) < 0) {
			sm_clear_error();	/* unread history: missing, origin unknown */
			o->path = xstrdup(path);
		}
		if (!o->tree_path)
			strlist_append(&missing, path);
	}
	strlist_clear(&res->missing_files);
	res->missing_files = missing;
	git_tree_free(tip_tree);
}

/* What the tree makes of each outside id (sm_deps_depth): listed already,
 * carried, lacking, unknown to the repository, the fix itself or a merge
 * (enum sm_outside_state). */
static void settle_outside(git_repository *repo, struct sm_tree_state *t,
			   const struct strlist *outside, struct sm_deps_result *res)
{
	res->outside = xcalloc(outside->nr + 1, sizeof(*res->outside));
	for (size_t k = 0; k < outside->nr; k++) {
		struct sm_outside_dep *o = &res->outside[res->nr_outside++];
		git_commit *oc = NULL;
		git_oid oid;
		char *subject;

		o->as_written = xstrdup(outside->items[k]);
		o->state = SM_OUTSIDE_UNKNOWN;
		if (sm_resolve_hex(repo, o->as_written, &oid) < 0 ||
		    git_commit_lookup(&oc, repo, &oid) < 0) {
			sm_clear_error();
			continue;
		}
		git_oid_tostr(o->id, sizeof(o->id), &oid);
		o->time = (long long)git_commit_time(oc);
		o->state = SM_OUTSIDE_NEEDED;
		if (!strcmp(o->id, res->fix))
			o->state = SM_OUTSIDE_FIX;
		else if (git_commit_parentcount(oc) != 1)
			o->state = SM_OUTSIDE_MERGE;
		for (size_t i = 0; i < res->nr; i++)
			if (!strcmp(res->deps[i].id, o->id))
				o->state = SM_OUTSIDE_LISTED;
		if (o->state == SM_OUTSIDE_NEEDED) {
			subject = sm_commit_subject(oc);
			if (sm_tree_state_has(t, repo, &oid, o->id, subject))
				o->state = SM_OUTSIDE_IN_TREE;
			free(subject);
		}
		git_commit_free(oc);
	}
}

/* The fix after deps[] and the NEEDED outside ids, in commit order (the
 * ids and times settle_outside read, as sm_dep links for sm_deps_sort). */
static void try_with_outside(git_repository *repo, struct sm_tree_state *t,
			     struct sm_trial *trial, struct sm_deps_result *res)
{
	struct sm_dep *outside = xcalloc(res->nr_outside + 1, sizeof(*outside));
	struct sm_dep **order = xcalloc(res->nr + res->nr_outside + 1, sizeof(*order));
	const char **ids;
	size_t n = 0, nr_outside = 0;

	res->applies_with_outside = -1;
	for (size_t i = 0; i < res->nr; i++)
		order[n++] = &res->deps[i];
	for (size_t k = 0; k < res->nr_outside; k++) {
		struct sm_dep *d = &outside[nr_outside];

		if (res->outside[k].state != SM_OUTSIDE_NEEDED)
			continue;
		memcpy(d->id, res->outside[k].id, sizeof(d->id));
		d->time = res->outside[k].time;
		order[n++] = d;
		nr_outside++;
	}
	if (nr_outside) {
		sm_deps_sort(repo, order, n);
		ids = xcalloc(n + 1, sizeof(*ids));
		for (size_t i = 0; i < n; i++)
			ids[i] = order[i]->id;
		ids[n] = res->fix;
		res->applies_with_outside = sm_trial_applies(trial, &t->tip, ids, n + 1,
							     &res->conflicts_with_outside);
		free(ids);
	}
	free(order);
	free(outside);
}

/* Does the fix apply to the tree's tip alone, and after its dependencies?
 * The answer a maintainer wants next: whether the list is enough. When it
 * is not, the search (search_max > 0) for what else it needs. */
static void try_apply(git_repository *repo, struct sm_tree_state *t, git_commit *fix,
		      const git_oid *base, const struct sm_deps_history *history,
		      unsigned search_max, struct sm_deps_result *res)
{
	struct sm_trial trial;
	const char **ids;

	res->applies_alone = res->applies_after = -1;
	if (sm_trial_open(&trial, repo) < 0) {
		sm_clear_error();
		return;
	}
	ids = xcalloc(res->nr + 2, sizeof(*ids));
	for (size_t i = 0; i < res->nr; i++)
		ids[i] = res->deps[i].id;
	ids[res->nr] = res->fix;
	res->applies_alone = sm_trial_applies(&trial, &t->tip, &ids[res->nr], 1,
					      &res->conflicts_alone);
	res->change_there = res->applies_alone == 1 && trial.unchanged;
	if (res->nr)
		res->applies_after = sm_trial_applies(&trial, &t->tip, ids, res->nr + 1,
						      &res->conflicts_after);
	if (search_max && base && (res->nr ? res->applies_after : res->applies_alone) == 0)
		sm_deps_search(repo, t, &trial, fix, base, history, ids, res->nr, search_max,
			       &res->search);
	try_with_outside(repo, t, &trial, res);
	free(ids);
	sm_trial_release(&trial);
}

/* Does the tree carry the fix itself (by upstream id, patch-id or subject,
 * and not reverted)? Then res says as what, and how it was matched: until
 * 2026-12-06 deps went on to list what the fix needs, and a tree with an
 * adjusted backport of it read as one the fix conflicts on. */
static int carried(git_repository *repo, struct sm_tree_state *t, const git_oid *fid,
		   struct sm_deps_result *res)
{
	const struct sm_upstream_entry *e;
	enum sm_match how;
	char patch_id[41];

	if (sm_patch_id_commit(repo, fid, patch_id) < 0) {
		sm_clear_error();
		patch_id[0] = '\0';
	}
	e = sm_upstream_index_find(&t->idx, res->fix, patch_id, res->subject, &how);
	if (!e || sm_tree_state_revert_of(t, e))
		return 0;
	memcpy(res->present_as, e->stable, 41);
	res->present_how = sm_match_name(how);
	return 1;
}

static int deps_walk(git_repository *repo, const char *fix, const struct sm_tree_spec *tree,
		     const char *cache_dir, unsigned max_depth, int trial, unsigned search_max,
		     const struct strlist *outside, struct sm_deps_result *res)
{
	struct sm_tree_state t;
	struct sm_deps_history history = { 0 };
	git_commit *c = NULL, *parent = NULL, *tip = NULL;
	git_oid fid, base;
	int has_base = 0, has_history = 0, ret = -1;
	size_t kept = 0, level_start = 0;
	unsigned char *in_tree = NULL;
	size_t in_tree_alloc = 0;

	memset(res, 0, sizeof(*res));
	if (sm_resolve_commit(repo, fix, &fid) < 0)
		return -1;
	git_oid_tostr(res->fix, sizeof(res->fix), &fid);
	if (sm_tree_state_open(&t, tree, repo, NULL, cache_dir) < 0)
		return -1;
	if (git_commit_lookup(&c, repo, &fid) < 0 || git_commit_parentcount(c) != 1) {
		sm_error("%s: not a commit with one parent", fix);
		goto out;
	}
	res->subject = sm_commit_subject(c);
	res->applies_alone = res->applies_after = res->applies_with_outside = -1;
	if (carried(repo, &t, &fid, res)) {
		ret = 0;
		goto out;
	}
	if (git_commit_parent(&parent, c, 0) < 0 || git_commit_lookup(&tip, repo, &t.tip) < 0) {
		sm_error("%s: %s", fix, sm_git_error());
		goto out;
	}
	if (t.has_base) {
		base = t.base;
		has_base = 1;
	} else if (git_merge_base(&base, repo, &t.tip, git_commit_id(parent)) == 0) {
		has_base = 1;
	}
	if (has_base) {
		git_oid_tostr(res->base, sizeof(res->base), &base);
		snprintf(res->base_name, sizeof(res->base_name), "%.12s", res->base);
	}
	if (t.has_base && t.base_name[0])
		snprintf(res->base_name, sizeof(res->base_name), "%s", t.base_name);
	res->level = 1;
	if (blame_changes(repo, c, tip, has_base ? &base : NULL, 1, res) < 0)
		goto out;
	tag_prereqs(repo, c, tree, res);
	place_missing(repo, c, tip, has_base ? &base : NULL, &history, &has_history, res);
	/* Level by level: settle what the last level found (drop what the tree
	 * carries), then blame the new dependencies' own changes, until a level
	 * finds nothing new, max_depth (0: no limit) or SM_DEPS_MAX commits. */
	while (level_start < res->nr) {
		size_t level_end = res->nr;

		if (in_tree_alloc < level_end) {
			in_tree = xrealloc(in_tree, level_end);
			memset(in_tree + in_tree_alloc, 0, level_end - in_tree_alloc);
			in_tree_alloc = level_end;
		}
		for (size_t i = level_start; i < level_end; i++)
			in_tree[i] = (unsigned char)settle_dep(repo, &t, &res->deps[i], res);
		if ((max_depth && res->level >= max_depth) || res->nr >= SM_DEPS_MAX) {
			/* cut short when a dependency of this level was not followed */
			for (size_t i = level_start; i < level_end; i++)
				if (!in_tree[i])
					res->truncated = 1;
			break;
		}
		res->level++;
		for (size_t i = level_start; i < level_end && res->nr < SM_DEPS_MAX; i++) {
			git_commit *dc = NULL;
			git_oid did;

			if (in_tree[i])
				continue;
			git_oid_fromstr(&did, res->deps[i].id);
			if (git_commit_lookup(&dc, repo, &did) < 0)
				continue;
			if (git_commit_parentcount(dc) == 1 &&
			    blame_changes(repo, dc, tip, has_base ? &base : NULL, 0, res) < 0) {
				git_commit_free(dc);
				goto out;
			}
			git_commit_free(dc);
		}
		level_start = level_end;
	}
	/* the fix itself may show up as a dependency of a dependency: never */
	for (size_t i = 0; i < res->nr; i++) {
		struct sm_dep *d = &res->deps[i];

		if ((i < in_tree_alloc && in_tree[i]) || !strcmp(d->id, res->fix) ||
		    (i >= in_tree_alloc)) {
			free(d->subject);
			strlist_clear(&d->paths);
			continue;
		}
		res->deps[kept++] = *d;
	}
	res->nr = kept;
	if (res->nr > 1)	/* deps is NULL when nothing was found: qsort wants non-NULL */
		qsort(res->deps, res->nr, sizeof(*res->deps), cmp_dep);
	res->applies_alone = res->applies_after = res->applies_with_outside = -1;
	if (outside && outside->nr)
		settle_outside(repo, &t, outside, res);
	if (trial)
		try_apply(repo, &t, c, has_base ? &base : NULL, has_history ? &history : NULL,
			  search_max, res);
	ret = 0;
out:
	sm_deps_history_release(&history);
	free(in_tree);
	git_commit_free(tip);
	git_commit_free(parent);
	git_commit_free(c);
	sm_tree_state_close(&t);
	if (ret < 0)
		sm_deps_result_release(res);
	return ret;
}

int sm_deps_depth(git_repository *repo, const char *fix, const struct sm_tree_spec *tree,
		  const char *cache_dir, unsigned max_depth, unsigned search_max,
		  const struct strlist *outside, struct sm_deps_result *res)
{
	return deps_walk(repo, fix, tree, cache_dir, max_depth, 1, search_max, outside, res);
}

int sm_deps(git_repository *repo, const char *fix, const struct sm_tree_spec *tree,
	    const char *cache_dir, struct sm_deps_result *res)
{
	return deps_walk(repo, fix, tree, cache_dir, 1, 0, 0, NULL, res);
}

void sm_deps_result_release(struct sm_deps_result *res)
{
	for (size_t i = 0; i < res->nr; i++) {
		free(res->deps[i].subject);
		strlist_clear(&res->deps[i].paths);
	}
	free(res->deps);
	free(res->subject);
	strlist_clear(&res->missing_files);
	for (size_t k = 0; k < res->nr_origins; k++)
		sm_path_origin_release(&res->origins[k]);
	free(res->origins);
	strlist_clear(&res->unknown_prereqs);
	strlist_clear(&res->conflicts_alone);
	strlist_clear(&res->conflicts_after);
	sm_deps_search_release(&res->search);
	for (size_t k = 0; k < res->nr_outside; k++)
		free(res->outside[k].as_written);
	free(res->outside);
	strlist_clear(&res->conflicts_with_outside);
	memset(res, 0, sizeof(*res));
}

static void dep_json(const struct sm_dep *d, struct json_writer *w)
{
	json_object_begin(w, NULL);
	JSON_STRINGS(w, "id subject", d->id, d->subject);
	JSON_INTS(w, "lines level", d->lines, d->level);
	json_bool(w, "new_file", d->new_file);
	json_bool(w, "named_by_tag", d->named);
	json_strlist(w, "paths", &d->paths);
	json_object_end(w);
}

void sm_deps_result_json(const struct sm_deps_result *res, const char *tree,
			 struct json_writer *w)
{
	json_object_begin(w, NULL);
	sm_deps_result_json_members(res, tree, w);
	json_object_end(w);
}

void sm_deps_result_json_members(const struct sm_deps_result *res, const char *tree,
				 struct json_writer *w)
{
	JSON_STRINGS(w, "fix subject tree base", res->fix, res->subject, tree,
		     res->base[0] ? res->base : NULL);
	JSON_STRINGS(w, "present_as matched_by", res->present_as[0] ? res->present_as : NULL,
		     res->present_how);
	JSON_INTS(w, "already_in_tree levels", res->already_in_tree, res->level);
	json_bool(w, "truncated", res->truncated);
	json_array_begin(w, "deps");
	for (size_t i = 0; i < res->nr; i++)
		dep_json(&res->deps[i], w);
	json_array_end(w);
	json_strlist(w, "files_not_in_tree", &res->missing_files);
	json_bool(w, "feature_missing", res->missing_files.nr > 0);
	json_array_begin(w, "files_origin");
	for (size_t k = 0; k < res->nr_origins; k++) {
		const struct sm_path_origin *o = &res->origins[k];

		json_object_begin(w, NULL);
		JSON_STRINGS(w, "path tree_path by subject", o->path, o->tree_path,
			     o->by[0] ? o->by : NULL, o->subject);
		json_object_end(w);
	}
	json_array_end(w);
	json_strlist(w, "prereqs_not_found", &res->unknown_prereqs);
	json_bool_or_null(w, "applies_alone", res->applies_alone);
	json_bool(w, "change_there", res->change_there);
	json_bool_or_null(w, "applies_after_deps", res->applies_after);
	json_strlist(w, "conflicts_alone", &res->conflicts_alone);
	json_strlist(w, "conflicts_after_deps", &res->conflicts_after);
	json_array_begin(w, "outside");
	for (size_t k = 0; k < res->nr_outside; k++) {
		static const char *const state[] = {
			[SM_OUTSIDE_LISTED] = "listed", [SM_OUTSIDE_IN_TREE] = "in_tree",
			[SM_OUTSIDE_NEEDED] = "needed", [SM_OUTSIDE_UNKNOWN] = "unknown",
			[SM_OUTSIDE_FIX] = "fix", [SM_OUTSIDE_MERGE] = "merge",
		};
		const struct sm_outside_dep *o = &res->outside[k];

		json_object_begin(w, NULL);
		JSON_STRINGS(w, "id commit state", o->as_written, o->id[0] ? o->id : NULL,
			     state[o->state]);
		json_object_end(w);
	}
	json_array_end(w);
	json_bool_or_null(w, "applies_with_outside", res->applies_with_outside);
	json_strlist(w, "conflicts_with_outside", &res->conflicts_with_outside);
	if (res->search.tried) {
		json_object_begin(w, "search");
		json_bool(w, "applies", res->search.applies);
		json_int(w, "considered", (long long)res->search.considered);
		json_bool(w, "more", res->search.more);
		json_array_begin(w, "extra");
		for (size_t i = 0; i < res->search.nr; i++) {
			const struct sm_dep *d = &res->search.extra[i];

			json_object_begin(w, NULL);
			JSON_STRINGS(w, "id subject", d->id, d->subject);
			json_strlist(w, "paths", &d->paths);
			json_object_end(w);
		}
		json_array_end(w);
		json_object_end(w);
	} else {
		json_null(w, "search");
	}
}
