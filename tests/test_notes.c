/* test_notes: the review-note format, its merge, and writes to real git
 * repositories in temp dirs (created and inspected with the git CLI). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gitnotes/notes.h"
#include "lib/fileio.h"
#include "lib/json.h"
#include "lib/util.h"
#include "tests/check_main.h"

/* needle a occurs in hay, and before needle b. */
#define ck_assert_before(hay, a, b) \
	do { \
		const char *pa_ = strstr((hay), (a)), *pb_ = strstr((hay), (b)); \
		ck_assert_msg(pa_ && pb_ && pa_ < pb_, "'%s' not before '%s'", (a), (b)); \
	} while (0)

static char *tmpdir;
static git_repository *repo;
static git_oid c1, c2;

/* Runs a shell command in the test repository; returns its exit status. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd, *full;
	int rc;

	va_start(ap, fmt);
	if (vasprintf(&cmd, fmt, ap) < 0)
		abort();
	va_end(ap);
	full = xasprintf("cd '%s' && (%s)", tmpdir, cmd);
	rc = system(full);
	free(cmd);
	free(full);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The stdout of a shell command run in the repository. */
static char *sh_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *sh_out(const char *fmt, ...)
{
	va_list ap;
	char *cmd, *full;
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	FILE *f;

	va_start(ap, fmt);
	if (vasprintf(&cmd, fmt, ap) < 0)
		abort();
	va_end(ap);
	full = xasprintf("cd '%s' && (%s)", tmpdir, cmd);
	f = popen(full, "r");
	ck_assert_ptr_nonnull(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	pclose(f);
	free(cmd);
	free(full);
	strbuf_addstr(&sb, "");
	return strbuf_detach(&sb, NULL);
}

static void commit_id(const char *rev, git_oid *oid)
{
	char *out = sh_out("git rev-parse %s", rev);

	out[strcspn(out, "\n")] = 0;
	ck_assert_int_eq(git_oid_fromstr(oid, out), 0);
	free(out);
}

static void repo_setup(void)
{
	git_libgit2_init();
	tmpdir = make_temp_dir("sm-notes-test");
	ck_assert_ptr_nonnull(tmpdir);
	ck_assert_int_eq(sh("git init -q . && git config user.name 'Test Maintainer' && "
			    "git config user.email tm@example.org && "
			    "git commit -q --allow-empty -m 'hwmon: fix a leak' && "
			    "git commit -q --allow-empty -m 'usb: fix a race'"), 0);
	commit_id("HEAD~1", &c1);
	commit_id("HEAD", &c2);
	ck_assert_int_eq(git_repository_open(&repo, tmpdir), 0);
}

static void repo_teardown(void)
{
	sm_notes_set_update_hook(NULL, NULL);
	git_repository_free(repo);
	repo = NULL;
	remove_tree(tmpdir);
	free(tmpdir);
	tmpdir = NULL;
	git_libgit2_shutdown();
}

static void review_init(struct sm_review *r, const char *mid, const char *author,
			const char *date, const char *tree, const char *trailer,
			const char *comment)
{
	memset(r, 0, sizeof(*r));
	r->message_id = xstrdup(mid);
	r->author = xstrdup(author);
	r->date = xstrdup(date);
	r->tree = xstrdup(tree);
	r->subject = xasprintf("Re: [PATCH %s 012/100] hwmon: fix a leak", tree);
	r->link = xasprintf("https://lore.kernel.org/r/%s", mid);
	if (trailer)
		strlist_append(&r->trailers, trailer);
	r->comment = xstrdup(comment ? comment : "");
}

static char *note_text(const git_oid *oid)
{
	struct strbuf sb = STRBUF_INIT;

	ck_assert_int_eq(sm_notes_read(repo, SM_NOTES_REF_DEFAULT, oid, &sb), SM_NOTE_FOUND);
	strbuf_addstr(&sb, "");
	return strbuf_detach(&sb, NULL);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* ---- the format ---- */

START_TEST(test_format_exact)
{
	struct sm_review r;
	struct strbuf sb = STRBUF_INIT;

	review_init(&r, "<20240102.GA1@roeck-us.net>", "Guenter Roeck <linux@roeck-us.net>",
		    "Tue, 2 Jan 2024 07:30:12 -0800", "6.1",
		    "Reviewed-by: Guenter Roeck <linux@roeck-us.net>",
		    "  Looks good.   \n\n\n\nSecond paragraph.\n\n");
	r.via_cover = 1;
	sm_review_format(&r, &sb);
	ck_assert_str_eq(sb.buf,
		"Review: <20240102.GA1@roeck-us.net>\n"
		"Tree: 6.1\n"
		"Author: Guenter Roeck <linux@roeck-us.net>\n"
		"Date: Tue, 2 Jan 2024 07:30:12 -0800\n"
		"Subject: Re: [PATCH 6.1 012/100] hwmon: fix a leak\n"
		"Link: https://lore.kernel.org/r/<20240102.GA1@roeck-us.net>\n"
		"Via: cover letter\n"
		"Trailers:\n"
		"  Reviewed-by: Guenter Roeck <linux@roeck-us.net>\n"
		"Comment:\n"
		"      Looks good.\n"
		"\n"
		"    Second paragraph.\n");
	strbuf_release(&sb);
	sm_review_release(&r);
}
END_TEST

/* A reply's text is anyone's: its terminal controls (an OSC 52 clipboard
 * write, a CR that writes over a trailer) are stored as '?', so `git log
 * --notes` shows them harmless to everyone who fetches the ref */
START_TEST(test_format_masks_controls)
{
	struct sm_review r;
	struct strbuf sb = STRBUF_INIT;

	review_init(&r, "<c1@evil.example>", "Eve \033[8m<eve@evil.example>",
		    "Tue, 2 Jan 2024 07:30:12 -0800", "6.1",
		    "Reviewed-by: Eve <eve@evil.example>\rNacked-by: Greg <greg@kroah.com>",
		    "Fine.\033]52;c;cm0gLXJmIH4K\007\n\tcode\x7f");
	sm_review_format(&r, &sb);
	ck_assert_msg(!strpbrk(sb.buf, "\033\007\r\x7f"), "%s", sb.buf);
	ck_assert_msg(strstr(sb.buf, "Author: Eve ?[8m<eve@evil.example>\n"), "%s", sb.buf);
	ck_assert_msg(strstr(sb.buf, "  Reviewed-by: Eve <eve@evil.example> Nacked-by"), "%s", sb.buf);
	ck_assert_msg(strstr(sb.buf, "    Fine.?]52;c;cm0gLXJmIH4K?\n    \tcode?\n"), "%s", sb.buf);
	strbuf_release(&sb);
	sm_review_release(&r);
}
END_TEST

START_TEST(test_roundtrip)
{
	struct sm_review r, *out = NULL;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t nr = 0;

	review_init(&r, "a1b2@suse.cz", "Jörg Rödel <joro@8bytes.org>",
		    "2024-01-03T10:00:00+01:00", "5.15", "Nacked-by: Jörg Rödel <joro@8bytes.org>",
		    "NAK, this breaks\n  the IOMMU on AMD.\n\nSee the thread.");
	strlist_append(&r.trailers, "Link: https://lore.kernel.org/r/other@x");
	strlist_append(&r.trailers, "Fixes: 0123456789ab (\"iommu: thing\")");
	sm_review_format(&r, &a);
	ck_assert_int_eq(sm_notes_parse(a.buf, &out, &nr), 0);
	ck_assert_uint_eq(nr, 1);
	ck_assert_str_eq(out[0].message_id, "a1b2@suse.cz");
	ck_assert_str_eq(out[0].author, "Jörg Rödel <joro@8bytes.org>");
	ck_assert_str_eq(out[0].date, "2024-01-03T10:00:00+01:00");
	ck_assert_str_eq(out[0].tree, "5.15");
	ck_assert_str_eq(out[0].subject, "Re: [PATCH 5.15 012/100] hwmon: fix a leak");
	ck_assert_str_eq(out[0].link, "https://lore.kernel.org/r/a1b2@suse.cz");
	ck_assert_int_eq(out[0].via_cover, 0);
	ck_assert_uint_eq(out[0].trailers.nr, 3);
	ck_assert_str_eq(out[0].trailers.items[0], "Nacked-by: Jörg Rödel <joro@8bytes.org>");
	ck_assert_str_eq(out[0].trailers.items[1], "Link: https://lore.kernel.org/r/other@x");
	ck_assert_str_eq(out[0].comment, "NAK, this breaks\n  the IOMMU on AMD.\n\nSee the thread.");
	sm_review_format(&out[0], &b);
	ck_assert_str_eq(a.buf, b.buf);
	for (size_t i = 0; i < nr; i++)
		sm_review_release(&out[i]);
	free(out);
	strbuf_release(&a);
	strbuf_release(&b);
	sm_review_release(&r);
}
END_TEST

/* Unverified: round-trips, is no review, and survives a merge of notes. */
START_TEST(test_unverified_roundtrip_merge)
{
	struct sm_review r;
	struct sm_note a = SM_NOTE_INIT, b = SM_NOTE_INIT;
	struct strbuf t1 = STRBUF_INIT, t2 = STRBUF_INIT;

	review_init(&r, "f1@evil.example", "Greg Kroah-Hartman <attacker@evil.example>",
		    "Tue, 02 Jul 2024 10:01:00 +0000", "6.1", NULL, NULL);
	strlist_append(&r.unverified, "Reviewed-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org> "
			"(sent by Greg Kroah-Hartman <attacker@evil.example>)");
	ck_assert_int_eq(sm_review_counts(&r), 0);
	sm_review_format(&r, &t1);
	ck_assert_ptr_nonnull(strstr(t1.buf, "\nUnverified:\n  Reviewed-by: Greg"));
	ck_assert_ptr_null(strstr(t1.buf, "Trailers:"));
	sm_note_parse(&a, t1.buf);
	ck_assert_uint_eq(a.nr, 1);
	ck_assert_uint_eq(a.other.nr, 0);
	ck_assert_uint_eq(a.reviews[0].unverified.nr, 1);
	ck_assert_uint_eq(a.reviews[0].trailers.nr, 0);
	ck_assert_int_eq(sm_review_counts(&a.reviews[0]), 0);
	/* Merged into a note that lacks it: the block comes over whole. */
	ck_assert_uint_eq(sm_note_merge(&b, &a, NULL), 1);
	sm_note_format(&b, &t2);
	ck_assert_str_eq(t1.buf, t2.buf);
	/* Trailers: then Unverified: in one block; a signed review counts. */
	strlist_append(&r.trailers, "Link: https://lore.kernel.org/r/x@y");
	strbuf_reset(&t1);
	sm_review_format(&r, &t1);
	ck_assert_ptr_nonnull(strstr(t1.buf, "Trailers:\n  Link: https://lore.kernel.org/r/x@y\nUnverified:\n"));
	sm_note_release(&a);
	sm_note_parse(&a, t1.buf);
	ck_assert_uint_eq(a.nr, 1);
	ck_assert_uint_eq(a.reviews[0].trailers.nr, 1);
	ck_assert_uint_eq(a.reviews[0].unverified.nr, 1);
	ck_assert_int_eq(sm_review_counts(&a.reviews[0]), 1);
	sm_note_release(&a);
	sm_note_release(&b);
	strbuf_release(&t1);
	strbuf_release(&t2);
	sm_review_release(&r);
}
END_TEST

/* A stable queue's notice: its own line, round-trips, never a review,
 * survives a merge; a notice this stablemate does not know (a later
 * one's) leaves the block foreign text, kept byte for byte. */
START_TEST(test_notice_block)
{
	struct sm_review r;
	struct sm_note a = SM_NOTE_INIT, b = SM_NOTE_INIT;
	struct strbuf t1 = STRBUF_INIT, t2 = STRBUF_INIT, js = STRBUF_INIT;
	struct json_writer w;
	char *later;

	review_init(&r, "20260301011739.1671643-1-sashal@kernel.org", "Sasha Levin <sashal@kernel.org>",
		    "Sat, 28 Feb 2026 20:17:39 -0500", "6.18", NULL, NULL);
	free(r.subject);
	r.subject = xstrdup("FAILED: Patch \"hwmon: (max16065) Use READ/WRITE_ONCE\" failed to apply "
			    "to 6.18-stable tree");
	r.notice = xstrdup(SM_NOTICE_FAILED);
	ck_assert_int_eq(sm_review_counts(&r), 0);
	sm_review_format(&r, &t1);
	ck_assert_str_eq(t1.buf,
		"Review: <20260301011739.1671643-1-sashal@kernel.org>\n"
		"Tree: 6.18\n"
		"Author: Sasha Levin <sashal@kernel.org>\n"
		"Date: Sat, 28 Feb 2026 20:17:39 -0500\n"
		"Subject: FAILED: Patch \"hwmon: (max16065) Use READ/WRITE_ONCE\" failed to apply to "
		"6.18-stable tree\n"
		"Link: https://lore.kernel.org/r/20260301011739.1671643-1-sashal@kernel.org\n"
		"Notice: failed to apply\n");
	sm_note_parse(&a, t1.buf);
	ck_assert_uint_eq(a.nr, 1);
	ck_assert_uint_eq(a.other.nr, 0);
	ck_assert_str_eq(a.reviews[0].notice, SM_NOTICE_FAILED);
	ck_assert_int_eq(sm_review_counts(&a.reviews[0]), 0);
	json_init(&w, &js);
	sm_review_json(&a.reviews[0], "0123456789012345678901234567890123456789", &w);
	ck_assert_msg(strstr(js.buf, "\"notice\":\"failed to apply\""), "%s", js.buf);
	ck_assert_msg(strstr(js.buf, "\"counts_as_review\":false"), "%s", js.buf);
	ck_assert_uint_eq(sm_note_merge(&b, &a, NULL), 1);
	sm_note_format(&b, &t2);
	ck_assert_str_eq(t1.buf, t2.buf);
	/* its list of possible dependencies, as harvest keeps it in the comment */
	{
		struct strlist ids = STRLIST_INIT;

		free(a.reviews[0].comment);
		a.reviews[0].comment = xstrdup("Possible dependencies, as the stable queue's script lists them:\n"
					       "a73d8779d61a (\"net: macsec: introduce mdo_insert_tx_tag\")\n"
					       "eb97b9bd38f9 (\"x\")\n"
					       "abc (\"too short\")\n"
					       "f3b4a00f0f62 (");
		sm_review_notice_dependencies(&a.reviews[0], &ids);
		ck_assert_uint_eq(ids.nr, 2);
		ck_assert_str_eq(ids.items[0], "a73d8779d61a");
		ck_assert_str_eq(ids.items[1], "eb97b9bd38f9");
		strlist_clear(&ids);
		ck_assert_uint_eq(sm_notice_dependency_id("0123456789abcdef0123456789abcdef01234567 (\"x\")", 45), 40);
		ck_assert_uint_eq(sm_notice_dependency_id("thanks,", 7), 0);
	}
	/* a review parsed back has notice "" and its JSON null */
	sm_note_release(&b);
	sm_review_release(&r);
	review_init(&r, "rv@x", "A <a@x>", "Sun, 01 Mar 2026 09:00:00 +0000", "6.18",
		    "Acked-by: A <a@x>", NULL);
	strbuf_reset(&t2);
	sm_review_format(&r, &t2);
	sm_note_parse(&b, t2.buf);
	ck_assert_str_eq(b.reviews[0].notice, "");
	strbuf_reset(&js);
	json_init(&w, &js);
	sm_review_json(&b.reviews[0], "0123456789012345678901234567890123456789", &w);
	ck_assert_msg(strstr(js.buf, "\"notice\":null"), "%s", js.buf);
	sm_note_release(&b);
	/* a notice unknown here: foreign text, as written */
	later = xstrdup(t1.buf);
	memcpy(strstr(later, "Notice: failed to apply") + 8, "failed to merge", 15);
	sm_note_parse(&b, later);
	ck_assert_uint_eq(b.nr, 0);
	ck_assert_uint_eq(b.other.nr, 1);
	strbuf_reset(&t2);
	sm_note_format(&b, &t2);
	ck_assert_str_eq(t2.buf, later);
	free(later);
	sm_note_release(&a);
	sm_note_release(&b);
	strbuf_release(&t1);
	strbuf_release(&t2);
	strbuf_release(&js);
	sm_review_release(&r);
}
END_TEST

START_TEST(test_empty_fields_and_tree)
{
	struct sm_review r, *out = NULL;
	struct strbuf a = STRBUF_INIT;
	size_t nr = 0;

	memset(&r, 0, sizeof(r));
	r.message_id = xstrdup("bare@x");
	sm_review_format(&r, &a);
	ck_assert_str_eq(a.buf, "Review: <bare@x>\n");
	ck_assert_int_eq(sm_notes_parse(a.buf, &out, &nr), 0);
	ck_assert_uint_eq(nr, 1);
	ck_assert_str_eq(out[0].tree, "");
	ck_assert_str_eq(out[0].comment, "");
	ck_assert_uint_eq(out[0].trailers.nr, 0);
	sm_review_release(&out[0]);
	free(out);
	strbuf_release(&a);
	sm_review_release(&r);
}
END_TEST

START_TEST(test_foreign_text_kept)
{
	const char *text =
		"Remark by a person:  trailing blanks kept  \n"
		"\n"
		"\n"
		"second paragraph\n"
		"\n"
		"Review: <ok@x>\n"
		"Tree: 6.1\n"
		"\n"
		"Review: <broken@x>\n"
		"Tree: 6.6\n"
		"Bogus: a line stablemate never writes\n";
	struct sm_note n, n2;
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT;

	sm_note_parse(&n, text);
	ck_assert_uint_eq(n.nr, 1);
	ck_assert_str_eq(n.reviews[0].message_id, "ok@x");
	ck_assert_uint_eq(n.other.nr, 2);
	ck_assert_str_eq(n.other.items[0],
			 "Remark by a person:  trailing blanks kept  \n\n\nsecond paragraph\n");
	ck_assert_str_eq(n.other.items[1],
			 "Review: <broken@x>\nTree: 6.6\nBogus: a line stablemate never writes\n");
	sm_note_format(&n, &out);
	ck_assert_ptr_nonnull(strstr(out.buf, n.other.items[0]));
	ck_assert_ptr_nonnull(strstr(out.buf, n.other.items[1]));
	/* The canonical text is a fixed point. */
	sm_note_parse(&n2, out.buf);
	sm_note_format(&n2, &again);
	ck_assert_str_eq(out.buf, again.buf);
	sm_note_release(&n);
	sm_note_release(&n2);
	strbuf_release(&out);
	strbuf_release(&again);
}
END_TEST

START_TEST(test_order_and_dedupe)
{
	struct sm_review r[3];
	struct sm_note a = SM_NOTE_INIT, b = SM_NOTE_INIT;
	struct strbuf ta = STRBUF_INIT, tb = STRBUF_INIT;

	/* Same instant in two notations, and an older one. */
	review_init(&r[0], "z@x", "A <a@x>", "Tue, 2 Jan 2024 16:30:12 +0100", "6.1", NULL, "one");
	review_init(&r[1], "b@x", "B <b@x>", "2024-01-02T15:30:12Z", "6.6", NULL, "two");
	review_init(&r[2], "m@x", "C <c@x>", "Mon, 1 Jan 2024 00:00:00 +0000", "6.1", NULL, "");
	ck_assert_int_eq(sm_note_add(&a, &r[0]), 1);
	ck_assert_int_eq(sm_note_add(&a, &r[1]), 1);
	ck_assert_int_eq(sm_note_add(&a, &r[2]), 1);
	ck_assert_int_eq(sm_note_add(&b, &r[2]), 1);
	ck_assert_int_eq(sm_note_add(&b, &r[1]), 1);
	ck_assert_int_eq(sm_note_add(&b, &r[0]), 1);
	/* The same Message-ID, with or without <>, is stored once. */
	free(r[0].message_id);
	r[0].message_id = xstrdup(" <z@x> ");
	ck_assert_int_eq(sm_note_add(&b, &r[0]), 0);
	sm_note_format(&a, &ta);
	sm_note_format(&b, &tb);
	ck_assert_str_eq(ta.buf, tb.buf);
	ck_assert_before(ta.buf, "<m@x>", "<b@x>");
	ck_assert_before(ta.buf, "<b@x>", "<z@x>");
	ck_assert_uint_eq(count(ta.buf, "Review: "), 3);
	ck_assert_int_eq(sm_review_date_epoch("Tue, 2 Jan 2024 16:30:12 +0100"),
			 sm_review_date_epoch("2024-01-02T15:30:12Z"));
	ck_assert_int_eq(sm_review_date_epoch("2024-01-02T15:30:12Z"), 1704209412);
	ck_assert_int_eq(sm_review_date_epoch("yesterday"), -1);
	for (int i = 0; i < 3; i++)
		sm_review_release(&r[i]);
	sm_note_release(&a);
	sm_note_release(&b);
	strbuf_release(&ta);
	strbuf_release(&tb);
}
END_TEST

/* A block stored without a Tree: gets one from a later copy of the same
 * reply (a harvest that held more of its thread); nothing else of it
 * changes, and a tree it has is never replaced. Either writer's order
 * gives the same note. */
START_TEST(test_tree_filled_later)
{
	struct sm_review early, later, other;
	struct sm_note a = SM_NOTE_INIT, b = SM_NOTE_INIT, c = SM_NOTE_INIT;
	struct strbuf ta = STRBUF_INIT, tb = STRBUF_INIT;
	size_t filled = 9;

	review_init(&early, "t@x", "Jon <jon@x>", "Wed, 29 May 2024 09:59:34 +0100", "",
		    "Tested-by: Jon <jon@x>", "That did the trick!");
	review_init(&later, "<t@x>", "Jon <jon@x>", "Wed, 29 May 2024 09:59:34 +0100", " 5.15\t",
		    "Reviewed-by: Someone Else <else@x>", "other words");
	review_init(&other, "t@x", "Jon <jon@x>", "Wed, 29 May 2024 09:59:34 +0100", "6.1", NULL, "");
	ck_assert_int_eq(sm_note_add(&a, &early), SM_NOTE_ADDED);
	ck_assert_int_eq(sm_note_add(&a, &later), SM_NOTE_FILLED);
	ck_assert_uint_eq(a.nr, 1);
	ck_assert_str_eq(a.reviews[0].tree, "5.15");
	ck_assert_uint_eq(a.reviews[0].trailers.nr, 1);
	ck_assert_str_eq(a.reviews[0].trailers.items[0], "Tested-by: Jon <jon@x>");
	ck_assert_str_eq(a.reviews[0].comment, "That did the trick!");
	ck_assert_int_eq(sm_note_add(&a, &other), SM_NOTE_PRESENT);
	ck_assert_str_eq(a.reviews[0].tree, "5.15");
	ck_assert_int_eq(sm_note_add(&b, &later), SM_NOTE_ADDED);
	ck_assert_int_eq(sm_note_add(&b, &early), SM_NOTE_PRESENT);
	sm_note_format(&a, &ta);
	sm_note_format(&b, &tb);
	/* the later copy's own trailers came with the whole block in b */
	ck_assert_msg(strstr(tb.buf, "Tree: 5.15\n") && strstr(ta.buf, "Tree: 5.15\n"), "%s", ta.buf);
	/* merge: the note without the tree learns it, and says so */
	ck_assert_int_eq(sm_note_add(&c, &early), SM_NOTE_ADDED);
	ck_assert_uint_eq(sm_note_merge(&c, &b, &filled), 0);
	ck_assert_uint_eq(filled, 1);
	ck_assert_str_eq(c.reviews[0].tree, "5.15");
	sm_review_release(&early);
	sm_review_release(&later);
	sm_review_release(&other);
	sm_note_release(&a);
	sm_note_release(&b);
	sm_note_release(&c);
	strbuf_release(&ta);
	strbuf_release(&tb);
}
END_TEST

START_TEST(test_stripspace_stable)
{
	/* A person's `git notes edit` runs git's cleanup over the note; the
	 * text we write must come out of it unchanged. */
	struct sm_review r;
	struct sm_note n = SM_NOTE_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *path, *out;

	repo_setup();
	review_init(&r, "s@x", "A <a@x>", "2024-01-02T15:30:12Z", "6.1", "Acked-by: A <a@x>",
		    "para one\n\n\n\npara two   \n\t\n");
	sm_note_add(&n, &r);
	sm_note_format(&n, &sb);
	path = xasprintf("%s/note.txt", tmpdir);
	ck_assert_int_eq(write_file_atomic(path, sb.buf, sb.len), 0);
	out = sh_out("git stripspace < note.txt");
	ck_assert_str_eq(out, sb.buf);
	free(out);
	free(path);
	strbuf_release(&sb);
	sm_note_release(&n);
	sm_review_release(&r);
	repo_teardown();
}
END_TEST

/* ---- writes to a repository ---- */

START_TEST(test_add_and_git_cli)
{
	struct sm_review r;
	char hex[GIT_OID_HEXSZ + 1];
	int added = -1;
	char *text, *log, *shown;
	struct strbuf none = STRBUF_INIT;

	repo_setup();
	ck_assert_int_eq(sm_notes_read(repo, NULL, &c1, &none), SM_NOTE_NONE);
	review_init(&r, "r1@x", "Jörg Rödel <joro@8bytes.org>", "2024-01-02T15:30:12Z", "6.1",
		    "Reviewed-by: Jörg Rödel <joro@8bytes.org>", "Fine by me.");
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r, &added), 0);
	ck_assert_int_eq(added, 1);
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r, &added), 0);
	ck_assert_int_eq(added, 0);
	text = note_text(&c1);
	ck_assert_uint_eq(count(text, "Review: <r1@x>"), 1);
	git_oid_tostr(hex, sizeof(hex), &c1);
	shown = sh_out("git notes --ref=stable-review show %s", hex);
	ck_assert_str_eq(shown, text);
	log = sh_out("git log --notes=stable-review -1 --format='%%s%%n%%N' %s", hex);
	ck_assert_ptr_nonnull(strstr(log, "hwmon: fix a leak"));
	ck_assert_ptr_nonnull(strstr(log, "Reviewed-by: Jörg Rödel <joro@8bytes.org>"));
	free(log);
	log = sh_out("git log --notes=stable-review -1 %s", hex);
	ck_assert_ptr_nonnull(strstr(log, "Notes (stable-review):"));
	ck_assert_ptr_nonnull(strstr(log, "    Review: <r1@x>"));
	/* The second add wrote nothing: one notes commit in the ref's history. */
	free(shown);
	shown = sh_out("git rev-list --count refs/notes/stable-review");
	ck_assert_str_eq(shown, "1\n");
	free(log);
	free(shown);
	free(text);
	sm_review_release(&r);
	repo_teardown();
}
END_TEST

