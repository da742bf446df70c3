/* stablemate import: mbox or public-inbox archive -> maildir (+ notmuch). */
#include "cli/cli.h"
#include "cli/output.h"
#include "mail/import.h"
#include "lib/util.h"
#include "lib/progress.h"
#include "lib/strlist.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate import --maildir DIR [--db DIR] (--mbox FILE... | --public-inbox GIT_DIR)\n"
		    "                  [--max-message-size SIZE] [--json]",
	.description =
	"Writes each message to DIR/cur/ (atomically, through DIR/tmp/; the file is\n"
	"named after the SHA-1 of its bytes, so importing twice writes nothing new)\n"
	"and indexes it into the notmuch database (created when missing). Mails\n"
	"that cannot be parsed are named on stderr and skipped. An mbox is read as a\n"
	"stream, one message in memory at a time. An input that is missing or\n"
	"damaged (a truncated .gz) is named on stderr, the other inputs are still\n"
	"imported, and the exit status is 1.\n",
};

int cmd_import(int argc, char **argv)
{
	const char *maildir = NULL, *db = NULL, *pi = NULL;
	struct strlist mboxes = STRLIST_INIT;
	struct sm_importer *im;
	struct sm_progress *progress;
	struct sm_import_stats st;
	int json = 0, r, bad_inputs = 0;
	size_t max_message = 0, nr_inputs;
	const struct sm_option options[] = {
		OPT_STRING(0, "maildir", &maildir, "DIR", "maildir to write (created as needed)"),
		OPT_STRING(0, "db", &db, "DIR",
			   "notmuch database to index into; the maildir must be\n"
			   "inside it (default: index nothing)"),
		OPT_STRING_LIST(0, "mbox", &mboxes, "FILE",
				"an mboxo/mboxrd file, gzipped or not (may be repeated)"),
		OPT_STRING(0, "public-inbox", &pi, "GIT_DIR",
			   "an epoch repository (N.git) or a public-inbox\n"
			   "directory with git/N.git; only commits after the last\n"
			   "imported one (DIR/" SM_IMPORT_STATE_FILE ") are read"),
		OPT_SIZE("max-message-size", &max_message,
			 "skip (and name) any message larger than SIZE bytes\n"
			 "(K, M, G suffixes; default 64M)"),
		OPT_JSON(&json),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("import", argc, argv, options, &usage, 0);
	if (argc > 0 || !maildir || !!mboxes.nr + !!pi != 1) {
		strlist_clear(&mboxes);
		if (argc > 0)
			return cli_usage_error("import", "unexpected argument '%s'", argv[0]);
		if (!maildir)
			return cli_usage_error("import", "--maildir is required");
		return cli_usage_error("import", "give --mbox (one or more) or --public-inbox");
	}
	im = sm_import_open(maildir, db);
	if (!im) {
		strlist_clear(&mboxes);
		return cli_fail("import");
	}
	sm_import_set_max_message(im, max_message);
	progress = sm_progress_start("Importing messages", 0);
	sm_import_set_progress(im, progress);
	r = 0;
	for (size_t i = 0; r >= 0 && i < mboxes.nr; i++) {
		r = sm_import_mbox(im, mboxes.items[i]);
		if (r == SM_IMPORT_BAD_INPUT) {
			/* A bad input is named; the others are still read. */
			sm_progress_clear_line();
			fprintf(stderr, "stablemate import: %s\n", sm_last_error());
			bad_inputs++;
			r = 0;
		}
	}
	if (pi)
		r = sm_import_public_inbox(im, pi);
	nr_inputs = mboxes.nr;
	strlist_clear(&mboxes);
	if (sm_import_finish(im, r, &st) < 0) {
		sm_progress_abort(&progress);
		return cli_fail("import");
	}
	sm_progress_stop(&progress);
	cli_import_stats("import", &st, json, 1);
	if (bad_inputs) {
		fprintf(stderr, "stablemate import: %d of %zu inputs could not be read whole "
			"(named above)\n", bad_inputs, nr_inputs);
		return 1;
	}
	return 0;
}
