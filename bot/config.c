/* config: the bot's configuration file (git-config syntax, read by libgit2). */
#include "bot/config.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/git.h"
#include "lib/util.h"
#include "gitnotes/notes.h"
#include "trees/deps_search.h"
#include "trees/tree_state.h"
#include <ctype.h>
#include <errno.h>
#include <git2.h>
#include <gmime/gmime.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

struct loader {
	struct sm_bot_config *c;
	const char *file;	/* for messages */
	char *dir;		/* directory of the file, for relative paths */
	int failed;
	struct strlist boot_keys;	/* per [boot "TREE"]: its first key, for messages */
};

static char *resolve_path(const struct loader *l, const char *value)
{
	if (value[0] == '/' || !l->dir)
		return xstrdup(value);
	if (value[0] == '~' && value[1] == '/' && getenv("HOME"))
		return xasprintf("%s/%s", getenv("HOME"), value + 2);
	return xasprintf("%s/%s", l->dir, value);
}

/* Where a key is set, as "FILE:LINE", found by reading the file (and the
 * files it includes) the way git-config lays them out: libgit2 does not say.
 * The line whose value is value wins over an earlier one of the same key
 * (bot.cc may repeat). */
struct where {
	char *file;
	int line;
	int exact;
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void locate_in(const char *file, const char *key, const char *value, int depth,
		      struct where *w)
{
	struct strbuf text = STRBUF_INIT, sect = STRBUF_INIT, full = STRBUF_INIT;
	const char *slash = strrchr(file, '/');
	char *p, *next, *dir;
	int lineno = 0;

	if (depth > 10 || (w->line && w->exact) || read_file(file, &text)) {
		strbuf_release(&text);
		return;
	}
	dir = slash ? xstrndup(file, (size_t)(slash - file)) : xstrdup(".");
	for (p = text.buf; *p && !(w->line && w->exact); p = next) {
		char *nl = strchr(p, '\n'), *line, *eq, *k, *v = NULL;

		next = nl ? nl + 1 : p + strlen(p);
		if (nl)
			*nl = '\0';
		line = trim(p);
		lineno++;
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[') {
			char *end = strrchr(line, ']'), *quote = strchr(line, '"');

			strbuf_reset(&sect);
			if (!end)
				continue;
			*end = '\0';
			if (quote) {
				char *q2 = strrchr(quote + 1, '"');

				*quote = '\0';
				if (q2)
					*q2 = '\0';
				strbuf_addstr(&sect, trim(line + 1));
				str_to_lower(sect.buf);
				strbuf_addf(&sect, ".%s", quote + 1);
			} else {
				strbuf_addstr(&sect, trim(line + 1));
				str_to_lower(sect.buf);
			}
			continue;
		}
		eq = strchr(line, '=');
		if (eq) {
			size_t n;

			*eq = '\0';
			v = trim(eq + 1);
			n = strlen(v);
			if (n > 1 && v[0] == '"' && v[n - 1] == '"') {
				v[n - 1] = '\0';
				v++;
			}
		}
		k = trim(line);
		str_to_lower(k);
		strbuf_reset(&full);
		if (sect.len)
			strbuf_addf(&full, "%s.", sect.buf);
		strbuf_addstr(&full, k);
		if (!strcmp(full.buf, "include.path") && v) {
			char *inc = v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", dir, v);

			locate_in(inc, key, value, depth + 1, w);
			free(inc);
			continue;
		}
		if (strcmp(full.buf, key))
			continue;
		if (!w->line || (value && v && !strcmp(v, value))) {
			free(w->file);
			w->file = xstrdup(file);
			w->line = lineno;
			w->exact = value && v && !strcmp(v, value);
		}
	}
	free(dir);
	strbuf_release(&text);
	strbuf_release(&sect);
	strbuf_release(&full);
}

/* "FILE:LINE: " of key (or "FILE: " when it cannot be found) into out. */
static void where_prefix(const char *file, const char *key, const char *value, struct strbuf *out)
{
	struct where w = { NULL, 0, 0 };

	locate_in(file, key, value, 0, &w);
	if (w.line)
		strbuf_addf(out, "%s:%d: ", w.file, w.line);
	else
		strbuf_addf(out, "%s: ", file);
	free(w.file);
}

/* An error about one setting: "FILE:LINE: KEY: MSG". Messages never hold
 * the value: a secret pasted into the wrong key, or a file of secrets
 * included by mistake, must not end up in a log. */
static int key_error(struct loader *l, const char *key, const char *value, const char *msg)
{
	struct strbuf sb = STRBUF_INIT;

	where_prefix(l->file, key, value, &sb);
	l->failed = 1;
	sm_error("%s%s: %s", sb.buf, key, msg);
	strbuf_release(&sb);
	return -1;
}

/* A key stablemate does not know: not even its name is repeated (it may be
 * the content of a secrets file), only where it is and, when it is in one
 * of our sections, which. */
static int unknown_key(struct loader *l, const char *key, const char *value)
{
	static const char *const sections[] = { "upstream", "tree", "notmuch", "smtp", "bot", "subscriber",
						"boot" };
	struct strbuf sb = STRBUF_INIT;
	const char *dot = strchr(key, '.');

	where_prefix(l->file, key, value, &sb);
	l->failed = 1;
	for (size_t i = 0; dot && i < ARRAY_SIZE(sections); i++)
		if (strlen(sections[i]) == (size_t)(dot - key) && !strncmp(key, sections[i], (size_t)(dot - key))) {
			sm_error("%sunknown key in [%s]", sb.buf, sections[i]);
			strbuf_release(&sb);
			return -1;
		}
	sm_error("%sunknown key", sb.buf);
	strbuf_release(&sb);
	return -1;
}

static void set_str(char **dst, const char *value)
{
	free(*dst);
	*dst = xstrdup(value);
}

static int parse_bool(struct loader *l, const char *key, const char *v, int *out)
{
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on") || !strcmp(v, "1"))
		*out = 1;
	else if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off") || !strcmp(v, "0"))
		*out = 0;
	else
		return key_error(l, key, v, "not a boolean (true or false)");
	return 0;
}

static int parse_long(struct loader *l, const char *key, const char *v, long lo, long hi, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < lo || n > hi)
		{
		char msg[80];

		snprintf(msg, sizeof(msg), "not a number from %ld to %ld", lo, hi);
		return key_error(l, key, v, msg);
	}
	*out = n;
	return 0;
}

