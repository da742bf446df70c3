/* stablemate insert: not written yet (placeholder owned by the insert work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_insert(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate insert: not implemented yet\n", stderr);
	return 1;
}
