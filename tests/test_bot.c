/* Tests of bot/: the config file (every error names file and key), the
 * sent/queue state across reopenings, mails composed with gmime and parsed
 * back with gmime, the daemon's backoff, and SMTP to a closed port. The
 * end-to-end run against a real OpenSMTPD is tests/bot_e2e.sh. */
#include "tests/check_main.h"
#include "bot/compose.h"
#include "bot/config.h"
#include "bot/cycle.h"
#include "bot/report.h"
#include "bot/smtp.h"
#include "bot/state.h"
#include "lib/fileio.h"
#include "lib/lockfile.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <dirent.h>
#include <fcntl.h>
#include <gmime/gmime.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *tmp;

static void setup(void)
{
	tmp = make_temp_dir("sm-test-bot");
	ck_assert_ptr_nonnull(tmp);
}

static void teardown(void)
{
	remove_tree(tmp);
	free(tmp);
}

static const char base_conf[] =
	"[upstream]\n"
	"\trepo = linux\n"
	"\tbranch = master\n"
	"\trange = v6.6..master\n"
	"[tree \"linux-6.1.y\"]\n"
	"\trepo = /srv/stable\n"
	"[tree \"linux-6.6.y\"]\n"
	"\trepo = stable\n"
	"\tbranch = origin/linux-6.6.y\n"
	"\tversion = 6.6\n"
	"[notmuch]\n"
	"\tdatabase = mail\n"
	"[smtp]\n"
	"\thost = mail.example.org\n"
	"\tport = 587\n"
	"\tsecurity = starttls\n"
	"\tuser = bot\n"
	"\tpasswordEnv = SM_TEST_SMTP_PASSWORD\n"
	"[bot]\n"
	"\tfrom = Stable Bot <bot@example.org>\n"
	"\tlistId = Stable candidates <candidates.example.org>\n"
	"\tstateDir = state\n"
	"[subscriber \"greg\"]\n"
	"\taddress = Greg Kroah-Hartman <greg@kroah.com>\n"
	"\ttrees = linux-6.1.y, linux-6.6.y\n"
	"\tminVerdict = maybe\n"
	"\tpaths = drivers/hwmon/, sound/*\n"
	"\tkeywords = use-after-free\n"
	"[subscriber \"jörg\"]\n";

static char *write_conf(const char *text)
{
	char *path = xasprintf("%s/bot.conf", tmp);

	ck_assert_int_eq(write_file_atomic(path, text, strlen(text)), 0);
	return path;
}

START_TEST(config_full)
{
	/* base_conf minus the last (invalid) subscriber line */
	struct strbuf sb = STRBUF_INIT;
	struct sm_bot_config c;
	char *path, *want;

	strbuf_addstr(&sb, base_conf);
	strbuf_setlen(&sb, sb.len - strlen("[subscriber \"jörg\"]\n"));
	strbuf_addstr(&sb, "[subscriber \"sasha\"]\n\taddress = sasha@kernel.org\n\tpatches = no\n");
	strbuf_addstr(&sb, "[bot]\n\tminSoakDays = 7\n\tqueueDir = stable-queue\n\tcveDir = /srv/vulns\n"
		      "\tseriesWhole = yes\n");
	path = write_conf(sb.buf);
	ck_assert_msg(sm_bot_config_load(&c, path) == 0, "%s", sm_last_error());
	want = xasprintf("%s/linux", tmp);
	ck_assert_str_eq(c.upstream_repo, want);
	free(want);
	ck_assert_str_eq(c.range, "v6.6..master");
	ck_assert_uint_eq(c.nr_trees, 2);
	ck_assert_str_eq(c.trees[0].name, "linux-6.1.y");
	ck_assert_str_eq(c.trees[0].repo, "/srv/stable");
	ck_assert_str_eq(c.trees[0].branch, "linux-6.1.y");
	ck_assert_int_eq(c.trees[0].version.major, 6);
	ck_assert_int_eq(c.trees[0].version.minor, 1);
	ck_assert_str_eq(c.trees[1].branch, "origin/linux-6.6.y");
	ck_assert_int_eq(c.trees[1].version.minor, 6);
	ck_assert_int_eq(c.smtp_port, 587);
	ck_assert_int_eq(c.smtp_security, SM_SMTP_STARTTLS);
	ck_assert_str_eq(c.notes_ref, "refs/notes/stable-review");
	ck_assert_uint_eq(c.nr_subs, 2);
	ck_assert_str_eq(c.subs[0].name, "greg");
	ck_assert_uint_eq(c.subs[0].trees.nr, 2);
	ck_assert_str_eq(c.subs[0].trees.items[1], "linux-6.6.y");
	ck_assert_int_eq(c.subs[0].min_verdict, SM_MAYBE);
	ck_assert_str_eq(c.subs[0].paths.items[0], "drivers/hwmon/");
	ck_assert_str_eq(c.subs[0].paths.items[1], "sound/*");
	ck_assert_int_eq(c.subs[0].patches, 1);
	ck_assert_int_eq(c.subs[1].patches, 0);
	ck_assert_int_eq(c.subs[1].min_verdict, SM_CANDIDATE);
	ck_assert(sm_bot_subscriber_wants_tree(&c.subs[1], "linux-6.1.y"));
	ck_assert(!sm_bot_subscriber_wants_tree(&c.subs[0], "linux-5.15.y"));
	/* what scan reads past the range: soak, queue, CVE, whole series */
	ck_assert_int_eq(c.min_soak_days, 7);
	want = xasprintf("%s/stable-queue", tmp);
	ck_assert_str_eq(c.queue_dir, want);
	free(want);
	ck_assert_str_eq(c.cve_dir, "/srv/vulns");
	ck_assert_int_eq(c.series_whole, 1);

	{
		char *pw = NULL;

		unsetenv("SM_TEST_SMTP_PASSWORD");
		ck_assert_int_eq(sm_bot_config_smtp_password(&c, &pw), -1);
		ck_assert_ptr_nonnull(strstr(sm_last_error(), "smtp.passwordEnv: $SM_TEST_SMTP_PASSWORD is not set"));
		setenv("SM_TEST_SMTP_PASSWORD", "s3cret", 1);
		ck_assert_int_eq(sm_bot_config_smtp_password(&c, &pw), 0);
		ck_assert_str_eq(pw, "s3cret");
		free(pw);
	}
	sm_bot_config_release(&c);
	strbuf_release(&sb);
	free(path);
}
END_TEST

