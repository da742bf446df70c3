/* boot_stage: steal, boot and record each [boot] tree (see boot_stage.h). */
#include "bot/boot_stage.h"
#include "bot/scan_config.h"
#include "qemu/boot.h"
#include "trees/repo.h"
#include "trees/steal.h"
#include "lib/fileio.h"
#include "lib/git.h"
#include "lib/html.h"
#include "lib/json.h"
#include "lib/json_read.h"
#include "lib/util.h"
#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_SOURCE "/usr/src/linux-source-6.1.tar.xz"

static void result_release(struct sm_bot_boot_result *r)
{
	FREE_ALL(r->tree, r->verdict, r->summary, r->bisected, r->bisected_upstream, r->arch);
	strlist_clear(&r->regressions);
	memset(r, 0, sizeof(*r));
}

void sm_bot_boot_results_release(struct sm_bot_boot_results *r)
{
	for (size_t i = 0; i < r->nr; i++)
		result_release(&r->items[i]);
	free(r->items);
	memset(r, 0, sizeof(*r));
}

const struct sm_bot_boot_result *sm_bot_boot_find(const struct sm_bot_boot_results *r,
						  const char *tree)
{
	for (size_t i = 0; r && i < r->nr; i++)
		if (!strcmp(r->items[i].tree, tree))
			return &r->items[i];
	return NULL;
}

static char *state_path(const struct sm_bot_config *cfg, const char *tree)
{
	struct strbuf slug = STRBUF_INIT;
	char *path;

	file_slug(&slug, tree);
	path = xasprintf("%s/boot/%s.json", cfg->state_dir, slug.buf);
	strbuf_release(&slug);
	return path;
}

static char *get_str(const struct strbuf *json, const char *key)
{
	struct strbuf v = STRBUF_INIT;

	if (json_get_string(json->buf, json->len, key, &v) != JSON_FOUND) {
		strbuf_release(&v);
		return NULL;
	}
	return strbuf_detach(&v, NULL);
}

/* The recorded result of r->tree into r; its "input" into *input. 0, or
 * -1 when there is none (or it cannot be read). */
static int load_result(const char *path, struct sm_bot_boot_result *r, char **input)
{
	struct strbuf json = STRBUF_INIT, raw = STRBUF_INIT;
	char *regs;

	if (!file_exists(path) || read_file(path, &json) < 0 || !(r->verdict = get_str(&json, "verdict"))) {
		sm_clear_error();
		strbuf_release(&json);
		return -1;
	}
	r->summary = get_str(&json, "summary");
	r->bisected = get_str(&json, "bisected");
	r->bisected_upstream = get_str(&json, "bisected_upstream");
	r->arch = get_str(&json, "arch");
	if (json_get_raw(json.buf, json.len, "patches", &raw) == JSON_FOUND)
		r->patches = strtol(raw.buf, NULL, 10);
	regs = get_str(&json, "regressions");
	if (regs)
		strlist_split(&r->regressions, regs, '\n');
	free(regs);
	if (input)
		*input = get_str(&json, "input");
	r->reused = 1;
	strbuf_release(&raw);
	strbuf_release(&json);
	return 0;
}

