/* map: upstream reference line, Message-ID, subject and patch-id indexes. */
#include "mail/map.h"
#include "mail/msgid.h"
#include "rules/commit.h"
#include "trees/mainline.h"
#include "trees/patchid.h"
#include "trees/repo.h"
#include "lib/git.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

struct entry {
	char *key;	/* summary, Message-ID, or patch-id hex */
	git_oid oid;
	size_t order;	/* 0 = newest */
};

struct sm_mapper {
	git_repository *repo;
	git_oid tip;
	char *ref;
	char *ref_note;		/* a note on the default's choice, or NULL */
	struct entry *subjects;
	size_t nr_subjects;
	struct entry *msgids;	/* of the commits' Link:/Message-Id: trailers */
	size_t nr_msgids;
	int subjects_built;	/* and msgids: one walk reads both */
	struct entry *patchids;
	size_t nr_patchids;
	int patchids_built;
};

struct sm_mapper *sm_mapper_open(const char *repo_path, const char *ref)
{
	struct sm_mapper *m = xcalloc(1, sizeof(*m));
	git_object *obj = NULL, *peeled = NULL;
	int rc;

	sm_git_init();
	rc = git_repository_open_ext(&m->repo, repo_path, 0, NULL);
	if (rc < 0) {
		sm_git_open_fail(repo_path, rc);
		goto fail;
	}
	/* a stable branch checked out would map a list patch to its backport
	 * there, by subject or Link:, and the note would be the tree's alone */
	m->ref = ref ? sm_resolve_ref_name(m->repo, ref) :
		       sm_mainline_ref(m->repo, NULL, NULL, NULL, &m->ref_note);
	if (git_revparse_single(&obj, m->repo, m->ref) < 0 ||
	    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		char *what = xasprintf("%s: upstream ref %s", repo_path, m->ref);
		sm_git_fail("%s", what);
		free(what);
		goto fail;
	}
	git_oid_cpy(&m->tip, git_object_id(peeled));
	git_object_free(obj);
	git_object_free(peeled);
	return m;
fail:
	git_object_free(obj);
	sm_mapper_close(m);
	return NULL;
}

git_repository *sm_mapper_repo(struct sm_mapper *m)
{
	return m->repo;
}

const git_oid *sm_mapper_tip(const struct sm_mapper *m)
{
	return &m->tip;
}

const char *sm_mapper_ref(const struct sm_mapper *m)
{
	return m->ref;
}

