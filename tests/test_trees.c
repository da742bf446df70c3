/* test_trees: the trees/ library on a real repository built by
 * tests/trees_mkrepo.sh with the git CLI (mainline with v4.1/v4.4/v4.5,
 * linux-4.1.y and linux-4.4.y carrying every upstream-line form). */
#include "tests/check_main.h"
#include "trees/patchid.h"
#include "trees/repo.h"
#include "trees/upstream_index.h"
#include "trees/tags.h"
#include "trees/scan.h"
#include "trees/steal.h"
#include "trees/rewrite.h"
#include "trees/missing.h"
#include "trees/backports.h"
#include "trees/deps.h"
#include "trees/diff_cache.h"
#include "trees/ancestry.h"
#include "trees/cve.h"
#include "trees/mainline.h"
#include "trees/patch_apply.h"
#include "trees/patch_offset.h"
#include "trees/part_tree.h"
#include "trees/pick.h"
#include "trees/tree_files.h"
#include "trees/tree_reviews.h"
#include "trees/tree_state.h"
#include "rules/classify.h"
#include "lib/fileio.h"
#include "lib/git.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <dirent.h>
#include <git2/sys/hashsig.h>
#include <stdio.h>
#include <string.h>

static char *tmp;		/* the temp dir holding linux/ and ids.sh */
static char repo_path[4096];
static struct strbuf ids = STRBUF_INIT;
static struct sm_rules *rules;

static const char *id(const char *name)
{
	static char buf[8][41];
	static int n;
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "\n%s=", name);
	p = strstr(ids.buf, key);
	ck_assert_msg(p, "no commit %s in ids.sh", name);
	n = (n + 1) % 8;
	memcpy(buf[n], p + strlen(key), 40);
	buf[n][40] = '\0';
	return buf[n];
}

/* Runs a shell command, returns its stdout (caller frees) and exit code. */
static char *run(int *status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *run(int *status, const char *fmt, ...)
{
	struct strbuf out = STRBUF_INIT;
	char buf[4096], *cmd;
	va_list ap;
	FILE *f;
	size_t n;
	int st;

	va_start(ap, fmt);
	ck_assert(vasprintf(&cmd, fmt, ap) >= 0);
	va_end(ap);
	f = popen(cmd, "r");
	ck_assert_msg(f, "popen %s", cmd);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&out, buf, n);
	st = pclose(f);
	if (status)
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	free(cmd);
	return strbuf_detach(&out, NULL);
}

static void setup_repo(void)
{
	int st;
	char *out;

	tmp = make_temp_dir("sm-trees");
	out = run(&st, "bash '%s' '%s' 2>&1", srcdir_path("tests/trees_mkrepo.sh"), tmp);
	ck_assert_msg(st == 0, "trees_mkrepo.sh failed: %s", out);
	free(out);
	snprintf(repo_path, sizeof(repo_path), "%s/linux", tmp);
	strbuf_addch(&ids, '\n');
	{
		char *path = xasprintf("%s/ids.sh", tmp);

		ck_assert(read_file(path, &ids) == 0);
		free(path);
	}
	ck_assert(sm_rules_load(&rules, srcdir_path("rules")) == 0);
}

static void teardown_repo(void)
{
	sm_rules_free(rules);
	remove_tree(tmp);
	free(tmp);
	strbuf_release(&ids);
}

static git_repository *open_repo(void)
{
	git_repository *r;

	ck_assert_msg(sm_repo_open(&r, repo_path) == 0, "%s", sm_last_error());
	return r;
}

/* ---- patch-id ---- */

static void check_commit_patch_id(git_repository *r, const char *hex)
{
	char mine[41], *git;
	git_oid oid;

	git_oid_fromstr(&oid, hex);
	ck_assert_msg(sm_patch_id_commit(r, &oid, mine) == 0, "%s", sm_last_error());
	git = run(NULL, "cd '%s' && git show %s | git patch-id --stable | cut -c1-40", repo_path, hex);
	ck_assert_msg(!strncmp(git, mine, 40), "%s: git %s, stablemate %s", hex, git, mine);
	free(git);
}

