/* state: the sent ledger and the outgoing queue (see state.h for the layout). */
#include "bot/state.h"
#include "lib/fnv.h"
#include "lib/fileio.h"
#include "lib/util.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long hash_str(const char *s)
{
	uint64_t h = SM_FNV_BASIS;

	for (; *s; s++)
		h = sm_fnv_byte(h, (unsigned char)*s);
	return (unsigned long)h;
}

static void set_insert_nodup(struct sm_bot_state *st, char *key);

static void set_grow(struct sm_bot_state *st)
{
	char **old = st->slots;
	size_t old_alloc = st->alloc;

	st->alloc = st->alloc ? st->alloc * 2 : 1024;
	st->slots = xcalloc(st->alloc, sizeof(*st->slots));
	st->nr = 0;
	for (size_t i = 0; i < old_alloc; i++)
		if (old[i])
			set_insert_nodup(st, old[i]);
	free(old);
}

static size_t set_find(const struct sm_bot_state *st, const char *key)
{
	size_t i = hash_str(key) & (st->alloc - 1);

	while (st->slots[i] && strcmp(st->slots[i], key))
		i = (i + 1) & (st->alloc - 1);
	return i;
}

static void set_insert_nodup(struct sm_bot_state *st, char *key)
{
	size_t i;

	if ((st->nr + 1) * 2 > st->alloc)
		set_grow(st);
	i = set_find(st, key);
	if (st->slots[i]) {
		free(key);
		return;
	}
	st->slots[i] = key;
	st->nr++;
}

/* A slot of the set: the key "sub up tree", a NUL, then the Message-ID
 * it was mailed under ("" when not known: a queue file's key, whose mail
 * has not gone out). strcmp() on a slot compares the key alone. */
static char *slot_new(const char *key, size_t key_len, const char *msgid, size_t msgid_len)
{
	char *slot = xmalloc(key_len + msgid_len + 2);

	memcpy(slot, key, key_len);
	slot[key_len] = '\0';
	memcpy(slot + key_len + 1, msgid, msgid_len);
	slot[key_len + 1 + msgid_len] = '\0';
	return slot;
}

/* A sent.log line: "sub up tree" from its first three space-separated
 * fields, and the Message-ID from its fourth. */
static void add_key_fields(struct sm_bot_state *st, const char *line, size_t len)
{
	size_t n = 0, spaces = 0, id, id_end;

	while (n < len && line[n] != '\n') {
		if (line[n] == ' ' && ++spaces == 3)
			break;
		n++;
	}
	if (spaces < 2)
		return;
	id = id_end = n < len ? n + 1 : n;
	while (id_end < len && line[id_end] != ' ' && line[id_end] != '\n')
		id_end++;
	if (id_end - id == 1 && line[id] == '-')	/* folded without one */
		id_end = id;
	set_insert_nodup(st, slot_new(line, n, line + id, id_end - id));
}

static void add_key(struct sm_bot_state *st, const char *key)
{
	set_insert_nodup(st, slot_new(key, strlen(key), "", 0));
}

int sm_bot_state_known(const struct sm_bot_state *st, const char *sub,
		       const char *upstream, const char *tree)
{
	char *key;
	int found;

	if (!st->alloc)
		return 0;
	key = xasprintf("%s %s %s", sub, upstream, tree);
	found = st->slots[set_find(st, key)] != NULL;
	free(key);
	return found;
}

const char *sm_bot_state_sent_msgid(const struct sm_bot_state *st, const char *sub,
				    const char *upstream, const char *tree)
{
	char *key;
	const char *slot;

	if (!st->alloc)
		return NULL;
	key = xasprintf("%s %s %s", sub, upstream, tree);
	slot = st->slots[set_find(st, key)];
	free(key);
	if (!slot)
		return NULL;
	slot += strlen(slot) + 1;
	return *slot ? slot : NULL;
}

size_t sm_bot_state_nr_known(const struct sm_bot_state *st)
{
	return st->nr;
}

static char *sub_path(const struct sm_bot_state *st, const char *sub, const char *name)
{
	return name ? xasprintf("%s/%s/%s", st->dir, sub, name) : xasprintf("%s/%s", st->dir, sub);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(const struct sm_bot_state *st, const char *sub, struct strlist *names)
{
	char *path = sub_path(st, sub, NULL);
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d) {
		int e = errno;

		free(path);
		if (e == ENOENT)
			return 0;
		path = sub_path(st, sub, NULL);

		sm_error("%s: %s", path, strerror(e));
		free(path);
		return -1;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (de->d_name[0] != '.' && n > 5 && !strcmp(de->d_name + n - 5, ".mail"))
			strlist_append(names, de->d_name);
	}
	closedir(d);
	free(path);
	if (names->nr)
		qsort(names->items, names->nr, sizeof(*names->items), cmp_str);
	return 0;
}

