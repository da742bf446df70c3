/* afterlife: reverted, fixed later, soak, queued, CVE (see afterlife.h). */
#include "trees/afterlife.h"
#include "trees/branch_cache.h"
#include "trees/mainline.h"
#include "trees/repo.h"
#include "trees/tree_state.h"
#include "trees/tree_reviews.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "rules/rules_load.h"
#include <string.h>
#include <strings.h>
#include <time.h>

void sm_afterlife_life_build(struct sm_afterlife_life *l, const struct sm_scan_opts *o,
			     git_repository *repo, const git_oid *from,
			     const struct sm_known_walk *known)
{
	memset(l, 0, sizeof(*l));
	if (o->upstream_ref && !*o->upstream_ref)
		return;
	if (o->upstream_ref) {
		l->ref = sm_resolve_ref_name(repo, o->upstream_ref);
	} else {
		l->ref = sm_mainline_ref(repo, known ? &known->tip : NULL, sm_range_end(o->range),
					 o->cache_dir, &l->note);
	}
	if (sm_lifecycle_build_known(&l->lc, repo, l->ref, from, o->cache_dir, known) < 0) {
		l->error = xasprintf("upstream ref %s: %s", l->ref, sm_last_error());
		sm_clear_error();
		sm_lifecycle_release(&l->lc);
		l->ret = -1;
		return;
	}
	l->ret = 1;
}

void sm_afterlife_life_release(struct sm_afterlife_life *l)
{
	if (l->ret > 0)
		sm_lifecycle_release(&l->lc);
	free(l->ref);
	free(l->note);
	free(l->error);
	memset(l, 0, sizeof(*l));
}

int sm_afterlife_open(struct sm_afterlife *a, const struct sm_scan_opts *o, git_repository *repo,
		      struct sm_release_tags *tags, struct sm_afterlife_life *life,
		      struct sm_scan_result *out)
{
	memset(a, 0, sizeof(*a));
	a->o = o;
	a->repo = repo;
	a->tags = tags;
	if (sm_soak_load(&a->soak, repo, o->now ? (time_t)o->now : time(NULL)) < 0)
		goto fail;
	if (life->ret < 0) {
		sm_error("%s", life->error);
		goto fail;
	}
	if (life->ret > 0) {
		a->life = life->lc;
		a->have_life = 1;
		out->lifecycle_cache = sm_cache_state_name(a->life.cache_state);
		out->lifecycle_ref = life->ref;
		out->lifecycle_note = life->note;
		life->note = NULL;
		out->lifecycle_nr = a->life.nr;
		life->ref = NULL;
		life->ret = 0;	/* a->life owns the index now */
	}
	if (o->queue_dir) {
		a->have_queue = 1;	/* released in part on failure */
		if (sm_stable_queue_load(&a->queue, o->queue_dir) < 0)
			goto fail;
		for (size_t i = 0; i < a->queue.nr; i++)
			out->nr_queued += a->queue.trees[i].nr;
	}
	if (o->cve_dir) {
		a->have_cve = 1;
		if (sm_cve_load(&a->cve, o->cve_dir) < 0)
			goto fail;
		out->nr_cves = a->cve.nr;
	}
	if (!o->notes_ref || *o->notes_ref) {
		char *ref = sm_notes_ref_full(o->notes_ref ? o->notes_ref : SM_NOTES_REF_DEFAULT);

		if (sm_notes_index_load(&a->notes, repo, ref) < 0) {
			free(ref);
			goto fail;
		}
		out->nr_review_notes = a->notes.nr;
		out->review_notes_ref = ref;
	}
	return 0;
fail:
	sm_afterlife_life_release(life);
	sm_afterlife_close(a);
	return -1;
}

void sm_afterlife_close(struct sm_afterlife *a)
{
	if (a->have_life)
		sm_lifecycle_release(&a->life);
	sm_soak_release(&a->soak);
	if (a->have_queue)
		sm_stable_queue_release(&a->queue);
	if (a->have_cve)
		sm_cve_release(&a->cve);
	sm_notes_index_release(&a->notes);
	memset(a, 0, sizeof(*a));
}

