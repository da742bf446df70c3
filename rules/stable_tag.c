/* stable_tag: the "Cc: stable@vger.kernel.org # <spec>" tag in all the
 * forms seen in the wild, turned into a version range, prerequisites and
 * conditions. A spec we cannot read is SM_STABLE_UNPARSED, never "all". */
#include "rules/commit.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *skip_ws(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* Finds "stable[+word]@[vger.]kernel.org" in s (any case). Sets *addr_end
 * past it and *noautosel; returns the start, or NULL. */
static const char *find_stable_address(const char *s, const char **addr_end, int *noautosel)
{
	for (const char *p = s; (p = strcasestr(p, "stable")); p += 6) {
		const char *q = p + 6, *plus = NULL;

		if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '-' || p[-1] == '.'))
			continue;
		if (*q == '+') {
			plus = ++q;
			while (isalnum((unsigned char)*q) || *q == '-')
				q++;
		}
		if (*q != '@')
			continue;
		q++;
		if (!strncasecmp(q, "vger.", 5))
			q += 5;
		if (strncasecmp(q, "kernel.org", 10))
			continue;
		q += 10;
		if (isalnum((unsigned char)*q) || ((*q == '.' || *q == '-') && isalnum((unsigned char)q[1])))
			continue;	/* stable@vger.kernel.org.example.com is not ours */
		*noautosel = plus && !strncasecmp(plus, "noautosel", 9);
		*addr_end = q;
		return p;
	}
	return NULL;
}

/* Words people put around a version that change nothing. */
static const char *skip_filler(const char *s)
{
	static const char *const fillers[] = {
		"for ", "kernels ", "kernel ", "linux ", "stable ", "versions ", "version ",
		"v ", "since ", "from ",
	};
	int again = 1;

	while (again) {
		again = 0;
		s = skip_ws(s);
		for (size_t i = 0; i < ARRAY_SIZE(fillers); i++) {
			if (!strncasecmp(s, fillers[i], strlen(fillers[i]))) {
				/* "from"/"since" mean "and later": the caller keeps FROM. */
				s += strlen(fillers[i]);
				again = 1;
			}
		}
	}
	return s;
}

static int word_at(const char *s, const char *w)
{
	size_t n = strlen(w);

	return !strncasecmp(s, w, n) && !isalnum((unsigned char)s[n]);
}

/* Text after a version that still means "this and later". */
static const char *skip_later_words(const char *s)
{
	static const char *const later[] = {
		"and later", "and newer", "and up", "and above", "and onwards", "onwards",
		"or later", "or newer", "or above", "and all later", "and higher", "+",
		"and later kernels", "and newer kernels",
	};
	const char *p = skip_ws(s);

	for (size_t i = 0; i < ARRAY_SIZE(later); i++)
		if (!strncasecmp(p, later[i], strlen(later[i])))
			return p + strlen(later[i]);
	return s;
}

static int has_version_digits(const char *s)
{
	for (; *s; s++)
		if (isdigit((unsigned char)*s) && s[1] == '.' && isdigit((unsigned char)s[2]))
			return 1;
	return 0;
}

static int parse_hex_run(const char *s, size_t *len)
{
	size_t n = 0;

	while (isxdigit((unsigned char)s[n]))
		n++;
	if (n < 7 || n > 40 || isalnum((unsigned char)s[n]))
		return 0;
	*len = n;
	return 1;
}

static void set_condition(struct sm_stable_tag *t, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, s);
	strbuf_trim(&sb);
	while (sb.len && strchr("-,;:.()", sb.buf[0])) {
		memmove(sb.buf, sb.buf + 1, sb.len);
		sb.len--;
		strbuf_trim(&sb);
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return;
	}
	free(t->condition);
	t->condition = strbuf_detach(&sb, NULL);
}

/* Reads "needs adjustments for <= 6.3" (and "for 6.3 and older"). */
static void parse_adjustment(struct sm_stable_tag *t, const char *c)
{
	const char *p = strcasestr(c, "adjust");
	const char *e;

	if (!p)
		p = strcasestr(c, "backport");
	if (!p)
		return;
	for (; *p; p++) {
		if (isdigit((unsigned char)*p) && !sm_version_parse(p, &e, &t->adjust_upto))
			return;
	}
}

