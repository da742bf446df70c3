/* cli: the command table and what every subcommand shares. */
#ifndef SM_CLI_H
#define SM_CLI_H

/* Each subcommand: argv[0] is its own name; returns the process exit code. */
#define SM_COMMANDS(X) \
	X(classify, "classify commit messages or mails as stable material") \
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
/* 1 when argv has -h or --help before any "--". */
int cli_wants_help(int argc, char **argv);

#endif
