#include "trees/repo.h"
#include "trees/patchid.h"
#include "lib/strlist.h"
#include "lib/util.h"
#include "rules/version.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Calls fn(name, len, value, ctx) for each `remote.<name>.<key>` entry of
 * cfg (a remote may have several: url), until fn returns non-zero, which
 * is returned. One plain pass over the entries: libgit2 1.5's regex
 * look-ups (git_remote_list, the glob iterator) leak pcre2 match data on
 * every entry they do not match. */
static int each_remote(git_config *cfg, const char *key,
		       int (*fn)(const char *name, size_t len, const char *value, void *ctx),
		       void *ctx)
{
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int ret = 0;

	if (git_config_iterator_new(&it, cfg) < 0) {
		sm_clear_error();
		return 0;
	}
	while (!ret && git_config_next(&e, it) == 0) {
		const char *name, *dot;

		if (!skip_prefix(e->name, "remote.", &name) || !(dot = strrchr(name, '.')) ||
		    dot == name || strcmp(dot + 1, key))
			continue;
		ret = fn(name, (size_t)(dot - name), e->value, ctx);
	}
	git_config_iterator_free(it);
	return ret;
}

struct name_out {
	char *buf;
	size_t size;
};

static int promisor_cb(const char *name, size_t len, const char *value, void *ctx)
{
	struct name_out *n = ctx;
	int on;

	if (git_config_parse_bool(&on, value) < 0 || !on) {
		sm_clear_error();
		return 0;
	}
	snprintf(n->buf, n->size, "%.*s", (int)len, name);
	return 1;
}

/* The remote a partial clone (git clone --filter) borrows its missing
 * objects from, in remote (size bytes), or 0 when the repository is
 * whole: git marks the remote "promisor" (and, before 2.36 or so, sets
 * extensions.partialClone to its name). */
static int promisor_remote(git_repository *repo, char *remote, size_t size)
{
	struct name_out n = { remote, size };
	git_config *cfg = NULL;
	git_buf buf = { 0 };
	int found = 0;

	if (git_repository_config_snapshot(&cfg, repo) < 0) {
		sm_clear_error();
		return 0;
	}
	if (git_config_get_string_buf(&buf, cfg, "extensions.partialclone") == 0) {
		snprintf(remote, size, "%s", buf.ptr);
		found = 1;
	} else {
		found = each_remote(cfg, "promisor", promisor_cb, &n);
	}
	git_buf_dispose(&buf);
	git_config_free(cfg);
	sm_clear_error();
	return found;
}

int sm_repo_open(git_repository **out, const char *path)
{
	char remote[128];
	const char *name = path ? path : ".";
	int rc;

	sm_git_init();
	*out = NULL;
	/* Found as git finds it: from the current directory ("." is every
	 * command's default) with GIT_DIR and the rest of git's environment
	 * (a hook, a script), else upward from path, as git -C does; a
	 * subdirectory of the work tree used to be "not a git repository" */
	if (!path || !strcmp(path, "."))
		rc = git_repository_open_ext(out, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	else
		rc = git_repository_open_ext(out, path, 0, NULL);
	if (rc < 0)
		return sm_git_open_fail(name, rc);
	if (git_repository_is_shallow(*out) == 1) {
		git_repository_free(*out);
		*out = NULL;
		return sm_error("%s: shallow repository; stablemate needs the whole history "
				"(run 'git fetch --unshallow')", name);
	}
	/* libgit2 cannot fetch a missing blob on demand as git does: the
	 * first diff or note read would fail, naming an object id only */
	if (promisor_remote(*out, remote, sizeof(remote))) {
		git_repository_free(*out);
		*out = NULL;
		return sm_error("%s: partial clone (its blobs come from '%s' on demand, which "
				"libgit2 cannot fetch); stablemate reads diffs and notes: clone it "
				"without --filter", name, remote);
	}
	return 0;
}

const char *sm_repo_name(git_repository *repo)
{
	const char *p = git_repository_workdir(repo);

	return p ? p : git_repository_path(repo);
}

int sm_resolve_commit(git_repository *repo, const char *spec, git_oid *out)
{
	git_object *obj = NULL, *peeled = NULL;

	if (git_revparse_single(&obj, repo, spec) < 0)
		return sm_error("%s: unknown revision in %s", spec, sm_repo_name(repo));
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(obj);
		return sm_error("%s: not a commit in %s", spec, sm_repo_name(repo));
	}
	git_oid_cpy(out, git_object_id(peeled));
	git_object_free(peeled);
	git_object_free(obj);
	return 0;
}

int sm_resolve_range(git_repository *repo, const char *range, git_oid *from, git_oid *to)
{
	const char *dots = strstr(range, "..");
	char *a;
	int ret;

	if (!dots || !strcmp(range, "..") || strstr(range, "..."))
		return sm_error("%s: not a range of the form A..B", range);
	a = xstrndup(range, (size_t)(dots - range));
	ret = sm_resolve_commit(repo, *a ? a : "HEAD", from);
	if (!ret)
		ret = sm_resolve_commit(repo, sm_range_end(range), to);
	free(a);
	return ret < 0 ? sm_error_wrap("range %s", range) : 0;
}