/* The version part of a comment; returns 0 if understood. */
static int parse_spec(struct sm_stable_tag *t, const char *spec)
{
	const char *s = skip_filler(spec), *e;
	struct sm_version v, w;
	int upto = 0, only = 0, lt = 0;

	if (!strncmp(s, "<=", 2)) {
		upto = 1;
		s += 2;
	} else if (*s == '<') {
		upto = lt = 1;
		s++;
	} else if (!strncmp(s, ">=", 2)) {
		s += 2;
	} else if (word_at(s, "up to") || word_at(s, "until")) {
		upto = 1;
		s += 5;	/* "up to" and "until" are both five letters */
	} else if (word_at(s, "only")) {
		only = 1;
		s += 4;
	}
	s = skip_filler(s);
	if (sm_version_parse(s, &e, &v))
		return -1;
	s = e;
	if (upto) {
		if (lt) {
			if (v.minor > 0)
				v.minor--;
			else
				v.major--, v.minor = 99;
		}
		t->kind = SM_STABLE_UPTO;
		t->to = v;
		set_condition(t, s);
		return has_version_digits(s) ? -1 : 0;
	}
	if (only) {
		t->kind = SM_STABLE_ONLY;
		t->from = t->to = v;
		set_condition(t, s);
		return has_version_digits(s) ? -1 : 0;
	}
	t->from = v;
	/* A range: "3.10-4.4", "v4.1..v4.4", "4.1 to 4.4", "4.1 - 4.4.x". */
	{
		const char *r = skip_ws(s);
		int sep = 0;

		if (!strncmp(r, "..", 2))
			r += 2, sep = 1;
		else if (*r == '-')
			r++, sep = 1;
		else if (word_at(r, "to") || word_at(r, "through"))
			r += word_at(r, "to") ? 2 : 7, sep = 1;
		if (sep) {
			r = skip_ws(r);
			if (!sm_version_parse(r, &e, &w)) {
				if (sm_version_cmp_tree(&w, &v) < 0)
					return -1;
				t->kind = SM_STABLE_RANGE;
				t->to = w;
				set_condition(t, e);
				return has_version_digits(e) ? -1 : 0;
			}
			/* "5.10-" alone means 5.10 and later. */
		}
	}
	{
		const char *r = skip_ws(s);

		if (word_at(r, "only")) {
			t->kind = SM_STABLE_ONLY;
			t->to = v;
			set_condition(t, r + 4);
			return has_version_digits(r + 4) ? -1 : 0;
		}
		if (word_at(r, "and older") || word_at(r, "and earlier") || word_at(r, "or older") ||
		    word_at(r, "and below") || word_at(r, "and lower")) {
			t->kind = SM_STABLE_UPTO;
			t->from.major = 0;
			t->to = v;
			return 0;
		}
	}
	s = skip_later_words(s);
	t->kind = SM_STABLE_FROM;
	/* A list "4.14.x, 4.19.x, 5.4.x" (or "and"/"/"): from the earliest. */
	for (;;) {
		const char *r = skip_ws(s);

		if (*r == ',' || *r == '/' || *r == '&')
			r++;
		else if (word_at(r, "and"))
			r += 3;
		else
			break;
		r = skip_filler(r);
		if (sm_version_parse(r, &e, &w))
			break;
		if (sm_version_cmp_tree(&w, &t->from) < 0)
			t->from = w;
		s = skip_later_words(e);
	}
	if (*s && !isspace((unsigned char)*s) && !strchr(",;:-()[]#", *s))
		return -1;	/* "4.4foo": glued text we do not understand */
	set_condition(t, s);
	return has_version_digits(s) ? -1 : 0;
}

/* The prerequisite at sha (hexlen digits), then an optional ": subject". */
static void set_prereq(struct sm_stable_tag *t, const char *sha, size_t hexlen)
{
	const char *subj = skip_ws(sha + hexlen);

	t->prereq_sha = xstrndup(sha, hexlen);
	if (*subj == ':')
		subj = skip_ws(subj + 1);
	if (*subj)
		t->prereq_subject = xstrdup(subj);
}

