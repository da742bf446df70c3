/* config: the bot's configuration file (git-config syntax, read by libgit2). */
#include "bot/config.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <errno.h>
#include <git2.h>
#include <gmime/gmime.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

struct loader {
	struct sm_bot_config *c;
	const char *file;	/* for messages */
	char *dir;		/* directory of the file, for relative paths */
	int failed;
};

static char *resolve_path(const struct loader *l, const char *value)
{
	if (value[0] == '/' || !l->dir)
		return xstrdup(value);
	if (value[0] == '~' && value[1] == '/' && getenv("HOME"))
		return xasprintf("%s/%s", getenv("HOME"), value + 2);
	return xasprintf("%s/%s", l->dir, value);
}

static int key_error(struct loader *l, const char *key, const char *fmt, const char *value)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, value);
	l->failed = 1;
	return sm_error("%s: %s: %s", l->file, key, msg);
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
		return key_error(l, key, "not a boolean: \"%s\"", v);
	return 0;
}

static int parse_long(struct loader *l, const char *key, const char *v, long lo, long hi, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < lo || n > hi)
		return key_error(l, key, "not a number in range: \"%s\"", v);
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
		return key_error(l, key, "not a mail address: \"%s\"", v);
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
			return key_error(l, name, "not a kernel version: \"%s\"", v);
	} else {
		return key_error(l, name, "unknown key%s", "");
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
			return key_error(l, name, "unknown verdict \"%s\" (candidate or maybe)", v);
	} else if (!strcmp(key, "paths") || !strcmp(key, "path")) {
		strlist_split(&s->paths, v, ',');
	} else if (!strcmp(key, "keywords") || !strcmp(key, "keyword")) {
		strlist_split(&s->keywords, v, ',');
	} else if (!strcmp(key, "patches")) {
		return parse_bool(l, name, v, &s->patches);
	} else {
		return key_error(l, name, "unknown key%s", "");
	}
	return 0;
}

static int plain_key(struct loader *l, const char *name, const char *v)
{
	struct sm_bot_config *c = l->c;
	long n;

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
			return key_error(l, name, "unknown security \"%s\" (starttls, tls or none)", v);
	} else if (!strcmp(name, "smtp.user")) {
		set_str(&c->smtp_user, v);
	} else if (!strcmp(name, "smtp.password")) {
		return key_error(l, name, "%s", "passwords are not kept in the config: use smtp.passwordFile or smtp.passwordEnv");
	} else if (!strcmp(name, "smtp.passwordfile")) {
		free(c->smtp_password_file);
		c->smtp_password_file = resolve_path(l, v);
	} else if (!strcmp(name, "smtp.passwordenv")) {
		set_str(&c->smtp_password_env, v);
	} else if (!strcmp(name, "smtp.timeout")) {
		if (parse_long(l, name, v, 1, 3600, &n))
			return -1;
		c->smtp_timeout = n;
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
		if (!starts_with(v, "refs/notes/"))
			return key_error(l, name, "not a notes ref (refs/notes/...): \"%s\"", v);
		set_str(&c->notes_ref, v);
	} else if (!strcmp(name, "bot.rulesdir")) {
		free(c->rules_dir);
		c->rules_dir = resolve_path(l, v);
	} else if (!strcmp(name, "bot.cachedir")) {
		free(c->cache_dir);
		c->cache_dir = resolve_path(l, v);
	} else if (!strcmp(name, "bot.checkapplies")) {
		return parse_bool(l, name, v, &c->check_applies);
	} else if (!strcmp(name, "bot.locktimeout")) {
		if (parse_long(l, name, v, 0, 86400, &n))
			return -1;
		c->lock_timeout = n;
	} else {
		return key_error(l, name, "unknown key%s", "");
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
		return key_error(l, name, "unknown key%s", "");
	seclen = (size_t)(dot1 - name);
	if (dot1 == dot2) {
		if (!strncmp(name, "include", seclen))
			return 0;
		if (!*v && strcmp(name, "upstream.range"))
			return key_error(l, name, "empty value%s", "");
		return plain_key(l, name, v) ? -1 : 0;
	}
	if (!*v)
		return key_error(l, name, "empty value%s", "");
	if (seclen == 4 && !strncmp(name, "tree", 4))
		return tree_key(l, name, dot1 + 1, (size_t)(dot2 - dot1 - 1), dot2 + 1, v) ? -1 : 0;
	if (seclen == 10 && !strncmp(name, "subscriber", 10))
		return sub_key(l, name, dot1 + 1, (size_t)(dot2 - dot1 - 1), dot2 + 1, v) ? -1 : 0;
	return key_error(l, name, "unknown key%s", "");
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
		if (!t->version.major) {
			const char *p = t->name, *end;

			skip_prefix(p, "linux-", &p);
			if (sm_version_parse(p, &end, &t->version))
				return sm_error("%s: tree.%s.version: missing (and the name holds no version)",
						l->file, t->name);
		}
	}
	if (!c->from)
		return sm_error("%s: bot.from: missing", l->file);
	if (!c->state_dir)
		return sm_error("%s: bot.stateDir: missing", l->file);
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
				snprintf(key, sizeof(key), "subscriber.%s.trees", s->name);
				return sm_error("%s: %s: unknown tree \"%s\"", l->file, key, s->trees.items[j]);
			}
	}
	if (c->smtp_user && !c->smtp_password_file && !c->smtp_password_env)
		return sm_error("%s: smtp.user: set, but neither smtp.passwordFile nor smtp.passwordEnv", l->file);
	if (!c->smtp_port)
		c->smtp_port = c->smtp_security == SM_SMTP_TLS ? 465 : 25;
	return 0;
}

