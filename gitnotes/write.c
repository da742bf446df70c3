/* write: reading notes and writing them with a compare-and-swap update of
 * the notes ref. A write reads the ref's commit, builds one new notes
 * commit on top of it with libgit2 (blobs, trees and the commit: objects
 * only, nothing visible yet), then moves the ref with
 * git_reference_create_matching() against the commit it read. When another
 * writer moved the ref meanwhile, the whole write is redone on the new
 * commit: the notes are re-read and the blocks merged again. */
#include "gitnotes/txn.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static sm_notes_update_hook update_hook;
static void *update_hook_data;
static _Thread_local unsigned last_attempts;

void sm_notes_set_update_hook(sm_notes_update_hook hook, void *data)
{
	update_hook = hook;
	update_hook_data = data;
}

unsigned sm_notes_last_attempts(void)
{
	return last_attempts;
}

int sm_notes_blob_text(git_repository *repo, const git_oid *blob_id, struct strbuf *out)
{
	git_blob *blob = NULL;

	if (git_blob_lookup(&blob, repo, blob_id) < 0)
		return -1;
	strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

int sm_notes_read(git_repository *repo, const char *notes_ref,
		  const git_oid *commit, struct strbuf *out)
{
	git_note *note = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	int err;

	if (!notes_ref)
		notes_ref = SM_NOTES_REF_DEFAULT;
	err = git_note_read(&note, repo, notes_ref, commit);
	if (err == GIT_ENOTFOUND)
		return SM_NOTE_NONE;
	if (err < 0) {
		git_oid_tostr(hex, sizeof(hex), commit);
		return sm_error("%s: reading the note of %s: %s", notes_ref, hex, sm_git_error());
	}
	err = sm_notes_blob_text(repo, git_note_id(note), out);
	git_note_free(note);
	if (err < 0) {
		git_oid_tostr(hex, sizeof(hex), commit);
		return sm_error("%s: reading the note of %s: %s", notes_ref, hex, sm_git_error());
	}
	return SM_NOTE_FOUND;
}

int sm_note_read(git_repository *repo, const char *notes_ref, const git_oid *commit,
		 struct sm_note *n)
{
	struct strbuf text = STRBUF_INIT;
	int rc = sm_notes_read(repo, notes_ref, commit, &text);

	sm_note_parse(n, rc == SM_NOTE_FOUND ? text.buf : "");
	strbuf_release(&text);
	return rc;
}

static int make_signature(git_repository *repo, git_signature **sig)
{
	if (git_signature_default(sig, repo) == 0)
		return 0;
	if (git_signature_now(sig, "stablemate", "stablemate@localhost") == 0)
		return 0;
	return sm_error("cannot make a signature for the notes commit: %s", sm_git_error());
}

static void clear_pending(struct sm_notes_txn *t)
{
	for (size_t i = 0; i < t->nr_pending; i++)
		free(t->pending[i].text);
	t->nr_pending = 0;
}

void sm_notes_txn_release(struct sm_notes_txn *t)
{
	git_commit_free(t->base);
	git_commit_free(t->tip);
	git_signature_free(t->sig);
	t->base = t->tip = NULL;
	t->sig = NULL;
	clear_pending(t);
	free(t->pending);
	t->pending = NULL;
	t->alloc_pending = 0;
}

/* Reads the ref into t->base (NULL when it does not exist yet). */
static int txn_begin(struct sm_notes_txn *t)
{
	git_reference *ref = NULL;
	git_object *obj = NULL;
	int err;

	t->base = t->tip = NULL;
	t->changed = 0;
	t->merge_parent = NULL;
	clear_pending(t);
	memset(&t->base_oid, 0, sizeof(t->base_oid));
	err = git_reference_lookup(&ref, t->repo, t->ref);
	if (err == GIT_ENOTFOUND)
		return 0;
	if (err < 0)
		return sm_error("%s: %s", t->ref, sm_git_error());
	err = git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT);
	git_reference_free(ref);
	if (err < 0)
		return sm_error("%s: does not point to a notes commit: %s", t->ref, sm_git_error());
	t->base = (git_commit *)obj;
	git_oid_cpy(&t->base_oid, git_commit_id(t->base));
	return 0;
}

