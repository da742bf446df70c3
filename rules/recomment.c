/* recomment: lines whose comment changed and whose code did not (see
 * recomment.h). */
#include "rules/recomment.h"
#include <ctype.h>
#include <string.h>

#define FNV_BASIS 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL

/* FNV-1a of the line's bytes, white space left out; *code the same of its
 * code only: block comments within the line and a "//" comment to its end
 * left out too, strings and character constants kept whole. */
static unsigned long long hashes(const char *s, size_t len, unsigned long long *code)
{
	unsigned long long whole = FNV_BASIS, c = FNV_BASIS;
	int comment = 0;
	char quote = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (isspace(ch))
			continue;
		whole = (whole ^ ch) * FNV_PRIME;
		if (comment) {
			if (ch == '*' && i + 1 < len && s[i + 1] == '/') {
				comment = 0;
				whole = (whole ^ '/') * FNV_PRIME;
				i++;
			}
			continue;
		}
		if (!quote && ch == '/' && i + 1 < len && s[i + 1] == '/') {
			for (i++; i < len; i++)
				if (!isspace((unsigned char)s[i]))
					whole = (whole ^ (unsigned char)s[i]) * FNV_PRIME;
			break;
		}
		if (!quote && ch == '/' && i + 1 < len && s[i + 1] == '*') {
			comment = 1;
			whole = (whole ^ '*') * FNV_PRIME;
			i++;
			continue;
		}
		if (quote && ch == '\\' && i + 1 < len) {
			c = (c ^ ch) * FNV_PRIME;
			ch = (unsigned char)s[++i];
			whole = (whole ^ ch) * FNV_PRIME;
		} else if (quote && ch == (unsigned char)quote) {
			quote = 0;
		} else if (!quote && (ch == '"' || ch == '\'')) {
			quote = (char)ch;
		}
		c = (c ^ ch) * FNV_PRIME;
	}
	*code = c;
	return whole;
}

/* A comment may be on the line ("/" then '*' or '/'; one in a string
 * only costs a hash). */
static int may_have_comment(const char *s, size_t len)
{
	const char *end = s + len;

	for (const char *p = s; (p = memchr(p, '/', (size_t)(end - p))) && p + 1 < end; p++)
		if (p[1] == '*' || p[1] == '/')
			return 1;
	return 0;
}

void sm_recomment_removed(struct sm_recomment *rc, const char *s, size_t len)
{
	if (rc->nr >= SM_RECOMMENT_MAX)
		return;
	rc->removed[rc->nr].s = s;
	rc->removed[rc->nr].len = len;
	rc->removed[rc->nr].comment = (unsigned char)may_have_comment(s, len);
	rc->removed[rc->nr].hashed = 0;
	rc->removed[rc->nr].paired = 0;
	rc->any_comment |= rc->removed[rc->nr].comment;
	rc->nr++;
}

int sm_recomment_added(struct sm_recomment *rc, const char *s, size_t len)
{
	unsigned long long code, whole;
	int comment;

	if (!rc->nr)
		return 0;
	comment = may_have_comment(s, len);
	if (!comment && !rc->any_comment)
		return 0;	/* the same code and no comment: the same line */
	whole = hashes(s, len, &code);
	for (unsigned i = 0; i < rc->nr; i++) {
		struct sm_recomment_line *r = &rc->removed[i];

		if (r->paired || (!comment && !r->comment))
			continue;
		if (!r->hashed) {
			r->whole = hashes(r->s, r->len, &r->code);
			r->hashed = 1;
		}
		if (r->code == code && r->whole != whole) {
			r->paired = 1;
			return 1;
		}
	}
	return 0;
}
