/* series: a patch series and applying it to a kernel tree with `git am`.
 *
 * A series directory holds git format-patch files and optionally:
 *	series	the patches in order, one path per line relative to the
 *		directory ('#' comments, blank lines ignored); without it the
 *		directory's *.patch files in name order
 *	config	a kconfig fragment the kernel needs
 *	tests	test programs to run, one "DIR/NAME" per line (a selftest
 *		tools/testing/selftests/DIR/NAME.c of the patched tree)
 */
#ifndef SM_QEMU_SERIES_H
#define SM_QEMU_SERIES_H
#include "lib/strlist.h"

/* Reads the patches of dir into patches (full paths). A missing patch is
 * an error naming the series file and line. Returns 0 or -1 (sm_error). */
int series_read(const char *dir, struct strlist *patches);

/* Reads a list file (tests): one entry a line, '#' comments. A missing
 * file adds nothing and is not an error. Returns 0 or -1. */
int series_read_list(const char *path, struct strlist *out);

struct apply_failure {
	char *patch;		/* path of the patch that did not apply */
	char *file;		/* file of the failing hunk, or NULL */
	int line;		/* its line in the patch's "@@" numbering, or 0 */
	char *hunk;		/* the lines git could not find, or NULL */
	char *message;		/* git's first error line */
};

void apply_failure_release(struct apply_failure *f);

/* Applies patches in order to the git work tree `tree` with `git am`
 * (committer "stablemate"). Stops at the first patch that does not apply:
 * aborts that `git am`, fills *fail and returns 1. Returns 0 when all
 * applied, -1 (sm_error) when git could not be run. */
int series_apply(const char *tree, const struct strlist *patches,
		 struct apply_failure *fail);

/* Fills f's file/line/hunk/message from the output of `git apply -v`
 * (exposed for tests). */
void apply_failure_parse(struct apply_failure *f, const char *git_output);

#endif