static const char *subject_of(const struct sm_afterlife *a, const char *id)
{
	const struct sm_life_entry *e = a->have_life ? sm_lifecycle_entry(&a->life, id) : NULL;

	return e ? e->subject : "?";
}

static void take_together(const struct sm_afterlife *a, const struct strlist *ids,
			  struct sm_verdict *v)
{
	struct strbuf sb = STRBUF_INIT;

	if (!ids->nr)
		return;
	strbuf_addstr(&sb, "take together: ");
	for (size_t i = 0; i < ids->nr; i++)
		strbuf_addf(&sb, "%s%.12s %s", i ? "; " : "", ids->items[i],
			    subject_of(a, ids->items[i]));
	sm_verdict_add(v, "fixed-later", 0, "%s", sb.buf);
	strbuf_release(&sb);
}

/* The commits whose stable tags name it as a prerequisite, read with
 * their messages (the tags say which trees). */
static void read_needers(struct sm_afterlife *a, struct sm_scan_item *it)
{
	struct strlist ids = STRLIST_INIT;

	sm_lifecycle_needed_by(&a->life, it->id, &ids);
	if (ids.nr)
		it->needed_by = xcalloc(ids.nr, sizeof(*it->needed_by));
	for (size_t i = 0; i < ids.nr; i++) {
		struct sm_scan_needer *n = &it->needed_by[it->nr_needed_by];
		git_commit *c = NULL;
		git_oid oid;

		if (git_oid_fromstr(&oid, ids.items[i]) < 0 ||
		    git_commit_lookup(&c, a->repo, &oid) < 0 ||
		    sm_commit_load(a->repo, c, 0, &n->msg, NULL) < 0) {
			git_commit_free(c);
			sm_clear_error();	/* indexed, so there: a broken object says nothing */
			continue;
		}
		git_commit_free(c);
		memcpy(n->id, ids.items[i], sizeof(n->id));
		n->subject = xstrdup(subject_of(a, n->id));
		it->nr_needed_by++;
	}
	strlist_clear(&ids);
}

/* The weight that makes v a candidate: at least the lift of a fix for a
 * fix (trees/tree_judge.c), more when v scores lower still. */
static int candidate_lift(const struct sm_rules *r, const struct sm_verdict *v)
{
	int lift = sm_rules_promote_weight(r);
	int needed = sm_rules_candidate_score(r) - sm_verdict_weight_sum(v);

	return needed > lift ? needed : lift;
}

/* Adds "prereq-of" to v when a needer's stable tag names it for this tree
 * (tree NULL: for any tree), unless the tree t carries that needer already
 * (t NULL: no tree). It makes v a candidate (vetoes still stand): the fix's
 * author asked for it in stable by name, and steal takes candidates only,
 * so without it the fix would not apply. */
static void prereq_of(const struct sm_afterlife *a, const struct sm_scan_item *it,
		      const struct sm_version *tree, struct sm_tree_state *t,
		      struct sm_verdict *v)
{
	struct strbuf sb = STRBUF_INIT;
	char trees[64];

	for (size_t i = 0; i < it->nr_needed_by; i++) {
		const struct sm_scan_needer *n = &it->needed_by[i];

		if (t && sm_tree_state_carries(t, n->id, NULL, NULL))
			continue;
		for (size_t k = 0; k < n->msg.nr_stable; k++) {
			const struct sm_stable_tag *st = &n->msg.stable[k];

			if (!st->prereq_sha || strlen(st->prereq_sha) < 7 ||
			    strncasecmp(it->id, st->prereq_sha, strlen(st->prereq_sha)) ||
			    (tree && sm_stable_tag_wants(st, tree) == 0))
				continue;
			strbuf_addf(&sb, "%s%.12s (%s), for %s", sb.len ? "; " : "", n->id, n->subject,
				    sm_stable_tag_trees(st, trees, sizeof(trees)));
			break;
		}
	}
	if (sb.len)
		sm_verdict_add(v, "prereq-of", candidate_lift(a->o->rules, v),
			       "a stable tag names it as the prerequisite of %s", sb.buf);
	strbuf_release(&sb);
}

static void day(long long t, char buf[32])
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, 32, "%Y-%m-%d", &tm);
}

