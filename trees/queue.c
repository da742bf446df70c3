/* queue: a stable-queue checkout's queued patches, by tree. */
#include "trees/queue.h"
#include "rules/commit.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "lib/fileio.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int load_tree(struct sm_stable_queue *q, const char *name, const struct sm_version *v)
{
	struct strbuf series = STRBUF_INIT, patch = STRBUF_INIT;
	char *path = xasprintf("%s/%s/series", q->dir, name);
	struct sm_stable_queue_tree *t;
	int ret = -1;

	if (!file_exists(path)) {	/* an empty queue has no series yet */
		free(path);
		return 0;
	}
	if (read_file(path, &series) < 0)
		goto out;
	ALLOC_GROW(q->trees, q->nr, q->alloc);
	t = &q->trees[q->nr++];
	memset(t, 0, sizeof(*t));
	t->version = *v;
	for (char *line = series.buf, *nl; line && *line; line = nl) {
		char *file, *up;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		while (isspace((unsigned char)*line))
			line++;
		for (char *e = line + strlen(line); e > line && isspace((unsigned char)e[-1]);)
			*--e = '\0';
		if (!*line || *line == '#')
			continue;
		file = xasprintf("%s/%s/%s", q->dir, name, line);
		strbuf_reset(&patch);
		if (read_file(file, &patch) < 0) {
			free(file);
			sm_error("%s/series names %s, which cannot be read", name, line);
			goto out;
		}
		free(file);
		up = sm_find_upstream_ref(patch.buf, patch.len);
		if (!up)
			continue;
		ALLOC_GROW(t->patches, t->nr, t->alloc);
		str_to_lower(up);
		snprintf(t->patches[t->nr].upstream, 41, "%.40s", up);
		t->patches[t->nr].patch = xasprintf("%s/%s", name, line);
		t->nr++;
		free(up);
	}
	ret = 0;
out:
	free(path);
	strbuf_release(&series);
	strbuf_release(&patch);
	return ret;
}

int sm_stable_queue_load(struct sm_stable_queue *q, const char *dir)
{
	DIR *d;
	struct dirent *de;
	int ret = 0;

	memset(q, 0, sizeof(*q));
	q->dir = xstrdup(dir);
	d = opendir(dir);
	if (!d)
		return sm_error("%s: cannot read the queue directory (%s)", dir, strerror(errno));
	while (!ret && (de = readdir(d))) {
		struct sm_version v;
		const char *rest, *end;

		if (!skip_prefix(de->d_name, "queue-", &rest) ||
		    sm_version_parse(rest, &end, &v) < 0 || *end)
			continue;
		ret = load_tree(q, de->d_name, &v);
	}
	closedir(d);
	if (ret < 0) {
		char *why = xstrdup(sm_last_error());

		sm_error("%s: %s", dir, why);
		free(why);
	}
	return ret;
}

void sm_stable_queue_release(struct sm_stable_queue *q)
{
	for (size_t i = 0; i < q->nr; i++) {
		for (size_t k = 0; k < q->trees[i].nr; k++)
			free(q->trees[i].patches[k].patch);
		free(q->trees[i].patches);
	}
	free(q->trees);
	free(q->dir);
	memset(q, 0, sizeof(*q));
}

const struct sm_queued *sm_stable_queue_find(const struct sm_stable_queue *q, const struct sm_version *v,
				      const char *id)
{
	for (size_t i = 0; i < q->nr; i++) {
		const struct sm_stable_queue_tree *t = &q->trees[i];

		if (sm_version_cmp_tree(&t->version, v))
			continue;
		for (size_t k = 0; k < t->nr; k++)
			if (strlen(t->patches[k].upstream) >= 7 && starts_with(id, t->patches[k].upstream))
				return &t->patches[k];
	}
	return NULL;
}
