/* scan results: release and JSON. */
#include "trees/scan.h"
#include "trees/afterlife.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include <string.h>

static void short_ids(struct strbuf *out, const struct strlist *ids)
{
	for (size_t k = 0; k < ids->nr; k++)
		strbuf_addf(out, "%s%.12s", k ? ", " : "", ids->items[k]);
}

void sm_scan_after_deps_text(const struct sm_scan_tree_result *tr, struct strbuf *out)
{
	if (tr->applies != 0 || tr->applies_after_deps != 1)
		return;
	strbuf_addf(out, " after its prerequisite%s ", tr->deps.nr == 1 ? "" : "s");
	short_ids(out, &tr->deps);
}

void sm_scan_search_text(const struct sm_scan_tree_result *tr, struct strbuf *out)
{
	if (tr->search != 1)
		return;
	if (tr->deps.nr) {	/* they were picked first, as ever */
		strbuf_addf(out, " after its prerequisite%s ", tr->deps.nr == 1 ? "" : "s");
		short_ids(out, &tr->deps);
		strbuf_addstr(out, " and");
	}
	strbuf_addstr(out, " after also taking ");
	short_ids(out, &tr->search_extra);
	strbuf_addstr(out, ", which the tree lacks, from the history of the files in conflict");
}

void sm_scan_backport_text(const struct sm_scan_tree_result *tr, const char *verb,
			   struct strbuf *out)
{
	if (!tr->backport_applies)
		return;
	strbuf_addf(out, "%s's backport %.12s %s", tr->backport_tree, tr->backport_applies, verb);
	if (!tr->backport_prereqs.nr)
		return;
	strbuf_addstr(out, " after ");
	short_ids(out, &tr->backport_prereqs);
	strbuf_addstr(out, ", which that tree took first");
}

void sm_scan_result_release(struct sm_scan_result *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		struct sm_scan_item *it = &r->items[i];

		sm_afterlife_item_release(it, r->nr_trees);
		for (size_t t = 0; it->trees && t < r->nr_trees; t++) {
			sm_verdict_release(&it->trees[t].verdict);
			free(it->trees[t].present_as);
			free(it->trees[t].backport_applies);
			strlist_clear(&it->trees[t].backport_prereqs);
			strlist_clear(&it->trees[t].deps);
			strlist_clear(&it->trees[t].search_extra);
			strlist_clear(&it->trees[t].search_order);
			free(it->trees[t].patch);
			free(it->trees[t].patch_stat);
		}
		free(it->trees);
		sm_commit_release(&it->commit);
		sm_verdict_release(&it->verdict);
		sm_verdict_release(&it->model);
		free(it->fixes_first_release);
		free(it->fixes_target);
	}
	free(r->items);
	free(r->tree_cache_state);
	for (size_t t = 0; r->tree_info && t < r->nr_trees; t++) {
		free(r->tree_info[t].branch);
		free(r->tree_info[t].base);
		free(r->tree_info[t].upstream);
		free(r->tree_info[t].trial_error);
	}
	free(r->tree_info);
	free(r->lifecycle_ref);
	free(r->lifecycle_note);
	free(r->review_notes_ref);
	memset(r, 0, sizeof(*r));
}

/* A block of the review note that decided something for a tree: who
 * said it, when, where, and for a notice what and its possible
 * dependencies; null when none. */
static void review_json(struct json_writer *w, const char *key, const struct sm_review *r)
{
	struct strlist ids = STRLIST_INIT;

	if (!r) {
		json_null(w, key);
		return;
	}
	json_object_begin(w, key);
	JSON_STRINGS(w, "message_id tree author date link comment", r->message_id, r->tree,
		     r->author, r->date, r->link, r->comment);
	if (sm_review_is_notice(r)) {
		json_string(w, "notice", r->notice);
		sm_review_notice_dependencies(r, &ids);
		json_strlist(w, "possible_dependencies", &ids);
		strlist_clear(&ids);
	} else {
		json_strlist(w, "trailers", &r->trailers);
	}
	json_object_end(w);
}

void sm_scan_result_json(const struct sm_scan_result *r, const struct sm_scan_opts *o,
			 struct json_writer *w)
{
	char vbuf[32];
	size_t nr_cand = 0;

