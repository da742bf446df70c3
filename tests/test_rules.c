/* Tests of rules/: stable-tag variants, Fixes:, trailers, diff statistics,
 * keyword rules and verdicts, on real-looking kernel commit text. */
#include "tests/check_main.h"
#include "rules/classify.h"
#include "lib/fileio.h"
#include "lib/json_read.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <dirent.h>
#include <string.h>

static struct sm_stable_tag tag;

static int parse(const char *line)
{
	sm_stable_tag_release(&tag);
	return sm_stable_tag_parse(line, &tag);
}

static void teardown_tag(void)
{
	sm_stable_tag_release(&tag);
}

static struct sm_version V(int major, int minor)
{
	struct sm_version v = { major, minor, -1 };
	return v;
}

#define ck_version(v, ma, mi) do { ck_assert_int_eq((v).major, ma); ck_assert_int_eq((v).minor, mi); } while (0)

START_TEST(tag_plain_forms)
{
	static const char *const forms[] = {
		"Cc: stable@vger.kernel.org",
		"Cc: <stable@vger.kernel.org>",
		"CC: stable <stable@vger.kernel.org>",
		"Cc: stable@kernel.org",
		"cc:   Stable@Vger.Kernel.Org  ",
		"Cc: \"stable@vger.kernel.org\"",
		"Cc: stable@vger.kernel.org, linux-sound@vger.kernel.org",
	};

	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		ck_assert_msg(parse(forms[i]) == 1, "not a tag: %s", forms[i]);
		ck_assert_msg(tag.kind == SM_STABLE_ALL, "%s: kind %d", forms[i], tag.kind);
		ck_assert(!tag.noautosel);
	}
	ck_assert_str_eq((parse("Cc: stable@kernel.org"), tag.address), "stable@kernel.org");
}
END_TEST

START_TEST(tag_not_stable)
{
	ck_assert_int_eq(parse("Cc: linux-stable@example.org"), 0);
	ck_assert_int_eq(parse("Cc: netdev-stable@vger.kernel.org"), 0);
	ck_assert_int_eq(parse("Cc: Greg KH <gregkh@linuxfoundation.org>"), 0);
	ck_assert_int_eq(parse("Reported-by: stable@vger.kernel.org"), 0);
	ck_assert_int_eq(parse("Cc: stable@vger.kernel.org.evil.com"), 0);
}
END_TEST