/* One mailbox, "Name <a@b>" or "a@b"; returns the bare address or NULL. */
static char *mailbox_addr(const char *s)
{
	InternetAddressList *list;
	char *addr = NULL;

	g_mime_init();
	list = internet_address_list_parse(NULL, s);
	if (list && internet_address_list_length(list) == 1) {
		InternetAddress *a = internet_address_list_get_address(list, 0);

		if (INTERNET_ADDRESS_IS_MAILBOX(a)) {
			const char *bare = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a));

			if (bare && strchr(bare, '@') && bare[0] != '@')
				addr = xstrdup(bare);
		}
	}
	if (list)
		g_object_unref(list);
	return addr;
}

char *sm_bot_bare_address(const char *addr)
{
	char *a = mailbox_addr(addr);

	return a ? a : xstrdup(addr);
}

static int check_address(struct loader *l, const char *key, const char *v)
{
	char *a = mailbox_addr(v);

	if (!a)
		return key_error(l, key, v, "not a mail address");
	free(a);
	return 0;
}

static struct sm_bot_tree *get_tree(struct sm_bot_config *c, const char *name, size_t len)
{
	for (size_t i = 0; i < c->nr_trees; i++)
		if (strlen(c->trees[i].name) == len && !memcmp(c->trees[i].name, name, len))
			return &c->trees[i];
	c->trees = xrealloc(c->trees, sizeof(*c->trees) * (c->nr_trees + 1));
	memset(&c->trees[c->nr_trees], 0, sizeof(*c->trees));
	c->trees[c->nr_trees].name = xstrndup(name, len);
	return &c->trees[c->nr_trees++];
}

static struct sm_bot_subscriber *get_sub(struct sm_bot_config *c, const char *name, size_t len)
{
	struct sm_bot_subscriber *s;

	for (size_t i = 0; i < c->nr_subs; i++)
		if (strlen(c->subs[i].name) == len && !memcmp(c->subs[i].name, name, len))
			return &c->subs[i];
	c->subs = xrealloc(c->subs, sizeof(*c->subs) * (c->nr_subs + 1));
	s = &c->subs[c->nr_subs++];
	memset(s, 0, sizeof(*s));
	s->name = xstrndup(name, len);
	s->min_verdict = SM_CANDIDATE;
	s->patches = 1;
	return s;
}