static void soak_item(struct sm_afterlife *a, struct sm_scan_item *it)
{
	struct strbuf sb = STRBUF_INIT;
	git_oid oid;

	it->soak_tag = -1;
	for (size_t k = 0; k < it->commit.nr_stable && !it->soak_wait; k++) {
		const char *cond = it->commit.stable[k].condition;
		int r;

		if (!cond || it->commit.stable[k].prereq_sha)
			continue;
		strbuf_reset(&sb);
		if (git_oid_fromstr(&oid, it->id) < 0)
			break;
		r = sm_soak_check(&a->soak, a->tags, a->repo, &oid, (time_t)it->committed, cond, &sb);
		if (r == 0) {
			it->soak_wait = xasprintf("# %s: %s", cond, sb.buf);
			it->soak_tag = (int)k;
		} else if (r == 1) {
			sm_verdict_add(&it->verdict, "soak-met", 0, "# %s: %s", cond, sb.buf);
		}
	}
	if (!it->soak_wait && a->o->min_soak_days > 0 &&
	    it->committed + (long long)a->o->min_soak_days * 86400 > (long long)a->soak.now) {
		char since[32], until[32];

		day(it->committed, since);
		day(it->committed + (long long)a->o->min_soak_days * 86400, until);
		it->soak_wait = xasprintf("in mainline since %s, under the %d-day minimum soak; held until %s",
					  since, a->o->min_soak_days, until);
	}
	if (it->soak_wait)
		sm_verdict_add(&it->verdict, "soak", 0, "%s", it->soak_wait);
	strbuf_release(&sb);
}

static void cve_item(struct sm_afterlife *a, struct sm_scan_item *it)
{
	const struct sm_cve *c = sm_cve_find(&a->cve, it->id);
	struct strbuf sb = STRBUF_INIT, st = STRBUF_INIT;
	size_t n = 0;

	if (!c)
		return;
	it->cve = xstrdup(c->id);
	strbuf_addf(&sb, "the fix of %s", c->id);
	for (size_t t = 0; t < a->o->nr_trees; t++) {
		strbuf_reset(&st);
		if (sm_cve_tree_state(c, &a->o->trees[t].version, &st) == 1)
			strbuf_addf(&sb, "%s%s", n++ ? ", " : "; the record lists as still affected: ",
				    a->o->trees[t].name);
	}
	sm_verdict_add(&it->verdict, "cve", 0, "%s", sb.buf);
	strbuf_release(&sb);
	strbuf_release(&st);
}

/* The item's review note, kept for its trees when it has blocks. A note
 * that cannot be read (a blob missing from the object store) is said in a
 * reason of the item's verdict: the scan goes on. */
static void read_review_note(struct sm_afterlife *a, struct sm_scan_item *it)
{
	struct sm_note *n;
	git_oid oid;
	int rc;

	if (!a->notes.nr || git_oid_fromstr(&oid, it->id))
		return;
	n = xmalloc(sizeof(*n));
	rc = sm_notes_index_read(&a->notes, a->repo, &oid, n);
	if (rc == SM_NOTE_FOUND && n->nr) {
		it->review_note = n;
		return;
	}
	if (rc < 0) {
		sm_verdict_add(&it->verdict, "review-note", 0, "%s", sm_last_error());
		sm_clear_error();
	}
	sm_note_release(n);
	free(n);
}

/* sm_notice_mark_fn for a FAILED notice's possible dependencies: those
 * the tree carries are said so (as deps says it), the rest left unmarked.
 * By the index alone, no walk of the history: the script lists commits
 * since the tree's release, and a scan may meet many notices. */
struct notice_marks {
	struct sm_afterlife *a;
	struct sm_tree_state *t;
};

static void mark_in_tree(void *ctx, const char *id, struct strbuf *out)
{
	struct notice_marks *m = ctx;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	if (sm_resolve_hex(m->a->repo, id, &oid) < 0)
		return;
	git_oid_tostr(hex, sizeof(hex), &oid);
	if (sm_tree_state_carries(m->t, hex, NULL, NULL))
		strbuf_addf(out, " (in %s already)", m->t->spec->name);
}

