/* state: what the bot has mailed to whom, and the outgoing queue.
 *
 * Layout of the state directory (every file written atomically):
 *   sent.log       one line per mailed candidate:
 *                  "<subscriber> <upstream-id> <tree> <message-id> <unix-time>";
 *                  a candidate withdrawn later (bot/report.c: NAKed for the
 *                  tree, reverted upstream) has a second line, its tree
 *                  "<tree>:withdrawn" (no tree name holds a ':'), the
 *                  withdrawal's Message-ID
 *   queue/NAME.mail  composed, not yet sent (sent in name order)
 *   sending/NAME.mail handed to the SMTP server, its answer not yet recorded:
 *                  a file found here when a cycle starts (it holds the
 *                  state's lock, so no other cycle is sending) was being sent
 *                  when a process died, and is in doubt (bot/recover.h)
 *   sent/NAME.mail   sent, not yet folded into sent.log
 *   failed/NAME.mail refused for good by the server (5xx); kept for the admin,
 *                  who may move a file back into queue/ to retry it
 * A queue file is an envelope block ("from ADDR", "rcpt ADDR", "key SUB UP TREE",
 * "msgid ID" lines), an empty line, then the RFC 5322 message (LF line ends).
 * A candidate counts as known (never composed again for that subscriber and
 * tree) when its key is in sent.log or in any queue/, sending/, sent/ or
 * failed/ file, so a crash at any point neither loses nor composes a report
 * twice. The one mail a crash can leave in doubt is the one in sending/. */
#ifndef SM_BOT_STATE_H
#define SM_BOT_STATE_H
#include <stddef.h>
#include "lib/strbuf.h"
#include "lib/strlist.h"

struct sm_bot_state {
	char *dir;
	char **slots;		/* open-addressing set of keys "sub up tree", each
				 * followed by a NUL and its sent.log Message-ID */
	size_t nr, alloc;
	unsigned long seq;	/* queue file counter of this process */
	char stamp[32];		/* run stamp used in queue file names */
};

struct sm_queued_mail {
	char *name;		/* file name inside queue/ */
	char *from;		/* envelope sender (bare address) */
	struct strlist rcpts;	/* bare addresses */
	struct strlist keys;	/* "sub up tree" */
	char *message_id;
	struct strbuf raw;	/* the whole file; message points into it */
	const char *message;
	size_t message_len;
};

/* Creates the directories if needed (not when readonly: a dry run records
 * nothing, and a missing directory is an empty state) and loads every
 * known key. 0 or -1. */
int sm_bot_state_open(struct sm_bot_state *st, const char *dir, int readonly);
void sm_bot_state_release(struct sm_bot_state *st);
int sm_bot_state_known(const struct sm_bot_state *st, const char *sub,
		       const char *upstream, const char *tree);
/* The Message-ID the (sub, upstream, tree) mail went out under, as
 * sent.log has it; NULL when that key is not in sent.log (not mailed
 * yet, or only queued). */
const char *sm_bot_state_sent_msgid(const struct sm_bot_state *st, const char *sub,
				    const char *upstream, const char *tree);
size_t sm_bot_state_nr_known(const struct sm_bot_state *st);

/* Writes a queue file (atomically) and adds its keys to the known set.
 * *name_out (optional) gets the file name; caller frees. 0 or -1. */
int sm_queue_add(struct sm_bot_state *st, const char *sub, const char *from,
		 const struct strlist *rcpts, const struct strlist *keys,
		 const char *message_id, const char *msg, size_t len, char **name_out);
/* The queue's file names in send order. 0 or -1. */
int sm_queue_list(const struct sm_bot_state *st, struct strlist *names);
/* Reads one queue file; release with sm_queued_mail_release. 0 or -1
 * (sm_error names the file when it is malformed). */
int sm_queue_load(const struct sm_bot_state *st, const char *name, struct sm_queued_mail *m);
void sm_queued_mail_release(struct sm_queued_mail *m);
/* Moves queue/NAME to sending/ (before the SMTP dialogue), and back. */
int sm_queue_mark_sending(const struct sm_bot_state *st, const char *name);
int sm_sending_requeue(const struct sm_bot_state *st, const char *name);
/* The names in sending/, and one of them read. 0 or -1. */
int sm_sending_list(const struct sm_bot_state *st, struct strlist *names);
int sm_sending_load(const struct sm_bot_state *st, const char *name, struct sm_queued_mail *m);
/* Moves sending/NAME (or queue/NAME) to sent/ or failed/. 0 or -1. */
int sm_queue_mark_sent(const struct sm_bot_state *st, const char *name);
int sm_queue_mark_failed(const struct sm_bot_state *st, const char *name);
/* Appends the keys of sent/ files to sent.log (one atomic rewrite), then
 * removes them. Returns the number of files folded, or -1. */
int sm_bot_state_fold(const struct sm_bot_state *st);

#endif
