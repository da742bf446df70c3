/* json: a small JSON writer into a strbuf. The caller owns the strbuf and
 * the nesting; the writer only inserts commas and escapes strings. */
#ifndef SM_JSON_H
#define SM_JSON_H
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include <stdio.h>

struct json_writer {
	struct strbuf *out;
	FILE *sink;		/* NULL, or where out is emptied to (json_stream_to) */
	int depth;
	unsigned char need_comma[64];
};

/* How much text a streamed writer holds before it writes it out */
#define JSON_STREAM_CHUNK 65536

void json_init(struct json_writer *w, struct strbuf *out);
/* From now on, before each member or element, w writes out to f and
 * empties it once it holds JSON_STREAM_CHUNK bytes or more: a long
 * document (scan's thousands of commits, 16 MB for 3,000) is never held
 * whole, nor copied as its buffer doubles. The text is the same; the
 * caller writes what out holds at the end. Only for a document whose
 * every part is known when it starts: what was written is not taken
 * back. A write error is left to the caller's check of f (ferror). */
void json_stream_to(struct json_writer *w, FILE *f);
void json_object_begin(struct json_writer *w, const char *key);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w, const char *key);
void json_array_end(struct json_writer *w);
/* key is NULL inside an array. */
void json_string(struct json_writer *w, const char *key, const char *value);
void json_string_len(struct json_writer *w, const char *key, const char *value, size_t len);
void json_int(struct json_writer *w, const char *key, long long value);
void json_double(struct json_writer *w, const char *key, double value);
void json_bool(struct json_writer *w, const char *key, int value);
void json_null(struct json_writer *w, const char *key);
/* A bool that may be unknown: value < 0 is null. */
void json_bool_or_null(struct json_writer *w, const char *key, int value);
/* An array of list's strings (possibly empty). */
void json_strlist(struct json_writer *w, const char *key, const struct strlist *list);
/* Members of one type in a row: keys names them, separated by spaces, one
 * name for each value, in order. JSON_INTS(w, "sent refused", st->sent,
 * st->refused) writes "sent":1,"refused":0; a NULL string is null. */
void json_ints(struct json_writer *w, const char *keys, const long long *values, size_t n);
void json_strings(struct json_writer *w, const char *keys, const char *const *values, size_t n);
#define JSON_INTS(w, keys, ...) \
	json_ints(w, keys, (const long long[]){ __VA_ARGS__ }, \
		  sizeof((const long long[]){ __VA_ARGS__ }) / sizeof(long long))
#define JSON_STRINGS(w, keys, ...) \
	json_strings(w, keys, (const char *const[]){ __VA_ARGS__ }, \
		     sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))
/* Append s as a quoted JSON string (invalid UTF-8 bytes become U+FFFD). */
void json_quote(struct strbuf *out, const char *s, size_t len);

#endif
