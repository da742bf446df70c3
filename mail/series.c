/* series: a candidate's posted series from notmuch (see series.h). */
#include "mail/series.h"
#include "mail/map.h"
#include "mail/message.h"
#include "rules/patch_subject.h"
#include "mail/thread.h"
#include "trees/deps.h"
#include "trees/strmap.h"
#include "trees/tree_state.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <errno.h>
#include <notmuch.h>
#include <stdio.h>
#include <string.h>

#define MAX_PARTS 64

struct part {
	size_t mail;		/* index in the thread, (size_t)-1 when not there */
	int mapped;
	char upstream[41];
};

struct ctx {
	const struct sm_series_opts *so;
	const struct sm_scan_opts *o;
	struct sm_scan_result *r;
	struct sm_series_stats *st;
	notmuch_database_t *db;
	struct sm_mapper *map;
	struct strmap by_id;
	struct sm_tree_state *trees;	/* opened on first need */
	int trees_open;
};

/* notmuch query for the words of a subject: subject:"w1 w2 ..." */
static char *subject_query(const char *subject)
{
	struct strbuf q = STRBUF_INIT;
	int words = 0;

	strbuf_addstr(&q, "subject:\"");
	for (const char *p = subject; *p;) {
		if (!isalnum((unsigned char)*p)) {
			p++;
			continue;
		}
		if (words++)
			strbuf_addch(&q, ' ');
		while (isalnum((unsigned char)*p) || *p == '_')
			strbuf_addch(&q, *p++);
	}
	strbuf_addch(&q, '"');
	if (!words) {
		strbuf_release(&q);
		return NULL;
	}
	return strbuf_detach(&q, NULL);
}

/* The thread id of the newest-version patch mail posting this subject as
 * part k/n (n > 1), or NULL. */
static char *find_patch_thread(struct ctx *c, const char *subject)
{
	char *qs = subject_query(subject), *thread = NULL;
	notmuch_query_t *q;
	notmuch_messages_t *msgs = NULL;
	unsigned best = 0;

	if (!qs)
		return NULL;
	q = notmuch_query_create(c->db, qs);
	free(qs);
	if (!q)
		return NULL;
	if (notmuch_query_search_messages(q, &msgs) == NOTMUCH_STATUS_SUCCESS) {
		for (; notmuch_messages_valid(msgs); notmuch_messages_move_to_next(msgs)) {
			notmuch_message_t *m = notmuch_messages_get(msgs);
			const char *subj = notmuch_message_get_header(m, "subject");
			struct sm_patch_subject ps;

			if (subj && sm_patch_subject_parse(subj, &ps) && !ps.is_reply && !ps.is_cover &&
			    ps.total > 1 && !strcmp(ps.title, subject) && ps.version > best) {
				best = ps.version;
				free(thread);
				thread = xstrdup(notmuch_message_get_thread_id(m));
			}
			notmuch_message_destroy(m);
		}
		notmuch_messages_destroy(msgs);
	}
	notmuch_query_destroy(q);
	return thread;
}

static int load_thread(struct ctx *c, const char *thread_id, struct sm_thread *t)
{
	char *qs = xasprintf("thread:%s", thread_id);
	notmuch_query_t *q = notmuch_query_create(c->db, qs);
	notmuch_messages_t *msgs = NULL;

	free(qs);
	if (!q)
		return -1;
	notmuch_query_set_sort(q, NOTMUCH_SORT_OLDEST_FIRST);
	if (notmuch_query_search_messages(q, &msgs) == NOTMUCH_STATUS_SUCCESS) {
		for (; notmuch_messages_valid(msgs); notmuch_messages_move_to_next(msgs)) {
			notmuch_message_t *m = notmuch_messages_get(msgs);
			const char *file = notmuch_message_get_filename(m);
			struct sm_mail mail;

			if (file && sm_mail_parse_file(&mail, file) == 0)
				sm_thread_add(t, &mail, 0);
			else
				sm_clear_error();	/* an unreadable mail is not part of it */
			sm_mail_release(&mail);
			notmuch_message_destroy(m);
		}
		notmuch_messages_destroy(msgs);
	}
	notmuch_query_destroy(q);
	sm_thread_resolve(t, NULL);
	return 0;
}

static int open_trees(struct ctx *c)
{
	if (c->trees_open)
		return c->trees ? 0 : -1;
	c->trees_open = 1;
	c->trees = xcalloc(c->o->nr_trees + 1, sizeof(*c->trees));
	for (size_t t = 0; t < c->o->nr_trees; t++)
		if (sm_tree_state_open(&c->trees[t], &c->o->trees[t], sm_mapper_repo(c->map),
				       c->o->upstream, c->o->cache_dir) < 0) {
			for (size_t k = 0; k < t; k++)
				sm_tree_state_close(&c->trees[k]);
			free(c->trees);
			c->trees = NULL;
			return -1;
		}
	return 0;
}