static int parse_verdict(const char *v, enum sm_verdict_kind *out)
{
	if (!strcasecmp(v, "candidate"))
		*out = SM_CANDIDATE;
	else if (!strcasecmp(v, "maybe"))
		*out = SM_MAYBE;
	else
		return -1;
	return 0;
}

static int tree_key(struct loader *l, const char *name, const char *sub, size_t sublen,
		    const char *key, const char *v)
{
	struct sm_bot_tree *t = get_tree(l->c, sub, sublen);

	if (!strcmp(key, "repo")) {
		free(t->repo);
		t->repo = resolve_path(l, v);
	} else if (!strcmp(key, "branch")) {
		set_str(&t->branch, v);
	} else if (!strcmp(key, "version")) {
		const char *end;

		if (sm_version_parse(v, &end, &t->version) || *end)
			return key_error(l, name, v, "not a kernel version (e.g. 6.1)");
	} else {
		return unknown_key(l, name, v);
	}
	return 0;
}

static int sub_key(struct loader *l, const char *name, const char *sub, size_t sublen,
		   const char *key, const char *v)
{
	struct sm_bot_subscriber *s = get_sub(l->c, sub, sublen);

	if (!strcmp(key, "address")) {
		if (check_address(l, name, v))
			return -1;
		set_str(&s->address, v);
	} else if (!strcmp(key, "trees") || !strcmp(key, "tree")) {
		strlist_split(&s->trees, v, ',');
	} else if (!strcmp(key, "minverdict")) {
		if (parse_verdict(v, &s->min_verdict))
			return key_error(l, name, v, "not a verdict (candidate or maybe)");
	} else if (!strcmp(key, "paths") || !strcmp(key, "path")) {
		strlist_split(&s->paths, v, ',');
	} else if (!strcmp(key, "keywords") || !strcmp(key, "keyword")) {
		strlist_split(&s->keywords, v, ',');
	} else if (!strcmp(key, "patches")) {
		return parse_bool(l, name, v, &s->patches);
	} else {
		return unknown_key(l, name, v);
	}
	return 0;
}

static void boot_init(struct sm_bot_boot *b)
{
	memset(b, 0, sizeof(*b));
	b->timeout = b->test_timeout = -1;
	b->compare = b->bisect = -1;
}

static void boot_release(struct sm_bot_boot *b)
{
	free(b->source);
	free(b->arch);
	strlist_clear(&b->configs);
	strlist_clear(&b->tests);
	free(b->accel);
	boot_init(b);
}

/* Words of a list value: split at commas and blanks. */
static void split_words(struct strlist *out, const char *v)
{
	char *copy = xstrdup(v);

	for (char *p = copy; *p; p++)
		if (*p == ',' || isspace((unsigned char)*p))
			*p = ' ';
	strlist_split(out, copy, ' ');
	free(copy);
}

/* A key of [boot] or [boot "TREE"] (b); the ones only [boot] has when
 * global. Returns 0, -1 (an error), 1 (not a boot key). */
static int boot_key(struct loader *l, struct sm_bot_boot *b, int global, const char *name,
		    const char *key, const char *v)
{
	struct sm_bot_config *c = l->c;
	long n;

	if (!strcmp(key, "source")) {
		free(b->source);
		b->source = resolve_path(l, v);
	} else if (!strcmp(key, "arch")) {
		if (strcmp(v, "x86_64") && strcmp(v, "arm64"))
			return key_error(l, name, v, "not an architecture (x86_64 or arm64)");
		set_str(&b->arch, v);
	} else if (!strcmp(key, "config")) {
		struct strlist paths = STRLIST_INIT;

		split_words(&paths, v);
		for (size_t i = 0; i < paths.nr; i++)
			strlist_append_nodup(&b->configs, resolve_path(l, paths.items[i]));
		strlist_clear(&paths);
	} else if (!strcmp(key, "tests") || !strcmp(key, "test")) {
		size_t first = b->tests.nr;

		split_words(&b->tests, v);
		for (size_t i = first; i < b->tests.nr; i++)
			if (!strchr(b->tests.items[i], '/'))
				return key_error(l, name, v, "not a list of DIR/NAME test programs");
	} else if (!strcmp(key, "timeout") || !strcmp(key, "testtimeout")) {
		if (parse_long(l, name, v, 1, 86400, &n))
			return -1;
		*(!strcmp(key, "timeout") ? &b->timeout : &b->test_timeout) = n;
	} else if (!strcmp(key, "accel")) {
		if (strcmp(v, "kvm") && strcmp(v, "tcg"))
			return key_error(l, name, v, "not an accelerator (kvm or tcg)");
		set_str(&b->accel, v);
	} else if (!strcmp(key, "compare")) {
		return parse_bool(l, name, v, &b->compare);
	} else if (!strcmp(key, "bisect")) {
		return parse_bool(l, name, v, &b->bisect);
	} else if (global && (!strcmp(key, "trees") || !strcmp(key, "tree"))) {
		split_words(&c->boot_names, v);
	} else if (global && !strcmp(key, "cachedir")) {
		free(c->boot_cache);
		c->boot_cache = resolve_path(l, v);
	} else if (global && !strcmp(key, "distcchosts")) {
		set_str(&c->boot_distcc, v);
	} else if (global && !strcmp(key, "ccache")) {
		return parse_bool(l, name, v, &c->boot_ccache);
	} else {
		return 1;
	}
	return 0;
}

