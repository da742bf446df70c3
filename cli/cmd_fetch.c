/* stablemate fetch: a thread mbox (t.mbox.gz) over HTTP into the maildir. */
#include "cli/cli.h"
#include "mail/fetch.h"
#include "mail/import.h"
#include "lib/util.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: stablemate fetch MSGID --from URL --maildir DIR [--db DIR] [--json]\n\n"
	"Downloads URL/MSGID/t.mbox.gz (the whole thread, as lore.kernel.org and\n"
	"every public-inbox serve it; b4 does the same) and imports its messages\n"
	"like 'stablemate import --mbox'.\n\n"
	"  --from URL     public-inbox base, e.g. https://lore.kernel.org/all\n"
	"  --maildir DIR  maildir to write\n"
	"  --db DIR       notmuch database to index into (the maildir inside it)\n"
	"  --json         print the counts as JSON\n";

int cmd_fetch(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "maildir", required_argument, NULL, 'm' },
		{ "db", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *from = NULL, *maildir = NULL, *db = NULL, *msgid;
	struct strbuf mbox = STRBUF_INIT;
	struct sm_importer *im;
	struct sm_import_stats st;
	int c, json = 0, r;

	if (cli_wants_help(argc, argv))
		cli_help(usage);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': from = optarg; break;
		case 'm': maildir = optarg; break;
		case 'd': db = optarg; break;
		case 'j': json = 1; break;
		default:
			return cli_usage_error("fetch", "unknown or incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind + 1 != argc)
		return cli_usage_error("fetch", "give exactly one Message-ID");
	msgid = argv[optind];
	if (!from || !maildir)
		return cli_usage_error("fetch", "--from and --maildir are required");
	if (sm_fetch_thread(from, msgid, &mbox) < 0) {
		strbuf_release(&mbox);
		return cli_fail("fetch");
	}
	im = sm_import_open(maildir, db);
	if (!im) {
		strbuf_release(&mbox);
		return cli_fail("fetch");
	}
	r = sm_import_mbox_data(im, mbox.buf ? mbox.buf : "", mbox.len, msgid);
	strbuf_release(&mbox);
	if (sm_import_finish(im, r, &st) < 0)
		return cli_fail("fetch");
	if (json)
		printf("{\"messages\":%u,\"written\":%u,\"existing\":%u,\"indexed\":%u,"
		       "\"duplicates\":%u,\"skipped\":%u}\n", st.messages, st.written,
		       st.existing, st.indexed, st.duplicates, st.skipped);
	else
		printf("fetch: %u messages, %u written, %u already there, %u indexed, %u skipped\n",
		       st.messages, st.written, st.existing, st.indexed, st.skipped);
	return 0;
}
