/* harvest: notmuch threads -> patches and replies -> review notes.
 *
 * Per thread: every message is parsed, replies are linked to patches
 * (mail/thread.c), patches are mapped to upstream commits (mail/map.c),
 * each review from a reply that matched the query is added to the note on
 * its commit, and only then does the cursor move: the database revision the
 * run started at, kept in the database's config per query, notes ref and
 * repository. The next run reads only messages changed since
 * (`lastmod:` — one config write per run instead of a tag write per
 * message). A crash between the notes and the cursor leaves the cursor
 * where it was: the rerun adds the same reviews again, which the notes
 * layer keys by Message-ID (no duplicate). */
#include "mail/harvest.h"
#include "mail/ident.h"
#include "mail/map.h"
#include "mail/msgid.h"
#include "mail/pending.h"
#include "mail/review.h"
#include "mail/thread.h"
#include "gitnotes/notes.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/strlist.h"
#include "lib/progress.h"
#include <glib.h>
#include <notmuch.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <time.h>

#define NONE ((size_t)-1)

/* Blocks waiting for one notes write: reviews[i] goes to commits[i]. */
struct batch {
	struct sm_review *reviews;
	git_oid *commits;
	size_t nr, alloc_reviews, alloc_commits;
};

static void batch_add(struct batch *p, struct sm_review *r, const git_oid *commit)
{
	ALLOC_GROW(p->reviews, p->nr, p->alloc_reviews);
	ALLOC_GROW(p->commits, p->nr, p->alloc_commits);
	p->reviews[p->nr] = *r;	/* the batch owns it now */
	git_oid_cpy(&p->commits[p->nr], commit);
	p->nr++;
}

static void batch_clear(struct batch *p)
{
	for (size_t i = 0; i < p->nr; i++)
		sm_review_release(&p->reviews[i]);
	p->nr = 0;
}

static void batch_release(struct batch *p)
{
	batch_clear(p);
	free(p->reviews);
	free(p->commits);
}

struct harvest {
	const struct sm_harvest_opts *o;
	struct sm_harvest_stats *st;
	sm_harvest_fn fn;
	void *data;
	notmuch_database_t *db;
	struct sm_mapper *map;
	struct sm_aliases aliases;
	char *notes_ref;	/* in full, as git notes --ref names it */
	/* The batches: blocks to write, reviews in one notes commit and
	 * stable-queue notices in another (each kind counted apart). */
	struct batch reviews, notices;
	/* Reviewed patches with no upstream commit yet (mail/pending.h), and
	 * whether the thread being read is one of theirs read again: its
	 * messages and patches were counted, and said unmapped, before. */
	struct sm_pending waiting;
	long long now;
	int retrying;
	/* threads to read again whole: a patch came in after answers to it */
	struct strlist again;
};

static void event(struct harvest *h, const char *ev, const struct sm_review *r,
		  const char *commit, const char *patch_id, const char *subject)
{
	if (h->fn)
		h->fn(h->data, ev, r, commit, patch_id, subject);
}

#define BATCH_REVIEWS 512

/* Writes one batch (one notes commit): *added of its blocks were new,
 * *known were there. */
static int write_batch(struct harvest *h, struct batch *p, unsigned *added, unsigned *known)
{
	size_t n = 0;

	if (p->nr && !h->o->dry_run) {
		if (sm_notes_add_batch(sm_mapper_repo(h->map), h->notes_ref, p->commits,
				       p->reviews, p->nr, &n) < 0)
			return -1;
		*added += n;
		*known += p->nr - n;
	} else {
		*added += p->nr;	/* dry run: would add */
	}
	return 0;
}

/* Writes the batched reviews and notices. */
static int flush(struct harvest *h)
{
	int written = (h->reviews.nr || h->notices.nr) && !h->o->dry_run;

	if (write_batch(h, &h->reviews, &h->st->reviews_added, &h->st->reviews_known) < 0 ||
	    write_batch(h, &h->notices, &h->st->notices_added, &h->st->notices_known) < 0)
		return -1;
	/* Between the note write and the cursor write (the crash test's hook). */
	if (written)
		event(h, "written", NULL, NULL, NULL, NULL);
	batch_clear(&h->reviews);
	batch_clear(&h->notices);
	return 0;
}

/* Where a patch goes: 1 mapped (oid set), 0 unmapped. Cached per thread. */
struct patch_map {
	int state;	/* 0 not tried, 1 mapped, 2 unmapped, 3 unmapped and said so */
	git_oid oid;
};

