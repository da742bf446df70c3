/* scan: classify every commit of a mainline range for each stable tree.
 * Per tree, on top of the classifier's verdict: already present (upstream
 * index), whether the tree has the bug at all (first release of the Fixes:
 * target from the tag graph), fix-for-a-fix (the target was backported),
 * the prerequisites a stable tag names, and optionally a trial cherry-pick. */
#include "trees/scan.h"
#include "trees/deps_search.h"
#include "trees/repo.h"
#include "trees/tags.h"
#include "trees/trial.h"
#include "trees/pick.h"
#include "trees/tree_state.h"
#include "trees/tree_judge.h"
#include "trees/tree_files.h"
#include "trees/strmap.h"
#include "trees/afterlife.h"
#include "trees/branch_cache.h"
#include "trees/diff_cache.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/progress.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct scan_ctx {
	const struct sm_scan_opts *o;
	git_repository *repo;
	struct sm_release_tags tags;
	struct sm_tree_state *trees;
	size_t opened;			/* trees[] opened so far */
	git_oid from;			/* the range's start */
	/* Fixes: targets resolved so far, by the abbreviated id as written. */
	struct strmap target_by_abbrev;
	char **abbrevs;
	struct sm_fixes_target *targets;
	size_t nr_targets, alloc_targets, alloc_abbrevs;
	struct sm_afterlife life;	/* reverts, later fixes, soak, queue, CVE */
	int life_open;
	/* --check-applies: a trial handle per tree, opened when first
	 * needed; trees in one repository share the first one's. Why one
	 * could not be opened, per tree (not tried again; the reader is
	 * told, sm_scan_tree_info.trial_error). */
	struct sm_trial *trials;
	char **trial_errors;
	/* --search: the history since each tree's release up to the range's
	 * end (to), walked once when first searched; trees of one release
	 * share the first one's */
	git_oid to;
	struct sm_deps_history *histories;
	unsigned char *history_built;	/* per tree: 0 not yet, 1 built, 2 failed */
	/* per tree, against mainline at the range's end: whether the tree
	 * has a commit's files (tree_repo NULL until first asked) */
	struct sm_tree_files *files;
};

/* Resolves a Fixes: id once per run: its index in s->targets (which
 * grows: hold indices, not pointers, while resolving), or -1 when the
 * repository lacks it. */
static long resolve_target(struct scan_ctx *s, const char *abbrev)
{
	size_t i;

	if (strmap_get(&s->target_by_abbrev, abbrev, &i))
		return i == (size_t)-1 ? -1 : (long)i;
	ALLOC_GROW(s->abbrevs, s->nr_targets, s->alloc_abbrevs);
	ALLOC_GROW(s->targets, s->nr_targets, s->alloc_targets);
	/* The map borrows its keys: keep a copy alive for the whole run. */
	s->abbrevs[s->nr_targets] = xstrdup(abbrev);
	i = s->nr_targets++;
	if (sm_fixes_target_resolve(&s->tags, s->repo, abbrev, &s->targets[i]) < 0) {
		strmap_put(&s->target_by_abbrev, s->abbrevs[i], (size_t)-1);
		return -1;
	}
	strmap_put(&s->target_by_abbrev, s->abbrevs[i], i);
	return (long)i;
}

/* The trial handle for tree ti's repository, or NULL (it cannot be
 * opened). It reads mainline's objects too: with --tree-repo the trees'
 * clone may not hold the range's commits yet (fetched before them), and
 * every trial said nothing until 2026-12-06. */
static struct sm_trial *trial_for(struct scan_ctx *s, size_t ti)
{
	struct sm_trial *t = &s->trials[ti];

	if (s->trial_errors[ti])
		return NULL;
	for (size_t k = 0; k < s->o->nr_trees; k++)
		if (s->trials[k].repo && s->trees[k].repo == s->trees[ti].repo)
			return &s->trials[k];
	if (sm_trial_open(t, s->trees[ti].repo) == 0 && sm_trial_borrow(t, s->repo) == 0)
		return t;
	sm_trial_release(t);
	s->trial_errors[ti] = xstrdup(sm_last_error());
	sm_clear_error();
	return NULL;
}

/* Do ids[0..n) apply, in order, onto tree ti's tip? 1 yes, 0 one
 * conflicts, -1 cannot tell (the tree's repository lacks one of them, a
 * merge). With opts->tree_patches and tr not NULL, when they apply the
 * last one's change as it lands there is kept in tr (the trial that
 * answers yes is the one that shows it). */
