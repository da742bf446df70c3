/* bot_cli: what report, run and daemon share (defined in cli/cmd_run.c). */
#ifndef SM_CLI_BOT_CLI_H
#define SM_CLI_BOT_CLI_H

/* Parses the common options and runs one bot cycle; returns the exit code. */
int bot_cycle_command(const char *cmd, const char *usage, int harvest, int argc, char **argv);
/* The config file: given, else $STABLEMATE_CONFIG, else the default path. */
const char *bot_config_path(const char *given);
/* Takes "--name VALUE" or "--name=VALUE" at argv[*i]; 1 when it matched. */
int bot_take_arg(const char *cmd, int argc, char **argv, int *i, const char *name,
		 const char **value, int *bad);

#endif
