#include "trees/backports.h"
#include "trees/tree_state.h"
#include "trees/trial.h"
#include "trees/patchid.h"
#include "trees/repo.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "rules/commit.h"
#include <ctype.h>
#include <string.h>

/* The +/- lines of a patch, whitespace removed, sorted. */
static void change_lines(const char *diff, struct strlist *out)
{
	const char *p = diff;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len && (p[0] == '+' || p[0] == '-') &&
		    !(len >= 4 && (!strncmp(p, "+++ ", 4) || !strncmp(p, "--- ", 4)))) {
			char *l = xmalloc(len + 1);
			size_t n = 0;

			for (size_t i = 0; i < len; i++)
				if (!isspace((unsigned char)p[i]))
					l[n++] = p[i];
			l[n] = '\0';
			strlist_append_nodup(out, l);
		}
		p = nl ? nl + 1 : p + len;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static unsigned lines_differ(const char *a, const char *b)
{
	struct strlist la = STRLIST_INIT, lb = STRLIST_INIT;
	size_t i = 0, j = 0;
	unsigned n = 0;

	change_lines(a, &la);
	change_lines(b, &lb);
	/* items is NULL for a patch with no change lines (an empty commit) */
	if (la.nr > 1)
		qsort(la.items, la.nr, sizeof(char *), cmp_str);
	if (lb.nr > 1)
		qsort(lb.items, lb.nr, sizeof(char *), cmp_str);
	while (i < la.nr || j < lb.nr) {
		int c = i == la.nr ? 1 : j == lb.nr ? -1 : strcmp(la.items[i], lb.items[j]);

		if (c == 0) {
			i++;
			j++;
		} else {
			n++;
			if (c < 0)
				i++;
			else
				j++;
		}
	}
	strlist_clear(&la);
	strlist_clear(&lb);
	return n;
}

/* The files a patch in git's format changes, as classify reads a diff
 * (rules/diffstat.c: the new name of each "diff --git" header, quoted
 * names decoded). */
static void patch_files(const char *diff, struct strlist *out)
{
	struct sm_commit c;

	memset(&c, 0, sizeof(c));
	sm_commit_parse_diff(&c, diff, strlen(diff));
	for (size_t k = 0; k < c.nr_files; k++)
		strlist_append(out, c.files[k].path);
	sm_commit_release(&c);
}

/* The items of a not in b, into out. */
static void only_in(const struct strlist *a, const struct strlist *b, struct strlist *out)
{
	for (size_t i = 0; i < a->nr; i++)
		if (!strlist_contains(b, a->items[i]) && !strlist_contains(out, a->items[i]))
			strlist_append(out, a->items[i]);
}

/* How backport's patch differs from upstream's (their patch-ids do): the
 * +/- lines in one and not the other, and the files only one changes,
 * which for a file mainline moved after the tree's release is the same
 * file under its two names (the change may well be the same). */
static void compare_patches(const char *upstream, const char *backport, struct sm_backport *b)
{
	struct strlist up = STRLIST_INIT, here = STRLIST_INIT;

	b->lines_differ = lines_differ(upstream, backport);
	patch_files(upstream, &up);
	patch_files(backport, &here);
	only_in(&here, &up, &b->files_here);
	only_in(&up, &here, &b->files_upstream);
	strlist_clear(&up);
	strlist_clear(&here);
}

static int commit_diff(git_repository *repo, const char *hex, struct strbuf *out)
{
	git_oid id;
	git_commit *c = NULL;
	int r;

	if (git_oid_fromstr(&id, hex) < 0 || git_commit_lookup(&c, repo, &id) < 0)
		return sm_error("commit %s: unreadable", hex);
	r = sm_commit_diff_text(repo, c, out);
	git_commit_free(c);
	return r;
}

/* A backport that conflicts on my tree alone: does it apply after the
 * prerequisites its tree took for it that mine lacks, in order, as steal
 * --backports-from would pick them? Sets b->applies_after_prereqs. */
static void trial_after_prereqs(struct sm_trial *tr, struct sm_backport *b, const git_oid *onto)
{
	const char **ids = xcalloc(b->nr_prereqs + 2, sizeof(*ids));
	size_t n = 0;

	for (size_t k = 0; k < b->nr_prereqs; k++)
		if (b->prereqs[k].mine_lacks)
			ids[n++] = b->prereqs[k].stable;
	if (n) {
		ids[n] = b->stable;
		b->applies_after_prereqs = sm_trial_applies(tr, onto, ids, n + 1, NULL);
	}
	free(ids);
}