static struct sm_bot_boot_tree *get_boot_tree(struct loader *l, const char *name,
					      size_t len, const char *key)
{
	struct sm_bot_config *c = l->c;
	struct sm_bot_boot_tree *b;

	for (size_t i = 0; i < c->nr_boot_trees; i++)
		if (strlen(c->boot_trees[i].name) == len && !memcmp(c->boot_trees[i].name, name, len))
			return &c->boot_trees[i];
	c->boot_trees = xrealloc(c->boot_trees, sizeof(*c->boot_trees) * (c->nr_boot_trees + 1));
	b = &c->boot_trees[c->nr_boot_trees++];
	b->name = xstrndup(name, len);
	boot_init(&b->s);
	strlist_append(&l->boot_keys, key);
	return b;
}

static int boot_tree_key(struct loader *l, const char *name, const char *sub, size_t sublen,
			 const char *key, const char *v)
{
	struct sm_bot_boot_tree *b = get_boot_tree(l, sub, sublen, name);
	int ret = boot_key(l, &b->s, 0, name, key, v);

	return ret > 0 ? unknown_key(l, name, v) : ret;
}

static int plain_key(struct loader *l, const char *name, const char *v)
{
	struct sm_bot_config *c = l->c;
	long n;

	if (starts_with(name, "boot.")) {
		int ret = boot_key(l, &c->boot, 1, name, name + 5, v);

		return ret > 0 ? unknown_key(l, name, v) : ret;
	}
	if (!strcmp(name, "upstream.repo")) {
		free(c->upstream_repo);
		c->upstream_repo = resolve_path(l, v);
	} else if (!strcmp(name, "upstream.branch")) {
		set_str(&c->upstream_branch, v);
	} else if (!strcmp(name, "upstream.range")) {
		set_str(&c->range, v);
	} else if (!strcmp(name, "notmuch.database")) {
		free(c->notmuch_db);
		c->notmuch_db = resolve_path(l, v);
	} else if (!strcmp(name, "notmuch.query")) {
		set_str(&c->notmuch_query, v);
	} else if (!strcmp(name, "smtp.host")) {
		set_str(&c->smtp_host, v);
	} else if (!strcmp(name, "smtp.port")) {
		if (parse_long(l, name, v, 1, 65535, &n))
			return -1;
		c->smtp_port = (int)n;
	} else if (!strcmp(name, "smtp.security")) {
		if (!strcasecmp(v, "none"))
			c->smtp_security = SM_SMTP_NONE;
		else if (!strcasecmp(v, "starttls"))
			c->smtp_security = SM_SMTP_STARTTLS;
		else if (!strcasecmp(v, "tls"))
			c->smtp_security = SM_SMTP_TLS;
		else
			return key_error(l, name, v, "not a security (starttls, tls or none)");
	} else if (!strcmp(name, "smtp.user")) {
		set_str(&c->smtp_user, v);
	} else if (!strcmp(name, "smtp.password")) {
		return key_error(l, name, v, "passwords are not kept in the config: use smtp.passwordFile or smtp.passwordEnv");
	} else if (!strcmp(name, "smtp.passwordfile")) {
		free(c->smtp_password_file);
		c->smtp_password_file = resolve_path(l, v);
	} else if (!strcmp(name, "smtp.cafile")) {
		free(c->smtp_ca_file);
		c->smtp_ca_file = resolve_path(l, v);
	} else if (!strcmp(name, "smtp.passwordenv")) {
		set_str(&c->smtp_password_env, v);
	} else if (!strcmp(name, "smtp.timeout")) {
		if (parse_long(l, name, v, 1, 3600, &n))
			return -1;
		c->smtp_timeout = n;
	} else if (!strcmp(name, "smtp.allowplaintextauth")) {
		return parse_bool(l, name, v, &c->smtp_allow_plaintext_auth);
	} else if (!strcmp(name, "smtp.verify")) {
		return parse_bool(l, name, v, &c->smtp_verify);
	} else if (!strcmp(name, "bot.from")) {
		if (check_address(l, name, v))
			return -1;
		set_str(&c->from, v);
	} else if (!strcmp(name, "bot.listid")) {
		set_str(&c->list_id, v);
	} else if (!strcmp(name, "bot.cc")) {
		if (check_address(l, name, v))
			return -1;
		strlist_append(&c->cc, v);
	} else if (!strcmp(name, "bot.statedir")) {
		free(c->state_dir);
		c->state_dir = resolve_path(l, v);
	} else if (!strcmp(name, "bot.notesref")) {
		/* as git notes --ref names it, and harvest and scan with it */
		if (!*v)
			return key_error(l, name, v, "not a notes ref (e.g. stable-review)");
		free(c->notes_ref);
		c->notes_ref = sm_notes_ref_full(v);
	} else if (!strcmp(name, "bot.rulesdir")) {
		free(c->rules_dir);
		c->rules_dir = resolve_path(l, v);
	} else if (!strcmp(name, "bot.cachedir")) {
		free(c->cache_dir);
		c->cache_dir = resolve_path(l, v);
	} else if (!strcmp(name, "bot.checkapplies")) {
		return parse_bool(l, name, v, &c->check_applies);
	} else if (!strcmp(name, "bot.searchconflicts")) {
		if (parse_long(l, name, v, 0, SM_DEPS_SEARCH_MAX, &n))
			return -1;
		c->search_conflicts = (unsigned)n;
	} else if (!strcmp(name, "bot.locktimeout")) {
		if (parse_long(l, name, v, 0, 86400, &n))
			return -1;
		c->lock_timeout = n;
	} else if (!strcmp(name, "bot.serieswhole")) {
		return parse_bool(l, name, v, &c->series_whole);
	} else if (!strcmp(name, "bot.minsoakdays")) {
		if (parse_long(l, name, v, 0, 3650, &n))
			return -1;
		c->min_soak_days = (int)n;
	} else if (!strcmp(name, "bot.queuedir")) {
		free(c->queue_dir);
		c->queue_dir = resolve_path(l, v);
	} else if (!strcmp(name, "bot.cvedir")) {
		free(c->cve_dir);
		c->cve_dir = resolve_path(l, v);
	} else {
		return unknown_key(l, name, v);
	}
	return 0;
}

