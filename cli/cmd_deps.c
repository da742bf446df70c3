/* stablemate deps: not written yet (placeholder owned by the deps work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_deps(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate deps: not implemented yet\n", stderr);
	return 1;
}
