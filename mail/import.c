/* import: maildir delivery and notmuch indexing. */
#include "mail/import.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "lib/fileio.h"
#include <glib.h>
#include <notmuch.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
	notmuch_database_t *db;
	struct pending *queue;
	size_t nr, alloc;
	struct sm_import_stats st;
};

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
	im->maildir = realpath(maildir, NULL);
	if (!im->maildir) {
		free(im);
		sm_error("%s: %s", maildir, strerror(errno));
		return NULL;
	}
	if (db_path) {
		char *dotdir = xasprintf("%s/.notmuch", db_path);
		char *msg = NULL, *root = realpath(db_path, NULL);
		notmuch_status_t s;

		if (!root) {
			sm_error("%s: %s", db_path, strerror(errno));
			free(dotdir);
			free(im->maildir);
			free(im);
			return NULL;
		}
		db_path = root;	/* notmuch wants an absolute path */

		if (file_exists(dotdir))
			s = notmuch_database_open_with_config(db_path,
							      NOTMUCH_DATABASE_MODE_READ_WRITE,
							      "", NULL, &im->db, &msg);
		else
			s = notmuch_database_create_with_config(db_path, "", NULL, &im->db, &msg);
		free(dotdir);
		if (s) {
			sm_error("%s: cannot open the notmuch database: %s", db_path,
				 msg ? msg : notmuch_status_to_string(s));
			free(msg);
			free(root);
			free(im->maildir);
			free(im);
			return NULL;
		}
		free(msg);
		if (strncmp(im->maildir, root, strlen(root)) ||
		    (im->maildir[strlen(root)] && im->maildir[strlen(root)] != '/')) {
			sm_error("%s: the maildir must be inside the notmuch database directory %s",
				 maildir, db_path);
			free(root);
			notmuch_database_destroy(im->db);
			free(im->maildir);
			free(im);
			return NULL;
		}
		free(root);
	}
	return im;
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
	fd = open(im->maildir, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || syncfs(fd) < 0) {
		sm_error("%s: sync: %s", im->maildir, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
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
		return flush_batch(im);
	return 0;
}

struct mbox_ctx {
	struct sm_importer *im;
	const char *what;
	unsigned n;
};

static int mbox_one(const char *msg, size_t len, void *data)
{
	struct mbox_ctx *c = data;
	char what[PATH_MAX + 32];

	snprintf(what, sizeof(what), "%s: message %u", c->what, ++c->n);
	return sm_import_message(c->im, msg, len, what);
}

int sm_import_mbox_data(struct sm_importer *im, const char *data, size_t len, const char *what)
{
	struct mbox_ctx c = { im, what, 0 };

	if (sm_mbox_split(data, len, mbox_one, &c) < 0)
		return -1;
	return flush_batch(im);
}

int sm_import_mbox(struct sm_importer *im, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (sm_mbox_read(path, &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	ret = sm_import_mbox_data(im, sb.buf ? sb.buf : "", sb.len, path);
	strbuf_release(&sb);
	return ret;
}

int sm_import_close(struct sm_importer *im, struct sm_import_stats *st)
{
	int ret = flush_batch(im);

	free(im->queue);
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
	char *err;

	if (step_rc >= 0)
		return sm_import_close(im, st);
	err = xstrdup(sm_last_error());
	sm_import_close(im, st);
	sm_error("%s", err);
	free(err);
	return -1;
}

int sm_import_flush(struct sm_importer *im)
{
	return flush_batch(im);
}

const char *sm_import_maildir(const struct sm_importer *im)
{
	return im->maildir;
}