START_TEST(test_person_note_kept)
{
	struct sm_review r;
	char hex[GIT_OID_HEXSZ + 1];
	int added;
	char *text;

	repo_setup();
	git_oid_tostr(hex, sizeof(hex), &c2);
	ck_assert_int_eq(sh("git notes --ref=stable-review add -m 'Hold this one: breaks "
			    "suspend on my T480 (Jörg)' %s", hex), 0);
	review_init(&r, "r2@x", "A <a@x>", "2024-01-02T15:30:12Z", "6.6", "Tested-by: A <a@x>", "");
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c2, &r, &added), 0);
	ck_assert_int_eq(added, 1);
	text = note_text(&c2);
	ck_assert(starts_with(text, "Hold this one: breaks suspend on my T480 (Jörg)\n\nReview: <r2@x>\n"));
	free(text);
	sm_review_release(&r);
	repo_teardown();
}
END_TEST

struct race {
	int calls;
	int always;
	const char *hex;
};

/* Between our read and our ref update, a person runs `git notes append`. */
static int race_hook(git_repository *r, const char *ref, unsigned attempt, void *data)
{
	struct race *race = data;

	race->calls++;
	if (attempt == 0 || race->always)
		ck_assert_int_eq(sh("git notes --ref=stable-review append -m 'appended by a person "
				    "%u' %s", attempt, race->hex), 0);
	return 0;
}

