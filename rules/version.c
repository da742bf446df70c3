#include "rules/version.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_num(const char *s, const char **end, int *out)
{
	long v;
	char *e;

	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtol(s, &e, 10);
	if (v < 0 || v > 100000)
		return -1;
	*out = (int)v;
	*end = e;
	return 0;
}

int sm_version_parse(const char *s, const char **end, struct sm_version *v)
{
	const char *p = s;

	if (*p == 'v' || *p == 'V')
		p++;
	if (parse_num(p, &p, &v->major) || *p != '.')
		return -1;
	p++;
	if (parse_num(p, &p, &v->minor))
		return -1;
	v->patch = -1;
	/* Kernel majors are small; "2024.1" is a date, not a release. */
	if (v->major < 2 || v->major > 20)
		return -1;
	if (*p == '.') {
		if (isdigit((unsigned char)p[1])) {
			p++;
			parse_num(p, &p, &v->patch);
		} else if ((p[1] == 'x' || p[1] == 'y' || p[1] == 'X' || p[1] == 'Y') &&
			   !isalnum((unsigned char)p[2])) {
			p += 2;	/* 4.4.x, 6.1.y: the whole series */
		}
	}
	if (end)
		*end = p;
	return 0;
}

int sm_version_cmp_tree(const struct sm_version *a, const struct sm_version *b)
{
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	return 0;
}

int sm_version_cmp(const struct sm_version *a, const struct sm_version *b)
{
	int c = sm_version_cmp_tree(a, b);

	if (c)
		return c;
	if (a->patch != b->patch)
		return a->patch < b->patch ? -1 : 1;
	return 0;
}

const char *sm_version_str(const struct sm_version *v, char *buf, unsigned size)
{
	if (v->patch >= 0)
		snprintf(buf, size, "%d.%d.%d", v->major, v->minor, v->patch);
	else
		snprintf(buf, size, "%d.%d", v->major, v->minor);
	return buf;
}

int sm_version_from_tag(const char *tag, struct sm_version *v, int *rc)
{
	const char *end;

	if (!strncmp(tag, "refs/tags/", 10))
		tag += 10;
	if (tag[0] != 'v' || sm_version_parse(tag, &end, v))
		return -1;
	*rc = 0;
	if (!*end)
		return 0;
	if (!strncmp(end, "-rc", 3) && isdigit((unsigned char)end[3])) {
		char *e;

		*rc = (int)strtol(end + 3, &e, 10);
		return *e ? -1 : 0;
	}
	return -1;
}

int sm_version_from_release_subject(const char *subject, struct sm_version *v, int *rc)
{
	char tag[40];
	size_t n;

	if (strncmp(subject, "Linux ", 6) || !isdigit((unsigned char)subject[6]))
		return 0;
	n = strlen(subject + 6);
	while (n && isspace((unsigned char)subject[6 + n - 1]))
		n--;
	if (n + 2 > sizeof(tag))
		return 0;
	tag[0] = 'v';
	memcpy(tag + 1, subject + 6, n);
	tag[n + 1] = '\0';
	return !sm_version_from_tag(tag, v, rc);
}
