/* stablemate missing: not written yet (placeholder owned by the missing work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_missing(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate missing: not implemented yet\n", stderr);
	return 1;
}
