/* recomment: lines whose comment changed and whose code did not (see
 * recomment.h). */
#include "rules/recomment.h"
#include "lib/fnv.h"
#include <ctype.h>
#include <string.h>

/* FNV-1a of the line's code, white space, block comments within the line
 * and a "//" comment to its end left out, strings and character constants
 * kept whole (a comment opener in a string is no comment). */
static unsigned long long code_hash(const char *s, size_t len)
{
	unsigned long long c = SM_FNV_BASIS;
	int comment = 0;
	char quote = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (isspace(ch))
			continue;
		if (comment) {
			if (ch == '*' && i + 1 < len && s[i + 1] == '/') {
				comment = 0;
				i++;
			}
			continue;
		}
		if (!quote && ch == '/' && i + 1 < len && s[i + 1] == '/')
			break;
		if (!quote && ch == '/' && i + 1 < len && s[i + 1] == '*') {
			comment = 1;
			i++;
			continue;
		}
		if (quote && ch == '\\' && i + 1 < len) {
			c = sm_fnv_byte(c, ch);
			ch = (unsigned char)s[++i];
		} else if (quote && ch == (unsigned char)quote) {
			quote = 0;
		} else if (!quote && (ch == '"' || ch == '\'')) {
			quote = (char)ch;
		}
		c = sm_fnv_byte(c, ch);
	}
	return c;
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

void sm_recomment_removed(struct sm_recomment *rc, const char *s, size_t len,
			  unsigned long long whole)
{
	if (rc->nr >= SM_RECOMMENT_MAX)
		return;
	rc->removed[rc->nr].s = s;
	rc->removed[rc->nr].len = len;
	rc->removed[rc->nr].whole = whole;
	rc->removed[rc->nr].comment = (unsigned char)may_have_comment(s, len);
	rc->removed[rc->nr].hashed = 0;
	rc->removed[rc->nr].paired = 0;
	rc->any_comment |= rc->removed[rc->nr].comment;
	rc->nr++;
}

int sm_recomment_added(struct sm_recomment *rc, const char *s, size_t len,
		       unsigned long long whole)
{
	unsigned long long code;
	int comment;

	if (!rc->nr)
		return 0;
	comment = may_have_comment(s, len);
	if (!comment && !rc->any_comment)
		return 0;	/* the same code and no comment: the same line */
	code = code_hash(s, len);
	for (unsigned i = 0; i < rc->nr; i++) {
		struct sm_recomment_line *r = &rc->removed[i];

		if (r->paired || (!comment && !r->comment))
			continue;
		if (!r->hashed) {
			r->code = code_hash(r->s, r->len);
			r->hashed = 1;
		}
		if (r->code == code && r->whole != whole) {
			r->paired = 1;
			return 1;
		}
	}
	return 0;
}