static const struct {
	const char *replace, *with;	/* edit of base_conf */
	const char *error;		/* expected after "<path>:<line>: " */
	int line;			/* 0: no line */
	const char *hidden;		/* must not appear: the value */
} bad_configs[] = {
	{ "linux-6.1.y, linux-6.6.y", "linux-6.1.y, linux-9.9.y",
	  "subscriber.greg.trees: tree 2 of the list has no [tree \"NAME\"] section", 25, "9.9" },
	{ "security = starttls", "security = ssl",
	  "smtp.security: not a security (starttls, tls or none)", 16, "ssl" },
	{ "port = 587", "port = 99999", "smtp.port: not a number from 1 to 65535", 15, "99999" },
	{ "passwordEnv = SM_TEST_SMTP_PASSWORD", "password = hunter2",
	  "smtp.password: passwords are not kept in the config", 18, "hunter2" },
	{ "passwordEnv = SM_TEST_SMTP_PASSWORD", "colour = blue", "unknown key in [smtp]", 18, "colour" },
	{ "minVerdict = maybe", "minVerdict = perhaps",
	  "subscriber.greg.minverdict: not a verdict (candidate or maybe)", 26, "perhaps" },
	{ "address = Greg Kroah-Hartman <greg@kroah.com>", "address = greg at kroah",
	  "subscriber.greg.address: not a mail address", 24, "greg at" },
	{ "version = 6.6", "version = six", "tree.linux-6.6.y.version: not a kernel version", 10, "six" },
	{ "[upstream]\n\trepo = linux\n", "[upstream]\n", "upstream.repo: missing", 0, NULL },
	{ "\tstateDir = state\n", "\n", "bot.stateDir: missing", 0, NULL },
	{ "[smtp]", "[smtp", "failed to parse config file", 0, NULL },
	{ "[subscriber \"jörg\"]\n", "[subscriber \"jörg\"]\n\taddress = j@example.org\n",
	  "subscriber \"jörg\": a subscriber name may hold only", 0, NULL },
	{ "[subscriber \"jörg\"]\n", "[subscriber \"x\"]\n\ttrees = linux-6.1.y\n",
	  "subscriber.x.address: missing", 0, NULL },
	{ "[subscriber \"jörg\"]\n", "[boot]\n\tcolour = blue\n", "unknown key in [boot]", 30, "blue" },
	{ "[subscriber \"jörg\"]\n", "[boot]\n\ttrees = linux-6.1.y linux-4.4.y\n",
	  "boot.trees: tree 2 of the list has no [tree \"NAME\"] section", 30, "4.4" },
	{ "[subscriber \"jörg\"]\n", "[boot \"linux-4.4.y\"]\n\ttests = a/b\n",
	  "[boot \"linux-4.4.y\"]: no [tree \"linux-4.4.y\"] section", 30, NULL },
	{ "[subscriber \"jörg\"]\n", "[boot]\n\tarch = sparc\n",
	  "boot.arch: not an architecture (x86_64 or arm64)", 30, "sparc" },
	{ "[subscriber \"jörg\"]\n", "[boot]\n\ttests = padding\n",
	  "boot.tests: not a list of DIR/NAME test programs", 30, "padding" },
	{ "[subscriber \"jörg\"]\n", "[boot \"linux-6.1.y\"]\n\tdistccHosts = b1/8\n",
	  "unknown key in [boot]", 30, "b1/8" },
	{ "security = starttls", "security = none",
	  "smtp.security: none would send the password of smtp.user in clear to mail.example.org", 0, NULL },
};

START_TEST(config_errors)
{
	struct strbuf sb = STRBUF_INIT;
	struct sm_bot_config c;
	const char *at;
	char *path, *want;

	strbuf_addstr(&sb, base_conf);
	at = strstr(sb.buf, bad_configs[_i].replace);
	ck_assert_ptr_nonnull(at);
	{
		size_t off = (size_t)(at - sb.buf);
		struct strbuf out = STRBUF_INIT;

		strbuf_add(&out, sb.buf, off);
		strbuf_addstr(&out, bad_configs[_i].with);
		strbuf_addstr(&out, sb.buf + off + strlen(bad_configs[_i].replace));
		/* configs without the invalid trailing subscriber unless the case is about it */
		if (!strstr(bad_configs[_i].error, "subscriber \"j") && !strstr(bad_configs[_i].error, "subscriber.x")) {
			char *j = strstr(out.buf, "[subscriber \"jörg\"]\n");

			if (j)
				strbuf_setlen(&out, (size_t)(j - out.buf));
		}
		path = write_conf(out.buf);
		strbuf_release(&out);
	}
	ck_assert_int_eq(sm_bot_config_load(&c, path), -1);
	if (bad_configs[_i].line)
		want = xasprintf("%s:%d: ", path, bad_configs[_i].line);
	else
		want = xasprintf("%s: ", path);
	ck_assert_msg(starts_with(sm_last_error(), want), "case %d: %s", _i, sm_last_error());
	if (bad_configs[_i].hidden)
		ck_assert_msg(!strstr(sm_last_error(), bad_configs[_i].hidden), "case %d: %s", _i, sm_last_error());
	ck_assert_msg(strstr(sm_last_error(), bad_configs[_i].error), "case %d: got '%s'", _i, sm_last_error());
	ck_assert_ptr_null(strchr(sm_last_error(), '\n'));
	sm_bot_config_release(&c);
	free(want);
	free(path);
	strbuf_release(&sb);
}
END_TEST


START_TEST(config_secrets_never_printed)
{
	struct sm_bot_config c;
	struct strbuf sb = STRBUF_INIT;
	char *path, *secrets = xasprintf("%s/secrets", tmp), *want;

	/* A file of secrets included by mistake: its lines are "keys". */
	strbuf_addstr(&sb, base_conf);
	strbuf_setlen(&sb, (size_t)(strstr(sb.buf, "[subscriber \"jörg\"]") - sb.buf));
	strbuf_addstr(&sb, "[include]\n\tpath = secrets\n");
	path = write_conf(sb.buf);
	ck_assert_int_eq(write_file_atomic(secrets, "# mine\nhunter2-secret\n", 22), 0);
	ck_assert_int_eq(sm_bot_config_load(&c, path), -1);
	want = xasprintf("%s:2: unknown key", secrets);
	ck_assert_str_eq(sm_last_error(), want);
	free(want);
	ck_assert_int_eq(write_file_atomic(secrets, "[smtp]\n\n\tHunter2 = x\n", 21), 0);
	ck_assert_int_eq(sm_bot_config_load(&c, path), -1);
	want = xasprintf("%s:3: unknown key in [smtp]", secrets);
	ck_assert_str_eq(sm_last_error(), want);
	free(want);
	ck_assert_int_eq(write_file_atomic(secrets, "[bot]\nfrom = s3cr3t\n", 20), 0);
	ck_assert_int_eq(sm_bot_config_load(&c, path), -1);
	want = xasprintf("%s:2: bot.from: not a mail address", secrets);
	ck_assert_str_eq(sm_last_error(), want);
	free(want);
	free(secrets);
	free(path);
	strbuf_release(&sb);
}
END_TEST

/* base_conf's valid part with the [smtp] section replaced. */
static int load_smtp(struct sm_bot_config *c, const char *smtp)
{
	struct strbuf sb = STRBUF_INIT;
	const char *a, *b;
	char *path;
	int ret;

	a = strstr(base_conf, "[smtp]");
	b = strstr(base_conf, "[bot]");
	strbuf_add(&sb, base_conf, (size_t)(a - base_conf));
	strbuf_addstr(&sb, smtp);
	strbuf_add(&sb, b, (size_t)(strstr(base_conf, "[subscriber \"jörg\"]") - b));
	path = write_conf(sb.buf);
	ret = sm_bot_config_load(c, path);
	free(path);
	strbuf_release(&sb);
	return ret;
}

