/* test_stream: the streaming readers of mail/ (mail/stream.h, mail/mbox.h).
 * The same input fed whole and in pieces of every awkward size gives the
 * same messages; gzip members, truncation and corruption; bounded lines;
 * the size cap; Message-IDs named for skipped mails. */
#include "mail/stream.h"
#include "mail/mbox.h"
#include "mail/records.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/fileio.h"
#include <zlib.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check_main.h"

/* Every message as "n|size|too_big|msgid|data". */
static int collect(const struct sm_mbox_msg *m, void *data)
{
	struct strlist *out = data;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%u|%zu|%d|%s|", m->n, m->size, m->too_big, m->msgid);
	if (m->data)
		strbuf_add(&sb, m->data, m->len);
	strlist_append_nodup(out, strbuf_detach(&sb, NULL));
	return 0;
}

/* Feeds buf in pieces of `step` bytes (0: pseudo-random 1..9000). */
static void split_in_pieces(const char *buf, size_t len, size_t step, size_t max,
			    struct strlist *out)
{
	struct sm_mbox_parser *p = sm_mbox_parser_new(max, collect, out);
	unsigned seed = 7;

	for (size_t off = 0; off < len;) {
		size_t n = step ? step : 1 + (seed = seed * 1103515245 + 12345) % 9000;

		if (n > len - off)
			n = len - off;
		ck_assert_int_eq(sm_mbox_parser_feed(buf + off, n, p), 0);
		off += n;
	}
	ck_assert_int_ge(sm_mbox_parser_finish(p), 0);
	sm_mbox_parser_free(p);
}

static void assert_same_lists(const struct strlist *a, const struct strlist *b, size_t step)
{
	ck_assert_msg(a->nr == b->nr, "step %zu: %zu messages, whole: %zu", step, b->nr, a->nr);
	for (size_t i = 0; i < a->nr; i++)
		ck_assert_msg(!strcmp(a->items[i], b->items[i]), "step %zu: message %zu differs",
			      step, i + 1);
}

/* few: only a few piece sizes (a big input) */
static void check_pieces(const char *buf, size_t len, size_t max, size_t want, int few)
{
	static const size_t steps[] = { 3, 4095, 0, 1, 2, 5, 7, 64, 8193, 65536 };
	struct strlist whole = STRLIST_INIT;

	split_in_pieces(buf, len, len ? len : 1, max, &whole);
	if (want)
		ck_assert_uint_eq(whole.nr, want);
	for (size_t i = 0; i < (few ? 3 : ARRAY_SIZE(steps)); i++) {
		struct strlist got = STRLIST_INIT;

		split_in_pieces(buf, len, steps[i], max, &got);
		assert_same_lists(&whole, &got, steps[i]);
		strlist_clear(&got);
	}
	strlist_clear(&whole);
}

/* Awkward mboxes: dateless separators, a body "From " line, >From, CRLF,
 * a 20 KB line starting with "From ", a line of 9000 bytes at the end without '\n'. */
