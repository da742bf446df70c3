/* test_lib: the option parser, the error API, strbuf, strlist and the JSON writer. */
#include "lib/fileio.h"
#include "lib/json.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/util.h"
#include "check_main.h"
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>

static const char *repo, *range;
static struct strlist trees = STRLIST_INIT;
static int json, quiet_seen;
static unsigned limit;

static int on_quiet(const struct sm_option *opt, const char *arg)
{
	(void)opt;
	(void)arg;
	quiet_seen++;
	return 0;
}

static const struct sm_option common[] = {
	OPT_STRING('C', "repo", &repo, "DIR", "the repository"),
	OPT_ALIAS(0, "upstream", "repo"),
	OPT_CALLBACK_F('q', "quiet", NULL, NULL, "quiet", PARSE_OPT_NOARG, on_quiet),
	OPT_END()
};

static const struct sm_option table[] = {
	OPT_INHERIT(common),
	OPT_STRING(0, "range", &range, "A..B", "the range"),
	OPT_STRING_LIST(0, "tree", &trees, "BRANCH", "a tree\n(repeatable)"),
	OPT_ALIAS(0, "trees", "tree"),
	OPT_BOOL('j', "json", &json, "JSON"),
	OPT_UINT(0, "limit", &limit, "N", "at most N"),
	OPT_END()
};

static void reset(void)
{
	repo = range = NULL;
	strlist_clear(&trees);
	json = quiet_seen = 0;
	limit = 0;
	sm_clear_error();
}

/* Parses a NULL-ended list (argv[0] "cmd" is added). */
static int parse(char **out, unsigned flags, ...)
{
	static char *argv[32];
	va_list ap;
	int argc = 1;

	reset();
	argv[0] = (char *)"cmd";
	va_start(ap, flags);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argc = parse_options(argc, argv, table, flags);
	for (int i = 0; argc > 0 && i < argc; i++)
		out[i] = argv[i];
	return argc;
}

START_TEST(options_forms)
{
	char *rest[8];
	int n = parse(rest, 0, "A", "--repo", "r1", "--range=x..y", "B", "--tree", "t1",
		      "--tree=t2", "-qj", "--limit", "7", "--", "--json", (char *)NULL);

	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(rest[0], "A");
	ck_assert_str_eq(rest[1], "B");
	ck_assert_str_eq(rest[2], "--json");
	ck_assert_str_eq(repo, "r1");
	ck_assert_str_eq(range, "x..y");
	ck_assert_uint_eq(trees.nr, 2);
	ck_assert_str_eq(trees.items[1], "t2");
	ck_assert_int_eq(json, 1);
	ck_assert_int_eq(quiet_seen, 1);
	ck_assert_uint_eq(limit, 7);

	n = parse(rest, 0, "-Cr2", "--upstream", "r3", "--ran", "a..b", "--trees", "t3",
		  "--json", "--no-json", (char *)NULL);
	ck_assert_int_eq(n, 0);
	ck_assert_str_eq(repo, "r3");		/* the alias, inherited */
	ck_assert_str_eq(range, "a..b");	/* an unambiguous prefix */
	ck_assert_str_eq(trees.items[0], "t3");
	ck_assert_int_eq(json, 0);
	n = parse(rest, 0, "-C", "r4", (char *)NULL);
	ck_assert_str_eq(repo, "r4");
}
END_TEST