int sm_bot_config_load(struct sm_bot_config *c, const char *path)
{
	struct loader l = { c, path, NULL, 0 };
	git_config *cfg = NULL;
	const char *slash;
	int ret = -1;

	memset(c, 0, sizeof(*c));
	c->path = xstrdup(path);
	c->upstream_branch = xstrdup("master");
	c->smtp_host = xstrdup("127.0.0.1");
	c->smtp_timeout = 60;
	c->smtp_verify = 1;
	c->notes_ref = xstrdup("refs/notes/stable-review");
	c->check_applies = 1;
	c->lock_timeout = 600;
	if (!file_exists(path)) {
		sm_bot_config_release(c);
		return sm_error("%s: no such config file", path);
	}
	slash = strrchr(path, '/');
	l.dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");

	git_libgit2_init();
	if (git_config_open_ondisk(&cfg, path) < 0) {
		const git_error *e = git_error_last();

		sm_error("%s: %s", path, e ? e->message : "cannot read config");
		goto out;
	}
	if (git_config_foreach(cfg, entry_cb, &l) < 0) {
		if (!l.failed) {
			const git_error *e = git_error_last();

			sm_error("%s: %s", path, e ? e->message : "cannot read config");
		}
		goto out;
	}
	ret = validate(&l);
out:
	git_config_free(cfg);
	git_libgit2_shutdown();
	free(l.dir);
	if (ret)
		sm_bot_config_release(c);
	return ret;
}

void sm_bot_config_release(struct sm_bot_config *c)
{
	free(c->path);
	free(c->upstream_repo);
	free(c->upstream_branch);
	free(c->range);
	for (size_t i = 0; i < c->nr_trees; i++) {
		free(c->trees[i].name);
		free(c->trees[i].repo);
		free(c->trees[i].branch);
	}
	free(c->trees);
	free(c->notmuch_db);
	free(c->notmuch_query);
	free(c->smtp_host);
	free(c->smtp_user);
	free(c->smtp_password_file);
	free(c->smtp_password_env);
	free(c->from);
	free(c->list_id);
	strlist_clear(&c->cc);
	free(c->state_dir);
	free(c->notes_ref);
	free(c->rules_dir);
	free(c->cache_dir);
	for (size_t i = 0; i < c->nr_subs; i++) {
		struct sm_bot_subscriber *s = &c->subs[i];

		free(s->name);
		free(s->address);
		strlist_clear(&s->trees);
		strlist_clear(&s->paths);
		strlist_clear(&s->keywords);
	}
	free(c->subs);
	memset(c, 0, sizeof(*c));
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
		char *nl;

		if (read_file(c->smtp_password_file, &sb) < 0) {
			strbuf_release(&sb);
			return sm_error("%s: smtp.passwordFile: %s", c->path, sm_last_error());
		}
		nl = strchr(sb.buf ? sb.buf : "", '\n');
		if (nl)
			strbuf_setlen(&sb, (size_t)(nl - sb.buf));
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