START_TEST(pieces_edge_cases)
{
	struct strbuf sb = STRBUF_INIT;
	struct strlist l = STRLIST_INIT;

	strbuf_addstr(&sb, "From a@b Mon Jul  1 09:00:00 2024\nMessage-ID: <one@x>\n\n"
			   "From the user's view.\n>From here\n>>From there\n\n");
	strbuf_addstr(&sb, "From dateless\nSubject: two\nMessage-Id:\n <two@x>\n\nbody\r\n\r\n");
	strbuf_addstr(&sb, "From x 10:00\r\nSubject: three\r\n\r\nFrom ");
	for (int i = 0; i < 20000; i++)
		strbuf_addch(&sb, 'f');
	strbuf_addstr(&sb, "\n\nFrom late Mon Jul  1 09:00:02 2024\nSubject: four\n\n");
	for (int i = 0; i < 9000; i++)
		strbuf_addch(&sb, 'z');
	check_pieces(sb.buf, sb.len, 0, 4, 0);

	split_in_pieces(sb.buf, sb.len, 3, 0, &l);
	ck_assert_ptr_nonnull(strstr(l.items[0], "|<one@x>|Message-ID"));
	ck_assert_ptr_nonnull(strstr(l.items[0], "\nFrom the user's view.\nFrom here\n>From there\n"));
	ck_assert_ptr_nonnull(strstr(l.items[1], "|<two@x>|Subject: two"));
	ck_assert_ptr_nonnull(strstr(l.items[2], "\r\n\r\nFrom ffff"));
	ck_assert_uint_eq(strlen(strrchr(l.items[3], '\n') + 1), 9000);
	strlist_clear(&l);

	/* The size cap: the third message (over 20 KB) is only named. */
	split_in_pieces(sb.buf, sb.len, 5, 10000, &l);
	ck_assert_uint_eq(l.nr, 4);
	ck_assert_str_eq(l.items[2], "3|20025|1||");
	ck_assert_ptr_nonnull(strstr(l.items[3], "4|9015|0||Subject: four"));
	strlist_clear(&l);
	check_pieces(sb.buf, sb.len, 10000, 4, 0);

	/* mboxo: a body's "From my testing:" with a trailer under it stays in its
	 * message; a dateless "From " line before a real header block splits. */
	{
		static const char mboxo[] =
			"From a 10:00\nSubject: one\n\nBooted.\n\nFrom my testing:\n"
			"Tested-by: T <t@example.org>\nAcked-by: A <a@example.org>\n\n"
			"From dateless\nTo: x@example.org\n cont\nSubject: two\n\nbody\n";

		check_pieces(mboxo, sizeof(mboxo) - 1, 0, 2, 0);
		split_in_pieces(mboxo, sizeof(mboxo) - 1, 1, 0, &l);
		ck_assert_ptr_nonnull(strstr(l.items[0], "\nFrom my testing:\nTested-by: T"));
		ck_assert_ptr_nonnull(strstr(l.items[1], "2|43|0||To: x@example.org\n cont\n"));
		strlist_clear(&l);
	}

	/* No separator at all: one message; text before the first one is dropped. */
	check_pieces("Subject: just one\n\nhi\n", 22, 0, 1, 0);
	check_pieces("junk\nFrom a 10:00\nSubject: s\n\nb\n", 31, 0, 1, 0);
	check_pieces("", 0, 0, 0, 0);
	strbuf_release(&sb);
}
END_TEST

/* Real archives: the same messages whole and in pieces. */
START_TEST(pieces_real_mboxes)
{
	static const char *const files[] = {
		"corpus/cve-announce/cve-announce-2024-300.mbox.gz",
	};
	struct strbuf sb = STRBUF_INIT;

	ck_assert_int_eq(sm_mbox_read(srcdir_path("tests/fixtures/mail/stable-thread.mbox.in"), &sb), 0);
	check_pieces(sb.buf, sb.len, 0, 0, 0);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		if (!file_exists(shared_path(files[i])))
			continue;
		strbuf_reset(&sb);
		ck_assert_int_eq(sm_mbox_read(shared_path(files[i]), &sb), 0);
		check_pieces(sb.buf, sb.len, 0, 300, 1);
	}
	strbuf_release(&sb);
}
END_TEST

static int add_to(const char *buf, size_t len, void *sb)
{
	strbuf_add(sb, buf, len);
	return 0;
}

static void gz(const char *in, size_t len, struct strbuf *out)
{
	z_stream z = { 0 };
	unsigned char buf[4096];
	int r;

	ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		r = deflate(&z, Z_FINISH);
		strbuf_add(out, buf, sizeof(buf) - z.avail_out);
	} while (r == Z_OK);
	ck_assert_int_eq(r, Z_STREAM_END);
	deflateEnd(&z);
}

/* Decodes data fed in pieces of step bytes; returns finish()'s result. */
static int decode(const char *data, size_t len, size_t step, struct strbuf *out)
{
	struct sm_decoder *d = sm_decoder_new("t.gz", add_to, out);
	int rc = 0;

	for (size_t off = 0; off < len && rc == 0; off += step)
		rc = sm_decoder_feed(d, data + off, len - off < step ? len - off : step);
	if (rc == 0)
		rc = sm_decoder_finish(d);
	sm_decoder_free(d);
	return rc;
}