START_TEST(options_errors)
{
	char *rest[8];

	ck_assert_int_eq(parse(rest, 0, "--range", (char *)NULL), PARSE_OPT_ERROR);
	ck_assert_str_eq(sm_last_error(), "option '--range' requires a value");
	ck_assert_int_eq(parse(rest, 0, "-C", (char *)NULL), PARSE_OPT_ERROR);
	ck_assert_str_eq(sm_last_error(), "option '-C' requires a value");
	ck_assert_int_eq(parse(rest, 0, "--nope", (char *)NULL), PARSE_OPT_ERROR);
	ck_assert_str_eq(sm_last_error(), "unknown option '--nope'");
	ck_assert_int_eq(parse(rest, 0, "-x", (char *)NULL), PARSE_OPT_ERROR);
	ck_assert_str_eq(sm_last_error(), "unknown option '-x'");
	ck_assert_int_eq(parse(rest, 0, "--tre", "x", (char *)NULL), PARSE_OPT_ERROR);
	ck_assert_str_eq(sm_last_error(), "ambiguous option '--tre'");
	ck_assert_int_eq(parse(rest, 0, "--json=1", (char *)NULL), PARSE_OPT_ERROR);
	ck_assert_str_eq(sm_last_error(), "option '--json' takes no value");
	ck_assert_int_eq(parse(rest, 0, "--limit", "-1", (char *)NULL), PARSE_OPT_ERROR);
	ck_assert_str_eq(sm_last_error(), "--limit: '-1' is not a number");
	ck_assert_int_eq(parse(rest, 0, "--nope", "--help", (char *)NULL), PARSE_OPT_HELP);
	ck_assert_int_eq(parse(rest, 0, "--version", (char *)NULL), PARSE_OPT_VERSION);
}
END_TEST

START_TEST(options_stop_at_subcommand)
{
	char *rest[8];
	int n = parse(rest, PARSE_OPT_STOP_AT_NON_OPTION, "-C", "r", "show", "--json", "X",
		      (char *)NULL);

	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(rest[0], "show");
	ck_assert_str_eq(rest[1], "--json");
	ck_assert_int_eq(json, 0);
}
END_TEST

START_TEST(options_usage)
{
	static const struct sm_usage u = {
		.synopsis = "cmd [-C DIR] A\n"
			    "cmd --tree B",
		.description = "Does things.\n",
		.epilog = "Exit status: 0.\n",
	};
	struct strbuf sb = STRBUF_INIT;

	parse_options_usage(table, &u, &sb);
	ck_assert_ptr_nonnull(strstr(sb.buf, "usage: cmd [-C DIR] A\n       cmd --tree B\n"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "\nDoes things.\n\nOptions:\n"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "  -C, --repo DIR        the repository\n"));
	ck_assert_ptr_nonnull(strstr(sb.buf, "      --tree BRANCH     a tree\n"
					     "                        (repeatable)\n"));
	ck_assert_ptr_null(strstr(sb.buf, "upstream"));	/* aliases are not listed */
	ck_assert_ptr_nonnull(strstr(sb.buf, "\nExit status: 0.\n"));
	strbuf_release(&sb);
	reset();
}
END_TEST

START_TEST(error_wrap_keeps_both_texts)
{
	struct sm_error_state st;

	sm_error("smtp.passwordFile: %s: no such file", "/etc/pw");
	ck_assert_int_eq(sm_error_wrap("bot.conf"), -1);
	sm_error_wrap("cycle %d", 3);
	ck_assert_str_eq(sm_last_error(),
			 "cycle 3: bot.conf: smtp.passwordFile: /etc/pw: no such file");
	/* sm_error may take its own text as an argument */
	sm_error("%s (2 mails left)", sm_last_error());
	ck_assert_str_eq(sm_last_error(),
			 "cycle 3: bot.conf: smtp.passwordFile: /etc/pw: no such file (2 mails left)");
	/* save, let cleanup fail, restore */
	sm_error_save(&st);
	sm_error("close failed");
	ck_assert_int_eq(sm_error_restore(&st), -1);
	ck_assert_str_eq(sm_last_error(),
			 "cycle 3: bot.conf: smtp.passwordFile: /etc/pw: no such file (2 mails left)");
	sm_clear_error();
}
END_TEST

/* Terminal controls in text from mail: each C0 control but tab and
 * newline, DEL, and a UTF-8 C1 control one '?'; UTF-8 letters (ä is
 * C3 A4, U+00A0 is C2 A0) kept; a lone C2 at the end is no control yet. */
START_TEST(masked_controls)
{
	static const char in[] = "a\033]52;c;ZXZpbA==\007b\tc\r\nd\x7f\xc2\x9b" "31m\xc3\xa4\xc2\xa0" "e";
	struct strbuf sb = STRBUF_INIT;

	strbuf_add_masked(&sb, in, sizeof(in) - 1);
	ck_assert_str_eq(sb.buf, "a?]52;c;ZXZpbA==?b\tc?\nd??31m\xc3\xa4\xc2\xa0" "e");
	ck_assert_uint_eq(control_char_len("\xc2", 1), 0);
	ck_assert_uint_eq(control_char_len("\xc2\x85", 2), 2);
	ck_assert_uint_eq(control_char_len("\n", 1), 0);
	ck_assert_uint_eq(control_char_len("", 0), 0);
	strbuf_release(&sb);
}
END_TEST

