/* recover: settle the mails a crash left in sending/ (see recover.h). */
#include "bot/recover.h"
#include "lib/util.h"
#include <errno.h>
#include <notmuch.h>
#include <stdlib.h>
#include <string.h>

static notmuch_database_t *open_archive(const char *path)
{
	notmuch_database_t *db = NULL;
	char *msg = NULL, *abs = realpath(path, NULL);
	notmuch_status_t s;

	if (!abs) {
		sm_warn("%s: cannot look for mails in doubt: %s", path, strerror(errno));
		return NULL;
	}
	s = notmuch_database_open_with_config(abs, NOTMUCH_DATABASE_MODE_READ_ONLY, "", NULL, &db, &msg);
	if (s) {
		sm_warn("%s: cannot look for mails in doubt: %s", path,
			msg ? msg : notmuch_status_to_string(s));
		db = NULL;
	}
	free(msg);
	free(abs);
	return db;
}

static int in_archive(notmuch_database_t *db, const char *id)
{
	notmuch_message_t *m = NULL;

	if (!db || !id || notmuch_database_find_message(db, id, &m) || !m)
		return 0;
	notmuch_message_destroy(m);
	return 1;
}

int sm_bot_recover(const struct sm_bot_config *cfg, struct sm_bot_state *st,
		   struct sm_recover_stats *rs)
{
	struct strlist names = STRLIST_INIT;
	notmuch_database_t *db = NULL;
	int ret = 0;

	memset(rs, 0, sizeof(*rs));
	if (sm_sending_list(st, &names))
		return -1;
	if (names.nr && cfg->notmuch_db)
		db = open_archive(cfg->notmuch_db);
	for (size_t i = 0; !ret && i < names.nr; i++) {
		struct sm_queued_mail m;
		const char *id;

		if (sm_sending_load(st, names.items[i], &m))
			sm_warn("%s", sm_last_error());
		id = m.message_id;
		if (in_archive(db, id)) {
			ret = sm_queue_mark_sent(st, names.items[i]);
			if (!ret)
				sm_warn("%s/sending/%s: a run stopped while sending it; <%s> is in %s, "
					"so it went out: recorded as sent", st->dir, names.items[i], id,
					cfg->notmuch_db);
			rs->confirmed++;
		} else {
			ret = sm_sending_requeue(st, names.items[i]);
			if (!ret)
				sm_warn("%s/sending/%s: a run stopped while sending it, and whether the server "
					"took it cannot be known%s%s%s: sending it again with the same Message-ID <%s>",
					st->dir, names.items[i], db ? " (not in " : "",
					db ? cfg->notmuch_db : "", db ? ")" : "", id ? id : "?");
			rs->requeued++;
		}
		sm_queued_mail_release(&m);
	}
	if (db)
		notmuch_database_destroy(db);
	strlist_clear(&names);
	return ret;
}
