/* patch_subject: the [PATCH ...] tag grammar of the kernel lists. */
#include "rules/patch_subject.h"
#include "lib/util.h"
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "Re:", "RE:", "Aw:", "Fwd:", "Fw:", with optional "[n]" count. */
static const char *skip_reply_prefix(const char *s, int *is_reply)
{
	static const char *const prefixes[] = { "re:", "aw:", "fwd:", "fw:", "re[", "sv:" };

	for (;;) {
		size_t i;
		int hit = 0;

		s = skip_space(s);
		for (i = 0; i < ARRAY_SIZE(prefixes); i++) {
			size_t n = strlen(prefixes[i]);
			if (!strncasecmp(s, prefixes[i], n)) {
				s += n;
				if (prefixes[i][2] == '[') {
					while (*s && *s != ']')
						s++;
					if (*s)
						s++;
					if (*s == ':')
						s++;
				}
				*is_reply = 1;
				hit = 1;
				break;
			}
		}
		if (!hit)
			return s;
	}
}

/* One tree's version at p: "6.1", "v6.1", "5.10.y", "4.19.123", "6.1-stable";
 * returns the end of it, or NULL. */
static const char *tree_version(const char *p, unsigned *major, unsigned *minor)
{
	int n = 0;

	if (*p == 'v')
		p++;
	if (sscanf(p, "%u.%u%n", major, minor, &n) != 2 || *major < 2 || *major > 20)
		return NULL;
	p += n;
	if (*p == '.') {
		p++;
		if (*p == 'y' || *p == 'Y' || *p == 'x' || *p == 'X')
			p++;
		else
			while (isdigit((unsigned char)*p))
				p++;
	}
	if (*p == '-' && !strncasecmp(p, "-stable", 7))
		p += 7;
	return p;
}

/* "6.1", "5.10.y", "4.19.123"? -> tree "6.1" / "5.10". AUTOSEL's one mail
 * for several trees, "[PATCH AUTOSEL 7.0-6.18]" (newest first), -> the
 * range "6.18-7.0", oldest first as a stable tag's "# 3.10-4.4" is. */
static int parse_tree(const char *tok, char *tree, size_t size)
{
	unsigned a, b, c, d;
	const char *p = tree_version(tok, &a, &b);

	if (!p)
		return 0;
	if (!*p) {
		snprintf(tree, size, "%u.%u", a, b);
		return 1;
	}
	if (*p != '-' || !(p = tree_version(p + 1, &c, &d)) || *p)
		return 0;
	if (a > c || (a == c && b > d))
		snprintf(tree, size, "%u.%u-%u.%u", c, d, a, b);
	else
		snprintf(tree, size, "%u.%u-%u.%u", a, b, c, d);
	return 1;
}

static void parse_token(const char *tok, struct sm_patch_subject *ps)
{
	unsigned a, b;
	int n = 0;

	if (!strcasecmp(tok, "PATCH") || !strcasecmp(tok, "PATCHv") ) {
		ps->is_patch = 1;
	} else if (!strcasecmp(tok, "RFC")) {
		ps->rfc = 1;
	} else if (!strcasecmp(tok, "RESEND")) {
		ps->resend = 1;
	} else if (!strcasecmp(tok, "AUTOSEL")) {
		ps->autosel = 1;
	} else if ((tok[0] == 'v' || tok[0] == 'V') && isdigit((unsigned char)tok[1]) &&
		   sscanf(tok + 1, "%u%n", &a, &n) == 1 && !tok[1 + n]) {
		ps->version = a;
	} else if (!strncasecmp(tok, "PATCHv", 6) && isdigit((unsigned char)tok[6]) &&
		   sscanf(tok + 6, "%u", &a) == 1) {
		ps->is_patch = 1;
		ps->version = a;
	} else if (sscanf(tok, "%u/%u%n", &a, &b, &n) == 2 && !tok[n]) {
		ps->nr = a;
		ps->total = b;
	} else if (!ps->tree[0]) {
		parse_tree(tok, ps->tree, sizeof(ps->tree));
	}
}

/* Parses one [...] group's inside (len bytes); "1 of 3" is handled here. */
static void parse_group(const char *s, size_t len, struct sm_patch_subject *ps)
{
	char buf[256], *tok, *save = NULL, *prev = NULL;

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	for (tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		if (!strcasecmp(tok, "of") && prev) {
			char *next = strtok_r(NULL, " \t,", &save);
			unsigned a, b;

			if (next && sscanf(prev, "%u", &a) == 1 && sscanf(next, "%u", &b) == 1) {
				ps->nr = a;
				ps->total = b;
			}
			prev = NULL;
			continue;
		}
		parse_token(tok, ps);
		prev = tok;
	}
}