/* Is upstream commit id in tree t? From the scan when it is in the range. */
static int in_tree(struct ctx *c, const char *id, size_t t)
{
	size_t i;

	if (strmap_get(&c->by_id, id, &i))
		return c->r->items[i].trees[t].present;
	if (open_trees(c) < 0) {
		sm_clear_error();
		return 0;
	}
	return sm_upstream_index_find(&c->trees[t].idx, id, NULL, NULL, NULL) != NULL;
}

static void list_parts(struct strbuf *sb, const unsigned *nrs, size_t n, unsigned total)
{
	for (size_t k = 0; k < n; k++)
		strbuf_addf(sb, "%s%u/%u", k == 0 ? "" : k + 1 == n ? " and " : ", ", nrs[k], total);
}

/* The deps blame of item for tree t: does it name part? */
static int needs(struct ctx *c, const struct sm_scan_item *it, size_t t, const char *part,
		 struct sm_deps_result *deps, int *have)
{
	if (!*have) {
		if (sm_deps(sm_mapper_repo(c->map), it->id, &c->o->trees[t], c->o->cache_dir, deps) < 0) {
			sm_clear_error();
			*have = -1;
		} else {
			*have = 1;
		}
	}
	if (*have < 0)
		return 0;
	for (size_t k = 0; k < deps->nr; k++)
		if (!strcmp(deps->deps[k].id, part))
			return 1;
	return 0;
}

static void annotate_item(struct ctx *c, size_t idx)
{
	struct sm_scan_item *it = &c->r->items[idx];
	struct sm_thread t = SM_THREAD_INIT;
	struct part parts[MAX_PARTS + 1];
	struct strbuf head = STRBUF_INIT, sb = STRBUF_INIT;
	const struct sm_thread_mail *me = NULL;
	char *thread_id;
	size_t mine = (size_t)-1, cover = (size_t)-1;
	unsigned prereqs = 0;
	char base[41] = "";

	c->st->looked_up++;
	thread_id = find_patch_thread(c, it->commit.subject);
	if (!thread_id)
		return;
	load_thread(c, thread_id, &t);
	free(thread_id);
	for (size_t k = 0; k < t.nr; k++)
		if (t.mails[k].kind == SM_MAIL_PATCH && !strcmp(t.mails[k].ps.title, it->commit.subject) &&
		    t.mails[k].ps.total > 1 && t.mails[k].ps.total <= MAX_PARTS &&
		    (mine == (size_t)-1 || t.mails[k].ps.version > t.mails[mine].ps.version))
			mine = k;
	if (mine == (size_t)-1)
		goto out;
	me = &t.mails[mine];
	c->st->found++;
	for (unsigned k = 0; k <= me->ps.total; k++)
		parts[k].mail = (size_t)-1;
	for (size_t k = 0; k < t.nr; k++) {
		const struct sm_thread_mail *m = &t.mails[k];

		if ((m->kind != SM_MAIL_PATCH && m->kind != SM_MAIL_COVER) ||
		    m->ps.version != me->ps.version || m->ps.total != me->ps.total ||
		    m->ps.nr > me->ps.total)
			continue;
		if (m->ps.nr == 0 || m->kind == SM_MAIL_COVER)
			cover = k;
		else if (parts[m->ps.nr].mail == (size_t)-1)
			parts[m->ps.nr].mail = k;
	}
	if (cover != (size_t)-1) {
		const char *b = t.mails[cover].mail.body ? t.mails[cover].mail.body : "";

		for (const char *p = b; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			const char *v;

			if (skip_prefix(p, "base-commit: ", &v))
				snprintf(base, sizeof(base), "%.*s", (int)strspn(v, "0123456789abcdef"), v);
			else if (starts_with(p, "prerequisite-patch-id: "))
				prereqs++;
		}
	}
	for (unsigned k = 1; k < me->ps.nr; k++) {
		git_oid oid;

		parts[k].mapped = 0;
		if (parts[k].mail == (size_t)-1)
			continue;
		if (sm_map_patch(c->map, t.mails[parts[k].mail].mail.body +
					 t.mails[parts[k].mail].patch_at,
				 t.mails[parts[k].mail].ps.title,
				 t.mails[parts[k].mail].mail.message_id, &oid) == 1) {
			parts[k].mapped = 1;
			git_oid_tostr(parts[k].upstream, sizeof(parts[k].upstream), &oid);
		}
		sm_clear_error();
	}
	strbuf_addf(&head, "part %u/%u of \"%s\"", me->ps.nr, me->ps.total,
		    cover != (size_t)-1 ? t.mails[cover].ps.title : "a series without a cover letter");
	if (base[0])
		strbuf_addf(&head, " (b4 base-commit %.12s", base);
	if (prereqs)
		strbuf_addf(&head, "%s%u prerequisite patch%s", base[0] ? ", " : " (", prereqs,
			    prereqs == 1 ? "" : "es");
	if (base[0] || prereqs)
		strbuf_addch(&head, ')');
	for (size_t ti = 0; ti < c->o->nr_trees; ti++) {
		struct sm_scan_tree_result *tr = &it->trees[ti];
		unsigned missing[MAX_PARTS], unknown[MAX_PARTS];
		size_t nm = 0, nu = 0;
		struct sm_deps_result deps;
		int have_deps = 0;

		if (tr->verdict.kind == SM_REJECT)
			continue;
		memset(&deps, 0, sizeof(deps));
		for (unsigned k = 1; k < me->ps.nr; k++) {
			if (!parts[k].mapped)
				unknown[nu++] = k;
			else if (!in_tree(c, parts[k].upstream, ti))
				missing[nm++] = k;
		}
		strbuf_reset(&sb);
		strbuf_addstr(&sb, head.buf);
		if (me->ps.nr == 1) {
			strbuf_addstr(&sb, "; the first part");
		} else if (!nm && !nu) {
			strbuf_addf(&sb, "; the earlier parts are in %s", c->o->trees[ti].name);
		} else {
			if (nm) {
				strbuf_addstr(&sb, "; ");
				list_parts(&sb, missing, nm, me->ps.total);
				strbuf_addf(&sb, " %s not in %s", nm == 1 ? "is" : "are", c->o->trees[ti].name);
			}
			if (nu) {
				strbuf_addstr(&sb, "; ");
				list_parts(&sb, unknown, nu, me->ps.total);
				strbuf_addf(&sb, " %s not found upstream", nu == 1 ? "is" : "are");
			}
		}
		sm_verdict_add(&tr->verdict, "series", 0, "%s", sb.buf);
		for (size_t k = 0; c->so->whole && k < nm; k++) {
			const struct part *p = &parts[missing[k]];
			size_t j;
			struct sm_verdict *v;

			if (!strmap_get(&c->by_id, p->upstream, &j) ||
			    !needs(c, it, ti, p->upstream, &deps, &have_deps))
				continue;
			v = &c->r->items[j].trees[ti].verdict;
			sm_verdict_add(v, "series-part", sm_rules_promote_weight(c->o->rules),
				       "part %u/%u of \"%s\", needed by %u/%u %.12s (%s): it last changed lines that one changes",
				       missing[k], me->ps.total,
				       cover != (size_t)-1 ? t.mails[cover].ps.title : it->commit.subject,
				       me->ps.nr, me->ps.total, it->id, it->commit.subject);
			sm_verdict_finish(c->o->rules, v);
			c->st->promoted++;
		}
		if (have_deps > 0)
			sm_deps_result_release(&deps);
	}
out:
	strbuf_release(&head);
	strbuf_release(&sb);
	sm_thread_release(&t);
}

