/* ancestry: git_graph_descendant_of answers on disk.
 *
 * One small text file per repository, rewritten whole (temporary file +
 * rename) when an answer is added:
 *	stablemate-ancestry 1
 *	<commit> <ancestor> <1|0>	(newest first, at most KEEP lines)
 *	end <SHA-1 of everything above>
 * A file that does not end so is ignored. */
#include "trees/ancestry.h"
#include "trees/cache.h"
#include "lib/util.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include <stdio.h>
#include <string.h>

#define MAGIC "stablemate-ancestry 1\n"
#define LINE_LEN (40 + 1 + 40 + 1 + 1 + 1)
#define KEEP 256

/* The answers in text (already checked), or "" when the file is unusable. */
static void read_answers(const char *path, struct strbuf *text)
{
	size_t body;
	int ok;

	if (read_file(path, text) < 0) {
		sm_clear_error();
		strbuf_reset(text);
		return;
	}
	ok = sm_cache_check_sum(text->buf, text->len, &body) && body >= strlen(MAGIC) &&
	     starts_with(text->buf, MAGIC) && (body - strlen(MAGIC)) % LINE_LEN == 0;
	for (size_t i = strlen(MAGIC); ok && i < body; i += LINE_LEN) {
		const char *l = text->buf + i;

		ok = l[40] == ' ' && l[81] == ' ' && (l[82] == '0' || l[82] == '1') &&
		     l[83] == '\n';
	}
	if (!ok)
		strbuf_reset(text);
	else
		strbuf_setlen(text, body);
}

static void write_answers(const char *path, const struct strbuf *old, const char *line)
{
	struct strbuf sb = STRBUF_INIT;
	size_t from = strlen(MAGIC), nr = 1;

	strbuf_addstr(&sb, MAGIC);
	strbuf_addstr(&sb, line);
	for (size_t i = from; i < old->len && nr < KEEP; i += LINE_LEN, nr++)
		strbuf_add(&sb, old->buf + i, LINE_LEN);
	sm_cache_add_sum(&sb);
	write_cache_file(path, sb.buf, sb.len, "ancestry cache");
	strbuf_release(&sb);
}

int sm_descendant_of_cached(git_repository *repo, const git_oid *commit,
			    const git_oid *ancestor, const char *cache_dir)
{
	struct strbuf text = STRBUF_INIT;
	char *path;
	char key[2 * GIT_OID_HEXSZ + 2], line[LINE_LEN + 1];
	int r;

	path = sm_cache_file(cache_dir, "ancestry", git_repository_path(repo), "");
	if (!path)
		return git_graph_descendant_of(repo, commit, ancestor) == 1;
	git_oid_tostr(key, GIT_OID_HEXSZ + 1, commit);
	key[GIT_OID_HEXSZ] = ' ';
	git_oid_tostr(key + GIT_OID_HEXSZ + 1, GIT_OID_HEXSZ + 1, ancestor);
	read_answers(path, &text);
	for (size_t i = strlen(MAGIC); i < text.len; i += LINE_LEN)
		if (!memcmp(text.buf + i, key, sizeof(key) - 1)) {
			r = text.buf[i + sizeof(key)] == '1';
			goto out;
		}
	r = git_graph_descendant_of(repo, commit, ancestor);
	if (r == 0 || r == 1) {
		snprintf(line, sizeof(line), "%s %d\n", key, r);
		write_answers(path, &text, line);
	} else {
		sm_clear_error();
		r = 0;
	}
out:
	strbuf_release(&text);
	free(path);
	return r;
}
