/* stablemate report: mail each subscriber the new candidates of a range. */
#include "bot/cycle.h"
#include "cli/bot_cli.h"
#include "cli/cli.h"


static const struct sm_usage usage = {
	.synopsis = "stablemate report [--config FILE] [--range REV..REV] [--dry-run[=MAILDIR]] [--json] [-q]",
	.description =
"Scans the upstream range for each configured stable tree and mails every\n"
"subscriber one report of the candidates new to them (the cover), with each\n"
"candidate patch as a reply in the thread. Mails go into STATE/queue first,\n"
"are sent over SMTP, then recorded in STATE/sent.log: a rerun sends nothing\n"
"twice, and mails a server refused or could not take stay queued for the\n"
"next run. --dry-run: nothing is harvested in report.\n",
};

int cmd_report(int argc, char **argv)
{
	return bot_cycle_command("report", &usage, 0, argc, argv);
}