int sm_series_annotate(const struct sm_series_opts *so, const struct sm_scan_opts *o,
		       struct sm_scan_result *r, struct sm_series_stats *st)
{
	struct ctx c;
	char *msg = NULL, *db_abs;
	notmuch_status_t s;

	memset(st, 0, sizeof(*st));
	memset(&c, 0, sizeof(c));
	c.so = so;
	c.o = o;
	c.r = r;
	c.st = st;
	db_abs = realpath(so->db_path, NULL);
	if (!db_abs)
		return sm_error("%s: %s", so->db_path, strerror(errno));
	s = notmuch_database_open_with_config(db_abs, NOTMUCH_DATABASE_MODE_READ_ONLY, "", NULL,
					      &c.db, &msg);
	free(db_abs);
	if (s) {
		sm_error("%s: cannot open the notmuch database: %s", so->db_path,
			 msg ? msg : notmuch_status_to_string(s));
		free(msg);
		return -1;
	}
	free(msg);
	c.map = sm_mapper_open(o->upstream, so->upstream_ref);
	if (!c.map) {
		notmuch_database_destroy(c.db);
		return -1;
	}
	for (size_t i = 0; i < r->nr; i++)
		strmap_put(&c.by_id, r->items[i].id, i);
	for (size_t i = 0; i < r->nr; i++) {
		int want = 0;

		if (r->items[i].commit.is_merge || !r->items[i].commit.subject)
			continue;
		for (size_t t = 0; t < o->nr_trees && !want; t++)
			want = r->items[i].trees[t].verdict.kind != SM_REJECT;
		if (want)
			annotate_item(&c, i);
	}
	if (c.trees) {
		for (size_t t = 0; t < o->nr_trees; t++)
			sm_tree_state_close(&c.trees[t]);
		free(c.trees);
	}
	strmap_clear(&c.by_id);
	sm_mapper_close(c.map);
	notmuch_database_destroy(c.db);
	return 0;
}