static int map_patch(struct harvest *h, struct sm_thread *t, size_t i, struct patch_map *pm)
{
	if (!pm[i].state) {
		const struct sm_thread_mail *tm = &t->mails[i];
		int r = sm_map_patch(h->map, tm->mail.body + tm->patch_at, tm->ps.title,
				     tm->mail.message_id, &pm[i].oid);

		if (r < 0)
			return -1;
		pm[i].state = r ? 1 : 2;
		if (h->retrying)
			;	/* counted when first read */
		else if (r)
			h->st->mapped++;
		else
			h->st->unmapped++;
	}
	return pm[i].state == 1;
}

/* Says once per patch that it has no upstream commit (map_patch said 0),
 * and keeps it for a later run to map again. */
static void report_unmapped(struct harvest *h, const struct sm_thread *t, size_t i,
			    struct patch_map *pm)
{
	if (pm[i].state != 2)
		return;
	pm[i].state = 3;	/* reported */
	sm_pending_add(&h->waiting, t->mails[i].mail.message_id, t->mails[i].ps.title, h->now);
	if (h->retrying)
		return;
	sm_warn("<%s>: no upstream commit found for patch \"%s\"", t->mails[i].mail.message_id,
		sm_thread_patch_subject(t, i));
	event(h, "unmapped", NULL, NULL, t->mails[i].mail.message_id, sm_thread_patch_subject(t, i));
}

/* The stable queue's notices among the thread's new mails ("FAILED:
 * patch ... failed to apply to 6.1-stable tree"), each a block of its own
 * on the commit it names: whether or not anyone answered it, it tells
 * every tree's maintainer where the stable queue stands. */
static int harvest_notices(struct harvest *h, struct sm_thread *t, struct patch_map *pm)
{
	for (size_t i = 0; i < t->nr; i++) {
		struct sm_review r;
		char hex[GIT_OID_HEXSZ + 1];
		int mapped;

		if (!t->mails[i].is_new || !sm_notice_from_thread(t, i, &r))
			continue;
		mapped = map_patch(h, t, i, pm);
		if (mapped <= 0) {
			sm_review_release(&r);
			if (mapped < 0)
				return -1;
			report_unmapped(h, t, i, pm);
			continue;
		}
		git_oid_tostr(hex, sizeof(hex), &pm[i].oid);
		event(h, "notice", &r, hex, t->mails[i].mail.message_id, sm_thread_patch_subject(t, i));
		batch_add(&h->notices, &r, &pm[i].oid);
	}
	return 0;
}

/* Does an older reply (read by an earlier run) answer a patch or cover
 * letter that is new in this run? A mail held up on its way, or a patch
 * sent to a list the database gets later, arrives after the answers to
 * it: those were read with nothing to review then, and the cursor has
 * moved past them. */
static int answered_before_it_came(const struct sm_thread *t)
{
	for (size_t j = 0; j < t->nr; j++) {
		const struct sm_thread_mail *r = &t->mails[j];
		const struct sm_thread_mail *a;

		if (r->kind != SM_MAIL_REPLY || r->is_new || r->parent == NONE)
			continue;
		a = &t->mails[r->parent];
		if (a->is_new)
			return 1;
		if (a->kind == SM_MAIL_COVER)
			for (size_t k = 0; k < t->nr; k++)
				if (t->mails[k].is_new && t->mails[k].kind == SM_MAIL_PATCH &&
				    t->mails[k].cover == r->parent)
					return 1;
	}
	return 0;
}

