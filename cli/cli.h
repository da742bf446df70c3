/* cli: the command table and what every subcommand shares. */
#ifndef SM_CLI_H
#define SM_CLI_H
#include "lib/parse-options.h"
#include <stdio.h>

/* Each subcommand: argv[0] is its own name; returns the process exit code. */
#define SM_COMMANDS(X) \
	X(classify, "classify commit messages or mails as stable material") \
	X(train, "fit the learned classifier to labelled commits") \
	X(scan, "classify a mainline range for each stable tree") \
	X(missing, "upstream commits in one stable tree and not in another") \
	X(backports, "where a fix was backported, and how it differs") \
	X(deps, "commits a fix needs before it applies to a tree") \
	X(steal, "cherry-pick a range's candidates onto a new branch") \
	X(yank, "rewrite a branch without one commit") \
	X(insert, "rewrite a branch with one more commit in the middle") \
	X(import, "bring mail (mbox, public-inbox) into a maildir and notmuch") \
	X(fetch, "download a thread mbox over HTTP into the maildir") \
	X(harvest, "turn list replies into review notes on upstream commits") \
	X(notes, "show the review notes of a commit") \
	X(report, "mail candidate reports to subscribers") \
	X(run, "one whole bot cycle: scan, harvest, report") \
	X(daemon, "repeat the bot cycle at an interval") \
	X(dashboard, "write the candidates, reviews and mail state as a static site") \
	X(boot, "apply, build and boot candidate patches in QEMU")

#define SM_DECLARE(name, help) int cmd_##name(int argc, char **argv);
SM_COMMANDS(SM_DECLARE)
#undef SM_DECLARE

/* Prints text to stdout and exits 0 (for --help). */
void cli_help(const char *text) __attribute__((noreturn));
/* Prints "stablemate NAME: msg" and the usage hint to stderr; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints sm_last_error() as "stablemate NAME: <error>"; returns 1. */
int cli_fail(const char *cmd);

/* Parses argv against opts (lib/parse-options.h) for subcommand cmd. Returns
 * the number of arguments left, in argv[0..n-1]. Prints the --help text built
 * from opts and u and exits 0 on -h/--help, the version on --version; on a
 * usage error prints "stablemate CMD: <error>" and the hint, and exits 2. */
int cli_parse_options(const char *cmd, int argc, char **argv, const struct sm_option *opts,
		      const struct sm_usage *u, unsigned flags);
/* Prints u's --help text (options from opts) to f. */
void cli_print_usage(FILE *f, const struct sm_option *opts, const struct sm_usage *u);

/* The option groups commands share: one spelling per concept, the old
 * spellings as hidden aliases. */
int cli_opt_quiet(const struct sm_option *opt, const char *arg);
int cli_opt_no_cache(const struct sm_option *opt, const char *arg);
int cli_opt_seconds(const struct sm_option *opt, const char *arg);
int cli_opt_days(const struct sm_option *opt, const char *arg);
int cli_opt_size(const struct sm_option *opt, const char *arg);
int cli_opt_comma_list(const struct sm_option *opt, const char *arg);
/* -C/--repo DIR (old spelling: --upstream), the repository to work in. */
#define OPT_REPO(v, h) \
	OPT_STRING('C', "repo", (v), "DIR", (h)), \
	OPT_ALIAS(0, "upstream", "repo")
/* --cache-dir DIR (old spelling: --cache) and --no-cache (sets v to "";
 * cli_opt_no_cache serves any "--no-X" that means an empty string). */
#define OPT_CACHE_DIR(v) \
	OPT_STRING(0, "cache-dir", (v), "DIR", \
		   "index cache directory (default: $XDG_CACHE_HOME/stablemate)"), \
	OPT_ALIAS(0, "cache", "cache-dir"), \
	OPT_CALLBACK_F(0, "no-cache", (v), NULL, "do not read or write the index cache", \
		       PARSE_OPT_NOARG, cli_opt_no_cache)
/* --upstream-ref REF, where to look past a range for reverts and later fixes,
 * and --no-upstream-ref (sets v to "": nowhere). h and no_h are their help. */
#define OPT_UPSTREAM_REF(v, h, no_h) \
	OPT_STRING(0, "upstream-ref", (v), "REF", (h)), \
	OPT_CALLBACK_F(0, "no-upstream-ref", (v), NULL, (no_h), PARSE_OPT_NOARG, cli_opt_no_cache)
#define OPT_JSON(v) OPT_BOOL(0, "json", (v), "print the result as JSON")
/* -q/--quiet: no warnings (sm_set_quiet); v (an int *, or NULL) is set to 1. */
#define OPT_QUIET(v) \
	OPT_CALLBACK_F('q', "quiet", (v), NULL, "no warnings or progress on standard error", \
		       PARSE_OPT_NOARG, cli_opt_quiet)
/* An unsigned number of seconds into v: "--timeout: 'x' is not a number of seconds". */
#define OPT_SECONDS(l, v, h) OPT_CALLBACK(0, (l), (v), "SECS", (h), cli_opt_seconds)
/* A number of days, 0 to 3650, into the int v. */
#define OPT_DAYS(l, v, h) OPT_CALLBACK(0, (l), (1 ? (v) : (int *)0), "N", (h), cli_opt_days)
/* "a,b,c" appended item by item to the strlist v (repeatable). */
#define OPT_COMMA_LIST(l, v, a, h) \
	OPT_CALLBACK(0, (l), (1 ? (v) : (struct strlist *)0), (a), (h), cli_opt_comma_list)
/* A size in bytes ("64M", "512K", "1G", "1000") into the size_t v. */
#define OPT_SIZE(l, v, h) OPT_CALLBACK(0, (l), (1 ? (v) : (size_t *)0), "SIZE", (h), cli_opt_size)

#endif
