#include "lib/json_read.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define REPLACEMENT_CHARACTER 0xfffd	/* U+FFFD */

struct cursor {
	const char *p, *end;
};

static void ws(struct cursor *c)
{
	while (c->p < c->end && isspace((unsigned char)*c->p))
		c->p++;
}

static void put_utf8(struct strbuf *out, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(out, (int)cp);
	} else if (cp < 0x800) {
		strbuf_addch(out, (int)(0xc0 | (cp >> 6)));
		strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		strbuf_addch(out, (int)(0xe0 | (cp >> 12)));
		strbuf_addch(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
	} else {
		strbuf_addch(out, (int)(0xf0 | (cp >> 18)));
		strbuf_addch(out, (int)(0x80 | ((cp >> 12) & 0x3f)));
		strbuf_addch(out, (int)(0x80 | ((cp >> 6) & 0x3f)));
		strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
	}
}

static int hex4(const char *p, const char *end, unsigned *v)
{
	char buf[5];
	char *e;

	if (end - p < 4)
		return -1;
	memcpy(buf, p, 4);
	buf[4] = '\0';
	*v = (unsigned)strtoul(buf, &e, 16);
	return *e ? -1 : 0;
}

/* Skips a string at c->p (the opening quote) the quick way: to the first
 * quote after an even run of backslashes. Exact when no "\\u" is in the
 * way (every other escape is two bytes and valid); else returns 1 and
 * leaves c alone for read_string() to check the \\u escapes. */
static int skip_string_quick(struct cursor *c)
{
	const char *start = c->p + 1, *p = start, *q, *b;

	for (;;) {
		q = memchr(p, '"', (size_t)(c->end - p));
		if (!q)
			return 1;
		for (b = q; b > start && b[-1] == '\\'; b--)
			;
		if (!((q - b) & 1))
			break;
		p = q + 1;
	}
	if (memmem(start, (size_t)(q - start), "\\u", 2))
		return 1;
	c->p = q + 1;
	return 0;
}

/* Reads a string at c->p (the opening quote); out may be NULL to skip.
 * The runs between escapes are copied whole: the next quote and the next
 * backslash are found with memchr, each looked for again only once passed. */
static int read_string(struct cursor *c, struct strbuf *out)
{
	const char *quote, *bs;

	if (c->p >= c->end || *c->p != '"')
		return -1;
	if (!out && !skip_string_quick(c))
		return 0;
	c->p++;
	quote = memchr(c->p, '"', (size_t)(c->end - c->p));
	if (!quote)
		return -1;
	bs = memchr(c->p, '\\', (size_t)(quote - c->p));
	if (out)
		strbuf_grow(out, (size_t)(quote - c->p));
	while (c->p < c->end) {
		char ch;
		unsigned cp, lo;

		if (!bs || bs > quote) {
			/* no escape before the quote: the rest of the string */
			if (out)
				strbuf_add(out, c->p, (size_t)(quote - c->p));
			c->p = quote + 1;
			return 0;
		}
		if (out)
			strbuf_add(out, c->p, (size_t)(bs - c->p));
		c->p = bs + 1;
		if (c->p >= c->end)
			return -1;
		ch = *c->p++;
		switch (ch) {
		case 'n': cp = '\n'; break;
		case 't': cp = '\t'; break;
		case 'r': cp = '\r'; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'u':
			if (hex4(c->p, c->end, &cp))
				return -1;
			c->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && c->end - c->p >= 6 && c->p[0] == '\\' &&
			    c->p[1] == 'u' && !hex4(c->p + 2, c->end, &lo) && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				c->p += 6;
			} else if (!cp || (cp >= 0xd800 && cp < 0xe000)) {
				/* NUL would end the C string early; a lone
				 * surrogate is no character UTF-8 can hold */
				cp = REPLACEMENT_CHARACTER;
			}
			break;
		default: cp = (unsigned char)ch; break;
		}
		if (out)
			put_utf8(out, cp);
		if (c->p > quote) {
			/* the quote was escaped (or inside \uXXXX): the next one */
			quote = c->p < c->end ? memchr(c->p, '"', (size_t)(c->end - c->p)) : NULL;
			if (!quote)
				return -1;
		}
		bs = c->p < quote ? memchr(c->p, '\\', (size_t)(quote - c->p)) : NULL;
	}
	return -1;
}

int json_read_string(const char **pos, const char *end, struct strbuf *out)
{
	struct cursor c = { *pos, end };
	int ret = read_string(&c, out);

	if (!ret)
		*pos = c.p;
	return ret;
}

static int skip_value(struct cursor *c, int depth)
{
	ws(c);
	if (c->p >= c->end || depth > 64)
		return -1;
	if (*c->p == '"')
		return read_string(c, NULL);
	if (*c->p == '{' || *c->p == '[') {
		char close = *c->p == '{' ? '}' : ']';

		c->p++;
		for (;;) {
			ws(c);
			if (c->p < c->end && *c->p == close) {
				c->p++;
				return 0;
			}
			if (close == '}') {
				if (read_string(c, NULL))
					return -1;
				ws(c);
				if (c->p >= c->end || *c->p++ != ':')
					return -1;
			}
			if (skip_value(c, depth + 1))
				return -1;
			ws(c);
			if (c->p < c->end && *c->p == ',')
				c->p++;
			else if (c->p >= c->end || *c->p != close)
				return -1;
		}
	}
	{
		const char *start = c->p;

		while (c->p < c->end && !strchr(",}] \t\r\n", *c->p))
			c->p++;
		return c->p > start ? 0 : -1;	/* no progress: not a value */
	}
}