START_TEST(test_cas_retry)
{
	struct sm_review r0, r1;
	struct race race = { 0, 0, NULL };
	char hex[GIT_OID_HEXSZ + 1];
	int added;
	char *text;

	repo_setup();
	git_oid_tostr(hex, sizeof(hex), &c1);
	race.hex = hex;
	review_init(&r0, "first@x", "A <a@x>", "2024-01-01T00:00:00Z", "6.1", NULL, "first");
	review_init(&r1, "second@x", "B <b@x>", "2024-01-02T00:00:00Z", "6.6", NULL, "second");
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r0, &added), 0);
	sm_notes_set_update_hook(race_hook, &race);
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r1, &added), 0);
	ck_assert_int_eq(added, 1);
	ck_assert_int_eq(race.calls, 2);
	ck_assert_uint_eq(sm_notes_last_attempts(), 2);
	text = note_text(&c1);
	/* Nothing lost: the first review, the person's text, and ours. */
	ck_assert_ptr_nonnull(strstr(text, "appended by a person 0\n"));
	ck_assert_uint_eq(count(text, "Review: <first@x>"), 1);
	ck_assert_uint_eq(count(text, "Review: <second@x>"), 1);
	free(text);
	/* A ref that never stops moving: a clear error, no endless loop. */
	race.always = 1;
	free(r1.message_id);
	r1.message_id = xstrdup("third@x");
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r1, &added), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "refs/notes/stable-review: the ref kept moving"));
	ck_assert_uint_eq(sm_notes_last_attempts(), SM_NOTES_MAX_ATTEMPTS);
	text = note_text(&c1);
	ck_assert_ptr_null(strstr(text, "third@x"));
	ck_assert_ptr_nonnull(strstr(text, "appended by a person 31\n"));
	free(text);
	sm_review_release(&r0);
	sm_review_release(&r1);
	repo_teardown();
}
END_TEST

