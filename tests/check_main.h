/* check_main.h: the shared main() of the Check test programs.
 * A test file defines `static Suite *make_suite(void)` and includes this. */
#ifndef SM_CHECK_MAIN_H
#define SM_CHECK_MAIN_H
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

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
