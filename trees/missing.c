#include "trees/missing.h"
#include "trees/missing_needed.h"
#include "trees/upstream_index.h"
#include "trees/repo.h"
#include "trees/trial.h"
#include "lib/json.h"
#include "rules/version.h"
#include "trees/tags.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int skipped(const struct sm_upstream_entry *e)
{
	struct sm_version v;
	int rc;

	return starts_with(e->subject, "Merge ") ||
	       sm_version_from_release_subject(e->subject, &v, &rc);
}

static struct sm_missing_entry *add_entry(struct sm_missing_entry **list, size_t *nr,
					  size_t *alloc, const struct sm_upstream_entry *e,
					  const char *revert)
{
	struct sm_missing_entry *m;

	ALLOC_GROW(*list, *nr, *alloc);
	m = &(*list)[(*nr)++];
	memset(m, 0, sizeof(*m));
	memcpy(m->upstream, e->upstream[0] ? e->upstream : e->stable, 41);
	memcpy(m->stable, e->stable, 41);
	m->subject = xstrdup(e->subject);
	m->applies = -1;
	if (revert)
		memcpy(m->revert, revert, 41);
	return m;
}

/* One branch's index and its revert pairs (sm_upstream_index_revert_pairs);
 * with --since-release, the release it was indexed from: it holds all of
 * mainline up to that one (NULL: both share mainline up to the merge base) */
struct indexed_side {
	const struct sm_upstream_index *idx;
	size_t *paired;
	const struct sm_release *release;
};

/* Does the branch of side `to` hold upstream commit up from mainline, in
 * its release or an older one (--since-release: its index starts there)? */
static int from_mainline(git_repository *repo, struct sm_release_tags *tags,
			 const struct indexed_side *to, const char *up)
{
	const struct sm_release *first;
	git_oid id;

	if (!to->release || sm_release_tags_resolve(tags, repo, up, &id) < 0) {
		sm_clear_error();
		return 0;
	}
	first = sm_first_release(tags, repo, &id);
	return first && sm_version_cmp(&first->version, &to->release->version) <= 0;
}

/* The upstream id e's "Stable-dep-of:" names, full when repo has it, into
 * out; 0 when it names none. */
static int dep_of(git_repository *repo, const struct sm_upstream_entry *e, char out[41])
{
	git_oid id;

	if (!sm_upstream_entry_dep_of(repo, e, out))
		return 0;
	if (strlen(out) < 40 && sm_resolve_hex(repo, out, &id) == 0)
		git_oid_tostr(out, 41, &id);
	return 1;
}

/* e is on from's side only: listed in only[], or, when it is the
 * prerequisite of a commit the other side carries (and kept), in
 * dep_met[]. revert: the other side's revert of its copy, or NULL. */
static void add_missing(git_repository *repo, const struct indexed_side *to,
			struct sm_missing_side *side, const struct sm_upstream_entry *e,
			const char *revert)
{
	const struct sm_upstream_entry *there;
	struct sm_missing_entry *m;
	char dep[41];

	if (!dep_of(repo, e, dep)) {
		add_entry(&side->only, &side->nr, &side->alloc, e, revert);
		return;
	}
	there = sm_upstream_index_find(to->idx, dep, NULL, NULL, NULL);
	if (there && !to->paired[there - to->idx->entries]) {
		m = add_entry(&side->dep_met, &side->nr_dep_met, &side->alloc_dep_met, e, revert);
		memcpy(m->dep_there, there->stable, 41);
	} else {
		m = add_entry(&side->only, &side->nr, &side->alloc, e, revert);
	}
	memcpy(m->dep_of, dep, 41);
}

static size_t compare(git_repository *repo, struct sm_release_tags *tags,
		      const struct indexed_side *from, const struct indexed_side *to,
		      struct sm_missing_side *side)
{
	size_t both = 0;

	for (size_t i = 0; i < from->idx->nr; i++) {
		const struct sm_upstream_entry *e = &from->idx->entries[i], *there;
		const char *up = e->upstream[0] ? e->upstream : e->stable;
		size_t j;

		if (skipped(e))
			continue;
		if (from->paired[i]) {
			/* the commit, not its revert, is listed (by its own
			 * upstream id: the other side may well carry it) */
			size_t r = from->paired[i] - 1;

			if (r > i)
				add_entry(&side->reverted, &side->nr_reverted, &side->alloc_reverted,
					  e, from->idx->entries[r].stable);
			continue;
		}
		side->total++;
		there = sm_upstream_index_find(to->idx, up, e->patch_id, e->subject, NULL);
		if (!there && from_mainline(repo, tags, to, up)) {
			both++;
			continue;
		}
		if (!there) {
			add_missing(repo, to, side, e, NULL);
			continue;
		}
		j = (size_t)(there - to->idx->entries);
		if (!to->paired[j]) {
			both++;
			continue;
		}
		/* the other branch took it and reverted it: not in there */
		add_missing(repo, to, side, e, to->idx->entries[to->paired[j] - 1].stable);
	}
	return both;
}