START_TEST(gzip_members_truncation_corruption)
{
	struct strbuf a = STRBUF_INIT, out = STRBUF_INIT;
	static const size_t steps[] = { 1, 3, 100, 1 << 20 };

	gz("first member\n", 13, &a);
	gz("second member\n", 14, &a);
	strbuf_add(&a, "\0\0\0\0", 4);	/* padding after the last member */
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		strbuf_reset(&out);
		ck_assert_int_eq(decode(a.buf, a.len, steps[i], &out), 0);
		ck_assert_str_eq(out.buf, "first member\nsecond member\n");
	}
	/* Cut anywhere inside the second member: an error naming the input. */
	for (size_t cut = a.len - 4 - 10; cut > a.len / 2 + 1; cut--) {
		strbuf_reset(&out);
		ck_assert_int_eq(decode(a.buf, cut, 7, &out), -1);
		ck_assert_ptr_nonnull(strstr(sm_last_error(), "t.gz: the gzip data ends early"));
	}
	/* A flipped byte in the data or the CRC: an error, never silent. */
	a.buf[a.len / 2 + 12] ^= 0x55;
	strbuf_reset(&out);
	ck_assert_int_eq(decode(a.buf, a.len, 5, &out), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "t.gz: "));
	/* Plain data passes through, even one byte. */
	strbuf_reset(&out);
	ck_assert_int_eq(decode("x", 1, 1, &out), 0);
	ck_assert_str_eq(out.buf, "x");
	strbuf_release(&a);
	strbuf_release(&out);
}
END_TEST

static int line_seen(const char *line, size_t len, unsigned long lineno, int too_long, void *data)
{
	strbuf_addf(data, "%lu:%zu:%d:%s;", lineno, len, too_long, line ? line : "-");
	return 0;
}

START_TEST(lines_bounded)
{
	static const char in[] = "short\n0123456789abcdef\n\nlast";
	static const size_t steps[] = { 1, 2, 5, sizeof(in) };

	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		struct strbuf got = STRBUF_INIT;
		struct sm_lines l;

		sm_lines_init(&l, 10, line_seen, &got);
		for (size_t off = 0; off < sizeof(in) - 1; off += steps[i])
			ck_assert_int_eq(sm_lines_feed(in + off, sizeof(in) - 1 - off < steps[i] ?
					 sizeof(in) - 1 - off : steps[i], &l), 0);
		ck_assert_int_eq(sm_lines_finish(&l), 0);
		ck_assert_str_eq(got.buf, "1:5:0:short;2:16:1:-;3:0:0:;4:4:0:last;");
		sm_lines_release(&l);
		strbuf_release(&got);
	}
}
END_TEST

START_TEST(sizes)
{
	size_t v;

	ck_assert_int_eq(sm_parse_size("64M", &v), 0);
	ck_assert_uint_eq(v, 64u << 20);
	ck_assert_int_eq(sm_parse_size("100K", &v), 0);
	ck_assert_uint_eq(v, 102400);
	ck_assert_int_eq(sm_parse_size("2G", &v), 0);
	ck_assert_uint_eq(v, (size_t)2 << 30);
	ck_assert_int_eq(sm_parse_size("1000", &v), 0);
	ck_assert_uint_eq(v, 1000);
	ck_assert_int_eq(sm_parse_size("0", &v), -1);
	ck_assert_int_eq(sm_parse_size("12X", &v), -1);
	ck_assert_int_eq(sm_parse_size("-1", &v), -1);
	ck_assert_int_eq(sm_parse_size("", &v), -1);
}
END_TEST

/* Each record as "name|id|subject;" */
static int record_seen(struct sm_commit *c, const char *name, void *data)
{
	strbuf_addf(data, "%s|%s|%s;", name ? name : "-", c->id ? c->id : "-",
		    c->subject ? c->subject : "-");
	sm_commit_release(c);
	return 0;
}

/* The record stream of classify --batch and train: the first line picks
 * the reader, whatever piece it ends in (a byte-order mark, blank lines
 * and the first line cut anywhere); the same records come in whole or in
 * pieces, a bad one skipped and counted, or (strict) stopping the read
 * with its line named. */