static int try_apply(struct scan_ctx *s, size_t ti, const char *const *ids, size_t n,
		     struct sm_scan_tree_result *tr)
{
	struct sm_trial *trial = trial_for(s, ti);
	struct strbuf stat = STRBUF_INIT, patch = STRBUF_INIT;
	int r;

	if (!trial)
		return -1;
	if (!tr || !s->o->tree_patches)
		return sm_trial_applies(trial, &s->trees[ti].tip, ids, n, NULL);
	r = sm_trial_patch(trial, &s->trees[ti].tip, ids, n, &stat, &patch);
	sm_clear_error();
	if (r == SM_PICK_CLEAN) {
		tr->patch = strbuf_detach(&patch, NULL);
		tr->patch_stat = strbuf_detach(&stat, NULL);
	}
	strbuf_release(&stat);
	strbuf_release(&patch);
	return r == SM_PICK_CLEAN ? 1 : r == SM_PICK_CONFLICT ? 0 : -1;
}

/* For a commit that conflicts on tree ti alone: does it apply after the
 * prerequisites its stable tags name that the tree lacks (tr->deps), as
 * steal would pick them? 1, 0, or -1 (not tried: no such prerequisite, or
 * one the repository lacks). */
static int try_apply_after_deps(struct scan_ctx *s, struct sm_scan_item *it, size_t ti)
{
	const struct strlist *deps = &it->trees[ti].deps;
	const char **ids;
	int r;

	if (!deps->nr)
		return -1;
	ids = xcalloc(deps->nr + 1, sizeof(*ids));
	for (size_t k = 0; k < deps->nr; k++)
		ids[k] = deps->items[k];
	ids[deps->nr] = it->id;
	r = try_apply(s, ti, ids, deps->nr + 1, &it->trees[ti]);
	free(ids);
	return r;
}

/* For a commit that conflicts on tree ti: the first other tree whose
 * backport of it applies there instead (as a maintainer takes 6.6's
 * backport for 6.1), after the prerequisites that tree took for it
 * (Stable-dep-of:, see sm_upstream_index_prereqs_of) which ti lacks, as
 * steal --backports-from picks them. */
static void find_backport_that_applies(struct scan_ctx *s, struct sm_scan_item *it, size_t ti)
{
	struct sm_scan_tree_result *tr = &it->trees[ti];

	for (size_t k = 0; k < s->o->nr_trees; k++) {
		const struct sm_tree_state *other = &s->trees[k];
		const struct sm_upstream_entry *e;
		size_t found[SM_PREREQ_WINDOW], nr, n = 0;
		const char *ids[SM_PREREQ_WINDOW + 1];

		if (k == ti || !(e = sm_upstream_index_backport_of(&other->idx, it->id)))
			continue;
		nr = sm_upstream_index_prereqs_of(&other->idx, other->repo,
						  (size_t)(e - other->idx.entries), it->id, found,
						  SM_PREREQ_WINDOW);
		for (size_t j = 0; j < nr; j++) {
			const struct sm_upstream_entry *pe = &other->idx.entries[found[j]];
			const char *up = pe->upstream[0] ? pe->upstream : pe->stable;

			if (!sm_tree_state_carries(&s->trees[ti], up, pe->patch_id, pe->subject))
				ids[n++] = pe->stable;
		}
		ids[n] = e->stable;
		if (try_apply(s, ti, ids, n + 1, tr) == 1) {
			tr->backport_applies = xstrdup(e->stable);
			tr->backport_tree = s->o->trees[k].name;
			for (size_t j = 0; j < n; j++)
				strlist_append(&tr->backport_prereqs, ids[j]);
			return;
		}
	}
}

/* The history that tree ti's searches share (sm_deps_history), or NULL. */
static const struct sm_deps_history *history_for(struct scan_ctx *s, size_t ti)
{
	const struct sm_tree_state *t = &s->trees[ti];

	for (size_t k = 0; k < s->o->nr_trees; k++)
		if (s->history_built[k] == 1 && git_oid_equal(&s->trees[k].base, &t->base))
			return &s->histories[k];
	if (s->history_built[ti])
		return NULL;
	s->history_built[ti] = 2;
	if (sm_deps_history_build(&s->histories[ti], s->repo, &s->to, &t->base) < 0) {
		sm_clear_error();	/* each search walks on its own instead */
		return NULL;
	}
	s->history_built[ti] = 1;
	return &s->histories[ti];
}