const char *sm_range_end(const char *range)
{
	const char *dots = strstr(range, "..");

	if (!dots)
		return range;
	return dots[2] ? dots + 2 : "HEAD";
}

int sm_range_reversed(git_repository *repo, const git_oid *from, const git_oid *to)
{
	return !git_oid_equal(from, to) && git_graph_descendant_of(repo, from, to) == 1;
}

void sm_range_reversed_text(const char *range, struct strbuf *out)
{
	const char *dots = strstr(range, "..");
	size_t start = dots ? (size_t)(dots - range) : strlen(range);

	strbuf_addf(out, "%s is an ancestor of %.*s (a range is OLDER..NEWER)", sm_range_end(range),
		    start ? (int)start : 4, start ? range : "HEAD");
}

/* sm_resolve_branch's look through the remotes for branch */
struct remote_branch {
	git_repository *repo;
	const char *branch;
	git_oid id;		/* of the first remote's */
	struct strbuf found;	/* "origin/x, mine/x" */
	size_t nr;
	struct strlist seen;	/* remotes asked: one may have several url keys */
};

static int remote_branch_cb(const char *name, size_t len, const char *value, void *ctx)
{
	struct remote_branch *rb = ctx;
	char ref[512];
	git_oid id;

	(void)value;
	if ((size_t)snprintf(ref, sizeof(ref), "refs/remotes/%.*s/%s", (int)len, name,
			     rb->branch) >= sizeof(ref) ||
	    strlist_contains(&rb->seen, ref))
		return 0;
	strlist_append(&rb->seen, ref);
	if (git_reference_name_to_id(&id, rb->repo, ref) < 0)
		return 0;
	if (!rb->nr++)
		git_oid_cpy(&rb->id, &id);
	strbuf_addf(&rb->found, "%s%.*s/%s", rb->found.len ? ", " : "", (int)len, name, rb->branch);
	return 0;
}

/* name as a branch: itself, else the one remote's branch of that name.
 * Returns 0, -1 (sm_error set), or 1 when nothing has that name (the
 * error of sm_resolve_commit set). */
static int resolve_branch_name(git_repository *repo, const char *name, git_oid *out, char *ref,
			       size_t size)
{
	struct remote_branch rb = { repo, name, { { 0 } }, STRBUF_INIT, 0, STRLIST_INIT };
	git_config *cfg = NULL;
	int ret;

	if (sm_resolve_commit(repo, name, out) == 0) {
		if ((size_t)snprintf(ref, size, "%s", name) >= size)
			return sm_error("%s: branch name too long", name);
		return 0;
	}
	if (git_repository_config_snapshot(&cfg, repo) == 0)
		each_remote(cfg, "url", remote_branch_cb, &rb);
	git_config_free(cfg);
	if (rb.nr == 1) {
		const char *first = rb.found.buf;	/* "origin/x": the only one */

		sm_clear_error();
		git_oid_cpy(out, &rb.id);
		ret = (size_t)snprintf(ref, size, "%s", first) < size ?
			0 : sm_error("%s: branch name too long", name);
	} else if (rb.nr > 1) {
		ret = sm_error("%s: no such branch here, and several remotes have one (%s): "
			       "name one", name, rb.found.buf);
	} else {
		ret = 1;	/* sm_resolve_commit's error stands */
	}
	strbuf_release(&rb.found);
	strlist_clear(&rb.seen);
	return ret;
}

static int remote_name_cb(const char *name, size_t len, const char *value, void *ctx)
{
	struct strlist *out = ctx;
	char *s = xstrndup(name, len);

	(void)value;
	if (strlist_contains(out, s))
		free(s);	/* a remote with several urls */
	else
		strlist_append_nodup(out, s);
	return 0;
}

void sm_remote_names(git_repository *repo, struct strlist *out)
{
	git_config *cfg = NULL;

	if (git_repository_config_snapshot(&cfg, repo) == 0)
		each_remote(cfg, "url", remote_name_cb, out);
	git_config_free(cfg);
	sm_clear_error();
}

char *sm_resolve_ref_name(git_repository *repo, const char *name)
{
	git_oid id;
	char ref[256];

	if (sm_resolve_branch(repo, name, &id, ref, sizeof(ref)) == 0)
		return xstrdup(ref);
	sm_clear_error();
	return xstrdup(name);
}

int sm_version_branch(const char *name, char *out, size_t size)
{
	struct sm_version v;
	const char *end;

	if (!isdigit((unsigned char)name[0]) || sm_version_parse(name, &end, &v) < 0 || *end ||
	    v.patch >= 0)
		return 0;
	snprintf(out, size, "linux-%d.%d.y", v.major, v.minor);
	return 1;
}