/* bot.notesRef is named as git notes --ref names it: what harvest writes
 * and scan reads, whichever form the config gives */
START_TEST(config_notes_ref)
{
	static const char *const forms[][2] = {
		{ "stable-review", "refs/notes/stable-review" },
		{ "notes/mine", "refs/notes/mine" },
		{ "refs/notes/remotes/greg/stable-review", "refs/notes/remotes/greg/stable-review" },
	};
	struct sm_bot_config c;

	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		char *conf = xasprintf("[upstream]\n\trepo = linux\n[tree \"linux-6.1.y\"]\n\trepo = linux\n"
				       "[bot]\n\tfrom = bot@example.org\n\tstateDir = s\n"
				       "\tnotesRef = %s\n[subscriber \"g\"]\n\taddress = g@example.org\n",
				       forms[i][0]);
		char *path = write_conf(conf);

		ck_assert_msg(sm_bot_config_load(&c, path) == 0, "%s: %s", forms[i][0], sm_last_error());
		ck_assert_str_eq(c.notes_ref, forms[i][1]);
		sm_bot_config_release(&c);
		free(path);
		free(conf);
	}
}
END_TEST

START_TEST(config_smtp_security)
{
	struct sm_bot_config c;

	/* STARTTLS unless said otherwise. */
	ck_assert_msg(load_smtp(&c, "[smtp]\n\thost = mail.example.org\n") == 0, "%s", sm_last_error());
	ck_assert_int_eq(c.smtp_security, SM_SMTP_STARTTLS);
	ck_assert_int_eq(c.smtp_port, 25);
	sm_bot_config_release(&c);
	/* A password in clear: only to loopback, or when allowed in so many words. */
	ck_assert_int_eq(load_smtp(&c, "[smtp]\n\thost = mail.example.org\n\tsecurity = none\n"
				   "\tuser = bot\n\tpasswordEnv = X\n"), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "smtp.allowPlaintextAuth"));
	ck_assert_msg(load_smtp(&c, "[smtp]\n\thost = mail.example.org\n\tsecurity = none\n"
				"\tuser = bot\n\tpasswordEnv = X\n\tallowPlaintextAuth = true\n") == 0,
		      "%s", sm_last_error());
	sm_bot_config_release(&c);
	ck_assert_msg(load_smtp(&c, "[smtp]\n\thost = 127.0.0.1\n\tsecurity = none\n"
				"\tuser = bot\n\tpasswordEnv = X\n") == 0, "%s", sm_last_error());
	ck_assert_int_eq(c.smtp_security, SM_SMTP_NONE);
	sm_bot_config_release(&c);
	/* Without a login, no TLS is the admin's choice. */
	ck_assert_msg(load_smtp(&c, "[smtp]\n\thost = mail.example.org\n\tsecurity = none\n") == 0,
		      "%s", sm_last_error());
	sm_bot_config_release(&c);
	/* caFile and passwordFile are paths next to the config, each kept
	 * whatever their order (one key once freed the other's path). */
	{
		char *ca = xasprintf("%s/ca.pem", tmp), *pw = xasprintf("%s/pw", tmp);

		ck_assert_int_eq(write_file_atomic(ca, "-----BEGIN CERTIFICATE-----\n", 28), 0);
		ck_assert_int_eq(write_file_atomic(pw, "letmein\n", 8), 0);
		ck_assert_msg(load_smtp(&c, "[smtp]\n\thost = mail.example.org\n\tuser = bot\n"
					"\tcaFile = ca.pem\n\tpasswordFile = pw\n") == 0, "%s", sm_last_error());
		ck_assert_str_eq(c.smtp_ca_file, ca);
		ck_assert_str_eq(c.smtp_password_file, pw);
		sm_bot_config_release(&c);
		ck_assert_int_eq(load_smtp(&c, "[smtp]\n\thost = mail.example.org\n"
					   "\tcaFile = no-such-ca.pem\n"), -1);
		ck_assert_ptr_nonnull(strstr(sm_last_error(), "smtp.caFile"));
		free(ca);
		free(pw);
	}
}
END_TEST

/* [boot]: the trees to boot, in the config's tree order, each with [boot]
 * under its own [boot "TREE"]. */
START_TEST(config_boot)
{
	struct sm_bot_config c;
	struct strbuf sb = STRBUF_INIT;
	const struct sm_bot_boot_tree *b;
	char *path, *want;

	strbuf_addstr(&sb, "[upstream]\n\trepo = linux\n[tree \"linux-6.1.y\"]\n\trepo = linux\n"
		      "[tree \"linux-6.6.y\"]\n\trepo = linux\n[tree \"linux-5.15.y\"]\n\trepo = linux\n"
		      "[bot]\n\tfrom = bot@example.org\n\tstateDir = s\n"
		      "[subscriber \"g\"]\n\taddress = g@example.org\n"
		      "[boot \"linux-6.6.y\"]\n\tsource = src/linux-source-6.6.tar.xz\n"
		      "\ttests = alsa/a, alsa/b\n\tbisect = false\n\tarch = arm64\n"
		      "[boot]\n\ttrees = linux-6.1.y\n\ttests = demo/padding\n\tconfig = frag.config\n"
		      "\tbisect = true\n\ttimeout = 600\n\tdistccHosts = b1/8 b2/8\n\tccache = yes\n"
		      "\tcacheDir = /var/cache/sm\n");
	path = write_conf(sb.buf);
	ck_assert_msg(sm_bot_config_load(&c, path) == 0, "%s", sm_last_error());
	ck_assert_uint_eq(c.nr_boot_trees, 2);
	ck_assert_ptr_null(sm_bot_config_boot(&c, "linux-5.15.y"));
	b = sm_bot_config_boot(&c, "linux-6.1.y");
	ck_assert_ptr_eq(b, &c.boot_trees[0]);
	ck_assert_ptr_null(b->s.source);
	ck_assert_ptr_null(b->s.arch);
	ck_assert_uint_eq(b->s.tests.nr, 1);
	ck_assert_str_eq(b->s.tests.items[0], "demo/padding");
	want = xasprintf("%s/frag.config", tmp);
	ck_assert_str_eq(b->s.configs.items[0], want);
	free(want);
	ck_assert_int_eq(b->s.bisect, 1);
	ck_assert_int_eq(b->s.compare, 1);	/* bisect needs it */
	ck_assert_int_eq(b->s.timeout, 600);
	ck_assert_int_eq(b->s.test_timeout, -1);
	b = sm_bot_config_boot(&c, "linux-6.6.y");
	want = xasprintf("%s/src/linux-source-6.6.tar.xz", tmp);
	ck_assert_str_eq(b->s.source, want);
	free(want);
	ck_assert_str_eq(b->s.arch, "arm64");
	ck_assert_uint_eq(b->s.tests.nr, 2);
	ck_assert_str_eq(b->s.tests.items[1], "alsa/b");
	ck_assert_uint_eq(b->s.configs.nr, 1);	/* [boot]'s */
	ck_assert_int_eq(b->s.bisect, 0);
	ck_assert_int_eq(b->s.compare, 0);
	ck_assert_int_eq(b->s.timeout, 600);
	ck_assert_str_eq(c.boot_distcc, "b1/8 b2/8");
	ck_assert_int_eq(c.boot_ccache, 1);
	ck_assert_str_eq(c.boot_cache, "/var/cache/sm");
	sm_bot_config_release(&c);
	free(path);
	strbuf_release(&sb);
}
END_TEST

