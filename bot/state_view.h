/* state_view: a read-only view of the bot's state directory for pages and
 * reports: which (candidate, tree) pairs are queued, sent or refused, and
 * for how many subscribers. It reads only the documented layout of
 * bot/state.h (sent.log lines and the "key SUB UP TREE" lines of queue/,
 * sending/, sent/ and failed/ files; sending/ counts as queued), never
 * writes, and takes no lock. */
#ifndef SM_BOT_STATE_VIEW_H
#define SM_BOT_STATE_VIEW_H
#include <stddef.h>

enum sm_mail_state { SM_MAIL_QUEUED, SM_MAIL_SENT, SM_MAIL_FAILED, SM_MAIL_NR_STATES };

struct sm_state_entry {
	char *up;		/* upstream id */
	char *tree;
	char *sub;		/* subscriber */
	enum sm_mail_state state;
};

struct sm_state_view {
	struct sm_state_entry *entries;	/* sorted by (up, tree) after load */
	size_t nr, alloc;
};

#define SM_STATE_VIEW_INIT { NULL, 0, 0 }

/* Loads dir; a missing directory is an empty view. 0 or -1 (sm_error names
 * the file that could not be read). */
int sm_state_view_load(struct sm_state_view *v, const char *dir);
void sm_state_view_release(struct sm_state_view *v);
/* counts[state] = subscribers with that state for (up, tree). A pair sent
 * and also still queued (a rerun after a crash) counts as sent. */
void sm_state_view_count(const struct sm_state_view *v, const char *up, const char *tree,
			 unsigned counts[SM_MAIL_NR_STATES]);

#endif