START_TEST(patch_id_matches_git_on_commits)
{
	git_repository *r = open_repo();
	const char *names[] = { "W1", "W2", "W3", "W6", "T2", "C3", "E1", "BASE41", "S1" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		check_commit_patch_id(r, id(names[i]));
	git_repository_free(r);
}
END_TEST

/* Real patches: the seed and the stable review mails of linux-hwmon. */
START_TEST(patch_id_matches_git_on_real_mails)
{
	const char *dirs[] = { "corpus/lists/hwmon/stable-threads/cur", "seeds" };
	struct strlist paths = STRLIST_INIT;
	int checked = 0;

	if (shared_missing(__func__))
		return;
	list_shared(dirs, ARRAY_SIZE(dirs), &paths);
	for (size_t i = 0; i < paths.nr && checked < 40; i++) {
		const char *path = paths.items[i];
		struct strbuf text = STRBUF_INIT;
		char *git, mine[41];

		ck_assert(read_file(path, &text) == 0);
		/* Plain-text patches only (not base64 or quoted-printable). */
		if (!strstr(text.buf, "\ndiff --git ") ||
		    strstr(text.buf, "Content-Transfer-Encoding: base64") ||
		    strstr(text.buf, "quoted-printable")) {
			strbuf_release(&text);
			continue;
		}
		git = run(NULL, "git patch-id --stable < '%s' | cut -c1-40", path);
		if (strlen(git) >= 40) {
			ck_assert_msg(sm_patch_id_from_text(text.buf, text.len, mine) == 0,
				      "%s: %s", path, sm_last_error());
			ck_assert_msg(!strncmp(git, mine, 40), "%s: git %.40s, stablemate %s",
				      path, git, mine);
			checked++;
		}
		free(git);
		strbuf_release(&text);
	}
	strlist_clear(&paths);
	ck_assert_msg(checked >= 10, "only %d real patches compared", checked);
}
END_TEST

START_TEST(patch_id_rejects_text_without_diff)
{
	char out[41];
	const char *msg = "Subject: hello\n\nno diff here\n";

	ck_assert_int_eq(sm_patch_id_from_text(msg, strlen(msg), out), -1);
	ck_assert(strstr(sm_last_error(), "no diff"));
}
END_TEST

/* ---- the upstream index ---- */

START_TEST(index_maps_every_upstream_form)
{
	git_repository *r = open_repo();
	struct sm_upstream_index i41, i44;
	const struct sm_upstream_entry *e;
	enum sm_match how;
	git_oid base41, base44;
	char pid[41];

	ck_assert(sm_resolve_commit(r, "v4.1", &base41) == 0);
	ck_assert(sm_resolve_commit(r, "v4.4", &base44) == 0);
	ck_assert(sm_upstream_index_build(&i41, r, "linux-4.1.y", &base41, "") == 0);
	ck_assert(sm_upstream_index_build(&i44, r, "linux-4.4.y", &base44, "") == 0);
	ck_assert_int_eq(i41.nr, 6);
	ck_assert_int_eq(i44.nr, 4);
	/* "commit <sha> upstream." */
	e = sm_upstream_index_find(&i41, id("C1"), NULL, NULL, &how);
	ck_assert(e && !strcmp(e->stable, id("S1")) && how == SM_MATCH_UPSTREAM_ID);
	/* "(cherry picked from commit <sha>)" */
	e = sm_upstream_index_find(&i41, id("W6"), NULL, NULL, &how);
	ck_assert(e && !strcmp(e->stable, id("S3")));
	/* "upstream commit <sha>" */
	e = sm_upstream_index_find(&i41, id("W7"), NULL, NULL, &how);
	ck_assert(e && !strcmp(e->stable, id("S4")));
	/* "[ Upstream commit <sha> ]" on a backport that differs */
	e = sm_upstream_index_find(&i44, id("W6"), NULL, NULL, &how);
	ck_assert(e && !strcmp(e->stable, id("T2")) && how == SM_MATCH_UPSTREAM_ID);
	/* No upstream line: found by patch-id, not by id. */
	ck_assert_ptr_null(sm_upstream_index_find(&i44, id("W1"), NULL, NULL, NULL));
	git_oid_fromstr(&base41, id("W1"));
	ck_assert(sm_patch_id_commit(r, &base41, pid) == 0);
	e = sm_upstream_index_find(&i44, id("W1"), pid, NULL, &how);
	ck_assert(e && !strcmp(e->stable, id("T3")) && how == SM_MATCH_PATCH_ID);
	/* ... and by subject when the patch differs. */
	e = sm_upstream_index_find(&i44, id("W1"), "0000000000000000000000000000000000000000",
				   "ALSA: timer: Fix leak in events via snd_timer_user_tinterrupt", &how);
	ck_assert(e && how == SM_MATCH_SUBJECT);
	/* Not there at all. */
	ck_assert_ptr_null(sm_upstream_index_find(&i44, id("W8"), NULL, "nope", &how));
	ck_assert_int_eq(how, SM_MATCH_NONE);
	/* stable -> upstream, for the notes and mail code. */
	ck_assert_str_eq(sm_upstream_index_upstream_of(&i44, id("T1")), id("W3"));
	ck_assert_str_eq(sm_upstream_index_upstream_of(&i41, id("S2")), id("S2"));
	ck_assert_ptr_null(sm_upstream_index_upstream_of(&i41, id("W8")));
	sm_upstream_index_release(&i41);
	sm_upstream_index_release(&i44);
	git_repository_free(r);
}
END_TEST

static void build(git_repository **r, struct sm_upstream_index *idx, const char *branch,
		  const char *cache)
{
	git_oid base;

	if (*r)
		git_repository_free(*r);
	*r = open_repo();
	ck_assert(sm_resolve_commit(*r, "v4.1", &base) == 0);
	ck_assert_msg(sm_upstream_index_build(idx, *r, branch, &base, cache) == 0, "%s",
		      sm_last_error());
}

START_TEST(index_cache_is_incremental_and_never_trusted)
{
	git_repository *r = NULL;
	struct sm_upstream_index idx;
	char *cache = xasprintf("%s/cache-inc", tmp), *out;
	struct strbuf text = STRBUF_INIT;
	int st;

	out = run(&st, "cd '%s' && git branch cache-test linux-4.1.y", repo_path);
	free(out);
	build(&r, &idx, "cache-test", cache);
	ck_assert_int_eq(idx.cache_state, SM_CACHE_NEW);
	ck_assert_int_eq(idx.scanned, 6);
	sm_upstream_index_release(&idx);

	build(&r, &idx, "cache-test", cache);
	ck_assert_int_eq(idx.cache_state, SM_CACHE_HIT);
	ck_assert_int_eq(idx.scanned, 0);
	ck_assert_int_eq(idx.nr, 6);
	ck_assert(sm_upstream_index_find(&idx, id("C1"), NULL, NULL, NULL));
	sm_upstream_index_release(&idx);

	/* The branch grows by one cherry-pick: only that one is read. */
	out = run(&st, "cd '%s' && git checkout -q cache-test && git cherry-pick -x %s >/dev/null && "
		  "git checkout -q master", repo_path, id("W2"));
	free(out);
	ck_assert_int_eq(st, 0);
	build(&r, &idx, "cache-test", cache);
	ck_assert_int_eq(idx.cache_state, SM_CACHE_INCREMENTAL);
	ck_assert_int_eq(idx.scanned, 1);
	ck_assert_int_eq(idx.from_cache, 6);
	ck_assert_int_eq(idx.nr, 7);
	ck_assert(sm_upstream_index_find(&idx, id("W2"), NULL, NULL, NULL));
	/* The file on disk says so too. */
	ck_assert(read_file(idx.cache_path, &text) == 0);
	ck_assert(strstr(text.buf, id("W2")));
	ck_assert(strstr(text.buf, "\ncount 7\n"));
	sm_upstream_index_release(&idx);

	/* Rewritten branch: the old tip is no longer in it -> rebuilt. */
	out = run(&st, "cd '%s' && git branch -f cache-test %s", repo_path, id("S2"));
	free(out);
	build(&r, &idx, "cache-test", cache);
	ck_assert_int_eq(idx.cache_state, SM_CACHE_REBUILT);
	ck_assert_int_eq(idx.nr, 2);
	ck_assert_ptr_null(sm_upstream_index_find(&idx, id("W2"), NULL, NULL, NULL));
	sm_upstream_index_release(&idx);

	/* A damaged cache (truncated, or an entry edited) is rebuilt. */
	build(&r, &idx, "cache-test", cache);
	ck_assert_int_eq(idx.cache_state, SM_CACHE_HIT);
	strbuf_reset(&text);
	ck_assert(read_file(idx.cache_path, &text) == 0);
	ck_assert(write_file_atomic(idx.cache_path, text.buf, text.len - 4) == 0);
	{
		char *path = xstrdup(idx.cache_path);

		sm_upstream_index_release(&idx);
		build(&r, &idx, "cache-test", cache);
		ck_assert_int_eq(idx.cache_state, SM_CACHE_REBUILT);
		ck_assert_int_eq(idx.nr, 2);
		sm_upstream_index_release(&idx);
		/* An entry naming a bogus upstream id. */
		strbuf_reset(&text);
		ck_assert(read_file(path, &text) == 0);
		ck_assert(strstr(text.buf, id("C1")));
		memcpy(strstr(text.buf, id("C1")), "ZZZZ", 4);
		ck_assert(write_file_atomic(path, text.buf, text.len) == 0);
		free(path);
	}
	build(&r, &idx, "cache-test", cache);
	ck_assert_int_eq(idx.cache_state, SM_CACHE_REBUILT);
	ck_assert(sm_upstream_index_find(&idx, id("C1"), NULL, NULL, NULL));
	sm_upstream_index_release(&idx);

	strbuf_release(&text);
	git_repository_free(r);
	free(cache);
}
END_TEST

START_TEST(index_unknown_branch_is_an_error)
{
	git_repository *r = open_repo();
	struct sm_upstream_index idx;

	ck_assert_int_eq(sm_upstream_index_build(&idx, r, "linux-9.9.y", NULL, ""), -1);
	ck_assert_msg(strstr(sm_last_error(), "linux-9.9.y: unknown revision"), "%s", sm_last_error());
	sm_upstream_index_release(&idx);
	git_repository_free(r);
}
END_TEST

/* ---- the tag graph ---- */

START_TEST(first_release_from_tag_graph)
{
	git_repository *r = open_repo();
	struct sm_release_tags t;
	git_oid oid;
	const struct sm_release *rel;

	ck_assert(sm_release_tags_load(&t, r) == 0);
	ck_assert_int_eq(t.nr, 3);
	ck_assert_str_eq(t.tags[0].name, "v4.1");
	ck_assert_str_eq(t.tags[2].name, "v4.5");
	git_oid_fromstr(&oid, id("BASE41"));
	ck_assert_str_eq(sm_first_release(&t, r, &oid)->name, "v4.1");
	git_oid_fromstr(&oid, id("C1"));
	ck_assert_str_eq(sm_first_release(&t, r, &oid)->name, "v4.4");
	git_oid_fromstr(&oid, id("E1"));	/* on a merged topic branch */
	ck_assert_str_eq(sm_first_release(&t, r, &oid)->name, "v4.5");
	git_oid_fromstr(&oid, id("S1"));	/* a stable-only commit */
	rel = sm_first_release(&t, r, &oid);
	ck_assert_ptr_null(rel);
	sm_release_tags_release(&t);
	git_repository_free(r);
}
END_TEST

/* The same answers from the map kept on disk; a damaged map or another
 * set of tags is not trusted. */
START_TEST(release_map_cache)
{
	static const char *const names[] = { "BASE41", "C1", "E1", "S1", "W1", "BASE45" };
	git_repository *r = open_repo();
	struct sm_release_tags plain, t;
	char *cache = xasprintf("%s/cache-releases", tmp), *out;
	struct strbuf text = STRBUF_INIT;
	int st;

	ck_assert(sm_release_tags_load(&plain, r) == 0);
	for (int round = 0; round < 6; round++) {
		static const int want[] = { SM_CACHE_NEW, SM_CACHE_HIT, SM_CACHE_REBUILT,
					    SM_CACHE_REBUILT, SM_CACHE_REBUILT, SM_CACHE_HIT };

		ck_assert(sm_release_tags_load(&t, r) == 0);
		sm_release_tags_cache(&t, r, cache);
		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			git_oid oid;
			const struct sm_release *a, *b;

			git_oid_fromstr(&oid, id(names[i]));
			a = sm_first_release(&plain, r, &oid);
			b = sm_first_release(&t, r, &oid);
			ck_assert(!a == !b);
			if (a)
				ck_assert_str_eq(a->name, b->name);
			ck_assert_int_eq(sm_release_tags_resolve(&t, r, id(names[i]), &oid), 0);
			ck_assert_str_eq(git_oid_tostr_s(&oid), id(names[i]));
		}
		ck_assert_int_eq(plain.map_nr, t.map_nr);
		ck_assert_msg(t.map_cache_state == want[round], "round %d: %d", round,
			      t.map_cache_state);
		strbuf_reset(&text);
		ck_assert(read_file(t.map_cache_path, &text) == 0);
		if (round == 1)		/* a bit of an id flipped */
			text.buf[text.len / 2] ^= 1;
		else if (round == 2)	/* cut short */
			strbuf_setlen(&text, text.len - 30);
		else if (round == 3)	/* a map for other tags */
			text.buf[strlen("stablemate-release-map 1\ntags ")] ^= 1;
		if (round >= 1 && round <= 3)
			ck_assert(write_file_atomic(t.map_cache_path, text.buf, text.len) == 0);
		sm_release_tags_release(&t);
		if (round == 3) {	/* a new release tag: a new map */
			out = run(&st, "cd '%s' && git tag -a -m v4.6 v4.6 %s", repo_path,
				  id("BASE45"));
			free(out);
			ck_assert_int_eq(st, 0);
		}
	}
	out = run(&st, "cd '%s' && git tag -d v4.6", repo_path);
	free(out);
	strbuf_release(&text);
	sm_release_tags_release(&plain);
	git_repository_free(r);
	free(cache);
}
END_TEST

/* Kept answers are git_graph_descendant_of's; a damaged file is not read. */
START_TEST(ancestry_cache)
{
	static const char *const pairs[][2] = {
		{ "BASE45", "BASE41" }, { "BASE41", "BASE45" }, { "S2", "BASE41" },
		{ "C1", "S1" }, { "BASE45", "BASE41" },
	};
	git_repository *r = open_repo();
	char *cache = xasprintf("%s/cache-ancestry", tmp), *dir = xasprintf("%s/ancestry", cache);
	struct strbuf text = STRBUF_INIT;

	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
			git_oid a, b;

			git_oid_fromstr(&a, id(pairs[i][0]));
			git_oid_fromstr(&b, id(pairs[i][1]));
			ck_assert_int_eq(sm_descendant_of_cached(r, &a, &b, cache),
					 git_graph_descendant_of(r, &a, &b));
			ck_assert_int_eq(sm_descendant_of_cached(r, &a, &b, ""),
					 git_graph_descendant_of(r, &a, &b));
		}
		{
			DIR *d = opendir(dir);
			struct dirent *e;
			char *path = NULL;

			ck_assert_ptr_nonnull(d);
			while ((e = readdir(d)))
				if (e->d_name[0] != '.')
					path = xasprintf("%s/%s", dir, e->d_name);
			closedir(d);
			ck_assert_ptr_nonnull(path);
			strbuf_reset(&text);
			ck_assert(read_file(path, &text) == 0);
			/* four distinct pairs, then the end line */
			ck_assert_int_eq(text.len, strlen("stablemate-ancestry 1\n") + 4 * 84 + 45);
			ck_assert(strstr(text.buf, id("S2")));
			/* flip an answer: only the checksum tells */
			ck_assert(strstr(text.buf, " 1\n"));
			strstr(text.buf, " 1\n")[1] = '0';
			ck_assert(write_file_atomic(path, text.buf, text.len) == 0);
			free(path);
		}
	}
	strbuf_release(&text);
	git_repository_free(r);
	free(dir);
	free(cache);
}
END_TEST