/* buf is "" from STRBUF_INIT on, without allocating, and the shared slop
 * buffer is never written, freed or handed out by strbuf_detach. */
START_TEST(strbuf_never_null)
{
	struct strbuf sb = STRBUF_INIT, z;
	size_t len = 1;
	char *s;

	ck_assert_ptr_nonnull(sb.buf);
	ck_assert_str_eq(sb.buf, "");
	strbuf_reset(&sb);
	strbuf_setlen(&sb, 0);
	strbuf_trim(&sb);
	ck_assert_uint_eq(sb.alloc, 0);
	s = strbuf_detach(&sb, &len);
	ck_assert_ptr_ne(s, strbuf_slopbuf);
	ck_assert_str_eq(s, "");
	ck_assert_uint_eq(len, 0);
	free(s);
	ck_assert_ptr_eq(sb.buf, strbuf_slopbuf);

	strbuf_addstr(&sb, "  x y \n");
	strbuf_trim(&sb);
	ck_assert_str_eq(sb.buf, "x y");
	ck_assert_uint_eq(sb.len, 3);
	strbuf_release(&sb);
	ck_assert_str_eq(sb.buf, "");
	ck_assert_uint_eq(sb.len, 0);
	strbuf_release(&sb);
	strbuf_addf(&sb, "%d", 42);
	ck_assert_str_eq(sb.buf, "42");
	s = strbuf_detach(&sb, NULL);
	ck_assert_str_eq(s, "42");
	free(s);
	ck_assert_str_eq(sb.buf, "");

	memset(&z, 0xff, sizeof(z));
	strbuf_init(&z, 0);
	ck_assert_ptr_eq(z.buf, strbuf_slopbuf);
	strbuf_init(&z, 100);
	ck_assert_uint_ge(z.alloc, 101);
	ck_assert_str_eq(z.buf, "");
	strbuf_release(&z);
	ck_assert_int_eq(strbuf_slopbuf[0], '\0');
}
END_TEST

START_TEST(strlist_split_and_clear)
{
	struct strlist l = STRLIST_INIT;

	strlist_split(&l, "", ',');
	strlist_split(&l, " , ,", ',');
	ck_assert_uint_eq(l.nr, 0);
	strlist_split(&l, " a , ,b c,,", ',');
	ck_assert_uint_eq(l.nr, 2);
	ck_assert_str_eq(l.items[0], "a");
	ck_assert_str_eq(l.items[1], "b c");
	strlist_append(&l, "");
	ck_assert_uint_eq(l.nr, 3);
	ck_assert(strlist_contains(&l, "b c"));
	ck_assert(strlist_contains(&l, ""));
	ck_assert(!strlist_contains(&l, "b"));
	strlist_append(&l, "a");
	strlist_remove(&l, "a");	/* the first of two */
	strlist_remove(&l, "b");	/* none: nothing */
	ck_assert_uint_eq(l.nr, 3);
	ck_assert_str_eq(l.items[0], "b c");
	ck_assert_str_eq(l.items[1], "");
	ck_assert_str_eq(l.items[2], "a");
	strlist_clear(&l);
	ck_assert_uint_eq(l.nr, 0);
	ck_assert_ptr_null(l.items);
	ck_assert(!strlist_contains(&l, "a"));
}
END_TEST

START_TEST(text_lines)
{
	const char *p = "a\n\nlast", *line;
	struct strbuf all = STRBUF_INIT;
	size_t len;

	while (next_text_line(&p, &line, &len))
		strbuf_addf(&all, "[%.*s]", (int)len, line);
	ck_assert_str_eq(all.buf, "[a][][last]");
	p = "";
	ck_assert(!next_text_line(&p, &line, &len));
	p = "x\n";
	ck_assert(next_text_line(&p, &line, &len) && len == 1);
	ck_assert(!next_text_line(&p, &line, &len));
	strbuf_release(&all);
}
END_TEST

