/* json_read: read string members of one JSON object (a JSONL record).
 * Enough for the batch inputs stablemate reads; not a general DOM. */
#ifndef SM_JSON_READ_H
#define SM_JSON_READ_H
#include <stddef.h>
#include "lib/strbuf.h"

/* Finds top-level member key of the object in json[0..len) and appends its
 * value to out: a string decoded to UTF-8, or an array of strings joined
 * with '\n'. Returns 1 found, 0 absent (or not a string), -1 bad JSON. */
int json_get_string(const char *json, size_t len, const char *key, struct strbuf *out);
/* The same for n keys in one pass: found[i] is 1 when keys[i] was there
 * (value appended to outs[i]). Returns the number found, -1 bad JSON. */
int json_get_strings(const char *json, size_t len, const char *const *keys,
		     struct strbuf *const *outs, int *found, size_t n);
/* Appends the JSON text of member key's value as it stands (any type: an
 * array of objects, a number). Returns 1 found, 0 absent, -1 bad JSON. */
int json_get_raw(const char *json, size_t len, const char *key, struct strbuf *out);

#endif
