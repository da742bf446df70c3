/* deps_search: see deps_search.h. */
#include "trees/deps_search.h"
#include "trees/pick.h"
#include "trees/repo.h"
#include "trees/trial.h"
#include "trees/tree_state.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sm_tree_differs_at(git_repository *repo, git_tree *a, git_tree *b, const char *path)
{
	const char *slash = strchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : strlen(path);
	const git_tree_entry *ea, *eb;
	git_tree *sa = NULL, *sb = NULL;
	char name[256];
	int r;

	if (n >= sizeof(name))
		return 1;	/* no such name in git: as changed, to be tried */
	memcpy(name, path, n);
	name[n] = '\0';
	ea = git_tree_entry_byname(a, name);
	eb = git_tree_entry_byname(b, name);
	if (!ea || !eb)
		return ea != eb;
	if (git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)))
		return 0;
	if (!slash)
		return 1;
	if (git_tree_entry_type(ea) != GIT_OBJECT_TREE || git_tree_entry_type(eb) != GIT_OBJECT_TREE ||
	    git_tree_lookup(&sa, repo, git_tree_entry_id(ea)) < 0 ||
	    git_tree_lookup(&sb, repo, git_tree_entry_id(eb)) < 0)
		r = 1;
	else
		r = sm_tree_differs_at(repo, sa, sb, slash + 1);
	git_tree_free(sa);
	git_tree_free(sb);
	return r;
}

/* At most this many commits of a history are read for the search (a
 * bound on a tree far behind mainline; sm_deps_history.truncated). */
#define SEARCH_WALK_MAX 200000

/* Is id (hex) one of ids[0..n)? */
static int in_ids(const char *const *ids, size_t n, const char *id)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(ids[k], id))
			return 1;
	return 0;
}

int sm_deps_history_build(struct sm_deps_history *h, git_repository *repo, const git_oid *tip,
			  const git_oid *base)
{
	git_revwalk *w = NULL;
	git_oid id;

	memset(h, 0, sizeof(*h));
	if (git_revwalk_new(&w, repo) < 0 ||
	    git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME) < 0 ||
	    git_revwalk_push(w, tip) < 0 || git_revwalk_hide(w, base) < 0) {
		git_revwalk_free(w);
		return sm_error("cannot walk the history for the search (%s)", sm_git_error());
	}
	while (git_revwalk_next(&id, w) == 0) {
		git_commit *c = NULL, *parent = NULL;

		if (h->nr >= SEARCH_WALK_MAX) {
			h->truncated = 1;
			break;
		}

		if (git_commit_lookup(&c, repo, &id) == 0 && git_commit_parentcount(c) == 1 &&
		    git_commit_parent(&parent, c, 0) == 0) {
			struct sm_history_commit *e;

			ALLOC_GROW(h->commits, h->nr + 1, h->alloc);
			e = &h->commits[h->nr++];
			git_oid_cpy(&e->id, &id);
			git_oid_cpy(&e->tree, git_commit_tree_id(c));
			git_oid_cpy(&e->parent_tree, git_commit_tree_id(parent));
		}
		git_commit_free(parent);
		git_commit_free(c);
	}
	git_revwalk_free(w);
	sm_clear_error();
	return 0;
}

void sm_deps_history_release(struct sm_deps_history *h)
{
	free(h->commits);
	memset(h, 0, sizeof(*h));
}

/* The commits of h (after the fix, so older) that are the fix's ancestors,
 * change one of paths, are not among deps and the tree lacks: into
 * found[] (paths, subject and time filled in), newest first, at most max;
 * 1 when it stopped at max or h was cut short, with more left to look at. */
static int missing_touching(const struct sm_deps_history *h, git_repository *repo,
			    struct sm_tree_state *t, git_commit *fix, const struct strlist *paths,
			    unsigned max, const char *const *deps, size_t nr_deps,
			    struct sm_dep *found, size_t *nr)
{
	const git_oid *before = git_commit_parent_id(fix, 0);
	size_t from = 0;
	int stopped = 0;