int sm_notes_txn_read(struct sm_notes_txn *t, const git_oid *commit, struct strbuf *out)
{
	git_note *note = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	int err;

	for (size_t i = t->nr_pending; i-- > 0;) {
		if (git_oid_equal(&t->pending[i].commit, commit)) {
			strbuf_addstr(out, t->pending[i].text);
			return SM_NOTE_FOUND;
		}
	}
	if (!t->base)
		return SM_NOTE_NONE;
	err = git_note_commit_read(&note, t->repo, t->base, commit);
	if (err == GIT_ENOTFOUND)
		return SM_NOTE_NONE;
	if (err < 0) {
		git_oid_tostr(hex, sizeof(hex), commit);
		return sm_error("%s: reading the note of %s: %s", t->ref, hex, sm_git_error());
	}
	{
		size_t before = out->len;

		err = sm_notes_blob_text(t->repo, git_note_id(note), out);
		git_note_free(note);
		git_oid_tostr(hex, sizeof(hex), commit);
		if (err < 0)
			return sm_error("%s: reading the note of %s: %s", t->ref, hex,
					sm_git_error());
		/* Text after a NUL would be lost on a rewrite: leave the note be. */
		if (memchr(out->buf + before, '\0', out->len - before))
			return sm_error("%s: the note of %s holds binary data (a NUL byte); "
					"not rewriting it", t->ref, hex);
	}
	return SM_NOTE_FOUND;
}

int sm_notes_txn_write(struct sm_notes_txn *t, const git_oid *commit, const char *text)
{
	ALLOC_GROW(t->pending, t->nr_pending, t->alloc_pending);
	git_oid_cpy(&t->pending[t->nr_pending].commit, commit);
	t->pending[t->nr_pending++].text = xstrdup(text);
	t->changed = 1;
	return 0;
}

/* Notes trees name each note by the annotated id, flat ("<40 hex>") or
 * fanned out ("xx/<38 hex>", "xx/yy/<36 hex>") as git lays them out once
 * a ref holds many notes. The path of an existing note is kept; a new one
 * goes flat, or into xx/ when the tree is fanned out. */
static void note_path(const git_tree *root, const git_oid *oid, int fanout, char *path)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_tree_entry *e = NULL;

	git_oid_tostr(hex, sizeof(hex), oid);
	if (root) {
		snprintf(path, 48, "%s", hex);
		if (!git_tree_entry_bypath(&e, root, path))
			goto found;
		snprintf(path, 48, "%.2s/%s", hex, hex + 2);
		if (!git_tree_entry_bypath(&e, root, path))
			goto found;
		snprintf(path, 48, "%.2s/%.2s/%s", hex, hex + 2, hex + 4);
		if (!git_tree_entry_bypath(&e, root, path))
			goto found;
	}
	if (fanout)
		snprintf(path, 48, "%.2s/%s", hex, hex + 2);
	else
		snprintf(path, 48, "%s", hex);
	return;
found:
	git_tree_entry_free(e);
}

static int is_fanout_dir(const git_tree_entry *e)
{
	const char *name = git_tree_entry_name(e);

	return git_tree_entry_type(e) == GIT_OBJECT_TREE && strlen(name) == 2 &&
	       is_hex_string(name, 2);
}

static int is_flat_note(const git_tree_entry *e)
{
	const char *name = git_tree_entry_name(e);

	return git_tree_entry_type(e) == GIT_OBJECT_BLOB && strlen(name) == GIT_OID_HEXSZ &&
	       is_hex_string(name, GIT_OID_HEXSZ);
}

