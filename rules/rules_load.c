/* rules_load: reads keywords.rules, authors.rules and thresholds.rules.
 * Every line is "weight  name  pattern" / "weight  role  pattern" /
 * "name  value"; '#' starts a comment line. Errors name file and line. */
#include "rules/rules_load.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *next_field(char **s)
{
	char *p = *s, *start;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return NULL;
	start = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	*s = p;
	return start;
}

static int parse_int(const char *s, int *out)
{
	char *e;
	long v;

	errno = 0;
	v = strtol(s, &e, 10);
	if (errno || *e || v < -100000 || v > 100000)
		return -1;
	*out = (int)v;
	return 0;
}

typedef int (*line_fn)(struct sm_rules *r, const char *file, unsigned lineno, char *line);

static int for_each_line(struct sm_rules *r, const char *dir, const char *name, line_fn fn)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct strbuf sb = STRBUF_INIT;
	unsigned lineno = 0;
	int ret = 0;

	if (read_file(path, &sb)) {
		free(path);
		strbuf_release(&sb);
		return -1;
	}
	for (char *line = sb.buf, *nl; line && *line; line = nl) {
		char *end;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		lineno++;
		end = line + strlen(line);
		while (end > line && isspace((unsigned char)end[-1]))
			*--end = '\0';
		while (isspace((unsigned char)*line))
			line++;
		if (!*line || *line == '#')
			continue;
		if (fn(r, path, lineno, line)) {
			ret = -1;
			break;
		}
	}
	free(path);
	strbuf_release(&sb);
	return ret;
}

static int keyword_line(struct sm_rules *r, const char *file, unsigned lineno, char *line)
{
	char *w = next_field(&line), *id = next_field(&line);
	struct sm_keyword_rule *k;
	int weight;

	if (!w || !id || !*line || parse_int(w, &weight))
		return sm_error("%s:%u: expected \"weight name pattern\"", file, lineno);
	ALLOC_GROW(r->keywords, r->nr_keywords, r->alloc_keywords);
	k = &r->keywords[r->nr_keywords++];
	k->id = xstrdup(id);
	k->weight = weight;
	k->pattern = xstrdup(line);
	/* Compile alone first so a bad pattern is reported on its own line. */
	{
		int err;
		PCRE2_SIZE off;
		pcre2_code *re = pcre2_compile((PCRE2_SPTR)line, PCRE2_ZERO_TERMINATED,
					       PCRE2_CASELESS, &err, &off, NULL);
		PCRE2_UCHAR msg[256];

		if (!re) {
			pcre2_get_error_message(err, msg, sizeof(msg));
			return sm_error("%s:%u: bad pattern at offset %zu: %s", file, lineno,
					(size_t)off, (char *)msg);
		}
		pcre2_code_free(re);
	}
	return 0;
}

static int author_line(struct sm_rules *r, const char *file, unsigned lineno, char *line)
{
	char *w = next_field(&line), *role = next_field(&line);
	struct sm_author_rule *a;
	int weight, err;
	PCRE2_SIZE off;

	if (!w || !role || !*line || parse_int(w, &weight))
		return sm_error("%s:%u: expected \"weight role pattern\"", file, lineno);
	ALLOC_GROW(r->authors, r->nr_authors, r->alloc_authors);
	a = &r->authors[r->nr_authors++];
	a->role = xstrdup(role);
	a->weight = weight;
	a->pattern = xstrdup(line);
	a->re = pcre2_compile((PCRE2_SPTR)line, PCRE2_ZERO_TERMINATED,
			      PCRE2_CASELESS | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &err, &off, NULL);
	if (!a->re) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(err, msg, sizeof(msg));
		return sm_error("%s:%u: bad pattern at offset %zu: %s", file, lineno, (size_t)off,
				(char *)msg);
	}
	pcre2_jit_compile(a->re, PCRE2_JIT_COMPLETE);
	return 0;
}