/* A string value, or an array of strings joined with '\n'. */
static int read_member_value(struct cursor *c, struct strbuf *out)
{
	int first = 1;

	if (c->p < c->end && *c->p == '"')
		return read_string(c, out) ? -1 : 1;
	if (c->p >= c->end || *c->p != '[')
		return skip_value(c, 0) ? -1 : 0;
	c->p++;
	for (;;) {
		ws(c);
		if (c->p < c->end && *c->p == ']') {
			c->p++;
			return 1;
		}
		if (c->p < c->end && *c->p == '"') {
			if (!first)
				strbuf_addch(out, '\n');
			if (read_string(c, out))
				return -1;
			first = 0;
		} else if (skip_value(c, 1)) {
			return -1;
		}
		ws(c);
		if (c->p < c->end && *c->p == ',')
			c->p++;
		else if (c->p >= c->end || *c->p != ']')
			return -1;
	}
}

static int get_members(const char *json, size_t len, const char *const *keys,
		       struct strbuf *const *outs, int *found, size_t n, unsigned raw)
{
	struct cursor c = { json, json + len };
	struct strbuf k = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		found[i] = 0;
	ws(&c);
	if (c.p >= c.end || *c.p++ != '{')
		return -1;
	for (;;) {
		size_t i;

		ws(&c);
		if (c.p < c.end && *c.p == '}')
			break;
		strbuf_reset(&k);
		if (read_string(&c, &k))
			goto bad;
		ws(&c);
		if (c.p >= c.end || *c.p++ != ':')
			goto bad;
		ws(&c);
		for (i = 0; i < n; i++)
			if (!found[i] && !strcmp(k.buf, keys[i]))
				break;
		if (i < n && (raw & (1u << i))) {
			const char *start = c.p;

			if (skip_value(&c, 0))
				goto bad;
			strbuf_add(outs[i], start, (size_t)(c.p - start));
			found[i] = JSON_FOUND;
			ret++;
		} else if (i < n) {
			int rc = read_member_value(&c, outs[i]);

			if (rc < 0)
				goto bad;
			found[i] = rc;
			ret += rc;
		} else if (skip_value(&c, 0)) {
			goto bad;
		}
		ws(&c);
		if (c.p < c.end && *c.p == ',')
			c.p++;
		else if (c.p >= c.end || *c.p != '}')
			goto bad;
	}
	/* the object and white space, nothing after it ('{"a": 1} xyz' is
	 * not one object: a JSONL line holding two would lose the second) */
	c.p++;
	ws(&c);
	if (c.p < c.end)
		goto bad;
	strbuf_release(&k);
	return ret;
bad:
	strbuf_release(&k);
	return -1;
}

int json_get_strings(const char *json, size_t len, const char *const *keys,
		     struct strbuf *const *outs, int *found, size_t n)
{
	return get_members(json, len, keys, outs, found, n, 0);
}

int json_get_members(const char *json, size_t len, const char *const *keys,
		     struct strbuf *const *outs, int *found, size_t n, unsigned raw)
{
	return get_members(json, len, keys, outs, found, n, raw);
}

int json_get_raw(const char *json, size_t len, const char *key, struct strbuf *out)
{
	int found;
	int rc = get_members(json, len, &key, &out, &found, 1, 1);

	return rc < 0 ? -1 : found;
}

int json_get_string(const char *json, size_t len, const char *key, struct strbuf *out)
{
	int found;
	int rc = json_get_strings(json, len, &key, &out, &found, 1);

	return rc < 0 ? -1 : found;
}

int json_array_each(const char *json, size_t len,
		    int (*fn)(void *ctx, size_t i, const char *e, size_t n), void *ctx)
{
	struct cursor c = { json, json + len };

	ws(&c);
	if (c.p >= c.end || *c.p++ != '[')
		return -1;
	for (size_t i = 0;; i++) {
		const char *start;
		int rc;

		ws(&c);
		if (c.p < c.end && *c.p == ']' && !i)
			return 0;
		start = c.p;
		if (skip_value(&c, 1))
			return -1;
		rc = fn(ctx, i, start, (size_t)(c.p - start));
		if (rc)
			return rc;
		ws(&c);
		if (c.p < c.end && *c.p == ']')
			return 0;
		if (c.p >= c.end || *c.p++ != ',')
			return -1;
	}
}

int json_value_end(const char *json, size_t len, size_t *end)
{
	struct cursor c = { json, json + len };

	if (skip_value(&c, 0))
		return -1;
	*end = (size_t)(c.p - json);
	return 0;
}

int json_count(const char *v, size_t len, unsigned long max, unsigned long *out)
{
	unsigned long n = 0;

	if (!len || len > 20)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned long d = (unsigned long)(v[i] - '0');

		/* n * 10 + d > max, asked so that nothing wraps around */
		if (v[i] < '0' || v[i] > '9' || d > max || n > (max - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	*out = n;
	return 0;
}
