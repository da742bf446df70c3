/* series: reading series files and `git am` with a useful failure report. */
#include "qemu/series.h"
#include "qemu/run.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_lines(const char *path, struct strlist *out, const char *base,
		      int check_exists)
{
	struct strbuf sb = STRBUF_INIT;
	int lineno = 0, ret = 0;
	char *p, *save = NULL;

	if (read_file(path, &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	for (p = strtok_r(sb.buf, "\n", &save); p;
	     p = strtok_r(NULL, "\n", &save)) {
		struct strbuf item = STRBUF_INIT;

		lineno++;
		strbuf_addstr(&item, p);
		if (strchr(item.buf, '#'))
			strbuf_setlen(&item, strchr(item.buf, '#') - item.buf);
		strbuf_trim(&item);
		if (!item.len) {
			strbuf_release(&item);
			continue;
		}
		if (base && item.buf[0] != '/') {
			char *full = xasprintf("%s/%s", base, item.buf);

			strbuf_release(&item);
			if (check_exists && !file_exists(full)) {
				ret = sm_error("%s:%d: %s: no such patch", path, lineno, full);
				free(full);
				break;
			}
			strlist_append_nodup(out, full);
			continue;
		}
		strlist_append_nodup(out, strbuf_detach(&item, NULL));
	}
	strbuf_release(&sb);
	return ret;
}

int series_read_list(const char *path, struct strlist *out)
{
	if (!file_exists(path))
		return 0;
	return read_lines(path, out, NULL, 0);
}

int series_read(const char *dir, struct strlist *patches)
{
	char *series = xasprintf("%s/series", dir);
	struct strlist names = STRLIST_INIT;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (file_exists(series)) {
		ret = read_lines(series, patches, dir, 1);
		free(series);
		return ret;
	}
	free(series);
	d = opendir(dir);
	if (!d)
		return sm_error("%s: not a series directory", dir);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 6 && !strcmp(de->d_name + n - 6, ".patch"))
			strlist_append(&names, de->d_name);
	}
	closedir(d);
	if (names.nr)
		qsort(names.items, names.nr, sizeof(*names.items), cmp_str);
	for (size_t i = 0; i < names.nr; i++)
		strlist_append_nodup(patches, xasprintf("%s/%s", dir, names.items[i]));
	if (!names.nr)
		ret = sm_error("%s: no series file and no *.patch files", dir);
	strlist_clear(&names);
	return ret;
}

void apply_failure_release(struct apply_failure *f)
{
	FREE_ALL(f->patch, f->file, f->hunk, f->message);
	memset(f, 0, sizeof(*f));
}

void apply_failure_parse(struct apply_failure *f, const char *out)
{
	const char *p = out;
	struct strbuf hunk = STRBUF_INIT;
	int in_hunk = 0;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		const char *rest;
		char *line = xstrndup(p, n);

		if (skip_prefix(line, "error: while searching for:", &rest)) {
			in_hunk = 1;
		} else if (skip_prefix(line, "error: patch failed: ", &rest)) {
			const char *colon = strrchr(rest, ':');

			in_hunk = 0;
			if (!f->file) {
				f->file = colon ? xstrndup(rest, colon - rest) : xstrdup(rest);
				f->line = colon ? atoi(colon + 1) : 0;
			}
			if (!f->message)
				f->message = xstrdup(line);
		} else if (starts_with(line, "error: ")) {
			in_hunk = 0;
			if (!f->message)
				f->message = xstrdup(line);
		} else if (in_hunk && !f->hunk) {
			strbuf_addstr(&hunk, line);
			strbuf_addch(&hunk, '\n');
		} else if (starts_with(line, "Checking patch ") || starts_with(line, "Applied patch")) {
			in_hunk = 0;
		}
		free(line);
		p = eol ? eol + 1 : NULL;
		while (!in_hunk && hunk.len > 1 && hunk.buf[hunk.len - 1] == '\n' &&
		       hunk.buf[hunk.len - 2] == '\n')
			strbuf_setlen(&hunk, hunk.len - 1);
		if (!in_hunk && hunk.len && !f->hunk)
			f->hunk = strbuf_detach(&hunk, NULL);
	}
	if (hunk.len && !f->hunk)
		f->hunk = strbuf_detach(&hunk, NULL);
	strbuf_release(&hunk);
}

static int git(const char *tree, const char *const *args, struct strbuf *out,
	       struct run_result *res)
{
	const char *argv[16] = { "git", "-C", tree, "-c", "user.name=stablemate",
				 "-c", "user.email=stablemate@localhost",
				 "-c", "core.hooksPath=/dev/null" };
	struct run_opts o = { .capture = out };
	size_t n = 9;

	for (size_t i = 0; args[i] && n < ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return run_command(argv, &o, res);
}

int series_apply(const char *tree, const struct strlist *patches,
		 struct apply_failure *fail)
{
	memset(fail, 0, sizeof(*fail));
	for (size_t i = 0; i < patches->nr; i++) {
		const char *am[] = { "am", "--quiet", "--whitespace=nowarn",
				     patches->items[i], NULL };
		const char *abort_am[] = { "am", "--abort", NULL };
		const char *check[] = { "apply", "--check", "-v", patches->items[i], NULL };
		struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
		struct run_result res;

		if (git(tree, am, &out, &res) < 0) {
			strbuf_release(&out);
			return -1;
		}
		if (res.exit_code == 0) {
			strbuf_release(&out);
			continue;
		}
		/* `git am` says which file; `git apply -v` also shows the
		 * lines it looked for. */
		git(tree, abort_am, NULL, &res);
		git(tree, check, &why, &res);
		fail->patch = xstrdup(patches->items[i]);
		apply_failure_parse(fail, why.buf);
		if (!fail->message)
			apply_failure_parse(fail, out.buf);
		if (!fail->message) {
			strbuf_trim(&out);
			fail->message = xstrdup(out.len ? out.buf : "git am failed");
		}
		strbuf_release(&out);
		strbuf_release(&why);
		return 1;
	}
	return 0;
}