START_TEST(config_tree_names)
{
	struct sm_bot_config c;
	struct strbuf sb = STRBUF_INIT;
	char *path;

	/* The version comes from the name by scan --tree's rule. */
	strbuf_addstr(&sb, "[upstream]\n\trepo = linux\n[tree \"stable-6.1\"]\n\trepo = linux\n"
		      "[tree \"v5.15-queue\"]\n\trepo = linux\n"
		      "[bot]\n\tfrom = bot@example.org\n\tstateDir = s\n"
		      "[subscriber \"g\"]\n\taddress = g@example.org\n");
	path = write_conf(sb.buf);
	ck_assert_msg(sm_bot_config_load(&c, path) == 0, "%s", sm_last_error());
	ck_assert_int_eq(c.trees[0].version.major, 6);
	ck_assert_int_eq(c.trees[0].version.minor, 1);
	ck_assert_int_eq(c.trees[1].version.major, 5);
	ck_assert_int_eq(c.trees[1].version.minor, 15);
	sm_bot_config_release(&c);
	free(path);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "[upstream]\n\trepo = linux\n[tree \"mine\"]\n\trepo = linux\n"
		      "[bot]\n\tfrom = bot@example.org\n\tstateDir = s\n"
		      "[subscriber \"g\"]\n\taddress = g@example.org\n");
	path = write_conf(sb.buf);
	ck_assert_int_eq(sm_bot_config_load(&c, path), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "tree.mine.version: missing, and the name holds no version"));
	free(path);
	strbuf_release(&sb);
}
END_TEST

START_TEST(password_file_mode_warning)
{
	struct sm_bot_config c = { 0 };
	struct strbuf err = STRBUF_INIT;
	char *pwfile = xasprintf("%s/pw", tmp), *errfile = xasprintf("%s/stderr", tmp), *pw = NULL;
	int saved = dup(2), fd;

	c.path = (char *)"bot.conf";
	c.smtp_password_file = pwfile;
	ck_assert_int_eq(write_file_atomic(pwfile, "letmein\n", 8), 0);
	fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 2);
	chmod(pwfile, 0644);
	ck_assert_int_eq(sm_bot_config_smtp_password(&c, &pw), 0);
	free(pw);
	chmod(pwfile, 0600);
	ck_assert_int_eq(sm_bot_config_smtp_password(&c, &pw), 0);
	ck_assert_str_eq(pw, "letmein");
	free(pw);
	/* written on Windows: the "\r" is no part of the password */
	ck_assert_int_eq(write_file_atomic(pwfile, "letmein\r\n", 9), 0);
	chmod(pwfile, 0600);
	ck_assert_int_eq(sm_bot_config_smtp_password(&c, &pw), 0);
	ck_assert_str_eq(pw, "letmein");
	free(pw);
	dup2(saved, 2);
	close(fd);
	close(saved);
	ck_assert_int_eq(read_file(errfile, &err), 0);
	ck_assert_msg(strstr(err.buf, "/pw is readable by others (mode 0644): chmod 600 it") &&
		      !strstr(err.buf, "letmein"), "%s", err.buf);
	ck_assert_ptr_null(strchr(strchr(err.buf, '\n') + 1, '\n'));	/* one line: 0600 says nothing */
	strbuf_release(&err);
	free(pwfile);
	free(errfile);
}
END_TEST

START_TEST(config_example)
{
	struct sm_bot_config c;

	/* The shipped example must load as documented. */
	ck_assert_msg(sm_bot_config_load(&c, srcdir_path("bot/stablemate.conf.example")) == 0,
		      "%s", sm_last_error());
	ck_assert_uint_eq(c.nr_trees, 2);
	ck_assert_uint_eq(c.nr_subs, 2);
	ck_assert_str_eq(c.subs[1].paths.items[1], "Documentation/hwmon/*");
	ck_assert_int_eq(c.subs[1].patches, 0);
	ck_assert_str_eq(c.trees[1].branch, "linux-6.6.y");
	ck_assert_int_eq(c.trees[1].version.minor, 6);
	ck_assert_uint_eq(c.cc.nr, 1);
	sm_bot_config_release(&c);
}
END_TEST

START_TEST(config_missing_file)
{
	struct sm_bot_config c;
	char *path = xasprintf("%s/nope.conf", tmp);

	ck_assert_int_eq(sm_bot_config_load(&c, path), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "nope.conf: no such config file"));
	sm_bot_config_release(&c);
	free(path);
}
END_TEST

START_TEST(password_file)
{
	struct sm_bot_config c;
	char *path, *pw = NULL, *pwfile = xasprintf("%s/pw", tmp);
	struct strbuf sb = STRBUF_INIT;

	ck_assert_int_eq(write_file_atomic(pwfile, "letmein\nsecond line\n", 20), 0);
	strbuf_addstr(&sb, base_conf);
	strbuf_setlen(&sb, (size_t)(strstr(sb.buf, "[subscriber \"jörg\"]") - sb.buf));
	{
		char *p = strstr(sb.buf, "passwordEnv = SM_TEST_SMTP_PASSWORD");
		struct strbuf out = STRBUF_INIT;

		strbuf_add(&out, sb.buf, (size_t)(p - sb.buf));
		strbuf_addstr(&out, "passwordFile = pw");
		strbuf_addstr(&out, p + strlen("passwordEnv = SM_TEST_SMTP_PASSWORD"));
		path = write_conf(out.buf);
		strbuf_release(&out);
	}
	ck_assert_msg(sm_bot_config_load(&c, path) == 0, "%s", sm_last_error());
	ck_assert_int_eq(sm_bot_config_smtp_password(&c, &pw), 0);
	ck_assert_str_eq(pw, "letmein");
	free(pw);
	sm_bot_config_release(&c);
	free(path);
	free(pwfile);
	strbuf_release(&sb);
}
END_TEST

static void queue_one(struct sm_bot_state *st, const char *sub, const char *key, const char *id)
{
	struct strlist rcpts = STRLIST_INIT, keys = STRLIST_INIT;
	char *msg = xasprintf("Message-ID: <%s>\nSubject: test\n\nbody of %s\n", id, key);

	strlist_append(&rcpts, "greg@kroah.com");
	strlist_append(&keys, key);
	ck_assert_int_eq(sm_queue_add(st, sub, "bot@example.org", &rcpts, &keys, id, msg, strlen(msg), NULL), 0);
	strlist_clear(&rcpts);
	strlist_clear(&keys);
	free(msg);
}