int sm_queue_list(const struct sm_bot_state *st, struct strlist *names)
{
	return list_dir(st, "queue", names);
}

/* Parses the envelope block of a queue file held in m->raw. */
static int parse_envelope(struct sm_queued_mail *m, const char *path)
{
	const char *p = m->raw.buf, *end = p + m->raw.len;

	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, len);
		const char *v;

		if (skip_prefix(line, "from ", &v)) {
			free(m->from);
			m->from = xstrdup(v);
		} else if (skip_prefix(line, "rcpt ", &v)) {
			strlist_append(&m->rcpts, v);
		} else if (skip_prefix(line, "key ", &v)) {
			strlist_append(&m->keys, v);
		} else if (skip_prefix(line, "msgid ", &v)) {
			free(m->message_id);
			m->message_id = xstrdup(v);
		} else {
			free(line);
			return sm_error("%s: malformed queue file: unknown envelope line", path);
		}
		free(line);
		if (!nl)
			return sm_error("%s: malformed queue file: no message after the envelope", path);
		p = nl + 1;
	}
	if (p >= end || !m->from || !m->rcpts.nr)
		return sm_error("%s: malformed queue file: envelope without sender, recipient or message", path);
	m->message = p + 1;
	m->message_len = (size_t)(end - p - 1);
	return 0;
}

static int load_file(const struct sm_bot_state *st, const char *sub, const char *name,
		     struct sm_queued_mail *m)
{
	char *path = sub_path(st, sub, name);
	int ret;

	memset(m, 0, sizeof(*m));
	strbuf_init(&m->raw, 0);
	m->name = xstrdup(name);
	ret = read_file(path, &m->raw);
	if (!ret)
		ret = parse_envelope(m, path);
	free(path);
	return ret;
}

int sm_queue_load(const struct sm_bot_state *st, const char *name, struct sm_queued_mail *m)
{
	return load_file(st, "queue", name, m);
}

void sm_queued_mail_release(struct sm_queued_mail *m)
{
	free(m->name);
	free(m->from);
	strlist_clear(&m->rcpts);
	strlist_clear(&m->keys);
	free(m->message_id);
	strbuf_release(&m->raw);
	memset(m, 0, sizeof(*m));
	strbuf_init(&m->raw, 0);
}

/* Adds the keys of every file in sub/ to the known set. */
static int load_dir_keys(struct sm_bot_state *st, const char *sub)
{
	struct strlist names = STRLIST_INIT;
	int ret = list_dir(st, sub, &names);

	for (size_t i = 0; !ret && i < names.nr; i++) {
		struct sm_queued_mail m;

		if (load_file(st, sub, names.items[i], &m) == 0)
			for (size_t k = 0; k < m.keys.nr; k++)
				add_key(st, m.keys.items[k]);
		else
			sm_warn("%s", sm_last_error());
		sm_queued_mail_release(&m);
	}
	strlist_clear(&names);
	return ret;
}

int sm_bot_state_open(struct sm_bot_state *st, const char *dir, int readonly)
{
	static const char *subs[] = { "queue", "sending", "sent", "failed" };
	struct strbuf log = STRBUF_INIT;
	char *path;
	struct tm tm;
	time_t now = time(NULL);

	memset(st, 0, sizeof(*st));
	st->dir = xstrdup(dir);
	set_grow(st);
	gmtime_r(&now, &tm);
	strftime(st->stamp, sizeof(st->stamp), "%Y%m%dT%H%M%S", &tm);
	for (size_t i = 0; !readonly && i < ARRAY_SIZE(subs); i++) {
		path = sub_path(st, subs[i], NULL);
		if (mkdir_p(path, 0755)) {
			free(path);
			return -1;
		}
		free(path);
	}
	path = sub_path(st, "sent.log", NULL);
	if (file_exists(path)) {
		const char *p, *end;

		if (read_file(path, &log)) {
			free(path);
			return -1;
		}
		for (p = log.buf, end = log.buf + log.len; p < end;) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));

			add_key_fields(st, p, nl ? (size_t)(nl - p) : (size_t)(end - p));
			p = nl ? nl + 1 : end;
		}
	}
	strbuf_release(&log);
	free(path);
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++)
		if (load_dir_keys(st, subs[i]))
			return -1;
	return 0;
}

