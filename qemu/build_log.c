/* build_log: finding the line a maintainer wants to see first. */
#include "qemu/build_log.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <string.h>

enum { NONE, COMPILER, LINKER, SCRIPT, MAKE };

static int classify(const char *line)
{
	if (strstr(line, ": error: ") || strstr(line, ": fatal error: "))
		return COMPILER;
	if (strstr(line, "undefined reference to") || strstr(line, "multiple definition of"))
		return LINKER;
	if (starts_with(line, "build-kernel.sh: ") || starts_with(line, "mkinitramfs.sh: "))
		return SCRIPT;
	if (strstr(line, "make") && strstr(line, "*** "))
		return MAKE;
	return NONE;
}

char *build_log_first_error(const char *log, size_t len)
{
	const char *p = log, *end = log + len;
	char *func = NULL, *make_line = NULL, *found = NULL;

	while (p < end && !found) {
		const char *eol = memchr(p, '\n', end - p);
		size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);
		char *line = xstrndup(p, n);
		int kind = classify(line);

		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		if (strstr(line, ": In function ") || strstr(line, ": In file included from")) {
			free(func);
			func = xstrdup(line);
		} else if (kind == COMPILER || kind == LINKER || kind == SCRIPT) {
			found = func && kind == COMPILER ? xasprintf("%s\n%s", func, line)
							 : xstrdup(line);
		} else if (kind == MAKE && !make_line) {
			make_line = xstrdup(line);
		} else if (func && !starts_with(line, " ") && !starts_with(line, "In file")) {
			/* the "In function" context only holds for the next lines */
			if (!strstr(line, ": note: ") && !strstr(line, ": warning: ")) {
				free(func);
				func = NULL;
			}
		}
		free(line);
		p = eol ? eol + 1 : end;
	}
	free(func);
	if (found) {
		free(make_line);
		return found;
	}
	return make_line;
}