START_TEST(state_queue_roundtrip)
{
	struct sm_bot_state st;
	struct strlist names = STRLIST_INIT;
	struct sm_queued_mail m;
	struct strbuf log = STRBUF_INIT;
	char *dir = xasprintf("%s/state", tmp), *p;

	ck_assert_int_eq(sm_bot_state_open(&st, dir, 0), 0);
	ck_assert(!sm_bot_state_known(&st, "greg", "abc", "linux-6.1.y"));
	queue_one(&st, "greg", "greg abc linux-6.1.y", "m1@example.org");
	queue_one(&st, "greg", "greg def linux-6.1.y", "m2@example.org");
	queue_one(&st, "sasha", "sasha abc linux-6.6.y", "m3@example.org");
	ck_assert(sm_bot_state_known(&st, "greg", "abc", "linux-6.1.y"));
	sm_bot_state_release(&st);

	/* A new process knows what is queued, and the queue is in order. */
	ck_assert_int_eq(sm_bot_state_open(&st, dir, 0), 0);
	ck_assert(sm_bot_state_known(&st, "greg", "def", "linux-6.1.y"));
	ck_assert(!sm_bot_state_known(&st, "greg", "abc", "linux-6.6.y"));
	ck_assert_int_eq(sm_queue_list(&st, &names), 0);
	ck_assert_uint_eq(names.nr, 3);
	ck_assert_int_eq(sm_queue_load(&st, names.items[0], &m), 0);
	ck_assert_str_eq(m.from, "bot@example.org");
	ck_assert_str_eq(m.rcpts.items[0], "greg@kroah.com");
	ck_assert_str_eq(m.keys.items[0], "greg abc linux-6.1.y");
	ck_assert_str_eq(m.message_id, "m1@example.org");
	ck_assert(starts_with(m.message, "Message-ID: <m1@example.org>\n"));
	ck_assert_uint_eq(m.message_len, strlen(m.message));
	sm_queued_mail_release(&m);

	/* Sent, failed, then folded: still known after reopening. */
	ck_assert_int_eq(sm_queue_mark_sent(&st, names.items[0]), 0);
	ck_assert_int_eq(sm_queue_mark_failed(&st, names.items[2]), 0);
	ck_assert_int_eq(sm_bot_state_fold(&st), 1);
	ck_assert_int_eq(sm_bot_state_fold(&st), 0);
	sm_bot_state_release(&st);
	p = xasprintf("%s/sent.log", dir);
	ck_assert_int_eq(read_file(p, &log), 0);
	ck_assert_msg(starts_with(log.buf, "greg abc linux-6.1.y m1@example.org "), "%s", log.buf);
	ck_assert_ptr_null(strstr(log.buf, "def"));
	ck_assert_int_eq(sm_bot_state_open(&st, dir, 0), 0);
	ck_assert(sm_bot_state_known(&st, "greg", "abc", "linux-6.1.y"));
	ck_assert(sm_bot_state_known(&st, "greg", "def", "linux-6.1.y"));
	ck_assert(sm_bot_state_known(&st, "sasha", "abc", "linux-6.6.y"));
	/* the Message-ID a sent mail went out under (a withdrawal answers
	 * it); none for one still queued or refused */
	ck_assert_str_eq(sm_bot_state_sent_msgid(&st, "greg", "abc", "linux-6.1.y"), "m1@example.org");
	ck_assert_ptr_null(sm_bot_state_sent_msgid(&st, "greg", "def", "linux-6.1.y"));
	ck_assert_ptr_null(sm_bot_state_sent_msgid(&st, "sasha", "abc", "linux-6.6.y"));
	ck_assert_ptr_null(sm_bot_state_sent_msgid(&st, "greg", "abc", "linux-6.6.y"));
	strlist_clear(&names);
	ck_assert_int_eq(sm_queue_list(&st, &names), 0);
	ck_assert_uint_eq(names.nr, 1);
	sm_bot_state_release(&st);
	strlist_clear(&names);
	strbuf_release(&log);
	free(p);
	free(dir);
}
END_TEST

START_TEST(state_malformed_and_readonly)
{
	struct sm_bot_state st;
	struct sm_queued_mail m;
	char *dir = xasprintf("%s/state", tmp), *bad = xasprintf("%s/state/queue/0-bad.mail", tmp);
	char *missing = xasprintf("%s/never", tmp);

	/* A dry run against a state that does not exist creates nothing. */
	ck_assert_int_eq(sm_bot_state_open(&st, missing, 1), 0);
	ck_assert(!sm_bot_state_known(&st, "a", "b", "c"));
	sm_bot_state_release(&st);
	ck_assert(!file_exists(missing));

	ck_assert_int_eq(sm_bot_state_open(&st, dir, 0), 0);
	ck_assert_int_eq(write_file_atomic(bad, "garbage here\n\nmsg\n", 18), 0);
	ck_assert_int_eq(sm_queue_load(&st, "0-bad.mail", &m), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "0-bad.mail: malformed queue file"));
	sm_queued_mail_release(&m);
	sm_bot_state_release(&st);
	free(dir);
	free(bad);
	free(missing);
}
END_TEST

static GMimeMessage *parse_mail(const char *text)
{
	GMimeStream *s = g_mime_stream_mem_new_with_buffer(text, strlen(text));
	GMimeParser *p = g_mime_parser_new_with_stream(s);
	GMimeMessage *m = g_mime_parser_construct_message(p, NULL);

	g_object_unref(p);
	g_object_unref(s);
	return m;
}

