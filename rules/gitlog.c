/* gitlog: `git log` output split into commits (see gitlog.h). */
#include "rules/gitlog.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>

#define HEADER "commit "
#define HEADER_LEN 7
#define ID_LEN 40
#define ID_MIN 4	/* git's shortest abbreviation (core.abbrev) */
#define KEEP_ALLOC (1 << 20)	/* a buffer kept from commit to commit, at most */

/* The lower-case hex digits s[0..len) starts with, counted up to one past
 * ID_LEN (so a longer run is seen as one); *digit set when one is 0-9. */
static size_t hex_run(const char *s, size_t len, int *digit)
{
	size_t n = 0;

	*digit = 0;
	while (n < len && n <= ID_LEN && is_lower_hex(s + n, 1))
		*digit |= s[n++] <= '9';
	return n;
}

/* The length of the id of a commit's first line, else 0. */
static size_t header_id_len(const char *line, size_t len)
{
	size_t n;
	int digit;

	if (len < HEADER_LEN + ID_MIN || memcmp(line, HEADER, HEADER_LEN))
		return 0;
	n = hex_run(line + HEADER_LEN, len - HEADER_LEN, &digit);
	if (n < ID_MIN || n > ID_LEN)
		return 0;
	/* the id alone (a CRLF file's "\r" after it), or followed by " (...)"
	 * (--decorate, "from" of -m) */
	len -= HEADER_LEN + n;
	line += HEADER_LEN + n;
	return !len || line[0] == ' ' || (len == 1 && line[0] == '\r') ? n : 0;
}

int sm_gitlog_is_header(const char *line, size_t len)
{
	return header_id_len(line, len) != 0;
}

/* The length of the commit id line starts with: 7 to 40 hex digits, one
 * of them a digit (no English word is taken for one), then the line's end
 * or a space; else 0. */
static size_t leading_id(const char *line, size_t len)
{
	int digit;
	size_t n = hex_run(line, len, &digit);

	if (n < 7 || n > ID_LEN || !digit)
		return 0;
	return n == len || line[n] == ' ' || (n + 1 == len && line[n] == '\r') ? n : 0;
}

/* "<id> <subject>", as --oneline prints it */
static int is_oneline(const char *line, size_t len)
{
	size_t n = leading_id(line, len);

	return n && n + 1 < len && line[n] == ' ' && line[n + 1] != ' ';
}

const char *sm_gitlog_messageless(const char *line, size_t len)
{
	size_t i = 1, n;

	if (len > 2 && line[0] == '*' && line[1] == ' ') {
		while (i < len && line[i] == ' ')
			i++;
		if (sm_gitlog_is_header(line + i, len - i) || is_oneline(line + i, len - i))
			return "`git log --graph` output, which prefixes every line with the graph";
	}
	if (len > 2 && (line[0] == '+' || line[0] == '-') && line[1] == ' ' &&
	    leading_id(line + 2, len - 2))
		return "`git cherry` output, which holds no commit messages";
	if (is_oneline(line, len))
		return "`git log --oneline` output, which holds no commit messages";
	n = leading_id(line, len);
	if (n && (n == len || line[n] == '\r'))
		return "a list of commit ids (`git rev-list`), which holds no commit messages";
	return NULL;
}

void sm_gitlog_init(struct sm_gitlog *g, size_t max, sm_gitlog_fn fn, void *data)
{
	memset(g, 0, sizeof(*g));
	strbuf_init(&g->cur, 0);
	strbuf_init(&g->rename, 0);
	g->max = max;
	g->fn = fn;
	g->data = data;
}

/* Hands the commit read so far to fn. */
static int flush(struct sm_gitlog *g)
{
	int too_big = g->cur_len > g->max;
	int rc;

	if (!g->n)
		return 0;	/* nothing begun yet */
	rc = g->fn(too_big ? NULL : g->cur.buf, g->cur_len, g->n, too_big, g->data);
	if (g->cur.alloc > KEEP_ALLOC)
		strbuf_release(&g->cur);	/* a big commit's memory is not kept for the rest */
	else
		strbuf_reset(&g->cur);
	g->cur_len = 0;
	return rc < 0 ? rc : 0;
}