/* Several processes add to the same note at the same time. */
START_TEST(test_concurrent_writers)
{
	enum { WRITERS = 4, EACH = 15 };
	pid_t pids[WRITERS];
	char *text;
	struct sm_review *rs = NULL;
	size_t nr = 0;

	repo_setup();
	for (int w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		ck_assert_int_ge(pids[w], 0);
		if (pids[w] == 0) {
			git_repository *own = NULL;
			int ok = git_repository_open(&own, tmpdir) == 0;

			for (int i = 0; ok && i < EACH; i++) {
				struct sm_review r;
				char *mid = xasprintf("w%d-%d@x", w, i);
				int added;

				review_init(&r, mid, "W <w@x>", "2024-01-02T00:00:00Z", "6.1", NULL, mid);
				ok = sm_notes_add_review(own, NULL, &c1, &r, &added) == 0 && added;
				sm_review_release(&r);
				free(mid);
			}
			git_repository_free(own);
			_exit(ok ? 0 : 1);
		}
	}
	for (int w = 0; w < WRITERS; w++) {
		int st;

		ck_assert_int_eq(waitpid(pids[w], &st, 0), pids[w]);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	text = note_text(&c1);
	ck_assert_int_eq(sm_notes_parse(text, &rs, &nr), 0);
	ck_assert_uint_eq(nr, WRITERS * EACH);
	for (size_t i = 0; i < nr; i++)
		sm_review_release(&rs[i]);
	free(rs);
	free(text);
	repo_teardown();
}
END_TEST

START_TEST(test_batch)
{
	struct sm_review r[4];
	git_oid commits[4];
	size_t added = 0;
	char *text, *count_s;

	repo_setup();
	review_init(&r[0], "b0@x", "A <a@x>", "2024-01-03T00:00:00Z", "6.1", NULL, "");
	review_init(&r[1], "b1@x", "A <a@x>", "2024-01-01T00:00:00Z", "6.1", NULL, "");
	review_init(&r[2], "b2@x", "A <a@x>", "2024-01-02T00:00:00Z", "6.1", NULL, "");
	review_init(&r[3], "b0@x", "A <a@x>", "2024-01-03T00:00:00Z", "6.1", NULL, "dup");
	commits[0] = c1;
	commits[1] = c2;
	commits[2] = c1;
	commits[3] = c1;
	ck_assert_int_eq(sm_notes_add_batch(repo, NULL, commits, r, 4, &added), 0);
	ck_assert_uint_eq(added, 3);
	text = note_text(&c1);
	ck_assert_before(text, "<b2@x>", "<b0@x>");
	ck_assert_ptr_null(strstr(text, "dup"));
	free(text);
	count_s = sh_out("git rev-list --count refs/notes/stable-review");
	ck_assert_str_eq(count_s, "1\n");	/* one ref update for the batch */
	free(count_s);
	/* A review without a Message-ID is refused, naming the commit. */
	free(r[0].message_id);
	r[0].message_id = xstrdup("  ");
	ck_assert_int_eq(sm_notes_add_batch(repo, NULL, commits, r, 1, &added), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "no valid Message-ID"));
	for (int i = 0; i < 4; i++)
		sm_review_release(&r[i]);
	repo_teardown();
}
END_TEST