const char *sm_mapper_ref_note(const struct sm_mapper *m)
{
	return m->ref_note;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static const struct entry *find(const struct entry *e, size_t nr, const char *key)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(e[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && !strcmp(e[lo].key, key) ? &e[lo] : NULL;
}

static void add_entry(struct entry **arr, size_t *nr, size_t *alloc, char *key,
		      const git_oid *oid)
{
	ALLOC_GROW(*arr, *nr, *alloc);
	(*arr)[*nr].key = key;
	git_oid_cpy(&(*arr)[*nr].oid, oid);
	(*arr)[*nr].order = *nr;
	(*nr)++;
}

/* The Message-IDs msg's trailer lines name (a maintainer's "Link:" to the
 * patch mail it applied), each an entry for oid. */
static void add_msgids(struct sm_mapper *m, const char *msg, const git_oid *oid,
		       size_t *alloc)
{
	for (const char *p = msg; p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *id;

		if ((*p == 'L' || *p == 'l' || *p == 'M' || *p == 'm') &&
		    (id = sm_msgid_from_trailer(p, len)))
			add_entry(&m->msgids, &m->nr_msgids, alloc, id, oid);
		p = nl ? nl + 1 : NULL;
	}
}

/* Walks newest-first from the tip over up to max commits, indexing their
 * patch-ids, or their subjects and the Message-IDs their trailers name. */
static int build(struct sm_mapper *m, size_t max, int patchids)
{
	git_revwalk *walk = NULL;
	git_oid oid;
	struct entry **arr = patchids ? &m->patchids : &m->subjects;
	size_t *nr = patchids ? &m->nr_patchids : &m->nr_subjects, alloc = 0, n = 0;
	size_t msgids_alloc = 0;
	int err;

	if (git_revwalk_new(&walk, m->repo) < 0 || git_revwalk_push(walk, &m->tip) < 0) {
		git_revwalk_free(walk);
		return sm_git_fail("%s", m->ref);
	}
	git_revwalk_sorting(walk, GIT_SORT_TIME);
	while (n < max && (err = git_revwalk_next(&oid, walk)) == 0) {
		char *key = NULL;

		n++;
		if (patchids) {
			char id[41];
			if (sm_patch_id_commit(m->repo, &oid, id) == 0)
				key = xstrdup(id);
		} else {
			git_commit *c = NULL;
			if (git_commit_lookup(&c, m->repo, &oid) == 0) {
				key = sm_commit_subject(c);
				/* as the mail's subject is read (message.c): a
				 * commit made with "git commit" may keep
				 * "devices:  drop" */
				squeeze_blanks(key);
				add_msgids(m, git_commit_message(c), &oid, &msgids_alloc);
				git_commit_free(c);
				if (!*key) {	/* no subject matches nothing */
					free(key);
					key = NULL;
				}
			}
		}
		if (key)
			add_entry(arr, nr, &alloc, key, &oid);
	}
	git_revwalk_free(walk);
	/* qsort's base may not be NULL, even for no elements */
	if (*nr)
		qsort(*arr, *nr, sizeof(**arr), cmp_entry);
	if (!patchids && m->nr_msgids)
		qsort(m->msgids, m->nr_msgids, sizeof(*m->msgids), cmp_entry);
	sm_clear_error();
	return 0;
}

static int lookup_sha(struct sm_mapper *m, const char *sha, git_oid *out)
{
	git_oid prefix;
	git_object *obj = NULL;
	size_t len = strlen(sha);

	if (len < 7 || len > GIT_OID_HEXSZ || git_oid_fromstrn(&prefix, sha, len) < 0)
		return 0;
	if (git_object_lookup_prefix(&obj, m->repo, &prefix, len, GIT_OBJECT_COMMIT) < 0)
		return 0;
	git_oid_cpy(out, git_object_id(obj));
	git_object_free(obj);
	return 1;
}

enum index { BY_SUBJECT, BY_MSGID, BY_PATCHID };

/* Looks key up in one index of the recent history, building it the first
 * time: 1 and *out when found, 0 when not, -1 on an error (sm_error). */
static int lookup_built(struct sm_mapper *m, enum index ix, const char *key, git_oid *out)
{
	int patchids = ix == BY_PATCHID;
	int *built = patchids ? &m->patchids_built : &m->subjects_built;
	const struct entry *e;

	if (!*built) {
		*built = 1;
		if (build(m, patchids ? SM_MAP_PATCHID_HISTORY : SM_MAP_HISTORY, patchids) < 0)
			return -1;
	}
	e = ix == BY_PATCHID ? find(m->patchids, m->nr_patchids, key) :
	    ix == BY_MSGID ? find(m->msgids, m->nr_msgids, key) :
			     find(m->subjects, m->nr_subjects, key);
	if (!e)
		return 0;
	git_oid_cpy(out, &e->oid);
	return 1;
}

int sm_map_patch(struct sm_mapper *m, const char *body, const char *title, const char *msgid,
		 git_oid *out)
{
	char *sha = body ? sm_find_upstream_ref(body, strlen(body)) : NULL;
	char id[41];
	int ret;

	if (sha) {
		int found = lookup_sha(m, sha, out);
		free(sha);
		if (found)
			return 1;
	}
	if (msgid && *msgid && (ret = lookup_built(m, BY_MSGID, msgid, out)))
		return ret;
	if (title && *title && (ret = lookup_built(m, BY_SUBJECT, title, out)))
		return ret;
	if (body && sm_patch_id_from_text(body, strlen(body), id) == 0 &&
	    (ret = lookup_built(m, BY_PATCHID, id, out)))
		return ret;
	sm_clear_error();
	return 0;
}

void sm_mapper_close(struct sm_mapper *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_subjects; i++)
		free(m->subjects[i].key);
	for (size_t i = 0; i < m->nr_patchids; i++)
		free(m->patchids[i].key);
	for (size_t i = 0; i < m->nr_msgids; i++)
		free(m->msgids[i].key);
	free(m->msgids);
	free(m->subjects);
	free(m->patchids);
	free(m->ref);
	free(m->ref_note);
	git_repository_free(m->repo);
	free(m);
}
