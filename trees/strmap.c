#include "trees/strmap.h"
#include "lib/fnv.h"
#include "lib/util.h"
#include <string.h>

static size_t hash_str(const char *s)
{
	uint64_t h = SM_FNV_BASIS;

	while (*s)
		h = sm_fnv_byte(h, (unsigned char)*s++);
	return (size_t)h;
}

static void grow(struct strmap *m)
{
	struct strmap n = { NULL, NULL, 0, m->size ? m->size * 2 : 64 };

	n.keys = xcalloc(n.size, sizeof(*n.keys));
	n.vals = xcalloc(n.size, sizeof(*n.vals));
	for (size_t i = 0; i < m->size; i++)
		if (m->keys[i])
			strmap_put(&n, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = n;
}

void strmap_put(struct strmap *m, const char *key, size_t val)
{
	size_t i;

	if ((m->nr + 1) * 2 > m->size)
		grow(m);
	for (i = hash_str(key) & (m->size - 1); m->keys[i]; i = (i + 1) & (m->size - 1))
		if (!strcmp(m->keys[i], key))
			return;
	m->keys[i] = key;
	m->vals[i] = val;
	m->nr++;
}

int strmap_get(const struct strmap *m, const char *key, size_t *val)
{
	if (!m->size)
		return 0;
	for (size_t i = hash_str(key) & (m->size - 1); m->keys[i]; i = (i + 1) & (m->size - 1))
		if (!strcmp(m->keys[i], key)) {
			*val = m->vals[i];
			return 1;
		}
	return 0;
}

void strmap_clear(struct strmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