void sm_bot_state_release(struct sm_bot_state *st)
{
	for (size_t i = 0; i < st->alloc; i++)
		free(st->slots[i]);
	free(st->slots);
	free(st->dir);
	memset(st, 0, sizeof(*st));
}

int sm_queue_add(struct sm_bot_state *st, const char *sub, const char *from,
		 const struct strlist *rcpts, const struct strlist *keys,
		 const char *message_id, const char *msg, size_t len, char **name_out)
{
	struct strbuf sb = STRBUF_INIT;
	char *name, *path;
	int ret;

	name = xasprintf("%s-%05ld-%06lu-%s.mail", st->stamp, (long)getpid() % 100000,
			 ++st->seq, sub);
	strbuf_addf(&sb, "from %s\n", from);
	for (size_t i = 0; i < rcpts->nr; i++)
		strbuf_addf(&sb, "rcpt %s\n", rcpts->items[i]);
	for (size_t i = 0; keys && i < keys->nr; i++)
		strbuf_addf(&sb, "key %s\n", keys->items[i]);
	if (message_id)
		strbuf_addf(&sb, "msgid %s\n", message_id);
	strbuf_addch(&sb, '\n');
	strbuf_add(&sb, msg, len);
	path = sub_path(st, "queue", name);
	ret = write_file_atomic(path, sb.buf, sb.len);
	free(path);
	strbuf_release(&sb);
	if (!ret && keys)
		for (size_t i = 0; i < keys->nr; i++)
			add_key(st, keys->items[i]);
	if (!ret && name_out)
		*name_out = name;
	else
		free(name);
	return ret;
}

static int move_between(const struct sm_bot_state *st, const char *name, const char *from_sub,
			const char *to_sub)
{
	char *from = sub_path(st, from_sub, name), *to = sub_path(st, to_sub, name);
	int ret = 0;

	if (rename(from, to))
		ret = sm_error("%s: cannot move to %s/: %s", from, to_sub, strerror(errno));
	free(from);
	free(to);
	return ret;
}

/* From sending/ (the send path) or else queue/. */
static int move_to(const struct sm_bot_state *st, const char *name, const char *sub)
{
	char *p = sub_path(st, "sending", name);
	int in_sending = file_exists(p);

	free(p);
	return move_between(st, name, in_sending ? "sending" : "queue", sub);
}

int sm_queue_mark_sending(const struct sm_bot_state *st, const char *name)
{
	return move_between(st, name, "queue", "sending");
}

int sm_sending_requeue(const struct sm_bot_state *st, const char *name)
{
	return move_between(st, name, "sending", "queue");
}

int sm_sending_list(const struct sm_bot_state *st, struct strlist *names)
{
	return list_dir(st, "sending", names);
}

int sm_sending_load(const struct sm_bot_state *st, const char *name, struct sm_queued_mail *m)
{
	return load_file(st, "sending", name, m);
}

int sm_queue_mark_sent(const struct sm_bot_state *st, const char *name)
{
	return move_to(st, name, "sent");
}

int sm_queue_mark_failed(const struct sm_bot_state *st, const char *name)
{
	return move_to(st, name, "failed");
}

int sm_bot_state_fold(const struct sm_bot_state *st)
{
	struct strlist names = STRLIST_INIT;
	struct strbuf log = STRBUF_INIT;
	char *path;
	int ret;
	long now = (long)time(NULL);

	if (list_dir(st, "sent", &names))
		return -1;
	if (!names.nr)
		return 0;
	path = sub_path(st, "sent.log", NULL);
	ret = file_exists(path) ? read_file(path, &log) : 0;
	if (!ret && log.len && log.buf[log.len - 1] != '\n')
		strbuf_addch(&log, '\n');
	for (size_t i = 0; !ret && i < names.nr; i++) {
		struct sm_queued_mail m;

		if (load_file(st, "sent", names.items[i], &m) == 0) {
			for (size_t k = 0; k < m.keys.nr; k++)
				strbuf_addf(&log, "%s %s %ld\n", m.keys.items[k],
					    m.message_id ? m.message_id : "-", now);
		} else {
			sm_warn("%s", sm_last_error());
		}
		sm_queued_mail_release(&m);
	}
	if (!ret)
		ret = write_file_atomic(path, log.buf, log.len);
	for (size_t i = 0; !ret && i < names.nr; i++) {
		char *p = sub_path(st, "sent", names.items[i]);

		unlink(p);
		free(p);
	}
	free(path);
	strbuf_release(&log);
	ret = ret ? -1 : (int)names.nr;
	strlist_clear(&names);
	return ret;
}
