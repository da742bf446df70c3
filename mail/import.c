/* import: maildir delivery and notmuch indexing. */
#include "mail/import.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/progress.h"
#include "lib/strbuf.h"
#include "lib/fileio.h"
#include <glib.h>
#include <notmuch.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BATCH 1000

struct pending {
	char *tmp;	/* NULL when the file was already in cur/ */
	char *dst;
	char *what;
	char *msgid;
	int existed;	/* in cur/ already: maybe indexed already */
};

struct sm_importer {
	char *maildir;
	char *db_path;		/* absolute; NULL without a database */
	notmuch_database_t *db;
	size_t max_message;
	struct pending *queue;
	size_t nr, alloc;
	struct sm_import_stats st;
	struct sm_progress *progress;	/* counts messages; NULL: none */
};

void sm_import_step(const char *name)
{
	static long steps, crash_at = -1;

	(void)name;
	if (crash_at < 0) {
		const char *e = getenv("SM_TEST_CRASH_AFTER");

		crash_at = e && *e ? atol(e) : 0;
	}
	if (crash_at > 0 && ++steps == crash_at)
		raise(SIGKILL);
}

/* tmp/sm-<sha1>.<pid> files whose importer died (kill -9, power loss) are
 * never renamed: remove them when no process has that pid any more. */
static void clean_stale_tmp(const char *maildir)
{
	char *dir = xasprintf("%s/tmp", maildir);
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned removed = 0;

	while (d && (de = readdir(d))) {
		const char *dot = strrchr(de->d_name, '.');
		char *end, *path;
		long pid;

		if (strncmp(de->d_name, "sm-", 3) || !dot)
			continue;
		pid = strtol(dot + 1, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (!unlink(path))
			removed++;
		free(path);
	}
	if (d)
		closedir(d);
	if (removed)
		sm_warn("%s: removed %u temporary file%s left by an import that died", dir,
			removed, removed == 1 ? "" : "s");
	free(dir);
}

static int open_db(struct sm_importer *im, int create)
{
	char *msg = NULL;
	notmuch_status_t s;

	if (create)
		s = notmuch_database_create_with_config(im->db_path, "", NULL, &im->db, &msg);
	else
		s = notmuch_database_open_with_config(im->db_path, NOTMUCH_DATABASE_MODE_READ_WRITE,
						      "", NULL, &im->db, &msg);
	if (s) {
		sm_error("%s: cannot open the notmuch database: %s", im->db_path,
			 msg ? msg : notmuch_status_to_string(s));
		im->db = NULL;
	}
	free(msg);
	return s ? -1 : 0;
}

/* notmuch writes the index to disk only when the database is closed (or
 * after "database.autocommit" atomic sections): close it to commit what
 * was indexed, and open it again. */
static int commit_db(struct sm_importer *im)
{
	notmuch_status_t s;

	if (!im->db)
		return 0;
	s = notmuch_database_close(im->db);
	notmuch_database_destroy(im->db);
	im->db = NULL;
	if (s)
		return sm_error("%s: notmuch: committing: %s", im->db_path,
				notmuch_status_to_string(s));
	sm_import_step("commit");
	return open_db(im, 0);
}

struct sm_importer *sm_import_open(const char *maildir, const char *db_path)
{
	struct sm_importer *im;
	char *sub;
	static const char *const subs[] = { "tmp", "new", "cur" };

	for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
		sub = xasprintf("%s/%s", maildir, subs[i]);
		if (mkdir_p(sub, 0700) < 0) {
			free(sub);
			return NULL;
		}
		free(sub);
	}
	im = xcalloc(1, sizeof(*im));
	im->max_message = SM_MBOX_MAX_MESSAGE;
	im->maildir = realpath(maildir, NULL);
	if (!im->maildir) {
		free(im);
		sm_error("%s: %s", maildir, strerror(errno));
		return NULL;
	}
	if (db_path) {
		char *dotdir = xasprintf("%s/.notmuch", db_path);
		int exists = file_exists(dotdir);
		char *root = realpath(db_path, NULL);	/* notmuch wants an absolute path */

		free(dotdir);
		if (!root) {
			sm_error("%s: %s", db_path, strerror(errno));
			goto fail;
		}
		im->db_path = root;
		if (open_db(im, !exists) < 0)
			goto fail;
		if (strncmp(im->maildir, root, strlen(root)) ||
		    (im->maildir[strlen(root)] && im->maildir[strlen(root)] != '/')) {
			sm_error("%s: the maildir must be inside the notmuch database directory %s",
				 maildir, root);
			notmuch_database_destroy(im->db);
			goto fail;
		}
	}
	clean_stale_tmp(im->maildir);
	return im;
fail:
	free(im->db_path);
	free(im->maildir);
	free(im);
	return NULL;
}