static int entry_cb(const git_config_entry *e, void *payload)
{
	struct loader *l = payload;
	const char *name = e->name, *v = e->value ? e->value : "";
	const char *dot1 = strchr(name, '.'), *dot2 = strrchr(name, '.');
	size_t seclen;

	/* Keys libgit2 adds itself for includes are not ours to judge. */
	if (!dot1)
		return unknown_key(l, name, v);
	seclen = (size_t)(dot1 - name);
	if (dot1 == dot2) {
		if (!strncmp(name, "include", seclen))
			return 0;
		if (!*v && strcmp(name, "upstream.range"))
			return key_error(l, name, v, "empty value");
		return plain_key(l, name, v) ? -1 : 0;
	}
	if (!*v)
		return key_error(l, name, v, "empty value");
	if (seclen == 4 && !strncmp(name, "tree", 4))
		return tree_key(l, name, dot1 + 1, (size_t)(dot2 - dot1 - 1), dot2 + 1, v) ? -1 : 0;
	if (seclen == 10 && !strncmp(name, "subscriber", 10))
		return sub_key(l, name, dot1 + 1, (size_t)(dot2 - dot1 - 1), dot2 + 1, v) ? -1 : 0;
	if (seclen == 4 && !strncmp(name, "boot", 4))
		return boot_tree_key(l, name, dot1 + 1, (size_t)(dot2 - dot1 - 1), dot2 + 1, v) ? -1 : 0;
	return unknown_key(l, name, v);
}

