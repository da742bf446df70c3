/* robot: what a kernel test robot (Intel's 0-day CI) report says, in a
 * few lines. Its reply to a patch is some 5 to 10 KB: a greeting, links to
 * its own branch, instructions on which tags to add, the compiler's
 * include chain and an excerpt of the source. What a maintainer needs of
 * it is the finding (the headline and the new errors or warnings, which
 * the robot prefixes with ">>", so that a quote-stripping reader would
 * drop exactly them) and where it was found (tree, config, compiler). */
#ifndef SM_MAIL_ROBOT_H
#define SM_MAIL_ROBOT_H
#include "lib/strbuf.h"

/* When author ("Name <address>") is the kernel test robot and body has a
 * report's headline, appends the report's gist to out and returns 1:
 *   kernel test robot noticed the following build errors:
 *   [auto build test ERROR on linux/master]
 *   config: x86_64-allyesconfig
 *   compiler: clang version 18.1.5
 *
 *   All errors (new ones prefixed by >>):
 *   >> drivers/hwmon/sq52205.c:493:37: error: cannot assign to ...
 * Otherwise returns 0 and leaves out as it was. The tags the robot asks a
 * later fix to carry ("Reported-by: kernel test robot") are instructions,
 * not part of the gist. */
int sm_robot_report_gist(const char *author, const char *body, struct strbuf *out);

#endif