/* *out = tree (NULL: empty) with blob at path ("a/b/c"), other entries kept. */
static int tree_put(git_repository *repo, const git_tree *tree, const char *path,
		    const git_oid *blob, git_oid *out)
{
	const char *slash = strchr(path, '/');
	git_treebuilder *tb = NULL;
	int err = git_treebuilder_new(&tb, repo, tree);

	if (!err && !slash) {
		err = git_treebuilder_insert(NULL, tb, path, blob, GIT_FILEMODE_BLOB);
	} else if (!err) {
		char *name = xstrndup(path, (size_t)(slash - path));
		const git_tree_entry *e = tree ? git_tree_entry_byname(tree, name) : NULL;
		git_tree *sub = NULL;
		git_oid sub_oid;

		if (e && git_tree_entry_type(e) == GIT_OBJECT_TREE)
			err = git_tree_lookup(&sub, repo, git_tree_entry_id(e));
		if (!err)
			err = tree_put(repo, sub, slash + 1, blob, &sub_oid);
		if (!err)
			err = git_treebuilder_insert(NULL, tb, name, &sub_oid, GIT_FILEMODE_TREE);
		git_tree_free(sub);
		free(name);
	}
	if (!err)
		err = git_treebuilder_write(out, tb);
	git_treebuilder_free(tb);
	return err;
}

/* *out = root with its flat notes moved into xx/ directories. */
static int fan_out(git_repository *repo, const git_tree *root, git_oid *out)
{
	git_treebuilder *top = NULL, *sub = NULL;
	char prefix[3] = "";
	size_t n = git_tree_entrycount(root);
	int err = git_treebuilder_new(&top, repo, root);

	for (size_t i = 0; !err && i <= n; i++) {
		const git_tree_entry *e = i < n ? git_tree_entry_byindex(root, i) : NULL;
		const char *name = e ? git_tree_entry_name(e) : "";

		if (sub && (!e || !is_flat_note(e) || strncmp(name, prefix, 2))) {
			git_oid sub_oid;

			err = git_treebuilder_write(&sub_oid, sub);
			if (!err)
				err = git_treebuilder_insert(NULL, top, prefix, &sub_oid,
							     GIT_FILEMODE_TREE);
			git_treebuilder_free(sub);
			sub = NULL;
		}
		if (err || !e || !is_flat_note(e))
			continue;
		if (!sub) {
			memcpy(prefix, name, 2);
			err = git_treebuilder_new(&sub, repo, NULL);
		}
		if (!err)
			err = git_treebuilder_insert(NULL, sub, name + 2, git_tree_entry_id(e),
						     GIT_FILEMODE_BLOB);
		if (!err)
			err = git_treebuilder_remove(top, name);
	}
	git_treebuilder_free(sub);
	if (!err)
		err = git_treebuilder_write(out, top);
	git_treebuilder_free(top);
	return err;
}

#define SM_NOTES_FANOUT_AT 256
/* Above this many notes in one write, the tree is built through an
 * in-memory index (every tree written once) instead of note by note. */
#define SM_NOTES_INDEX_AT 16

static int index_put(git_index *idx, const char *path, const git_oid *blob)
{
	git_index_entry e;

	memset(&e, 0, sizeof(e));
	e.mode = GIT_FILEMODE_BLOB;
	e.path = path;
	git_oid_cpy(&e.id, blob);
	return git_index_add(idx, &e);
}

/* The index form of note_path(). */
static void index_note_path(git_index *idx, const git_oid *oid, int fanout, char *path)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), oid);
	snprintf(path, 48, "%s", hex);
	if (git_index_get_bypath(idx, path, 0))
		return;
	snprintf(path, 48, "%.2s/%s", hex, hex + 2);
	if (git_index_get_bypath(idx, path, 0))
		return;
	snprintf(path, 48, "%.2s/%.2s/%s", hex, hex + 2, hex + 4);
	if (git_index_get_bypath(idx, path, 0))
		return;
	if (fanout)
		snprintf(path, 48, "%.2s/%s", hex, hex + 2);
	else
		snprintf(path, 48, "%s", hex);
}

