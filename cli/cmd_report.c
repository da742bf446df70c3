/* stablemate report: not written yet (placeholder owned by the report work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate report: not implemented yet\n", stderr);
	return 1;
}
