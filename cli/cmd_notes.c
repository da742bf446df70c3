/* stablemate notes: not written yet (placeholder owned by the notes work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_notes(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate notes: not implemented yet\n", stderr);
	return 1;
}
