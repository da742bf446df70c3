/* import: mail into a maildir (atomic tmp/ -> cur/ rename, file named by
 * the SHA-1 of its bytes so a rerun never duplicates a file) and into a
 * notmuch database (notmuch_database_index_file). Sources: one message,
 * an mbox (gz too), a public-inbox git archive read with libgit2. */
#ifndef SM_MAIL_IMPORT_H
#define SM_MAIL_IMPORT_H
#include <stddef.h>
#include "mail/mbox.h"

struct sm_import_stats {
	unsigned messages;	/* seen */
	unsigned written;	/* new maildir files */
	unsigned existing;	/* file was already there */
	unsigned indexed;	/* newly indexed by notmuch */
	unsigned duplicates;	/* notmuch already had the Message-ID */
	unsigned skipped;	/* not a mail (one warning each) */
};

/* st as one JSON object: messages, written, existing, indexed, duplicates,
 * skipped. */
struct json_writer;
void sm_import_stats_json(const struct sm_import_stats *st, struct json_writer *w);

struct sm_importer;

/* maildir is created as needed. db_path NULL: no indexing; otherwise the
 * notmuch database there is opened or created, and maildir must be inside
 * it. Returns NULL on error (sm_error). */
struct sm_importer *sm_import_open(const char *maildir, const char *db_path);
/* Imports one message; what names it in warnings. 0, or -1 on a write error. */
int sm_import_message(struct sm_importer *im, const char *data, size_t len, const char *what);
/* Messages over this size (default SM_MBOX_MAX_MESSAGE, 64 MB) are named
 * in one warning and skipped; 0 sets the default. */
void sm_import_set_max_message(struct sm_importer *im, size_t max);
size_t sm_import_max_message(const struct sm_importer *im);
/* Counts the messages read on progress (lib/progress.h; NULL: none). */
struct sm_progress;
void sm_import_set_progress(struct sm_importer *im, struct sm_progress *progress);
/* Counts and names (one warning) a message of size bytes that is skipped
 * for being over the limit. */
void sm_import_too_big(struct sm_importer *im, const char *what, size_t size);
/* One message of an mbox stream (mail/mbox.h), named "what: message N". */
int sm_import_mbox_message(struct sm_importer *im, const struct sm_mbox_msg *m,
			   const char *what);
/* What sm_import_mbox returns when it did not fail (-1, sm_error). */
enum sm_import_status {
	SM_IMPORT_DONE = 0,
	SM_IMPORT_BAD_INPUT = 1,	/* the input is damaged; go on with the next */
};

/* Reads the mbox (gzipped or not) as a stream. SM_IMPORT_DONE, -1 when
 * writing or indexing failed (stop); SM_IMPORT_BAD_INPUT when the input
 * itself is bad (missing, unreadable, corrupt or truncated gzip: sm_error
 * names it; the messages before the damage are imported, a cut-off last
 * one is not). */
int sm_import_mbox(struct sm_importer *im, const char *path);
/* git_dir is one epoch (N.git or any repo whose commits carry blob "m") or
 * a public-inbox top directory holding git/N.git. Only commits after the
 * last one imported (state file in the maildir, atomic) are read. */
int sm_import_public_inbox(struct sm_importer *im, const char *git_dir);
/* Indexes the queued messages and commits the database to disk: call it
 * before a state file names what was imported. */
int sm_import_flush(struct sm_importer *im);
/* A numbered step of the import (a file written, synced, renamed, the
 * index committed, the state written). Test hook: with SM_TEST_CRASH_AFTER=N
 * in the environment the process SIGKILLs itself after step N. */
void sm_import_step(const char *name);
/* The maildir's absolute path. */
const char *sm_import_maildir(const struct sm_importer *im);
/* Flushes the database; fills st. 0 or -1. Frees im either way. */
int sm_import_close(struct sm_importer *im, struct sm_import_stats *st);
/* Closes im after the import steps returned step_rc (fills st, frees im).
 * When a step failed (step_rc < 0) its error is the one kept, not a later
 * one from closing; returns -1 then, else sm_import_close()'s result. */
int sm_import_finish(struct sm_importer *im, int step_rc, struct sm_import_stats *st);

#define SM_IMPORT_STATE_FILE ".stablemate-import-state"

#endif
