/* stablemate import: not written yet (placeholder owned by the import work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_import(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate import: not implemented yet\n", stderr);
	return 1;
}
