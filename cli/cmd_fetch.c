/* stablemate fetch: not written yet (placeholder owned by the fetch work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_fetch(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate fetch: not implemented yet\n", stderr);
	return 1;
}
