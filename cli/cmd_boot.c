/* stablemate boot: not written yet (placeholder owned by the boot work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_boot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate boot: not implemented yet\n", stderr);
	return 1;
}