/* A NAK for the tree's version vetoes it there; the stable queue's latest
 * notice for the version: "queued" vetoes it as a queue directory's patch
 * does (unless that said so already), "failed to apply" is a reason, with
 * the script's possible dependencies, those the tree has marked. A commit
 * the tree has needs no notice. */
static void tree_reviews(struct sm_afterlife *a, const struct sm_scan_item *it,
			 const struct sm_tree_spec *spec, struct sm_tree_state *t,
			 struct sm_scan_tree_result *tr)
{
	struct notice_marks marks = { a, t };
	struct sm_tree_reviews said;
	struct strbuf sb = STRBUF_INIT;

	sm_tree_reviews_find(it->review_note, &spec->version, &said);
	if (said.nak) {
		tr->nak = said.nak;
		sm_tree_reviews_nak_text(said.nak, &sb);
		sm_verdict_veto(&tr->verdict, "nak", "NAKed for %s: %s", said.nak->tree, sb.buf);
	}
	if (said.notice && !tr->present) {
		tr->queue_notice = said.notice;
		strbuf_reset(&sb);
		sm_review_notice_line_marked(said.notice, 0, mark_in_tree, &marks, &sb);
		if (strcmp(said.notice->notice, SM_NOTICE_QUEUED))
			sm_verdict_add(&tr->verdict, "queue-failed", 0, "the stable queue %s", sb.buf);
		else if (!tr->queued)
			sm_verdict_veto(&tr->verdict, "queued", "the stable queue has it: %s", sb.buf);
	}
	strbuf_release(&sb);
}

void sm_afterlife_item(struct sm_afterlife *a, struct sm_scan_item *it)
{
	git_commit *c = NULL;
	git_oid oid;

	/* Set by the loading already (scan's load_commit), else read here. */
	if (!it->committed && git_oid_fromstr(&oid, it->id) == 0 &&
	    git_commit_lookup(&c, a->repo, &oid) == 0) {
		it->committed = (long long)git_commit_committer(c)->when.time;
		git_commit_free(c);
	}
	read_review_note(a, it);
	if (a->have_life) {
		const struct sm_life_entry *undone = NULL;
		const struct sm_life_entry *r = sm_lifecycle_reverted(&a->life, it->id, &undone);

		if (r) {
			it->reverted_by = xstrdup(r->id);
			sm_verdict_veto(&it->verdict, "reverted", "reverted upstream by %.12s (%s)",
					r->id, r->subject);
		} else if (undone) {
			const struct sm_life_entry *back = sm_lifecycle_reverted(&a->life, undone->id, NULL);

			sm_verdict_add(&it->verdict, "revert-undone", 0,
				       "reverted by %.12s (%s), restored by %.12s (%s)", undone->id,
				       undone->subject, back ? back->id : "?", back ? back->subject : "?");
		}
		sm_lifecycle_fixed_by(&a->life, it->id, &it->later_fixes);
		take_together(a, &it->later_fixes, &it->verdict);
		read_needers(a, it);
		prereq_of(a, it, NULL, NULL, &it->verdict);
	}
	soak_item(a, it);
	if (a->have_cve)
		cve_item(a, it);
	sm_verdict_finish(a->o->rules, &it->verdict);
	sm_afterlife_hold(a, it, (size_t)-1, &it->verdict);
}

static int soak_applies(const struct sm_scan_item *it, const struct sm_tree_spec *spec)
{
	if (!it->soak_wait)
		return 0;
	if (it->soak_tag < 0)
		return 1;
	return sm_stable_tag_wants(&it->commit.stable[it->soak_tag], &spec->version) != 0;
}

/* A revert upstream, for one tree: of a commit the tree lacks, vetoed
 * (revert-of-absent); of a commit the tree took as a backport (not from
 * its release), a candidate (revert-of-backport): mainline dropped the
 * change, and the tree carries it only because stable took it, which is
 * when stable takes the revert too. A commit of the tree's own release is
 * left to the classifier: reverting an old change is a choice. */
static void revert_for_tree(struct sm_afterlife *a, const struct sm_scan_item *it,
			    const struct sm_tree_spec *spec, struct sm_tree_state *t,
			    struct sm_scan_tree_result *tr)
{
	const struct sm_upstream_entry *copy;
	const struct sm_release *rel;
	git_oid tid;
	char hex[41];

