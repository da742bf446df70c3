/* sync: notes setup and fetch-and-merge over git remotes (see sync.h). */
#include "gitnotes/sync.h"
#include "gitnotes/txn.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <string.h>

char *sm_notes_remote_ref(const char *remote, const char *notes_ref)
{
	const char *last = strrchr(notes_ref, '/');

	return xasprintf("refs/notes/remotes/%s/%s", remote, last ? last + 1 : notes_ref);
}

static char *notes_refspec(const char *remote, const char *notes_ref)
{
	char *dst = sm_notes_remote_ref(remote, notes_ref);
	char *spec = xasprintf("+%s:%s", notes_ref, dst);

	free(dst);
	return spec;
}

/* Is value one of name's values in cfg? 1, 0, or -1. */
static int config_has_value(git_config *cfg, const char *name, const char *value)
{
	git_config_iterator *it;
	git_config_entry *e;
	int found = 0, err;

	if (git_config_multivar_iterator_new(&it, cfg, name, NULL) < 0)
		return sm_error("%s: %s", name, sm_git_error());
	while (!found && (err = git_config_next(&e, it)) == 0)
		found = !strcmp(e->value, value);
	git_config_iterator_free(it);
	return found;
}

static int setup_display(git_repository *repo, const char *notes_ref, int *added)
{
	git_config *cfg = NULL, *local = NULL;
	int ret = -1, has;

	*added = 0;
	if (git_repository_config(&cfg, repo) < 0 ||
	    git_config_open_level(&local, cfg, GIT_CONFIG_LEVEL_LOCAL) < 0) {
		sm_error("%s: config: %s", git_repository_path(repo), sm_git_error());
		goto out;
	}
	has = config_has_value(cfg, "notes.displayRef", notes_ref);
	if (has < 0)
		goto out;
	/* "^$" matches no existing value, so libgit2 appends one more */
	if (!has && git_config_set_multivar(local, "notes.displayRef", "^$", notes_ref) < 0) {
		sm_error("notes.displayRef: %s", sm_git_error());
		goto out;
	}
	*added = !has;
	ret = 0;
out:
	git_config_free(local);
	git_config_free(cfg);
	return ret;
}

static int has_refspec(git_remote *r, const char *spec)
{
	git_strarray specs = { 0 };
	int found = 0;

	if (git_remote_get_fetch_refspecs(&specs, r) < 0)
		return -1;
	for (size_t i = 0; i < specs.count && !found; i++)
		found = !strcmp(specs.strings[i], spec);
	git_strarray_dispose(&specs);
	return found;
}

static int setup_remote(git_repository *repo, const char *notes_ref, const char *name,
			const char *url, struct sm_notes_setup_result *res)
{
	git_remote *r = NULL;
	char *spec = notes_refspec(name, notes_ref);
	int err, has, ret = -1;

	err = git_remote_lookup(&r, repo, name);
	if (err == GIT_ENOTFOUND) {
		if (!url) {
			sm_error("remote '%s': no such remote (give its URL)", name);
			goto out;
		}
		if (git_remote_create(&r, repo, name, url) < 0) {
			sm_error("remote '%s': %s", name, sm_git_error());
			goto out;
		}
		res->remote_created = 1;
	} else if (err < 0) {
		sm_error("remote '%s': %s", name, sm_git_error());
		goto out;
	} else if (url && (!git_remote_url(r) || strcmp(git_remote_url(r), url))) {
		sm_error("remote '%s' exists with URL '%s', not '%s'", name,
			 git_remote_url(r) ? git_remote_url(r) : "", url);
		goto out;
	}
	has = has_refspec(r, spec);
	if (has < 0) {
		sm_error("remote '%s': %s", name, sm_git_error());
		goto out;
	}
	if (!has && git_remote_add_fetch(repo, name, spec) < 0) {
		sm_error("remote '%s': %s", name, sm_git_error());
		goto out;
	}
	res->refspec_added = !has;
	ret = 0;
out:
	git_remote_free(r);
	free(spec);
	return ret;
}