/* ---- scan ---- */

static struct sm_tree_spec trees[2] = {
	{ "linux-4.1.y", NULL, "linux-4.1.y", { 4, 1, -1 } },
	{ "linux-4.4.y", NULL, "linux-4.4.y", { 4, 4, -1 } },
};

static const struct sm_scan_item *item(const struct sm_scan_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(r->items[i].id, id(name)))
			return &r->items[i];
	ck_abort_msg("%s not in the scan", name);
	return NULL;
}

static void scan_opts(struct sm_scan_opts *o, const char *range)
{
	memset(o, 0, sizeof(*o));
	o->upstream = repo_path;
	o->range = range;
	o->trees = trees;
	o->nr_trees = 2;
	o->rules = rules;
	o->cache_dir = "";
	o->check_applies = 1;
}

START_TEST(scan_classifies_for_each_tree)
{
	struct sm_scan_opts o;
	struct sm_scan_result r;
	const struct sm_scan_item *it;
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;

	scan_opts(&o, "v4.4..v4.5");
	ck_assert_msg(sm_scan(&o, &r) == 0, "%s", sm_last_error());
	ck_assert_int_eq(r.nr, 14);
	/* Upstream order, oldest first. */
	ck_assert_str_eq(r.items[0].id, id("W1"));
	ck_assert_str_eq(r.items[r.nr - 1].id, id("BASE45"));

	/* The seed: keywords make it a candidate; 4.4 has it (patch-id). */
	it = item(&r, "W1");
	ck_assert_int_eq(it->verdict.kind, SM_CANDIDATE);
	ck_assert_int_eq(it->trees[0].verdict.kind, SM_CANDIDATE);
	ck_assert_int_eq(it->trees[0].present, 0);
	ck_assert_int_eq(it->trees[0].applies, 1);
	ck_assert_int_eq(it->trees[1].present, 1);
	ck_assert_str_eq(it->trees[1].present_as, id("T3"));
	ck_assert_int_eq(it->trees[1].verdict.kind, SM_REJECT);

	/* Fix for a fix: its target is in 4.1 only as a cherry-pick. */
	it = item(&r, "W2");
	ck_assert_str_eq(it->fixes_first_release, "v4.4");
	ck_assert(sm_verdict_has(&it->trees[0].verdict, "fix-for-fix"));
	ck_assert_int_eq(it->trees[0].verdict.kind, SM_CANDIDATE);
	ck_assert(!sm_verdict_has(&it->trees[1].verdict, "fix-for-fix"));
	ck_assert(sm_verdict_has(&it->trees[1].verdict, "bug-in-tree"));

	/* Bug introduced in v4.4: 4.1 never had it; 4.4 has the fix. */
	it = item(&r, "W3");
	ck_assert(sm_verdict_has(&it->trees[0].verdict, "bug-not-in-tree"));
	ck_assert_int_eq(it->trees[0].verdict.kind, SM_REJECT);
	ck_assert_int_eq(it->trees[1].present, 1);
	ck_assert_str_eq(it->trees[1].present_as, id("T1"));

	/* Fixes a commit of the same window: no tree has the bug. */
	it = item(&r, "W4");
	ck_assert_str_eq(it->fixes_first_release, "v4.5");
	ck_assert(sm_verdict_has(&it->trees[0].verdict, "bug-not-in-tree"));
	ck_assert(sm_verdict_has(&it->trees[1].verdict, "bug-not-in-tree"));

	/* A prerequisite named in the stable tag. */
	it = item(&r, "W5");
	ck_assert_int_eq(it->trees[1].deps.nr, 1);
	ck_assert_str_eq(it->trees[1].deps.items[0], id("W5P"));
	ck_assert(sm_verdict_has(&it->trees[1].verdict, "prereq"));
	ck_assert_int_eq(it->trees[0].deps.nr, 0);	/* "# 4.4.x": not for 4.1 */

	/* Every upstream-line form counts as present. */
	ck_assert_int_eq(item(&r, "W6")->trees[0].present, 1);
	ck_assert_int_eq(item(&r, "W6")->trees[1].present, 1);
	ck_assert_int_eq(item(&r, "W7")->trees[0].present, 1);
	ck_assert_int_eq(item(&r, "W7")->trees[1].present, 0);

	/* Trial cherry-picks. */
	ck_assert_int_eq(item(&r, "W8")->trees[0].applies, 0);
	ck_assert_int_eq(item(&r, "W8")->trees[1].applies, 1);

	/* The merge in the range is listed and rejected as a merge. */
	it = item(&r, "MERGE");
	ck_assert(it->commit.is_merge);
	ck_assert(sm_verdict_has(&it->trees[0].verdict, "merge"));
	ck_assert_int_eq(it->trees[0].verdict.kind, SM_REJECT);

	json_init(&w, &sb);
	sm_scan_result_json(&r, &o, &w);
	ck_assert(strstr(sb.buf, "\"fix-for-fix\""));
	ck_assert(strstr(sb.buf, "\"nr_commits\":14"));
	strbuf_release(&sb);
	sm_scan_result_release(&r);
}
END_TEST

/* A range is read as git reads it: an empty side is HEAD. */
START_TEST(scan_range_forms)
{
	struct sm_scan_opts o;
	struct sm_scan_result full, open_end;
	static const char *refused[] = { "..", "v4.4...v4.5", "v4.4" };

	scan_opts(&o, "v4.4..HEAD");
	ck_assert_int_eq(sm_scan(&o, &full), 0);
	scan_opts(&o, "v4.4..");
	ck_assert_int_eq(sm_scan(&o, &open_end), 0);
	ck_assert_uint_gt(full.nr, 0);
	ck_assert_uint_eq(open_end.nr, full.nr);
	ck_assert_str_eq(open_end.items[0].id, full.items[0].id);
	sm_scan_result_release(&open_end);
	scan_opts(&o, "..v4.5");	/* HEAD is past v4.5: nothing */
	ck_assert_int_eq(sm_scan(&o, &open_end), 0);
	ck_assert_uint_eq(open_end.nr, 0);
	sm_scan_result_release(&open_end);
	sm_scan_result_release(&full);
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		scan_opts(&o, refused[i]);
		ck_assert_int_eq(sm_scan(&o, &open_end), -1);
		ck_assert_msg(strstr(sm_last_error(), "not a range of the form A..B"), "%s: %s",
			      refused[i], sm_last_error());
	}
}
END_TEST

START_TEST(scan_failure_paths)
{
	struct sm_scan_opts o;
	struct sm_scan_result r;
	struct sm_tree_spec bad = { "linux-9.9.y", NULL, "linux-9.9.y", { 9, 9, -1 } };
	char *shallow = xasprintf("%s/shallow", tmp), *out;
	int st;

	scan_opts(&o, "v4.4..v9.9");
	ck_assert_int_eq(sm_scan(&o, &r), -1);
	ck_assert_msg(strstr(sm_last_error(), "v4.4..v9.9"), "%s", sm_last_error());
	ck_assert_int_eq(r.nr, 0);

	scan_opts(&o, "v4.4");
	ck_assert_int_eq(sm_scan(&o, &r), -1);
	ck_assert(strstr(sm_last_error(), "not a range"));

	scan_opts(&o, "v4.4..v4.5");
	o.trees = &bad;
	o.nr_trees = 1;
	ck_assert_int_eq(sm_scan(&o, &r), -1);
	ck_assert_msg(strstr(sm_last_error(), "linux-9.9.y: unknown revision"), "%s", sm_last_error());

	scan_opts(&o, "v4.4..v4.5");
	o.upstream = "/nonexistent/repo";
	ck_assert_int_eq(sm_scan(&o, &r), -1);
	ck_assert(strstr(sm_last_error(), "/nonexistent/repo: not a git repository"));

	out = run(&st, "git clone -q --depth 1 --branch linux-4.4.y 'file://%s' '%s' 2>&1",
		  repo_path, shallow);
	ck_assert_msg(st == 0, "%s", out);
	free(out);
	scan_opts(&o, "HEAD~1..HEAD");
	o.upstream = shallow;
	ck_assert_int_eq(sm_scan(&o, &r), -1);
	ck_assert_msg(strstr(sm_last_error(), "shallow repository"), "%s", sm_last_error());
	free(shallow);
}
END_TEST

/* ---- the diff cache ---- */

static void same_diff_facts(const struct sm_scan_result *a, const struct sm_scan_result *b)
{
	ck_assert_int_eq(a->nr, b->nr);
	for (size_t i = 0; i < a->nr; i++) {
		const struct sm_commit *x = &a->items[i].commit, *y = &b->items[i].commit;

		ck_assert_str_eq(a->items[i].id, b->items[i].id);
		ck_assert_str_eq(a->items[i].patch_id, b->items[i].patch_id);
		ck_assert_int_eq(x->has_diff, y->has_diff);
		ck_assert(!memcmp(&x->diff, &y->diff, sizeof(x->diff)));
		ck_assert_int_eq(x->nr_files, y->nr_files);
		for (size_t k = 0; k < x->nr_files; k++) {
			ck_assert_str_eq(x->files[k].path, y->files[k].path);
			ck_assert_uint_eq(x->files[k].added, y->files[k].added);
			ck_assert_uint_eq(x->files[k].removed, y->files[k].removed);
			ck_assert_uint_eq(x->files[k].is_new, y->files[k].is_new);
			ck_assert_uint_eq(x->files[k].is_deleted, y->files[k].is_deleted);
		}
		ck_assert_int_eq(a->items[i].verdict.score, b->items[i].verdict.score);
	}
}

