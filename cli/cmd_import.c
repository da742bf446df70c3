/* stablemate import: mbox or public-inbox archive -> maildir (+ notmuch). */
#include "cli/cli.h"
#include "mail/import.h"
#include "lib/util.h"
#include "lib/strlist.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: stablemate import --maildir DIR [--db DIR] (--mbox FILE... | --public-inbox GIT_DIR)\n"
	"                         [--json]\n\n"
	"Writes each message to DIR/cur/ (atomically, through DIR/tmp/; the file is\n"
	"named after the SHA-1 of its bytes, so importing twice writes nothing new)\n"
	"and indexes it into the notmuch database (created when missing). Mails\n"
	"that cannot be parsed are named on stderr and skipped.\n\n"
	"  --maildir DIR          maildir to write (created as needed)\n"
	"  --db DIR               notmuch database to index into; the maildir must be\n"
	"                         inside it (default: index nothing)\n"
	"  --mbox FILE            an mboxo/mboxrd file, gzipped or not (may be repeated)\n"
	"  --public-inbox GIT_DIR an epoch repository (N.git) or a public-inbox\n"
	"                         directory with git/N.git; only commits after the last\n"
	"                         imported one (DIR/" SM_IMPORT_STATE_FILE ") are read\n"
	"  --json                 print the counts as JSON\n";

int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "maildir", required_argument, NULL, 'm' },
		{ "db", required_argument, NULL, 'd' },
		{ "mbox", required_argument, NULL, 'x' },
		{ "public-inbox", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *maildir = NULL, *db = NULL, *pi = NULL;
	struct strlist mboxes = STRLIST_INIT;
	struct sm_importer *im;
	struct sm_import_stats st;
	int c, json = 0, r;

	if (cli_wants_help(argc, argv))
		cli_help(usage);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': maildir = optarg; break;
		case 'd': db = optarg; break;
		case 'x': strlist_append(&mboxes, optarg); break;
		case 'p': pi = optarg; break;
		case 'j': json = 1; break;
		default:
			return cli_usage_error("import", "unknown or incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc || !maildir || !!mboxes.nr + !!pi != 1) {
		strlist_clear(&mboxes);
		if (optind < argc)
			return cli_usage_error("import", "unexpected argument '%s'", argv[optind]);
		if (!maildir)
			return cli_usage_error("import", "--maildir is required");
		return cli_usage_error("import", "give --mbox (one or more) or --public-inbox");
	}
	im = sm_import_open(maildir, db);
	if (!im) {
		strlist_clear(&mboxes);
		return cli_fail("import");
	}
	r = 0;
	for (size_t i = 0; r == 0 && i < mboxes.nr; i++)
		r = sm_import_mbox(im, mboxes.items[i]);
	if (pi)
		r = sm_import_public_inbox(im, pi);
	strlist_clear(&mboxes);
	if (sm_import_finish(im, r, &st) < 0)
		return cli_fail("import");
	if (json)
		printf("{\"messages\":%u,\"written\":%u,\"existing\":%u,\"indexed\":%u,"
		       "\"duplicates\":%u,\"skipped\":%u}\n", st.messages, st.written,
		       st.existing, st.indexed, st.duplicates, st.skipped);
	else
		printf("import: %u messages, %u written, %u already there, %u indexed, "
		       "%u duplicate Message-IDs, %u skipped\n", st.messages, st.written,
		       st.existing, st.indexed, st.duplicates, st.skipped);
	return 0;
}