/* Does s[0..len) hold word, in any case? */
static int group_holds(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i + n <= len; i++)
		if (!strncasecmp(s + i, word, n))
			return 1;
	return 0;
}

static int group_is_patch_tag(const char *s, size_t len)
{
	/* "[net,v2,1/2]": a counter makes it a patch tag too, but not in
	 * the kernel test robot's "[groeck-staging:hwmon-next 77/79]", which
	 * numbers the commits of a branch it reports on */
	for (size_t i = 1; i + 1 < len; i++)
		if (s[i] == '/' && isdigit((unsigned char)s[i - 1]) &&
		    isdigit((unsigned char)s[i + 1]) && !memchr(s, ':', len))
			return 1;
	return group_holds(s, len, "PATCH") || group_holds(s, len, "RFC");
}

/* A stable notice at s (after any "Re:"): an optional "FAILED: ", then
 * `patch "TITLE" ...` with "V-stable tree" in what follows ("failed to
 * apply to 6.1-stable tree", "has been added to the 6.12-stable tree").
 * TITLE, without a [PATCH] tag of its own, into ps->title; the tree into
 * ps->tree. 1 when s is one. */
static int stable_notice(const char *s, struct sm_patch_subject *ps)
{
	const char *title, *close, *tree, *at;
	size_t n;
	int failed = 0;

	if (!strncasecmp(s, "FAILED:", 7)) {
		s = skip_space(s + 7);
		failed = 1;
	}
	if (strncasecmp(s, "patch \"", 7))
		return 0;
	title = s + 7;
	close = strrchr(title, '"');
	if (!close || !(tree = strstr(close, "-stable tree")))
		return 0;
	while (tree > close + 1 && tree[-1] != ' ')
		tree--;
	for (at = tree; *at && *at != ' ' && at - tree < (ptrdiff_t)sizeof(ps->tree) - 1; at++)
		;
	{
		char version[sizeof(ps->tree)];

		snprintf(version, sizeof(version), "%.*s", (int)(at - tree), tree);
		if (!parse_tree(version, ps->tree, sizeof(ps->tree)))
			return 0;
	}
	if (*title == '[' && (at = strchr(title, ']')) && at < close &&
	    group_is_patch_tag(title + 1, (size_t)(at - title - 1)))
		title = skip_space(at + 1);
	n = (size_t)(close - title);
	if (n >= sizeof(ps->title))
		n = sizeof(ps->title) - 1;
	memcpy(ps->title, title, n);
	ps->title[n] = '\0';
	ps->is_notice = failed || strstr(close, "failed to apply") ? SM_SUBJECT_FAILED : SM_SUBJECT_QUEUED;
	return 1;
}

int sm_patch_subject_parse(const char *subject, struct sm_patch_subject *ps)
{
	const char *s;

	memset(ps, 0, sizeof(*ps));
	ps->version = 1;
	s = skip_reply_prefix(subject ? subject : "", &ps->is_reply);
	if (stable_notice(s, ps)) {
		ps->title_at = (size_t)(s - subject);
		return 0;
	}
	/* Any number of leading [tags]; list tags like [net] are skipped. */
	while (*s == '[') {
		const char *end = strchr(s, ']');

		if (!end)
			break;
		if (group_is_patch_tag(s + 1, end - s - 1)) {
			parse_group(s + 1, end - s - 1, ps);
			/* "[PATCH-next]", "[RFC-PATCH]": no token says PATCH */
			ps->is_patch |= group_holds(s + 1, end - s - 1, "PATCH");
		}
		ps->is_pull |= group_holds(s + 1, end - s - 1, "GIT PULL") ||
			       group_holds(s + 1, end - s - 1, "PULL REQUEST");
		s = end + 1;
		if (*s == ':')	/* "[Patch]: Fix ..." */
			s++;
		/* "Re: [External] Re: [PATCH] x": as many as there are */
		s = skip_reply_prefix(s, &ps->is_reply);
	}
	if ((ps->rfc || ps->total) && !ps->is_patch)
		ps->is_patch = 1;
	ps->is_cover = ps->is_patch && ps->nr == 0 && ps->total > 0;
	ps->title_at = subject ? (size_t)(s - subject) : 0;
	snprintf(ps->title, sizeof(ps->title), "%s", s);
	return ps->is_patch;
}