/* Names end up in state keys and queue file names: keep them plain. */
static int plain_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) || strchr("._+@-", *s)))
			return 0;
	return 1;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* o's settings over g's into out. */
static void boot_merge(struct sm_bot_boot *out, const struct sm_bot_boot *g,
		       const struct sm_bot_boot *o)
{
	const struct strlist *configs = o && o->configs.nr ? &o->configs : &g->configs;
	const struct strlist *tests = o && o->tests.nr ? &o->tests : &g->tests;

	boot_init(out);
	out->source = dup_or_null(o && o->source ? o->source : g->source);
	out->arch = dup_or_null(o && o->arch ? o->arch : g->arch);
	out->accel = dup_or_null(o && o->accel ? o->accel : g->accel);
	for (size_t i = 0; i < configs->nr; i++)
		strlist_append(&out->configs, configs->items[i]);
	for (size_t i = 0; i < tests->nr; i++)
		strlist_append(&out->tests, tests->items[i]);
	out->timeout = o && o->timeout >= 0 ? o->timeout : g->timeout;
	out->test_timeout = o && o->test_timeout >= 0 ? o->test_timeout : g->test_timeout;
	out->compare = o && o->compare >= 0 ? o->compare : g->compare;
	out->bisect = o && o->bisect >= 0 ? o->bisect : g->bisect;
	if (out->compare < 0)
		out->compare = 0;
	if (out->bisect < 0)
		out->bisect = 0;
	if (out->bisect)
		out->compare = 1;
}

/* Every tree [boot] names is configured; the merged settings of each,
 * in the trees' order. */
static int validate_boot(struct loader *l)
{
	struct sm_bot_config *c = l->c;
	struct sm_bot_boot_tree *merged;
	size_t nr = 0;

	for (size_t i = 0; i < c->boot_names.nr; i++)
		if (!sm_bot_config_tree(c, c->boot_names.items[i])) {
			struct strbuf where = STRBUF_INIT;
			const char *key = "boot.trees";

			where_prefix(l->file, key, NULL, &where);
			if (where.len == strlen(l->file) + 2) {	/* spelt "tree"? */
				key = "boot.tree";
				strbuf_reset(&where);
				where_prefix(l->file, key, NULL, &where);
			}
			sm_error("%s%s: tree %zu of the list has no [tree \"NAME\"] section",
				 where.buf, key, i + 1);
			strbuf_release(&where);
			return -1;
		}
	for (size_t i = 0; i < c->nr_boot_trees; i++)
		if (!sm_bot_config_tree(c, c->boot_trees[i].name)) {
			struct strbuf where = STRBUF_INIT;

			where_prefix(l->file, l->boot_keys.items[i], NULL, &where);
			sm_error("%s[boot \"%s\"]: no [tree \"%s\"] section", where.buf,
				 c->boot_trees[i].name, c->boot_trees[i].name);
			strbuf_release(&where);
			return -1;
		}
	merged = xcalloc(c->nr_trees + 1, sizeof(*merged));
	for (size_t t = 0; t < c->nr_trees; t++) {
		const char *name = c->trees[t].name;
		const struct sm_bot_boot *over = NULL;
		int on = 0;

		for (size_t i = 0; i < c->boot_names.nr; i++)
			on |= !strcmp(c->boot_names.items[i], name);
		for (size_t i = 0; i < c->nr_boot_trees; i++)
			if (!strcmp(c->boot_trees[i].name, name))
				over = &c->boot_trees[i].s;
		if (!on && !over)
			continue;
		merged[nr].name = xstrdup(name);
		boot_merge(&merged[nr].s, &c->boot, over);
		nr++;
	}
	for (size_t i = 0; i < c->nr_boot_trees; i++) {
		free(c->boot_trees[i].name);
		boot_release(&c->boot_trees[i].s);
	}
	free(c->boot_trees);
	c->boot_trees = merged;
	c->nr_boot_trees = nr;
	return 0;
}

