/* diffstat: what a unified diff changes, in the terms check_relevant needs:
 * how many lines, whether only documentation, comments or whitespace, and
 * whether it only adds device-ID table entries.
 * scan keeps what sm_commit_parse_diff derives in its diff cache: a change
 * to what it counts bumps DIFF_CACHE_VERSION in trees/diff_cache.c. */
#include "rules/commit.h"
#include "rules/device_ids.h"
#include "rules/recomment.h"
#include "rules/line.h"
#include "lib/fnv.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <stdlib.h>
#include <ctype.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

enum file_kind { FILE_C, FILE_DOC, FILE_OTHER };

static enum file_kind classify_path(const char *p, size_t len)
{
	/* the tree's people files say who, not what the kernel does */
	static const char *const people[] = { "MAINTAINERS", "CREDITS", ".mailmap" };
	const char *dot = NULL;

	if ((len >= 14 && !memcmp(p, "Documentation/", 14)))
		return FILE_DOC;
	for (size_t i = 0; i < ARRAY_SIZE(people); i++)
		if (len == strlen(people[i]) && !memcmp(p, people[i], len))
			return FILE_DOC;
	for (size_t i = 0; i < len; i++)
		if (p[i] == '.')
			dot = p + i;
		else if (p[i] == '/')
			dot = NULL;
	if (!dot)
		return FILE_OTHER;
	len -= (size_t)(dot - p);
	if ((len == 2 && (dot[1] == 'c' || dot[1] == 'h' || dot[1] == 'S')))
		return FILE_C;
	/* C's comments, and '#' lines that are code: "#interrupt-cells = <3>;"
	 * and "#include" in device trees, "#[derive(...)]" in Rust */
	if ((len == 4 && (!memcmp(dot, ".dts", 4))) ||
	    (len == 5 && (!memcmp(dot, ".dtsi", 5) || !memcmp(dot, ".dtso", 5))) ||
	    (len == 3 && !memcmp(dot, ".rs", 3)))
		return FILE_C;
	if ((len == 4 && (!memcmp(dot, ".rst", 4) || !memcmp(dot, ".txt", 4))) ||
	    (len == 3 && !memcmp(dot, ".md", 3)))
		return FILE_DOC;
	return FILE_OTHER;
}

static int is_comment(enum file_kind kind, const char *s, size_t len, int *in_block)
{
	size_t i = 0;

	while (i < len && isspace((unsigned char)s[i]))
		i++;
	s += i;
	len -= i;
	if (kind == FILE_C) {
		/* " * text": a block comment's continuation line, whose
		 * opening the hunk may not show */
		int star = !*in_block && len >= 1 && s[0] == '*' &&
			   (len == 1 || s[1] == ' ' || s[1] == '/');

		/* Comments and nothing else: a line that goes on with code
		 * after a comment (a table's row after its index in a
		 * comment) is code. */
		for (;;) {
			const char *close;

			if (*in_block || star) {
				close = len >= 2 ? memmem(s, len, "*/", 2) : NULL;
				if (!close)
					return 1;
				*in_block = star = 0;
				len -= (size_t)(close + 2 - s);
				s = close + 2;
			} else if (len >= 2 && s[0] == '/' && s[1] == '/') {
				return 1;
			} else if (len >= 2 && s[0] == '/' && s[1] == '*') {
				*in_block = 1;
				s += 2;
				len -= 2;
				continue;
			} else {
				return len == 0;
			}
			while (len && isspace((unsigned char)*s))
				s++, len--;
		}
	}
	if (kind == FILE_OTHER)
		return len && s[0] == '#';
	return 0;
}

/* Whitespace-insensitive hash of a line (FNV-1a over non-space bytes). */
static unsigned long long squeeze_hash(const char *s, size_t len)
{
	unsigned long long h = SM_FNV_BASIS;

	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			h = sm_fnv_byte(h, (unsigned char)s[i]);
	return h;
}

/* squeeze_hash of a C line with the semicolons a stray one's removal
 * leaves the code the same without read as absent: one after another
 * (";;" is ";") or after a "}" ("};" is "}": a block's empty statement,
 * as a patch that builds can only drop it where it is one), and 0 for a
 * line of no more than ";" (after "return ret;"). "if (x);" against
 * "if (x)" still differs: there the semicolon is the if's body. */