int sm_resolve_branch(git_repository *repo, const char *name, git_oid *out, char *ref,
		      size_t size)
{
	char stable[64];
	int ret = resolve_branch_name(repo, name, out, ref, size);

	if (ret <= 0)
		return ret;
	/* "6.1", which is no name here: kernel.org's linux-6.1.y, as
	 * classify --tree 6.1 means it */
	if (!sm_version_branch(name, stable, sizeof(stable)))
		return -1;
	ret = resolve_branch_name(repo, stable, out, ref, size);
	if (ret > 0)
		return sm_error("%s: unknown revision in %s, and no branch %s either", name,
				sm_repo_name(repo), stable);
	return ret;
}

int sm_tree_blob_at(git_tree *tree, const char *path, git_oid *blob)
{
	git_tree_entry *te = NULL;
	int found = git_tree_entry_bypath(&te, tree, path) == 0 &&
		    git_tree_entry_type(te) == GIT_OBJECT_BLOB;

	if (found && blob)
		git_oid_cpy(blob, git_tree_entry_id(te));
	git_tree_entry_free(te);
	return found;
}

int sm_resolve_hex(git_repository *repo, const char *hex, git_oid *out)
{
	size_t len = strlen(hex);
	git_oid prefix;
	git_commit *c = NULL;

	if (len < 4 || len > GIT_OID_HEXSZ || !is_hex_string(hex, len))
		return -1;
	if (git_oid_fromstrn(&prefix, hex, len) < 0)
		return -1;
	if (git_commit_lookup_prefix(&c, repo, &prefix, len) < 0)
		return -1;
	git_oid_cpy(out, git_commit_id(c));
	git_commit_free(c);
	return 0;
}

static char *ident_str(const char *name, const char *email)
{
	return xasprintf("%s <%s>", name ? name : "", email ? email : "");
}

char *sm_signature_str(const git_signature *sig)
{
	return ident_str(sig->name, sig->email);
}

char *sm_commit_ident_str(const git_commit *c, const git_signature *sig)
{
	char *owned, *res;

	res = ident_str(sm_commit_utf8(c, sig->name, &owned), sig->email);
	free(owned);
	return res;
}

int sm_commit_load(git_repository *repo, git_commit *c, int with_diff,
		   struct sm_commit *out, char patch_id[41])
{
	char *owned_msg;
	const char *msg = sm_commit_utf8(c, git_commit_message_raw(c), &owned_msg);
	char hex[GIT_OID_HEXSZ + 1];
	int parsed;

	memset(out, 0, sizeof(*out));
	if (patch_id)
		patch_id[0] = '\0';
	git_oid_tostr(hex, sizeof(hex), git_commit_id(c));
	if (!msg)
		msg = "";
	parsed = sm_commit_parse_message(out, msg, strlen(msg));
	free(owned_msg);
	if (parsed < 0) {
		/* An empty message still is a commit: keep going with no subject. */
		sm_clear_error();
		sm_commit_release(out);
		memset(out, 0, sizeof(*out));
		out->subject = xstrdup("");
	}
	free(out->id);
	out->id = xstrdup(hex);
	free(out->author);
	out->author = sm_commit_ident_str(c, git_commit_author(c));
	free(out->committer);
	out->committer = sm_commit_ident_str(c, git_commit_committer(c));
	if (git_commit_parentcount(c) > 1)
		out->is_merge = 1;
	if (with_diff && !out->is_merge && sm_commit_load_diff(repo, c, out, patch_id) < 0) {
		sm_commit_release(out);
		return -1;
	}
	return 0;
}

int sm_commit_load_diff(git_repository *repo, git_commit *c, struct sm_commit *out,
			char patch_id[41])
{
	return sm_commit_load_diff_keep(repo, c, NULL, out, patch_id);
}

int sm_commit_load_diff_keep(git_repository *repo, git_commit *c, struct sm_tree_keep *keep,
			     struct sm_commit *out, char patch_id[41])
{
	struct strbuf diff = STRBUF_INIT;

	if (patch_id)
		patch_id[0] = '\0';
	if (sm_commit_diff_text_keep(repo, c, keep, &diff) < 0) {
		strbuf_release(&diff);
		return -1;
	}
	if (diff.len) {
		sm_commit_parse_diff(out, diff.buf, diff.len);
		if (patch_id && sm_patch_id_from_text(diff.buf, diff.len, patch_id) < 0) {
			sm_clear_error();
			patch_id[0] = '\0';
		}
	}
	strbuf_release(&diff);
	return 0;
}

size_t sm_blob_size(git_repository *repo, const git_oid *id)
{
	git_odb *odb = NULL;
	size_t len = 0;
	git_object_t type;

	if (git_repository_odb(&odb, repo) < 0 || git_odb_read_header(&len, &type, odb, id) < 0)
		len = 0;
	git_odb_free(odb);
	sm_clear_error();
	return len;
}

git_hashsig *sm_blob_signature(git_repository *repo, const git_oid *id)
{
	git_blob *blob = NULL;
	git_hashsig *sig = NULL;

	if (git_blob_lookup(&blob, repo, id) == 0 &&
	    git_hashsig_create(&sig, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob),
			       GIT_HASHSIG_SMART_WHITESPACE | GIT_HASHSIG_ALLOW_SMALL_FILES) < 0)
		sig = NULL;
	git_blob_free(blob);
	sm_clear_error();
	return sig;
}