/* The single file of a diff-cache directory. */
static char *diff_cache_file(const char *cache)
{
	char *dir = xasprintf("%s/diff-cache", cache), *path = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			ck_assert_ptr_null(path);
			path = xasprintf("%s/%s", dir, e->d_name);
		}
	closedir(d);
	free(dir);
	ck_assert_ptr_nonnull(path);
	return path;
}

START_TEST(scan_diff_cache_same_facts)
{
	struct sm_scan_opts o;
	struct sm_scan_result cold, warm, again;
	char *cache = xasprintf("%s/cache-diff", tmp), *path;
	struct strbuf text = STRBUF_INIT;

	scan_opts(&o, "v4.4..v4.5");
	o.check_applies = 0;
	ck_assert_msg(sm_scan(&o, &cold) == 0, "%s", sm_last_error());
	ck_assert_str_eq(cold.diff_cache, "off");
	o.cache_dir = cache;
	ck_assert_msg(sm_scan(&o, &warm) == 0, "%s", sm_last_error());
	ck_assert_str_eq(warm.diff_cache, "new");
	ck_assert_int_eq(warm.diff_cache_hits, 0);
	sm_scan_result_release(&warm);
	ck_assert_msg(sm_scan(&o, &warm) == 0, "%s", sm_last_error());
	ck_assert_str_eq(warm.diff_cache, "hit");
	ck_assert_int_eq(warm.diff_cache_hits, 13);	/* 14 commits, one merge */
	same_diff_facts(&cold, &warm);
	sm_scan_result_release(&warm);

	/* A longer range from the same start: the new commits are added. */
	scan_opts(&o, "v4.4..master");
	o.check_applies = 0;
	o.cache_dir = cache;
	ck_assert_msg(sm_scan(&o, &warm) == 0, "%s", sm_last_error());
	ck_assert_str_eq(warm.diff_cache, warm.nr > 14 ? "incremental" : "hit");
	ck_assert_int_eq(warm.diff_cache_hits, 13);
	sm_scan_result_release(&warm);
	scan_opts(&o, "v4.4..v4.5");
	o.check_applies = 0;
	o.cache_dir = cache;

	/* Damaged: one byte changed, cut short, another version's: ignored. */
	path = diff_cache_file(cache);
	ck_assert(read_file(path, &text) == 0);
	for (int round = 0; round < 4; round++) {
		struct strbuf bad = STRBUF_INIT;

		strbuf_add(&bad, text.buf, text.len);
		if (round == 0)
			bad.buf[bad.len / 2] ^= 1;
		else if (round == 1)
			strbuf_setlen(&bad, bad.len / 2);
		else if (round == 2)
			strstr(bad.buf, "diff-cache ")[11] = '0';	/* version 0 */
		else
			strbuf_setlen(&bad, 0);
		ck_assert(write_file_atomic(path, bad.buf, bad.len) == 0);
		strbuf_release(&bad);
		ck_assert_msg(sm_scan(&o, &again) == 0, "%s", sm_last_error());
		ck_assert_str_eq(again.diff_cache, "rebuilt");
		ck_assert_int_eq(again.diff_cache_hits, 0);
		same_diff_facts(&cold, &again);
		sm_scan_result_release(&again);
		/* ... and written anew. */
		ck_assert_msg(sm_scan(&o, &again) == 0, "%s", sm_last_error());
		ck_assert_str_eq(again.diff_cache, "hit");
		same_diff_facts(&cold, &again);
		sm_scan_result_release(&again);
	}
	strbuf_release(&text);
	sm_scan_result_release(&cold);
	free(path);
	free(cache);
}
END_TEST

/* Paths are stored with their length: spaces and newlines survive. */
START_TEST(diff_cache_keeps_any_path)
{
	struct sm_diff_cache dc;
	struct sm_commit c, got;
	char *cache = xasprintf("%s/cache-paths", tmp);
	const char *from = "0123456789abcdef0123456789abcdef01234567";
	const char *a = "1111111111111111111111111111111111111111";
	const char *b = "2222222222222222222222222222222222222222";
	char pid[41];

	memset(&c, 0, sizeof(c));
	memset(&got, 0, sizeof(got));
	sm_commit_add_file(&c, "dir/a b\nc.c", 11, 3, 1);
	sm_commit_add_file(&c, "x", 1, 0, 7);
	c.files[1].is_deleted = 1;
	sm_diff_cache_open(&dc, cache, "/some/repo/.git/", from);
	ck_assert_int_eq(dc.state, SM_CACHE_NEW);
	ck_assert_int_eq(sm_diff_cache_note(&dc, a), 0);
	sm_diff_cache_add(&dc, a, &c, "3333333333333333333333333333333333333333");
	sm_diff_cache_add(&dc, b, &got, "");	/* got: an empty commit */
	sm_diff_cache_write(&dc);
	sm_diff_cache_release(&dc);

	/* Another repository's file is not this one's. */
	sm_diff_cache_open(&dc, cache, "/other/repo/.git/", from);
	ck_assert_int_eq(dc.state, SM_CACHE_NEW);
	sm_diff_cache_release(&dc);

	sm_diff_cache_open(&dc, cache, "/some/repo/.git/", from);
	ck_assert_int_eq(dc.state, SM_CACHE_HIT);
	memset(&got, 0, sizeof(got));
	ck_assert_int_eq(sm_diff_cache_get(&dc, a, &got, pid), 1);
	ck_assert_str_eq(pid, "3333333333333333333333333333333333333333");
	ck_assert_int_eq(got.nr_files, 2);
	ck_assert_str_eq(got.files[0].path, "dir/a b\nc.c");
	ck_assert_uint_eq(got.files[0].added, 3);
	ck_assert_str_eq(got.files[1].path, "x");
	ck_assert_uint_eq(got.files[1].is_deleted, 1);
	ck_assert(!memcmp(&got.diff, &c.diff, sizeof(c.diff)));
	ck_assert_int_eq(got.has_diff, 1);
	sm_commit_release(&got);
	memset(&got, 0, sizeof(got));
	ck_assert_int_eq(sm_diff_cache_get(&dc, b, &got, pid), 1);
	ck_assert_str_eq(pid, "");
	ck_assert_int_eq(got.has_diff, 0);
	ck_assert_int_eq(got.nr_files, 0);
	sm_commit_release(&got);
	ck_assert_int_eq(sm_diff_cache_get(&dc, from, &got, pid), 0);
	ck_assert_int_eq(sm_diff_cache_note(&dc, a), 1);
	ck_assert_int_eq(sm_diff_cache_note(&dc, from), 0);
	ck_assert_int_eq(dc.state, SM_CACHE_INCREMENTAL);
	sm_diff_cache_release(&dc);

	/* Off: nothing read or written. */
	sm_diff_cache_open(&dc, "", "/some/repo/.git/", from);
	ck_assert_int_eq(dc.state, SM_CACHE_OFF);
	ck_assert_int_eq(sm_diff_cache_get(&dc, a, &got, pid), 0);
	sm_diff_cache_write(&dc);
	sm_diff_cache_release(&dc);
	sm_commit_release(&c);
	free(cache);
}
END_TEST

/* ---- steal ---- */

static char *git_out(const char *fmt, const char *arg)
{
	char *cmd = xasprintf(fmt, arg), *out;

	out = run(NULL, "cd '%s' && %s", repo_path, cmd);
	free(cmd);
	return out;
}

START_TEST(steal_picks_candidates_in_order)
{
	struct sm_steal_opts o;
	struct sm_steal_result r;
	char *before = git_out("git rev-parse %s", "linux-4.1.y");
	char *head = git_out("git rev-parse %s", "HEAD");
	char *out;

	memset(&o, 0, sizeof(o));
	o.repo = repo_path;
	o.range = "v4.4..v4.5";
	o.onto = trees[0];
	o.branch = "steal-41";
	o.signoff = "Stable Maintainer <stable@example.org>";
	o.rules = rules;
	o.cache_dir = "";
	ck_assert_msg(sm_steal(&o, &r) == 0, "%s", sm_last_error());
	ck_assert_int_eq(r.nr_picked, 2);
	/* E1 is no candidate: 4.1 lacks its file (file-not-in-tree) */
	ck_assert_int_eq(r.nr, 3);
	ck_assert_str_eq(r.entries[0].upstream, id("W1"));
	ck_assert_str_eq(r.entries[1].upstream, id("W2"));
	ck_assert_ptr_null(r.entries[0].reason);
	ck_assert_str_eq(r.entries[2].upstream, id("W8"));
	ck_assert(r.entries[2].reason && strstr(r.entries[2].reason, "net/tls/tls_sw.c"));

	/* The branch: onto's tip plus the two picks, upstream order. */
	out = git_out("git log --format=%%s %s", "linux-4.1.y..steal-41");
	ck_assert_str_eq(out, "i2c: i801: Fix block process call transactions\n"
			      "ALSA: timer: Fix leak in events via snd_timer_user_tinterrupt\n");
	free(out);
	out = git_out("git log -1 --format=%%B%%n--%%an%%n%%cn %s", "steal-41");
	ck_assert(strstr(out, "i2c: i801: Fix block process call transactions\n\ncommit "));
	ck_assert(strstr(out, id("W2")));
	ck_assert(strstr(out, " upstream.\n\n"));
	ck_assert(strstr(out, "Signed-off-by: Stable Maintainer <stable@example.org>\n"));
	ck_assert(strstr(out, "--Kernel Dev\nStable Maintainer"));
	free(out);
	/* Nothing else moved: the tree, HEAD, the work tree. */
	out = git_out("git rev-parse %s", "linux-4.1.y");
	ck_assert_str_eq(out, before);
	free(out);
	out = git_out("git rev-parse %s", "HEAD");
	ck_assert_str_eq(out, head);
	free(out);
	out = git_out("git status --porcelain %s", "");
	ck_assert_str_eq(out, "");
	free(out);
	sm_steal_result_release(&r);

	/* A second run must not overwrite the branch. */
	ck_assert_int_eq(sm_steal(&o, &r), -1);
	ck_assert(strstr(sm_last_error(), "steal-41: branch already exists"));
	sm_steal_result_release(&r);
	free(before);
	free(head);
}
END_TEST