static int validate(struct loader *l)
{
	struct sm_bot_config *c = l->c;
	char key[512];

	if (!c->upstream_repo)
		return sm_error("%s: upstream.repo: missing", l->file);
	if (!c->nr_trees)
		return sm_error("%s: no [tree \"NAME\"] section: at least one stable tree is needed", l->file);
	for (size_t i = 0; i < c->nr_trees; i++) {
		struct sm_bot_tree *t = &c->trees[i];

		if (!plain_name(t->name))
			return sm_error("%s: tree \"%s\": a tree name may hold only letters, digits and ._+@-",
					l->file, t->name);
		if (!t->repo)
			return sm_error("%s: tree.%s.repo: missing", l->file, t->name);
		if (!t->branch)
			t->branch = xstrdup(t->name);
		/* The one rule `scan --tree` reads a name by: the first N.M in it. */
		if (!t->version.major && sm_tree_version_from_name(t->name, &t->version))
			return sm_error("%s: tree.%s.version: missing, and the name holds no version "
					"(linux-6.1.y, stable-6.1)", l->file, t->name);
	}
	if (!c->from)
		return sm_error("%s: bot.from: missing", l->file);
	if (!c->state_dir)
		return sm_error("%s: bot.stateDir: missing", l->file);
	if (c->search_conflicts && !c->check_applies)
		return sm_error("%s: bot.searchConflicts: needs bot.checkApplies (the search follows "
				"a trial that conflicts)", l->file);
	if (!c->nr_subs)
		return sm_error("%s: no [subscriber \"NAME\"] section", l->file);
	for (size_t i = 0; i < c->nr_subs; i++) {
		struct sm_bot_subscriber *s = &c->subs[i];

		if (!plain_name(s->name))
			return sm_error("%s: subscriber \"%s\": a subscriber name may hold only letters, digits and ._+@-",
					l->file, s->name);
		if (!s->address)
			return sm_error("%s: subscriber.%s.address: missing", l->file, s->name);
		for (size_t j = 0; j < s->trees.nr; j++)
			if (!sm_bot_config_tree(c, s->trees.items[j])) {
				struct strbuf where = STRBUF_INIT;

				snprintf(key, sizeof(key), "subscriber.%s.trees", s->name);
				where_prefix(l->file, key, NULL, &where);
				if (where.len == strlen(l->file) + 2) {	/* spelt "tree"? */
					snprintf(key, sizeof(key), "subscriber.%s.tree", s->name);
					strbuf_reset(&where);
					where_prefix(l->file, key, NULL, &where);
				}
				sm_error("%s%s: tree %zu of the list has no [tree \"NAME\"] section",
					 where.buf, key, j + 1);
				strbuf_release(&where);
				return -1;
			}
	}
	if (validate_boot(l))
		return -1;
	if (c->smtp_user && !c->smtp_password_file && !c->smtp_password_env)
		return sm_error("%s: smtp.user: set, but neither smtp.passwordFile nor smtp.passwordEnv", l->file);
	/* A password goes over TLS, or in clear only to this machine or when the
	 * admin says so in as many words. */
	if (c->smtp_user && c->smtp_security == SM_SMTP_NONE && !c->smtp_allow_plaintext_auth &&
	    !sm_bot_host_is_loopback(c->smtp_host))
		return sm_error("%s: smtp.security: none would send the password of smtp.user in clear to "
				"%s: use starttls or tls, or set smtp.allowPlaintextAuth", l->file, c->smtp_host);
	if (c->smtp_ca_file && access(c->smtp_ca_file, R_OK))
		return sm_error("%s: smtp.caFile: %s: %s", l->file, c->smtp_ca_file, strerror(errno));
	if (!c->smtp_port)
		c->smtp_port = c->smtp_security == SM_SMTP_TLS ? 465 : 25;
	return 0;
}

int sm_bot_config_load(struct sm_bot_config *c, const char *path)
{
	struct loader l = { c, path, NULL, 0, STRLIST_INIT };
	git_config *cfg = NULL;
	const char *slash;
	int ret = -1;

	memset(c, 0, sizeof(*c));
	c->path = xstrdup(path);
	c->upstream_branch = xstrdup("master");
	c->smtp_host = xstrdup("127.0.0.1");
	c->smtp_security = SM_SMTP_STARTTLS;
	c->smtp_timeout = 60;
	c->smtp_verify = 1;
	c->notes_ref = xstrdup("refs/notes/stable-review");
	c->check_applies = 1;
	c->lock_timeout = 600;
	boot_init(&c->boot);
	if (!file_exists(path)) {
		sm_bot_config_release(c);
		return sm_error("%s: no such config file", path);
	}
	slash = strrchr(path, '/');
	l.dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");

	sm_git_init();
	if (git_config_open_ondisk(&cfg, path) < 0) {
		sm_git_fail("%s", path);
		goto out;
	}
	if (git_config_foreach(cfg, entry_cb, &l) < 0) {
		if (!l.failed) {
			sm_git_fail("%s", path);
		}
		goto out;
	}
	ret = validate(&l);
out:
	git_config_free(cfg);
	free(l.dir);
	strlist_clear(&l.boot_keys);
	if (ret)
		sm_bot_config_release(c);
	return ret;
}