START_TEST(test_merge_ref)
{
	struct sm_review r[3];
	struct sm_notes_merge_stats st;
	int added;
	char *text, *before, *after, *parents;

	repo_setup();
	review_init(&r[0], "both@x", "A <a@x>", "2024-01-01T00:00:00Z", "6.1", NULL, "");
	review_init(&r[1], "ours@x", "B <b@x>", "2024-01-02T00:00:00Z", "6.1", NULL, "");
	review_init(&r[2], "theirs@x", "C <c@x>", "2024-01-03T00:00:00Z", "6.6", NULL, "");
	const char *theirs = "refs/notes/remotes/greg/stable-review";

	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r[0], &added), 0);
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r[1], &added), 0);
	ck_assert_int_eq(sm_notes_add_review(repo, theirs, &c1, &r[0], &added), 0);
	ck_assert_int_eq(sm_notes_add_review(repo, theirs, &c1, &r[2], &added), 0);
	ck_assert_int_eq(sm_notes_add_review(repo, theirs, &c2, &r[2], &added), 0);
	ck_assert_int_eq(sm_notes_merge_ref(repo, NULL, theirs, &st), 0);
	ck_assert_uint_eq(st.notes, 2);
	ck_assert_uint_eq(st.reviews_added, 2);
	ck_assert_uint_eq(st.notes_changed, 2);
	ck_assert_int_eq(st.up_to_date, 0);
	text = note_text(&c1);
	ck_assert_uint_eq(count(text, "Review: "), 3);
	ck_assert_uint_eq(count(text, "<both@x>"), 1);
	free(text);
	text = note_text(&c2);
	ck_assert_uint_eq(count(text, "Review: <theirs@x>"), 1);
	free(text);
	parents = sh_out("git log -1 --format=%%P refs/notes/stable-review | wc -w");
	ck_assert_str_eq(parents, "2\n");
	free(parents);
	/* Merging again changes nothing. */
	before = sh_out("git rev-parse refs/notes/stable-review");
	ck_assert_int_eq(sm_notes_merge_ref(repo, NULL, theirs, &st), 0);
	ck_assert_int_eq(st.up_to_date, 1);
	after = sh_out("git rev-parse refs/notes/stable-review");
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
	/* Into a ref we do not have yet: fast-forward to theirs. */
	ck_assert_int_eq(sm_notes_merge_ref(repo, "refs/notes/fresh", theirs, &st), 0);
	before = sh_out("git rev-parse refs/notes/fresh");
	after = sh_out("git rev-parse %s", theirs);
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
	ck_assert_int_eq(sm_notes_merge_ref(repo, NULL, "refs/notes/nonesuch", &st), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "refs/notes/nonesuch"));
	for (int i = 0; i < 3; i++)
		sm_review_release(&r[i]);
	repo_teardown();
}
END_TEST