static int harvest_thread(struct harvest *h, notmuch_thread_t *thread)
{
	struct sm_thread t = SM_THREAD_INIT;
	struct sm_reply_cache replies = SM_REPLY_CACHE_INIT;
	notmuch_messages_t *msgs;
	struct patch_map *pm = NULL;
	size_t i;
	int ret = -1;

	for (msgs = notmuch_thread_get_messages(thread); notmuch_messages_valid(msgs);
	     notmuch_messages_move_to_next(msgs)) {
		notmuch_message_t *nm = notmuch_messages_get(msgs);
		notmuch_bool_t match = FALSE;
		const char *file = notmuch_message_get_filename(nm);
		const char *id = notmuch_message_get_message_id(nm);
		struct sm_mail m = { 0 };

		if (notmuch_message_get_flag_st(nm, NOTMUCH_MESSAGE_FLAG_MATCH, &match))
			match = FALSE;
		if (match && !h->retrying)
			h->st->messages++;
		if (!file || sm_mail_parse_file(&m, file) < 0) {
			if (match && !h->retrying) {
				sm_warn("<%s>: %s (skipped)", id, file ? sm_last_error() : "no file");
				h->st->skipped_broken++;
			}
			sm_mail_release(&m);
			continue;
		}
		/* notmuch's id is the key everything else uses; one that cannot
		 * key a note ("foo bar", "<>") is kept under a derived one. */
		free(m.message_id);
		if (sm_msgid_is_key(id)) {
			m.message_id = xstrdup(id);
		} else {
			m.message_id = sm_msgid_derived(id);
			if (match && !h->retrying) {
				sm_warn("message '%s' (%s): not a usable Message-ID; kept as <%s>",
					id, file, m.message_id);
				h->st->bad_ids++;
			}
		}
		sm_thread_add(&t, &m, match);
	}
	sm_thread_resolve(&t, h->o->bot_address);
	for (i = 0; i < t.nr; i++)
		if (t.mails[i].is_new && t.mails[i].kind == SM_MAIL_PATCH && !h->retrying)
			h->st->patches++;
	if (!h->retrying && answered_before_it_came(&t) &&
	    !strlist_contains(&h->again, notmuch_thread_get_thread_id(thread)))
		strlist_append(&h->again, notmuch_thread_get_thread_id(thread));

	pm = xcalloc(t.nr ? t.nr : 1, sizeof(*pm));
	for (i = 0; i < t.nr_reviews; i++) {
		const struct sm_thread_review *tr = &t.reviews[i];
		const struct sm_thread_mail *p = &t.mails[tr->patch];
		struct sm_review r;
		char hex[GIT_OID_HEXSZ + 1];
		int mapped;

		if (!sm_review_from_thread(&t, tr, &h->aliases, &replies, &r))
			continue;
		if (r.unverified.nr && !h->retrying)
			h->st->unverified++;
		mapped = map_patch(h, &t, tr->patch, pm);
		if (mapped < 0) {
			sm_review_release(&r);
			goto out;
		}
		if (!mapped) {
			report_unmapped(h, &t, tr->patch, pm);
			sm_review_release(&r);
			continue;
		}
		git_oid_tostr(hex, sizeof(hex), &pm[tr->patch].oid);
		event(h, "review", &r, hex, p->mail.message_id, sm_thread_patch_subject(&t, tr->patch));
		batch_add(&h->reviews, &r, &pm[tr->patch].oid);
	}
	if (harvest_notices(h, &t, pm) < 0)
		goto out;
	/* Whole threads per batch. */
	if (h->reviews.nr + h->notices.nr >= BATCH_REVIEWS)
		ret = flush(h);
	else
		ret = 0;
out:
	free(pm);
	sm_reply_cache_release(&replies);
	sm_thread_release(&t);
	return ret;
}

/* The config key of the cursor: per query, notes ref and repository. */
static char *cursor_key(const char *query, const char *notes_ref, const char *repo)
{
	char *real = realpath(repo, NULL);
	char *text = xasprintf("%s\n%s\n%s", query, notes_ref, real ? real : repo);
	gchar *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA1, text, -1);
	char *key = xasprintf("stablemate.harvest-%s", sum);

	g_free(sum);
	free(text);
	free(real);
	return key;
}

/* The first revision not harvested yet under key: 0 without a cursor or
 * when the database is another one (its UUID changed). */
static unsigned long cursor_read(notmuch_database_t *db, const char *key, const char *uuid)
{
	char *val = NULL;
	unsigned long rev = 0;
	size_t ul = strlen(uuid);

	if (notmuch_database_get_config(db, key, &val) == NOTMUCH_STATUS_SUCCESS && val &&
	    !strncmp(val, uuid, ul) && val[ul] == ' ') {
		char *end;

		errno = 0;
		rev = strtoul(val + ul + 1, &end, 10);
		rev = (errno || *end) ? 0 : rev + 1;
	}
	free(val);
	return rev;
}

/* The thread thread_id, its messages that match base (not the cursor's
 * lastmod: they were read before), harvested again. */
static int harvest_again(struct harvest *h, const char *base, const char *thread_id)
{
	notmuch_query_t *q;
	notmuch_threads_t *threads = NULL;
	char *query;
	int ret = 0;

	if (!strcmp(base, "*") || !*base)
		query = xasprintf("thread:%s", thread_id);
	else
		query = xasprintf("thread:%s and (%s)", thread_id, base);
	q = notmuch_query_create(h->db, query);
	if (!q || notmuch_query_search_threads(q, &threads)) {
		ret = sm_error("%s: query \"%s\" failed", h->o->db_path, query);
		goto out;
	}
	h->retrying = 1;
	for (; !ret && notmuch_threads_valid(threads); notmuch_threads_move_to_next(threads)) {
		notmuch_thread_t *th = notmuch_threads_get(threads);

		ret = harvest_thread(h, th);
		notmuch_thread_destroy(th);
	}
	h->retrying = 0;
out:
	if (threads)
		notmuch_threads_destroy(threads);
	if (q)
		notmuch_query_destroy(q);
	free(query);
	return ret;
}