int sm_missing(git_repository *repo, const char *a, const char *b, const char *cache_dir,
	       struct sm_missing_result *res)
{
	struct sm_missing_opts o = { .cache_dir = cache_dir, .judge_needed = 1 };

	return sm_missing_run(repo, a, b, &o, res);
}

/* The release tag of version v (--since-release), where side's index
 * starts: checked to be on the branch (whose tip is tip), its name into
 * side->since. NULL (sm_error) when there is none or it is not. */
static const struct sm_release *release_start(git_repository *repo, struct sm_release_tags *tags,
					     const struct sm_version *v, const git_oid *tip,
					     struct sm_missing_side *side)
{
	const struct sm_release *r = sm_release_find(tags, v);
	char vbuf[32];

	sm_version_str(v, vbuf, sizeof(vbuf));
	if (!r) {
		sm_error("%s: no release tag v%s to start from (--since-release; git fetch --tags)",
			 side->branch, vbuf);
		return NULL;
	}
	if (!git_oid_equal(tip, &r->commit) && git_graph_descendant_of(repo, tip, &r->commit) != 1) {
		sm_error("%s: %s is not on the branch (--since-release: is the branch %s's?)",
			 side->branch, r->name, vbuf);
		return NULL;
	}
	snprintf(side->since, sizeof(side->since), "%s", r->name);
	return r;
}

int sm_missing_run(git_repository *repo, const char *a, const char *b,
		   const struct sm_missing_opts *o, struct sm_missing_result *res)
{
	struct sm_upstream_index ia, ib;
	struct sm_release_tags tags;
	const struct sm_release *ra = NULL, *rb = NULL;
	git_oid oa, ob, base;
	const git_oid *from_a = NULL, *from_b = NULL;
	char ref_a[256], ref_b[256];	/* as they resolved: origin/x in a clone */
	int ret = -1;

	memset(res, 0, sizeof(*res));
	memset(&tags, 0, sizeof(tags));
	res->a.branch = a;
	res->b.branch = b;
	if (sm_resolve_branch(repo, a, &oa, ref_a, sizeof(ref_a)) < 0 ||
	    sm_resolve_branch(repo, b, &ob, ref_b, sizeof(ref_b)) < 0)
		return -1;
	a = ref_a;
	b = ref_b;
	git_oid_tostr(res->a.tip, sizeof(res->a.tip), &oa);
	git_oid_tostr(res->b.tip, sizeof(res->b.tip), &ob);
	if ((o->judge_needed || o->since_a) && sm_release_tags_load(&tags, repo) < 0) {
		if (o->since_a)
			return -1;
		sm_clear_error();	/* no Fixes: judgement, nothing else lost */
	}
	if (tags.nr)
		sm_release_tags_cache(&tags, repo, o->cache_dir);
	if (o->since_a) {
		/* each side from its own release: what each took since */
		if (!(ra = release_start(repo, &tags, o->since_a, &oa, &res->a)) ||
		    !(rb = release_start(repo, &tags, o->since_b, &ob, &res->b)))
			goto out_tags;
		from_a = &ra->commit;
		from_b = &rb->commit;
	} else if (git_merge_base(&base, repo, &oa, &ob) == 0) {
		git_oid_tostr(res->base, sizeof(res->base), &base);
		from_a = from_b = &base;
	}
	if (sm_upstream_index_build_progress(&ia, repo, a, from_a, o->cache_dir, o->progress) < 0)
		goto out_tags;
	if (sm_upstream_index_build_progress(&ib, repo, b, from_b, o->cache_dir, o->progress) < 0)
		goto out_a;
	res->a.cache = sm_cache_state_name(ia.cache_state);
	res->b.cache = sm_cache_state_name(ib.cache_state);
	{
		struct indexed_side sa = { &ia, sm_upstream_index_revert_pairs(&ia, repo), ra };
		struct indexed_side sb = { &ib, sm_upstream_index_revert_pairs(&ib, repo), rb };

		res->in_both = compare(repo, &tags, &sa, &sb, &res->a);
		compare(repo, &tags, &sb, &sa, &res->b);
		if (o->judge_needed)
			sm_missing_judge_needed(repo, res, &ia, &ib, &tags, ra, rb);
		free(sa.paired);
		free(sb.paired);
	}
	ret = 0;
	sm_upstream_index_release(&ib);
out_a:
	sm_upstream_index_release(&ia);
out_tags:
	sm_release_tags_release(&tags);
	return ret;
}

