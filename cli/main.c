/* stablemate: the command-line entry point and subcommand dispatch. */
#include "config.h"
#include "cli/cli.h"
#include "lib/util.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

#define SM_ENTRY(name, help) { #name, cmd_##name, help },
static const struct command commands[] = {
	SM_COMMANDS(SM_ENTRY)
};
#undef SM_ENTRY

static void main_usage(FILE *f)
{
	fputs("usage: stablemate <command> [options] [args]\n\n"
	      "stablemate finds stable-kernel material in mainline and on the lists,\n"
	      "compares stable trees, harvests reviews into git notes, mails candidate\n"
	      "reports and builds and boots candidates in QEMU.\n\n"
	      "Commands:\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fputs("\nRun 'stablemate <command> --help' for a command's options.\n", f);
}

void cli_help(const char *text)
{
	fputs(text, stdout);
	exit(0);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "stablemate %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'stablemate %s --help'.\n", cmd);
	return 2;
}

int cli_fail(const char *cmd)
{
	fprintf(stderr, "stablemate %s: %s\n", cmd, sm_last_error());
	return 1;
}

int cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		main_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			char *sub[] = { argv[2], (char *)"--help", NULL };

			for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
				if (!strcmp(commands[i].name, argv[2]))
					return commands[i].fn(2, sub);
		}
		main_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("stablemate %s\n", PACKAGE_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, argv[1]))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "stablemate: '%s' is not a command; see 'stablemate --help'\n", argv[1]);
	return 2;
}