/* The patches of earlier runs that had no upstream commit: once the
 * upstream ref has moved, each is looked up again by its Message-ID (a
 * Link: to it) and title; the threads of those found now are harvested
 * again, each once (a series' patches land together), so the reviews
 * they had reach the notes. New unmapped patches of this run are not
 * tried (nothing moved for them). */
static int retry_waiting(struct harvest *h, const char *base, size_t from_earlier_runs)
{
	struct strlist threads = STRLIST_INIT;
	unsigned char *found;
	char tip[GIT_OID_HEXSZ + 1];
	int ret = 0;

	git_oid_tostr(tip, sizeof(tip), sm_mapper_tip(h->map));
	if (!strcmp(tip, h->waiting.tip))
		return 0;
	found = xcalloc(h->waiting.nr ? h->waiting.nr : 1, 1);
	for (size_t i = 0; i < from_earlier_runs; i++) {
		const char *msgid = h->waiting.items[i].msgid;
		notmuch_message_t *m = NULL;
		git_oid oid;
		int r = sm_map_patch(h->map, NULL, h->waiting.items[i].title, msgid, &oid);

		if (r < 0) {
			ret = -1;
			goto out;
		}
		if (!r)
			continue;
		/* a message gone from the database has nothing to read; a
		 * thread this run reads again anyway is read once */
		if (!notmuch_database_find_message(h->db, msgid, &m) && m) {
			const char *id = notmuch_message_get_thread_id(m);

			if (id && !strlist_contains(&threads, id) && !strlist_contains(&h->again, id))
				strlist_append(&threads, id);
			notmuch_message_destroy(m);
		}
		found[i] = 1;
	}
	h->st->pending_mapped += (unsigned)sm_pending_remove_marked(&h->waiting, found);
	for (size_t i = 0; i < threads.nr && !ret; i++)
		ret = harvest_again(h, base, threads.items[i]);
	if (!ret)
		memcpy(h->waiting.tip, tip, sizeof(tip));
out:
	free(found);
	strlist_clear(&threads);
	return ret;
}

static int config_set(struct harvest *h, const char *key, const char *val)
{
	notmuch_status_t s = notmuch_database_set_config(h->db, key, val);

	return s ? sm_error("%s: recording %s: %s", h->o->db_path, key, notmuch_status_to_string(s))
		 : 0;
}

