/* stablemate: the command-line entry point and subcommand dispatch. */
#include "config.h"
#include "cli/cli.h"
#include "cli/terminal.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/util.h"
#include "mail/stream.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

void cli_print_usage(FILE *f, const struct sm_option *opts, const struct sm_usage *u)
{
	struct strbuf sb = STRBUF_INIT;

	parse_options_usage(opts, u, &sb);
	fputs(sb.buf, f);
	strbuf_release(&sb);
}

int cli_parse_options(const char *cmd, int argc, char **argv, const struct sm_option *opts,
		      const struct sm_usage *u, unsigned flags)
{
	int n = parse_options(argc, argv, opts, flags);

	if (n >= 0)
		return n;
	if (n == PARSE_OPT_HELP) {
		cli_print_usage(stdout, opts, u);
		exit(0);
	}
	if (n == PARSE_OPT_VERSION) {
		printf("stablemate %s\n", PACKAGE_VERSION);
		exit(0);
	}
	exit(cli_usage_error(cmd, "%s", sm_last_error()));
}

int cli_opt_quiet(const struct sm_option *opt, const char *arg)
{
	(void)arg;
	if (opt->value)
		*(int *)opt->value = 1;
	sm_set_quiet(1);
	return 0;
}

int cli_opt_no_cache(const struct sm_option *opt, const char *arg)
{
	(void)arg;
	*(const char **)opt->value = "";
	return 0;
}

int cli_opt_days(const struct sm_option *opt, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (!*arg || *end || n < 0 || n > 3650)
		return sm_error("--%s: '%s' is not a number of days", opt->long_name, arg);
	*(int *)opt->value = (int)n;
	return 0;
}

int cli_opt_seconds(const struct sm_option *opt, const char *arg)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v > 10000000UL)
		return sm_error("--%s: '%s' is not a number of seconds", opt->long_name, arg);
	*(unsigned *)opt->value = (unsigned)v;
	return 0;
}

int cli_opt_comma_list(const struct sm_option *opt, const char *arg)
{
	strlist_split(opt->value, arg, ',');
	return 0;
}

int cli_opt_size(const struct sm_option *opt, const char *arg)
{
	if (sm_parse_size(arg, opt->value) < 0)
		return sm_error("--%s: '%s' is not a size such as 64M", opt->long_name, arg);
	return 0;
}

/* At exit, as git does: a command whose output could not be written (a
 * full disk, > /dev/full) must not exit 0 having written nothing. */
static void close_stdout(void)
{
	int failed = fflush(stdout) != 0 || ferror(stdout);

	if (fclose(stdout) != 0)
		failed = 1;
	if (failed) {
		fprintf(stderr, "stablemate: write failure on standard output: %s\n",
			strerror(errno ? errno : EIO));
		_exit(128);
	}
}

int main(int argc, char **argv)
{
	cli_guard_terminal();
	atexit(close_stdout);
	/* stablemate -C DIR <command>: as git, run in DIR. */
	while (argc > 2 && !strcmp(argv[1], "-C")) {
		if (chdir(argv[2]) < 0) {
			fprintf(stderr, "stablemate: cannot change to '%s': %s\n", argv[2],
				strerror(errno));
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
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