START_TEST(compose_headers)
{
	struct strbuf out = STRBUF_INIT;
	struct strlist cc = STRLIST_INIT;
	struct sm_outgoing m = { 0 };
	GMimeMessage *msg;
	char *body_text;
	const char *subject = "[PATCH 6.1 03/12] hwmon: (nct6775) Fix für Überlauf";

	strlist_append(&cc, "stable@vger.kernel.org");
	m.from = "Stäble Böt <bot@example.org>";
	m.to = "Greg Kroah-Hartman <greg@kroah.com>";
	m.cc = &cc;
	m.subject = subject;
	m.message_id = "patch.3@example.org";
	m.in_reply_to = "cover@example.org";
	m.list_id = "Stable candidates <candidates.example.org>";
	m.upstream = "e4ec8cc8039a7063e24204299b462bd1383184a5";
	m.tree = "linux-6.1.y";
	m.date = 1700000000;
	m.body = "commit e4ec8cc8039a7063e24204299b462bd1383184a5 upstream.\n\nSigned-off-by: Jöhn <j@x.org>\n";
	ck_assert_int_eq(sm_compose(&m, &out), 0);
	/* Raw header: 7-bit, names and subject RFC 2047-encoded. */
	{
		const char *end = strstr(out.buf, "\n\n");

		ck_assert_ptr_nonnull(end);
		for (const char *p = out.buf; p < end; p++)
			ck_assert_msg((unsigned char)*p < 0x80, "8-bit byte in headers: %s", out.buf);
	}
	ck_assert_ptr_nonnull(strstr(out.buf, "=?"));
	ck_assert_ptr_nonnull(strstr(out.buf, "\nIn-Reply-To: <cover@example.org>\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "\nReferences: <cover@example.org>\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "\nX-Stablemate-Tree: linux-6.1.y\n"));
	ck_assert_ptr_nonnull(strstr(out.buf, "Content-Transfer-Encoding: 8bit"));
	ck_assert_ptr_nonnull(strstr(out.buf, "charset=utf-8"));

	msg = parse_mail(out.buf);
	ck_assert_ptr_nonnull(msg);
	ck_assert_str_eq(g_mime_message_get_subject(msg), subject);
	ck_assert_str_eq(g_mime_message_get_message_id(msg), "patch.3@example.org");
	ck_assert_str_eq(g_mime_object_get_header(GMIME_OBJECT(msg), "X-Stablemate-Upstream"),
			 "e4ec8cc8039a7063e24204299b462bd1383184a5");
	ck_assert_str_eq(g_mime_object_get_header(GMIME_OBJECT(msg), "List-Id"),
			 "Stable candidates <candidates.example.org>");
	{
		InternetAddressList *from = g_mime_message_get_from(msg);
		InternetAddress *a = internet_address_list_get_address(from, 0);

		ck_assert_str_eq(internet_address_get_name(a), "Stäble Böt");
		ck_assert_str_eq(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a)), "bot@example.org");
		ck_assert_int_eq(internet_address_list_length(g_mime_message_get_cc(msg)), 1);
	}
	{
		GDateTime *dt = g_mime_message_get_date(msg);

		ck_assert_int_eq(g_date_time_to_unix(dt), 1700000000);
	}
	body_text = g_mime_text_part_get_text(GMIME_TEXT_PART(g_mime_message_get_mime_part(msg)));
	ck_assert_str_eq(body_text, m.body);
	g_free(body_text);
	g_object_unref(msg);
	strlist_clear(&cc);
	strbuf_release(&out);
}
END_TEST

START_TEST(compose_long_line_and_bad_address)
{
	struct strbuf out = STRBUF_INIT, body = STRBUF_INIT;
	struct sm_outgoing m = { 0 };

	for (int i = 0; i < 1200; i++)
		strbuf_addch(&body, 'x');
	strbuf_addch(&body, '\n');
	m.from = "bot@example.org";
	m.to = "greg@kroah.com";
	m.subject = "long";
	m.message_id = "l@example.org";
	m.date = 1700000000;
	m.body = body.buf;
	ck_assert_int_eq(sm_compose(&m, &out), 0);
	/* SMTP allows 998 bytes a line: such a body cannot go as 8bit. */
	ck_assert_ptr_null(strstr(out.buf, "Content-Transfer-Encoding: 8bit"));
	for (const char *p = out.buf; *p;) {
		const char *nl = strchrnul(p, '\n');

		ck_assert_int_le(nl - p, 998);
		p = *nl ? nl + 1 : nl;
	}
	strbuf_reset(&out);
	m.to = "";
	ck_assert_int_eq(sm_compose(&m, &out), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "not a mail address"));
	strbuf_release(&out);
	strbuf_release(&body);
}
END_TEST

START_TEST(message_ids_unique)
{
	char *a = sm_compose_message_id("Stable Bot <bot@example.org>");
	char *b = sm_compose_message_id("Stable Bot <bot@example.org>");

	ck_assert_str_ne(a, b);
	ck_assert_msg(strstr(a, "@example.org") && !strchr(a, '>') && !strchr(a, '<'), "%s", a);
	free(a);
	free(b);
}
END_TEST

START_TEST(patch_subjects)
{
	struct strbuf sb = STRBUF_INIT;

	sm_report_patch_subject(&sb, "6.1", 3, 12, "hwmon: fix");
	ck_assert_str_eq(sb.buf, "[PATCH 6.1 03/12] hwmon: fix");
	strbuf_reset(&sb);
	sm_report_patch_subject(&sb, "5.15", 7, 128, "x");
	ck_assert_str_eq(sb.buf, "[PATCH 5.15 007/128] x");
	strbuf_reset(&sb);
	sm_report_patch_subject(&sb, NULL, 0, 4, "cover");
	ck_assert_str_eq(sb.buf, "[PATCH 00/04] cover");
	strbuf_release(&sb);
}
END_TEST

START_TEST(daemon_backoff)
{
	struct sm_daemon_opts o = { 0 };

	o.interval = 300;
	o.retry = 10;
	o.max_backoff = 70;
	ck_assert_uint_eq(sm_daemon_delay(&o, 0), 300);
	ck_assert_uint_eq(sm_daemon_delay(&o, 1), 10);
	ck_assert_uint_eq(sm_daemon_delay(&o, 2), 20);
	ck_assert_uint_eq(sm_daemon_delay(&o, 3), 40);
	ck_assert_uint_eq(sm_daemon_delay(&o, 4), 70);
	ck_assert_uint_eq(sm_daemon_delay(&o, 60), 70);
}
END_TEST

START_TEST(smtp_server_down)
{
	struct sm_bot_config c = { 0 };
	struct sm_smtp s;
	struct strlist rcpts = STRLIST_INIT;
	const char msg[] = "Subject: x\n\nbody\n";

	/* Port 9 on loopback: nothing listens there (discard is not run here). */
	c.path = (char *)"t.conf";
	c.smtp_host = (char *)"127.0.0.1";
	c.smtp_port = 9;
	c.smtp_timeout = 5;
	c.from = (char *)"bot@example.org";
	strlist_append(&rcpts, "greg@kroah.com");
	ck_assert_int_eq(sm_smtp_open(&s, &c), 0);
	ck_assert_int_eq(sm_smtp_send(&s, "bot@example.org", &rcpts, msg, strlen(msg)), SM_SEND_DOWN);
	ck_assert_msg(strstr(sm_last_error(), "smtp://127.0.0.1:9/example.org"), "%s", sm_last_error());
	sm_smtp_close(&s);
	strlist_clear(&rcpts);
}
END_TEST


/* A child that takes the lock, says so on the pipe and waits to be killed. */
static pid_t lock_holder(const char *path)
{
	int fds[2];
	char c;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct sm_lockfile lk = SM_LOCKFILE_INIT;

		close(fds[0]);
		signal(SIGTERM, SIG_DFL);
		if (sm_lockfile_acquire(&lk, path, 0, NULL))
			_exit(3);
		if (write(fds[1], "x", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], &c, 1), 1);
	close(fds[0]);
	return pid;
}

START_TEST(lockfile_exclusive)
{
	struct sm_lockfile a = SM_LOCKFILE_INIT, b = SM_LOCKFILE_INIT;
	struct sm_lock_holder h;
	char *path = xasprintf("%s/lock", tmp), *want;

	ck_assert_int_eq(sm_lockfile_acquire(&a, path, 0, NULL), 0);
	ck_assert_int_eq(sm_lockfile_holder(path, &h), 0);
	ck_assert_int_eq(h.pid, (long)getpid());
	/* A second taker (another open file description) waits, then names the holder. */
	ck_assert_int_eq(sm_lockfile_acquire(&b, path, 300, NULL), -1);
	want = xasprintf("%s: held by pid %ld on host %s, taken ", path, (long)getpid(), h.host);
	ck_assert_msg(starts_with(sm_last_error(), want), "%s", sm_last_error());
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "; gave up after 0 s"));
	free(want);
	sm_lockfile_release(&a);
	ck_assert(!file_exists(path));
	ck_assert_int_eq(sm_lockfile_acquire(&b, path, 0, NULL), 0);
	sm_lockfile_release(&b);
	sm_lockfile_release(&b);
	free(path);
}
END_TEST