	if (sm_release_tags_resolve(a->tags, a->repo, it->commit.reverts_sha, &tid) < 0) {
		sm_clear_error();
		return;
	}
	rel = sm_first_release(a->tags, a->repo, &tid);
	sm_clear_error();
	git_oid_tostr(hex, sizeof(hex), &tid);
	if (rel && sm_version_cmp_tree(&rel->version, &spec->version) <= 0)
		return;		/* in the tree's release */
	copy = sm_tree_state_carries(t, hex, NULL, NULL);
	if (!copy)
		sm_verdict_veto(&tr->verdict, "revert-of-absent",
				"reverts %.12s, which %s does not have", hex, spec->name);
	else if (strcmp(copy->stable, hex))
		sm_verdict_add(&tr->verdict, "revert-of-backport",
			       candidate_lift(a->o->rules, &tr->verdict),
			       "reverts %.12s, which %s took as %.12s: mainline dropped the change",
			       hex, spec->name, copy->stable);
}

void sm_afterlife_tree(struct sm_afterlife *a, struct sm_scan_item *it, size_t ti,
		       struct sm_tree_state *t)
{
	const struct sm_tree_spec *spec = &a->o->trees[ti];
	struct sm_scan_tree_result *tr = &it->trees[ti];

	for (size_t k = 0; k < it->verdict.nr_reasons; k++) {
		const struct sm_reason *r = &it->verdict.reasons[k];

		if (!strcmp(r->code, "reverted"))
			sm_verdict_veto(&tr->verdict, r->code, "%s", r->text);
		else if (!strcmp(r->code, "revert-undone") || !strcmp(r->code, "soak-met") ||
			 (!strcmp(r->code, "soak") && soak_applies(it, spec)))
			sm_verdict_add(&tr->verdict, r->code, 0, "%s", r->text);
	}
	if (it->commit.reverts_sha)
		revert_for_tree(a, it, spec, t, tr);
	for (size_t i = 0; i < it->later_fixes.nr; i++)
		if (!sm_tree_state_carries(t, it->later_fixes.items[i], NULL, NULL))
			strlist_append(&tr->take_with, it->later_fixes.items[i]);
	take_together(a, &tr->take_with, &tr->verdict);
	prereq_of(a, it, &spec->version, t, &tr->verdict);
	if (a->have_queue) {
		const struct sm_queued *q = sm_stable_queue_find(&a->queue, &spec->version, it->id);

		if (q) {
			tr->queued = xstrdup(q->patch);
			sm_verdict_veto(&tr->verdict, "queued", "already queued for %s as %s",
					spec->name, q->patch);
		}
	}
	if (it->review_note)
		tree_reviews(a, it, spec, t, tr);
	if (it->cve) {
		const struct sm_cve *c = sm_cve_find(&a->cve, it->id);
		struct strbuf st = STRBUF_INIT;

		sm_cve_tree_state(c, &spec->version, &st);
		sm_verdict_add(&tr->verdict, "cve", 0, "the fix of %s; the record says %s: %s",
			       c->id, spec->name, st.buf);
		strbuf_release(&st);
	}
}

void sm_afterlife_hold(struct sm_afterlife *a, const struct sm_scan_item *it, size_t ti,
		       struct sm_verdict *v)
{
	if (v->kind != SM_CANDIDATE || !it->soak_wait)
		return;
	if (ti != (size_t)-1 && !soak_applies(it, &a->o->trees[ti]))
		return;
	v->kind = SM_MAYBE;
}

void sm_afterlife_item_release(struct sm_scan_item *it, size_t nr_trees)
{
	for (size_t t = 0; it->trees && t < nr_trees; t++) {
		strlist_clear(&it->trees[t].take_with);
		free(it->trees[t].queued);
	}
	free(it->reverted_by);
	strlist_clear(&it->later_fixes);
	for (size_t i = 0; i < it->nr_needed_by; i++) {
		free(it->needed_by[i].subject);
		sm_commit_release(&it->needed_by[i].msg);
	}
	free(it->needed_by);
	free(it->cve);
	free(it->soak_wait);
	if (it->review_note) {
		sm_note_release(it->review_note);
		free(it->review_note);
		it->review_note = NULL;
	}
}