/* ---- yank / insert ---- */

static git_repository *branch_copy(const char *name, const char *from)
{
	char *cmd = xasprintf("git branch -f %s %s", name, from);
	char *out = git_out("%s", cmd);

	free(out);
	free(cmd);
	return open_repo();
}

START_TEST(yank_replays_and_keeps_backup)
{
	git_repository *r = branch_copy("y41", "linux-4.1.y");
	struct sm_rewrite_result res;
	char *out;

	ck_assert_msg(sm_yank(r, "y41", id("S3"), &res) == SM_PICK_CLEAN, "%s", sm_last_error());
	ck_assert_int_eq(res.replayed, 2);
	ck_assert_str_eq(res.old_tip, id("S5"));
	out = git_out("git log --format=%%s %s", "v4.1..y41");
	ck_assert_str_eq(out, "Linux 4.1.1\n"
			      "KVM: arm64: vgic-its: Avoid potential UAF in LPI translation cache\n"
			      "tls: use irqsave for the 4.1 tx lock\n"
			      "tls: take the tx lock in the 4.1 backport\n"
			      "i2c: i801: Add support for block process call\n");
	free(out);
	out = git_out("git rev-parse %s", "refs/stablemate/backup/y41");
	ck_assert(!strncmp(out, id("S5"), 40));
	free(out);
	/* The original branch is untouched. */
	out = git_out("git rev-parse %s", "linux-4.1.y");
	ck_assert(!strncmp(out, id("S5"), 40));
	free(out);
	sm_rewrite_result_release(&res);
	git_repository_free(r);
}
END_TEST

START_TEST(yank_conflict_leaves_branch)
{
	git_repository *r = branch_copy("yc41", "linux-4.1.y");
	struct sm_rewrite_result res;
	char *out;

	/* S2B changes the line S2 introduced: without S2 it cannot apply. */
	ck_assert_int_eq(sm_yank(r, "yc41", id("S2"), &res), SM_PICK_CONFLICT);
	ck_assert_str_eq(res.conflict_commit, id("S2B"));
	ck_assert_int_eq(res.conflict_paths.nr, 1);
	ck_assert_str_eq(res.conflict_paths.items[0], "net/tls/tls_sw.c");
	ck_assert(strstr(sm_last_error(), "conflict replaying"));
	ck_assert(strstr(sm_last_error(), "branch left unchanged"));
	out = git_out("git rev-parse %s", "yc41");
	ck_assert(!strncmp(out, id("S5"), 40));
	free(out);
	sm_rewrite_result_release(&res);

	/* A merge above the commit, the checked-out branch, a stranger. */
	ck_assert_int_eq(sm_yank(r, "master", id("W1"), &res), -1);
	ck_assert(strstr(sm_last_error(), "is checked out"));
	sm_rewrite_result_release(&res);
	out = git_out("git branch -f %s", "ym master");
	free(out);
	ck_assert_int_eq(sm_yank(r, "ym", id("W8"), &res), -1);
	ck_assert_msg(strstr(sm_last_error(), "merge commit"), "%s", sm_last_error());
	sm_rewrite_result_release(&res);
	ck_assert_int_eq(sm_yank(r, "yc41", id("W8"), &res), -1);
	ck_assert(strstr(sm_last_error(), "is not on the branch"));
	sm_rewrite_result_release(&res);
	ck_assert_int_eq(sm_yank(r, "no-such-branch", id("W8"), &res), -1);
	ck_assert(strstr(sm_last_error(), "no-such-branch: no such local branch"));
	sm_rewrite_result_release(&res);
	git_repository_free(r);
}
END_TEST

START_TEST(insert_in_the_middle)
{
	git_repository *r = branch_copy("i41", "linux-4.1.y");
	struct sm_insert_opts o = { NULL, "Stable Maintainer <stable@example.org>", 1 };
	struct sm_rewrite_result res;
	char *out;

	o.after = id("S1");
	ck_assert_msg(sm_insert(r, "i41", id("W1"), &o, &res) == SM_PICK_CLEAN, "%s",
		      sm_last_error());
	ck_assert_int_eq(res.replayed, 5);
	out = git_out("git log --format=%%s %s", "v4.1..i41");
	ck_assert_str_eq(out, "Linux 4.1.1\n"
			      "KVM: arm64: vgic-its: Avoid potential UAF in LPI translation cache\n"
			      "erofs: fix inconsistent per-file compression format\n"
			      "tls: use irqsave for the 4.1 tx lock\n"
			      "tls: take the tx lock in the 4.1 backport\n"
			      "ALSA: timer: Fix leak in events via snd_timer_user_tinterrupt\n"
			      "i2c: i801: Add support for block process call\n");
	free(out);
	out = git_out("git log -1 --format=%%B %s", "i41~5");
	ck_assert(strstr(out, id("W1")));
	ck_assert(strstr(out, "Signed-off-by: Stable Maintainer <stable@example.org>"));
	free(out);
	sm_rewrite_result_release(&res);

	/* W8 conflicts with the stable-only S2: the branch stays. */
	out = git_out("git rev-parse %s", "i41");
	o.after = "i41~4";	/* S1's rewrite is i41~5; this is the rewritten S2 */
	ck_assert_int_eq(sm_insert(r, "i41", id("W8"), &o, &res), SM_PICK_CONFLICT);
	ck_assert(strstr(sm_last_error(), "does not apply"));
	{
		char *now = git_out("git rev-parse %s", "i41");

		ck_assert_str_eq(now, out);
		free(now);
	}
	free(out);
	sm_rewrite_result_release(&res);
	git_repository_free(r);
}
END_TEST

/* A backport taken from another stable tree names its upstream original
 * already: it keeps that line and gets no "commit <its own id> upstream."
 * (that id is a stable commit), so the tree's index maps it to mainline. */
START_TEST(insert_a_backport_from_another_tree)
{
	git_repository *r = branch_copy("i44", "linux-4.4.y");
	struct sm_insert_opts o = { "i44~1", "Stable Maintainer <stable@example.org>", 1 };
	struct sm_rewrite_result res;
	struct sm_upstream_index idx;
	/* linux-4.1.y's copy of W7 ("This is upstream commit W7.") */
	char *backport = git_out("git log -1 --format=%%H linux-4.1.y --grep=%s", id("W7")), *out;

	backport[strcspn(backport, "\n")] = '\0';
	ck_assert_uint_eq(strlen(backport), 40);
	ck_assert_msg(sm_insert(r, "i44", backport, &o, &res) == SM_PICK_CLEAN, "%s",
		      sm_last_error());
	out = git_out("git log -1 --format=%%B %s", "i44~1");
	ck_assert_msg(strstr(out, id("W7")), "%s", out);
	ck_assert_msg(!strstr(out, backport), "%s", out);
	ck_assert(strstr(out, "Signed-off-by: Stable Maintainer <stable@example.org>"));
	free(out);
	ck_assert_int_eq(sm_upstream_index_build(&idx, r, "i44", NULL, NULL), 0);
	ck_assert(sm_upstream_index_find(&idx, id("W7"), NULL, NULL, NULL) != NULL);
	sm_upstream_index_release(&idx);
	sm_rewrite_result_release(&res);
	free(backport);
	git_repository_free(r);
}
END_TEST

/* ---- missing, backports, deps ---- */

START_TEST(missing_both_ways)
{
	git_repository *r = open_repo();
	struct sm_missing_result m;
	int found_w7 = 0, found_w3 = 0;

	ck_assert_msg(sm_missing(r, "linux-4.1.y", "linux-4.4.y", "", &m) == 0, "%s", sm_last_error());
	ck_assert_str_eq(m.base, id("BASE41"));
	for (size_t i = 0; i < m.a.nr; i++) {
		ck_assert_str_ne(m.a.only[i].upstream, id("W6"));	/* both have it */
		ck_assert_str_ne(m.a.only[i].upstream, id("C1"));	/* 4.4 by history */
		if (!strcmp(m.a.only[i].upstream, id("W7"))) {
			found_w7 = 1;
			ck_assert_str_eq(m.a.only[i].stable, id("S4"));
		}
	}
	for (size_t i = 0; i < m.b.nr; i++)
		if (!strcmp(m.b.only[i].upstream, id("W3"))) {
			found_w3 = 1;
			ck_assert_str_eq(m.b.only[i].stable, id("T1"));
		}
	ck_assert(found_w7 && found_w3);
	ck_assert_int_eq(m.a.nr, 3);	/* S2, S2B, W7 */
	ck_assert_int_eq(m.b.nr, 4);	/* C2, C3, W3, W1 (4.4's copy has no line) */
	sm_missing_result_release(&m);
	git_repository_free(r);
}
END_TEST

START_TEST(backports_show_differences)
{
	git_repository *r = open_repo();
	struct sm_backports_result b;

	ck_assert_msg(sm_backports(r, id("W6"), trees, 2, NULL, "", &b) == 0, "%s", sm_last_error());
	ck_assert_str_eq(b.trees[0].stable, id("S3"));
	ck_assert_int_eq(b.trees[0].differs, 0);
	ck_assert_str_eq(b.trees[1].stable, id("T2"));
	ck_assert_int_eq(b.trees[1].differs, 1);
	ck_assert_int_eq(b.trees[1].lines_differ, 2);
	sm_backports_result_release(&b);

	ck_assert(sm_backports(r, id("W1"), trees, 2, &trees[0], "", &b) == 0);
	ck_assert_int_eq(b.trees[0].how, SM_MATCH_NONE);
	ck_assert_int_eq(b.trees[1].how, SM_MATCH_PATCH_ID);
	ck_assert_int_eq(b.trees[1].applies, 1);
	ck_assert_int_eq(b.mine_has, 0);
	ck_assert_int_eq(b.upstream_applies, 1);
	sm_backports_result_release(&b);

	ck_assert(sm_backports(r, id("W8"), trees, 2, &trees[0], "", &b) == 0);
	ck_assert_int_eq(b.upstream_applies, 0);
	sm_backports_result_release(&b);
	git_repository_free(r);
}
END_TEST

