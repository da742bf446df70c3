/* strmap: an open-addressing hash map from a borrowed string key to an
 * index (into the caller's array). Keys are not copied: they must live as
 * long as the map. The first value put for a key wins. */
#ifndef SM_TREES_STRMAP_H
#define SM_TREES_STRMAP_H
#include <stddef.h>

struct strmap {
	const char **keys;
	size_t *vals;
	size_t nr, size;
};

#define STRMAP_INIT { NULL, NULL, 0, 0 }

/* Adds key -> val unless key is present. */
void strmap_put(struct strmap *m, const char *key, size_t val);
/* Returns 1 and sets *val when key is present. */
int strmap_get(const struct strmap *m, const char *key, size_t *val);
void strmap_clear(struct strmap *m);

#endif