/* side's only[] onto the tip of other (see sm_missing_try) */
static void try_side(struct sm_trial *trial, struct sm_missing_side *side,
		     const struct sm_missing_side *other)
{
	git_oid onto;
	const char **ids = xcalloc(side->nr + 1, sizeof(*ids));

	git_oid_fromstr(&onto, other->tip);
	for (size_t i = 0; i < side->nr; i++) {
		struct sm_missing_entry *e = &side->only[i];
		size_t n = 0;

		ids[0] = e->stable;
		e->applies = sm_trial_applies(trial, &onto, ids, 1, NULL);
		e->change_there = e->applies == 1 && trial->unchanged;
		if (e->applies != 0)
			continue;
		/* its prerequisites, taken before it on this side */
		for (size_t k = 0; k < i; k++)
			if (!strcmp(side->only[k].dep_of, e->upstream))
				ids[n++] = side->only[k].stable;
		if (!n)
			continue;
		ids[n] = e->stable;
		if (sm_trial_applies(trial, &onto, ids, n + 1, NULL) == 1) {
			e->applies = 1;
			for (size_t k = 0; k < n; k++)
				strlist_append(&e->after, ids[k]);
		}
	}
	free(ids);
}

int sm_missing_try(git_repository *repo, struct sm_missing_result *res)
{
	struct sm_trial trial;

	if (sm_trial_open(&trial, repo) < 0)
		return -1;
	try_side(&trial, &res->a, &res->b);
	try_side(&trial, &res->b, &res->a);
	sm_trial_release(&trial);
	return 0;
}

static void side_release(struct sm_missing_side *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->only[i].subject);
		free(s->only[i].queue_date);
		free(s->only[i].queue_deps);
		free(s->only[i].nak);
		strlist_clear(&s->only[i].after);
	}
	for (size_t i = 0; i < s->nr_not_needed; i++) {
		free(s->not_needed[i].subject);
		free(s->not_needed[i].why);
		strlist_clear(&s->not_needed[i].after);
	}
	for (size_t i = 0; i < s->nr_reverted; i++)
		free(s->reverted[i].subject);
	for (size_t i = 0; i < s->nr_dep_met; i++)
		free(s->dep_met[i].subject);
	free(s->only);
	free(s->reverted);
	free(s->dep_met);
	free(s->not_needed);
}

void sm_missing_result_release(struct sm_missing_result *res)
{
	side_release(&res->a);
	side_release(&res->b);
	memset(res, 0, sizeof(*res));
}

enum entry_list { ONLY_HERE, REVERTED, DEP_MET, NOT_NEEDED };

static void entry_json(const struct sm_missing_entry *e, enum entry_list list,
		       struct json_writer *w)
{
	json_object_begin(w, NULL);
	JSON_STRINGS(w, "upstream stable subject", e->upstream, e->stable, e->subject);
	if (list == ONLY_HERE || list == REVERTED)
		json_string(w, list == REVERTED ? "revert" : "other_revert",
			    e->revert[0] ? e->revert : NULL);
	if (list != REVERTED)
		json_string(w, "dep_of", e->dep_of[0] ? e->dep_of : NULL);
	if (list == ONLY_HERE) {
		json_string(w, "fix_of", e->fix_of[0] ? e->fix_of : NULL);
		json_bool_or_null(w, "applies_to_other", e->applies);
		json_bool(w, "change_there", e->change_there);
		json_strlist(w, "applies_after", &e->after);
		JSON_STRINGS(w, "queue_notice queue_date queue_dependencies nak", e->queue_notice,
			     e->queue_date, e->queue_deps && *e->queue_deps ? e->queue_deps : NULL,
			     e->nak);
	}
	if (list == NOT_NEEDED)
		JSON_STRINGS(w, "reason why", e->why_code, e->why);
	if (list == DEP_MET)
		json_string(w, "dep_there", e->dep_there);
	json_object_end(w);
}

static void side_json(const struct sm_missing_side *s, struct json_writer *w, const char *key)
{
	json_object_begin(w, key);
	json_string(w, "branch", s->branch);
	json_string(w, "since", s->since[0] ? s->since : NULL);
	json_int(w, "total", (long long)s->total);
	json_string(w, "index_cache", s->cache ? s->cache : "off");
	json_array_begin(w, "only_here");
	for (size_t i = 0; i < s->nr; i++)
		entry_json(&s->only[i], ONLY_HERE, w);
	json_array_end(w);
	json_array_begin(w, "reverted");
	for (size_t i = 0; i < s->nr_reverted; i++)
		entry_json(&s->reverted[i], REVERTED, w);
	json_array_end(w);
	json_array_begin(w, "prereq_of_present");
	for (size_t i = 0; i < s->nr_dep_met; i++)
		entry_json(&s->dep_met[i], DEP_MET, w);
	json_array_end(w);
	json_array_begin(w, "not_needed");
	for (size_t i = 0; i < s->nr_not_needed; i++)
		entry_json(&s->not_needed[i], NOT_NEEDED, w);
	json_array_end(w);
	json_object_end(w);
}

void sm_missing_result_json(const struct sm_missing_result *res, struct json_writer *w)
{
	json_object_begin(w, NULL);
	json_string(w, "merge_base", res->base[0] ? res->base : NULL);
	json_int(w, "in_both", (long long)res->in_both);
	side_json(&res->a, w, "a");
	side_json(&res->b, w, "b");
	json_object_end(w);
}
