/* stablemate run: not written yet (placeholder owned by the run work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate run: not implemented yet\n", stderr);
	return 1;
}