/* `git notes merge -s union` concatenates both notes; reading the result
 * gives the union once, and the next stablemate write tidies the text. */
START_TEST(test_git_union_merge)
{
	struct sm_review r[3];
	int added;
	char hex[GIT_OID_HEXSZ + 1];
	char *text;
	struct sm_review *rs = NULL;
	size_t nr = 0;

	repo_setup();
	git_oid_tostr(hex, sizeof(hex), &c1);
	review_init(&r[0], "both@x", "A <a@x>", "2024-01-01T00:00:00Z", "6.1", NULL, "c");
	review_init(&r[1], "ours@x", "B <b@x>", "2024-01-02T00:00:00Z", "6.1", NULL, "");
	review_init(&r[2], "theirs@x", "C <c@x>", "2024-01-03T00:00:00Z", "6.6", NULL, "");
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r[0], &added), 0);
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r[1], &added), 0);
	ck_assert_int_eq(sm_notes_add_review(repo, "refs/notes/theirs", &c1, &r[0], &added), 0);
	ck_assert_int_eq(sm_notes_add_review(repo, "refs/notes/theirs", &c1, &r[2], &added), 0);
	ck_assert_int_eq(sh("git notes --ref=stable-review merge -q -s union refs/notes/theirs"), 0);
	text = note_text(&c1);
	ck_assert_uint_eq(count(text, "Review: <both@x>"), 2);
	ck_assert_int_eq(sm_notes_parse(text, &rs, &nr), 0);
	ck_assert_uint_eq(nr, 3);
	for (size_t i = 0; i < nr; i++)
		sm_review_release(&rs[i]);
	free(rs);
	free(text);
	free(r[1].message_id);
	r[1].message_id = xstrdup("later@x");
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r[1], &added), 0);
	text = note_text(&c1);
	ck_assert_uint_eq(count(text, "Review: <both@x>"), 1);
	ck_assert_uint_eq(count(text, "Review: "), 4);
	free(text);
	for (int i = 0; i < 3; i++)
		sm_review_release(&r[i]);
	repo_teardown();
}
END_TEST