/* How many versions ("5.15", "v4.19.y") s names. */
static unsigned count_versions(const char *s)
{
	unsigned n = 0;

	for (const char *p = s; *p; p++)
		if (isdigit((unsigned char)p[0]) && p[1] == '.' && isdigit((unsigned char)p[2]) &&
		    (p == s || (!isdigit((unsigned char)p[-1]) && p[-1] != '.')))
			n++;
	return n;
}

/* A lower bound inside a sentence: "this is needed only for BTF so
 * kernels >= 5.15". Read only when the text names one version, says it is
 * the first (">=", "since", "from" before it, "+" or "and later" after
 * it) and does not deny it ("not for 5.15+"). An upper bound in a
 * sentence is most often about a backport's adjustments ("older trees up
 * to 5.10 need the old name"), not where the fix goes: it stays unparsed,
 * for a person to read, as does any other sentence. The whole sentence is
 * kept as the note. 0 when understood. */
static int parse_spec_in_prose(struct sm_stable_tag *t, const char *c)
{
	static const char *const before[] = { ">=", "since ", "from " };

	if (count_versions(c) != 1 || strcasestr(c, "not ") || strcasestr(c, "n't "))
		return -1;
	for (const char *p = c; *p; p++) {
		int bound = 0;

		if (p > c && isalnum((unsigned char)p[-1]))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(before) && !bound; i++)
			bound = !strncasecmp(p, before[i], strlen(before[i]));
		if (!bound && (isdigit((unsigned char)*p) || (tolower((unsigned char)*p) == 'v' &&
							      isdigit((unsigned char)p[1])))) {
			struct sm_version v;
			const char *e;

			bound = !sm_version_parse(p, &e, &v) && skip_later_words(e) != e;
		}
		if (bound && !parse_spec(t, p) && t->kind == SM_STABLE_FROM) {
			set_condition(t, c);
			return 0;
		}
	}
	return -1;
}

static void parse_comment(struct sm_stable_tag *t, const char *comment)
{
	const char *c = skip_ws(comment), *colon;
	size_t hexlen;
	struct strbuf spec = STRBUF_INIT;

	t->kind = SM_STABLE_ALL;
	if (!*c)
		return;
	parse_adjustment(t, c);
	if (word_at(c, "after") || word_at(c, "wait") || word_at(c, "delay")) {
		set_condition(t, c);
		return;
	}
	/* Prerequisite: "4.9.x: a1f84a3: subject" or "a1f84a3: subject". */
	colon = strchr(c, ':');
	if (parse_hex_run(c, &hexlen) && (!c[hexlen] || c[hexlen] == ':' || isspace((unsigned char)c[hexlen]))) {
		set_prereq(t, c, hexlen);
		return;
	}
	if (colon) {
		const char *after = skip_ws(colon + 1);

		if (parse_hex_run(after, &hexlen)) {
			set_prereq(t, after, hexlen);
			strbuf_add(&spec, c, (size_t)(colon - c));
			if (parse_spec(t, spec.buf))
				t->kind = SM_STABLE_UNPARSED;
			strbuf_release(&spec);
			return;
		}
	}
	if (!has_version_digits(c)) {
		/* Free text with no version in it ("see patch description"): a
		 * note for the maintainer, not a version restriction. */
		set_condition(t, c);
		return;
	}
	/* The spec may follow free text: "see patch description, needs
	 * adjustments for <= 6.3" is all trees, with a note. */
	if (t->adjust_upto.major) {
		set_condition(t, c);
		return;
	}
	if (parse_spec(t, c) && parse_spec_in_prose(t, c))
		t->kind = SM_STABLE_UNPARSED;
}

