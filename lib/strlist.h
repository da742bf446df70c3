/* strlist: a growable array of strings the list owns.
 *
 * items[0..nr) are malloc'd NUL-terminated strings, in insertion order,
 * duplicates allowed; strlist_clear() frees them and the array. items is
 * NULL while nr == 0 and nothing was allocated, so loop on nr. Copying a
 * strlist by value shares its strings: clear only one copy. */
#ifndef SM_STRLIST_H
#define SM_STRLIST_H
#include <stddef.h>

struct strlist {
	char **items;
	size_t nr, alloc;
};

#define STRLIST_INIT { NULL, 0, 0 }

/* Appends a copy of s (not NULL; "" is kept as an item). */
void strlist_append(struct strlist *l, const char *s);
/* Appends s itself, a malloc'd string: the list now owns and frees it. */
void strlist_append_nodup(struct strlist *l, char *s);
/* 1 if some item equals s (strcmp, case-sensitive), else 0; 0 on an empty
 * list. */
int strlist_contains(const struct strlist *l, const char *s);
/* Removes the first item equal to s (the rest keep their order); nothing
 * when there is none. */
void strlist_remove(struct strlist *l, const char *s);
/* Frees every item and the array and leaves l empty, ready for reuse. */
void strlist_clear(struct strlist *l);
/* Appends the fields of s separated by sep, each trimmed of surrounding
 * whitespace; empty fields are dropped, so "" or " , " add nothing.
 * Existing items are kept. */
void strlist_split(struct strlist *l, const char *s, char sep);

#endif
