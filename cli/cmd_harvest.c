/* stablemate harvest: not written yet (placeholder owned by the harvest work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_harvest(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate harvest: not implemented yet\n", stderr);
	return 1;
}
