/* rules_load: reads keywords.rules, authors.rules and thresholds.rules.
 * Every line is "weight  name  pattern" / "weight  role  pattern" /
 * "name  value"; '#' starts a comment line. Errors name file and line. */
#include "rules/rules_load.h"
#include "rules/model.h"
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
	for (char *line = sb.buf + utf8_bom_len(sb.buf, sb.len), *nl; line && *line; line = nl) {
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

/* A pattern that can match the empty string matches every message (or
 * everyone): in a rules file that is a slip ("leak|"), never a rule. */
static int matches_empty(const pcre2_code *re)
{
	uint32_t empty = 0;

	return !pcre2_pattern_info(re, PCRE2_INFO_MATCHEMPTY, &empty) && empty;
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
	{
		int err;
		PCRE2_SIZE off;
		char *anchored;
		PCRE2_UCHAR msg[256];
		/* Byte mode: keywords are ASCII, and mail may hold any bytes. */
		const uint32_t opts = PCRE2_CASELESS | PCRE2_ANCHORED;

		/* The pattern as written first, so that an error's offset is
		 * where the maintainer wrote it (the wrapping below moves it, and
		 * can pair a stray ")" with its own "(?:"). What fails only
		 * wrapped (an unclosed \Q or a (?x) comment swallowing the
		 * wrapper's ")") is reported without an offset. */
		k->re = pcre2_compile((PCRE2_SPTR)line, PCRE2_ZERO_TERMINATED, opts, &err, &off, NULL);
		if (!k->re) {
			pcre2_get_error_message(err, msg, sizeof(msg));
			return sm_error("%s:%u: bad pattern at offset %zu: %s", file, lineno,
					(size_t)off, (char *)msg);
		}
		pcre2_code_free(k->re);
		anchored = xasprintf("(?:%s)(?!\\w)", line);
		k->re = pcre2_compile((PCRE2_SPTR)anchored, PCRE2_ZERO_TERMINATED, opts, &err, &off, NULL);
		free(anchored);
		if (!k->re) {
			pcre2_get_error_message(err, msg, sizeof(msg));
			return sm_error("%s:%u: bad pattern once wrapped as (?:...)(?!\\w) for whole "
					"words: %s", file, lineno, (char *)msg);
		}
		if (matches_empty(k->re))
			return sm_error("%s:%u: pattern \"%s\" can match the empty string, so it "
					"would match every message", file, lineno, line);
		pcre2_jit_compile(k->re, PCRE2_JIT_COMPLETE | PCRE2_JIT_PARTIAL_HARD);
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
	if (matches_empty(a->re))
		return sm_error("%s:%u: pattern \"%s\" can match the empty string, so it would "
				"match everyone", file, lineno, line);
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
		T("docs-only", docs_only), T("device-id", device_id),
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

/* Can rule k match text that begins with subj[0..n)? Partial matching
 * answers it exactly: a full or partial match of the short subject. */
static int can_start(const struct sm_keyword_rule *k, const unsigned char *subj, size_t n,
		     pcre2_match_data *md)
{
	int rc = pcre2_match(k->re, subj, n, 0, PCRE2_PARTIAL_HARD, md, NULL);

	return rc >= 0 || rc == PCRE2_ERROR_PARTIAL;
}

/* Appends a 0-terminated list of rules (stored as index + 1) to
 * start_rules and returns where it starts; 0 is the empty list. */
static unsigned short add_start_list(struct sm_rules *r, const unsigned short *rules, size_t n)
{
	size_t at;

	if (!n)
		return 0;
	if (!r->nr_start_rules) {
		ALLOC_GROW(r->start_rules, r->nr_start_rules, r->alloc_start_rules);
		r->start_rules[r->nr_start_rules++] = 0;
	}
	at = r->nr_start_rules;
	for (size_t i = 0; i <= n; i++) {
		ALLOC_GROW(r->start_rules, r->nr_start_rules, r->alloc_start_rules);
		r->start_rules[r->nr_start_rules++] = i < n ? (unsigned short)(rules[i] + 1) : 0;
	}
	return (unsigned short)at;
}

/* For a pair a, b that several rules can begin, the list for each
 * following ASCII byte c (the probe "abc"). */
static void narrow_by_third_byte(struct sm_rules *r, const unsigned char *ab,
				 const unsigned short *rules, size_t n, pcre2_match_data *md)
{
	unsigned short *list = xcalloc(n + 1, sizeof(*list));
	size_t row;

	if (!r->nr_third)
		r->nr_third = 1;	/* row 0 means "no third-byte table" */
	row = r->nr_third++;
	r->third = xrealloc(r->third, r->nr_third * sizeof(*r->third));
	memset(r->third[row], 0, sizeof(r->third[row]));
	for (int c = 0; c < 128; c++) {
		unsigned char s3[3] = { ab[0], ab[1], (unsigned char)c };
		size_t nl = 0;

		if (c == 0 || (c >= 'A' && c <= 'Z'))
			continue;
		for (size_t i = 0; i < n; i++)
			if (can_start(&r->keywords[rules[i]], s3, 3, md))
				list[nl++] = rules[i];
		r->third[row][c] = add_start_list(r, list, nl);
	}
	r->starts3[ab[0]][ab[1]] = (unsigned short)row;
	free(list);
}

/* Builds the start table: first the rules each printable byte can begin,
 * then, among those only, the rules each pair of bytes can begin.
 * Every ASCII byte but NUL is probed (tabs and newlines are frequent);
 * NUL and bytes >= 128 alone (start1), and a pair whose second byte is
 * one of them takes its first byte's list. */
static int compute_start_table(struct sm_rules *r)
{
	pcre2_match_data *md;
	unsigned short *first, *pair;

	if (r->nr_keywords > SM_MAX_KEYWORD_RULES)
		return sm_error("%s/keywords.rules: more than %d rules", r->dir,
				SM_MAX_KEYWORD_RULES);
	md = pcre2_match_data_create(1, NULL);
	first = xcalloc(r->nr_keywords + 1, sizeof(*first));
	pair = xcalloc(r->nr_keywords + 1, sizeof(*pair));
	memset(r->starts, 0, sizeof(r->starts));
	memset(r->starts3, 0, sizeof(r->starts3));
	for (int c = 0; c < 256; c++) {
		r->word_byte[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				  (c >= '0' && c <= '9') || c == '_';
		r->lower[c] = (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	memset(r->start1, 0, sizeof(r->start1));
	for (int a = 0; a < 256; a++) {
		unsigned char s1 = (unsigned char)a;
		size_t nf = 0;

		if (a > 0 && a < 128)
			continue;	/* the loop below */
		for (size_t k = 0; k < r->nr_keywords; k++)
			if (can_start(&r->keywords[k], &s1, 1, md))
				first[nf++] = (unsigned short)k;
		r->start1[a] = add_start_list(r, first, nf);
	}
	for (int a = 1; a < 128; a++) {
		unsigned char s1 = (unsigned char)a;
		size_t nf = 0;

		if (a >= 'A' && a <= 'Z')
			continue;	/* caseless: the lower-case row serves */
		for (size_t k = 0; k < r->nr_keywords; k++)
			if (can_start(&r->keywords[k], &s1, 1, md))
				first[nf++] = (unsigned short)k;
		if (!nf)
			continue;
		for (int b = 1; b < 128; b++) {
			unsigned char s2[2] = { s1, (unsigned char)b };
			size_t np = 0;

			if (b >= 'A' && b <= 'Z')
				continue;
			for (size_t i = 0; i < nf; i++)
				if (can_start(&r->keywords[first[i]], s2, 2, md))
					pair[np++] = first[i];
			r->starts[a][b] = add_start_list(r, pair, np);
			/* a word's next bytes are the word cache's to weigh;
			 * punctuation ("===" of a KASAN report) has none */
			if (np > 1 || (np && !r->word_byte[a]))
				narrow_by_third_byte(r, s2, pair, np, md);
		}
		/* where the next byte narrows nothing: the end of the text,
		 * NUL or >= 128 (starts[a][0] stays empty: rules_at() asks
		 * start1 for those) */
		r->start1[a] = add_start_list(r, first, nf);
	}
	for (int a = 'A'; a <= 'Z'; a++)
		r->start1[a] = r->start1[a + 32];
	for (int c = 0; c < 256; c++)
		r->scan_class[c] = (unsigned char)((r->word_byte[c] ? SM_SCAN_WORD : 0) |
						   (r->start1[c] ? SM_SCAN_START : 0));
	free(first);
	free(pair);
	pcre2_match_data_free(md);
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

/* Settings that each parse but cannot go together. */
static int check_thresholds(const struct sm_rules *r)
{
	if (r->t.maybe > r->t.candidate)
		return sm_error("%s/thresholds.rules: maybe %d is above candidate %d, so no commit "
				"could be maybe", r->dir, r->t.maybe, r->t.candidate);
	return 0;
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
		.docs_only = -60, .device_id = 60,
		.subject_bonus_pct = 50, .manual_only_cap = 59,
	};
	static _Atomic unsigned long serial;

	if (for_each_line(r, dir, "thresholds.rules", threshold_line) || check_thresholds(r) ||
	    for_each_line(r, dir, "keywords.rules", keyword_line) ||
	    for_each_line(r, dir, "authors.rules", author_line) || compute_start_table(r)) {
		sm_rules_free(r);
		return -1;
	}
	r->serial = ++serial;
	r->word_cache = 1;
	for (size_t i = 0; i < r->nr_keywords; i++)
		if (strstr(r->keywords[i].pattern, "(?<"))
			r->word_cache = 0;
	{
		/* model.rules is optional: without it the hand weights decide. */
		char *path = xasprintf("%s/model.rules", dir);
		int rc = sm_model_load(&r->model, path);

		free(path);
		if (rc < 0) {
			sm_rules_free(r);
			return -1;
		}
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
		pcre2_code_free(r->keywords[i].re);
	}
	free(r->keywords);
	for (size_t i = 0; i < r->nr_authors; i++) {
		free(r->authors[i].role);
		free(r->authors[i].pattern);
		pcre2_code_free(r->authors[i].re);
	}
	FREE_ALL(r->authors, r->start_rules, r->third);
	sm_model_free(r->model);
	free(r->dir);
	free(r);
}

const char *sm_rules_dir(const struct sm_rules *r)
{
	return r->dir;
}

int sm_rules_candidate_score(const struct sm_rules *r)
{
	return r->model ? r->model->candidate : r->t.candidate;
}

int sm_rules_maybe_score(const struct sm_rules *r)
{
	return r->model ? r->model->maybe : r->t.maybe;
}

int sm_rules_promote_weight(const struct sm_rules *r)
{
	if (r->model)
		return r->model->candidate > r->model->maybe ? r->model->candidate - r->model->maybe : 1;
	return r->t.candidate;
}