/* The commits the tree took as prerequisites of its backport at (see
 * sm_upstream_index_prereqs_of) into b, each looked up in mine (may be
 * NULL; one mine took and reverted counts as lacking). */
static void find_prereqs(git_repository *repo, const struct sm_upstream_index *idx, size_t at,
			 const char *fix, struct sm_tree_state *mine, struct sm_backport *b)
{
	size_t found[SM_PREREQ_WINDOW];
	size_t nr = sm_upstream_index_prereqs_of(idx, repo, at, fix, found, SM_PREREQ_WINDOW);

	b->prereqs = nr ? xcalloc(nr, sizeof(*b->prereqs)) : NULL;
	for (size_t k = 0; k < nr; k++) {
		const struct sm_upstream_entry *e = &idx->entries[found[k]];
		struct sm_backport_prereq *p = &b->prereqs[b->nr_prereqs++];

		memcpy(p->stable, e->stable, 41);
		memcpy(p->upstream, e->upstream, 41);
		p->subject = xstrdup(e->subject);
		p->mine_lacks = mine && !sm_tree_state_carries(mine, e->upstream[0] ? e->upstream :
								 e->stable, e->patch_id, e->subject);
	}
}

int sm_backports(git_repository *repo, const char *fix, const struct sm_tree_spec *trees,
		 size_t nr, const struct sm_tree_spec *mine, const char *cache_dir,
		 struct sm_backports_result *res)
{
	struct strbuf fix_diff = STRBUF_INIT;
	struct sm_tree_state mt;
	struct sm_trial tr;
	git_oid fid;
	git_commit *c = NULL;
	int have_mine = 0, have_trial = 0, ret = -1;

	memset(res, 0, sizeof(*res));
	res->upstream_applies = -1;
	if (sm_resolve_commit(repo, fix, &fid) < 0)
		return -1;
	git_oid_tostr(res->fix, sizeof(res->fix), &fid);
	if (git_commit_lookup(&c, repo, &fid) < 0)
		return sm_error("%s: unreadable (%s)", fix, sm_git_error());
	res->subject = sm_commit_subject(c);
	if (sm_commit_diff_text(repo, c, &fix_diff) < 0)
		goto out;
	if (fix_diff.len)
		sm_patch_id_from_text(fix_diff.buf, fix_diff.len, res->patch_id);
	sm_clear_error();
	if (mine) {
		const struct sm_upstream_entry *e;

		if (sm_tree_state_open(&mt, mine, repo, NULL, cache_dir) < 0)
			goto out;
		have_mine = 1;
		res->mine = mine->name;
		e = sm_upstream_index_find(&mt.idx, res->fix, res->patch_id, res->subject, NULL);
		if (e) {
			const struct sm_upstream_entry *r = sm_tree_state_revert_of(&mt, e);

			res->mine_has = 1;
			memcpy(res->mine_as, e->stable, 41);
			if (r)
				memcpy(res->mine_reverted_by, r->stable, 41);
		} else if (sm_trial_open(&tr, repo) == 0) {
			const char *fix_id = res->fix;

			have_trial = 1;
			if (git_commit_parentcount(c) == 1)
				res->upstream_applies = sm_trial_applies(&tr, &mt.tip, &fix_id, 1, NULL);
			res->upstream_changes_nothing = res->upstream_applies == 1 && tr.unchanged;
		}
		sm_clear_error();	/* no trial handle: "not checked" */
	}
	res->trees = xcalloc(nr + 1, sizeof(*res->trees));
	for (size_t i = 0; i < nr; i++) {
		struct sm_backport *b = &res->trees[res->nr++];
		struct sm_tree_state t;
		const struct sm_upstream_entry *e;

		b->tree = trees[i].name;
		b->applies = -1;
		b->applies_after_prereqs = -1;
		if (sm_tree_state_open(&t, &trees[i], repo, NULL, cache_dir) < 0)
			goto out;
		e = sm_upstream_index_find(&t.idx, res->fix, res->patch_id, res->subject, &b->how);
		if (e) {
			struct strbuf sd = STRBUF_INIT;
			const struct sm_upstream_entry *r = sm_tree_state_revert_of(&t, e);
			char pid[41] = "";

			memcpy(b->stable, e->stable, 41);
			if (r)
				memcpy(b->reverted_by, r->stable, 41);
			find_prereqs(repo, &t.idx, (size_t)(e - t.idx.entries), res->fix,
				     have_mine ? &mt : NULL, b);
			if (commit_diff(repo, e->stable, &sd) < 0) {
				strbuf_release(&sd);
				sm_tree_state_close(&t);
				goto out;
			}
			if (sd.len)
				sm_patch_id_from_text(sd.buf, sd.len, pid);
			sm_clear_error();
			b->differs = strcmp(pid, res->patch_id) != 0;
			if (b->differs)
				compare_patches(fix_diff.buf, sd.buf, b);
			strbuf_release(&sd);
			if (have_trial && b->how != SM_MATCH_SAME_COMMIT) {
				const char *id = b->stable;

				b->applies = sm_trial_applies(&tr, &mt.tip, &id, 1, &b->conflicts);
				b->change_there = b->applies == 1 && tr.unchanged;
				if (b->applies == 0)
					trial_after_prereqs(&tr, b, &mt.tip);
			}
		}
		sm_tree_state_close(&t);
	}
	ret = 0;
out:
	if (ret < 0)
		sm_backports_result_release(res);
	if (have_trial)
		sm_trial_release(&tr);
	if (have_mine)
		sm_tree_state_close(&mt);
	git_commit_free(c);
	strbuf_release(&fix_diff);
	return ret;
}