START_TEST(deps_by_blame)
{
	git_repository *r = open_repo();
	struct sm_deps_result d;

	ck_assert_msg(sm_deps(r, id("W4"), &trees[1], "", &d) == 0, "%s", sm_last_error());
	ck_assert_int_eq(d.nr, 1);
	ck_assert_str_eq(d.deps[0].id, id("W4A"));
	ck_assert_int_eq(d.missing_files.nr, 0);
	sm_deps_result_release(&d);

	/* The stable tag's prerequisite is found by blame too. */
	ck_assert(sm_deps(r, id("W5"), &trees[1], "", &d) == 0);
	ck_assert_int_eq(d.nr, 1);
	ck_assert_str_eq(d.deps[0].id, id("W5P"));
	sm_deps_result_release(&d);

	/* 4.1 lacks the whole ext4 fast-commit file: a missing feature. */
	ck_assert(sm_deps(r, id("E1"), &trees[0], "", &d) == 0);
	ck_assert_int_eq(d.nr, 1);
	ck_assert_str_eq(d.deps[0].id, id("C3"));
	ck_assert_int_eq(d.deps[0].new_file, 1);
	ck_assert_int_eq(d.missing_files.nr, 1);
	ck_assert_str_eq(d.missing_files.items[0], "fs/ext4/fc_replay.c");
	sm_deps_result_release(&d);

	/* The fix-for-fix's target is already in 4.1: nothing needed. */
	ck_assert(sm_deps(r, id("W2"), &trees[0], "", &d) == 0);
	ck_assert_int_eq(d.nr, 0);
	ck_assert_int_eq(d.already_in_tree, 1);
	sm_deps_result_release(&d);
	git_repository_free(r);
}
END_TEST

/* What a tree has: what it took since its release (the index), its
 * release's own history, its tip; not what mainline added after it. With
 * no release tag on the branch, its whole history. */
START_TEST(tree_state_has_by_index_and_history)
{
	static const struct { const char *name; int has; } cases[] = {
		{ "C1", 1 },		/* mainline before v4.4: the release's own */
		{ "BASE41", 1 },	/* older still */
		{ "BASE44", 1 },	/* the release */
		{ "W3", 1 },		/* taken as T1 ("commit <id> upstream.") */
		{ "T4", 1 },		/* the tip */
		{ "W2", 0 },		/* mainline after v4.4, not taken */
		{ "BASE45", 0 },	/* a later release */
	};
	/* 9.9: no such tag, so no branch point: the whole history is indexed */
	struct sm_tree_spec no_base = { "linux-4.4.y", NULL, "linux-4.4.y", { 9, 9, -1 } };
	const struct sm_tree_spec *specs[] = { &trees[1], &no_base };
	git_repository *r = open_repo();

	for (size_t k = 0; k < ARRAY_SIZE(specs); k++) {
		struct sm_tree_state t;

		ck_assert_msg(sm_tree_state_open(&t, specs[k], r, NULL, "") == 0, "%s", sm_last_error());
		ck_assert_int_eq(t.has_base, k == 0);
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
			git_oid oid;

			ck_assert_int_eq(git_oid_fromstr(&oid, id(cases[i].name)), 0);
			ck_assert_msg(sm_tree_state_has(&t, r, &oid, id(cases[i].name), NULL) == cases[i].has,
				      "%s: has %s should be %d", specs[k]->name, cases[i].name, cases[i].has);
		}
		sm_tree_state_close(&t);
	}
	git_repository_free(r);
}
END_TEST

/* CVE records are read with lib/json_read's string decoder: escapes in
 * the members kept (\u0043 is 'C', \/ is '/') and in those skipped (a
 * surrogate pair, an escaped quote); a bad escape names the file. */
START_TEST(cve_records_decode_escapes)
{
	static const char *fix = "0123456789abcdef0123456789abcdef01234567";
	struct sm_cve_db db;
	const struct sm_cve *c;
	char *dir = xasprintf("%s/cves-escapes/cve/published/2024", tmp), *path, *text;

	path = xasprintf("%s/CVE-2024-0001.json", dir);
	text = xasprintf("{\"cveMetadata\": {\"cveID\": \"\\u0043VE-2024-0001\"},\n"
			 " \"containers\": {\"cna\": {\"title\": \"a \\\"b\\\" \\ud83d\\ude00 c\\/d\",\n"
			 "  \"affected\": [{\"versions\": [{\"version\": \"1da177e4c3f4\", "
			 "\"lessThan\": \"%s\", \"status\": \"affected\", \"versionType\": \"git\"}]}]}}}\n",
			 fix);
	ck_assert(write_file_atomic_mkdir(path, text, strlen(text)) == 0);
	ck_assert_msg(sm_cve_load(&db, dir) == 0, "%s", sm_last_error());
	c = sm_cve_find(&db, fix);
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->id, "CVE-2024-0001");
	sm_cve_release(&db);
	free(text);
	text = xstrdup("{\"cveMetadata\": {\"cveID\": \"CVE-2024-0002\\u12\"}}\n");
	free(path);
	path = xasprintf("%s/CVE-2024-0002.json", dir);
	ck_assert(write_file_atomic(path, text, strlen(text)) == 0);
	ck_assert_int_eq(sm_cve_load(&db, dir), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "CVE-2024-0002.json"));
	sm_cve_release(&db);
	free(text);
	free(path);
	free(dir);
}
END_TEST

/* the names harvest and scan take for a stable branch checked out */
START_TEST(stable_branch_names)
{
	static const char *const stable[] = { "linux-6.1.y", "origin/linux-4.19.y",
					      "stable/linux-5.10.y" };
	static const char *const other[] = { "master", "linux-6.1", "linux-6.1.x", "linux-6.1.y-rc",
					     "linux-6.1.90", "6.1.y", "for-linus", "linux-next",
					     "my-linux-6.1.y", "linux-" };

	for (size_t i = 0; i < ARRAY_SIZE(stable); i++)
		ck_assert_msg(sm_is_stable_branch_name(stable[i]), "%s", stable[i]);
	for (size_t i = 0; i < ARRAY_SIZE(other); i++)
		ck_assert_msg(!sm_is_stable_branch_name(other[i]), "%s", other[i]);
}
END_TEST

/* The reverse of a patch swaps each pair of sides, and reversing it again
 * gives the patch back: a changed file whose hunk removes a line reading
 * "-- y" (written "--- y", no file header there), a new file, a deleted
 * one, a mode change and a rename. */
START_TEST(patch_reverse_swaps_sides)
{
	static const char patch[] =
		"diff --git a/f.c b/f.c\n"
		"index 1111111..2222222 100644\n"
		"--- a/f.c\n"
		"+++ b/f.c\n"
		"@@ -1,3 +1,4 @@ int f(void)\n"
		" a\n"
		"--- y\n"
		"+b\n"
		"+c\n"
		" d\n"
		"\\ No newline at end of file\n"
		"diff --git a/new.c b/new.c\n"
		"new file mode 100644\n"
		"index 0000000..3333333\n"
		"--- /dev/null\n"
		"+++ b/new.c\n"
		"@@ -0,0 +1 @@\n"
		"+n\n"
		"diff --git a/gone.c b/gone.c\n"
		"deleted file mode 100644\n"
		"index 4444444..0000000\n"
		"--- a/gone.c\n"
		"+++ /dev/null\n"
		"@@ -1 +0,0 @@\n"
		"-g\n"
		"diff --git a/run.sh b/run.sh\n"
		"old mode 100644\n"
		"new mode 100755\n"
		"diff --git a/old.c b/moved.c\n"
		"similarity index 100%\n"
		"rename from old.c\n"
		"rename to moved.c\n";
	struct strbuf once = STRBUF_INIT, twice = STRBUF_INIT;

	sm_patch_reverse(patch, strlen(patch), &once);
	ck_assert_ptr_nonnull(strstr(once.buf, "--- a/f.c\n+++ b/f.c\n@@ -1,4 +1,3 @@ int f(void)\n"
					       " a\n+-- y\n-b\n-c\n d\n"));
	ck_assert_ptr_nonnull(strstr(once.buf, "deleted file mode 100644\nindex 3333333..0000000\n"
					       "--- a/new.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-n\n"));
	ck_assert_ptr_nonnull(strstr(once.buf, "new file mode 100644\nindex 0000000..4444444\n"
					       "--- /dev/null\n+++ b/gone.c\n@@ -0,0 +1 @@\n+g\n"));
	ck_assert_ptr_nonnull(strstr(once.buf, "new mode 100644\nold mode 100755\n"));
	ck_assert_ptr_nonnull(strstr(once.buf, "diff --git a/moved.c b/old.c\nsimilarity index 100%\n"
					       "rename to old.c\nrename from moved.c\n"));
	sm_patch_reverse(once.buf, once.len, &twice);
	ck_assert_str_eq(twice.buf, patch);
	strbuf_release(&once);
	strbuf_release(&twice);
}
END_TEST

/* The hunks of a patch moved to where linux-4.1.y's timer.c has their
 * lines, as git apply finds them: timer_10..12 are at lines 10..12 and
 * timer_20..22 at 20..22, the patch says 15 and 30 (the second hunk's new
 * side follows the first's); a hunk whose lines the file lacks, and one of
 * a file the tree lacks, stay. */