START_TEST(json_groups_of_members)
{
	struct strbuf out = STRBUF_INIT;
	struct json_writer w;
	unsigned sent = 3;
	size_t refused = 0;

	json_init(&w, &out);
	json_object_begin(&w, NULL);
	json_bool(&w, "ok", 1);
	JSON_INTS(&w, "sent refused", sent, refused);
	JSON_STRINGS(&w, " a  b ", "x\"", NULL);
	json_object_end(&w);
	ck_assert_str_eq(out.buf, "{\"ok\":true,\"sent\":3,\"refused\":0,\"a\":\"x\\\"\",\"b\":null}");
	strbuf_release(&out);
}
END_TEST

/* A streamed writer writes the same text as a buffered one, in chunks:
 * it never holds much more than JSON_STREAM_CHUNK bytes. */
START_TEST(json_streamed_as_buffered)
{
	struct strbuf whole = STRBUF_INIT, part = STRBUF_INIT, back = STRBUF_INIT;
	struct json_writer a, b;
	FILE *f = tmpfile();
	size_t most = 0;
	char buf[4096];
	size_t n;

	ck_assert_ptr_nonnull(f);
	json_init(&a, &whole);
	json_init(&b, &part);
	json_stream_to(&b, f);
	json_object_begin(&a, NULL);
	json_object_begin(&b, NULL);
	json_array_begin(&a, "commits");
	json_array_begin(&b, "commits");
	for (int i = 0; i < 20000; i++) {
		char id[32];

		snprintf(id, sizeof(id), "c%d \"q\"", i);
		json_object_begin(&a, NULL);
		json_object_begin(&b, NULL);
		json_string(&a, "id", id);
		json_string(&b, "id", id);
		json_int(&a, "n", i);
		json_int(&b, "n", i);
		json_object_end(&a);
		json_object_end(&b);
		if (part.len > most)
			most = part.len;
	}
	json_array_end(&a);
	json_array_end(&b);
	json_object_end(&a);
	json_object_end(&b);
	ck_assert_uint_gt(whole.len, 4 * JSON_STREAM_CHUNK);
	ck_assert_uint_lt(most, JSON_STREAM_CHUNK + 64);
	ck_assert_uint_gt((size_t)ftell(f), 0);	/* written out before the end */
	fwrite(part.buf, 1, part.len, f);
	rewind(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&back, buf, n);
	ck_assert_uint_eq(back.len, whole.len);
	ck_assert(!memcmp(back.buf, whole.buf, whole.len));
	fclose(f);
	strbuf_release(&whole);
	strbuf_release(&part);
	strbuf_release(&back);
}
END_TEST

/* json_int prints what "%lld" does; json_quote copies a plain string whole
 * and escapes the rest (the fast path and the slow one give one text). */
START_TEST(json_numbers_and_strings)
{
	static const long long v[] = { 0, 7, -7, 10, -10, 123456789, LLONG_MAX, LLONG_MIN };
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	struct json_writer w;

	json_init(&w, &sb);
	json_array_begin(&w, NULL);
	strbuf_addch(&want, '[');
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		json_int(&w, NULL, v[i]);
		strbuf_addf(&want, "%s%lld", i ? "," : "", v[i]);
	}
	json_array_end(&w);
	strbuf_addch(&want, ']');
	ck_assert_str_eq(sb.buf, want.buf);
	strbuf_reset(&sb);
	json_quote(&sb, "", 0);
	json_quote(&sb, "plain ~\x7f", 8);
	json_quote(&sb, "a\"b\\c\nd\te\x01" "f \xc3\xa9 \xff", 16);
	/* DEL and the C1 CSI escaped too: no terminal control in JSON */
	ck_assert_str_eq(sb.buf, "\"\"\"plain ~\\u007f\"\"a\\\"b\\\\c\\nd\\te\\u0001f \xc3\xa9 \\ufffd\"");
	strbuf_reset(&sb);
	json_quote(&sb, "\xc2\x9b" "31m \xc2\xa0 \xc2", 10);
	ck_assert_str_eq(sb.buf, "\"\\u009b31m \xc2\xa0 \\ufffd\"");
	strbuf_release(&sb);
	strbuf_release(&want);
}
END_TEST