START_TEST(lockfile_dead_holders)
{
	struct sm_lockfile lk = SM_LOCKFILE_INIT;
	struct sm_lock_holder h;
	char *path = xasprintf("%s/lock", tmp);
	const char stale[] = "999999 gone.example.org 1000000000\n";
	pid_t pid;
	int st;

	/* A holder killed by a signal it does not handle removes its lock file. */
	pid = lock_holder(path);
	ck_assert(file_exists(path));
	ck_assert_int_eq(sm_lockfile_acquire(&lk, path, 0, NULL), -1);
	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	ck_assert(!file_exists(path));

	/* kill -9 leaves the file, but not the lock: it is taken over. */
	pid = lock_holder(path);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(sm_lockfile_holder(path, &h), 0);
	ck_assert_int_eq(h.pid, (long)pid);
	ck_assert_int_eq(sm_lockfile_acquire(&lk, path, 0, NULL), 0);
	ck_assert_int_eq(sm_lockfile_holder(path, &h), 0);
	ck_assert_int_eq(h.pid, (long)getpid());
	sm_lockfile_release(&lk);

	/* So is a file naming a process that is gone, from any host. */
	ck_assert_int_eq(write_file_atomic(path, stale, strlen(stale)), 0);
	ck_assert_int_eq(sm_lockfile_acquire(&lk, path, 0, NULL), 0);
	ck_assert_int_eq(sm_lockfile_holder(path, &h), 0);
	ck_assert_int_eq(h.pid, (long)getpid());
	sm_lockfile_release(&lk);
	ck_assert(!file_exists(path));
	free(path);
}
END_TEST


/* tests/smtp_sink.py: a loopback SMTP server recording the bytes it gets. */
struct sink {
	pid_t pid;
	int port;
	char *record;
};

static void sink_start(struct sink *k, const char *a1, const char *a2, const char *a3, const char *a4)
{
	int fds[2];
	char buf[32] = "";
	ssize_t n;

	k->record = xasprintf("%s/sink.%d.raw", tmp, rand());
	ck_assert_int_eq(pipe(fds), 0);
	k->pid = fork();
	ck_assert_int_ge(k->pid, 0);
	if (!k->pid) {
		const char *argv[] = { "python3", srcdir_path("tests/smtp_sink.py"), k->record,
				       a1, a2, a3, a4, NULL };

		dup2(fds[1], 1);
		close(fds[0]);
		execvp("python3", (char **)argv);
		_exit(127);
	}
	close(fds[1]);
	/* Read the whole line: the sink dies of EPIPE if its pipe closes early. */
	for (size_t got = 0; got < sizeof(buf) - 1 && !strchr(buf, '\n'); got += (size_t)n) {
		n = read(fds[0], buf + got, sizeof(buf) - 1 - got);
		ck_assert_msg(n > 0, "the SMTP sink did not start");
		buf[got + (size_t)n] = '\0';
	}
	close(fds[0]);
	k->port = atoi(buf);
	ck_assert_int_gt(k->port, 0);
}

static void sink_stop(struct sink *k)
{
	kill(k->pid, SIGTERM);
	waitpid(k->pid, NULL, 0);
	free(k->record);
}

static void sink_config(struct sm_bot_config *c, const struct sink *k, const char *user)
{
	memset(c, 0, sizeof(*c));
	c->path = (char *)"t.conf";
	c->smtp_host = (char *)"127.0.0.1";
	c->smtp_port = k->port;
	c->smtp_timeout = 10;
	c->from = (char *)"bot@example.org";
	if (user) {
		c->smtp_user = (char *)user;
		c->smtp_password_env = (char *)"SM_TEST_SMTP_PASSWORD";
		setenv("SM_TEST_SMTP_PASSWORD", "hunter2", 1);
	}
}

static size_t count_in(const char *dir, const char *sub)
{
	struct strlist names = STRLIST_INIT;
	char *path = xasprintf("%s/%s", dir, sub);
	size_t n = 0;
	DIR *d = opendir(path);
	struct dirent *de;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	free(path);
	strlist_clear(&names);
	return n;
}

static size_t count_str(const char *hay, size_t len, const char *needle)
{
	size_t n = 0, nl = strlen(needle);

	for (size_t i = 0; i + nl <= len; i++)
		n += !memcmp(hay + i, needle, nl);
	return n;
}

START_TEST(smtp_line_ends_on_the_wire)
{
	struct sm_bot_config c;
	struct sm_smtp s;
	struct sink k;
	struct strlist rcpts = STRLIST_INIT;
	struct strbuf raw = STRBUF_INIT;
	/* A commit message can hold any byte: here the shape of SMTP smuggling
	 * (a lone CR before the dot) and every other line end. */
	const char msg[] = "Subject: smuggle\n\nline one\r.\r\nMAIL FROM:<evil@example.org>\r\n"
			   "RCPT TO:<victim@example.org>\r\nDATA\r\nbare\rcr\n.\nlast";
	const char *data;

	sink_start(&k, NULL, NULL, NULL, NULL);
	sink_config(&c, &k, NULL);
	strlist_append(&rcpts, "greg@kroah.com");
	ck_assert_int_eq(sm_smtp_open(&s, &c), 0);
	ck_assert_msg(sm_smtp_send(&s, "bot@example.org", &rcpts, msg, strlen(msg)) == SM_SEND_OK,
		      "%s", sm_last_error());
	sm_smtp_close(&s);
	ck_assert_int_eq(read_file(k.record, &raw), 0);
	sink_stop(&k);
	/* The server's view: CRLF only, no CR or LF alone anywhere ... */
	for (size_t i = 0; i < raw.len; i++) {
		if (raw.buf[i] == '\r')
			ck_assert_msg(i + 1 < raw.len && raw.buf[i + 1] == '\n', "bare CR at %zu", i);
		if (raw.buf[i] == '\n')
			ck_assert_msg(i > 0 && raw.buf[i - 1] == '\r', "bare LF at %zu", i);
	}
	/* ... both lone dots stuffed, one end of data, after all the text. */
	data = strstr(raw.buf, "\r\nSubject: smuggle\r\n");
	ck_assert_ptr_nonnull(data);
	ck_assert_ptr_nonnull(strstr(data, "line one\r\n..\r\nMAIL FROM:<evil@example.org>\r\n"));
	ck_assert_ptr_nonnull(strstr(data, "bare\r\ncr\r\n..\r\nlast\r\n.\r\n"));
	ck_assert_uint_eq(count_str(raw.buf, raw.len, "\r\n.\r\n"), 1);
	ck_assert_uint_eq(count_str(raw.buf, raw.len, "\nMAIL FROM:<bot@example.org>"), 1);
	strlist_clear(&rcpts);
	strbuf_release(&raw);
}
END_TEST

