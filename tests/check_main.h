/* check_main.h: the shared main() of the Check test programs.
 * A test file defines `static Suite *make_suite(void)` and includes this. */
#ifndef SM_CHECK_MAIN_H
#define SM_CHECK_MAIN_H
#include "lib/strlist.h"
#include "lib/util.h"
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static Suite *make_suite(void);

/* Path of a file in the source tree (tests run from the build tree). */
static inline const char *srcdir_path(const char *rel)
{
	static char buf[8][4096];
	static int i;
	const char *top = getenv("SM_SRCDIR");

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", top ? top : SM_SRCDIR, rel);
	return buf[i];
}

/* Path of a file in the real corpus: $SM_SHARED, or ../shared beside the
 * source tree (as tests/lib.sh finds it). */
static inline const char *shared_path(const char *rel)
{
	static char buf[8][4096];
	static int i;
	const char *top = getenv("SM_SHARED");

	i = (i + 1) % 8;
	if (top)
		snprintf(buf[i], sizeof(buf[i]), "%s/%s", top, rel);
	else
		snprintf(buf[i], sizeof(buf[i]), "%s/../shared/%s", srcdir_path(""), rel);
	return buf[i];
}

/* The corpus is not part of the repository: a checkout without it runs the
 * other tests and says on stderr which ones it left out. Use as
 * `if (shared_missing(__func__)) return;` at the top of a test. */
static inline int shared_missing(const char *test)
{
	struct stat st;

	if (stat(shared_path("corpus"), &st) == 0)
		return 0;
	fprintf(stderr, "%s: skipped, no ../shared corpus here\n", test);
	return 1;
}

/* Appends the path of each file of the n corpus folders dirs (shared_path)
 * but the dot files, in readdir's order; a folder that cannot be read adds
 * nothing. */
static inline void list_shared(const char *const *dirs, size_t n, struct strlist *out)
{
	for (size_t i = 0; i < n; i++) {
		const char *dir = shared_path(dirs[i]);
		DIR *d = opendir(dir);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				strlist_append_nodup(out, xasprintf("%s/%s", dir, de->d_name));
		closedir(d);
	}
}

/* The tests of a test case, in order: add_tcase(s, "name", SM_TESTS(a, b, c)). */
#define SM_TESTS(...) ((const TTest *const[]){ __VA_ARGS__, NULL })

/* Adds to s a test case called name holding tests; returns it, for a fixture,
 * a timeout or a loop test. */
static inline TCase *add_tcase(Suite *s, const char *name, const TTest *const *tests)
{
	TCase *tc = tcase_create(name);

	for (; *tests; tests++)
		tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	return tc;
}

int main(void)
{
	SRunner *sr = srunner_create(make_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
#endif