void sm_backports_result_release(struct sm_backports_result *res)
{
	for (size_t i = 0; i < res->nr; i++) {
		strlist_clear(&res->trees[i].conflicts);
		strlist_clear(&res->trees[i].files_here);
		strlist_clear(&res->trees[i].files_upstream);
		for (size_t k = 0; k < res->trees[i].nr_prereqs; k++)
			free(res->trees[i].prereqs[k].subject);
		free(res->trees[i].prereqs);
	}
	free(res->trees);
	free(res->subject);
	memset(res, 0, sizeof(*res));
}

static void backport_json(const struct sm_backport *b, int mine, struct json_writer *w)
{
	json_object_begin(w, NULL);
	json_string(w, "tree", b->tree);
	json_bool(w, "backported", b->how != SM_MATCH_NONE);
	if (b->how != SM_MATCH_NONE) {
		json_string(w, "stable", b->stable);
		json_string(w, "matched_by", sm_match_name(b->how));
		json_bool(w, "differs", b->differs);
		json_int(w, "lines_differ", b->lines_differ);
		json_strlist(w, "files_only_backport", &b->files_here);
		json_strlist(w, "files_only_upstream", &b->files_upstream);
		json_string(w, "reverted_by", b->reverted_by[0] ? b->reverted_by : NULL);
	}
	json_bool_or_null(w, "applies_to_mine", b->applies);
	json_bool(w, "change_there", b->change_there);
	json_bool_or_null(w, "applies_after_prerequisites", b->applies_after_prereqs);
	json_strlist(w, "conflicts", &b->conflicts);
	json_array_begin(w, "prerequisites");
	for (size_t k = 0; k < b->nr_prereqs; k++) {
		const struct sm_backport_prereq *p = &b->prereqs[k];

		json_object_begin(w, NULL);
		JSON_STRINGS(w, "stable upstream subject", p->stable,
			     p->upstream[0] ? p->upstream : NULL, p->subject);
		json_bool_or_null(w, "mine_lacks", mine ? p->mine_lacks : -1);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

void sm_backports_result_json(const struct sm_backports_result *res, struct json_writer *w)
{
	json_object_begin(w, NULL);
	JSON_STRINGS(w, "fix subject patch_id", res->fix, res->subject, res->patch_id);
	json_array_begin(w, "trees");
	for (size_t i = 0; i < res->nr; i++)
		backport_json(&res->trees[i], res->mine != NULL, w);
	json_array_end(w);
	if (res->mine) {
		json_object_begin(w, "mine");
		json_string(w, "tree", res->mine);
		json_bool(w, "has_fix", res->mine_has);
		if (res->mine_has) {
			json_string(w, "as", res->mine_as);
			json_string(w, "reverted_by",
				    res->mine_reverted_by[0] ? res->mine_reverted_by : NULL);
		}
		json_bool_or_null(w, "upstream_applies", res->upstream_applies);
		json_bool(w, "change_there", res->upstream_changes_nothing);
		json_object_end(w);
	}
	json_object_end(w);
}
