/* stablemate fetch: a thread mbox (t.mbox.gz) over HTTP into the maildir. */
#include "cli/cli.h"
#include "mail/fetch.h"
#include "mail/import.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const char *const synopsis[] = {
	"stablemate fetch MSGID --from URL --maildir DIR [--db DIR] [--json]",
	NULL
};

static const struct sm_usage usage = { synopsis,
	"Downloads URL/MSGID/t.mbox.gz (the whole thread, as lore.kernel.org and\n"
	"every public-inbox serve it; b4 does the same) and imports its messages\n"
	"like 'stablemate import --mbox'.\n",
	NULL
};

int cmd_fetch(int argc, char **argv)
{
	const char *from = NULL, *maildir = NULL, *db = NULL, *msgid;
	struct strbuf mbox = STRBUF_INIT;
	struct sm_importer *im;
	struct sm_import_stats st;
	int json = 0, r;
	const struct sm_option options[] = {
		OPT_STRING(0, "from", &from, "URL", "public-inbox base, e.g. https://lore.kernel.org/all"),
		OPT_STRING(0, "maildir", &maildir, "DIR", "maildir to write"),
		OPT_STRING(0, "db", &db, "DIR", "notmuch database to index into (the maildir inside it)"),
		OPT_JSON(&json),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("fetch", argc, argv, options, &usage, 0);
	if (argc != 1)
		return cli_usage_error("fetch", "give exactly one Message-ID");
	msgid = argv[0];
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