static int save_result(const char *path, const struct sm_bot_boot_result *r, const char *input,
		       const char *branch, const char *run_dir)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;
	int ret;

	json_init(&w, &sb);
	json_object_begin(&w, NULL);
	json_string(&w, "tree", r->tree);
	json_string(&w, "verdict", r->verdict);
	json_string(&w, "summary", r->summary ? r->summary : "");
	json_string(&w, "bisected", r->bisected);
	json_string(&w, "bisected_upstream", r->bisected_upstream);
	json_strlist(&w, "regressions", &r->regressions);
	json_int(&w, "patches", r->patches);
	json_string(&w, "arch", r->arch ? r->arch : "x86_64");
	json_string(&w, "branch", branch);
	json_string(&w, "run_dir", run_dir);
	json_int(&w, "time", (long long)time(NULL));
	json_string(&w, "input", input ? input : "");
	json_object_end(&w);
	strbuf_addch(&sb, '\n');
	ret = write_file_atomic_mkdir(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

/* Removes refs/heads/BRANCH of repo when it is there. 0 or -1. */
static int delete_branch(const char *repo_path, const char *branch)
{
	git_repository *repo = NULL;
	git_reference *ref = NULL;
	char *name = xasprintf("refs/heads/%s", branch);
	int ret = 0;

	if (sm_repo_open(&repo, repo_path) < 0) {
		free(name);
		return -1;
	}
	if (git_reference_lookup(&ref, repo, name) == 0 && git_reference_delete(ref) < 0)
		ret = sm_git_fail("%s: cannot delete %s", repo_path, name);
	git_reference_free(ref);
	git_repository_free(repo);
	free(name);
	return ret;
}

/* What the boot depends on: the tree's tip, the picked commits and the
 * settings. The same input as the recorded result: no new boot. */
static char *input_key(const struct sm_bot_config *cfg, const struct sm_bot_boot *b,
		       const struct sm_steal_result *sr)
{
	struct strbuf k = STRBUF_INIT;

	strbuf_addf(&k, "base %s; picks", sr->base);
	for (size_t i = 0; i < sr->nr; i++)
		if (!sr->entries[i].reason)
			strbuf_addf(&k, " %.12s", sr->entries[i].upstream);
	strbuf_addf(&k, "; source %s; arch %s; compare %d; bisect %d; tests",
		    b->source ? b->source : DEFAULT_SOURCE, b->arch ? b->arch : "x86_64",
		    b->compare, b->bisect);
	for (size_t i = 0; i < b->tests.nr; i++)
		strbuf_addf(&k, " %s", b->tests.items[i]);
	strbuf_addstr(&k, "; configs");
	for (size_t i = 0; i < b->configs.nr; i++)
		strbuf_addf(&k, " %s", b->configs.items[i]);
	strbuf_addf(&k, "; distcc %s; ccache %d", cfg->boot_distcc ? cfg->boot_distcc : "-",
		    cfg->boot_ccache);
	return strbuf_detach(&k, NULL);
}

/* The kernel cache of a source: boot's own for the default source (shared
 * with `stablemate boot`), a directory of its own for any other, since the
 * cache holds one unpacked tree. */
static char *cache_of(const struct sm_bot_config *cfg, const struct sm_bot_boot *b)
{
	char *given = cfg->boot_cache ? xstrdup(cfg->boot_cache) : boot_default_cache();
	char *base = path_absolute(given);
	struct strbuf slug = STRBUF_INIT;
	const char *name;
	char *dir;

	free(given);
	if (!b->source || !strcmp(b->source, DEFAULT_SOURCE))
		return base;
	name = strrchr(b->source, '/');
	file_slug(&slug, name ? name + 1 : b->source);
	dir = xasprintf("%s/source-%s", base, slug.buf);
	free(base);
	strbuf_release(&slug);
	return dir;
}

static char *run_dir_of(const char *cache, const char *tree)
{
	struct strbuf slug = STRBUF_INIT;
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	char *dir;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	file_slug(&slug, tree);
	dir = xasprintf("%s/runs/%s-%ld-bot-%s", cache, stamp, (long)getpid(), slug.buf);
	strbuf_release(&slug);
	return dir;
}

/* Boots the stolen branch into r. 0 with a verdict, -1 (sm_error). */
static int boot_branch(const struct sm_bot_config *cfg, const struct sm_bot_tree *t,
		       const struct sm_bot_boot *b, const char *branch,
		       const struct sm_steal_result *sr, struct sm_bot_boot_result *r,
		       char **run_dir)
{
	struct boot_opts o = BOOT_OPTS_INIT;
	struct boot_result br;
	char *cache = cache_of(cfg, b);
	int ret;

	o.branch = branch;
	o.repo = t->repo;
	o.base = sr->base;
	for (size_t i = 0; i < b->configs.nr; i++)
		strlist_append(&o.configs, b->configs.items[i]);
	for (size_t i = 0; i < b->tests.nr; i++)
		strlist_append(&o.tests, b->tests.items[i]);
	o.timeout = b->timeout > 0 ? (unsigned)b->timeout : 0;
	o.test_timeout = b->test_timeout > 0 ? (unsigned)b->test_timeout : 0;
	o.cache = cache;
	o.tarball = b->source;
	o.accel = b->accel;
	o.arch = b->arch;
	o.compare = b->compare || b->bisect;
	o.bisect = b->bisect;
	o.distcc = cfg->boot_distcc;
	o.ccache = cfg->boot_ccache;
	*run_dir = run_dir_of(cache, t->name);
	o.run_dir = *run_dir;
	ret = boot_run(&o, &br);
	boot_opts_release(&o);
	free(cache);
	if (ret < 0) {
		boot_result_release(&br);
		return -1;
	}
	{
		/* the summary and first bad patch as boot's JSON has them */
		struct strbuf json = STRBUF_INIT;

		boot_result_json(&br, &json);
		r->verdict = xstrdup(br.verdict);
		r->summary = get_str(&json, "summary");
		r->bisected = get_str(&json, "bisected");
		strbuf_release(&json);
	}
	r->arch = xstrdup(br.arch ? br.arch : "x86_64");
	r->patches = (long)br.patches.nr;
	for (size_t i = 0; i < br.changes_nr; i++)
		if (br.changes[i].change == BOOT_REGRESSED)
			strlist_append(&r->regressions, br.changes[i].name);
	/* patch N of the branch is the N-th picked commit */
	if (br.first_bad) {
		size_t n = 0;

		for (size_t i = 0; i < sr->nr; i++)
			if (!sr->entries[i].reason && ++n == br.first_bad)
				r->bisected_upstream = xstrdup(sr->entries[i].upstream);
	}
	boot_result_release(&br);
	return 0;
}

static int stage_failed(const char *verdict)
{
	static const char *const bad[] = { "error", "build-failed", "apply-failed", "timeout", "panic" };

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (!strcmp(verdict, bad[i]))
			return 1;
	return 0;
}

static void boot_one(const struct sm_bot_config *cfg, const struct sm_rules *rules,
		     const char *range, const struct sm_bot_boot_tree *bt,
		     struct sm_bot_boot_results *res, struct sm_bot_boot_result *r)
{
	const struct sm_bot_tree *t = sm_bot_config_tree(cfg, bt->name);
	struct sm_steal_result sr;
	struct sm_bot_boot_result old = { 0 };
	char *path = state_path(cfg, bt->name), *branch = xasprintf("stablemate-boot/%s", bt->name);
	char *input = NULL, *old_input = NULL, *run_dir = NULL;
	int stolen = 0;
	struct sm_steal_opts so = {
		.repo = t->repo,
		.range = range,
		.onto = sm_bot_tree_spec(t),
		.branch = branch,
		.signoff = cfg->from,
		.rules = rules,
		.cache_dir = cfg->cache_dir,
		.upstream_ref = cfg->upstream_branch,
		.min_soak_days = cfg->min_soak_days,
		.queue_dir = cfg->queue_dir,
		.notes_ref = cfg->notes_ref,	/* a NAKed candidate is not booted */
	};

	memset(&sr, 0, sizeof(sr));
	if (delete_branch(t->repo, branch) < 0 || sm_steal(&so, &sr) < 0)
		goto failed;
	stolen = 1;
	input = input_key(cfg, &bt->s, &sr);
	if (!sr.nr_picked) {
		r->verdict = xstrdup("none");
		r->summary = xstrdup("no candidate to boot");
	} else if (load_result(path, &old, &old_input) == 0 && old_input &&
		   !strcmp(old_input, input) && strcmp(old.verdict, "error")) {
		free(old.tree);
		old.tree = r->tree;
		*r = old;
		memset(&old, 0, sizeof(old));
		res->reused++;
		goto out;	/* recorded already */
	} else if (boot_branch(cfg, t, &bt->s, branch, &sr, r, &run_dir) < 0) {
		goto failed;
	} else {
		res->booted++;
	}
	goto record;
failed:
	free(r->verdict);
	free(r->summary);
	r->verdict = xstrdup("error");
	r->summary = xstrdup(sm_last_error());
	sm_clear_error();
record:
	if (stage_failed(r->verdict)) {
		res->failed++;
		sm_warn("boot %s: %s: %s", bt->name, r->verdict, r->summary ? r->summary : "");
	}
	if (!r->arch)
		r->arch = xstrdup(bt->s.arch ? bt->s.arch : "x86_64");
	if (save_result(path, r, input, stolen ? branch : NULL, run_dir) < 0) {
		sm_warn("boot %s: %s", bt->name, sm_last_error());
		sm_clear_error();
	}
out:
	result_release(&old);
	sm_steal_result_release(&sr);
	FREE_ALL(old_input, input, run_dir, branch, path);
}

void sm_bot_boot(const struct sm_bot_config *cfg, const struct sm_rules *rules,
		 const char *range, int dry_run, volatile sig_atomic_t *stop,
		 struct sm_bot_boot_results *out)
{
	memset(out, 0, sizeof(*out));
	if (!cfg->nr_boot_trees)
		return;
	out->items = xcalloc(cfg->nr_boot_trees, sizeof(*out->items));
	for (size_t i = 0; i < cfg->nr_boot_trees && !(stop && *stop); i++) {
		struct sm_bot_boot_result *r = &out->items[out->nr];
		const char *name = cfg->boot_trees[i].name;

		if (dry_run) {
			char *path = state_path(cfg, name);

			if (load_result(path, r, NULL) == 0) {
				r->tree = xstrdup(name);
				out->nr++;
			}
			free(path);
			continue;
		}
		r->tree = xstrdup(name);
		boot_one(cfg, rules, range, &cfg->boot_trees[i], out, r);
		out->nr++;
	}
}

void sm_bot_boot_block(const struct sm_bot_boot_result *r, struct strbuf *out)
{
	char *up = xstrdup(r->verdict);

	for (char *p = up; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	strbuf_addf(out, "Boot %s: %s", r->tree, up);
	if (r->summary && *r->summary)
		strbuf_addf(out, ": %s", r->summary);
	if (strcmp(r->verdict, "error") && strcmp(r->verdict, "none"))
		strbuf_addf(out, " (%ld candidate%s on %s%s)", r->patches, r->patches == 1 ? "" : "s",
			    r->arch ? r->arch : "x86_64", r->reused ? ", booted earlier" : "");
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < r->regressions.nr; i++)
		strbuf_addf(out, "  regressed: %s\n", r->regressions.items[i]);
	if (r->bisected) {
		strbuf_addf(out, "  first bad patch: %s", r->bisected);
		if (r->bisected_upstream)
			strbuf_addf(out, " (upstream %.12s)", r->bisected_upstream);
		strbuf_addch(out, '\n');
	}
	free(up);
}
