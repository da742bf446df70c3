/* stablemate report: mail each subscriber the new candidates of a range. */
#include "bot/cycle.h"
#include "cli/bot_cli.h"
#include "cli/cli.h"


static const char usage[] =
"usage: stablemate report [--config FILE] [--range REV..REV] [--dry-run[=MAILDIR]] [--json] [-q]\n"
"\n"
"Scans the upstream range for each configured stable tree and mails every\n"
"subscriber one report of the candidates new to them (the cover), with each\n"
"candidate patch as a reply in the thread. Mails go into STATE/queue first,\n"
"are sent over SMTP, then recorded in STATE/sent.log: a rerun sends nothing\n"
"twice, and mails a server refused or could not take stay queued for the\n"
"next run.\n"
"\n"
"  --config FILE        the bot's config (default $STABLEMATE_CONFIG, then\n"
"                       ~/.config/stablemate/bot.conf); see README.md, Configuration\n"
"  --range R            the upstream range to scan (default upstream.range)\n"
"  --dry-run            print the mails as an mbox on stdout; send and record nothing\n"
"  --dry-run=MAILDIR    deliver the mails into MAILDIR instead\n"
"  --json               print the run's figures as JSON\n"
"  -q, --quiet          no warnings, no summary line\n";

int cmd_report(int argc, char **argv)
{
	return bot_cycle_command("report", usage, 0, argc, argv);
}
