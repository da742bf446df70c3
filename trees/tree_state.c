#include "trees/tree_state.h"
#include "trees/repo.h"
#include "trees/tags.h"
#include "trees/ancestry.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

int sm_tree_version_from_name(const char *name, struct sm_version *v)
{
	for (const char *p = name; *p; p++) {
		const char *end;

		if (!isdigit((unsigned char)*p) || (p > name && isdigit((unsigned char)p[-1])))
			continue;
		if (sm_version_parse(p, &end, v) == 0 && v->major > 0 && strchr(p, '.') &&
		    strchr(p, '.') < end)
			return 0;
	}
	return sm_error("%s: cannot tell the tree's kernel version from the name "
			"(give it as NAME=VERSION, e.g. %s=6.1)", name, name);
}

int sm_tree_state_open(struct sm_tree_state *t, const struct sm_tree_spec *spec,
		       git_repository *shared, const char *shared_path, const char *cache_dir)
{
	return sm_tree_state_open_progress(t, spec, shared, shared_path, cache_dir, NULL);
}

void sm_tree_caveats(const struct sm_version *v, int has_base, size_t behind,
		     const char *upstream, struct strbuf *out)
{
	if (!has_base)
		strbuf_addf(out, "no tag v%d.%d on the branch, so its whole history is indexed "
			    "(git fetch --tags)", v->major, v->minor);
	if (behind)
		strbuf_addf(out, "%s%zu commit%s behind %s, which it tracks: what the tree took "
			    "since looks missing (git pull)", has_base ? "" : "; ", behind,
			    behind == 1 ? "" : "s", upstream);
}

/* t->behind and t->upstream, for a local branch that tracks another */
static void upstream_lag(struct sm_tree_state *t)
{
	git_reference *local = NULL, *up = NULL;
	const char *name = t->branch;
	size_t ahead, behind;

	skip_prefix(name, "refs/heads/", &name);
	if (git_branch_lookup(&local, t->repo, name, GIT_BRANCH_LOCAL) == 0 &&
	    git_branch_upstream(&up, local) == 0 && git_reference_target(up) &&
	    git_graph_ahead_behind(&ahead, &behind, t->repo, &t->tip,
				   git_reference_target(up)) == 0 && behind) {
		t->behind = behind;
		snprintf(t->upstream, sizeof(t->upstream), "%s", git_reference_shorthand(up));
	}
	git_reference_free(up);
	git_reference_free(local);
	sm_clear_error();
}

int sm_tree_state_open_progress(struct sm_tree_state *t, const struct sm_tree_spec *spec,
				git_repository *shared, const char *shared_path,
				const char *cache_dir, struct sm_progress *progress)
{
	char tag[64];
	git_oid tagged;

	memset(t, 0, sizeof(*t));
	t->spec = spec;
	if (!spec->repo || (shared_path && !strcmp(spec->repo, shared_path))) {
		t->repo = shared;
	} else {
		if (sm_repo_open(&t->repo, spec->repo) < 0)
			return -1;
		t->own_repo = 1;
	}
	if (sm_resolve_branch(t->repo, spec->branch, &t->tip, t->branch, sizeof(t->branch)) < 0)
		goto fail;
	upstream_lag(t);
	/* The branch point: the tree's release tag, when it is on the branch. */
	snprintf(tag, sizeof(tag), "v%d.%d", spec->version.major, spec->version.minor);
	if (spec->version.major && sm_resolve_commit(t->repo, tag, &tagged) == 0 &&
	    (git_oid_equal(&tagged, &t->tip) ||
	     sm_descendant_of_cached(t->repo, &t->tip, &tagged, cache_dir) == 1)) {
		t->has_base = 1;
		t->base = tagged;
		snprintf(t->base_name, sizeof(t->base_name), "%s", tag);
	}
	sm_clear_error();
	if (sm_upstream_index_build_progress(&t->idx, t->repo, t->branch,
					     t->has_base ? &t->base : NULL, cache_dir, progress) < 0)
		goto fail;
	return 0;
fail:
	if (t->own_repo)
		git_repository_free(t->repo);
	t->repo = NULL;
	return -1;
}

const struct sm_upstream_entry *sm_tree_state_revert_of(struct sm_tree_state *t,
							 const struct sm_upstream_entry *e)
{
	if (!t->revert_pairs)
		t->revert_pairs = sm_upstream_index_revert_pairs(&t->idx, t->repo);
	return sm_upstream_index_revert_of(&t->idx, t->revert_pairs, e);
}

const struct sm_upstream_entry *sm_tree_state_carries(struct sm_tree_state *t,
						       const char *upstream, const char *patch_id,
						       const char *subject)
{
	const struct sm_upstream_entry *e = sm_upstream_index_find(&t->idx, upstream, patch_id,
								    subject, NULL);

	return e && !sm_tree_state_revert_of(t, e) ? e : NULL;
}

void sm_tree_state_close(struct sm_tree_state *t)
{
	free(t->revert_pairs);
	sm_upstream_index_release(&t->idx);
	if (t->own_repo)
		git_repository_free(t->repo);
	memset(t, 0, sizeof(*t));
}

int sm_tree_spec_parse(struct sm_tree_spec *spec, char *arg, const char *repo)
{
	char *eq = strchr(arg, '=');

	memset(spec, 0, sizeof(*spec));
	spec->repo = repo;
	if (eq) {
		const char *end;

		*eq = '\0';
		if (sm_version_parse(eq + 1, &end, &spec->version) < 0 || *end)
			return sm_error("%s=%s: not a kernel version (e.g. 6.1)", arg, eq + 1);
	}
	if (!*arg)
		return sm_error("--tree: empty branch name");
	spec->name = arg;
	spec->branch = arg;
	if (!eq && sm_tree_version_from_name(arg, &spec->version) < 0)
		return -1;
	return 0;
}

int sm_tree_state_has(struct sm_tree_state *t, git_repository *repo, const git_oid *id,
		      const char *hex, const char *subject)
{
	const struct sm_upstream_entry *there = sm_upstream_index_find(&t->idx, hex, NULL, subject,
									 NULL);

	if (there)
		return !sm_tree_state_revert_of(t, there);
	if (git_oid_equal(id, &t->tip))
		return 1;
	/* The index holds every commit of base..tip: what it lacks, the
	 * branch has only as its release's history. Asked of the release,
	 * the walk stays in mainline; asked of the tip it also walked the
	 * whole stable branch, for each dependency blame found. */
	if (t->has_base)
		return git_oid_equal(id, &t->base) || git_graph_descendant_of(repo, &t->base, id) == 1;
	return git_graph_descendant_of(repo, &t->tip, id) == 1;
}