int sm_stable_tag_parse(const char *line, struct sm_stable_tag *t)
{
	const char *s = skip_ws(line), *addr, *end, *rest;
	struct strbuf comment = STRBUF_INIT;
	int noautosel = 0;

	memset(t, 0, sizeof(*t));
	if (strncasecmp(s, "cc", 2))
		return 0;
	s = skip_ws(s + 2);
	if (*s != ':')
		return 0;
	addr = find_stable_address(s + 1, &end, &noautosel);
	if (!addr)
		return 0;
	/* Only the stable address on the line counts, not "foo-stable@". */
	t->line = xstrdup(skip_ws(line));
	t->address = xstrndup(addr, (size_t)(end - addr));
	str_to_lower(t->address);
	t->noautosel = noautosel;
	rest = end;
	while (*rest == '>' || *rest == '"' || *rest == '\'')
		rest++;
	rest = skip_ws(rest);
	if (*rest == ',' && strchr(rest, '@'))
		rest = "";	/* more addresses follow, no comment */
	if (*rest == '#') {
		while (*rest == '#')
			rest++;
		strbuf_addstr(&comment, rest);
	} else if (*rest == '[') {
		const char *close = strchr(rest, ']');

		strbuf_add(&comment, rest + 1, close ? (size_t)(close - rest - 1) : strlen(rest + 1));
		if (close && *skip_ws(close + 1)) {
			strbuf_addch(&comment, ' ');
			strbuf_addstr(&comment, skip_ws(close + 1));
		}
	} else {
		strbuf_addstr(&comment, rest);
	}
	strbuf_trim(&comment);
	/* "[3.4+]" inside a '#' comment too */
	if (comment.len > 1 && comment.buf[0] == '[' && comment.buf[comment.len - 1] == ']') {
		memmove(comment.buf, comment.buf + 1, comment.len - 2);
		strbuf_setlen(&comment, comment.len - 2);
		strbuf_trim(&comment);
	}
	while (comment.len && strchr(".,;", comment.buf[comment.len - 1]))
		strbuf_setlen(&comment, comment.len - 1);
	t->comment = strbuf_detach(&comment, NULL);
	parse_comment(t, t->comment);
	return 1;
}

void sm_stable_tag_release(struct sm_stable_tag *t)
{
	FREE_ALL(t->line, t->address, t->prereq_sha, t->prereq_subject, t->condition,
		 t->comment);
	memset(t, 0, sizeof(*t));
}

const char *sm_stable_kind_name(enum sm_stable_kind kind)
{
	static const char *const names[] = {
		[SM_STABLE_ALL] = "all", [SM_STABLE_FROM] = "from", [SM_STABLE_RANGE] = "range",
		[SM_STABLE_UPTO] = "upto", [SM_STABLE_ONLY] = "only", [SM_STABLE_UNPARSED] = "unparsed",
	};

	return (unsigned)kind < ARRAY_SIZE(names) ? names[kind] : "unparsed";
}

int sm_stable_tag_wants(const struct sm_stable_tag *t, const struct sm_version *tree)
{
	switch (t->kind) {
	case SM_STABLE_ALL:
		return 1;
	case SM_STABLE_FROM:
		return sm_version_cmp_tree(tree, &t->from) >= 0;
	case SM_STABLE_RANGE:
		return sm_version_cmp_tree(tree, &t->from) >= 0 &&
		       sm_version_cmp_tree(tree, &t->to) <= 0;
	case SM_STABLE_UPTO:
		return sm_version_cmp_tree(tree, &t->to) <= 0;
	case SM_STABLE_ONLY:
		return sm_version_cmp_tree(tree, &t->to) == 0;
	case SM_STABLE_UNPARSED:
		break;
	}
	return -1;
}

const char *sm_stable_tag_trees(const struct sm_stable_tag *t, char *buf, size_t size)
{
	char a[32], b[32];

	switch (t->kind) {
	case SM_STABLE_ALL:
		snprintf(buf, size, "all trees");
		break;
	case SM_STABLE_FROM:
		snprintf(buf, size, "%s and later", sm_version_str(&t->from, a, sizeof(a)));
		break;
	case SM_STABLE_RANGE:
		snprintf(buf, size, "%s to %s", sm_version_str(&t->from, a, sizeof(a)),
			 sm_version_str(&t->to, b, sizeof(b)));
		break;
	case SM_STABLE_UPTO:
		snprintf(buf, size, "%s and older", sm_version_str(&t->to, a, sizeof(a)));
		break;
	case SM_STABLE_ONLY:
		snprintf(buf, size, "%s only", sm_version_str(&t->to, a, sizeof(a)));
		break;
	case SM_STABLE_UNPARSED:
		snprintf(buf, size, "unreadable version spec");
		break;
	}
	return buf;
}