/* For a commit that still conflicts on tree ti (alone, after its tagged
 * prerequisites, and no other tree's backport applies): the search of
 * trees/deps_search.h for what else it needs, up to o->search commits to
 * the files in conflict that the tree lacks (the branch point must be
 * known). */
static void search_what_else(struct scan_ctx *s, struct sm_scan_item *it, size_t ti)
{
	struct sm_scan_tree_result *tr = &it->trees[ti];
	struct sm_tree_state *t = &s->trees[ti];
	struct sm_trial *trial = trial_for(s, ti);
	struct sm_deps_search found;
	git_commit *fix = NULL;
	git_oid id;

	if (!trial || !t->has_base || git_oid_fromstr(&id, it->id) < 0 ||
	    git_commit_lookup(&fix, s->repo, &id) < 0) {
		sm_clear_error();
		return;
	}
	sm_deps_search(s->repo, t, trial, fix, &t->base, history_for(s, ti),
		       (const char *const *)tr->deps.items, tr->deps.nr, s->o->search, &found);
	if (found.tried) {
		tr->search = found.applies;
		tr->search_considered = found.considered;
		for (size_t k = 0; k < found.nr; k++)
			strlist_append(&tr->search_extra, found.extra[k].id);
		for (size_t k = 0; k < found.order.nr; k++)
			strlist_append(&tr->search_order, found.order.items[k]);
	}
	sm_deps_search_release(&found);
	git_commit_free(fix);
}

/* A commit the classifier would flag whose files the tree lacks
 * altogether (trees/tree_files.h): it fixes code the tree does not have. */
static void judge_files(struct scan_ctx *s, struct sm_scan_item *it, size_t ti,
			struct sm_verdict *v)
{
	struct sm_tree_state *t = &s->trees[ti];
	struct sm_tree_files *f = &s->files[ti];

	if (!f->tree_repo)
		sm_tree_files_init(f, t->repo, &t->tip, s->repo, &s->to);
	sm_tree_files_judge(f, s->o->rules, &it->commit, t->spec->name, v);
}

/* For opts->tree_patches, when what the search found makes it apply:
 * that change as it lands (the search's own trials keep nothing). */
static void keep_search_patch(struct scan_ctx *s, struct sm_scan_item *it, size_t ti)
{
	struct sm_scan_tree_result *tr = &it->trees[ti];
	const char **ids = xcalloc(tr->search_order.nr + 1, sizeof(*ids));
	size_t n = 0;

	for (size_t k = 0; k < tr->search_order.nr; k++)
		ids[n++] = tr->search_order.items[k];
	ids[n++] = it->id;
	try_apply(s, ti, ids, n, tr);
	free(ids);
}

/* The trial applied the commit onto tree ti and it changed nothing there:
 * the tree has the change already, made by a commit no upstream id,
 * patch-id or subject ties to it (a maintainer's own fix, a backport
 * folded into another commit). Offered, it would be a patch that patches
 * nothing. */
static void present_by_trial(struct scan_ctx *s, struct sm_scan_tree_result *tr, size_t ti)
{
	sm_verdict_veto(&tr->verdict, "present",
			"its change is in %s already: cherry-picked onto the tip, it changes nothing",
			s->trees[ti].spec->name);
	sm_verdict_finish(s->o->rules, &tr->verdict);
	tr->present = 1;
	FREE_ALL(tr->patch, tr->patch_stat);
	tr->patch = tr->patch_stat = NULL;
}