/* libgit2 reads and extends a notes tree that git fanned out (git splits
 * the tree into xx/ directories once a notes ref holds many notes). */
START_TEST(test_fanout_from_git)
{
	struct sm_review r;
	int added;
	char hex[GIT_OID_HEXSZ + 1];
	char *text, *tree;

	repo_setup();
	/* 300 commits and a note on each in one git fast-import stream, then
	 * a git notes write so git itself lays the tree out with fan-out. */
	ck_assert_int_eq(sh("for i in $(seq 1 300); do "
			    "  printf 'commit refs/heads/many\\nmark :%%s\\n' $i; "
			    "  printf 'committer T <t@x> 1700000000 +0000\\ndata 5\\nc%%03d\\n' $i; "
			    "done > fi; echo 'commit refs/notes/stable-review' >> fi; "
			    "printf 'committer T <t@x> 1700000000 +0000\\ndata 2\\nx\\n' >> fi; "
			    "for i in $(seq 1 300); do "
			    "  printf 'N inline :%%s\\ndata 5\\nn%%03d\\n' $i $i; "
			    "done >> fi; git fast-import --quiet < fi"), 0);
	git_oid_tostr(hex, sizeof(hex), &c2);
	ck_assert_int_eq(sh("git notes --ref=stable-review add -m 'by git' %s", hex), 0);
	tree = sh_out("git ls-tree refs/notes/stable-review | grep -c tree");
	ck_assert_int_gt(atoi(tree), 0);
	free(tree);
	review_init(&r, "fan@x", "A <a@x>", "2024-01-01T00:00:00Z", "6.1", NULL, "");
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c2, &r, &added), 0);
	ck_assert_int_eq(added, 1);
	text = sh_out("git notes --ref=stable-review show %s", hex);
	ck_assert(starts_with(text, "by git\n\nReview: <fan@x>\n"));
	free(text);
	text = sh_out("git notes --ref=stable-review list | wc -l");
	ck_assert_str_eq(text, "301\n");
	free(text);
	sm_review_release(&r);
	repo_teardown();
}
END_TEST