/* Writes the blob of the i-th pending note's text; a libgit2 error code. */
static int pending_blob(struct sm_notes_txn *t, size_t i, git_oid *blob)
{
	const char *text = t->pending[i].text;

	return git_blob_create_from_buffer(blob, t->repo, text, strlen(text));
}

/* *tree = base tree (NULL: none) with all pending notes, via an index. */
static int build_with_index(struct sm_notes_txn *t, git_tree **tree, int fanout)
{
	git_index *idx = NULL;
	git_oid oid;
	int err = git_index_new(&idx);

	if (!err && *tree)
		err = git_index_read_tree(idx, *tree);
	for (size_t i = 0; !err && i < t->nr_pending; i++) {
		char path[48];
		git_oid blob;

		index_note_path(idx, &t->pending[i].commit, fanout, path);
		err = pending_blob(t, i, &blob);
		if (!err)
			err = index_put(idx, path, &blob);
	}
	/* Every entry is a blob just written or one the base tree holds: skip
	 * libgit2's check that each exists, which reread the header of every
	 * note in the tree on every batch (a tenth of a 100,000-message
	 * harvest). Notes are written from one thread only. */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 0);
	if (!err)
		err = git_index_write_tree_to(&oid, idx, t->repo);
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 1);
	git_index_free(idx);
	git_tree_free(*tree);
	*tree = NULL;
	if (!err)
		err = git_tree_lookup(tree, t->repo, &oid);
	return err;
}

/* Builds t->tip: the base tree with the pending notes written in, as one
 * commit whose parents are the base and, for a merge, theirs. */
static int txn_build(struct sm_notes_txn *t, const char *msg)
{
	const git_commit *parents[2];
	git_tree *tree = NULL;
	git_oid oid;
	size_t np = 0, flat = 0;
	int fanout = 0, err = 0;

	if (!t->sig && make_signature(t->repo, &t->sig))
		return -1;
	if (t->base)
		err = git_commit_tree(&tree, t->base);
	for (size_t i = 0; !err && tree && i < git_tree_entrycount(tree); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);

		fanout |= is_fanout_dir(e);
		flat += (size_t)is_flat_note(e);
	}
	if (!err && tree && !fanout && flat + t->nr_pending > SM_NOTES_FANOUT_AT) {
		err = fan_out(t->repo, tree, &oid);
		git_tree_free(tree);
		tree = NULL;
		if (!err)
			err = git_tree_lookup(&tree, t->repo, &oid);
	}
	if (flat + t->nr_pending > SM_NOTES_FANOUT_AT)
		fanout = 1;
	if (!err && t->nr_pending > SM_NOTES_INDEX_AT)
		err = build_with_index(t, &tree, fanout);
	for (size_t i = 0; !err && t->nr_pending <= SM_NOTES_INDEX_AT && i < t->nr_pending; i++) {
		char path[48];
		git_oid blob;

		note_path(tree, &t->pending[i].commit, fanout, path);
		err = pending_blob(t, i, &blob);
		if (!err)
			err = tree_put(t->repo, tree, path, &blob, &oid);
		git_tree_free(tree);
		tree = NULL;
		if (!err)
			err = git_tree_lookup(&tree, t->repo, &oid);
	}
	if (!err && !tree)
		return sm_error("%s: internal error: a notes commit with nothing in it", t->ref);
	if (t->base)
		parents[np++] = t->base;
	if (t->merge_parent)
		parents[np++] = t->merge_parent;
	if (!err)
		err = git_commit_create(&oid, t->repo, NULL, t->sig, t->sig, NULL, msg,
					tree, np, parents);
	if (!err)
		err = git_commit_lookup(&t->tip, t->repo, &oid);
	git_tree_free(tree);
	if (err < 0)
		return sm_error("%s: writing the notes commit: %s", t->ref, sm_git_error());
	return 0;
}