static void judge_tree(struct scan_ctx *s, struct sm_scan_item *it, struct sm_verdict *model,
		       const struct sm_tree_judge_input *in, size_t ti)
{
	struct sm_tree_state *t = &s->trees[ti];
	struct sm_scan_tree_result *tr = &it->trees[ti];
	struct sm_tree_ctx ctx = { t->spec->name, t->spec->version };

	tr->applies = -1;
	tr->applies_after_deps = -1;
	tr->search = -1;
	sm_classify_shared(s->o->rules, &it->commit, &ctx, model, &tr->verdict);
	sm_tree_judge(s->o->rules, t, &s->tags, s->repo, in, &tr->verdict, &tr->present_as,
		      &tr->deps);
	tr->present = tr->present_as != NULL;
	sm_afterlife_tree(&s->life, it, ti, t);
	judge_files(s, it, ti, &tr->verdict);
	sm_verdict_finish(s->o->rules, &tr->verdict);
	sm_afterlife_hold(&s->life, it, ti, &tr->verdict);
	if (s->o->check_applies && !tr->present && tr->verdict.kind != SM_REJECT) {
		const char *id = it->id;

		tr->applies = try_apply(s, ti, &id, 1, tr);
		/* trial_for: the handle that just ran (trees of one repository
		 * share it) */
		if (tr->applies == 1 && trial_for(s, ti)->unchanged) {
			present_by_trial(s, tr, ti);
			return;
		}
		if (tr->applies == 0)
			tr->applies_after_deps = try_apply_after_deps(s, it, ti);
		if (tr->applies == 0 && tr->applies_after_deps != 1)
			find_backport_that_applies(s, it, ti);
		/* candidates only: a search reads every commit since the tree's
		 * release (0.07 s on bench/scan's repository), and the net of
		 * maybes is wide */
		if (tr->applies == 0 && tr->applies_after_deps != 1 && !tr->backport_applies &&
		    s->o->search && tr->verdict.kind == SM_CANDIDATE)
			search_what_else(s, it, ti);
		if (s->o->tree_patches && tr->search == 1)
			keep_search_patch(s, it, ti);
	}
}

/* The part of a commit that needs the repository: message, diff
 * statistics and patch-id (one diff, unless the diff cache has the facts
 * already). Runs on either thread. */
static int load_commit(git_repository *repo, struct sm_tree_keep *keep,
		       const struct sm_diff_cache *dc, const struct sm_rules *rules,
		       const git_oid *id, struct sm_scan_item *it)
{
	git_commit *c = NULL;
	int ret;

	git_oid_tostr(it->id, sizeof(it->id), id);
	if (git_commit_lookup(&c, repo, id) < 0)
		return sm_error("commit %s: unreadable (%s)", it->id, sm_git_error());
	/* The committer time, for trees/afterlife.h, while the commit is read. */
	it->committed = (long long)git_commit_committer(c)->when.time;
	ret = sm_commit_load(repo, c, 0, &it->commit, it->patch_id);
	if (!ret && !it->commit.is_merge && !sm_diff_cache_get(dc, it->id, &it->commit, it->patch_id))
		ret = sm_commit_load_diff_keep(repo, c, keep, &it->commit, it->patch_id);
	git_commit_free(c);
	if (!ret)
		sm_classify_model(rules, &it->commit, &it->model);
	return ret;
}

/* The verdicts, on the main thread, once load_commit is done. */
static int scan_commit(struct scan_ctx *s, struct sm_scan_item *it)
{
	struct sm_tree_judge_input in = { .c = &it->commit, .id = it->id, .patch_id = it->patch_id };
	const struct sm_fixes_target **tg;
	long *at;
	size_t nr_at = 0;
	const struct sm_release *first = NULL;
	struct sm_verdict *model = &it->model;	/* made by load_commit */

	sm_classify_shared(s->o->rules, &it->commit, NULL, model, &it->verdict);
	sm_afterlife_item(&s->life, it);

	at = xcalloc(it->commit.nr_fixes + 1, sizeof(*at));
	for (size_t k = 0; k < it->commit.nr_fixes; k++) {
		const struct sm_fixes_tag *f = &it->commit.fixes[k];
		long i;

		if (!f->sha)
			continue;
		i = resolve_target(s, f->sha);
		if (i < 0)
			in.unresolved++;
		else
			at[nr_at++] = i;
	}
	tg = xcalloc(nr_at + 1, sizeof(*tg));
	for (size_t k = 0; k < nr_at; k++) {
		const struct sm_fixes_target *t = &s->targets[at[k]];

		tg[in.nr_targets++] = t;
		if (!it->fixes_target ||
		    (t->first && (!first || sm_version_cmp(&t->first->version, &first->version) < 0))) {
			free(it->fixes_target);
			it->fixes_target = xstrdup(t->hex);
			first = t->first;
		}
	}
	if (first)
		it->fixes_first_release = xstrdup(first->name);
	in.targets = tg;
	it->trees = xcalloc(s->o->nr_trees + 1, sizeof(*it->trees));
	for (size_t ti = 0; ti < s->o->nr_trees; ti++)
		judge_tree(s, it, model, &in, ti);
	sm_verdict_release(model);
	if (s->o->forget_bodies) {
		free(it->commit.body);
		it->commit.body = NULL;
		it->commit.body_text_len = 0;
	}
	free(tg);
	free(at);
	return 0;
}