	/* newest first, topologically: nothing before the fix is its
	 * ancestor, and asking libgit2 whether a later commit is one walks
	 * far (so the fix's own place is looked for first) */
	for (size_t i = 0; i < h->nr; i++)
		if (git_oid_equal(&h->commits[i].id, git_commit_id(fix))) {
			from = i + 1;
			break;
		}
	*nr = 0;
	for (size_t i = from; i < h->nr; i++) {
		const struct sm_history_commit *e = &h->commits[i];
		git_tree *mine = NULL, *theirs = NULL;
		git_commit *c = NULL;
		struct sm_dep d;

		if (*nr >= max) {
			stopped = 1;
			break;
		}
		memset(&d, 0, sizeof(d));
		git_oid_tostr(d.id, sizeof(d.id), &e->id);
		if (in_ids(deps, nr_deps, d.id) || git_tree_lookup(&mine, repo, &e->tree) < 0 ||
		    git_tree_lookup(&theirs, repo, &e->parent_tree) < 0) {
			git_tree_free(mine);
			continue;
		}
		for (size_t k = 0; k < paths->nr; k++)
			if (sm_tree_differs_at(repo, mine, theirs, paths->items[k]))
				strlist_append(&d.paths, paths->items[k]);
		git_tree_free(mine);
		git_tree_free(theirs);
		if (d.paths.nr && git_commit_lookup(&c, repo, &e->id) == 0) {
			d.subject = sm_commit_subject(c);
			if (!sm_tree_state_has(t, repo, &e->id, d.id, d.subject) &&
			    (git_oid_equal(&e->id, before) ||
			     git_graph_descendant_of(repo, before, &e->id) == 1)) {
				d.time = (long long)git_commit_time(c);
				found[(*nr)++] = d;
				memset(&d, 0, sizeof(d));
			}
		}
		git_commit_free(c);
		free(d.subject);
		strlist_clear(&d.paths);
	}
	sm_clear_error();
	return stopped || h->truncated;
}

/* One link of a search's chain: a dependency (always in) or a commit the
 * search found (in while it helps). */
struct link {
	struct sm_dep *dep;
	int found;	/* one of the search's, not res->deps */
	int on;
};

int sm_dep_before(git_repository *repo, const struct sm_dep *a, const struct sm_dep *b)
{
	git_oid x, y;

	if (a->time != b->time)
		return a->time < b->time;
	if (git_oid_fromstr(&x, a->id) < 0 || git_oid_fromstr(&y, b->id) < 0)
		return 0;
	if (git_graph_descendant_of(repo, &y, &x) == 1)
		return 1;
	if (git_graph_descendant_of(repo, &x, &y) == 1)
		return 0;
	return strcmp(a->id, b->id) < 0;
}

void sm_deps_sort(git_repository *repo, struct sm_dep **deps, size_t nr)
{
	for (size_t i = 1; i < nr; i++) {
		struct sm_dep *d = deps[i];
		size_t j = i;

		for (; j > 0 && sm_dep_before(repo, d, deps[j - 1]); j--)
			deps[j] = deps[j - 1];
		deps[j] = d;
	}
}

/* chain[0..nr) in commit order (sm_dep_before): an insertion sort, as the
 * order needs the repository (a few dozen links) */
static void sort_chain(git_repository *repo, struct link *chain, size_t nr)
{
	for (size_t i = 1; i < nr; i++) {
		struct link l = chain[i];
		size_t j = i;

		for (; j > 0 && sm_dep_before(repo, l.dep, chain[j - 1].dep); j--)
			chain[j] = chain[j - 1];
		chain[j] = l;
	}
}

/* The chain's commits that are on, then the fix, onto the tip: SM_PICK_*
 * or -1, with the index into chain[] of a link that conflicted (or nr: the
 * fix) in *at. */
static int try_chain(struct sm_trial *trial, const git_oid *tip, const struct link *chain,
		     size_t nr, const char *fix, const char **ids, size_t *at)
{
	size_t n = 0, *map = xcalloc(nr + 1, sizeof(*map)), failed = 0;
	int r;

	for (size_t i = 0; i < nr; i++)
		if (chain[i].on) {
			map[n] = i;
			ids[n++] = chain[i].dep->id;
		}
	map[n] = nr;
	ids[n++] = fix;
	r = sm_trial_apply(trial, tip, ids, n, &failed, NULL);
	sm_clear_error();
	*at = r == SM_PICK_CONFLICT ? map[failed] : nr;
	free(map);
	return r;
}

/* Where fix conflicts on tip, alone and after deps[0..nr_deps), into paths
 * (sm_pick_merge lists a path once), with mainline's names of the files
 * among them the tree moved: commits made before the move changed the
 * tree's name, those after it mainline's. */
static void conflict_paths(struct sm_trial *trial, const git_oid *tip, const char *const *deps,
			   size_t nr_deps, const char *fix, struct strlist *paths)
{
	const char **ids = xcalloc(nr_deps + 1, sizeof(*ids));

	for (size_t k = 0; k < nr_deps; k++)
		ids[k] = deps[k];
	ids[nr_deps] = fix;
	for (int after = 0; after <= (nr_deps > 0); after++) {
		sm_trial_apply(trial, tip, after ? ids : &ids[nr_deps], after ? nr_deps + 1 : 1, NULL,
			       paths);
		for (size_t k = 0; k < trial->moved_from.nr; k++)
			if (!strlist_contains(paths, trial->moved_from.items[k]))
				strlist_append(paths, trial->moved_from.items[k]);
	}
	sm_clear_error();
	free(ids);
}