/* git's colours (color.ui=always) taken out: SGR sequences with and
 * without parameters, one cut off at the end, text around them kept. */
START_TEST(ansi_escapes_stripped)
{
	char text[] = "\033[33mcommit 1a2b\033[m\033[33m (\033[1;36mHEAD\033[m)\nplain [x]\n\033[3";

	ck_assert(starts_ansi_escape(text, strlen(text)));
	ck_assert(!starts_ansi_escape("plain", 5));
	ck_assert(!starts_ansi_escape("\033", 1));
	text[strip_ansi_escapes(text, strlen(text))] = '\0';
	ck_assert_str_eq(text, "commit 1a2b (HEAD)\nplain [x]\n");
}
END_TEST

/* Two threads writing one path at once, as scan's loader thread and its
 * main thread both add to the ancestry cache: every write succeeds, the
 * file is one of them whole, and no temporary file is left. */
struct same_path_writer {
	const char *path;
	char byte;
	int failures;
};

static void *write_same_path(void *arg)
{
	struct same_path_writer *w = arg;
	char buf[8192];

	memset(buf, w->byte, sizeof(buf));
	for (int i = 0; i < 300; i++)
		if (write_file_atomic(w->path, buf, sizeof(buf)) < 0)
			w->failures++;
	return NULL;
}

START_TEST(atomic_writes_from_two_threads)
{
	char *dir = make_temp_dir("sm-fileio"), *path = xasprintf("%s/cache", dir);
	struct same_path_writer w[2] = { { path, 'a', 0 }, { path, 'b', 0 } };
	struct strbuf sb = STRBUF_INIT;
	pthread_t t[2];
	struct dirent *e;
	DIR *d;
	int files = 0;

	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, write_same_path, &w[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(w[0].failures + w[1].failures, 0);
	ck_assert_int_eq(read_file(path, &sb), 0);
	ck_assert_uint_eq(sb.len, 8192);
	for (size_t i = 1; i < sb.len; i++)
		ck_assert_int_eq(sb.buf[i], sb.buf[0]);
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		files += e->d_name[0] != '.';
	closedir(d);
	ck_assert_int_eq(files, 1);
	strbuf_release(&sb);
	remove_tree(dir);
	free(path);
	free(dir);
}
END_TEST

/* The XDG rules: an absolute $XDG_*_HOME, else ~/DEFAULT (a relative
 * value is ignored), /tmp for an unset HOME. */
START_TEST(xdg_directories)
{
	char *p;

	setenv("HOME", "/home/greg", 1);
	setenv("XDG_CACHE_HOME", "/var/cache/greg", 1);
	p = xdg_path("XDG_CACHE_HOME", ".cache", "stablemate");
	ck_assert_str_eq(p, "/var/cache/greg/stablemate");
	free(p);
	setenv("XDG_CACHE_HOME", "cache", 1);
	p = xdg_path("XDG_CACHE_HOME", ".cache", "stablemate");
	ck_assert_str_eq(p, "/home/greg/.cache/stablemate");
	free(p);
	unsetenv("XDG_CONFIG_HOME");
	p = xdg_path("XDG_CONFIG_HOME", ".config", "stablemate/bot.conf");
	ck_assert_str_eq(p, "/home/greg/.config/stablemate/bot.conf");
	free(p);
	unsetenv("HOME");
	p = xdg_path("XDG_CONFIG_HOME", ".config", "stablemate/bot.conf");
	ck_assert_str_eq(p, "/tmp/.config/stablemate/bot.conf");
	free(p);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("lib");

	add_tcase(s, "parse-options", SM_TESTS(options_forms, options_errors,
					       options_stop_at_subcommand, options_usage));
	add_tcase(s, "errors", SM_TESTS(error_wrap_keeps_both_texts));
	add_tcase(s, "strings", SM_TESTS(strbuf_never_null, masked_controls, strlist_split_and_clear,
					 text_lines, json_groups_of_members, json_streamed_as_buffered,
					 json_numbers_and_strings, ansi_escapes_stripped));
	add_tcase(s, "files", SM_TESTS(atomic_writes_from_two_threads, xdg_directories));
	return s;
}