/* The range's commits, topological, oldest first. */
static int walk_ids(struct scan_ctx *s, git_repository *repo, const git_oid *from,
		    const git_oid *to, git_oid **out, size_t *nr_out)
{
	git_revwalk *w = NULL;
	git_oid id, *ids = NULL;
	size_t nr = 0, alloc = 0;
	int err;

	if (git_revwalk_new(&w, repo) < 0)
		return sm_error("%s: %s", s->o->range, sm_git_error());
	git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (git_revwalk_push(w, to) < 0 || git_revwalk_hide(w, from) < 0) {
		git_revwalk_free(w);
		return sm_error("range %s: %s", s->o->range, sm_git_error());
	}
	while (!(err = git_revwalk_next(&id, w))) {
		ALLOC_GROW(ids, nr, alloc);
		ids[nr++] = id;
	}
	git_revwalk_free(w);
	if (err != GIT_ITEROVER) {
		free(ids);
		return sm_error("%s: history walk failed (%s)", s->o->range, sm_git_error());
	}
	*out = ids;
	*nr_out = nr;
	return 0;
}

/* Loading (libgit2 reads, the diff, the patch-id) is most of a scan's
 * work: a second thread with its own repository handle loads chunks of
 * the range while the main thread loads too and judges the loaded chunks
 * in order. Results do not depend on which thread loaded what.
 * SM_SCAN_THREADS=1 keeps to one thread, =2 forces the second one even
 * for a short range (the tests compare both). */
struct loader {
	const char *path;
	const struct sm_diff_cache *dc;	/* read-only while loading */
	const git_oid *ids;
	struct sm_scan_item *items;	/* out->items */
	size_t nr, chunk, nr_chunks;	/* chunk: commits per chunk, 1 to 256 */
	size_t next;			/* next chunk to claim */
	signed char *state;		/* per chunk: 0 pending, 1 loaded, -1 failed */
	char error[1024];		/* the failed chunk's message */
	/* Before it loads, the first thread to get to it builds what the
	 * judging needs besides the trees: the range's commits (unless the
	 * diff cache had them), the lifecycle index, and the release map
	 * (prepare()), while the main thread reads the trees. */
	struct scan_ctx *s;
	struct sm_scan_result *out;
	git_oid **walked;		/* NULL: ids given; else prepare() walks */
	const git_oid *to;
	char *walk_error;		/* the walk failed: its error line */
	struct sm_afterlife_life *life;
	int prep;			/* 0 to do, 1 under way, 2 done */
	int stop;			/* an error: claim no more */
	pthread_mutex_t mu;
	pthread_cond_t done;
};

static long claim(struct loader *l)
{
	long c = -1;

	pthread_mutex_lock(&l->mu);
	if (!l->stop && l->next < l->nr_chunks)
		c = (long)l->next++;
	pthread_mutex_unlock(&l->mu);
	return c;
}

/* Loads chunk c with repo; keep: this thread's trees (trees/repo.h). */
static void load_chunk(struct loader *l, git_repository *repo, struct sm_tree_keep *keep,
		       size_t c)
{
	size_t end = (c + 1) * l->chunk < l->nr ? (c + 1) * l->chunk : l->nr;
	int ok = 1;

	for (size_t i = c * l->chunk; ok && i < end; i++)
		ok = load_commit(repo, keep, l->dc, l->s->o->rules, &l->ids[i], &l->items[i]) == 0;
	pthread_mutex_lock(&l->mu);
	l->state[c] = ok ? 1 : -1;
	if (!ok && !l->error[0])
		snprintf(l->error, sizeof(l->error), "%s", sm_last_error());
	pthread_cond_broadcast(&l->done);
	pthread_mutex_unlock(&l->mu);
}

