/* stablemate yank: not written yet (placeholder owned by the yank work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_yank(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate yank: not implemented yet\n", stderr);
	return 1;
}