static int threshold_line(struct sm_rules *r, const char *file, unsigned lineno, char *line)
{
	static const struct {
		const char *name;
		size_t off;
	} names[] = {
#define T(n, f) { n, offsetof(struct sm_thresholds, f) }
		T("candidate", candidate), T("maybe", maybe), T("max-lines", max_lines),
		T("tiny-lines", tiny_lines), T("stable-tag", stable_tag), T("fixes-tag", fixes),
		T("fixes-malformed", fixes_malformed), T("tiny-diff", tiny), T("large-diff", large),
		T("docs-only", docs_only), T("whitespace-only", whitespace_only),
		T("comment-only", comment_only), T("device-id", device_id),
		T("subject-bonus-percent", subject_bonus_pct), T("noautosel-cap", manual_only_cap),
#undef T
	};
	char *name = next_field(&line), *val = next_field(&line);
	int v;

	if (!name || !val || *line || parse_int(val, &v))
		return sm_error("%s:%u: expected \"name value\"", file, lineno);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(names[i].name, name)) {
			*(int *)((char *)&r->t + names[i].off) = v;
			return 0;
		}
	}
	return sm_error("%s:%u: unknown setting \"%s\"", file, lineno, name);
}

static int compile_keywords(struct sm_rules *r)
{
	struct strbuf re = STRBUF_INIT;
	int err;
	PCRE2_SIZE off;

	/* One pass over the text for all keywords: each alternative carries
	 * a (*MARK) naming its rule, which pcre2_get_mark() reports. */
	/* The word-start test is written once, outside the alternation, so
	 * the alternatives are only tried where a word begins. */
	strbuf_addstr(&re, "(?<!\\w)(?:");
	for (size_t i = 0; i < r->nr_keywords; i++) {
		if (i)
			strbuf_addch(&re, '|');
		strbuf_addf(&re, "(?:%s)(?!\\w)(*MARK:%zu)", r->keywords[i].pattern, i);
	}
	strbuf_addch(&re, ')');
	if (!r->nr_keywords)
		strbuf_addstr(&re, "(*FAIL)");
	/* Byte mode: keywords are ASCII, and mail may hold any bytes. */
	r->keywords_re = pcre2_compile((PCRE2_SPTR)re.buf, re.len, PCRE2_CASELESS, &err, &off, NULL);
	strbuf_release(&re);
	if (!r->keywords_re)
		return sm_error("%s/keywords.rules: the patterns do not combine (pcre2 error %d)",
				r->dir, err);
	pcre2_jit_compile(r->keywords_re, PCRE2_JIT_COMPLETE);
	return 0;
}

static const char *default_dir(void)
{
	const char *env = getenv("STABLEMATE_RULES");
	static char buf[4096];

	if (env && *env)
		return env;
	snprintf(buf, sizeof(buf), "%s/keywords.rules", SM_DATADIR);
	if (file_exists(buf))
		return SM_DATADIR;
	return SM_SRCDIR "/rules";
}

int sm_rules_load(struct sm_rules **out, const char *dir)
{
	struct sm_rules *r = xcalloc(1, sizeof(*r));

	if (!dir)
		dir = default_dir();
	r->dir = xstrdup(dir);
	r->t = (struct sm_thresholds){
		.candidate = 60, .maybe = 25, .max_lines = 100, .tiny_lines = 10,
		.stable_tag = 100, .fixes = 50, .fixes_malformed = 30, .tiny = 10, .large = -40,
		.docs_only = -60, .whitespace_only = -60, .comment_only = -50, .device_id = 60,
		.subject_bonus_pct = 50, .manual_only_cap = 59,
	};
	if (for_each_line(r, dir, "thresholds.rules", threshold_line) ||
	    for_each_line(r, dir, "keywords.rules", keyword_line) ||
	    for_each_line(r, dir, "authors.rules", author_line) || compile_keywords(r)) {
		sm_rules_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

void sm_rules_free(struct sm_rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_keywords; i++) {
		free(r->keywords[i].id);
		free(r->keywords[i].pattern);
	}
	free(r->keywords);
	for (size_t i = 0; i < r->nr_authors; i++) {
		free(r->authors[i].role);
		free(r->authors[i].pattern);
		pcre2_code_free(r->authors[i].re);
	}
	free(r->authors);
	pcre2_code_free(r->keywords_re);
	free(r->dir);
	free(r);
}

const char *sm_rules_dir(const struct sm_rules *r)
{
	return r->dir;
}

int sm_rules_candidate_score(const struct sm_rules *r)
{
	return r->t.candidate;
}

int sm_rules_maybe_score(const struct sm_rules *r)
{
	return r->t.maybe;
}
