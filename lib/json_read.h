/* json_read: read string members of one JSON object (a JSONL record).
 * Enough for the batch inputs stablemate reads; not a general DOM. */
#ifndef SM_JSON_READ_H
#define SM_JSON_READ_H
#include <stddef.h>
#include "lib/strbuf.h"

/* What the readers return for a member when the JSON could be read (bad
 * JSON: -1). */
enum json_member_status {
	JSON_ABSENT = 0,	/* no such member (or not of the type asked for) */
	JSON_FOUND = 1,		/* its value was appended to out */
};

/* json[0..len) must hold one object and white space around it, nothing
 * else (bad JSON otherwise).
 *
 * Finds top-level member key of the object in json[0..len) and appends its
 * value to out: a string decoded to UTF-8 (\u0000 and a lone surrogate
 * become U+FFFD, so out holds no NUL), or an array of strings joined
 * with '\n'. Returns JSON_FOUND, JSON_ABSENT (also when not a string), or -1
 * (bad JSON). */
int json_get_string(const char *json, size_t len, const char *key, struct strbuf *out);
/* The same for n keys in one pass: found[i] is JSON_FOUND when keys[i] was
 * there (value appended to outs[i]), else JSON_ABSENT. Returns the number
 * found, -1 bad JSON. */
int json_get_strings(const char *json, size_t len, const char *const *keys,
		     struct strbuf *const *outs, int *found, size_t n);
/* json_get_strings, but each key i with bit 1 << i set in raw gets its
 * value's JSON text as json_get_raw() gives it (n <= 32). */
int json_get_members(const char *json, size_t len, const char *const *keys,
		     struct strbuf *const *outs, int *found, size_t n, unsigned raw);
/* Appends the JSON text of member key's value as it stands (any type: an
 * array of objects, a number). Returns JSON_FOUND, JSON_ABSENT, or -1 (bad
 * JSON). */
int json_get_raw(const char *json, size_t len, const char *key, struct strbuf *out);
/* Calls fn for each element of the JSON array in json[0..len), with its
 * index and its JSON text (as json_get_raw gives a member). Stops at the
 * first non-zero return of fn and returns it; else 0, or -1 when json is
 * not an array or not well formed. */
int json_array_each(const char *json, size_t len,
		    int (*fn)(void *ctx, size_t i, const char *e, size_t n), void *ctx);
/* Where the JSON value that json[0..len) starts with (after white space)
 * ends: *end is the offset past it. Returns 0, or -1 when there is none or
 * it is not well formed. What follows it is not looked at. */
int json_value_end(const char *json, size_t len, size_t *end);
/* A number's JSON text v[0..len) read as a count: digits only (no sign,
 * fraction or exponent) and at most max. Returns 0 with *out set, or -1. */
int json_count(const char *v, size_t len, unsigned long max, unsigned long *out);
/* For a parser of its own (trees/cve.c): decodes the JSON string at *pos
 * (its opening quote) up to end, appending it to out as UTF-8 (out NULL:
 * skips it), and moves *pos past the closing quote. Returns 0, or -1 (a
 * bad escape or no closing quote; *pos left alone). */
int json_read_string(const char **pos, const char *end, struct strbuf *out);

#endif