static unsigned long long loose_c_hash(const char *s, size_t len)
{
	unsigned long long h = SM_FNV_BASIS;
	char quote = 0, last = 0;
	int code = 0;		/* a byte other than ";" was hashed */

	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (isspace((unsigned char)ch))
			continue;
		if (quote) {
			if (ch == '\\' && i + 1 < len)
				h = sm_fnv_byte(h, (unsigned char)s[i++]);
			else if (ch == quote)
				quote = 0;
		} else if (ch == '"' || ch == '\'') {
			quote = ch;
		} else if (ch == ';' && (last == ';' || last == '}')) {
			continue;
		}
		code |= ch != ';';
		h = sm_fnv_byte(h, (unsigned char)s[i]);
		last = ch;
	}
	return code ? h : 0;
}

/* A hunk's two sides, each as the sequence of its lines that are code
 * (not blank, no comment, no documentation), white space squeezed out:
 * context lines go to both. The hunk changes white space only when the
 * two are the same; lines moved (a call put after another, code moved
 * to another function or file) make them differ. */
struct hunk_sides {
	unsigned long long old, now;
	int differ;		/* some hunk's did */
};

static unsigned long long seq_add(unsigned long long seq, unsigned long long h)
{
	return (seq + h) * 0x9e3779b97f4a7c15ULL;
}

static void hunk_end(struct hunk_sides *hs)
{
	hs->differ |= hs->old != hs->now;
	hs->old = hs->now = 0;
}

static struct sm_diff_file *add_file(struct sm_commit *c, const char *path, size_t len)
{
	struct sm_diff_file *f;

	ALLOC_GROW(c->files, c->nr_files, c->alloc_files);
	f = &c->files[c->nr_files++];
	memset(f, 0, sizeof(*f));
	f->path = xstrndup(path, len);
	c->diff.files++;
	if (classify_path(path, len) == FILE_DOC)
		c->diff.doc_files++;
	c->has_diff = 1;
	return f;
}

/* A path git wrote C-quoted, as core.quotePath does for bytes outside
 * printable ASCII ("drivers/t\303\251st.c"): s[0] is the opening quote.
 * Appends the path to out and returns the bytes of s read, or 0 when the
 * quote does not close (out then holds a part). */