void sm_import_set_max_message(struct sm_importer *im, size_t max)
{
	im->max_message = max ? max : SM_MBOX_MAX_MESSAGE;
}

void sm_import_set_progress(struct sm_importer *im, struct sm_progress *progress)
{
	im->progress = progress;
}

size_t sm_import_max_message(const struct sm_importer *im)
{
	return im->max_message;
}

void sm_import_too_big(struct sm_importer *im, const char *what, size_t size)
{
	im->st.messages++;
	im->st.skipped++;
	sm_warn("%s: %zu bytes, over the %zu-byte message size limit (skipped)", what, size,
		im->max_message);
}

/* Writes data to maildir/tmp/<sha1>.<pid> (no fsync yet: the batch is
 * synced at once before the renames) and queues it. */
static int write_tmp(struct sm_importer *im, const char *data, size_t len, const char *what,
		     const char *msgid)
{
	gchar *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA1, (const guchar *)data, len);
	char *tmp = xasprintf("%s/tmp/sm-%s.%d", im->maildir, sum, (int)getpid());
	char *dst = xasprintf("%s/cur/sm-%s:2,", im->maildir, sum);
	struct pending *p;
	int fd;
	size_t off = 0;

	g_free(sum);
	for (size_t i = 0; i < im->nr; i++)
		if (!strcmp(im->queue[i].dst, dst)) {
			/* The same bytes twice in one batch. */
			im->st.existing++;
			free(tmp);
			free(dst);
			return 0;
		}
	if (file_exists(dst)) {
		im->st.existing++;
		free(tmp);
		tmp = NULL;
	} else {
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0) {
			sm_error("%s: %s", tmp, strerror(errno));
			goto fail;
		}
		while (off < len) {
			ssize_t n = write(fd, data + off, len - off);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				sm_error("%s: %s", tmp, strerror(errno));
				close(fd);
				unlink(tmp);
				goto fail;
			}
			off += n;
		}
		if (close(fd) < 0) {
			sm_error("%s: %s", tmp, strerror(errno));
			unlink(tmp);
			goto fail;
		}
		sm_import_step("tmp written");
	}
	ALLOC_GROW(im->queue, im->nr, im->alloc);
	p = &im->queue[im->nr++];
	p->tmp = tmp;
	p->dst = dst;
	p->what = xstrdup(what);
	p->msgid = xstrdup(msgid);
	p->existed = !tmp;
	return 0;
fail:
	free(tmp);
	free(dst);
	return -1;
}

static void clear_queue(struct sm_importer *im)
{
	for (size_t i = 0; i < im->nr; i++) {
		if (im->queue[i].tmp)
			unlink(im->queue[i].tmp);	/* left over after an error */
		free(im->queue[i].tmp);
		free(im->queue[i].dst);
		free(im->queue[i].what);
		free(im->queue[i].msgid);
	}
	im->nr = 0;
}

/* The batch: one syncfs() for all new files, then each rename tmp/ -> cur/
 * (a reader never sees a partial file), then the notmuch index in one
 * atomic section. */
