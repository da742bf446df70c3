/* stablemate steal: not written yet (placeholder owned by the steal work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_steal(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate steal: not implemented yet\n", stderr);
	return 1;
}
