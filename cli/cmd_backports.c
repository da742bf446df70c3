/* stablemate backports: not written yet (placeholder owned by the backports work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_backports(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate backports: not implemented yet\n", stderr);
	return 1;
}
