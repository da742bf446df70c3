/* parse-options: one option table per command (after git's parse-options.h).
 *
 * Adding an option to a command, e.g. `--limit N` to cli/cmd_scan.c:
 *
 *	static unsigned limit;
 *	static const struct sm_option options[] = {
 *		OPT_REPO(&repo),		// -C/--repo DIR (alias --upstream)
 *		OPT_STRING(0, "range", &range, "A..B", "the commits to classify"),
 *		OPT_UINT(0, "limit", &limit, "N", "stop after N commits"),
 *		OPT_ALIAS(0, "max", "limit"),	// an old spelling, hidden in --help
 *		OPT_JSON(&json),
 *		OPT_END(),
 *	};
 *	argc = cli_parse_options(argc, argv, options, &usage);
 *	// argv[0..argc-1] are now the arguments that are not options
 *
 * That is all: `--limit 5`, `--limit=5`, an unambiguous prefix (`--lim 5`),
 * the line in `--help`'s option block, "option '--limit' requires a value"
 * and "--limit: 'x' is not a number" come from the entry. The help text may
 * hold '\n' for a continuation line. OPT_INHERIT(table) pulls in a shared
 * table (as notmuch's .opt_inherit); cli/cli.h has the shared groups
 * (OPT_REPO, OPT_CACHE_DIR, OPT_JSON, OPT_QUIET). -h/--help and --version are
 * understood by every table without an entry.
 *
 * Accepted forms: --name VALUE, --name=VALUE, -C VALUE, -CVALUE, bundled
 * short flags (-qj), --no-NAME for OPT_BOOL, "--" ends the options. Options
 * and arguments may be mixed (arguments keep their order) unless
 * PARSE_OPT_STOP_AT_NON_OPTION is given (for a subcommand word).
 *
 * The library part never prints: parse_options() returns PARSE_OPT_ERROR
 * with sm_error() set, or PARSE_OPT_HELP / PARSE_OPT_VERSION; the CLI
 * prints (cli_parse_options in cli/cli.h). */
#ifndef SM_PARSE_OPTIONS_H
#define SM_PARSE_OPTIONS_H
#include <stdint.h>

struct strbuf;

enum sm_option_type {
	OPTION_END,
	OPTION_GROUP,		/* a heading line in --help */
	OPTION_STRING,		/* const char *: the last value given */
	OPTION_STRING_LIST,	/* struct strlist: every value, in order */
	OPTION_BOOL,		/* int: 1, or 0 with --no-NAME */
	OPTION_SET_INT,		/* int: set to defval */
	OPTION_INT,		/* int */
	OPTION_UINT,		/* unsigned */
	OPTION_CALLBACK,	/* callback(opt, arg) */
	OPTION_ALIAS,		/* another spelling of the option named by help */
	OPTION_INHERIT,		/* the entries of another table (value) */
};

/* Flags of an entry. */
#define PARSE_OPT_OPTARG	1	/* the value is optional and only taken as --name=VALUE */
#define PARSE_OPT_NOARG		2	/* a callback without a value */
#define PARSE_OPT_HIDDEN	4	/* not listed in --help */

struct sm_option;
/* Returns 0, or -1 with sm_error() set (printed as a usage error).
 * arg is NULL for a PARSE_OPT_NOARG callback or an absent optional value. */
typedef int (*sm_option_cb)(const struct sm_option *opt, const char *arg);

struct sm_option {
	enum sm_option_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* the value's name in --help: "DIR" */
	const char *help;	/* OPTION_ALIAS: the long name it stands for */
	int flags;
	sm_option_cb callback;
	intptr_t defval;
};

#define OPT_END()		{ .type = OPTION_END }
#define OPT_GROUP(h)		{ .type = OPTION_GROUP, .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING_LIST(s, l, v, a, h) \
	{ .type = OPTION_STRING_LIST, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
/* The value's type is checked: an int * for BOOL, SET_INT, INT; unsigned * for UINT. */
#define SM_OPT_INT_PTR(v) (1 ? (v) : (int *)0)
#define OPT_BOOL(s, l, v, h) \
	{ .type = OPTION_BOOL, .short_name = (s), .long_name = (l), .value = SM_OPT_INT_PTR(v), .help = (h) }
#define OPT_SET_INT(s, l, v, h, i) \
	{ .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = SM_OPT_INT_PTR(v), .help = (h), .defval = (i) }
#define OPT_INT(s, l, v, a, h) \
	{ .type = OPTION_INT, .short_name = (s), .long_name = (l), .value = SM_OPT_INT_PTR(v), .argh = (a), .help = (h) }
#define OPT_UINT(s, l, v, a, h) \
	{ .type = OPTION_UINT, .short_name = (s), .long_name = (l), .value = (1 ? (v) : (unsigned *)0), .argh = (a), .help = (h) }
/* v is handed to the callback as opt->value. */
#define OPT_CALLBACK(s, l, v, a, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (cb) }
#define OPT_CALLBACK_F(s, l, v, a, h, f, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .flags = (f), .callback = (cb) }
/* An old spelling kept working: --l means --target (not shown in --help). */
#define OPT_ALIAS(s, l, target) \
	{ .type = OPTION_ALIAS, .short_name = (s), .long_name = (l), .help = (target) }
#define OPT_INHERIT(table) { .type = OPTION_INHERIT, .value = (void *)(table) }

/* What --help prints around the generated option block. A command declares
 * one, with designated initializers (an absent member is NULL):
 *
 *	static const struct sm_usage usage = {
 *		.synopsis = "stablemate scan [-C REPO] --range A..B --tree BRANCH...\n"
 *			    "                [--json]",
 *		.description =
 *	"Classifies every commit of a mainline range ...\n",
 *		.epilog =
 *	"Exit status: 0 on success, 1 on an error, 2 on a usage error.\n",
 *	};
 */
struct sm_usage {
	const char *synopsis;		/* its lines joined by '\n', no '\n' at the end;
					 * "usage: " or 7 spaces go before each */
	const char *description;	/* the paragraphs after the synopsis, or NULL */
	const char *epilog;		/* after the options (exit status, example), or NULL */
};

#define PARSE_OPT_STOP_AT_NON_OPTION 1

#define PARSE_OPT_ERROR	  (-1)
#define PARSE_OPT_HELP	  (-2)
#define PARSE_OPT_VERSION (-3)

/* Parses argv[1..argc-1] (argv[0] is the command's name) against opts.
 * Returns the number of arguments left, moved to argv[0..n-1] (argv[n] is
 * NULL), or PARSE_OPT_ERROR (sm_error set), PARSE_OPT_HELP (-h/--help seen),
 * PARSE_OPT_VERSION (--version seen). */
int parse_options(int argc, char **argv, const struct sm_option *opts, unsigned flags);

/* Appends the whole --help text: "usage: " + synopsis, description, "Options:" and
 * one line (or more) per visible option, epilog. */
void parse_options_usage(const struct sm_option *opts, const struct sm_usage *u,
			 struct strbuf *out);

#endif
