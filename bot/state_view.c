/* state_view: read-only (candidate, tree) -> mail state, see state_view.h. */
#include "bot/state_view.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static void add_entry(struct sm_state_view *v, const char *sub, size_t sublen,
		      const char *up, size_t uplen, const char *tree, size_t treelen,
		      enum sm_mail_state state)
{
	struct sm_state_entry *e;

	ALLOC_GROW(v->entries, v->nr, v->alloc);
	e = &v->entries[v->nr++];
	e->sub = xstrndup(sub, sublen);
	e->up = xstrndup(up, uplen);
	e->tree = xstrndup(tree, treelen);
	e->state = state;
}

/* Adds the first three space-separated fields of line (SUB UP TREE ...). */
static void add_fields(struct sm_state_view *v, const char *line, size_t len,
		       enum sm_mail_state state)
{
	const char *f[3];
	size_t flen[3], n = 0, i = 0;

	while (n < 3 && i < len) {
		while (i < len && line[i] == ' ')
			i++;
		if (i >= len)
			break;
		f[n] = line + i;
		while (i < len && line[i] != ' ')
			i++;
		flen[n] = (size_t)(line + i - f[n]);
		n++;
	}
	if (n == 3)
		add_entry(v, f[0], flen[0], f[1], flen[1], f[2], flen[2], state);
}

static void each_line(struct sm_state_view *v, const struct strbuf *sb, const char *prefix,
		      enum sm_mail_state state, int header_only)
{
	const char *p = sb->buf, *end = sb->buf + sb->len;
	size_t plen = strlen(prefix);

	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (header_only && len == 0)
			break;	/* the envelope block ends at the first empty line */
		if (len >= plen && !memcmp(p, prefix, plen))
			add_fields(v, p + plen, len - plen, state);
		p = nl ? nl + 1 : end;
	}
}

static int load_dir(struct sm_state_view *v, const char *dir, const char *sub,
		    enum sm_mail_state state)
{
	char *path = xasprintf("%s/%s", dir, sub);
	DIR *d = opendir(path);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		int e = errno;

		if (e != ENOENT)
			ret = sm_error("%s: %s", path, strerror(e));
		free(path);
		return ret;
	}
	while ((de = readdir(d))) {
		struct strbuf sb = STRBUF_INIT;
		size_t nl = strlen(de->d_name);
		char *file;

		if (nl < 6 || strcmp(de->d_name + nl - 5, ".mail"))
			continue;
		file = xasprintf("%s/%s", path, de->d_name);
		if (read_file(file, &sb)) {
			/* moved on while we looked (sent, folded): not an error */
			if (file_exists(file)) {
				ret = -1;
				free(file);
				strbuf_release(&sb);
				break;
			}
			sm_clear_error();
		} else {
			each_line(v, &sb, "key ", state, 1);
		}
		free(file);
		strbuf_release(&sb);
	}
	closedir(d);
	free(path);
	return ret;
}

/* Which state wins when one subscriber's pair shows up twice. */
static int rank(enum sm_mail_state s)
{
	return s == SM_MAIL_SENT ? 2 : s == SM_MAIL_FAILED ? 1 : 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct sm_state_entry *x = a, *y = b;
	int c = strcmp(x->up, y->up);

	return c ? c : strcmp(x->tree, y->tree);
}

int sm_state_view_load(struct sm_state_view *v, const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *log = xasprintf("%s/sent.log", dir);
	int ret = 0;

	if (file_exists(log)) {
		if (read_file(log, &sb))
			ret = -1;
		else
			each_line(v, &sb, "", SM_MAIL_SENT, 0);
	}
	free(log);
	strbuf_release(&sb);
	if (!ret)
		ret = load_dir(v, dir, "sent", SM_MAIL_SENT);
	if (!ret)
		ret = load_dir(v, dir, "queue", SM_MAIL_QUEUED);
	if (!ret)	/* a mail a crash left mid-send is settled by the next run */
		ret = load_dir(v, dir, "sending", SM_MAIL_QUEUED);
	if (!ret)
		ret = load_dir(v, dir, "failed", SM_MAIL_FAILED);
	if (v->nr)
		qsort(v->entries, v->nr, sizeof(*v->entries), cmp_entry);
	return ret;
}

void sm_state_view_release(struct sm_state_view *v)
{
	for (size_t i = 0; i < v->nr; i++)
		FREE_ALL(v->entries[i].sub, v->entries[i].up, v->entries[i].tree);
	free(v->entries);
	memset(v, 0, sizeof(*v));
}

void sm_state_view_count(const struct sm_state_view *v, const char *up, const char *tree,
			 unsigned counts[SM_MAIL_NR_STATES])
{
	struct sm_state_entry key = { (char *)up, (char *)tree, NULL, 0 };
	size_t lo = 0, hi = v->nr;

	memset(counts, 0, sizeof(unsigned) * SM_MAIL_NR_STATES);
	while (lo < hi) {	/* first entry >= key */
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_entry(&v->entries[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < v->nr && !cmp_entry(&v->entries[i], &key); i++) {
		const struct sm_state_entry *e = &v->entries[i];
		int sent_too = 0;

		/* a subscriber counts once, in its most final state */
		for (size_t j = lo; j < v->nr && !cmp_entry(&v->entries[j], &key); j++)
			if (j != i && !strcmp(v->entries[j].sub, e->sub) &&
			    (rank(v->entries[j].state) > rank(e->state) ||
			     (v->entries[j].state == e->state && j < i)))
				sent_too = 1;
		if (!sent_too)
			counts[e->state]++;
	}
}