START_TEST(patch_hunks_moved_to_their_lines)
{
	static const char *const patch =
		"diff --git a/sound/core/timer.c b/sound/core/timer.c\n"
		"--- a/sound/core/timer.c\n"
		"+++ b/sound/core/timer.c\n"
		/* a header longer than 128 bytes: its function name */
		"@@ -15,3 +15,4 @@ static int a_function_whose_name_is_long_enough_that_the_hunk_header_passes_one_hundred_and_twenty_eight_bytes_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(void)\n"
		" \tint timer_10 = 10; /* sound/core/timer.c */\n"
		"-\tint timer_11 = 11; /* sound/core/timer.c */\n"
		"+\tint timer_11 = 110;\n"
		"+\tint timer_11b = 111;\n"
		" \tint timer_12 = 12; /* sound/core/timer.c */\n"
		"@@ -30,3 +31,3 @@\n"
		" \tint timer_20 = 20; /* sound/core/timer.c */\n"
		"-\tint timer_21 = 21; /* sound/core/timer.c */\n"
		"+\tint timer_21 = 210;\n"
		" \tint timer_22 = 22; /* sound/core/timer.c */\n"
		"@@ -33,1 +34,1 @@\n"
		"-\tint timer_99 = 99;\n"
		"+\tint timer_99 = 990;\n"
		"diff --git a/nowhere.c b/nowhere.c\n"
		"--- a/nowhere.c\n"
		"+++ b/nowhere.c\n"
		"@@ -3 +3 @@\n"
		"-a\n"
		"+b\n";
	git_repository *r = open_repo();
	git_object *tree = NULL;
	struct strbuf out = STRBUF_INIT;

	ck_assert(git_revparse_single(&tree, r, "linux-4.1.y^{tree}") == 0);
	ck_assert_uint_eq(sm_patch_at_offsets(r, (git_tree *)tree, patch, strlen(patch), &out), 2);
	ck_assert_ptr_nonnull(strstr(out.buf, "+++ b/sound/core/timer.c\n@@ -10,3 +10,4 @@ static int "
					      "a_function_whose_name_is_long_enough"));
	ck_assert_ptr_nonnull(strstr(out.buf, "xxxx(void)\n \tint timer_10"));
	ck_assert_ptr_nonnull(strstr(out.buf, "@@ -20,3 +21,3 @@\n \tint timer_20"));
	ck_assert_ptr_nonnull(strstr(out.buf, "@@ -33,1 +34,1 @@\n-\tint timer_99"));
	ck_assert_ptr_nonnull(strstr(out.buf, "+++ b/nowhere.c\n@@ -3 +3 @@\n-a\n+b\n"));
	ck_assert_uint_eq(out.len, strlen(patch));	/* each number as long as before */
	strbuf_release(&out);
	git_object_free(tree);
	git_repository_free(r);
}
END_TEST

/* ---- merges of a change's files alone (trees/part_tree.h) ---- */

/* A repository with a base commit, a change on it ("theirs": an edit, a
 * rename with an edit, a directory deleted, one added, a mode change, a
 * file made a directory, a submodule moved to another commit) and a tree
 * that moved on ("onto", "clash"). */
static char *parts_repo(void)
{
	char *dir = make_temp_dir("sm-parts"), *out;
	int st;

	out = run(&st,
		  "set -e; cd '%s'; git init -q .; git config user.name t; git config user.email t@t;"
		  "mkdir dir doc keep gone;"
		  "seq 1 60 | sed 's/^/a line /' > dir/a.c; seq 1 40 | sed 's/^/b line /' > dir/b.c;"
		  "echo doc > doc/x.txt; echo k > keep/k.c; echo 1 > gone/g1.c; echo 2 > gone/g2.c;"
		  "echo plain > df; git add -A;"
		  "git update-index --add --cacheinfo 160000,1111111111111111111111111111111111111111,sub;"
		  "mkdir sub; git commit -qm base; git branch base;"
		  "git checkout -qb theirs; sed -i 's/^a line 2$/a line 2 fixed/' dir/a.c;"
		  "git mv dir/b.c dir/b2.c; sed -i 's/^b line 5$/b line 5 fixed/' dir/b2.c;"
		  "git rm -q -r gone; mkdir new; echo n > new/n.c; chmod +x doc/x.txt;"
		  "git rm -q df; mkdir df; echo inner > df/inner.c; git add -A;"
		  "git update-index --cacheinfo 160000,2222222222222222222222222222222222222222,sub;"
		  "git commit -qm theirs;"
		  "git checkout -q -b onto base; sed -i 's/^a line 40$/a line 40 tree/' dir/a.c;"
		  "sed -i 's/^b line 30$/b line 30 tree/' dir/b.c; echo k2 >> keep/k.c;"
		  "mkdir other; echo o > other/o.c; git add -A; git commit -qm onto;"
		  "git checkout -q -b clash base; sed -i 's/^a line 2$/a line 2 otherwise/' dir/a.c;"
		  "git commit -qam clash 2>&1",
		  dir);
	ck_assert_msg(st == 0, "making the repository failed: %s", out);
	free(out);
	return dir;
}

static git_tree *tree_of_rev(git_repository *r, const char *rev)
{
	git_object *o = NULL;
	char spec[64];

	snprintf(spec, sizeof(spec), "%s^{tree}", rev);
	ck_assert_msg(git_revparse_single(&o, r, spec) == 0, "%s", spec);
	return (git_tree *)o;
}

START_TEST(merge_of_parts_is_the_merge_of_trees)
{
	char *dir = parts_repo(), *names, *want;
	git_repository *r;
	git_tree *base, *theirs, *onto, *clash;
	git_index *whole = NULL;
	git_merge_options opts;
	git_oid merged, want_id;
	struct strlist paths = STRLIST_INIT, conflicts = STRLIST_INIT;
	struct strbuf got = STRBUF_INIT;
	int st;

	ck_assert_msg(sm_repo_open(&r, dir) == 0, "%s", sm_last_error());
	base = tree_of_rev(r, "base");
	theirs = tree_of_rev(r, "theirs");
	onto = tree_of_rev(r, "onto");
	clash = tree_of_rev(r, "clash");

	/* the paths: git's own list, without rename detection */
	ck_assert(sm_tree_diff_paths(r, base, theirs, &paths) == 0);
	for (size_t i = 0; i < paths.nr; i++)
		strbuf_addf(&got, "%s\n", paths.items[i]);
	names = run(&st, "cd '%s' && git diff --no-renames --name-only base theirs", dir);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(got.buf, names);
	ck_assert_ptr_nonnull(strstr(names, "df/inner.c\n"));
	ck_assert_ptr_nonnull(strstr(names, "gone/g2.c\n"));
	ck_assert_ptr_nonnull(strstr(names, "sub\n"));

	/* the diff of the changed files alone: libgit2's diff of the trees,
	 * and nothing written */
	{
		git_diff *parts = NULL, *whole_diff = NULL;
		git_diff_options dopts;
		struct strbuf s1 = STRBUF_INIT, p1 = STRBUF_INIT, s2 = STRBUF_INIT, p2 = STRBUF_INIT;
		char *before = run(&st, "cd '%s' && git count-objects", dir), *after;

		sm_diff_options_init(&dopts);
		ck_assert(sm_diff_changed_files(&parts, r, base, theirs, &dopts) == 0);
		ck_assert(git_diff_tree_to_tree(&whole_diff, r, base, theirs, &dopts) == 0);
		ck_assert(sm_diff_show(parts, &s1, &p1) == 0 && sm_diff_show(whole_diff, &s2, &p2) == 0);
		ck_assert_str_eq(s1.buf, s2.buf);
		ck_assert_str_eq(p1.buf, p2.buf);
		ck_assert_ptr_nonnull(strstr(p1.buf, "Subproject commit 2222222222222222222222222222222222222222"));
		after = run(&st, "cd '%s' && git count-objects", dir);
		ck_assert_str_eq(before, after);
		free(before);
		free(after);
		git_diff_free(parts);
		git_diff_free(whole_diff);
		strbuf_release(&s1);
		strbuf_release(&p1);
		strbuf_release(&s2);
		strbuf_release(&p2);
	}

	/* clean: the same tree as libgit2's merge of the whole trees, with
	 * the tree's own edits kept and the rename carrying onto's edit */
	st = sm_merge_change(r, base, onto, theirs, &merged, &conflicts, NULL);
	ck_assert_msg(st == SM_PICK_CLEAN, "%d: %s", st, sm_git_error());
	git_merge_options_init(&opts, GIT_MERGE_OPTIONS_VERSION);
	opts.flags |= GIT_MERGE_FIND_RENAMES;
	ck_assert(git_merge_trees(&whole, r, base, onto, theirs, &opts) == 0);
	ck_assert(!git_index_has_conflicts(whole));
	ck_assert(git_index_write_tree_to(&want_id, whole, r) == 0);
	ck_assert_msg(git_oid_equal(&merged, &want_id), "the merge of the parts differs");
	want = run(&st, "cd '%s' && git show %s:dir/b2.c | grep -c 'line 30 tree\\|line 5 fixed'", dir,
		   git_oid_tostr_s(&merged));
	ck_assert_str_eq(want, "2\n");
	free(want);
	git_index_free(whole);

	/* a conflict: named as the whole merge names it */
	ck_assert_int_eq(sm_merge_change(r, base, clash, theirs, &merged, &conflicts, NULL),
			 SM_PICK_CONFLICT);
	ck_assert_uint_eq(conflicts.nr, 1);
	ck_assert_str_eq(conflicts.items[0], "dir/a.c");

	strlist_clear(&conflicts);
	strlist_clear(&paths);
	strbuf_release(&got);
	free(names);
	git_tree_free(base);
	git_tree_free(theirs);
	git_tree_free(onto);
	git_tree_free(clash);
	git_repository_free(r);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* sm_tree_files_most_like: of the tree's files mainline lacks at their
 * path, the one of the same kind most like a mainline file; none when
 * two are as alike (a copy), when it is taken, or under the minimum. */
START_TEST(tree_files_most_like_a_moved_file)
{
	char *dir = make_temp_dir("sm-gone"), *out;
	git_repository *r;
	struct sm_tree_files f;
	struct strlist taken = STRLIST_INIT;
	git_oid tip, mainline, blob;
	git_tree *mt, *later;
	git_hashsig *sig, *copy_sig;
	int st, score;
	const char *got;

	/* old: the tree, with x.c under lib/ and two copies of y.c; master:
	 * mainline, which moved x.c to core/x2.c (and changed it), y.c to
	 * core/y.c, and has z.h, like x.c but another kind; later: old
	 * without lib/y2.c and lib/x.c */
	out = run(&st,
		  "set -e; cd '%s'; git init -q -b old .; git config user.name t; git config user.email t@t;"
		  "mkdir lib; seq 1 60 | sed 's/^/x line /' > lib/x.c;"
		  "seq 1 50 | sed 's/^/y line /' > lib/y1.c; cp lib/y1.c lib/y2.c; echo s > lib/same.c;"
		  "git add -A; git commit -qm old; git checkout -qb master; mkdir core;"
		  "git mv lib/x.c core/x2.c; sed -i 's/^x line 7$/x line 7 changed/' core/x2.c;"
		  "git mv lib/y1.c core/y.c; git rm -q lib/y2.c; seq 1 60 | sed 's/^/x line /' > core/z.h;"
		  "git add -A; git commit -qm master; git checkout -qb later old;"
		  "git rm -q lib/y2.c lib/x.c; git commit -qm later 2>&1",
		  dir);
	ck_assert_msg(st == 0, "making the repository failed: %s", out);
	free(out);
	ck_assert(sm_repo_open(&r, dir) == 0);
	ck_assert(sm_resolve_commit(r, "old", &tip) == 0);
	ck_assert(sm_resolve_commit(r, "master", &mainline) == 0);
	mt = tree_of_rev(r, "master");
	sm_tree_files_init(&f, r, &tip, r, &mainline);

	ck_assert(sm_tree_blob_at(mt, "core/x2.c", &blob));
	sig = sm_blob_signature(r, &blob);
	ck_assert_ptr_nonnull(sig);
	got = sm_tree_files_most_like(&f, "core/x2.c", sig, sm_blob_size(r, &blob), &taken, NULL,
				      50, &score);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, "lib/x.c");
	ck_assert_int_ge(score, 90);
	ck_assert_int_lt(score, 100);
	/* asked for more alike than it is: none */
	ck_assert_ptr_null(sm_tree_files_most_like(&f, "core/x2.c", sig, 0, &taken, NULL,
						   score + 1, &score));
	/* another kind (core/x2.h): lib/x.c is no header */
	ck_assert_ptr_null(sm_tree_files_most_like(&f, "core/x2.h", sig, 0, &taken, NULL, 50,
						   &score));
	/* taken by another file of the patch */
	strlist_append(&taken, "lib/x.c");
	ck_assert_ptr_null(sm_tree_files_most_like(&f, "core/x2.c", sig, 0, &taken, NULL, 50,
						   &score));
	strlist_clear(&taken);

	/* y.c: lib/y1.c and lib/y2.c are the same file, nothing tells which */
	ck_assert(sm_tree_blob_at(mt, "core/y.c", &blob));
	copy_sig = sm_blob_signature(r, &blob);
	ck_assert_ptr_null(sm_tree_files_most_like(&f, "core/y.c", copy_sig, 0, &taken, NULL, 50,
						   &score));
	/* with one of them taken, the other is it */
	strlist_append(&taken, "lib/y2.c");
	got = sm_tree_files_most_like(&f, "core/y.c", copy_sig, 0, &taken, NULL, 50, &score);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, "lib/y1.c");
	ck_assert_int_eq(score, 100);
	strlist_clear(&taken);
	/* onto a tree that lacks lib/y2.c (a patch of a series before this
	 * one removed it): lib/y1.c ties with none */
	later = tree_of_rev(r, "later");
	got = sm_tree_files_most_like(&f, "core/y.c", copy_sig, 0, &taken, later, 50, &score);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, "lib/y1.c");
	ck_assert_int_eq(score, 100);
	/* nor is a file it lacks taken */
	ck_assert_ptr_null(sm_tree_files_most_like(&f, "core/x2.c", sig, 0, &taken, later, 50,
						   &score));
	git_tree_free(later);

	git_hashsig_free(sig);
	git_hashsig_free(copy_sig);
	sm_tree_files_release(&f);
	git_tree_free(mt);
	git_repository_free(r);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* What a note says for a tree: Tree: values and ranges, the latest notice
 * by date even when the note is in another order (edited by hand), a NAK
 * taken back by its sender's later ack, another's ack taking back nothing. */
