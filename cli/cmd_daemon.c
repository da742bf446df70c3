/* stablemate daemon: not written yet (placeholder owned by the daemon work). */
#include "cli/cli.h"
#include <stdio.h>

int cmd_daemon(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("stablemate daemon: not implemented yet\n", stderr);
	return 1;
}
