/* pinbox: public-inbox git archives (one commit per message, blob "m"),
 * read incrementally with libgit2. The state file in the maildir holds one
 * line per epoch: "<absolute git dir> <last imported commit>". */
#include "mail/import.h"
#include "lib/git.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/fileio.h"
#include <git2.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* state: lines "path sha"; lookup returns the sha for path or NULL. */
static const char *state_get(const struct strlist *st, const char *path)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < st->nr; i++)
		if (!strncmp(st->items[i], path, n) && st->items[i][n] == ' ')
			return st->items[i] + n + 1;
	return NULL;
}

static void state_set(struct strlist *st, const char *path, const char *sha)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < st->nr; i++)
		if (!strncmp(st->items[i], path, n) && st->items[i][n] == ' ') {
			free(st->items[i]);
			st->items[i] = xasprintf("%s %s", path, sha);
			return;
		}
	strlist_append_nodup(st, xasprintf("%s %s", path, sha));
}

static int state_write(const char *file, const struct strlist *st)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	for (size_t i = 0; i < st->nr; i++) {
		strbuf_addstr(&sb, st->items[i]);
		strbuf_addch(&sb, '\n');
	}
	ret = write_file_atomic(file, sb.buf, sb.len);
	strbuf_release(&sb);
	if (!ret)
		sm_import_step("state written");
	return ret;
}

/* A blob's size from its header, without reading it (0 when unknown). */
static size_t blob_size(git_odb *odb, const git_oid *id)
{
	size_t len = 0;
	git_object_t type;

	if (git_odb_read_header(&len, &type, odb, id) < 0)
		return 0;
	return len;
}

static int import_epoch(struct sm_importer *im, const char *git_dir, struct strlist *state,
			const char *state_file)
{
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	git_odb *odb = NULL;
	git_oid oid, last_done;
	const char *last = state_get(state, git_dir);
	int ret = -1, any = 0, err;
	unsigned n = 0;

	if (git_repository_open_bare(&repo, git_dir) < 0 &&
	    (err = git_repository_open(&repo, git_dir)) < 0)
		return sm_git_open_fail(git_dir, err);	/* a mirror the public-inbox user owns */
	if (git_repository_head_unborn(repo) == 1) {
		ret = 0;	/* an empty epoch */
		goto out;
	}
	if (git_repository_odb(&odb, repo) < 0 || git_revwalk_new(&walk, repo) < 0 ||
	    git_revwalk_push_head(walk) < 0) {
		sm_git_fail("%s", git_dir);
		goto out;
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (last) {
		git_oid old;
		git_commit *c = NULL;

		if (git_oid_fromstr(&old, last) == 0 && git_commit_lookup(&c, repo, &old) == 0) {
			git_revwalk_hide(walk, &old);
			git_commit_free(c);
		} else {
			sm_warn("%s: last imported commit %s is gone; importing the whole epoch",
				git_dir, last);
		}
	}
	while ((err = git_revwalk_next(&oid, walk)) == 0) {
		git_commit *commit = NULL;
		git_tree *tree = NULL;
		const git_tree_entry *e;
		git_blob *blob = NULL;
		char what[PATH_MAX + 64], hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), &oid);
		snprintf(what, sizeof(what), "%s: commit %s", git_dir, hex);
		if (git_commit_lookup(&commit, repo, &oid) < 0 ||
		    git_commit_tree(&tree, commit) < 0) {
			git_commit_free(commit);
			sm_git_fail("%s", what);
			goto out;
		}
		e = git_tree_entry_byname(tree, "m");
		if (e && git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
		    blob_size(odb, git_tree_entry_id(e)) > sm_import_max_message(im)) {
			/* Named and skipped before libgit2 loads it whole. */
			sm_import_too_big(im, what, blob_size(odb, git_tree_entry_id(e)));
		} else if (e && git_tree_entry_type(e) == GIT_OBJECT_BLOB &&
		    git_blob_lookup(&blob, repo, git_tree_entry_id(e)) == 0) {
			if (sm_import_message(im, git_blob_rawcontent(blob),
					      (size_t)git_blob_rawsize(blob), what) < 0) {
				git_blob_free(blob);
				git_tree_free(tree);
				git_commit_free(commit);
				goto out;
			}
			git_blob_free(blob);
		}	/* no "m": a deletion ("d") commit, nothing to import */
		git_tree_free(tree);
		git_commit_free(commit);
		git_oid_cpy(&last_done, &oid);
		any = 1;
		/* Remember progress now and then so a crash loses little. */
		if (++n % 5000 == 0) {
			if (sm_import_flush(im) < 0)
				goto out;
			git_oid_tostr(hex, sizeof(hex), &last_done);
			state_set(state, git_dir, hex);
			if (state_write(state_file, state) < 0)
				goto out;
		}
	}
	if (err != GIT_ITEROVER) {
		sm_git_fail("%s", git_dir);
		goto out;
	}
	ret = 0;
	if (any) {
		char hex[GIT_OID_HEXSZ + 1];

		/* Index first, then the state: a crash between re-imports, never skips. */
		if (sm_import_flush(im) < 0)
			ret = -1;
		git_oid_tostr(hex, sizeof(hex), &last_done);
		state_set(state, git_dir, hex);
		if (!ret && state_write(state_file, state) < 0)
			ret = -1;
	}
out:
	git_revwalk_free(walk);
	git_odb_free(odb);
	git_repository_free(repo);
	return ret;
}

static int cmp_epoch(const void *a, const void *b)
{
	return atoi(*(char *const *)a) - atoi(*(char *const *)b);
}

int sm_import_public_inbox(struct sm_importer *im, const char *git_dir)
{
	struct strlist state = STRLIST_INIT, epochs = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *state_file = xasprintf("%s/%s", sm_import_maildir(im), SM_IMPORT_STATE_FILE);
	char *top = realpath(git_dir, NULL), *gitsub = NULL;
	DIR *d;
	int ret = -1;

	sm_git_init();
	if (!top) {
		sm_error("%s: %s", git_dir, strerror(errno));
		goto out;
	}
	if (file_exists(state_file)) {
		if (read_file(state_file, &sb) < 0)
			goto out;
		strlist_split(&state, sb.buf, '\n');
	}
	gitsub = xasprintf("%s/git", top);
	d = opendir(gitsub);
	if (d) {
		/* A public-inbox v2 top directory: git/0.git, git/1.git, ... */
		struct dirent *de;
		while ((de = readdir(d)))
			if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && strstr(de->d_name, ".git"))
				strlist_append(&epochs, de->d_name);
		closedir(d);
		qsort(epochs.items, epochs.nr, sizeof(char *), cmp_epoch);
		for (size_t i = 0; i < epochs.nr; i++) {
			char *p = xasprintf("%s/%s", gitsub, epochs.items[i]);
			int r = import_epoch(im, p, &state, state_file);
			free(p);
			if (r < 0)
				goto out;
		}
		if (!epochs.nr) {
			sm_error("%s: no epoch repositories (git/N.git) in it", git_dir);
			goto out;
		}
	} else if (import_epoch(im, top, &state, state_file) < 0) {
		goto out;
	}
	ret = 0;
out:
	strlist_clear(&state);
	strlist_clear(&epochs);
	strbuf_release(&sb);
	free(state_file);
	free(top);
	free(gitsub);
	return ret;
}
