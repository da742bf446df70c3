/* build_log: the first error of a kernel (or test program) build log. */
#ifndef SM_QEMU_BUILD_LOG_H
#define SM_QEMU_BUILD_LOG_H
#include <stddef.h>

/* Returns the first line that reports an error (a compiler "file:line:col:
 * error:", a linker "undefined reference", a "make: ***" line or a line of
 * our build script), newly allocated, or NULL if there is none. A compiler
 * error comes with the "In function" line before it when there is one. */
char *build_log_first_error(const char *log, size_t len);

#endif