/* 1 when the ref moved and the write should be redone, 0 done, -1 error. */
static int txn_update_ref(struct sm_notes_txn *t, const char *log_message)
{
	git_reference *ref = NULL;
	int err;

	/* For a first note base_oid is all zeros: "the ref must not exist",
	 * checked under the ref's lock. (git_reference_create() with force 0
	 * checks before taking the lock, so two first writers could both
	 * pass and the second would overwrite the first.) */
	err = git_reference_create_matching(&ref, t->repo, t->ref, git_commit_id(t->tip),
					    1, &t->base_oid, log_message);
	git_reference_free(ref);
	if (!err)
		return 0;
	if (err == GIT_EMODIFIED || err == GIT_EEXISTS || err == GIT_ELOCKED)
		return 1;
	return sm_error("%s: updating the ref: %s", t->ref, sm_git_error());
}

/* A random wait of up to 2^attempt ms (at most 32 ms), so writers that
 * collided do not collide again in step. */
static void backoff(unsigned attempt)
{
	static _Thread_local unsigned seed;
	struct timespec ts = { 0, 0 };
	unsigned max_us = 1000u << (attempt < 5 ? attempt : 5);

	if (!seed) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		seed = (unsigned)getpid() ^ (unsigned)ts.tv_nsec ^ 1u;
	}
	ts.tv_sec = 0;
	ts.tv_nsec = (long)(rand_r(&seed) % max_us + 100) * 1000L;
	nanosleep(&ts, NULL);
}

/* The error when the ref never held still: a lock file left by a git that
 * died looks the same as a busy writer, so say it is there and how old. */
static int gave_up(git_repository *repo, const char *ref)
{
	char *lock = xasprintf("%s%s.lock", git_repository_commondir(repo), ref);
	struct stat st;
	int rc;

	if (!stat(lock, &st)) {
		long long age = (long long)(time(NULL) - st.st_mtime);

		if (age < 0)
			age = 0;
		rc = sm_error("%s: the ref is locked: the lock file %s is there, %lld s old "
			      "(%s); if no git is running, a git that died left it: remove it "
			      "(gave up after %d attempts)", ref, lock, age,
			      age >= 60 ? "stale" : "maybe another writer", SM_NOTES_MAX_ATTEMPTS);
	} else {
		rc = sm_error("%s: the ref kept moving under us; gave up after %d attempts",
			      ref, SM_NOTES_MAX_ATTEMPTS);
	}
	free(lock);
	return rc;
}

int sm_notes_txn_run(git_repository *repo, const char *notes_ref,
		     int (*apply)(struct sm_notes_txn *t, void *data), void *data,
		     const char *log_message)
{
	struct sm_notes_txn t;
	unsigned attempt;

	memset(&t, 0, sizeof(t));
	t.repo = repo;
	t.ref = notes_ref ? notes_ref : SM_NOTES_REF_DEFAULT;
	for (attempt = 0; attempt < SM_NOTES_MAX_ATTEMPTS; attempt++) {
		int rc;

		last_attempts = attempt + 1;
		if (txn_begin(&t) || apply(&t, data))
			goto fail;
		if (t.merge_parent)
			t.changed = 1;
		if (t.changed && !t.tip && txn_build(&t, log_message))
			goto fail;
		if (!t.changed) {
			sm_notes_txn_release(&t);
			return 0;
		}
		if (update_hook && update_hook(repo, t.ref, attempt, update_hook_data)) {
			sm_error("%s: the write was stopped by the test hook", t.ref);
			goto fail;
		}
		rc = txn_update_ref(&t, log_message);
		if (rc < 0)
			goto fail;
		git_commit_free(t.base);
		git_commit_free(t.tip);
		t.base = t.tip = NULL;
		if (rc == 0) {
			sm_notes_txn_release(&t);
			return 0;
		}
		backoff(attempt);
	}
	sm_notes_txn_release(&t);
	return gave_up(repo, t.ref);
fail:
	sm_notes_txn_release(&t);
	return -1;
}
