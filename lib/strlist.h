/* strlist: an owned, growable array of strings. */
#ifndef SM_STRLIST_H
#define SM_STRLIST_H
#include <stddef.h>

struct strlist {
	char **items;
	size_t nr, alloc;
};

#define STRLIST_INIT { NULL, 0, 0 }

void strlist_append(struct strlist *l, const char *s);
void strlist_append_nodup(struct strlist *l, char *s);
int strlist_contains(const struct strlist *l, const char *s);
void strlist_clear(struct strlist *l);
/* Splits s on sep into l (empty fields dropped, whitespace trimmed). */
void strlist_split(struct strlist *l, const char *s, char sep);

#endif