	json_object_begin(w, NULL);
	json_string(w, "upstream", o->upstream);
	json_string(w, "range", o->range);
	json_array_begin(w, "trees");
	for (size_t t = 0; t < o->nr_trees; t++) {
		json_object_begin(w, NULL);
		json_string(w, "name", o->trees[t].name);
		json_string(w, "branch", r->tree_info && r->tree_info[t].branch ?
			    r->tree_info[t].branch : o->trees[t].branch);
		json_string(w, "version", sm_version_str(&o->trees[t].version, vbuf, sizeof(vbuf)));
		if (r->tree_cache_state && r->tree_cache_state[t])
			json_string(w, "index_cache", r->tree_cache_state[t]);
		if (r->tree_info) {
			const struct sm_scan_tree_info *ti = &r->tree_info[t];

			json_string(w, "base", ti->base);
			if (ti->upstream) {
				json_object_begin(w, "behind");
				json_string(w, "upstream", ti->upstream);
				json_int(w, "commits", (long long)ti->behind);
				json_object_end(w);
			} else {
				json_null(w, "behind");
			}
			json_string(w, "trial_error", ti->trial_error);
		}
		json_object_end(w);
	}
	json_array_end(w);
	if (r->lifecycle_ref) {
		json_object_begin(w, "lifecycle");
		json_string(w, "ref", r->lifecycle_ref);
		json_string(w, "index_cache", r->lifecycle_cache);
		json_int(w, "commits", (long long)r->lifecycle_nr);
		json_string(w, "note", r->lifecycle_note);
		json_object_end(w);
	} else {
		json_null(w, "lifecycle");
	}
	if (r->review_notes_ref) {
		json_object_begin(w, "review_notes");
		json_string(w, "ref", r->review_notes_ref);
		json_int(w, "notes", (long long)r->nr_review_notes);
		json_object_end(w);
	} else {
		json_null(w, "review_notes");
	}
	json_array_begin(w, "commits");
	for (size_t i = 0; i < r->nr; i++) {
		const struct sm_scan_item *it = &r->items[i];
		int any = 0;

		json_object_begin(w, NULL);
		json_string(w, "id", it->id);
		json_string(w, "subject", it->commit.subject ? it->commit.subject : "");
		json_string(w, "author", it->commit.author ? it->commit.author : "");
		json_bool(w, "merge", it->commit.is_merge);
		if (it->patch_id[0])
			json_string(w, "patch_id", it->patch_id);
		else
			json_null(w, "patch_id");
		json_string(w, "fixes_target", it->fixes_target);
		json_string(w, "fixes_first_release", it->fixes_first_release);
		json_int(w, "committed", it->committed);
		json_string(w, "reverted_by", it->reverted_by);
		json_strlist(w, "later_fixes", &it->later_fixes);
		json_array_begin(w, "needed_by");
		for (size_t k = 0; k < it->nr_needed_by; k++)
			json_string(w, NULL, it->needed_by[k].id);
		json_array_end(w);
		json_string(w, "soak_wait", it->soak_wait);
		json_string(w, "cve", it->cve);
		sm_verdict_json(&it->verdict, w, "verdict");
		json_array_begin(w, "trees");
		for (size_t t = 0; t < o->nr_trees && it->trees; t++) {
			const struct sm_scan_tree_result *tr = &it->trees[t];

			json_object_begin(w, NULL);
			json_string(w, "name", o->trees[t].name);
			json_bool(w, "candidate", tr->verdict.kind == SM_CANDIDATE);
			if (tr->verdict.kind == SM_CANDIDATE)
				any = 1;
			json_bool(w, "present", tr->present);
			json_string(w, "present_as", tr->present_as);
			json_bool_or_null(w, "applies", tr->applies);
			json_bool_or_null(w, "applies_after_deps", tr->applies_after_deps);
			if (tr->backport_applies) {
				json_object_begin(w, "backport_applies");
				JSON_STRINGS(w, "tree commit", tr->backport_tree, tr->backport_applies);
				json_strlist(w, "after", &tr->backport_prereqs);
				json_object_end(w);
			} else {
				json_null(w, "backport_applies");
			}
			if (tr->search >= 0) {
				json_object_begin(w, "search");
				json_bool(w, "applies", tr->search);
				json_int(w, "considered", (long long)tr->search_considered);
				json_strlist(w, "extra", &tr->search_extra);
				json_object_end(w);
			} else {
				json_null(w, "search");
			}
			json_strlist(w, "deps", &tr->deps);
			json_strlist(w, "take_with", &tr->take_with);
			json_string(w, "queued", tr->queued);
			review_json(w, "nak", tr->nak);
			review_json(w, "queue_notice", tr->queue_notice);
			sm_verdict_json(&tr->verdict, w, "verdict");
			json_object_end(w);
		}
		json_array_end(w);
		json_object_end(w);
		nr_cand += any;
	}
	json_array_end(w);
	json_int(w, "nr_commits", (long long)r->nr);
	json_int(w, "nr_candidates", (long long)nr_cand);
	json_object_end(w);
}