START_TEST(tag_from_forms)
{
	static const struct { const char *line; int ma, mi; } cases[] = {
		{ "Cc: stable@vger.kernel.org # v3.4+", 3, 4 },
		{ "Cc: stable@vger.kernel.org # 3.4+", 3, 4 },
		{ "Cc: <stable@vger.kernel.org> # 4.4.x", 4, 4 },
		{ "Cc: stable@vger.kernel.org # v4.4", 4, 4 },
		{ "Cc: stable@vger.kernel.org # 5.10 and later", 5, 10 },
		{ "Cc: stable@vger.kernel.org [3.4+]", 3, 4 },
		{ "Cc: <stable@vger.kernel.org> [v4.9+]", 4, 9 },
		{ "Cc: stable@vger.kernel.org #v5.4+", 5, 4 },
		{ "Cc: stable@vger.kernel.org # 6.1.y", 6, 1 },
		{ "Cc: stable@vger.kernel.org # 4.14.x, 4.19.x, 5.4.x", 4, 14 },
		{ "Cc: stable@vger.kernel.org # 5.15+ (needs the helper renamed)", 5, 15 },
		{ "Cc: stable@vger.kernel.org	#	v6.6+ ", 6, 6 },
		{ "Cc: stable@vger.kernel.org # for v5.10 and newer", 5, 10 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		ck_assert_msg(parse(cases[i].line) == 1, "%s", cases[i].line);
		ck_assert_msg(tag.kind == SM_STABLE_FROM, "%s: kind %d", cases[i].line, tag.kind);
		ck_version(tag.from, cases[i].ma, cases[i].mi);
	}
}
END_TEST

START_TEST(tag_ranges)
{
	ck_assert(parse("Cc: stable@vger.kernel.org # 3.10-4.4"));
	ck_assert_int_eq(tag.kind, SM_STABLE_RANGE);
	ck_version(tag.from, 3, 10);
	ck_version(tag.to, 4, 4);
	ck_assert(parse("Cc: stable@vger.kernel.org # v4.1..v4.4"));
	ck_assert_int_eq(tag.kind, SM_STABLE_RANGE);
	ck_version(tag.from, 4, 1);
	ck_version(tag.to, 4, 4);
	ck_assert(parse("Cc: stable@vger.kernel.org # 5.4 to 5.15"));
	ck_assert_int_eq(tag.kind, SM_STABLE_RANGE);
	ck_version(tag.to, 5, 15);
	/* An inverted range is not guessed at. */
	ck_assert(parse("Cc: stable@vger.kernel.org # 4.4-3.10"));
	ck_assert_int_eq(tag.kind, SM_STABLE_UNPARSED);
	/* "5.10-" is 5.10 and later */
	ck_assert(parse("Cc: stable@vger.kernel.org # 5.10-"));
	ck_assert_int_eq(tag.kind, SM_STABLE_FROM);
}
END_TEST

START_TEST(tag_upto_only)
{
	ck_assert(parse("Cc: stable@vger.kernel.org # <= 5.15"));
	ck_assert_int_eq(tag.kind, SM_STABLE_UPTO);
	ck_version(tag.to, 5, 15);
	ck_assert(parse("Cc: stable@vger.kernel.org # 5.10 only"));
	ck_assert_int_eq(tag.kind, SM_STABLE_ONLY);
	ck_version(tag.to, 5, 10);
	ck_assert(parse("Cc: stable@vger.kernel.org # 4.19 and older"));
	ck_assert_int_eq(tag.kind, SM_STABLE_UPTO);
	ck_version(tag.to, 4, 19);
}
END_TEST

START_TEST(tag_prerequisites)
{
	ck_assert(parse("Cc: <stable@vger.kernel.org> # 3.3.x: a1f84a3: sched: Check for idle"));
	ck_assert_int_eq(tag.kind, SM_STABLE_FROM);
	ck_version(tag.from, 3, 3);
	ck_assert_str_eq(tag.prereq_sha, "a1f84a3");
	ck_assert_str_eq(tag.prereq_subject, "sched: Check for idle");
	ck_assert(parse("Cc: stable@vger.kernel.org # 4.9.x: a1f84a3: sched: Check for idle"));
	ck_version(tag.from, 4, 9);
	ck_assert_str_eq(tag.prereq_sha, "a1f84a3");
	ck_assert(parse("Cc: stable@vger.kernel.org # 1b9508f: sched: Rate-limit newidle"));
	ck_assert_int_eq(tag.kind, SM_STABLE_ALL);
	ck_assert_str_eq(tag.prereq_sha, "1b9508f");
}
END_TEST

START_TEST(tag_conditions)
{
	ck_assert(parse("Cc: stable@vger.kernel.org # after -rc3"));
	ck_assert_int_eq(tag.kind, SM_STABLE_ALL);
	ck_assert_str_eq(tag.condition, "after -rc3");
	ck_assert(parse("Cc: stable@vger.kernel.org # after 4 weeks in mainline"));
	ck_assert_int_eq(tag.kind, SM_STABLE_ALL);
	ck_assert_str_eq(tag.condition, "after 4 weeks in mainline");
	ck_assert(parse("Cc: stable@vger.kernel.org # see patch description, needs adjustments for <= 6.3"));
	ck_assert_int_eq(tag.kind, SM_STABLE_ALL);
	ck_version(tag.adjust_upto, 6, 3);
	ck_assert(tag.condition != NULL);
}
END_TEST

START_TEST(tag_noautosel)
{
	ck_assert(parse("Cc: stable+noautosel@kernel.org # reason: breaks old userspace"));
	ck_assert(tag.noautosel);
	ck_assert_str_eq(tag.address, "stable+noautosel@kernel.org");
	ck_assert(parse("Cc: <stable+noautosel@kernel.org>"));
	ck_assert(tag.noautosel);
}
END_TEST

START_TEST(tag_unparsed_is_reported)
{
	static const char *const bad[] = {
		"Cc: stable@vger.kernel.org # 4.4foo",
		"Cc: stable@vger.kernel.org # v4.4 but not 4.9.3.2.1 mess 5.1",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		ck_assert(parse(bad[i]));
		ck_assert_msg(tag.kind == SM_STABLE_UNPARSED, "%s read as kind %d", bad[i], tag.kind);
		ck_assert_int_eq(sm_stable_tag_wants(&tag, &(struct sm_version){ 6, 1, -1 }), -1);
	}
}
END_TEST

START_TEST(tag_wants_tree)
{
	struct sm_version v61 = V(6, 1), v44 = V(4, 4), v310 = V(3, 10), v54 = V(5, 4);

	parse("Cc: stable@vger.kernel.org # 3.10-4.4");
	ck_assert_int_eq(sm_stable_tag_wants(&tag, &v61), 0);
	ck_assert_int_eq(sm_stable_tag_wants(&tag, &v44), 1);
	ck_assert_int_eq(sm_stable_tag_wants(&tag, &v310), 1);
	parse("Cc: stable@vger.kernel.org # v5.10+");
	ck_assert_int_eq(sm_stable_tag_wants(&tag, &v54), 0);
	ck_assert_int_eq(sm_stable_tag_wants(&tag, &v61), 1);
}
END_TEST

static const char *msg_folded =
	"drm/i915: Fix a use-after-free in the context close path\n"
	"\n"
	"The context is freed before the last reference is dropped.\n"
	"\n"
	"Fixes: 1234567890ab (\"drm/i915: Keep contexts alive\")\n"
	"Cc: stable@vger.kernel.org # see patch description, needs adjustments for\n"
	" <= 6.3\n"
	"Reported-by: syzbot+0123456789abcdef@syzkaller.appspotmail.com\n"
	"Signed-off-by: A Developer <dev@example.org>\n"
	"Reviewed-by: B Reviewer <rev@example.org>\n";

START_TEST(message_trailers_and_folding)
{
	struct sm_commit c;

	sm_commit_parse_message(&c, msg_folded, strlen(msg_folded));
	ck_assert_str_eq(c.subject, "drm/i915: Fix a use-after-free in the context close path");
	ck_assert_int_eq(c.nr_trailers, 5);
	ck_assert_str_eq(c.trailers[4].key, "Reviewed-by");
	ck_assert_int_eq(c.nr_stable, 1);
	ck_assert_int_eq(c.stable[0].kind, SM_STABLE_ALL);
	ck_version(c.stable[0].adjust_upto, 6, 3);
	ck_assert_int_eq(c.nr_fixes, 1);
	ck_assert_str_eq(c.fixes[0].sha, "1234567890ab");
	ck_assert_str_eq(c.fixes[0].subject, "drm/i915: Keep contexts alive");
	ck_assert_ptr_null(c.fixes[0].problem);
	ck_assert_ptr_nonnull(sm_commit_trailer(&c, "reported-by"));
	/* The text before the closing trailer block, for keyword rules. */
	ck_assert_int_eq(c.body_text_len, strlen("The context is freed before the last reference is dropped.\n\n"));
	sm_commit_release(&c);
}
END_TEST

START_TEST(fixes_malformed)
{
	struct sm_fixes_tag f;

	sm_fixes_tag_parse("abc123 (\"short id\")", &f);
	ck_assert_ptr_nonnull(f.problem);
	sm_fixes_tag_release(&f);
	sm_fixes_tag_parse("commit 1234567890abcdef (\"word commit\")", &f);
	ck_assert_ptr_nonnull(f.problem);
	ck_assert_str_eq(f.sha, "1234567890abcdef");
	sm_fixes_tag_release(&f);
	sm_fixes_tag_parse("https://bugzilla.kernel.org/show_bug.cgi?id=1", &f);
	ck_assert_ptr_nonnull(f.problem);
	ck_assert_ptr_null(f.sha);
	sm_fixes_tag_release(&f);
	sm_fixes_tag_parse("1234567890ab drm: no parentheses", &f);
	ck_assert_ptr_nonnull(f.problem);
	sm_fixes_tag_release(&f);
	sm_fixes_tag_parse("1234567890ab (\"drm: good\")", &f);
	ck_assert_ptr_null(f.problem);
	sm_fixes_tag_release(&f);
}
END_TEST

START_TEST(upstream_refs)
{
	static const char *const forms[] = {
		"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n",
		"[ Upstream commit 0123456789abcdef0123456789abcdef01234567 ]\n",
		"(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n",
		"This is upstream commit 0123456789abcdef0123456789abcdef01234567.\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		char *s = sm_find_upstream_ref(forms[i], strlen(forms[i]));

		ck_assert_msg(s != NULL, "%s", forms[i]);
		ck_assert_str_eq(s, "0123456789abcdef0123456789abcdef01234567");
		free(s);
	}
	ck_assert_ptr_null(sm_find_upstream_ref("no reference here\n", 18));
}
END_TEST

static struct sm_rules *rules;

static void setup_rules(void)
{
	ck_assert_msg(sm_rules_load(&rules, srcdir_path("rules")) == 0, "%s", sm_last_error());
}

static void teardown_rules(void)
{
	sm_rules_free(rules);
	rules = NULL;
}

static enum sm_verdict_kind classify_text(const char *text, const struct sm_tree_ctx *tree,
					  struct sm_verdict *v)
{
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	sm_classify(rules, &c, tree, v);
	sm_commit_release(&c);
	return v->kind;
}

START_TEST(seed_is_candidate)
{
	struct strbuf sb = STRBUF_INIT;
	struct sm_commit c;
	struct sm_verdict v;
	struct sm_tree_ctx t61 = { "linux-6.1.y", { 6, 1, -1 } };
	const char *seed = getenv("SM_SEED");

	ck_assert(read_file(seed ? seed : srcdir_path("sample/commits/seed-e4ec8cc8039a.patch"), &sb) == 0);
	ck_assert_int_eq(sm_commit_parse(&c, sb.buf, sb.len), 0);
	ck_assert_str_eq(c.subject, "ALSA: timer: Fix leak in events via snd_timer_user_tinterrupt");
	ck_assert_int_eq(c.nr_stable, 0);
	ck_assert_int_eq(c.nr_fixes, 0);
	ck_assert(c.has_diff);
	ck_assert_int_eq(c.diff.added, 1);
	ck_assert_int_eq(c.diff.removed, 0);
	sm_classify(rules, &c, &t61, &v);
	ck_assert_int_eq(v.kind, SM_CANDIDATE);
	ck_assert(sm_verdict_has(&v, "keyword:memory-leak"));
	ck_assert(sm_verdict_has(&v, "tiny-diff"));
	sm_verdict_release(&v);
	sm_commit_release(&c);
	strbuf_release(&sb);
}
END_TEST

START_TEST(word_boundaries)
{
	struct sm_verdict v;

	classify_text("net: add prefix handling to the route table\n\nUse a prefix.\n", NULL, &v);
	ck_assert(!sm_verdict_has(&v, "keyword:fix"));
	sm_verdict_release(&v);
	classify_text("net: call fix_route_table() in init\n\nNothing else.\n", NULL, &v);
	ck_assert(!sm_verdict_has(&v, "keyword:fix"));
	sm_verdict_release(&v);
	classify_text("net: fix route table init\n\nNothing else.\n", NULL, &v);
	ck_assert(sm_verdict_has(&v, "keyword:fix"));
	sm_verdict_release(&v);
}
END_TEST

START_TEST(tree_out_of_range_rejects)
{
	struct sm_verdict v;
	struct sm_tree_ctx t61 = { "linux-6.1.y", { 6, 1, -1 } };
	struct sm_tree_ctx t44 = { "linux-4.4.y", { 4, 4, -1 } };
	const char *msg = "mm: fix a race in the page cache\n\nBody.\n\n"
			  "Cc: stable@vger.kernel.org # 3.10-4.4\nSigned-off-by: X <x@y>\n";

	ck_assert_int_eq(classify_text(msg, &t61, &v), SM_REJECT);
	ck_assert(sm_verdict_has(&v, "tree-out-of-range"));
	sm_verdict_release(&v);
	ck_assert_int_eq(classify_text(msg, &t44, &v), SM_CANDIDATE);
	sm_verdict_release(&v);
	ck_assert_int_eq(classify_text(msg, NULL, &v), SM_CANDIDATE);
	sm_verdict_release(&v);
}
END_TEST

START_TEST(noautosel_never_candidate)
{
	struct sm_verdict v;
	const char *msg = "x86/fpu: Fix a use-after-free on exit\n\nBody.\n\n"
			  "Cc: stable+noautosel@kernel.org # needs manual backport\n";

	ck_assert_int_eq(classify_text(msg, NULL, &v), SM_MAYBE);
	ck_assert(v.manual_only);
	sm_verdict_release(&v);
}
END_TEST

START_TEST(merge_rejected)
{
	struct sm_verdict v;

	ck_assert_int_eq(classify_text("Merge tag 'sound-6.7-rc1' of git://git.kernel.org/x\n\n"
				       "Pull sound fixes: a crash and a use-after-free.\n", NULL, &v),
			 SM_REJECT);
	ck_assert(sm_verdict_has(&v, "merge"));
	sm_verdict_release(&v);
}
END_TEST

static const char *docs_patch =
	"commit 1111111111111111111111111111111111111111\n"
	"Author: A <a@b>\n\n"
	"    docs: fix a typo in the stable rules\n\n"
	"    Signed-off-by: A <a@b>\n\n"
	"diff --git a/Documentation/process/stable-kernel-rules.rst b/Documentation/process/stable-kernel-rules.rst\n"
	"--- a/Documentation/process/stable-kernel-rules.rst\n"
	"+++ b/Documentation/process/stable-kernel-rules.rst\n"
	"@@ -1,3 +1,3 @@\n"
	" Rules\n"
	"-teh rule\n"
	"+the rule\n";

static const char *comment_patch =
	"From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@b>\n"
	"Subject: [PATCH] mm: fix comment about the leak check\n\n"
	"Signed-off-by: A <a@b>\n"
	"---\n"
	"diff --git a/mm/slab.c b/mm/slab.c\n"
	"--- a/mm/slab.c\n"
	"+++ b/mm/slab.c\n"
	"@@ -10,7 +10,7 @@\n"
	" int x;\n"
	"-/* check for leak here */\n"
	"+/* check for leaks here */\n"
	"  * more text\n";

static const char *ws_patch =
	"From 3333333333333333333333333333333333333333 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@b>\n"
	"Subject: [PATCH] net: fix indentation\n\n"
	"---\n"
	"diff --git a/net/core/dev.c b/net/core/dev.c\n"
	"--- a/net/core/dev.c\n"
	"+++ b/net/core/dev.c\n"
	"@@ -10,7 +10,7 @@\n"
	"-  return x;\n"
	"+\treturn x;\n";

static const char *devid_patch =
	"From 4444444444444444444444444444444444444444 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@b>\n"
	"Subject: [PATCH] USB: serial: option: add Quectel EG912Y module\n\n"
	"Add the device id.\n"
	"---\n"
	"diff --git a/drivers/usb/serial/option.c b/drivers/usb/serial/option.c\n"
	"--- a/drivers/usb/serial/option.c\n"
	"+++ b/drivers/usb/serial/option.c\n"
	"@@ -10,6 +10,7 @@\n"
	" \t{ USB_DEVICE(QUECTEL_VENDOR_ID, 0x0100) },\n"
	"+\t{ USB_DEVICE(QUECTEL_VENDOR_ID, 0x6001) },\n"
	" \t{ }\n";

START_TEST(check_relevant_diff_rules)
{
	struct sm_verdict v;

	classify_text(docs_patch, NULL, &v);
	ck_assert(sm_verdict_has(&v, "docs-only"));
	ck_assert_int_eq(v.kind, SM_REJECT);
	sm_verdict_release(&v);
	classify_text(comment_patch, NULL, &v);
	ck_assert(sm_verdict_has(&v, "comment-only"));
	ck_assert_int_eq(v.kind, SM_REJECT);
	sm_verdict_release(&v);
	classify_text(ws_patch, NULL, &v);
	ck_assert(sm_verdict_has(&v, "whitespace-only"));
	ck_assert_int_eq(v.kind, SM_REJECT);
	sm_verdict_release(&v);
	ck_assert_int_eq(classify_text(devid_patch, NULL, &v), SM_CANDIDATE);
	ck_assert(sm_verdict_has(&v, "device-id"));
	sm_verdict_release(&v);
}
END_TEST

START_TEST(large_diff_is_penalised)
{
	struct strbuf sb = STRBUF_INIT;
	struct sm_verdict v;

	strbuf_addstr(&sb, "From 5555555555555555555555555555555555555555 Mon Sep 17 00:00:00 2001\n"
		      "From: A <a@b>\nSubject: [PATCH] net: fix a crash\n\n---\n"
		      "diff --git a/net/x.c b/net/x.c\n--- a/net/x.c\n+++ b/net/x.c\n@@ -1,1 +1,200 @@\n");
	for (int i = 0; i < 150; i++)
		strbuf_addf(&sb, "+\tcall_%d();\n", i);
	classify_text(sb.buf, NULL, &v);
	ck_assert(sm_verdict_has(&v, "too-large"));
	ck_assert(!sm_verdict_has(&v, "tiny-diff"));
	sm_verdict_release(&v);
	strbuf_release(&sb);
}
END_TEST

START_TEST(git_show_format)
{
	const char *text =
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: Jane Dev <jane@example.org>\n"
		"Date:   Tue May 3 10:00:00 2016 +0200\n"
		"\n"
		"    hwmon: (pmbus) Fix a NULL pointer dereference on probe\n"
		"    \n"
		"    The client data is used before it is set.\n"
		"    \n"
		"    Fixes: abcdefabcdef (\"hwmon: (pmbus) Add driver\")\n"
		"    Cc: stable@vger.kernel.org # v5.4+\n"
		"    Signed-off-by: Jane Dev <jane@example.org>\n"
		"\n"
		"diff --git a/drivers/hwmon/pmbus/x.c b/drivers/hwmon/pmbus/x.c\n"
		"--- a/drivers/hwmon/pmbus/x.c\n"
		"+++ b/drivers/hwmon/pmbus/x.c\n"
		"@@ -1,2 +1,3 @@\n"
		"+\tif (!data)\n"
		"+\t\treturn -ENODEV;\n";
	struct sm_commit c;
	struct sm_verdict v;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	ck_assert_str_eq(c.id, "0123456789abcdef0123456789abcdef01234567");
	ck_assert_str_eq(c.author, "Jane Dev <jane@example.org>");
	ck_assert_str_eq(c.subject, "hwmon: (pmbus) Fix a NULL pointer dereference on probe");
	ck_assert_int_eq(c.nr_stable, 1);
	ck_version(c.stable[0].from, 5, 4);
	ck_assert_int_eq(c.nr_fixes, 1);
	ck_assert_int_eq(c.diff.added, 2);
	sm_classify(rules, &c, NULL, &v);
	ck_assert_int_eq(v.kind, SM_CANDIDATE);
	ck_assert(sm_verdict_has(&v, "keyword:null-deref"));
	sm_verdict_release(&v);
	sm_commit_release(&c);
}
END_TEST

START_TEST(feature_not_flagged)
{
	struct sm_verdict v;

	classify_text("iio: adc: add support for the new TI ADS1119\n\n"
		      "Introduce a driver for the ADS1119, a 16-bit ADC with an I2C interface.\n"
		      "It supports the single-shot and continuous modes.\n\n"
		      "Signed-off-by: A <a@b>\n", NULL, &v);
	ck_assert_int_eq(v.kind, SM_REJECT);
	sm_verdict_release(&v);
}
END_TEST

START_TEST(bad_rules_file_names_line)
{
	char *dir = make_temp_dir("sm-rules");
	char *p;
	struct sm_rules *r = NULL;

	ck_assert_ptr_nonnull(dir);
	p = xasprintf("%s/thresholds.rules", dir);
	write_file_atomic(p, "candidate 60\n", 13);
	free(p);
	p = xasprintf("%s/authors.rules", dir);
	write_file_atomic(p, "", 0);
	free(p);
	p = xasprintf("%s/keywords.rules", dir);
	write_file_atomic(p, "# c\n10 fix fix\n20 bad (unclosed\n", 32);
	free(p);
	ck_assert_int_eq(sm_rules_load(&r, dir), -1);
	ck_assert_msg(strstr(sm_last_error(), "keywords.rules:3:") != NULL, "%s", sm_last_error());
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(json_reader)
{
	struct strbuf sb = STRBUF_INIT;
	const char *j = "{\"cve\": \"CVE-1\", \"n\": [1, {\"a\": \"}\"}], \"description\": \"a\\nb \\u00e9\\ud83d\\ude00\", \"files\": [\"x.c\", \"y.c\"]}";

	ck_assert_int_eq(json_get_string(j, strlen(j), "description", &sb), 1);
	ck_assert_str_eq(sb.buf, "a\nb \xc3\xa9\xf0\x9f\x98\x80");
	strbuf_reset(&sb);
	ck_assert_int_eq(json_get_string(j, strlen(j), "files", &sb), 1);
	ck_assert_str_eq(sb.buf, "x.c\ny.c");
	ck_assert_int_eq(json_get_string(j, strlen(j), "absent", &sb), 0);
	ck_assert_int_eq(json_get_string("{\"a\": }", 7, "b", &sb), -1);
	ck_assert_int_eq(json_get_string("[1]", 3, "b", &sb), -1);
	strbuf_release(&sb);
}
END_TEST

/* Inputs the fuzzer once crashed or leaked on (fuzz/regressions/commit/):
 * each must now parse and classify cleanly (ASan in CI sees leaks). */
START_TEST(fuzz_regressions)
{
	const char *dir = srcdir_path("fuzz/regressions/commit");
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_msg(d != NULL, "%s", dir);
	while ((e = readdir(d))) {
		struct strbuf sb = STRBUF_INIT;
		struct sm_commit c;
		struct sm_verdict v;
		char *path;

		if (e->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		ck_assert(read_file(path, &sb) == 0);
		if (!sm_commit_parse(&c, sb.buf, sb.len)) {
			sm_classify(rules, &c, NULL, &v);
			sm_verdict_release(&v);
			sm_commit_release(&c);
		}
		strbuf_release(&sb);
		free(path);
		n++;
	}
	closedir(d);
	ck_assert_int_gt(n, 0);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *t = tcase_create("stable-tags");

	tcase_add_checked_fixture(t, NULL, teardown_tag);
	tcase_add_test(t, tag_plain_forms);
	tcase_add_test(t, tag_not_stable);
	tcase_add_test(t, tag_from_forms);
	tcase_add_test(t, tag_ranges);
	tcase_add_test(t, tag_upto_only);
	tcase_add_test(t, tag_prerequisites);
	tcase_add_test(t, tag_conditions);
	tcase_add_test(t, tag_noautosel);
	tcase_add_test(t, tag_unparsed_is_reported);
	tcase_add_test(t, tag_wants_tree);
	suite_add_tcase(s, t);

	t = tcase_create("message");
	tcase_add_test(t, message_trailers_and_folding);
	tcase_add_test(t, fixes_malformed);
	tcase_add_test(t, upstream_refs);
	tcase_add_test(t, json_reader);
	suite_add_tcase(s, t);

	t = tcase_create("classify");
	tcase_add_checked_fixture(t, setup_rules, teardown_rules);
	tcase_add_test(t, seed_is_candidate);
	tcase_add_test(t, word_boundaries);
	tcase_add_test(t, tree_out_of_range_rejects);
	tcase_add_test(t, noautosel_never_candidate);
	tcase_add_test(t, merge_rejected);
	tcase_add_test(t, check_relevant_diff_rules);
	tcase_add_test(t, large_diff_is_penalised);
	tcase_add_test(t, git_show_format);
	tcase_add_test(t, feature_not_flagged);
	tcase_add_test(t, bad_rules_file_names_line);
	tcase_add_test(t, fuzz_regressions);
	suite_add_tcase(s, t);
	return s;
}