int sm_harvest_report(const struct sm_harvest_opts *o, struct sm_harvest_stats *st,
		      sm_harvest_fn fn, void *data)
{
	const char *base = o->query ? o->query : SM_HARVEST_DEFAULT_QUERY, *uuid = "";
	char *key = NULL, *query = NULL, *waiting_key = NULL, *val = NULL;
	unsigned long rev = 0, from;
	size_t earlier;
	struct harvest h = { 0 };
	notmuch_query_t *q = NULL;
	notmuch_threads_t *threads = NULL;
	notmuch_status_t s;
	char *msg = NULL, *db_abs;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	db_abs = realpath(o->db_path, NULL);	/* notmuch wants an absolute path */
	if (!db_abs)
		return sm_error("%s: %s", o->db_path, strerror(errno));
	h.o = o;
	h.st = st;
	h.fn = fn;
	h.data = data;
	h.notes_ref = sm_notes_ref_full(o->notes_ref ? o->notes_ref : SM_NOTES_REF_DEFAULT);
	h.now = (long long)time(NULL);
	s = notmuch_database_open_with_config(db_abs,
					      o->dry_run ? NOTMUCH_DATABASE_MODE_READ_ONLY
							 : NOTMUCH_DATABASE_MODE_READ_WRITE,
					      "", NULL, &h.db, &msg);
	if (s) {
		sm_error("%s: cannot open the notmuch database: %s", o->db_path,
			 msg ? msg : notmuch_status_to_string(s));
		free(msg);
		free(db_abs);
		free(h.notes_ref);
		return -1;
	}
	free(msg);
	free(db_abs);
	if (o->aliases_file && sm_aliases_load(&h.aliases, o->aliases_file) < 0)
		goto out;
	h.map = sm_mapper_open(o->repo, o->upstream_ref);
	if (!h.map)
		goto out;
	snprintf(st->upstream_ref, sizeof(st->upstream_ref), "%s", sm_mapper_ref(h.map));
	if (sm_mapper_ref_note(h.map))
		snprintf(st->upstream_note, sizeof(st->upstream_note), "%s", sm_mapper_ref_note(h.map));
	/* Messages changed since the last run, up to the revision now. */
	rev = notmuch_database_get_revision(h.db, &uuid);
	key = cursor_key(base, h.notes_ref, o->repo);
	from = cursor_read(h.db, key, uuid);
	waiting_key = xasprintf("%s.pending", key);
	if (notmuch_database_get_config(h.db, waiting_key, &val) != NOTMUCH_STATUS_SUCCESS) {
		free(val);
		val = NULL;
	}
	sm_pending_parse(&h.waiting, val);
	free(val);
	val = NULL;
	earlier = h.waiting.nr;
	if (!strcmp(base, "*") || !*base)
		query = xasprintf("lastmod:%lu..%lu", from, rev);
	else
		query = xasprintf("(%s) and lastmod:%lu..%lu", base, from, rev);
	q = notmuch_query_create(h.db, query);
	if (!q) {
		sm_error("%s: cannot create the query", o->db_path);
		goto out;
	}
	notmuch_query_set_sort(q, NOTMUCH_SORT_OLDEST_FIRST);
	if (o->progress) {
		unsigned count = 0;

		if (notmuch_query_count_messages(q, &count) == NOTMUCH_STATUS_SUCCESS)
			sm_progress_set_total(o->progress, count);
	}
	s = notmuch_query_search_threads(q, &threads);
	if (s) {
		sm_error("%s: query \"%s\": %s", o->db_path, base, notmuch_status_to_string(s));
		goto out;
	}
	for (; notmuch_threads_valid(threads); notmuch_threads_move_to_next(threads)) {
		notmuch_thread_t *th = notmuch_threads_get(threads);
		int r = harvest_thread(&h, th);

		notmuch_thread_destroy(th);
		if (r < 0)
			goto out;
		sm_progress_update(o->progress, st->messages);
	}
	for (size_t i = 0; i < h.again.nr; i++)
		if (harvest_again(&h, base, h.again.items[i]) < 0)
			goto out;
	st->threads_read_again = (unsigned)h.again.nr;
	if (retry_waiting(&h, base, earlier) < 0)
		goto out;
	st->pending_expired = (unsigned)sm_pending_expire(&h.waiting, h.now);
	st->pending = (unsigned)h.waiting.nr;
	ret = flush(&h);
	if (!ret && !o->dry_run) {
		/* Only now: the reviews of every message up to rev are in the
		 * notes. The waiting patches first: a crash between the two
		 * writes reads this run's messages again, and adds what waits
		 * once (keyed by Message-ID). */
		struct strbuf sb = STRBUF_INIT;

		sm_pending_format(&h.waiting, &sb);
		val = xasprintf("%s %lu", uuid, rev);
		ret = config_set(&h, waiting_key, sb.buf);
		if (!ret)
			ret = config_set(&h, key, val);
		strbuf_release(&sb);
	}
out:
	free(h.notes_ref);
	free(key);
	free(waiting_key);
	free(val);
	free(query);
	sm_pending_release(&h.waiting);
	strlist_clear(&h.again);
	batch_release(&h.reviews);
	batch_release(&h.notices);
	sm_aliases_release(&h.aliases);
	if (threads)
		notmuch_threads_destroy(threads);
	if (q)
		notmuch_query_destroy(q);
	sm_mapper_close(h.map);
	s = notmuch_database_destroy(h.db);
	if (s && !ret)
		ret = sm_error("%s: closing the notmuch database: %s", o->db_path,
			       notmuch_status_to_string(s));
	return ret;
}

int sm_harvest(const struct sm_harvest_opts *o, struct sm_harvest_stats *st)
{
	return sm_harvest_report(o, st, NULL, NULL);
}

void sm_harvest_stats_json(const struct sm_harvest_stats *st, struct json_writer *w,
			   const char *key)
{
	json_object_begin(w, key);
	JSON_INTS(w, "messages patches mapped unmapped reviews_added reviews_known "
		  "notices_added notices_known pending pending_mapped pending_expired "
		  "threads_read_again skipped_broken unverified bad_message_ids",
		  st->messages, st->patches, st->mapped, st->unmapped, st->reviews_added,
		  st->reviews_known, st->notices_added, st->notices_known, st->pending,
		  st->pending_mapped, st->pending_expired, st->threads_read_again,
		  st->skipped_broken, st->unverified, st->bad_ids);
	json_string(w, "upstream_ref", st->upstream_ref);
	json_string(w, "upstream_note", st->upstream_note[0] ? st->upstream_note : NULL);
	json_object_end(w);
}
