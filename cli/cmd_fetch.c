/* stablemate fetch: a thread mbox (t.mbox.gz) over HTTP into the maildir. */
#include "cli/cli.h"
#include "cli/output.h"
#include "mail/fetch.h"
#include "mail/import.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate fetch MSGID --from URL --maildir DIR [--db DIR] [--json]\n"
		    "                 [--max-size SIZE] [--max-message-size SIZE]",
	.description =
	"Downloads URL/MSGID/t.mbox.gz (the whole thread, as lore.kernel.org and\n"
	"every public-inbox serve it; b4 does the same) and imports its messages\n"
	"like 'stablemate import --mbox', message by message while it arrives.\n",
};

struct fetch_ctx {
	struct sm_importer *im;
	const char *msgid;
};

static int fetched_one(const struct sm_mbox_msg *m, void *data)
{
	struct fetch_ctx *c = data;

	return sm_import_mbox_message(c->im, m, c->msgid);
}

int cmd_fetch(int argc, char **argv)
{
	const char *from = NULL, *maildir = NULL, *db = NULL, *msgid;
	struct sm_importer *im;
	struct fetch_ctx ctx;
	size_t max_reply = 0, max_message = 0;
	struct sm_import_stats st;
	int json = 0, r;
	const struct sm_option options[] = {
		OPT_STRING(0, "from", &from, "URL", "public-inbox base, e.g. https://lore.kernel.org/all"),
		OPT_STRING(0, "maildir", &maildir, "DIR", "maildir to write"),
		OPT_STRING(0, "db", &db, "DIR", "notmuch database to index into (the maildir inside it)"),
		OPT_SIZE("max-size", &max_reply,
			 "stop (exit 1) when the reply, compressed or not, is\n"
			 "larger (K, M, G suffixes; default 256M)"),
		OPT_SIZE("max-message-size", &max_message,
			 "skip (and name) a larger message (default 64M)"),
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
	im = sm_import_open(maildir, db);
	if (!im)
		return cli_fail("fetch");
	sm_import_set_max_message(im, max_message);
	ctx.im = im;
	ctx.msgid = msgid;
	r = sm_fetch_thread(from, msgid, max_reply, sm_import_max_message(im), fetched_one, &ctx);
	if (sm_import_finish(im, r, &st) < 0)
		return cli_fail("fetch");
	cli_import_stats("fetch", &st, json, 0);
	return 0;
}
