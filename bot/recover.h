/* recover: the mails a crash left in doubt.
 *
 * A mail moves queue/ -> sending/ before the SMTP dialogue starts and
 * sending/ -> sent/ on the server's 250 after the message. A process that
 * dies in between leaves it in sending/, and nothing on the client can tell
 * whether the server took it: SMTP has no way to ask (the 250 may have been
 * sent and lost, or the dot never arrived). What stablemate can do is look
 * for the mail where it goes: the list the bot copies (bot.cc) feeds the
 * notmuch database the harvest reads, so a mail whose Message-ID is there
 * went out. */
#ifndef SM_BOT_RECOVER_H
#define SM_BOT_RECOVER_H
#include "bot/config.h"
#include "bot/state.h"

struct sm_recover_stats {
	unsigned confirmed;	/* found in the notmuch database: recorded as sent */
	unsigned requeued;	/* not found: back in queue/, sent again */
};

/* Settles every mail in sending/ (call it holding the state's lock, before
 * sending): one whose Message-ID cfg->notmuch_db holds moves to sent/; any
 * other goes back to queue/ to be sent again with the same Message-ID (so
 * archives, notmuch and threading mail readers show a duplicate once).
 * Each is named in a warning. 0, or -1 when a file cannot be moved. */
int sm_bot_recover(const struct sm_bot_config *cfg, struct sm_bot_state *st,
		   struct sm_recover_stats *rs);

#endif
