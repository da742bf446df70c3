#include "cli/cli.h"
int cmd_classify(int argc, char **argv) { (void)argc; (void)argv; return 1; }
