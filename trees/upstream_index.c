#include "trees/upstream_index.h"
#include "trees/branch_cache.h"
#include "trees/repo.h"
#include "trees/patchid.h"
#include "rules/commit.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* 2: subjects in UTF-8 (a commit in another charset converted, not as
 * stored); patch-ids of the diff with renames found (trees/commitdiff.c);
 * 3: "(backported from commit X)" and "(cherry picked from commit X tree)"
 * name the upstream commit (rules/trailers.c); 4: of several references
 * the stable form, else the last (a cherry-pick -x of a commit that had
 * its own "(cherry picked from" line names its source last) */
#define CACHE_MAGIC "stablemate-upstream-index 4"

const char *sm_match_name(enum sm_match how)
{
	switch (how) {
	case SM_MATCH_UPSTREAM_ID: return "upstream-id";
	case SM_MATCH_SAME_COMMIT: return "same-commit";
	case SM_MATCH_PATCH_ID: return "patch-id";
	case SM_MATCH_SUBJECT: return "subject";
	default: return "none";
	}
}

static struct sm_upstream_entry *new_entry(struct sm_upstream_index *idx)
{
	struct sm_upstream_entry *e;

	ALLOC_GROW(idx->entries, idx->nr, idx->alloc);
	e = &idx->entries[idx->nr++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* Subjects that say nothing about the change are not matched on. */
static int subject_matchable(const char *s)
{
	return *s && !starts_with(s, "Merge ") && !starts_with(s, "Linux ") &&
	       strcmp(s, "Revert") != 0;
}

static void build_maps(struct sm_upstream_index *idx)
{
	strmap_clear(&idx->by_upstream);
	strmap_clear(&idx->by_stable);
	strmap_clear(&idx->by_patch_id);
	strmap_clear(&idx->by_subject);
	idx->nr_abbrev = 0;
	for (size_t i = 0; i < idx->nr; i++) {
		struct sm_upstream_entry *e = &idx->entries[i];

		strmap_put(&idx->by_stable, e->stable, i);
		if (e->upstream[0]) {
			strmap_put(&idx->by_upstream, e->upstream, i);
			if (strlen(e->upstream) < 40) {
				ALLOC_GROW(idx->abbrev, idx->nr_abbrev, idx->alloc_abbrev);
				idx->abbrev[idx->nr_abbrev++] = i;
			}
		}
		if (e->patch_id[0])
			strmap_put(&idx->by_patch_id, e->patch_id, i);
		if (subject_matchable(e->subject))
			strmap_put(&idx->by_subject, e->subject, i);
	}
}

/* Reads one commit into a new entry (sm_branch_index_ops.add_commit). */
static int index_commit(void *data, git_repository *repo, const git_oid *id)
{
	struct sm_upstream_index *idx = data;
	git_commit *c = NULL;
	const char *msg;
	struct sm_upstream_entry *e;
	char *up, *owned_msg;
	char hex[41];

	git_oid_tostr(hex, sizeof(hex), id);
	if (git_commit_lookup(&c, repo, id) < 0)
		return sm_error("%s: commit %s unreadable (%s)", idx->refname, hex, sm_git_error());
	msg = sm_commit_utf8(c, git_commit_message_raw(c), &owned_msg);
	e = new_entry(idx);
	memcpy(e->stable, hex, 41);
	e->subject = sm_commit_subject(c);
	up = msg ? sm_find_upstream_ref(msg, strlen(msg)) : NULL;
	free(owned_msg);
	if (up) {
		size_t n = strlen(up);
		git_oid full;

		for (size_t i = 0; i < n; i++)
			up[i] = tolower((unsigned char)up[i]);
		if (n < 40 && sm_resolve_hex(repo, up, &full) == 0)
			git_oid_tostr(e->upstream, sizeof(e->upstream), &full);
		else
			snprintf(e->upstream, sizeof(e->upstream), "%.40s", up);
		free(up);
	} else if (git_commit_parentcount(c) <= 1) {
		struct strbuf diff = STRBUF_INIT;

		if (sm_commit_diff_text(repo, c, &diff) < 0) {
			strbuf_release(&diff);
			git_commit_free(c);
			return -1;
		}
		if (diff.len && sm_patch_id_from_text(diff.buf, diff.len, e->patch_id) < 0) {
			sm_clear_error();
			e->patch_id[0] = '\0';
		}
		strbuf_release(&diff);
	}
	git_commit_free(c);
	return 0;
}

static int is_hex40_or_dash(const char *s, size_t len, int allow_short)
{
	if (len == 1 && s[0] == '-')
		return 1;
	return len <= 40 && len >= (allow_short ? 4 : 40) && is_lower_hex(s, len);
}

/* Reads one cache entry line, "<stable> <upstream|-> <patch-id|-> <subject>". */
static int read_entry(void *data, const char *line, size_t len)
{
	struct sm_upstream_index *idx = data;
	struct sm_branch_entry_line f;
	struct sm_upstream_entry *e;

	if (sm_branch_cache_split_entry(line, len, &f) < 0 ||
	    !is_hex40_or_dash(f.field[0], f.len[0], 0) || f.field[0][0] == '-' ||
	    (f.field[1] && !is_hex40_or_dash(f.field[1], f.len[1], 1)) ||
	    (f.field[2] && !is_hex40_or_dash(f.field[2], f.len[2], 0)))
		return -1;
	e = new_entry(idx);
	memcpy(e->stable, f.field[0], 40);
	if (f.field[1])
		memcpy(e->upstream, f.field[1], f.len[1]);
	if (f.field[2])
		memcpy(e->patch_id, f.field[2], 40);
	e->subject = xstrndup(f.field[3], f.len[3]);
	return 0;
}

static void clear_entries(void *data)
{
	struct sm_upstream_index *idx = data;

	for (size_t i = 0; i < idx->nr; i++)
		free(idx->entries[i].subject);
	idx->nr = 0;
}

static size_t write_entries(void *data, struct strbuf *sb)
{
	const struct sm_upstream_index *idx = data;

	for (size_t i = 0; i < idx->nr; i++)
		sm_branch_cache_add_entry(sb, idx->entries[i].stable, idx->entries[i].upstream,
					  idx->entries[i].patch_id, idx->entries[i].subject);
	return idx->nr;
}

static const struct sm_branch_index_ops index_ops = {
	.magic = CACHE_MAGIC,
	.subdir = "upstream-index",
	.what = "index cache",
	.read_entry = read_entry,
	.write_entries = write_entries,
	.clear = clear_entries,
	.add_commit = index_commit,
};

int sm_upstream_index_build(struct sm_upstream_index *idx, git_repository *repo,
			    const char *branch, const git_oid *base, const char *cache_dir)
{
	return sm_upstream_index_build_progress(idx, repo, branch, base, cache_dir, NULL);
}

int sm_upstream_index_build_progress(struct sm_upstream_index *idx, git_repository *repo,
				     const char *branch, const git_oid *base,
				     const char *cache_dir, struct sm_progress *progress)
{
	struct sm_branch_head head;
	int ret;

	memset(idx, 0, sizeof(*idx));
	idx->refname = xstrdup(branch);
	ret = sm_branch_index_build(&index_ops, idx, repo, branch, base, cache_dir, progress, NULL,
				    &head);
	memcpy(idx->tip, head.tip, sizeof(idx->tip));
	memcpy(idx->base, head.base, sizeof(idx->base));
	idx->cache_state = head.cache_state;
	idx->from_cache = head.from_cache;
	idx->scanned = head.scanned;
	idx->cache_path = head.cache_path;
	if (!ret)
		build_maps(idx);
	return ret;
}

void sm_upstream_index_release(struct sm_upstream_index *idx)
{
	clear_entries(idx);
	FREE_ALL(idx->entries, idx->refname, idx->cache_path, idx->abbrev);
	strmap_clear(&idx->by_upstream);
	strmap_clear(&idx->by_stable);
	strmap_clear(&idx->by_patch_id);
	strmap_clear(&idx->by_subject);
	memset(idx, 0, sizeof(*idx));
}

const struct sm_upstream_entry *sm_upstream_index_find(const struct sm_upstream_index *idx,
							 const char *upstream, const char *patch_id,
							 const char *subject, enum sm_match *how)
{
	const struct sm_upstream_entry *same_subject;
	enum sm_match dummy;
	size_t i;

	if (!how)
		how = &dummy;
	*how = SM_MATCH_NONE;
	if (upstream && *upstream) {
		if (strmap_get(&idx->by_upstream, upstream, &i)) {
			*how = SM_MATCH_UPSTREAM_ID;
			return &idx->entries[i];
		}
		for (size_t k = 0; k < idx->nr_abbrev; k++) {
			const struct sm_upstream_entry *e = &idx->entries[idx->abbrev[k]];

			if (starts_with(upstream, e->upstream)) {
				*how = SM_MATCH_UPSTREAM_ID;
				return e;
			}
		}
		if (strmap_get(&idx->by_stable, upstream, &i)) {
			*how = SM_MATCH_SAME_COMMIT;
			return &idx->entries[i];
		}
	}
	if (patch_id && *patch_id && strmap_get(&idx->by_patch_id, patch_id, &i)) {
		*how = SM_MATCH_PATCH_ID;
		return &idx->entries[i];
	}
	/* Only a commit naming no upstream id stands for another by its
	 * subject: one that names an id was already matched or not. */
	same_subject = sm_upstream_index_find_subject(idx, subject);
	if (same_subject && !same_subject->upstream[0]) {
		*how = SM_MATCH_SUBJECT;
		return same_subject;
	}
	return NULL;
}

const struct sm_upstream_entry *sm_upstream_index_find_subject(const struct sm_upstream_index *idx,
								const char *subject)
{
	size_t i;

	if (subject && subject_matchable(subject) && strmap_get(&idx->by_subject, subject, &i))
		return &idx->entries[i];
	return NULL;
}

const struct sm_upstream_entry *sm_upstream_index_entry(const struct sm_upstream_index *idx,
							  const char *stable)
{
	size_t i;

	return strmap_get(&idx->by_stable, stable, &i) ? &idx->entries[i] : NULL;
}

const char *sm_upstream_index_upstream_of(const struct sm_upstream_index *idx, const char *stable)
{
	const struct sm_upstream_entry *e = sm_upstream_index_entry(idx, stable);

	if (!e)
		return NULL;
	return e->upstream[0] ? e->upstream : e->stable;
}

/* The id that "This reverts commit X." names in the message of idx's
 * commit e, or NULL (caller frees). */
static char *reverted_id(git_repository *repo, const struct sm_upstream_entry *e)
{
	git_commit *c = NULL;
	git_oid id;
	struct sm_commit parsed;
	char *sha = NULL;

	if (!starts_with(e->subject, "Revert ") || git_oid_fromstr(&id, e->stable) < 0 ||
	    git_commit_lookup(&c, repo, &id) < 0 || sm_commit_load(repo, c, 0, &parsed, NULL) < 0) {
		git_commit_free(c);
		sm_clear_error();
		return NULL;
	}
	if (parsed.reverts_sha)
		sha = xstrdup(parsed.reverts_sha);
	sm_commit_release(&parsed);
	git_commit_free(c);
	return sha;
}

/* The entry before `before` that sha (full or abbreviated) names, by its
 * own id or the upstream id it carries (a backported upstream revert names
 * the upstream commit); -1 when none. */
static long find_reverted(const struct sm_upstream_index *idx, size_t before, const char *sha)
{
	size_t n = strlen(sha);

	/* git writes the whole id: a look-up in the index's maps */
	if (n == 40) {
		enum sm_match how;
		const struct sm_upstream_entry *e = sm_upstream_index_find(idx, sha, NULL, NULL, &how);

		if (e && (how == SM_MATCH_UPSTREAM_ID || how == SM_MATCH_SAME_COMMIT) &&
		    (size_t)(e - idx->entries) < before)
			return (long)(e - idx->entries);
	}

	for (size_t j = before; j-- > 0;) {
		const struct sm_upstream_entry *e = &idx->entries[j];

		if (!strncasecmp(e->stable, sha, n) || (e->upstream[0] && !strncasecmp(e->upstream, sha, n)))
			return (long)j;
	}
	return -1;
}

size_t *sm_upstream_index_revert_pairs(const struct sm_upstream_index *idx, git_repository *repo)
{
	size_t *paired = xcalloc(idx->nr + 1, sizeof(*paired));

	for (size_t i = idx->nr; i-- > 0;) {	/* the walk is oldest first */
		char *sha;
		long j;

		if (paired[i] || !(sha = reverted_id(repo, &idx->entries[i])))
			continue;
		j = find_reverted(idx, i, sha);
		free(sha);
		if (j >= 0 && !paired[j]) {
			paired[i] = (size_t)j + 1;
			paired[j] = i + 1;
		}
	}
	return paired;
}

const struct sm_upstream_entry *sm_upstream_index_revert_of(const struct sm_upstream_index *idx,
							    const size_t *pairs,
							    const struct sm_upstream_entry *e)
{
	size_t i = (size_t)(e - idx->entries), r = pairs[i];

	/* paired with a later commit: its revert (not the revert itself) */
	return r > i + 1 ? &idx->entries[r - 1] : NULL;
}

const struct sm_upstream_entry *sm_upstream_index_backport_of(const struct sm_upstream_index *idx,
							      const char *upstream)
{
	enum sm_match how;
	const struct sm_upstream_entry *e = sm_upstream_index_find(idx, upstream, NULL, NULL, &how);

	return e && how == SM_MATCH_UPSTREAM_ID ? e : NULL;
}

int sm_upstream_entry_dep_of(git_repository *repo, const struct sm_upstream_entry *e,
			     char out[41])
{
	git_commit *c = NULL;
	git_oid id;
	const char *msg;
	char *owned;
	int found;

	if (git_oid_fromstr(&id, e->stable) < 0 || git_commit_lookup(&c, repo, &id) < 0) {
		sm_clear_error();
		return 0;
	}
	msg = sm_commit_utf8(c, git_commit_message(c), &owned);
	found = msg && sm_find_stable_dep_of(msg, strlen(msg), out);
	free(owned);
	git_commit_free(c);
	return found;
}

/* Where the batch of entry at begins: just after the release commit
 * before it ("Linux 6.1.52"; a stable queue is applied between two
 * releases, a prerequisite with its fix), at most SM_PREREQ_BATCH_MAX
 * entries back; SM_PREREQ_WINDOW back at least, for a branch that makes
 * no release commits. */
static size_t batch_start(const struct sm_upstream_index *idx, size_t at)
{
	size_t floor = at > SM_PREREQ_BATCH_MAX ? at - SM_PREREQ_BATCH_MAX : 0;
	size_t window = at > SM_PREREQ_WINDOW ? at - SM_PREREQ_WINDOW : 0;
	size_t i = at;
	struct sm_version v;
	int rc;

	while (i > floor && !sm_version_from_release_subject(idx->entries[i - 1].subject, &v, &rc))
		i--;
	if (i == floor && floor > 0)	/* no release commit in reach */
		return window;
	return i < window ? i : window;
}

size_t sm_upstream_index_prereqs_of(const struct sm_upstream_index *idx, git_repository *repo,
				    size_t at, const char *upstream, size_t *out, size_t max)
{
	size_t nr = 0;

	for (size_t i = batch_start(idx, at); i < at && nr < max; i++) {
		char dep[41];

		if (sm_upstream_entry_dep_of(repo, &idx->entries[i], dep) &&
		    starts_with(upstream, dep))
			out[nr++] = i;
	}
	return nr;
}