/* Many notes: stablemate fans the tree out into xx/ directories as git
 * does, once, keeping every note, and finds each note again afterwards. */
START_TEST(test_batch_fanout)
{
	enum { N = 270 };
	struct sm_review *rs = xcalloc(N, sizeof(*rs));
	git_oid *ids = xcalloc(N, sizeof(*ids));
	size_t added = 0;
	int one;
	char *out, *text;

	repo_setup();
	for (int i = 0; i < N; i++) {
		char *mid = xasprintf("many-%d@x", i);
		char *seed = xasprintf("object %d", i);

		git_odb_hash(&ids[i], seed, strlen(seed), GIT_OBJECT_BLOB);
		review_init(&rs[i], mid, "A <a@x>", "2024-01-01T00:00:00Z", "6.1", NULL, "");
		free(mid);
		free(seed);
	}
	/* 250 in one write (through the index): still flat. */
	ck_assert_int_eq(sm_notes_add_batch(repo, NULL, ids, rs, 250, &added), 0);
	ck_assert_uint_eq(added, 250);
	out = sh_out("git ls-tree refs/notes/stable-review | grep -c ' blob '");
	ck_assert_str_eq(out, "250\n");
	free(out);
	/* 20 more, note by note: past 256 the tree is fanned out. */
	ck_assert_int_eq(sm_notes_add_batch(repo, NULL, ids + 250, rs + 250, 10, &added), 0);
	ck_assert_int_eq(sm_notes_add_batch(repo, NULL, ids + 260, rs + 260, 10, &added), 0);
	out = sh_out("git ls-tree refs/notes/stable-review | grep -c ' blob '");
	ck_assert_str_eq(out, "0\n");
	free(out);
	out = sh_out("git notes --ref=stable-review list | wc -l");
	ck_assert_str_eq(out, "270\n");
	free(out);
	/* An existing note keeps its path: no second copy appears. */
	free(rs[7].message_id);
	rs[7].message_id = xstrdup("second-on-7@x");
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &ids[7], &rs[7], &one), 0);
	ck_assert_int_eq(one, 1);
	out = sh_out("git notes --ref=stable-review list | wc -l");
	ck_assert_str_eq(out, "270\n");
	free(out);
	text = note_text(&ids[7]);
	ck_assert_uint_eq(count(text, "Review: "), 2);
	free(text);
	/* A rerun of everything adds nothing and writes nothing. */
	out = sh_out("git rev-parse refs/notes/stable-review");
	ck_assert_int_eq(sm_notes_add_batch(repo, NULL, ids, rs, N, &added), 0);
	ck_assert_uint_eq(added, 0);
	text = sh_out("git rev-parse refs/notes/stable-review");
	ck_assert_str_eq(out, text);
	free(out);
	free(text);
	for (int i = 0; i < N; i++)
		sm_review_release(&rs[i]);
	free(rs);
	free(ids);
	repo_teardown();
}
END_TEST

/* A note git holds as binary (a NUL byte, `git notes add -C <blob>`): it
 * cannot be rewritten without losing bytes, so the write fails, clearly. */
START_TEST(test_binary_note_untouched)
{
	struct sm_review r;
	char hex[GIT_OID_HEXSZ + 1];
	int added = -1;
	char *before, *after;

	repo_setup();
	git_oid_tostr(hex, sizeof(hex), &c1);
	ck_assert_int_eq(sh("b=$(printf 'person\\000binary tail\\n' | git hash-object -w --stdin) && "
			    "git notes --ref=stable-review add -C $b %s", hex), 0);
	before = sh_out("git rev-parse refs/notes/stable-review");
	review_init(&r, "bin@x", "A <a@x>", "2024-01-01T00:00:00Z", "6.1", NULL, "");
	ck_assert_int_eq(sm_notes_add_review(repo, NULL, &c1, &r, &added), -1);
	ck_assert_ptr_nonnull(strstr(sm_last_error(), hex));
	ck_assert_ptr_nonnull(strstr(sm_last_error(), "binary data"));
	after = sh_out("git rev-parse refs/notes/stable-review");
	ck_assert_str_eq(before, after);
	free(before);
	free(after);
	sm_review_release(&r);
	repo_teardown();
}
END_TEST

/* --notes-ref NAME is named as git notes --ref names it (expand_notes_ref) */
START_TEST(test_ref_names_as_git)
{
	static const char *const cases[][2] = {
		{ "stable-review", "refs/notes/stable-review" },
		{ "notes/stable-review", "refs/notes/stable-review" },
		{ "refs/notes/remotes/greg/stable-review", "refs/notes/remotes/greg/stable-review" },
		{ "remotes/greg/stable-review", "refs/notes/remotes/greg/stable-review" },
		/* a branch is never read or written as notes */
		{ "refs/heads/master", "refs/notes/refs/heads/master" },
		{ "notesy", "refs/notes/notesy" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *full = sm_notes_ref_full(cases[i][0]);

		ck_assert_str_eq(full, cases[i][1]);
		free(full);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("notes");

	add_tcase(s, "format", SM_TESTS(test_format_exact, test_format_masks_controls, test_roundtrip,
					test_unverified_roundtrip_merge, test_notice_block,
					test_empty_fields_and_tree, test_foreign_text_kept,
					test_order_and_dedupe, test_tree_filled_later,
					test_stripspace_stable, test_ref_names_as_git));
	add_tcase(s, "write", SM_TESTS(test_add_and_git_cli, test_person_note_kept,
				       test_cas_retry, test_concurrent_writers, test_batch,
				       test_merge_ref, test_git_union_merge,
				       test_fanout_from_git, test_batch_fanout,
				       test_binary_note_untouched));
	return s;
}
