/* git: the one place libgit2 is set up, and its error text. */
#ifndef SM_GIT_H
#define SM_GIT_H
#include <git2.h>

/* git_libgit2_init() once per process, with the options every user wants
 * (no re-hashing of objects read, kernel-sized trees kept in the cache).
 * Safe to call from anywhere, any number of times. */
void sm_git_init(void);
/* git_error_last()'s message, or "unknown libgit2 error". */
const char *sm_git_error(void);
/* sm_error("<fmt...>: <libgit2's message>"); returns -1. */
int sm_git_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