static int flush_batch(struct sm_importer *im)
{
	notmuch_status_t s;
	int fd, ret = -1;
	size_t i;

	if (!im->nr)
		return 0;
	if (im->db_path && !im->db) {
		clear_queue(im);	/* a failed reopen after a commit: never rename unindexed */
		return sm_error("%s: the notmuch database is not open", im->db_path);
	}
	fd = open(im->maildir, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || syncfs(fd) < 0) {
		sm_error("%s: sync: %s", im->maildir, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	sm_import_step("synced");
	for (i = 0; i < im->nr; i++) {
		struct pending *p = &im->queue[i];

		if (!p->tmp)
			continue;
		if (rename(p->tmp, p->dst) < 0) {
			sm_error("%s: %s", p->dst, strerror(errno));
			close(fd);
			goto out;
		}
		free(p->tmp);
		p->tmp = NULL;
		im->st.written++;
	}
	/* The renames themselves, before the index names the files. */
	if (fsync(fd) < 0) {
		sm_error("%s: sync: %s", im->maildir, strerror(errno));
		close(fd);
		goto out;
	}
	close(fd);
	sm_import_step("renamed");
	if (!im->db) {
		ret = 0;
		goto out;
	}
	s = notmuch_database_begin_atomic(im->db);
	if (s) {
		sm_error("notmuch: %s", notmuch_status_to_string(s));
		goto out;
	}
	for (i = 0; i < im->nr; i++) {
		struct pending *p = &im->queue[i];
		notmuch_message_t *msg = NULL;

		if (p->existed &&
		    notmuch_database_find_message_by_filename(im->db, p->dst, &msg) ==
			    NOTMUCH_STATUS_SUCCESS && msg) {
			/* Written and indexed by an earlier run. */
			notmuch_message_destroy(msg);
			im->st.duplicates++;
			continue;
		}
		s = notmuch_database_index_file(im->db, p->dst, NULL, &msg);
		if (s == NOTMUCH_STATUS_SUCCESS)
			im->st.indexed++;
		else if (s == NOTMUCH_STATUS_DUPLICATE_MESSAGE_ID)
			im->st.duplicates++;
		else if (s == NOTMUCH_STATUS_FILE_NOT_EMAIL || s == NOTMUCH_STATUS_FILE_ERROR) {
			sm_warn("%s: <%s>: notmuch cannot index it: %s (skipped)", p->what,
				p->msgid, notmuch_status_to_string(s));
			im->st.skipped++;
		} else {
			sm_error("%s: <%s>: notmuch: %s", p->what, p->msgid,
				 notmuch_status_to_string(s));
			if (msg)
				notmuch_message_destroy(msg);
			notmuch_database_end_atomic(im->db);
			goto out;
		}
		if (msg)
			notmuch_message_destroy(msg);
	}
	s = notmuch_database_end_atomic(im->db);
	if (s) {
		sm_error("notmuch: %s", notmuch_status_to_string(s));
		goto out;
	}
	sm_import_step("indexed");
	ret = 0;
out:
	clear_queue(im);
	return ret;
}

int sm_import_message(struct sm_importer *im, const char *data, size_t len, const char *what)
{
	struct sm_mail probe;
	int ret;

	im->st.messages++;
	sm_progress_update(im->progress, im->st.messages);
	/* A mail gmime cannot read is named and skipped, never imported. */
	if (sm_mail_parse(&probe, data, len, what) < 0) {
		sm_warn("%s (skipped)", sm_last_error());
		sm_mail_release(&probe);
		im->st.skipped++;
		return 0;
	}
	ret = write_tmp(im, data, len, what, probe.message_id);
	sm_mail_release(&probe);
	if (ret < 0)
		return -1;
	if (im->nr >= BATCH)
		return sm_import_flush(im);
	return 0;
}

int sm_import_mbox_message(struct sm_importer *im, const struct sm_mbox_msg *m,
			   const char *what)
{
	char name[PATH_MAX + 320];

	/* The Message-ID names a mail too big to parse; gmime names the others. */
	snprintf(name, sizeof(name), "%s: message %u%s%s", what, m->n,
		 m->too_big && *m->msgid ? " " : "", m->too_big ? m->msgid : "");
	if (m->too_big) {
		sm_import_too_big(im, name, m->size);
		return 0;
	}
	return sm_import_message(im, m->data, m->len, name);
}

struct mbox_ctx {
	struct sm_importer *im;
	const char *what;
	int failed;	/* writing or indexing failed (not the input) */
};

static int mbox_one(const struct sm_mbox_msg *m, void *data)
{
	struct mbox_ctx *c = data;

	if (sm_import_mbox_message(c->im, m, c->what) < 0) {
		c->failed = 1;
		return -1;
	}
	return 0;
}

int sm_import_mbox(struct sm_importer *im, const char *path)
{
	struct mbox_ctx c = { im, path, 0 };
	int ret = sm_mbox_stream(path, im->max_message, mbox_one, &c);

	if (ret < 0 && c.failed)
		return -1;
	if (ret < 0) {
		/* The input is bad; what came before the damage is kept. */
		char *err = xstrdup(sm_last_error());

		ret = flush_batch(im);
		if (ret == 0)
			sm_error("%s", err);
		free(err);
		return ret < 0 ? -1 : SM_IMPORT_BAD_INPUT;
	}
	return flush_batch(im);
}

int sm_import_close(struct sm_importer *im, struct sm_import_stats *st)
{
	int ret = flush_batch(im);

	free(im->queue);
	free(im->db_path);
	if (im->db) {
		notmuch_status_t s = notmuch_database_destroy(im->db);
		if (s && !ret)
			ret = sm_error("notmuch: closing: %s", notmuch_status_to_string(s));
	}
	if (st)
		*st = im->st;
	free(im->maildir);
	free(im);
	return ret;
}

int sm_import_finish(struct sm_importer *im, int step_rc, struct sm_import_stats *st)
{
	struct sm_error_state err;

	if (step_rc >= 0)
		return sm_import_close(im, st);
	sm_error_save(&err);
	sm_import_close(im, st);
	return sm_error_restore(&err);
}

int sm_import_flush(struct sm_importer *im)
{
	if (flush_batch(im) < 0)
		return -1;
	return commit_db(im);
}

const char *sm_import_maildir(const struct sm_importer *im)
{
	return im->maildir;
}

void sm_import_stats_json(const struct sm_import_stats *st, struct json_writer *w)
{
	json_object_begin(w, NULL);
	JSON_INTS(w, "messages written existing indexed duplicates skipped", st->messages,
		  st->written, st->existing, st->indexed, st->duplicates, st->skipped);
	json_object_end(w);
}