START_TEST(records_in_pieces)
{
	static const struct {
		const char *in, *want;
		unsigned records, bad;
	} inputs[] = {
		{ "\xef\xbb\xbf\n{\"id\": \"a1\", \"message\": \"net: fix a leak\\n\\nbody\"}\n\n"
		  "{\"id\": \"a2\", \"subject\": \"x\", \"files\": [{\"file\": \"a.c\", \"added\": -3}]}\n"
		  "{\"cve\": \"CVE-2024-1\", \"description\": \"mm: fix a crash\"}",
		  "a1|-|net: fix a leak;CVE-2024-1|-|mm: fix a crash;", 3, 1 },
		{ "[\n  {\"id\": 7, \"message\": \"x86: fix\"},\n  {\"message\": \"y: z\"}\n]\n",
		  "7|-|x86: fix;-|-|y: z;", 2, 0 },
		{ "\033[33mcommit 0123456789012345678901234567890123456789\033[m\nAuthor: A <a@b>\n"
		  "Date:   Mon Jul 1 09:00:00 2024 +0000\n\n    net: fix a leak\n\n"
		  "commit 1111111111111111111111111111111111111111\nAuthor: A <a@b>\n\n    mm: fix\n",
		  "-|0123456789012345678901234567890123456789|net: fix a leak;"
		  "-|1111111111111111111111111111111111111111|mm: fix;", 2, 0 },
		{ "From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
		  "From: A <a@b>\nSubject: [PATCH] net: fix a leak\n\nbody\n"
		  "From 3333333333333333333333333333333333333333 Mon Sep 17 00:00:00 2001\n"
		  "From: A <a@b>\nSubject: =?UTF-8?q?mm=3A_fix_caf=C3=A9?=\nMIME-Version: 1.0\n"
		  "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable\n\n"
		  "a =3D b\n",
		  "-|2222222222222222222222222222222222222222|net: fix a leak;"
		  "-|3333333333333333333333333333333333333333|mm: fix caf\xc3\xa9;", 2, 0 },
		/* JSON lines with an object laid out over lines amid them, as jq
		 * prints one, and one cut short at the end */
		{ "{\"id\": \"b1\", \"message\": \"x: fix\"}\n{\n  \"id\": \"b2\",\n  \"message\": \"y: fix\"\n}\n"
		  "{\"id\": \"b3\", \"message\": \"z: fix\"}\n{\"id\": \"b4\",\n  \"message\": \"w",
		  "b1|-|x: fix;b2|-|y: fix;b3|-|z: fix;", 4, 1 },
	};
	static const size_t pieces[] = { 0, 1, 2, 3, 5, 64 };
	static const char bad_line[] = "{\"message\": \"x: y\"}\n{\"id\": \"x\", \"message\": \"a\n"
				       "{\"message\": \"x: y\"}\n";

	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
		const char *in = inputs[i].in;

		for (size_t k = 0; k < ARRAY_SIZE(pieces); k++) {
			struct strbuf got = STRBUF_INIT;
			struct sm_records r = { .path = "in", .max_record = 1 << 20, .fn = record_seen,
						.ctx = &got };

			sm_set_quiet(1);
			ck_assert_int_eq(sm_records_read_mem(&r, in, strlen(in), pieces[k]), 0);
			sm_set_quiet(0);
			ck_assert_msg(!strcmp(got.buf, inputs[i].want), "input %zu in pieces of %zu: %s", i,
				      pieces[k], got.buf);
			ck_assert_uint_eq(r.bad, inputs[i].bad);
			ck_assert_uint_eq(r.records, inputs[i].records);
			strbuf_release(&got);
		}
	}
	/* strict: the bad record stops the read, named by its line */
	{
		struct strbuf got = STRBUF_INIT;
		struct sm_records r = { .path = "in.jsonl", .max_record = 1 << 20, .strict = 1,
					.fn = record_seen, .ctx = &got };

		ck_assert_int_eq(sm_records_read_mem(&r, inputs[0].in, strlen(inputs[0].in), 3), -1);
		ck_assert_msg(starts_with(sm_last_error(), "in.jsonl:4: files[0]"), "%s", sm_last_error());
		ck_assert_str_eq(got.buf, "a1|-|net: fix a leak;");
		sm_clear_error();
		strbuf_reset(&got);
		/* an object cut short names the line it began on */
		ck_assert_int_eq(sm_records_read_mem(&r, inputs[4].in, strlen(inputs[4].in), 2), -1);
		ck_assert_str_eq(sm_last_error(),
				 "in.jsonl:7: not JSON (an object begun here is not closed)");
		ck_assert_str_eq(got.buf, inputs[4].want);
		sm_clear_error();
		strbuf_reset(&got);
		/* a line cut short alone is not JSON, whatever follows */
		ck_assert_int_eq(sm_records_read_mem(&r, bad_line, strlen(bad_line), 0), -1);
		ck_assert_str_eq(sm_last_error(), "in.jsonl:2: not JSON");
		sm_clear_error();
		strbuf_release(&got);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("stream");

	add_tcase(s, "stream", SM_TESTS(pieces_edge_cases, pieces_real_mboxes,
					gzip_members_truncation_corruption, lines_bounded,
					sizes, records_in_pieces));
	return s;
}