static size_t unquote_path(const char *s, size_t n, struct strbuf *out)
{
	static const char from[] = "abtnvfr\"\\", to[] = "\a\b\t\n\v\f\r\"\\";

	for (size_t i = 1; i < n; i++) {
		const char *e;

		if (s[i] == '"')
			return i + 1;
		if (s[i] != '\\' || i + 1 >= n) {
			strbuf_addch(out, s[i]);
		} else if (s[i + 1] >= '0' && s[i + 1] <= '3' && i + 3 < n &&
			   s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			strbuf_addch(out, (s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 | (s[i + 3] - '0'));
			i += 3;
		} else if ((e = strchr(from, s[i + 1])) && s[i + 1]) {
			strbuf_addch(out, to[e - from]);
			i++;
		} else {
			strbuf_addch(out, s[i]);
		}
	}
	return 0;
}

/* The new path of a "diff --git " header's rest: "a/P b/P", a rename's
 * "a/P b/Q", "P P" (diff.noprefix), or either side C-quoted
 * ("\"b/t\303\251st.c\""). */
static void header_path(const char *s, size_t n, struct strbuf *out)
{
	const char *b = NULL;
	size_t k, half = n >= 5 ? (n - 5) / 2 : 0;

	if ((n & 1) && s[n / 2] == ' ' && !memcmp(s, s + n / 2 + 1, n / 2)) {
		strbuf_reset(out);
		strbuf_add(out, s, n / 2);	/* "P P": no prefixes */
		return;
	}
	if (n && s[0] == '"' && (k = unquote_path(s, n, out)) && k + 1 < n && s[k] == ' ') {
		b = s + k + 1;		/* a quoted old path: the new one follows */
	} else if (n >= 5 && !((n - 5) & 1) && !memcmp(s + 2 + half, " b/", 3) &&
		   !memcmp(s + 2, s + 5 + half, half)) {
		b = s + 3 + half;	/* "a/P b/P": a " b/" inside P does not cut it */
	} else if ((b = memmem(s, n, " \"b/", 4)) || (b = memmem(s, n, " b/", 3))) {
		b++;
	}
	strbuf_reset(out);
	if (!b) {
		strbuf_add(out, s, n);
		return;
	}
	n -= (size_t)(b - s);
	if (b[0] != '"' || unquote_path(b, n, out) != n) {
		strbuf_reset(out);
		strbuf_add(out, b, n);
	}
	if (out->len >= 2 && out->buf[0] == 'b' && out->buf[1] == '/') {
		memmove(out->buf, out->buf + 2, out->len - 2);
		strbuf_setlen(out, out->len - 2);
	}
}

/* "if (", "} else if (", "return -EINVAL;", "goto out;" after the indent. */
static void added_code_facts(struct sm_diffstat *d, const char *t, size_t tl)
{
	size_t i = 0;

	while (i < tl && (t[i] == ' ' || t[i] == '\t'))
		i++;
	t += i;
	tl -= i;
	if (tl >= 2 && t[0] == '}' && t[1] == ' ')
		t += 2, tl -= 2;
	if (tl >= 5 && !memcmp(t, "else ", 5))
		t += 5, tl -= 5;
	if ((tl >= 4 && !memcmp(t, "if (", 4)) || (tl >= 3 && !memcmp(t, "if(", 3)))
		d->added_checks++;
	else if ((tl >= 9 && !memcmp(t, "return -E", 9)) || (tl >= 5 && !memcmp(t, "goto ", 5)))
		d->added_error_returns++;
}

/* a + b, at most SM_DIFF_MAX_LINES */
static unsigned capped_sum(unsigned a, unsigned b)
{
	unsigned long long s = (unsigned long long)a + b;

	return s > SM_DIFF_MAX_LINES ? SM_DIFF_MAX_LINES : (unsigned)s;
}

/* A count of digits at s (numstat, --stat, the summary line), at most
 * SM_DIFF_MAX_LINES: a longer number would wrap around in an unsigned. */
static unsigned count_at(const char *s)
{
	unsigned long long n = 0;

	for (; *s >= '0' && *s <= '9'; s++)
		if ((n = n * 10 + (unsigned)(*s - '0')) > SM_DIFF_MAX_LINES)
			return SM_DIFF_MAX_LINES;
	return (unsigned)n;
}

void sm_commit_add_file(struct sm_commit *c, const char *path, size_t len, unsigned added,
			unsigned removed)
{
	struct sm_diff_file *f = add_file(c, path, len);

	added = capped_sum(0, added);
	removed = capped_sum(0, removed);
	f->added = added;
	f->removed = removed;
	c->diff.added = capped_sum(c->diff.added, added);
	c->diff.removed = capped_sum(c->diff.removed, removed);
	/* No text: count the lines as code so "comment-only" never fires. */
	if (classify_path(path, len) != FILE_DOC)
		c->diff.code_lines_changed = capped_sum(c->diff.code_lines_changed,
							capped_sum(added, removed));
	c->diff.from_stat = 1;
}

static int all_digits(const char *s, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* "3\t1\tpath" or "-\t-\tpath" (binary). */
static int numstat_line(const char *s, size_t n, unsigned *a, unsigned *r, const char **path,
			size_t *plen)
{
	const char *t1 = memchr(s, '\t', n), *t2;

	if (!t1)
		return 0;
	t2 = memchr(t1 + 1, '\t', n - (size_t)(t1 + 1 - s));
	if (!t2 || t2 + 1 >= s + n)
		return 0;
	if (!(all_digits(s, (size_t)(t1 - s)) || (t1 - s == 1 && s[0] == '-')))
		return 0;
	if (!(all_digits(t1 + 1, (size_t)(t2 - t1 - 1)) || (t2 - t1 == 2 && t1[1] == '-')))
		return 0;
	*a = s[0] == '-' ? 0 : count_at(s);
	*r = t1[1] == '-' ? 0 : count_at(t1 + 1);
	*path = t2 + 1;
	*plen = n - (size_t)(t2 + 1 - s);
	return 1;
}

/* " path/to/file.c | 12 +++++-----" or " file.bin | Bin 0 -> 12 bytes". */
static int stat_line(const char *s, size_t n, unsigned *a, unsigned *r, const char **path,
		     size_t *plen)
{
	const char *bar, *p;
	size_t pl;
	unsigned total, plus = 0, minus = 0;

	if (n < 5 || s[0] != ' ' || s[1] == ' ')
		return 0;
	/* The path is at least one character: " | 3 +" has none. */
	bar = memmem(s + 1, n - 1, " | ", 3);
	if (!bar || bar == s + 1)
		return 0;
	p = bar + 3;
	while (p < s + n && *p == ' ')
		p++;
	if (p + 3 <= s + n && !memcmp(p, "Bin", 3)) {
		total = 0;
	} else {
		const char *q = p;

		while (q < s + n && isdigit((unsigned char)*q))
			q++;
		if (q == p)
			return 0;
		total = count_at(p);
		while (q < s + n && *q == ' ')
			q++;
		for (; q < s + n; q++) {
			if (*q == '+')
				plus++;
			else if (*q == '-')
				minus++;
			else
				return 0;
		}
	}
	pl = (size_t)(bar - s) - 1;
	while (pl && s[1 + pl - 1] == ' ')
		pl--;
	*path = s + 1;
	*plen = pl;
	/* The bar is scaled when wide: split the total in its proportion. */
	*a = plus + minus ? (unsigned)((total * (unsigned long long)plus + (plus + minus) / 2) /
				       (plus + minus)) : 0;
	*r = total - *a;
	return 1;
}

/* " 3 files changed, 9 insertions(+), 23 deletions(-)": the files in
 * *files, the lines in *a and *r */
static int summary_line(const char *s, size_t n, unsigned *files, unsigned *a, unsigned *r)
{
	char buf[160];
	const char *p;
	size_t i = 0;

	if (n < 16 || n >= sizeof(buf) || s[0] != ' ')
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	while (buf[i] == ' ')
		i++;
	if (!isdigit((unsigned char)buf[i]) || !strstr(buf, " changed"))
		return 0;
	if (!strstr(buf, " file changed") && !strstr(buf, " files changed"))
		return 0;
	*files = count_at(buf + i);
	*a = *r = 0;
	if ((p = strstr(buf, " insertion")))
		while (p > buf && isdigit((unsigned char)p[-1]))
			p--;
	if (p)
		*a = count_at(p);
	if ((p = strstr(buf, " deletion")))
		while (p > buf && isdigit((unsigned char)p[-1]))
			p--;
	if (p)
		*r = count_at(p);
	return 1;
}

/* A path of a numstat or --stat line: plain, C-quoted, a rename "a => b"
 * or "dir/{a => b}/c" (the new path), either side maybe quoted. */
static void add_stat_path(struct sm_commit *c, const char *p, size_t n, unsigned a, unsigned r)
{
	const char *arrow = memmem(p, n, " => ", 4);
	struct strbuf sb = STRBUF_INIT;

	if (arrow) {
		const char *open = memchr(p, '{', n), *close = memchr(p, '}', n);

		if (open && close && open < arrow && close > arrow) {
			strbuf_add(&sb, p, (size_t)(open - p));
			strbuf_add(&sb, arrow + 4, (size_t)(close - arrow - 4));
			strbuf_add(&sb, close + 1, n - (size_t)(close + 1 - p));
		} else {
			strbuf_add(&sb, arrow + 4, n - (size_t)(arrow + 4 - p));
		}
	} else {
		strbuf_add(&sb, p, n);
	}
	if (sb.len && sb.buf[0] == '"') {
		struct strbuf q = STRBUF_INIT;

		if (unquote_path(sb.buf, sb.len, &q) == sb.len) {
			strbuf_reset(&sb);
			strbuf_add(&sb, q.buf, q.len);
		}
		strbuf_release(&q);
	}
	sm_commit_add_file(c, sb.buf, sb.len, a, r);
	strbuf_release(&sb);
}

int sm_path_is_cut(const char *path)
{
	return starts_with(path, ".../");
}

unsigned sm_commit_cut_paths(const struct sm_commit *c)
{
	unsigned n = 0;

	for (size_t i = 0; i < c->nr_files; i++)
		n += sm_path_is_cut(c->files[i].path);
	return n;
}

/* Whether l, with pos just past it, is a plain unified diff's file header:
 * "--- OLD", then "+++ NEW" (into *plus), then a hunk header. */
static int plain_file_header(const struct line *l, const char *pos, const char *end,
			     struct line *plus)
{
	struct line hunk;

	return l->len >= 4 && !memcmp(l->p, "--- ", 4) && next_line(&pos, end, plus) &&
	       plus->len >= 4 && !memcmp(plus->p, "+++ ", 4) && next_line(&pos, end, &hunk) &&
	       hunk.len >= 4 && !memcmp(hunk.p, "@@ -", 4);
}

const char *sm_find_diff(const char *text, const char *end)
{
	const char *pos = text, *plain = NULL;
	struct line l, plus;

	while (next_line(&pos, end, &l)) {
		if (l.len >= 11 && !memcmp(l.p, "diff --git ", 11))
			return l.p;
		if (!plain && plain_file_header(&l, pos, end, &plus))
			plain = l.p;
	}
	return plain;
}

int sm_plain_diff_path(const char *s, size_t n, struct strbuf *out)
{
	const char *tab = memchr(s, '\t', n), *slash;

	if (tab)
		n = (size_t)(tab - s);
	while (n && s[n - 1] == ' ')
		n--;
	if (n == 9 && !memcmp(s, "/dev/null", 9))
		return 0;
	slash = memchr(s, '/', n);
	if (slash && slash + 1 < s + n) {
		n -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	strbuf_reset(out);
	strbuf_add(out, s, n);
	return 1;
}

const char *sm_find_stat_block(const char *text, const char *end)
{
	struct line l;

	for (const char *pos = text; next_line(&pos, end, &l); ) {
		unsigned f, a, r;
		const char *path;
		size_t pl;

		if (numstat_line(l.p, l.len, &a, &r, &path, &pl) ||
		    stat_line(l.p, l.len, &a, &r, &path, &pl) ||
		    summary_line(l.p, l.len, &f, &a, &r))
			return l.p;
	}
	return NULL;
}

void sm_commit_parse_stat(struct sm_commit *c, const char *text, size_t len)
{
	const char *pos = text, *end = text + len;
	int have_summary = 0;
	unsigned sf = 0, sa = 0, sr = 0;
	struct line l;

	while (next_line(&pos, end, &l)) {
		const char *p = l.p, *path;
		size_t n = l.len, pl;
		unsigned f, a, r;

		if (n >= 11 && !memcmp(p, "diff --git ", 11))
			break;
		if (numstat_line(p, n, &a, &r, &path, &pl) || stat_line(p, n, &a, &r, &path, &pl))
			add_stat_path(c, path, pl, a, r);
		else if (summary_line(p, n, &f, &a, &r))
			have_summary = 1, sf = f, sa = a, sr = r;
		else if (n >= 12 && !memcmp(p, " create mode", 12) && c->nr_files) {
			const char *sp = memrchr(p, ' ', n);

			for (size_t i = 0; sp && i < c->nr_files; i++)
				if (strlen(c->files[i].path) == n - (size_t)(sp + 1 - p) &&
				    !memcmp(c->files[i].path, sp + 1, n - (size_t)(sp + 1 - p)) &&
				    !c->files[i].is_new) {
					c->files[i].is_new = 1;
					c->diff.new_files++;
				}
		}
	}
	if (have_summary) {
		/* exact totals, where --stat's bars were rounded */
		c->diff.added = sa;
		c->diff.removed = sr;
		/* --shortstat: the summary alone, no file lines */
		if (!c->nr_files)
			c->has_diff = 1, c->diff.from_stat = 1, c->diff.files = sf;
	}
}

/* The digits at *q (before end) as a number, *q moved past them; -1 when
 * there are none or it is over INT_MAX. Bounded by end, unlike strtol: a
 * diff's text need not end in a NUL. */
static long read_count(const char **q, const char *end)
{
	long n = 0;

	if (*q >= end || !isdigit((unsigned char)**q))
		return -1;
	for (; *q < end && isdigit((unsigned char)**q); ++*q)
		if ((n = n * 10 + (**q - '0')) > INT_MAX)
			return -1;
	return n;
}

int sm_hunk_header(const char *line, size_t len, struct sm_hunk *h)
{
	const char *q = line + 4, *end = line + len;

	h->old_lines = h->new_lines = 1;
	if (len < 4 || memcmp(line, "@@ -", 4) || (h->old_start = read_count(&q, end)) < 0)
		return -1;
	if (q < end && *q == ',' && (++q, h->old_lines = read_count(&q, end)) < 0)
		return -1;
	if (end - q < 2 || q[0] != ' ' || q[1] != '+')
		return -1;
	q += 2;
	if ((h->new_start = read_count(&q, end)) < 0)
		return -1;
	if (q < end && *q == ',' && (++q, h->new_lines = read_count(&q, end)) < 0)
		return -1;
	if (q >= end || *q != ' ')
		return -1;
	h->read = (size_t)(q - line);
	return 0;
}

int sm_hunk_counts(const char *line, size_t len, int *before, int *after)
{
	struct sm_hunk h;

	if (sm_hunk_header(line, len, &h) < 0)
		return -1;
	*before = (int)h.old_lines;
	*after = (int)h.new_lines;
	return 0;
}

void sm_commit_parse_diff(struct sm_commit *c, const char *diff, size_t len)
{
	struct sm_diff_file *cur = NULL;
	const char *pos = diff, *end = diff + len;
	struct sm_diffstat *d = &c->diff;
	enum file_kind kind = FILE_OTHER;
	int in_hunk = 0, in_block_plus = 0, in_block_minus = 0;
	int git_header = 0;	/* after "diff --git", before its first hunk */
	/* the lines the hunk header says are left of each side; -1: it did not
	 * say (the hunk ends at a line no hunk has) */
	int old_left = -1, new_left = -1;
	struct hunk_sides sides = { 0, 0, 0 };
	struct hunk_sides loose = { 0, 0, 0 };	/* the same with loose_c_hash for C */
	struct sm_id_run ids;
	struct sm_recomment rc;
	unsigned code_add = 0, code_del = 0;
	struct strbuf path = STRBUF_INIT;
	struct line l, plus;

	sm_recomment_reset(&rc);
	sm_id_run_init(&ids);
	/* "\r" of CRLF text is dropped with the "\n": an empty context line
	 * "\r" would end its hunk */
	while (next_line(&pos, end, &l)) {
		const char *s = l.p;
		size_t n = l.len;

		if (!n || s[0] != '+')
			sm_id_run_end(&ids, d);
		if (!n || (s[0] != '+' && s[0] != '-' && s[0] != '\\'))
			sm_recomment_reset(&rc);
		if (n >= 11 && !memcmp(s, "diff --git ", 11)) {
			hunk_end(&sides);
			hunk_end(&loose);
			strbuf_reset(&path);
			header_path(s + 11, n - 11, &path);
			in_hunk = 0;
			git_header = 1;
			kind = classify_path(path.buf, path.len);
			cur = add_file(c, path.buf, path.len);
			continue;
		}
		if ((!in_hunk || old_left < 0) && !git_header &&
		    plain_file_header(&l, pos, end, &plus)) {
			int old_side, new_side;

			next_line(&pos, end, &l);	/* past the "+++ " line */
			hunk_end(&sides);
			hunk_end(&loose);
			sm_recomment_reset(&rc);
			in_hunk = 0;
			old_side = sm_plain_diff_path(s + 4, n - 4, &path);
			new_side = sm_plain_diff_path(plus.p + 4, plus.len - 4, &path);
			kind = classify_path(path.buf, path.len);
			cur = add_file(c, path.buf, path.len);
			if (!old_side) {
				cur->is_new = 1;
				d->new_files++;
			}
			if (!new_side) {
				cur->is_deleted = 1;
				d->deleted_files++;
			}
			continue;
		}
		if (!in_hunk && cur && n >= 13 && !memcmp(s, "new file mode", 13)) {
			cur->is_new = 1;
			d->new_files++;
			continue;
		}
		if (!in_hunk && cur && n >= 17 && !memcmp(s, "deleted file mode", 17)) {
			cur->is_deleted = 1;
			d->deleted_files++;
			continue;
		}
		if (n >= 2 && s[0] == '@' && s[1] == '@') {
			hunk_end(&sides);
			hunk_end(&loose);
			in_hunk = 1;
			git_header = 0;
			in_block_plus = in_block_minus = 0;
			if (sm_hunk_counts(s, n, &old_left, &new_left) < 0)
				old_left = new_left = -1;
			continue;
		}
		if (!in_hunk)
			continue;
		if (old_left >= 0) {
			/* The hunk ends where its header says: what follows the
			 * last one, as the "-- " of format-patch's signature, is
			 * no removed line. An empty line is a context line whose
			 * space a mailer dropped. */
			int *left = s[0] == '+' ? &new_left : s[0] == '-' ? &old_left : NULL;

			if (left && !*left) {
				in_hunk = 0;
				continue;
			}
			if (left)
				--*left;
			else if (!n || s[0] == ' ')
				old_left -= old_left > 0, new_left -= new_left > 0;
			if (!old_left && !new_left)
				in_hunk = 0;
		}
		if (!n)
			continue;
		if (s[0] == '+' || s[0] == '-') {
			int plus = s[0] == '+';
			const char *t = s + 1;
			size_t tl = n - 1;
			unsigned long long h;	/* the line, white space squeezed out */
			unsigned long long lh;	/* loose_c_hash's (h outside C) */

			if (plus)
				d->added++;
			else
				d->removed++;
			if (cur && plus)
				cur->added++;
			else if (cur)
				cur->removed++;
			if (is_blank_text(t, tl))
				continue;
			if (kind == FILE_DOC)
				continue;
			if (is_comment(kind, t, tl, plus ? &in_block_plus : &in_block_minus)) {
				d->comment_lines++;
				continue;
			}
			h = squeeze_hash(t, tl);
			if (plus && kind == FILE_C && sm_recomment_added(&rc, t, tl, h)) {
				/* its comment changed: the removed line was no
				 * code change either */
				d->code_lines_changed--;
				code_del--;
				d->comment_lines += 2;
				continue;
			}
			d->code_lines_changed++;
			lh = kind == FILE_C ? loose_c_hash(t, tl) : h;
			if (plus) {
				if (lh)
					loose.now = seq_add(loose.now, lh);
				sides.now = seq_add(sides.now, h);
				code_add++;
				sm_id_run_line(&ids, d, t, tl);
				if (kind == FILE_C)
					added_code_facts(d, t, tl);
			} else {
				if (lh)
					loose.old = seq_add(loose.old, lh);
				sides.old = seq_add(sides.old, h);
				code_del++;
				if (kind == FILE_C)
					sm_recomment_removed(&rc, t, tl, h);
			}
		} else if (s[0] == ' ') {
			if (kind != FILE_DOC && !is_blank_text(s + 1, n - 1)) {
				unsigned long long h = squeeze_hash(s + 1, n - 1);
				unsigned long long lh = kind == FILE_C ? loose_c_hash(s + 1, n - 1) : h;

				sides.old = seq_add(sides.old, h);
				sides.now = seq_add(sides.now, h);
				if (lh) {
					loose.old = seq_add(loose.old, lh);
					loose.now = seq_add(loose.now, lh);
				}
			}
		} else if (s[0] != '\\') {
			in_hunk = 0;
		}
	}
	hunk_end(&sides);
	hunk_end(&loose);
	sm_id_run_end(&ids, d);
	d->whitespace_only = code_add && code_add == code_del && !sides.differ;
	d->semicolons_only = !d->whitespace_only && code_add + code_del && !loose.differ;
	strbuf_release(&path);
}
