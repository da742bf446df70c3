/* state: what the bot has mailed to whom, and the outgoing queue.
 *
 * Layout of the state directory (every file written atomically):
 *   sent.log       one line per mailed candidate:
 *                  "<subscriber> <upstream-id> <tree> <message-id> <unix-time>"
 *   queue/NAME.mail  composed, not yet sent (sent in name order)
 *   sent/NAME.mail   sent, not yet folded into sent.log
 *   failed/NAME.mail refused for good by the server (5xx); kept for the admin,
 *                  who may move a file back into queue/ to retry it
 * A queue file is an envelope block ("from ADDR", "rcpt ADDR", "key SUB UP TREE",
 * "msgid ID" lines), an empty line, then the RFC 5322 message (LF line ends).
 * A candidate counts as known (never composed again for that subscriber and
 * tree) when its key is in sent.log or in any queue/, sent/ or failed/ file, so
 * a crash at any point neither loses nor duplicates a report; the one window
 * left is between the server's "250 OK" and the rename into sent/, where a
 * crash sends that one mail again on the next run. */
#ifndef SM_BOT_STATE_H
#define SM_BOT_STATE_H
#include <stddef.h>
#include "lib/strbuf.h"
#include "lib/strlist.h"

struct sm_bot_state {
	char *dir;
	char **slots;		/* open-addressing set of keys "sub up tree" */
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
/* Moves queue/NAME to sent/ or failed/. 0 or -1. */
int sm_queue_mark_sent(const struct sm_bot_state *st, const char *name);
int sm_queue_mark_failed(const struct sm_bot_state *st, const char *name);
/* Appends the keys of sent/ files to sent.log (one atomic rewrite), then
 * removes them. Returns the number of files folded, or -1. */
int sm_bot_state_fold(const struct sm_bot_state *st);

#endif
