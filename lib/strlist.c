#include "lib/strlist.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>

void strlist_append_nodup(struct strlist *l, char *s)
{
	ALLOC_GROW(l->items, l->nr, l->alloc);
	l->items[l->nr++] = s;
}

void strlist_append(struct strlist *l, const char *s)
{
	strlist_append_nodup(l, xstrdup(s));
}

int strlist_contains(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], s))
			return 1;
	return 0;
}

void strlist_clear(struct strlist *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
	l->items = NULL;
	l->nr = l->alloc = 0;
}

void strlist_split(struct strlist *l, const char *s, char sep)
{
	while (*s) {
		const char *end = strchr(s, sep);
		const char *e = end ? end : s + strlen(s);
		const char *b = s;

		while (b < e && isspace((unsigned char)*b))
			b++;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		if (e > b)
			strlist_append_nodup(l, xstrndup(b, (size_t)(e - b)));
		if (!end)
			break;
		s = end + 1;
	}
}

void strlist_remove(struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i], s)) {
			free(l->items[i]);
			memmove(l->items + i, l->items + i + 1, (l->nr - i - 1) * sizeof(*l->items));
			l->nr--;
			return;
		}
}