static int use_thread(size_t nr)
{
	const char *v = getenv("SM_SCAN_THREADS");

	if (v && *v)
		return atoi(v) > 1 && nr > 1;
	return nr >= 128 && sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

/* The range to load: ids, out->items zeroed (released with the rest
 * whatever was filled in) and the chunks. Published under the lock: the
 * main thread claims chunks while the loader thread is still preparing,
 * and a chunk claimed before its state array was set wrote through NULL
 * (UBSan in bot_e2e.sh). */
static void set_range(struct loader *l, const git_oid *ids, size_t nr)
{
	/* Long runs of consecutive commits on one thread: its kept trees
	 * (trees/repo.h) are then mostly the trees the next commits need. */
	size_t chunk = nr / 64 < 1 ? 1 : nr / 64 > 256 ? 256 : nr / 64;
	size_t nr_chunks = (nr + chunk - 1) / chunk;
	struct sm_scan_item *items = xcalloc(nr + 1, sizeof(*items));
	signed char *state = xcalloc(nr_chunks + 1, 1);

	pthread_mutex_lock(&l->mu);
	l->ids = ids;
	l->out->items = l->items = items;
	l->out->nr = l->nr = nr;
	l->chunk = chunk;
	l->state = state;
	l->nr_chunks = nr_chunks;
	pthread_mutex_unlock(&l->mu);
}

/* Walks the range (l->walked) and builds the lifecycle index with repo,
 * unless the other thread has begun to, and on the loader thread (ahead)
 * the release map too: the main thread leaves that to the first look-up
 * (a range may need none). */
static void prepare(struct loader *l, git_repository *repo, int ahead)
{
	int mine;
	size_t nr = 0;

	pthread_mutex_lock(&l->mu);
	mine = !l->prep;
	if (mine)
		l->prep = 1;
	pthread_mutex_unlock(&l->mu);
	if (!mine)
		return;
	if (l->walked) {
		if (walk_ids(l->s, repo, &l->s->from, l->to, l->walked, &nr) < 0) {
			l->walk_error = xstrdup(sm_last_error());
			sm_clear_error();
		}
		set_range(l, *l->walked, nr);
	}
	if (!l->walk_error) {
		struct sm_known_walk known = { l->s->from, *l->to, l->ids, l->nr };

		if (ahead && use_thread(l->nr))
			sm_release_tags_prepare(&l->s->tags, repo);
		sm_afterlife_life_build(l->life, l->s->o, repo, &l->s->from, &known);
	}
	pthread_mutex_lock(&l->mu);
	l->prep = 2;
	pthread_cond_broadcast(&l->done);
	pthread_mutex_unlock(&l->mu);
}

/* On the main thread: prepare() done, by either thread; loads chunks
 * while the other thread is at it. */
static void wait_prepared(struct loader *l, git_repository *repo, struct sm_tree_keep *keep)
{
	long c;

	prepare(l, repo, 0);
	pthread_mutex_lock(&l->mu);
	while (l->prep != 2) {
		pthread_mutex_unlock(&l->mu);
		if ((c = claim(l)) >= 0)
			load_chunk(l, repo, keep, (size_t)c);
		pthread_mutex_lock(&l->mu);
		if (c < 0 && l->prep != 2)
			pthread_cond_wait(&l->done, &l->mu);
	}
	pthread_mutex_unlock(&l->mu);
}

static void *loader_thread(void *arg)
{
	struct loader *l = arg;
	git_repository *repo = NULL;
	struct sm_tree_keep keep;
	long c;

	if (sm_repo_open(&repo, l->path) < 0) {
		/* The main thread does everything itself. */
		sm_clear_error();
		return NULL;
	}
	prepare(l, repo, 1);
	/* The other thread may have begun it: the range comes with it. */
	pthread_mutex_lock(&l->mu);
	while (l->prep != 2)
		pthread_cond_wait(&l->done, &l->mu);
	pthread_mutex_unlock(&l->mu);
	memset(&keep, 0, sizeof(keep));
	while ((c = claim(l)) >= 0)
		load_chunk(l, repo, &keep, (size_t)c);
	sm_tree_keep_release(&keep);
	sm_classify_thread_release();
	git_repository_free(repo);
	return NULL;
}

/* Each tree's upstream index (built or read from the cache), while the
 * loader thread builds the release map and the lifecycle index past the
 * range, then loads commits. */
static int open_trees(struct scan_ctx *s, struct loader *l, struct sm_tree_keep *keep,
		      struct sm_scan_result *out)
{
	const struct sm_scan_opts *o = s->o;

	s->trees = xcalloc(o->nr_trees + 1, sizeof(*s->trees));
	out->nr_trees = o->nr_trees;
	out->tree_cache_state = xcalloc(o->nr_trees + 1, sizeof(*out->tree_cache_state));
	out->tree_info = xcalloc(o->nr_trees + 1, sizeof(*out->tree_info));
	for (; s->opened < o->nr_trees; s->opened++) {
		if (sm_tree_state_open_progress(&s->trees[s->opened], &o->trees[s->opened],
						s->repo, o->upstream, o->cache_dir, o->progress) < 0)
			return -1;
		out->tree_cache_state[s->opened] =
			sm_cache_state_name(s->trees[s->opened].idx.cache_state);
		out->tree_info[s->opened].branch = xstrdup(s->trees[s->opened].branch);
		if (s->trees[s->opened].has_base)
			out->tree_info[s->opened].base = xstrdup(s->trees[s->opened].base_name);
		if (s->trees[s->opened].behind) {
			out->tree_info[s->opened].behind = s->trees[s->opened].behind;
			out->tree_info[s->opened].upstream = xstrdup(s->trees[s->opened].upstream);
		}
	}
	wait_prepared(l, s->repo, keep);
	if (l->walk_error) {
		sm_afterlife_life_release(l->life);
		return sm_error("%s", l->walk_error);
	}
	if (sm_afterlife_open(&s->life, s->o, s->repo, &s->tags, l->life, out) < 0)
		return -1;
	s->life_open = 1;
	return 0;
}

/* Loads and judges the range: *ids (nr of them) when the diff cache had
 * the walk, else the walk is made here (*ids malloc'd). */
static int load_and_judge(struct scan_ctx *s, git_oid **ids, size_t nr, const git_oid *to,
			  const struct sm_diff_cache *dc, struct sm_scan_result *out)
{
	struct loader l;
	struct sm_afterlife_life life;
	struct sm_tree_keep keep;	/* the main thread's */
	pthread_t th;
	int threaded, ret = 0;

	/* The tags before the thread starts: it builds their map. */
	if (sm_release_tags_load(&s->tags, s->repo) < 0)
		return -1;
	sm_release_tags_cache(&s->tags, s->repo, s->o->cache_dir);
	memset(&l, 0, sizeof(l));
	memset(&life, 0, sizeof(life));
	memset(&keep, 0, sizeof(keep));
	l.s = s;
	l.out = out;
	l.life = &life;
	l.to = to;
	l.path = s->o->upstream;
	l.dc = dc;
	pthread_mutex_init(&l.mu, NULL);
	pthread_cond_init(&l.done, NULL);
	if (*ids)
		set_range(&l, *ids, nr);
	else
		l.walked = ids;	/* nr unknown yet: a thread unless told not to */
	threaded = use_thread(*ids ? nr : (size_t)-1) &&
		   pthread_create(&th, NULL, loader_thread, &l) == 0;
	ret = open_trees(s, &l, &keep, out);
	if (!ret && s->o->progress) {
		char *title = xasprintf("Scanning %s", s->o->range);

		sm_progress_phase(s->o->progress, title, out->nr);
		free(title);
	}
	for (size_t j = 0; j < l.nr_chunks && !ret;) {
		signed char st;
		long c;

		pthread_mutex_lock(&l.mu);
		st = l.state[j];
		pthread_mutex_unlock(&l.mu);
		if (st < 0) {
			ret = sm_error("%s", l.error);
		} else if (st > 0) {
			size_t end = (j + 1) * l.chunk < l.nr ? (j + 1) * l.chunk : l.nr;

			for (size_t i = j * l.chunk; i < end && !ret; i++)
				ret = scan_commit(s, &out->items[i]);
			sm_progress_update(s->o->progress, end);
			j++;
		} else if ((c = claim(&l)) >= 0) {
			load_chunk(&l, s->repo, &keep, (size_t)c);
		} else {
			pthread_mutex_lock(&l.mu);
			while (!l.state[j])
				pthread_cond_wait(&l.done, &l.mu);
			pthread_mutex_unlock(&l.mu);
		}
	}
	if (ret) {
		/* Stop the loader: nothing more to claim. */
		pthread_mutex_lock(&l.mu);
		l.stop = 1;
		pthread_mutex_unlock(&l.mu);
	}
	if (threaded)
		pthread_join(th, NULL);
	sm_afterlife_life_release(&life);
	sm_tree_keep_release(&keep);
	pthread_cond_destroy(&l.done);
	pthread_mutex_destroy(&l.mu);
	free(l.state);
	free(l.walk_error);
	return ret;
}

/* Files the facts of the commits the cache lacked, and the walk (all of
 * the range's commits are written, in order, so that the file follows the
 * range). */
static void update_diff_cache(struct sm_diff_cache *dc, const struct sm_scan_result *out,
			      const char *to, int walk_cached)
{
	for (size_t i = 0; i < out->nr; i++)
		if (!out->items[i].commit.is_merge)
			sm_diff_cache_note(dc, out->items[i].id);
	if (!dc->misses && walk_cached)
		return;
	for (size_t i = 0; i < out->nr; i++) {
		const struct sm_scan_item *it = &out->items[i];

		sm_diff_cache_add(dc, it->id, it->commit.is_merge ? NULL : &it->commit,
				  it->patch_id);
	}
	sm_diff_cache_set_walk(dc, to, out->nr);
	sm_diff_cache_write(dc);
}

static int walk_range(struct scan_ctx *s, struct sm_scan_result *out)
{
	git_oid *ids = NULL;
	size_t nr = 0;
	int ret, walk_cached;
	git_oid from, to;
	struct sm_diff_cache dc;
	char hex[GIT_OID_HEXSZ + 1], to_hex[GIT_OID_HEXSZ + 1];

	/* Each end resolved on its own (not git_revwalk_push_range): the
	 * error names the end that is wrong. */
	if (sm_resolve_range(s->repo, s->o->range, &from, &to) < 0)
		return -1;
	s->from = from;
	s->to = to;
	git_oid_tostr(hex, sizeof(hex), &from);
	git_oid_tostr(to_hex, sizeof(to_hex), &to);
	sm_diff_cache_open(&dc, s->o->cache_dir, git_repository_path(s->repo), hex);
	walk_cached = sm_diff_cache_walk(&dc, to_hex, &ids, &nr);
	ret = load_and_judge(s, &ids, nr, &to, &dc, out);
	/* "v6.7..v6.6" says 0 commits, as git would, and looks like a quiet
	 * day; say which way round it goes */
	if (!ret && !out->nr && sm_range_reversed(s->repo, &from, &to)) {
		struct strbuf why = STRBUF_INIT;

		sm_range_reversed_text(s->o->range, &why);
		sm_warn("%s is empty: %s", s->o->range, why.buf);
		strbuf_release(&why);
	}
	if (!ret)
		update_diff_cache(&dc, out, to_hex, walk_cached);
	out->diff_cache = sm_cache_state_name(dc.state);
	out->diff_cache_hits = dc.hits;
	sm_diff_cache_release(&dc);
	free(ids);
	return ret;
}

int sm_scan(const struct sm_scan_opts *o, struct sm_scan_result *out)
{
	struct scan_ctx s;
	int ret;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	s.o = o;
	if (sm_repo_open(&s.repo, o->upstream) < 0)
		return -1;
	s.files = xcalloc(o->nr_trees + 1, sizeof(*s.files));
	if (o->check_applies) {
		s.trials = xcalloc(o->nr_trees + 1, sizeof(*s.trials));
		s.trial_errors = xcalloc(o->nr_trees + 1, sizeof(*s.trial_errors));
		s.histories = xcalloc(o->nr_trees + 1, sizeof(*s.histories));
		s.history_built = xcalloc(o->nr_trees + 1, 1);
	}
	ret = walk_range(&s, out);
	for (size_t i = 0; s.trials && i < o->nr_trees; i++) {
		sm_trial_release(&s.trials[i]);
		if (out->tree_info && i < s.opened)
			out->tree_info[i].trial_error = s.trial_errors[i];
		else
			free(s.trial_errors[i]);
	}
	free(s.trials);
	free(s.trial_errors);
	for (size_t i = 0; s.histories && i < o->nr_trees; i++)
		sm_deps_history_release(&s.histories[i]);
	free(s.histories);
	free(s.history_built);
	for (size_t i = 0; i < o->nr_trees; i++)
		sm_tree_files_release(&s.files[i]);
	free(s.files);
	for (size_t i = 0; i < s.opened; i++)
		sm_tree_state_close(&s.trees[i]);
	free(s.trees);
	if (s.life_open)
		sm_afterlife_close(&s.life);
	if (s.tags.map_used)
		out->release_map_cache = sm_cache_state_name(s.tags.map_cache_state);
	for (size_t i = 0; i < s.nr_targets; i++)
		free(s.abbrevs[i]);
	free(s.abbrevs);
	free(s.targets);
	strmap_clear(&s.target_by_abbrev);
	sm_release_tags_release(&s.tags);
	git_repository_free(s.repo);
	if (ret < 0) {
		/* Keep the error line: releasing does not touch it. */
		sm_scan_result_release(out);
		out->nr = 0;
	}
	return ret;
}
