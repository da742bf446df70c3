/* stablemate scan: not written yet (placeholder owned by the scan work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_scan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate scan: not implemented yet\n", stderr);
	return 1;
}
