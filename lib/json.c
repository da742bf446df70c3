#include "lib/json.h"
#include "lib/util.h"
#include <assert.h>
#include <string.h>

void json_init(struct json_writer *w, struct strbuf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

/* Length of the valid UTF-8 sequence at s, or 0 if it is not valid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2)
		n = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3;
	else if ((s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* The bytes json_quote() copies as they are: printable ASCII but '"'
 * (0x22) and '\\' (0x5c). */
#define P4(c) [c] = 1, [c + 1] = 1, [c + 2] = 1, [c + 3] = 1
#define P16(c) P4(c), P4(c + 4), P4(c + 8), P4(c + 12)
static const unsigned char plain[256] = {
	[0x20] = 1, [0x21] = 1, [0x23] = 1, P4(0x24), P4(0x28), P4(0x2c),
	P16(0x30), P16(0x40), P4(0x50), P4(0x54), P4(0x58), [0x5d] = 1, [0x5e] = 1, [0x5f] = 1,
	P16(0x60), P4(0x70), P4(0x74), P4(0x78), [0x7c] = 1, [0x7d] = 1, [0x7e] = 1,
};
#undef P16
#undef P4

void json_quote(struct strbuf *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	strbuf_grow(out, len + 2);
	/* Most strings (keys, ids, codes, most texts) need no escape: one
	 * copy into the room just grown. */
	while (i < len && plain[s[i]])
		i++;
	if (i == len) {
		char *p = out->buf + out->len;

		p[0] = '"';
		if (len)
			memcpy(p + 1, str, len);
		p[len + 1] = '"';
		strbuf_setlen(out, out->len + len + 2);
		return;
	}
	strbuf_addch(out, '"');
	strbuf_add(out, s, i);
	while (i < len) {
		unsigned char c = s[i];
		size_t n, run = i;

		/* Plain ASCII goes in runs, not byte by byte. */
		while (run < len && plain[s[run]])
			run++;
		if (run > i) {
			strbuf_add(out, s + i, run - i);
			i = run;
			continue;
		}
		switch (c) {
		case '"': strbuf_addstr(out, "\\\""); i++; continue;
		case '\\': strbuf_addstr(out, "\\\\"); i++; continue;
		case '\n': strbuf_addstr(out, "\\n"); i++; continue;
		case '\r': strbuf_addstr(out, "\\r"); i++; continue;
		case '\t': strbuf_addstr(out, "\\t"); i++; continue;
		default: break;
		}
		/* every terminal control escaped, DEL and C1 too (JSON would
		 * allow them raw): JSON printed on a terminal starts no
		 * sequence (cli/terminal.h) */
		if ((n = control_char_len((const char *)s + i, len - i))) {
			strbuf_addf(out, "\\u%04x", n == 1 ? c : s[i + 1]);
			i += n;
			continue;
		}
		n = utf8_len(s + i, len - i);
		if (!n) {
			strbuf_addstr(out, "\\ufffd");
			i++;
			continue;
		}
		strbuf_add(out, s + i, n);
		i += n;
	}
	strbuf_addch(out, '"');
}

void json_stream_to(struct json_writer *w, FILE *f)
{
	w->sink = f;
}

static void json_key_len(struct json_writer *w, const char *key, size_t len)
{
	if (w->sink && w->out->len >= JSON_STREAM_CHUNK) {
		fwrite(w->out->buf, 1, w->out->len, w->sink);
		strbuf_reset(w->out);
	}
	if (w->need_comma[w->depth])
		strbuf_addch(w->out, ',');
	w->need_comma[w->depth] = 1;
	if (key) {
		json_quote(w->out, key, len);
		strbuf_addch(w->out, ':');
	}
}

static void json_key(struct json_writer *w, const char *key)
{
	json_key_len(w, key, key ? strlen(key) : 0);
}

/* The next of the space-separated keys at *keys: its length, *keys moved past it. */
static size_t next_key(const char **keys, const char **key)
{
	const char *p = *keys, *e;

	while (*p == ' ')
		p++;
	for (e = p; *e && *e != ' '; e++)
		;
	assert(e > p);	/* fewer keys than values */
	*key = p;
	*keys = e;
	return e - p;
}

static void keys_done(const char *keys)
{
	while (*keys == ' ')
		keys++;
	assert(!*keys);	/* more keys than values */
}

static void json_open(struct json_writer *w, const char *key, char c)
{
	json_key(w, key);
	strbuf_addch(w->out, c);
	if (w->depth < (int)sizeof(w->need_comma) - 1)
		w->depth++;
	w->need_comma[w->depth] = 0;
}

static void json_close(struct json_writer *w, char c)
{
	if (w->depth > 0)
		w->depth--;
	strbuf_addch(w->out, c);
}

void json_object_begin(struct json_writer *w, const char *key) { json_open(w, key, '{'); }
void json_object_end(struct json_writer *w) { json_close(w, '}'); }
void json_array_begin(struct json_writer *w, const char *key) { json_open(w, key, '['); }
void json_array_end(struct json_writer *w) { json_close(w, ']'); }

void json_string_len(struct json_writer *w, const char *key, const char *value, size_t len)
{
	json_key(w, key);
	json_quote(w->out, value, len);
}

void json_string(struct json_writer *w, const char *key, const char *value)
{
	if (!value) {
		json_null(w, key);
		return;
	}
	json_string_len(w, key, value, strlen(value));
}

void json_strlist(struct json_writer *w, const char *key, const struct strlist *list)
{
	json_array_begin(w, key);
	for (size_t i = 0; i < list->nr; i++)
		json_string(w, NULL, list->items[i]);
	json_array_end(w);
}

/* Appends what "%lld" prints, without printf's cost (one per reason weight). */
static void add_int(struct strbuf *out, long long value)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long long u = value < 0 ? 0ULL - (unsigned long long)value : (unsigned long long)value;

	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (value < 0)
		*--p = '-';
	strbuf_add(out, p, (size_t)(buf + sizeof(buf) - p));
}

void json_int(struct json_writer *w, const char *key, long long value)
{
	json_key(w, key);
	add_int(w->out, value);
}

void json_ints(struct json_writer *w, const char *keys, const long long *values, size_t n)
{
	const char *key;

	for (size_t i = 0; i < n; i++) {
		size_t len = next_key(&keys, &key);

		json_key_len(w, key, len);
		add_int(w->out, values[i]);
	}
	keys_done(keys);
}

void json_strings(struct json_writer *w, const char *keys, const char *const *values, size_t n)
{
	const char *key;

	for (size_t i = 0; i < n; i++) {
		size_t len = next_key(&keys, &key);

		json_key_len(w, key, len);
		if (values[i])
			json_quote(w->out, values[i], strlen(values[i]));
		else
			strbuf_addstr(w->out, "null");
	}
	keys_done(keys);
}

void json_double(struct json_writer *w, const char *key, double value)
{
	json_key(w, key);
	strbuf_addf(w->out, "%.6g", value);
}

void json_bool(struct json_writer *w, const char *key, int value)
{
	json_key(w, key);
	strbuf_addstr(w->out, value ? "true" : "false");
}

void json_null(struct json_writer *w, const char *key)
{
	json_key(w, key);
	strbuf_addstr(w->out, "null");
}

void json_bool_or_null(struct json_writer *w, const char *key, int value)
{
	if (value < 0)
		json_null(w, key);
	else
		json_bool(w, key, value);
}