static void queue_to(struct sm_bot_state *st, const char *rcpt, const char *key, const char *id)
{
	struct strlist rcpts = STRLIST_INIT, keys = STRLIST_INIT;
	char *msg = xasprintf("Message-ID: <%s>\nSubject: test\n\nbody of %s\n", id, key);

	strlist_append(&rcpts, rcpt);
	strlist_append(&keys, key);
	ck_assert_int_eq(sm_queue_add(st, "greg", "bot@example.org", &rcpts, &keys, id, msg, strlen(msg), NULL), 0);
	strlist_clear(&rcpts);
	strlist_clear(&keys);
	free(msg);
}

/* The queue after sending it to a sink started with the given arguments. */
static int send_queue(const char *dir, const char *a1, const char *a2, const char *a3,
		      const char *a4, struct sm_report_stats *stats)
{
	struct sm_bot_config c;
	struct sm_bot_state st;
	struct sink k;
	int ret;

	sink_start(&k, a1, a2, a3, a4);
	sink_config(&c, &k, "bot");
	ck_assert_int_eq(sm_bot_state_open(&st, dir, 0), 0);
	memset(stats, 0, sizeof(*stats));
	ret = sm_report_send(&c, &st, NULL, stats);
	sm_bot_state_release(&st);
	sink_stop(&k);
	return ret;
}

START_TEST(smtp_server_faults_keep_the_queue)
{
	struct sm_bot_state st;
	struct sm_report_stats stats;
	char *dir = xasprintf("%s/state", tmp);

	ck_assert_int_eq(sm_bot_state_open(&st, dir, 0), 0);
	queue_to(&st, "greg@kroah.com", "greg a linux-6.1.y", "a@example.org");
	queue_to(&st, "greg@kroah.com", "greg b linux-6.1.y", "b@example.org");
	queue_to(&st, "sasha@kernel.org", "greg c linux-6.1.y", "c@example.org");
	sm_bot_state_release(&st);

	/* A bad password is the server's answer to us, not to a mail. */
	ck_assert_int_eq(send_queue(dir, "--auth", "535", NULL, NULL, &stats), -1);
	ck_assert_msg(strstr(sm_last_error(), "authentication as bot failed") &&
		      strstr(sm_last_error(), "the server said \"535 5.7.8 Authentication credentials invalid\"") &&
		      strstr(sm_last_error(), "(3 mails left in "), "%s", sm_last_error());
	ck_assert_uint_eq(count_in(dir, "queue"), 3);
	ck_assert_uint_eq(count_in(dir, "failed"), 0);

	/* A server that breaks the AUTH exchange: the cause is named. */
	ck_assert_int_eq(send_queue(dir, "--auth", "broken", NULL, NULL, &stats), -1);
	ck_assert_msg(strstr(sm_last_error(), "authentication as bot failed: ") &&
		      strstr(sm_last_error(), "hello? this is no SMTP reply"), "%s", sm_last_error());
	ck_assert_uint_eq(count_in(dir, "queue"), 3);
	ck_assert_int_eq(send_queue(dir, "--auth", "close", NULL, NULL, &stats), -1);
	ck_assert_msg(strstr(sm_last_error(), "authentication as bot failed: ") &&
		      strstr(sm_last_error(), "the server sent no reply"), "%s", sm_last_error());
	ck_assert_uint_eq(count_in(dir, "queue"), 3);
	ck_assert_uint_eq(count_in(dir, "failed"), 0);

	/* Password fixed, one recipient refused for good: only its mails fail. */
	ck_assert_int_eq(send_queue(dir, "--auth", "ok", "--refuse", "greg@kroah.com", &stats), -1);
	ck_assert_msg(strstr(sm_last_error(), "refused 2 mails"), "%s", sm_last_error());
	ck_assert_uint_eq(stats.sent, 1);
	ck_assert_uint_eq(count_in(dir, "queue"), 0);
	ck_assert_uint_eq(count_in(dir, "failed"), 2);
	free(dir);
}
END_TEST

/* The cycle's one summary line: the harvest's part names the notices and
 * the waiting patches only when there are some. */
START_TEST(cycle_summary_line)
{
	struct sm_cycle_stats st;
	struct strbuf sb = STRBUF_INIT;

	memset(&st, 0, sizeof(st));
	st.scanned = 6;
	st.harvested = 1;
	st.harvest.messages = 40;
	st.harvest.reviews_added = 3;
	sm_cycle_summary(&st, 0, &sb);
	ck_assert_msg(strstr(sb.buf, "scanned 6 commits; harvested 40 messages, 3 new reviews; "), "%s", sb.buf);
	ck_assert_msg(!strstr(sb.buf, "notice") && !strstr(sb.buf, "waiting"), "%s", sb.buf);
	st.harvest.notices_added = 1;
	st.harvest.pending = 2;
	strbuf_reset(&sb);
	sm_cycle_summary(&st, 0, &sb);
	ck_assert_msg(strstr(sb.buf, "harvested 40 messages, 3 new reviews, 1 new stable-queue notice, "
				     "2 reviewed patches waiting for their upstream commit; "), "%s", sb.buf);
	st.harvest.notices_added = 2;
	st.harvest.pending = 1;
	strbuf_reset(&sb);
	sm_cycle_summary(&st, 0, &sb);
	ck_assert_msg(strstr(sb.buf, ", 2 new stable-queue notices, 1 reviewed patch waiting for its "
				     "upstream commit; "), "%s", sb.buf);
	ck_assert_msg(!strstr(sb.buf, "withdraw"), "%s", sb.buf);
	st.report.composed = 3;
	st.report.sent = 3;
	st.report.withdrawn = 1;
	strbuf_reset(&sb);
	sm_cycle_summary(&st, 0, &sb);
	ck_assert_msg(strstr(sb.buf, "3 mails composed (1 withdrawing a candidate mailed before), 3 sent"),
		      "%s", sb.buf);
	strbuf_release(&sb);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("bot");
	TCase *tc = add_tcase(s, "bot", SM_TESTS(config_full, config_example,
						 config_secrets_never_printed,
						 config_smtp_security, config_notes_ref, config_tree_names,
						 config_boot, password_file_mode_warning,
						 config_missing_file, password_file,
						 state_queue_roundtrip,
						 state_malformed_and_readonly, compose_headers,
						 compose_long_line_and_bad_address,
						 message_ids_unique, patch_subjects,
						 daemon_backoff, smtp_server_down,
						 lockfile_exclusive, lockfile_dead_holders,
						 smtp_line_ends_on_the_wire,
						 smtp_server_faults_keep_the_queue,
						 cycle_summary_line));

	tcase_add_loop_test(tc, config_errors, 0, (int)ARRAY_SIZE(bad_configs));
	tcase_add_checked_fixture(tc, setup, teardown);
	return s;
}