static int one_line(struct sm_gitlog *g, const char *line, size_t len)
{
	size_t id_len = line ? header_id_len(line, len) : 0;

	if (id_len) {
		int rc = flush(g);

		if (rc < 0)
			return rc;
		g->n++;
		memcpy(g->id, line + HEADER_LEN, id_len);
		g->id[id_len] = '\0';
	}
	if (!g->n)
		return 0;
	g->cur_len += len + 1;
	if (line && g->cur_len <= g->max) {
		strbuf_add(&g->cur, line, len);
		strbuf_addch(&g->cur, '\n');
	} else if (g->cur.alloc) {
		strbuf_release(&g->cur);	/* too big: only its size is kept */
	}
	return 0;
}

/* A `git log -z --numstat` rename's counts, "28\t15\t", its paths in the
 * two NUL-ended fields after it */
static int is_rename_counts(const char *s, size_t len)
{
	size_t i = 0;

	for (int field = 0; field < 2; field++) {
		size_t start = i;

		if (i < len && s[i] == '-')
			i++;	/* a binary file's count */
		else
			while (i < len && isdigit((unsigned char)s[i]))
				i++;
		if (i == start || i >= len || s[i++] != '\t')
			return 0;
	}
	return i == len;
}

int sm_gitlog_line(struct sm_gitlog *g, const char *line, size_t len)
{
	const char *nul, *end;

	if (!line)
		return one_line(g, NULL, len);
	end = line + len;

	/* `git log -z` ends a commit, and each --numstat line, with a NUL
	 * where a newline would be: "...\n\0commit <id>", "3\t1\tx.c\0",
	 * and a rename "28\t15\t\0old\0new\0" is the line "28\t15\told => new" */
	while ((nul = memchr(line, '\0', (size_t)(end - line))) != NULL) {
		const char *old = nul + 1, *old_end, *new_end;
		int rc;

		if (is_rename_counts(line, (size_t)(nul - line)) &&
		    (old_end = memchr(old, '\0', (size_t)(end - old))) != NULL) {
			new_end = memchr(old_end + 1, '\0', (size_t)(end - old_end - 1));
			if (!new_end)
				new_end = end;
			strbuf_reset(&g->rename);
			strbuf_add(&g->rename, line, (size_t)(nul - line));
			strbuf_add(&g->rename, old, (size_t)(old_end - old));
			strbuf_addstr(&g->rename, " => ");
			strbuf_add(&g->rename, old_end + 1, (size_t)(new_end - old_end - 1));
			rc = one_line(g, g->rename.buf, g->rename.len);
			nul = new_end < end ? new_end : end - 1;
		} else {
			rc = one_line(g, line, (size_t)(nul - line));
		}
		if (rc < 0)
			return rc;
		line = nul + 1;
		if (line >= end)
			return 0;
	}
	return one_line(g, line, (size_t)(end - line));
}

int sm_gitlog_finish(struct sm_gitlog *g)
{
	int rc = flush(g);

	g->n = 0;
	return rc;
}

void sm_gitlog_release(struct sm_gitlog *g)
{
	strbuf_release(&g->cur);
	strbuf_release(&g->rename);
}

int sm_gitlog_split(const char *text, size_t len, size_t max, sm_gitlog_fn fn, void *data)
{
	struct sm_gitlog g;
	const char *p = text, *end = text + len;
	int rc = 0;

	sm_gitlog_init(&g, max, fn, data);
	while (p < end && rc >= 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		rc = sm_gitlog_line(&g, p, n);
		p += n + 1;
	}
	if (rc >= 0)
		rc = sm_gitlog_finish(&g);
	sm_gitlog_release(&g);
	return rc;
}