/* deps[0..n) (full ids in repo) as chain links: their commit times read */
static struct sm_dep *deps_as_links(git_repository *repo, const char *const *ids, size_t n)
{
	struct sm_dep *d = xcalloc(n + 1, sizeof(*d));

	for (size_t k = 0; k < n; k++) {
		git_commit *c = NULL;
		git_oid id;

		snprintf(d[k].id, sizeof(d[k].id), "%s", ids[k]);
		if (git_oid_fromstr(&id, ids[k]) == 0 && git_commit_lookup(&c, repo, &id) == 0)
			d[k].time = (long long)git_commit_time(c);
		git_commit_free(c);
	}
	sm_clear_error();
	return d;
}

void sm_deps_search(git_repository *repo, struct sm_tree_state *t, struct sm_trial *trial,
		    git_commit *fix, const git_oid *base, const struct sm_deps_history *history,
		    const char *const *dep_ids, size_t nr_deps, unsigned max,
		    struct sm_deps_search *out)
{
	struct sm_deps_history own = { 0 };
	struct strlist paths = STRLIST_INIT;
	struct sm_dep *found, *deps;
	struct link *chain = NULL;
	const char **ids = NULL;
	char fix_id[41];
	size_t nr_found = 0, nr = 0, at;
	int r;

	memset(out, 0, sizeof(*out));
	if (!max || !base)
		return;
	if (max > SM_DEPS_SEARCH_MAX)
		max = SM_DEPS_SEARCH_MAX;
	git_oid_tostr(fix_id, sizeof(fix_id), git_commit_id(fix));
	found = xcalloc(max + 1, sizeof(*found));
	deps = deps_as_links(repo, dep_ids, nr_deps);
	/* no walk, no answer: not "the conflict is the tree's own" (base is
	 * not in repo: a --tree-repo clone's release) */
	if (!history) {
		if (sm_deps_history_build(&own, repo, git_commit_id(fix), base) < 0) {
			sm_clear_error();
			goto out;
		}
		history = &own;
	}
	out->tried = 1;
	conflict_paths(trial, &t->tip, dep_ids, nr_deps, fix_id, &paths);
	out->more = missing_touching(history, repo, t, fix, &paths, max, dep_ids, nr_deps, found,
				     &nr_found);
	chain = xcalloc(nr_deps + nr_found + 1, sizeof(*chain));
	ids = xcalloc(nr_deps + nr_found + 2, sizeof(*ids));
	for (size_t k = 0; k < nr_deps; k++)
		chain[nr++] = (struct link){ &deps[k], 0, 1 };
	for (size_t i = 0; i < nr_found; i++)
		chain[nr++] = (struct link){ &found[i], 1, 1 };
	out->considered = nr_found;
	if (!nr_found)
		goto out;
	sort_chain(repo, chain, nr);
	/* all of them, less each that conflicts itself */
	while ((r = try_chain(trial, &t->tip, chain, nr, fix_id, ids, &at)) == SM_PICK_CONFLICT &&
	       at < nr && chain[at].found)
		chain[at].on = 0;
	if (r < 0)	/* one cannot be tried (a dependency the repository lacks) */
		out->tried = 0;
	if (r != SM_PICK_CLEAN)
		goto out;
	/* the fewest: each found one it applies without goes, newest first */
	for (size_t i = nr; i-- > 0;) {
		if (!chain[i].found || !chain[i].on)
			continue;
		chain[i].on = 0;
		if (try_chain(trial, &t->tip, chain, nr, fix_id, ids, &at) != SM_PICK_CLEAN)
			chain[i].on = 1;
	}
	out->applies = 1;
	out->extra = xcalloc(nr_found, sizeof(*out->extra));
	for (size_t i = 0; i < nr; i++)
		if (chain[i].on)
			strlist_append(&out->order, chain[i].dep->id);
	for (size_t i = 0; i < nr; i++)
		if (chain[i].found && chain[i].on) {
			/* moved: found[] no longer owns its subject and paths */
			out->extra[out->nr++] = *chain[i].dep;
			memset(chain[i].dep, 0, sizeof(*chain[i].dep));
		}
out:
	for (size_t i = 0; i < nr_found; i++) {
		free(found[i].subject);
		strlist_clear(&found[i].paths);
	}
	free(found);
	free(deps);
	free(chain);
	free(ids);
	strlist_clear(&paths);
	sm_deps_history_release(&own);
}

void sm_deps_search_release(struct sm_deps_search *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->extra[i].subject);
		strlist_clear(&s->extra[i].paths);
	}
	free(s->extra);
	strlist_clear(&s->order);
	memset(s, 0, sizeof(*s));
}