START_TEST(tree_reviews_by_version_and_date)
{
	const struct sm_version v61 = { 6, 1, -1 }, v66 = { 6, 6, -1 }, v612 = { 6, 12, -1 };
	struct sm_tree_reviews said;
	struct strbuf sb = STRBUF_INIT;
	struct sm_note n;

	ck_assert(sm_review_tree_covers("6.1", &v61));
	ck_assert(!sm_review_tree_covers("6.12", &v61));
	ck_assert(sm_review_tree_covers("6.1-6.6", &v61) && sm_review_tree_covers("6.1-6.6", &v66));
	ck_assert(!sm_review_tree_covers("6.1-6.6", &v612));
	ck_assert(!sm_review_tree_covers("", &v61) && !sm_review_tree_covers("6.1-", &v61) &&
		  !sm_review_tree_covers("6.1 and 6.6", &v61) && !sm_review_tree_covers(NULL, &v61));

	/* blocks stored newest first (a hand edit): the notices are read by date */
	sm_note_parse(&n,
		      "Review: <q@x>\nTree: 6.1\nAuthor: Greg <g@x>\nDate: Fri, 5 Jan 2024 12:00:00 +0100\n"
		      "Notice: queued\n\n"
		      "Review: <f@x>\nTree: 6.1\nAuthor: Greg <g@x>\nDate: Mon, 1 Jan 2024 12:00:00 +0100\n"
		      "Notice: failed to apply\nComment:\n    Possible dependencies:\n\n"
		      "    0123456789ab (\"x: y\")\n\n"
		      "Review: <nak@x>\nTree: 6.1-6.6\nAuthor: Rev <r@x>\nDate: Tue, 2 Jan 2024 10:00:00 +0000\n"
		      "Trailers:\n  Nacked-by: Rev <r@x>\nComment:\n    Not for these trees.\n\n"
		      "Review: <ack-other@x>\nTree: 6.6\nAuthor: Other <o@x>\nDate: Wed, 3 Jan 2024 10:00:00 +0000\n"
		      "Trailers:\n  Acked-by: Other <o@x>\n\n"
		      "Review: <ack@x>\nTree: 6.1\nAuthor: \"Rev, the reviewer\" <R@X>\n"
		      "Date: Thu, 4 Jan 2024 10:00:00 +0000\n"
		      "Trailers:\n  Acked-by: \"Rev, the reviewer\" <R@X>\n");
	ck_assert_uint_eq(n.nr, 5);
	sm_tree_reviews_find(&n, &v61, &said);
	ck_assert_ptr_null(said.nak);	/* taken back by Rev's own ack for 6.1 (their
					 * address, their name written another way) */
	ck_assert_ptr_nonnull(said.notice);
	ck_assert_str_eq(said.notice->message_id, "q@x");	/* the later one */
	sm_tree_reviews_find(&n, &v66, &said);
	ck_assert_ptr_nonnull(said.nak);	/* Other's ack takes back nothing */
	ck_assert_str_eq(said.nak->message_id, "nak@x");
	ck_assert_ptr_null(said.notice);
	sm_tree_reviews_nak_text(said.nak, &sb);
	ck_assert_str_eq(sb.buf, "Nacked-by: Rev <r@x> (Tue, 2 Jan 2024 10:00:00 +0000): Not for these trees.");
	sm_tree_reviews_find(&n, &v612, &said);
	ck_assert(!said.nak && !said.notice);
	sm_note_release(&n);

	/* the FAILED notice alone, with its dependency */
	sm_note_parse(&n, "Review: <f@x>\nTree: 6.1\nAuthor: Greg <g@x>\nDate: Mon, 1 Jan 2024 12:00:00 +0100\n"
			  "Notice: failed to apply\nComment:\n    Possible dependencies:\n\n"
			  "    0123456789ab (\"x: y\")\n");
	sm_tree_reviews_find(&n, &v61, &said);
	ck_assert_ptr_nonnull(said.notice);
	strbuf_reset(&sb);
	sm_review_notice_line(said.notice, 0, &sb);
	ck_assert_str_eq(sb.buf, "failed to apply to 6.1 (Greg <g@x>, Mon, 1 Jan 2024 12:00:00 +0100); "
				 "possible dependencies: 0123456789ab");
	sm_note_release(&n);
	strbuf_release(&sb);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("trees");
	TCase *tc = add_tcase(s, "trees", SM_TESTS(patch_id_matches_git_on_commits,
						   patch_id_matches_git_on_real_mails,
						   patch_id_rejects_text_without_diff,
						   index_maps_every_upstream_form,
						   index_cache_is_incremental_and_never_trusted,
						   index_unknown_branch_is_an_error,
						   first_release_from_tag_graph,
						   release_map_cache, ancestry_cache,
						   scan_classifies_for_each_tree,
						   scan_range_forms, scan_failure_paths,
						   scan_diff_cache_same_facts,
						   diff_cache_keeps_any_path,
						   steal_picks_candidates_in_order,
						   yank_replays_and_keeps_backup,
						   yank_conflict_leaves_branch,
						   insert_in_the_middle, insert_a_backport_from_another_tree,
						   missing_both_ways,
						   backports_show_differences, deps_by_blame,
						   tree_state_has_by_index_and_history,
						   cve_records_decode_escapes, stable_branch_names,
						   patch_reverse_swaps_sides,
						   patch_hunks_moved_to_their_lines,
						   merge_of_parts_is_the_merge_of_trees,
						   tree_files_most_like_a_moved_file,
						   tree_reviews_by_version_and_date));

	tcase_add_unchecked_fixture(tc, setup_repo, teardown_repo);
	tcase_set_timeout(tc, 120);
	return s;
}