void sm_bot_config_release(struct sm_bot_config *c)
{
	FREE_ALL(c->path, c->upstream_repo, c->upstream_branch, c->range);
	for (size_t i = 0; i < c->nr_trees; i++)
		FREE_ALL(c->trees[i].name, c->trees[i].repo, c->trees[i].branch);
	FREE_ALL(c->trees, c->notmuch_db, c->notmuch_query, c->smtp_host, c->smtp_user,
		 c->smtp_password_file, c->smtp_ca_file, c->smtp_password_env, c->from,
		 c->list_id);
	strlist_clear(&c->cc);
	FREE_ALL(c->state_dir, c->notes_ref, c->rules_dir, c->cache_dir, c->queue_dir,
		 c->cve_dir);
	for (size_t i = 0; i < c->nr_subs; i++) {
		struct sm_bot_subscriber *s = &c->subs[i];

		free(s->name);
		free(s->address);
		strlist_clear(&s->trees);
		strlist_clear(&s->paths);
		strlist_clear(&s->keywords);
	}
	free(c->subs);
	boot_release(&c->boot);
	for (size_t i = 0; i < c->nr_boot_trees; i++) {
		free(c->boot_trees[i].name);
		boot_release(&c->boot_trees[i].s);
	}
	free(c->boot_trees);
	strlist_clear(&c->boot_names);
	free(c->boot_cache);
	free(c->boot_distcc);
	memset(c, 0, sizeof(*c));
}

const struct sm_bot_boot_tree *sm_bot_config_boot(const struct sm_bot_config *c, const char *tree)
{
	for (size_t i = 0; i < c->nr_boot_trees; i++)
		if (!strcmp(c->boot_trees[i].name, tree))
			return &c->boot_trees[i];
	return NULL;
}

int sm_bot_host_is_loopback(const char *host)
{
	return !strcasecmp(host, "localhost") || starts_with(host, "127.") ||
	       !strcmp(host, "::1") || !strcmp(host, "[::1]");
}

const struct sm_bot_tree *sm_bot_config_tree(const struct sm_bot_config *c, const char *name)
{
	for (size_t i = 0; i < c->nr_trees; i++)
		if (!strcmp(c->trees[i].name, name))
			return &c->trees[i];
	return NULL;
}

int sm_bot_subscriber_wants_tree(const struct sm_bot_subscriber *s, const char *tree)
{
	return !s->trees.nr || strlist_contains(&s->trees, tree);
}

int sm_bot_config_smtp_password(const struct sm_bot_config *c, char **out)
{
	*out = NULL;
	if (c->smtp_password_file) {
		struct strbuf sb = STRBUF_INIT;
		struct stat sb_st;
		char *nl;

		if (read_file(c->smtp_password_file, &sb) < 0) {
			strbuf_release(&sb);
			return sm_error_wrap("%s: smtp.passwordFile", c->path);
		}
		if (!stat(c->smtp_password_file, &sb_st) && (sb_st.st_mode & 077))
			sm_warn("%s: smtp.passwordFile: %s is readable by others (mode %04o): chmod 600 it",
				c->path, c->smtp_password_file, (unsigned)(sb_st.st_mode & 07777));
		nl = strchr(sb.buf, '\n');
		if (nl)
			strbuf_setlen(&sb, (size_t)(nl - sb.buf));
		if (sb.len && sb.buf[sb.len - 1] == '\r')
			strbuf_setlen(&sb, sb.len - 1);	/* written on Windows: no part of it */
		*out = strbuf_detach(&sb, NULL);
		return 0;
	}
	if (c->smtp_password_env) {
		const char *v = getenv(c->smtp_password_env);

		if (!v)
			return sm_error("%s: smtp.passwordEnv: $%s is not set", c->path, c->smtp_password_env);
		*out = xstrdup(v);
	}
	return 0;
}