int sm_notes_setup(git_repository *repo, const char *notes_ref, const char *remote,
		   const char *url, struct sm_notes_setup_result *res)
{
	memset(res, 0, sizeof(*res));
	if (!notes_ref)
		notes_ref = SM_NOTES_REF_DEFAULT;
	if (remote) {
		int valid = 0;

		if (git_remote_name_is_valid(&valid, remote) < 0 || !valid)
			return sm_error("'%s' is not a valid remote name", remote);
	}
	if (setup_display(repo, notes_ref, &res->display_added))
		return -1;
	return remote ? setup_remote(repo, notes_ref, remote, url, res) : 0;
}

/* The remote's fetch refspec for notes_ref ("+SRC:DST" with SRC ==
 * notes_ref), or NULL. Caller frees. */
static char *notes_fetchspec(git_remote *r, const char *notes_ref)
{
	git_strarray specs = { 0 };
	size_t n = strlen(notes_ref);
	char *found = NULL;

	if (git_remote_get_fetch_refspecs(&specs, r) < 0)
		return NULL;
	for (size_t i = 0; i < specs.count && !found; i++) {
		const char *s = specs.strings[i];

		if (*s == '+')
			s++;
		if (!strncmp(s, notes_ref, n) && s[n] == ':')
			found = xstrdup(specs.strings[i]);
	}
	git_strarray_dispose(&specs);
	return found;
}

static void remote_failed(struct sm_notes_sync_remote *sr, const char *what)
{
	sr->failed = 1;
	sr->error = xasprintf("%s: %s", what, sm_last_error());
}

static void sync_one(git_repository *repo, const char *notes_ref, git_remote *r,
		     const char *spec, struct sm_notes_sync_remote *sr)
{
	git_fetch_options fo;
	char *one[] = { (char *)spec };
	git_strarray refspecs = { one, 1 };
	const char *dst = strchr(spec, ':') + 1;
	git_reference *ref = NULL;
	int err;

	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	if (git_remote_fetch(r, &refspecs, &fo, "stablemate notes sync") < 0) {
		sm_error("%s", sm_git_error());
		remote_failed(sr, "fetch");
		return;
	}
	err = git_reference_lookup(&ref, repo, dst);
	git_reference_free(ref);
	if (err == GIT_ENOTFOUND)
		return;	/* they have no reviews yet */
	sr->fetched = 1;
	if (sm_notes_merge_ref(repo, notes_ref, dst, &sr->merge))
		remote_failed(sr, "merge");
}

int sm_notes_sync(git_repository *repo, const char *notes_ref, struct sm_notes_sync_result *res)
{
	git_strarray names = { 0 };
	int ret = SM_SYNC_ALL;

	memset(res, 0, sizeof(*res));
	if (!notes_ref)
		notes_ref = SM_NOTES_REF_DEFAULT;
	if (git_remote_list(&names, repo) < 0)
		return sm_error("%s: remotes: %s", git_repository_path(repo), sm_git_error());
	res->remotes = xcalloc(names.count + 1, sizeof(*res->remotes));
	for (size_t i = 0; i < names.count; i++) {
		struct sm_notes_sync_remote *sr;
		git_remote *r = NULL;
		char *spec;

		if (git_remote_lookup(&r, repo, names.strings[i]) < 0)
			continue;
		spec = notes_fetchspec(r, notes_ref);
		if (spec) {
			sr = &res->remotes[res->nr++];
			sr->name = xstrdup(names.strings[i]);
			sync_one(repo, notes_ref, r, spec, sr);
			if (sr->failed)
				ret = SM_SYNC_SOME_FAILED;
			free(spec);
		}
		git_remote_free(r);
	}
	git_strarray_dispose(&names);
	if (!res->nr)
		return sm_error("no remote fetches %s: run 'stablemate notes setup --remote NAME URL' first",
				notes_ref);
	return ret;
}

void sm_notes_sync_result_release(struct sm_notes_sync_result *res)
{
	for (size_t i = 0; i < res->nr; i++) {
		free(res->remotes[i].name);
		free(res->remotes[i].error);
	}
	free(res->remotes);
	memset(res, 0, sizeof(*res));
}
