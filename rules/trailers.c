/* trailers: "Key: value" lines of a commit message, Fixes: tags, and the
 * upstream reference a stable commit carries. */
#include "rules/commit.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char *const known_keys[] = {
	"Cc", "Fixes", "Link", "Closes", "Message-ID", "Message-Id", "Bug", "BugLink",
	"Change-Id", "References", "Stable-dep-of", "Upstream", "Patch-mainline",
	"Git-commit", "Addresses-Coverity", "Addresses-Coverity-ID", "Coverity-id",
	"CVE", "Signed-off-by", "NAK", "Nacked-by", "Fixes-tag",
};

int sm_is_known_trailer_key(const char *key, size_t len)
{
	if (len > 3 && !strncasecmp(key + len - 3, "-by", 3))
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(known_keys); i++)
		if (strlen(known_keys[i]) == len && !strncasecmp(key, known_keys[i], len))
			return 1;
	return 0;
}

const struct sm_trailer *sm_commit_trailer(const struct sm_commit *c, const char *key)
{
	for (size_t i = 0; i < c->nr_trailers; i++)
		if (!strcasecmp(c->trailers[i].key, key))
			return &c->trailers[i];
	return NULL;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int sm_fixes_tag_parse(const char *value, struct sm_fixes_tag *f)
{
	const char *s = skip_ws(value), *open, *close;
	size_t n = 0;

	memset(f, 0, sizeof(*f));
	f->line = xstrdup(value);
	if (istarts_with(s, "commit "))
		s = skip_ws(s + 7), f->problem = xstrdup("the word \"commit\" before the id");
	while (isxdigit((unsigned char)s[n]))
		n++;
	if (!n || isalnum((unsigned char)s[n])) {
		free(f->problem);
		f->problem = xstrdup("no commit id");
		return 0;
	}
	f->sha = xstrndup(s, n);
	str_to_lower(f->sha);
	if (n < 12 && !f->problem)
		f->problem = xasprintf("commit id of %zu digits, fewer than 12", n);
	else if (n > 40 && !f->problem)
		f->problem = xasprintf("commit id of %zu digits, more than 40", n);
	s = skip_ws(s + n);
	open = strchr(s, '(');
	close = strrchr(s, ')');
	if (open && close && close > open) {
		const char *b = open + 1, *e = close;

		if (*b == '"' || *b == '\'')
			b++;
		if (e > b && (e[-1] == '"' || e[-1] == '\''))
			e--;
		f->subject = xstrndup(b, (size_t)(e - b));
		if (open[1] != '"' && !f->problem)
			f->problem = xstrdup("subject not quoted as (\"subject\")");
	} else if (!f->problem) {
		f->problem = xstrdup(*s ? "subject not in (\"...\")" : "no (\"subject\")");
		if (*s)
			f->subject = xstrdup(s);
	}
	return 0;
}

int sm_fixes_names_commit(const struct sm_fixes_tag *f)
{
	return f->sha && strlen(f->sha) >= 7 && strlen(f->sha) <= 40;
}

void sm_fixes_tag_release(struct sm_fixes_tag *f)
{
	FREE_ALL(f->sha, f->subject, f->line, f->problem);
	memset(f, 0, sizeof(*f));
}

/* The forms stable trees use to name the upstream original, the
 * distributions' "(backported from commit X)" and "(cherry picked from
 * commit X linux-next)" (Ubuntu), and the stable scripts' notice that a
 * patch failed to apply, which pastes the original under a line
 * "------------------ original commit in Linus's tree ------------------"
 * as format-patch wrote it ("From X Mon Sep 17 00:00:00 2001"). */
static pcre2_code *upstream_re;
static pthread_once_t upstream_re_once = PTHREAD_ONCE_INIT;

static void compile_upstream_re(void)
{
	int err;
	PCRE2_SIZE off;

	/* The lookahead changes no match (each form begins with one of
	 * those letters) but lets pcre2 skip to them: without it the JIT
	 * tried every form at every byte, 7.7 us a message of the
	 * classify corpus that says "upstream" anywhere; with it 1.9 us. */
	upstream_re = pcre2_compile((PCRE2_SPTR)
		"(?=[c\\[(uo])"
		"(?:\\bcommit\\s+([0-9a-f]{12,40})\\s+upstream\\b"
		"|\\[\\s*upstream\\s+commit:?\\s+([0-9a-f]{12,40})\\s*\\]"
		"|\\((?:cherry[- ]picked|backported)\\s+from\\s+commit\\s+([0-9a-f]{12,40})\\b"
		"[^)\\n]*\\)"
		"|\\bupstream\\s+commit:?\\s+([0-9a-f]{12,40})\\b"
		"|^upstream:\\s+([0-9a-f]{12,40})\\b"
		"|\\boriginal\\s+commit\\s+in\\s+linus's\\s+tree\\s*-*\\s*from\\s+([0-9a-f]{40})\\s)",
		PCRE2_ZERO_TERMINATED, PCRE2_CASELESS | PCRE2_MULTILINE, &err, &off, NULL);
	if (upstream_re)
		pcre2_jit_compile(upstream_re, PCRE2_JIT_COMPLETE);
}

/* memmem(msg, len, needle, n) != NULL, by memchr() for the needle's byte
 * at `at`, a rare letter in English ("pstream" by its p, "herry" by its y):
 * a few short jumps through a message where memmem() reads every byte. */
static int has(const char *msg, size_t len, const char *needle, size_t n, size_t at)
{
	const char *p = msg + at, *end = msg + len;

	if (len < n)
		return 0;
	end -= n - 1 - at;	/* the anchor's last possible place, + 1 */
	while (p < end && (p = memchr(p, needle[at], (size_t)(end - p)))) {
		if (!memcmp(p - at, needle, n))
			return 1;
		p++;
	}
	return 0;
}

/* Is at on the first line of msg's body (the line after the subject and
 * the blank lines below it)? */
static int on_first_body_line(const char *msg, size_t len, size_t at)
{
	const char *p = memchr(msg, '\n', len), *end = msg + len, *eol;

	if (!p)
		return 0;
	while (p < end && *p == '\n')
		p++;
	eol = memchr(p, '\n', (size_t)(end - p));
	return msg + at >= p && msg + at < (eol ? eol : end);
}

/* Does the reference group g of upstream_re at `at` name the original
 * the way a stable tree does: "commit X upstream", "[ Upstream commit X ]",
 * or "upstream commit X" right under the subject ("This is upstream commit
 * X."; in mainline's prose it names libbpf's or zstd's upstream as often)? */
static int stable_form(const char *msg, size_t len, int g, size_t at)
{
	return g == 1 || g == 2 || (g == 4 && on_first_body_line(msg, len, at));
}

/* Is group g the stable scripts' notice, which names the original for
 * sure but is no stable tree's commit? */
static int notice_form(int g)
{
	return g == 6;
}

/* The upstream reference of msg that names what it was copied from, the
 * group of upstream_re that matched it (1..6; *group 0 when none) and
 * where the match starts: the first in a stable tree's form (stable_form),
 * else the last. `git cherry-pick -x` appends its line, so a commit picked
 * from one that already said "(cherry picked from commit X)" (drm's and
 * amdgpu's fixes from -next do) names X first and its real source last:
 * until 2026-12-06 the first was taken, and a tree's copy of such a fix
 * was indexed under a -next id mainline lacks, so scan offered the fix
 * again, as a candidate that conflicts. */
static char *find_upstream_ref(const char *msg, size_t len, int *group, size_t *at)
{
	pcre2_match_data *md;
	PCRE2_SIZE from = 0, id_from = 0, id_to = 0;
	char *res = NULL;

	*group = 0;

	/* Every form names "upstream", "cherry picked", "backported" or
	 * "Linus's tree": a plain substring search rules out the ordinary
	 * mainline message cheaply. */
	if (!has(msg, len, "pstream", 7, 0) && !has(msg, len, "PSTREAM", 7, 0) &&
	    !has(msg, len, "herry", 5, 4) && !has(msg, len, "HERRY", 5, 4) &&
	    !has(msg, len, "ackported", 9, 2) && !has(msg, len, "ACKPORTED", 9, 2) &&
	    !has(msg, len, "inus's tree", 11, 4) && !has(msg, len, "INUS'S TREE", 11, 4))
		return NULL;
	/* Once, even when two threads load commits (scan does). */
	pthread_once(&upstream_re_once, compile_upstream_re);
	if (!upstream_re)
		return NULL;
	md = pcre2_match_data_create_from_pattern(upstream_re, NULL);
	while (from < len && pcre2_match(upstream_re, (PCRE2_SPTR)msg, len, from, 0, md, NULL) > 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		int g = 1;

		while (g < 6 && ov[2 * g] == PCRE2_UNSET)
			g++;
		if (ov[2 * g] == PCRE2_UNSET)
			break;
		*group = g;
		*at = ov[0];
		id_from = ov[2 * g];
		id_to = ov[2 * g + 1];
		if (stable_form(msg, len, g, ov[0]) || notice_form(g))
			break;
		from = ov[1];	/* no form matches the empty string */
	}
	if (*group)
		res = xstrndup(msg + id_from, id_to - id_from);
	pcre2_match_data_free(md);
	if (res)
		str_to_lower(res);
	return res;
}

char *sm_find_upstream_ref(const char *msg, size_t len)
{
	int group;
	size_t at;

	return find_upstream_ref(msg, len, &group, &at);
}

char *sm_find_stable_upstream_ref(const char *msg, size_t len)
{
	int group;
	size_t at;
	char *res = find_upstream_ref(msg, len, &group, &at);

	if (res && stable_form(msg, len, group, at))
		return res;
	free(res);
	return NULL;
}

int sm_find_stable_dep_of(const char *msg, size_t len, char out[41])
{
	const char *p = msg, *end = msg + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *v;
		size_t n = 0;

		if ((size_t)(end - p) > 14 && !strncasecmp(p, "Stable-dep-of:", 14)) {
			v = p + 14;
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			while (v + n < end && n <= 40 && isxdigit((unsigned char)v[n]))
				n++;
			if (n >= 7 && n <= 40 && !(v + n < end && isalnum((unsigned char)v[n]))) {
				for (size_t i = 0; i < n; i++)
					out[i] = (char)tolower((unsigned char)v[i]);
				out[n] = '\0';
				return 1;
			}
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}
