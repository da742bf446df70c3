/* Tests of rules/: stable-tag variants, Fixes:, trailers, diff statistics,
 * keyword rules and verdicts, on real-looking kernel commit text. */
#include "tests/check_main.h"
#include "rules/classify.h"
#include "rules/device_ids.h"
#include "rules/features.h"
#include "rules/model.h"
#include "rules/rules_load.h"
#include "rules/train.h"
#include "rules/version.h"
#include "lib/fileio.h"
#include "lib/json_read.h"
#include "rules/gitlog.h"
#include "rules/json_record.h"
#include "rules/patch_subject.h"
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

/* A spec inside a sentence: one version, and a word that says which way */
START_TEST(tag_spec_in_prose)
{
	static const struct { const char *line; enum sm_stable_kind kind; int ma, mi; } cases[] = {
		{ "Cc: <stable@vger.kernel.org> # this is needed only for BTF so kernels >= 5.15",
		  SM_STABLE_FROM, 5, 15 },
		{ "Cc: stable@vger.kernel.org # the helper is there since v5.4", SM_STABLE_FROM, 5, 4 },
		{ "Cc: stable@vger.kernel.org # applies to 6.1+ as is", SM_STABLE_FROM, 6, 1 },
		/* two versions, no direction, a denial, an upper bound (here the
		 * backport's adjustment, not where it goes): a person reads them */
		{ "Cc: stable@vger.kernel.org # older trees up to 5.10 need the old name",
		  SM_STABLE_UNPARSED, 0, 0 },
		{ "Cc: stable@vger.kernel.org # needed since 5.10 but not 5.15", SM_STABLE_UNPARSED, 0, 0 },
		{ "Cc: stable@vger.kernel.org # see the thread about 5.15", SM_STABLE_UNPARSED, 0, 0 },
		{ "Cc: stable@vger.kernel.org # this is not needed for 5.15+", SM_STABLE_UNPARSED, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		ck_assert_msg(parse(cases[i].line) == 1, "%s", cases[i].line);
		ck_assert_msg(tag.kind == cases[i].kind, "%s: kind %d", cases[i].line, tag.kind);
		if (cases[i].kind != SM_STABLE_FROM)
			continue;
		ck_version(tag.from, cases[i].ma, cases[i].mi);
		ck_assert_msg(tag.condition && strstr(cases[i].line, tag.condition),
			      "%s: note %s", cases[i].line, tag.condition);
	}
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

/* Each of forms[n] names 0123456789abcdef0123456789abcdef01234567 to find. */
static void check_refs(char *(*find)(const char *, size_t), const char *const *forms, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *s = find(forms[i], strlen(forms[i]));

		ck_assert_msg(s != NULL, "%s", forms[i]);
		ck_assert_str_eq(s, "0123456789abcdef0123456789abcdef01234567");
		free(s);
	}
}

START_TEST(upstream_refs)
{
	static const char *const forms[] = {
		"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n",
		"[ Upstream commit 0123456789abcdef0123456789abcdef01234567 ]\n",
		"(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n",
		"This is upstream commit 0123456789abcdef0123456789abcdef01234567.\n",
		"COMMIT 0123456789ABCDEF0123456789ABCDEF01234567 UPSTREAM",
		"(CHERRY PICKED FROM COMMIT 0123456789abcdef0123456789abcdef01234567)",
		/* Ubuntu's: where it was picked from, and a backport */
		"(cherry picked from commit 0123456789abcdef0123456789abcdef01234567 linux-next)\n",
		"(backported from commit 0123456789abcdef0123456789abcdef01234567)\n"
		"[smb: context adjustments]\n",
		/* the stable scripts' FAILED notice: the original pasted whole */
		"The patch below does not apply to the 6.12-stable tree.\n\n"
		"------------------ original commit in Linus's tree ------------------\n\n"
		"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
		"From: A <a@example.org>\n",
	};

	/* Several: a stable tree's form wherever it is, else the last (what
	 * `git cherry-pick -x` appended to a commit that named its -next
	 * original already, as drm's and amdgpu's fixes do) */
	static const char *const several[] = {
		"x: y\n\nBody.\n\n(cherry picked from commit aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)\n"
		"Signed-off-by: A <a@example.org>\n\n"
		"(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n",
		"x: y\n\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n\nBody.\n"
		"(cherry picked from commit aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)\n",
		"x: y\n\n(cherry picked from commit aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)\n"
		"[ Upstream commit 0123456789abcdef0123456789abcdef01234567 ]\n"
		"(backported from commit bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb)\n",
		"x: y\n\nThis is upstream commit 0123456789abcdef0123456789abcdef01234567.\n\n"
		"(cherry picked from commit aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)\n",
		/* a FAILED notice names the original; what the pasted commit
		 * says it was picked from comes after */
		"------------------ original commit in Linus's tree ------------------\n\n"
		"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
		"Subject: [PATCH] drm/i915: fix z\n\nBody.\n\n"
		"(cherry picked from commit aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)\n",
	};

	check_refs(sm_find_upstream_ref, forms, ARRAY_SIZE(forms));
	check_refs(sm_find_upstream_ref, several, ARRAY_SIZE(several));
	ck_assert_ptr_null(sm_find_upstream_ref("no reference here\n", 18));
	ck_assert_ptr_null(sm_find_upstream_ref("backported to 6.1 from commit 0123456789ab)", 43));
	/* the cheap test before the pattern takes "pstream" and "herry" in
	 * lower or upper case only */
	ck_assert_ptr_null(sm_find_upstream_ref("commit 0123456789ab uPstream", 28));
}
END_TEST

/* Which references make a message a stable branch's commit (insert does
 * not add a second upstream line to a backport from another tree). */
START_TEST(stable_upstream_refs)
{
	static const char *const stable[] = {
		"x: y\n\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n\nBody.\n",
		"x: y\n\n[ Upstream commit 0123456789abcdef0123456789abcdef01234567 ]\n\nBody.\n",
		"x: y\n\nThis is upstream commit 0123456789abcdef0123456789abcdef01234567.\n\nBody.\n",
	};
	static const char *const mainline[] = {
		/* drm's fixes picked from -next, in mainline */
		"drm/i915: fix z\n\nBody.\n\n(cherry picked from commit "
		"0123456789abcdef0123456789abcdef01234567)\nSigned-off-by: A <a@b>\n",
		/* prose naming another project's upstream */
		"libbpf: sync\n\nBody.\n\nThis matches upstream commit "
		"0123456789abcdef0123456789abcdef01234567 of libbpf.\n",
		"x: y\n\nNo reference at all.\n",
		/* a FAILED notice names the original, but is no stable commit */
		"------------------ original commit in Linus's tree ------------------\n\n"
		"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n",
	};

	check_refs(sm_find_stable_upstream_ref, stable, ARRAY_SIZE(stable));
	for (size_t i = 0; i < ARRAY_SIZE(mainline); i++)
		ck_assert_msg(!sm_find_stable_upstream_ref(mainline[i], strlen(mainline[i])), "%s",
			      mainline[i]);
}
END_TEST

START_TEST(stable_dep_of)
{
	static const struct {
		const char *msg, *want;	/* want NULL: none */
	} cases[] = {
		{ "x: y\n\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n\nBody.\n\n"
		  "Stable-dep-of: 4B5B6B8A0F4E (\"net: fix z\")\nSigned-off-by: S <s@k>\n",
		  "4b5b6b8a0f4e" },
		{ "x: y\n\nBody.\nstable-dep-of:\t4b5b6b8a0f4ee16a8c43eff0d24b84f0a1f36a29\n",
		  "4b5b6b8a0f4ee16a8c43eff0d24b84f0a1f36a29" },
		{ "x: y\n\nStable-dep-of: 4b5b6\n", NULL },		/* too short to name one */
		{ "x: y\n\nStable-dep-of: 4b5b6b8a0f4eg\n", NULL },	/* not an id */
		{ "x: y\n\nThe Stable-dep-of: 4b5b6b8a0f4e line is written by scripts.\n", NULL },
		{ "x: y\n\nBody.\n", NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char out[41];
		int found = sm_find_stable_dep_of(cases[i].msg, strlen(cases[i].msg), out);

		ck_assert_msg(found == (cases[i].want != NULL), "case %zu", i);
		if (found)
			ck_assert_str_eq(out, cases[i].want);
	}
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

/* Does classifying text (for no tree) give a reason with code? */
static int text_has_reason(const char *text, const char *code)
{
	struct sm_verdict v;
	int has;

	classify_text(text, NULL, &v);
	has = sm_verdict_has(&v, code);
	sm_verdict_release(&v);
	return has;
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

/* The model's reasons worked out once per commit and copied for each tree
 * give sm_classify's verdict, reason for reason. */
START_TEST(classify_shared_is_classify)
{
	static const char *const files[] = {
		"sample/commits/seed-e4ec8cc8039a.patch",
		"sample/commits/hwmon-occ-fix-response-length.eml",
		"sample/commits/tegra-stable-tagged.eml",
		"sample/commits/hwmon-aquacomputer-add-quadro.eml",
	};
	const struct sm_tree_ctx trees[] = {
		{ NULL, { 0, 0, -1 } }, { "linux-6.1.y", { 6, 1, -1 } },
		{ "linux-4.4.y", { 4, 4, -1 } }, { "linux-6.6.y", { 6, 6, -1 } },
	};

	ck_assert_ptr_nonnull(rules);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct strbuf sb = STRBUF_INIT;
		struct sm_commit c;
		struct sm_verdict model;

		ck_assert(read_file(srcdir_path(files[i]), &sb) == 0);
		ck_assert_int_eq(sm_commit_parse(&c, sb.buf, sb.len), 0);
		sm_verdict_init(&model);
		for (size_t t = 0; t < ARRAY_SIZE(trees); t++) {
			const struct sm_tree_ctx *tree = t ? &trees[t] : NULL;
			struct sm_verdict a, b;

			sm_classify(rules, &c, tree, &a);
			sm_classify_shared(rules, &c, tree, &model, &b);
			ck_assert_int_eq(a.kind, b.kind);
			ck_assert_int_eq(a.score, b.score);
			ck_assert_int_eq(a.vetoed, b.vetoed);
			ck_assert_int_eq(a.manual_only, b.manual_only);
			ck_assert_int_eq(a.nr_reasons, b.nr_reasons);
			for (size_t k = 0; k < a.nr_reasons; k++) {
				ck_assert_str_eq(a.reasons[k].code, b.reasons[k].code);
				ck_assert_str_eq(a.reasons[k].text, b.reasons[k].text);
				ck_assert_int_eq(a.reasons[k].weight, b.reasons[k].weight);
			}
			sm_verdict_release(&a);
			sm_verdict_release(&b);
		}
		ck_assert_int_gt(model.nr_reasons, 0);
		sm_verdict_release(&model);
		sm_commit_release(&c);
		strbuf_release(&sb);
	}
}
END_TEST

START_TEST(word_boundaries)
{
	ck_assert(!text_has_reason("net: add prefix handling to the route table\n\nUse a prefix.\n",
				   "keyword:fix"));
	ck_assert(!text_has_reason("net: call fix_route_table() in init\n\nNothing else.\n",
				   "keyword:fix"));
	ck_assert(text_has_reason("net: fix route table init\n\nNothing else.\n", "keyword:fix"));
}
END_TEST

/* The keyword scan (start tables, word cache, 64-byte masks) against the
 * plain definition it speeds up: every rule, in file order, at every byte
 * no word byte precedes, going on after the end of a match. The texts mix
 * keywords, prefixes of keywords, upper case, UTF-8, NUL bytes, "====="
 * lines and words longer than the cache key, so every path is taken. */
struct kw_hits {
	size_t nr;
	struct kw_hit {
		size_t rule, off, len;
	} hit[64];
	const char *text;
};

static void note_hit(void *ctx, size_t rule, int in_subject, const char *match, size_t len)
{
	struct kw_hits *h = ctx;

	(void)in_subject;
	ck_assert_uint_lt(h->nr, ARRAY_SIZE(h->hit));
	h->hit[h->nr++] = (struct kw_hit){ rule, (size_t)(match - h->text), len };
}

static int plain_word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The scan by its definition: at every byte that no word byte precedes,
 * the first rule matching there, in the text with its line breaks read as
 * spaces (a phrase may wrap); offsets are the text's. */
static void keywords_by_definition(const char *text, size_t len, struct kw_hits *h)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	char *unwrapped = xmalloc(len + 1);	/* the text holds NUL bytes */
	const unsigned char *t = (const unsigned char *)unwrapped;

	memcpy(unwrapped, text, len);
	for (size_t i = 0; i < len; i++)
		if (unwrapped[i] == '\n')
			unwrapped[i] = ' ';
	unsigned char seen[SM_MAX_KEYWORD_RULES] = { 0 };
	size_t next = 0;

	for (size_t p = 0; p < len; p++) {
		if (p < next || (p && plain_word_byte(t[p - 1])))
			continue;
		for (size_t k = 0; k < rules->nr_keywords; k++) {
			if (pcre2_match(rules->keywords[k].re, t, len, p, 0, md, NULL) >= 0) {
				PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);

				if (!seen[k]) {
					seen[k] = 1;
					note_hit(h, k, 0, text + ov[0], ov[1] - ov[0]);
				}
				if (ov[1] > p)
					next = ov[1];
				break;
			}
		}
	}
	pcre2_match_data_free(md);
	free(unwrapped);
}

START_TEST(keyword_scan_is_its_definition)
{
	static const char *const pieces[] = {
		"use", "after", "free", "use-after-free", "Use-After-Free", "fix", "Fixes", "fixup",
		"NULL", "null", "for", "to", "is", "not", "checked", "kernel", "memory", "leak",
		"leaks", "crash", "x86/crash", "put_device", "don't", "OOB", "CVE-2024-1234", "race",
		"racy", "deadlock", "UAF", "WARN_ON", "check", "the", "a", "of", "==", "!=", "=",
		"====================", "\xc3\xa9", "\xe2\x80\x94", "\xff", "caf\xc3\xa9", "(", ")",
		",", ".", "-", "_", "1", "0x1f", " ", " ", " ", "  ", "\t", "\n", "\n\n",
		"abcdefghijklmnopqrstuvwxyz0123456789", "freed_the_memory_twice_over",
		"refcounting", "un-initialized", "off-by-one", "kASAN", "syzbot",
	};
	uint32_t seed = 12345;

	for (int n = 0; n < 3000; n++) {
		struct strbuf text = STRBUF_INIT;
		struct kw_hits got = { 0 }, want = { 0 };
		struct sm_commit c = { 0 };
		unsigned nr = (seed = seed * 1103515245u + 12345u) >> 16 & 255;

		for (unsigned i = 0; i < nr; i++) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 97 == 0)
				strbuf_add(&text, "", 1);	/* a NUL byte */
			else
				strbuf_addstr(&text, pieces[(seed >> 16) % ARRAY_SIZE(pieces)]);
		}
		got.text = want.text = text.buf;
		c.body = text.buf;
		c.body_text_len = text.len;
		sm_keywords_each(rules, &c, note_hit, &got);
		keywords_by_definition(text.buf, text.len, &want);
		ck_assert_msg(got.nr == want.nr, "text %d: %zu keywords, %zu by definition", n, got.nr,
			      want.nr);
		for (size_t i = 0; i < got.nr; i++)
			ck_assert_msg(got.hit[i].rule == want.hit[i].rule &&
				      got.hit[i].off == want.hit[i].off &&
				      got.hit[i].len == want.hit[i].len,
				      "text %d: hit %zu differs (rule %zu at %zu, want rule %zu at %zu)", n,
				      i, got.hit[i].rule, got.hit[i].off, want.hit[i].rule,
				      want.hit[i].off);
		strbuf_release(&text);
	}
}
END_TEST

/* The subject keywords of each case, "id id " in the order they match. */
struct subject_keywords {
	const char *subject, *want;
};

static void note_subject_rule(void *ctx, size_t rule, int in_subject, const char *match, size_t len)
{
	struct strbuf *sb = ctx;

	(void)match, (void)len;
	if (in_subject)
		strbuf_addf(sb, "%s ", rules->keywords[rule].id);
}

static void check_subject_keywords(const struct subject_keywords *cases, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct strbuf got = STRBUF_INIT;
		struct sm_commit c = { 0 };

		c.subject = (char *)cases[i].subject;
		sm_keywords_each(rules, &c, note_subject_rule, &got);
		ck_assert_msg(!strcmp(got.buf, cases[i].want), "%s: \"%s\", want \"%s\"", cases[i].subject,
			      got.buf, cases[i].want);
		strbuf_release(&got);
	}
}

/* Subject keywords are read in the subject's words, not in its subsystem
 * prefix (a feature of its own): "locking/lockdep:" says nothing of a
 * deadlock (539 and 105 tip commits matched there, 11% and 19% stable),
 * "x86/crash:" nothing of a crash. */
START_TEST(subject_keywords_skip_the_subsystem)
{
	static const struct subject_keywords cases[] = {
		{ "locking/lockdep: Remove unused @nested argument from lock_release()", "" },
		{ "x86/crash: Use resource_size()", "" },
		{ "MAINTAINERS: Update entry for BCM5301X ARM", "" },
		{ "x86/mm: Fix a crash in ioremap", "fix crash " },
		{ "hwmon: (lockdep) Fix a deadlock in probe", "fix deadlock " },
		{ "Fix a lockdep splat", "fix deadlock " },
	};

	check_subject_keywords(cases, ARRAY_SIZE(cases));
}
END_TEST

/* A memory leak leaks memory, an information leak its contents: "memory
 * leak" was info-leak (39 of that rule's 50 tip matches). */
START_TEST(memory_leak_is_no_info_leak)
{
	static const struct subject_keywords cases[] = {
		{ "perf/x86/amd/uncore: Fix memory leak for events array", "fix memory-leak " },
		{ "x86/ioperm: Prevent a memory leak when fork fails", "avoid memory-leak incorrect " },
		{ "net: Fix a kernel pointer leak in foo_dump", "fix info-leak " },
		{ "ALSA: timer: Fix a leak of uninitialized memory to user space", "fix info-leak " },
		{ "x86/mm: Fix an infoleak in the vsyscall page", "fix info-leak " },
	};

	check_subject_keywords(cases, ARRAY_SIZE(cases));
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

/* A release commit is vetoed by what it is, a version bump of the
 * Makefile; the same subject on any other change, or with words of its
 * own, is judged as usual. */
START_TEST(release_commit_rejected)
{
	static const char *bump =
		"commit 2222222222222222222222222222222222222222\n"
		"Author: Linus Torvalds <torvalds@linux-foundation.org>\n\n"
		"    Linux 6.7-rc3\n\n"
		"diff --git a/Makefile b/Makefile\n"
		"--- a/Makefile\n"
		"+++ b/Makefile\n"
		"@@ -2,5 +2,5 @@\n"
		" VERSION = 6\n"
		" PATCHLEVEL = 7\n"
		" SUBLEVEL = 0\n"
		"-EXTRAVERSION = -rc2\n"
		"+EXTRAVERSION = -rc3\n"
		" NAME = Hurr durr I'ma ninja sloth\n";
	static const char *elsewhere =
		"commit 3333333333333333333333333333333333333333\n"
		"Author: A <a@b>\n\n"
		"    Linux 6.7\n\n"
		"diff --git a/drivers/x.c b/drivers/x.c\n"
		"--- a/drivers/x.c\n"
		"+++ b/drivers/x.c\n"
		"@@ -1 +1 @@\n"
		"-\tkfree(p);\n"
		"+\tkfree(q);\n";
	struct sm_verdict v;
	struct sm_version ver;
	int rc;

	ck_assert_int_eq(classify_text(bump, NULL, &v), SM_REJECT);
	ck_assert(sm_verdict_has(&v, "release"));
	sm_verdict_release(&v);
	/* as a bare message (a JSON record, git log without -p) */
	ck_assert_int_eq(classify_text("Linux 6.1.90\n", NULL, &v), SM_REJECT);
	ck_assert(sm_verdict_has(&v, "release"));
	sm_verdict_release(&v);
	ck_assert(!text_has_reason(elsewhere, "release"));
	ck_assert(!text_has_reason("Linux 6.7\n\nFix a use-after-free in the release path.\n",
				   "release"));
	ck_assert(!text_has_reason("Linux 6.7 support for the foo board\n", "release"));

	ck_assert(sm_version_from_release_subject("Linux 6.7-rc3", &ver, &rc));
	ck_assert_int_eq(ver.major, 6);
	ck_assert_int_eq(ver.minor, 7);
	ck_assert_int_eq(rc, 3);
	ck_assert(sm_version_from_release_subject("Linux 2.6.39 ", &ver, &rc));
	ck_assert_int_eq(ver.patch, 39);
	ck_assert(!sm_version_from_release_subject("Linux 6.7-rc", &ver, &rc));
	ck_assert(!sm_version_from_release_subject("Linux v6.7", &ver, &rc));
	ck_assert(!sm_version_from_release_subject("Linux kernel 6.7", &ver, &rc));
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

/* who looks after what: MAINTAINERS, CREDITS and .mailmap are no code */
static const char *people_patch =
	"From 6666666666666666666666666666666666666666 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@b>\n"
	"Subject: [PATCH] MAINTAINERS: update my e-mail address\n\n"
	"The old one bounces.\n"
	"---\n"
	"diff --git a/.mailmap b/.mailmap\n"
	"--- a/.mailmap\n"
	"+++ b/.mailmap\n"
	"@@ -1,1 +1,2 @@\n"
	" A <a@b>\n"
	"+A <a@b> <a@old>\n"
	"diff --git a/MAINTAINERS b/MAINTAINERS\n"
	"--- a/MAINTAINERS\n"
	"+++ b/MAINTAINERS\n"
	"@@ -10,3 +10,3 @@\n"
	" X DRIVER\n"
	"-M:\tA <a@old>\n"
	"+M:\tA <a@b>\n"
	" S:\tMaintained\n";

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
	classify_text(people_patch, NULL, &v);
	ck_assert(sm_verdict_has(&v, "docs-only"));
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

/* c: a commit whose diff is hunks of drivers/x.c. */
static void parse_hunks(struct sm_commit *c, const char *hunks)
{
	char *text = xasprintf("From 5555555555555555555555555555555555555555 Mon Sep 17 00:00:00 2001\n"
			       "From: A <a@b>\nSubject: [PATCH] x: y\n\nA fix.\n---\n"
			       "diff --git a/drivers/x.c b/drivers/x.c\n"
			       "--- a/drivers/x.c\n+++ b/drivers/x.c\n%s", hunks);

	ck_assert_int_eq(sm_commit_parse(c, text, strlen(text)), 0);
	free(text);
}

/* A stray semicolon's removal leaves the code as it was: ";;" (perf/core:
 * "Fix ';;' typo"), "};" after a block (Coccinelle's "Remove unneeded
 * semicolon" patches) and a ";" line of its own. The semicolon that is an
 * if's or a loop's body is code, and so is one in a string. */
START_TEST(stray_semicolons_change_no_code)
{
	static const struct {
		const char *diff;
		int semicolons_only;
	} cases[] = {
		{ "@@ -1,3 +1,3 @@\n \tint ret;\n-\tret = f();;\n+\tret = f();\n \treturn ret;\n", 1 },
		{ "@@ -1,4 +1,4 @@\n \tswitch (x) {\n \tcase 1:\n \t\tbreak;\n-\t};\n+\t}\n", 1 },
		{ "@@ -1,3 +1,2 @@\n \treturn ret;\n-;\n }\n", 1 },
		/* the if's empty body: removing it is a fix */
		{ "@@ -1,3 +1,3 @@\n-\tif (!p);\n+\tif (!p)\n \t\treturn -EINVAL;\n", 0 },
		{ "@@ -1,2 +1,2 @@\n-\tfor (i = 0; i < n; i++);\n+\tfor (i = 0; i < n; i++)\n \t\tx[i] = 0;\n", 0 },
		/* a missing one added, a string changed */
		{ "@@ -1,2 +1,2 @@\n-\tpr_debug(\"x\")\n+\tpr_debug(\"x\");\n \treturn 0;\n", 0 },
		{ "@@ -1,2 +1,2 @@\n-\tpr_info(\"a;;b\");\n+\tpr_info(\"a;b\");\n \treturn 0;\n", 0 },
		/* white space alone is whitespace-only, not this */
		{ "@@ -1,3 +1,3 @@\n \tif (x) {\n-  y();\n+\t\ty();\n \t}\n", 0 },
	};
	struct sm_verdict v;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sm_commit c;

		parse_hunks(&c, cases[i].diff);
		ck_assert_msg(c.diff.semicolons_only == cases[i].semicolons_only, "case %zu", i);
		sm_commit_release(&c);
	}
	ck_assert_int_eq(classify_text("From 5555555555555555555555555555555555555555 Mon Sep 17 00:00:00 2001\n"
				       "From: A <a@b>\nSubject: [PATCH] x: fix a crash\n\nFix it.\n---\n"
				       "diff --git a/drivers/x.c b/drivers/x.c\n--- a/drivers/x.c\n"
				       "+++ b/drivers/x.c\n@@ -1,3 +1,3 @@\n \tint ret;\n"
				       "-\tret = f();;\n+\tret = f();\n \treturn ret;\n", NULL, &v),
			 SM_REJECT);
	ck_assert(sm_verdict_has(&v, "semicolons-only"));
	sm_verdict_release(&v);
}
END_TEST

/* "Changes white space only" means each hunk's two sides are the same
 * code once white space is squeezed out: code moved (to another hunk or
 * function, or after a line it came before) is a change, and a fix that
 * moves a call is no whitespace change. A format-patch signature ("-- ")
 * after the last hunk is no removed line. */
START_TEST(moved_code_is_not_whitespace)
{
	static const struct {
		const char *diff;
		int whitespace_only;
		unsigned added, removed;
	} cases[] = {
		/* moved to another function, as "PCI: tegra194: Move controller
		 * cleanups to pex_ep_event_pex_rst_deassert()" does */
		{ "@@ -1709,5 +1709,2 @@ static void assert(void)\n"
		  " \tif (ret)\n"
		  "-\tpci_epc_deinit_notify(epc);\n"
		  "-\tdw_pcie_ep_cleanup(ep);\n"
		  "-\n"
		  " \treset_control_assert(rst);\n"
		  "@@ -1790,2 +1787,6 @@ static void deassert(void)\n"
		  " \t}\n"
		  "+\t/* Perform cleanup that requires refclk */\n"
		  "+\tpci_epc_deinit_notify(epc);\n"
		  "+\tdw_pcie_ep_cleanup(ep);\n"
		  "+\n"
		  " \tappl_writel(pcie, 0, APPL_INTR_STATUS_L0);\n", 0, 4, 3 },
		/* a call put after the line it came before, in one hunk */
		{ "@@ -1,3 +1,3 @@\n-\tlock(x);\n \tinit(x);\n+\tlock(x);\n \treturn 0;\n", 0, 1, 1 },
		/* re-indented: the same code in the same place */
		{ "@@ -1,3 +1,3 @@\n \tif (x) {\n-  y();\n+\t\ty();\n \t}\n", 1, 1, 1 },
		/* the same, mailed by git send-email: its signature follows */
		{ "@@ -1,3 +1,3 @@\n \tif (x) {\n-  y();\n+\t\ty();\n \t}\n-- \n2.43.0\n\n", 1, 1, 1 },
	};

	int b, a;

	ck_assert(!sm_hunk_counts("@@ -1 +1 @@", 11, &b, &a) && b == 1 && a == 1);
	ck_assert(!sm_hunk_counts("@@ -10,7 +10,8 @@ int f(void)", 28, &b, &a) && b == 7 && a == 8);
	ck_assert(!sm_hunk_counts("@@ -0,0 +1,3 @@", 15, &b, &a) && b == 0 && a == 3);
	ck_assert_int_eq(sm_hunk_counts("@@ -1,99999999999 +1 @@", 23, &b, &a), -1);
	ck_assert_int_eq(sm_hunk_counts("@@ -1,5 +1,5 @@", 7, &b, &a), -1);	/* cut off */
	ck_assert_int_eq(sm_hunk_counts("@@@ -1,2 -1,2 +1,3 @@@", 22, &b, &a), -1);
	ck_assert_int_eq(sm_hunk_counts("@@ -a,1 +1 @@", 13, &b, &a), -1);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sm_commit c;

		parse_hunks(&c, cases[i].diff);
		ck_assert_msg(c.diff.whitespace_only == cases[i].whitespace_only, "case %zu", i);
		ck_assert_msg(c.diff.added == cases[i].added && c.diff.removed == cases[i].removed,
			      "case %zu: +%u -%u", i, c.diff.added, c.diff.removed);
		sm_commit_release(&c);
	}
}
END_TEST

/* stable-kernel-rules.rst lets a patch "just add a device ID", and most
 * do it on more lines than one: a USB serial composition with its
 * .driver_info, a DMI quirk block, a header's ID define beside the table
 * line. Code around them, a statement, or more than six entries is more. */
START_TEST(device_id_entries_span_lines)
{
	static const struct {
		const char *name, *diff;
		int device_id;
		unsigned entries;
	} cases[] = {
		{ "option: a composition and its driver_info",
		  "diff --git a/drivers/usb/serial/option.c b/drivers/usb/serial/option.c\n"
		  "@@ -1,2 +1,4 @@\n"
		  " \t{ USB_DEVICE(TELIT_VENDOR_ID, 0x1055) },\n"
		  "+\t{ USB_DEVICE_INTERFACE_CLASS(TELIT_VENDOR_ID, 0x1056, 0xff),\t/* Telit FT980-KS */\n"
		  "+\t  .driver_info = NCTRL(2) | RSVD(3) },\n"
		  " \t{ }\n", 1, 1 },
		{ "pl2303: the header's define and the table line",
		  "diff --git a/drivers/usb/serial/pl2303.c b/drivers/usb/serial/pl2303.c\n"
		  "@@ -1,1 +1,2 @@\n"
		  " \t{ USB_DEVICE(HP_VENDOR_ID, HP_LD220_PRODUCT_ID) },\n"
		  "+\t{ USB_DEVICE(HP_VENDOR_ID, HP_GC_DEVICE_ID) },\n"
		  "diff --git a/drivers/usb/serial/pl2303.h b/drivers/usb/serial/pl2303.h\n"
		  "@@ -1,1 +1,2 @@\n"
		  " #define HP_LD220_PRODUCT_ID\t0x3524\n"
		  "+#define HP_GC_DEVICE_ID\t\t0x0611\t/* HP GC */\n", 1, 1 },
		{ "reboot quirk: a DMI block with a comment",
		  "diff --git a/arch/x86/kernel/reboot.c b/arch/x86/kernel/reboot.c\n"
		  "@@ -1,1 +1,10 @@\n"
		  " \t},\n"
		  "+\t{\t/* Handle reboot issue on MacBook6,1 */\n"
		  "+\t\t.callback = set_pci_reboot,\n"
		  "+\t\t.ident = \"Apple MacBook6,1\",\n"
		  "+\t\t.matches = {\n"
		  "+\t\t\tDMI_MATCH(DMI_SYS_VENDOR, \"Apple Inc.\"),\n"
		  "+\t\t\tDMI_MATCH(DMI_PRODUCT_NAME, \"MacBook6,1\"),\n"
		  "+\t\t},\n"
		  "+\t},\n"
		  " \t{ }\n", 1, 1 },
		{ "a new match table and its MODULE_DEVICE_TABLE",
		  "diff --git a/drivers/hwmon/x.c b/drivers/hwmon/x.c\n"
		  "@@ -1,1 +1,7 @@\n"
		  " \n"
		  "+static const struct of_device_id x_of_match[] = {\n"
		  "+\t{ .compatible = \"vendor,x\" },\n"
		  "+\t{ }\n"
		  "+};\n"
		  "+MODULE_DEVICE_TABLE(of, x_of_match);\n"
		  "+\n", 1, 2 },
		{ "a function with a match macro in it is code",
		  "diff --git a/arch/x86/kernel/x.c b/arch/x86/kernel/x.c\n"
		  "@@ -1,1 +1,6 @@\n"
		  " \n"
		  "+static bool x(void)\n"
		  "+{\n"
		  "+\tstatic const struct x86_cpu_id ids[] = { X86_MATCH_INTEL_FAM6_MODEL(ATOM, 0), {} };\n"
		  "+\treturn x86_match_cpu(ids);\n"
		  "+}\n", 0, 0 },
		{ "an entry and a change of code",
		  "diff --git a/drivers/usb/serial/option.c b/drivers/usb/serial/option.c\n"
		  "@@ -1,2 +1,3 @@\n"
		  " \t{ USB_DEVICE(TELIT_VENDOR_ID, 0x1055) },\n"
		  "+\t{ USB_DEVICE(TELIT_VENDOR_ID, 0x1056) },\n"
		  " \t{ }\n"
		  "@@ -40,2 +41,2 @@\n"
		  "-\tif (x)\n"
		  "+\tif (!x)\n"
		  " \t\treturn;\n", 0, 1 },
		{ "an ID define alone adds no entry",
		  "diff --git a/include/linux/pci_ids.h b/include/linux/pci_ids.h\n"
		  "@@ -1,1 +1,2 @@\n"
		  " #define PCI_DEVICE_ID_AMD_19H_M70H_DF_F3 0x14f3\n"
		  "+#define PCI_DEVICE_ID_AMD_19H_M78H_DF_F3 0x12fb\n", 0, 0 },
		{ "a define that is no ID",
		  "diff --git a/drivers/x.c b/drivers/x.c\n"
		  "@@ -1,1 +1,3 @@\n"
		  " \n"
		  "+#define MAX_PORTS 8\n"
		  "+\t{ PCI_VDEVICE(INTEL, 0x1234) },\n", 0, 0 },	/* counting stops at code */
		{ "an existing entry's quirk changed",
		  "diff --git a/drivers/usb/serial/option.c b/drivers/usb/serial/option.c\n"
		  "@@ -1,2 +1,2 @@\n"
		  " \t{ USB_DEVICE_INTERFACE_CLASS(TELIT_VENDOR_ID, 0x1056, 0xff),\n"
		  "-\t  .driver_info = NCTRL(2) },\n"
		  "+\t  .driver_info = NCTRL(2) | RSVD(3) },\n", 0, 0 },
		{ "seven entries are more than a device",
		  "diff --git a/drivers/x.c b/drivers/x.c\n"
		  "@@ -1,1 +1,8 @@\n"
		  " \t{ PCI_VDEVICE(INTEL, 0x1000) },\n"
		  "+\t{ PCI_VDEVICE(INTEL, 0x1001) },\n+\t{ PCI_VDEVICE(INTEL, 0x1002) },\n"
		  "+\t{ PCI_VDEVICE(INTEL, 0x1003) },\n+\t{ PCI_VDEVICE(INTEL, 0x1004) },\n"
		  "+\t{ PCI_VDEVICE(INTEL, 0x1005) },\n+\t{ PCI_VDEVICE(INTEL, 0x1006) },\n"
		  "+\t{ PCI_VDEVICE(INTEL, 0x1007) },\n", 0, 7 },
		{ "usb-storage: an UNUSUAL_DEV( of five lines, a comment before it",
		  "diff --git a/drivers/usb/storage/unusual_devs.h b/drivers/usb/storage/unusual_devs.h\n"
		  "@@ -1,1 +1,8 @@\n"
		  " \n"
		  "+/* Reported by A <a@b> */\n"
		  "+UNUSUAL_DEV(  0x0bc2, 0x2321, 0x0000, 0x9999,\n"
		  "+\t\t\"Seagate\",\n"
		  "+\t\t\"Expansion HDD (\",\n"
		  "+\t\tUSB_SC_DEVICE, USB_PR_DEVICE, NULL,\n"
		  "+\t\tUS_FL_NO_WP_DETECT ),\n"
		  "+\n", 1, 1 },
		{ "a PCI quirk for one more device",
		  "diff --git a/drivers/pci/quirks.c b/drivers/pci/quirks.c\n"
		  "@@ -1,1 +1,2 @@\n"
		  " DECLARE_PCI_FIXUP_FINAL(PCI_VENDOR_ID_INTEL, 0x10a9, quirk_disable_aspm_l0s);\n"
		  "+DECLARE_PCI_FIXUP_FINAL(PCI_VENDOR_ID_INTEL, 0x10b6, quirk_disable_aspm_l0s);\n", 1, 1 },
		{ "a match macro defined over lines is code",
		  "diff --git a/arch/x86/include/asm/cpu_device_id.h b/arch/x86/include/asm/cpu_device_id.h\n"
		  "@@ -1,1 +1,4 @@\n"
		  " \n"
		  "+#define X86_MATCH_INTEL_FAM6_MODEL_STEPPINGS(model, steppings, data)\t\\\n"
		  "+\tX86_MATCH_VENDOR_FAM_MODEL_STEPPINGS_FEATURE(INTEL, 6, INTEL_FAM6_##model, \\\n"
		  "+\t\t\t\t\t\t     steppings, X86_FEATURE_ANY, data)\n", 0, 0 },
		{ "braces and ';' in strings and comments do not count",
		  "diff --git a/drivers/x.c b/drivers/x.c\n"
		  "@@ -1,1 +1,2 @@\n"
		  " \t{ }\n"
		  "+\t{ \"ABC}{;0001\", 0 },\t/* { a; */\n", 1, 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text = xasprintf("From 5555555555555555555555555555555555555555 Mon Sep 17 00:00:00 2001\n"
				       "From: A <a@b>\nSubject: [PATCH] x: add a device\n\nAdd it.\n---\n%s",
				       cases[i].diff);
		struct sm_commit c;

		ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
		ck_assert_msg(sm_diff_adds_device_ids_only(&c.diff) == cases[i].device_id &&
			      c.diff.id_entries == cases[i].entries,
			      "%s: entries %u, ID lines %u of %u code lines", cases[i].name,
			      c.diff.id_entries, c.diff.id_table_lines, c.diff.code_lines_changed);
		sm_commit_release(&c);
		free(text);
	}
}
END_TEST

/* A code line removed and added again with only its comment changed is
 * a comment change: "fix typos in comments" that touch a trailing
 * comment are comment-only, a comment moved off an if () adds no check,
 * and "add another USB ID" that re-words a neighbour's comment adds a
 * device ID. Lines the same whole (a move) and strings stay code. */
START_TEST(comment_changed_on_code_line)
{
	static const struct {
		const char *name, *diff;
		unsigned code, comments, checks;
		int device_id;
	} cases[] = {
		{ "a typo in a trailing comment",
		  "@@ -1,2 +1,2 @@\n \tint x;\n-\tx = 1;\t/* teh value */\n+\tx = 1;\t/* the value */\n",
		  0, 2, 0, 0 },
		{ "a comment moved off an if ()",
		  "@@ -1,2 +1,3 @@\n-\tif (maxlvt > 3)\t/* Due to the Pentium erratum 3AP. */\n"
		  "+\t/* Due to the Pentium erratum 3AP. */\n+\tif (maxlvt > 3)\n \t\tx();\n",
		  0, 3, 0, 0 },
		{ "two lines swapped are a move",
		  "@@ -1,2 +1,2 @@\n-\ta();\n-\tb();\n+\tb();\n+\ta();\n", 4, 0, 0, 0 },
		{ "\"/*\" in a string is no comment",
		  "@@ -1,1 +1,1 @@\n-\tpr_info(\"a /* b\");\n+\tpr_info(\"a /* c\");\n", 2, 0, 0, 0 },
		{ "a context line between: another block",
		  "@@ -1,3 +1,3 @@\n-\tx = 1;\t/* a */\n \ty = 2;\n+\tx = 1;\t/* b */\n", 2, 0, 0, 0 },
		{ "a table row after its index in a comment is code",
		  "@@ -1,1 +1,1 @@\n-\t/* 0x10 */ 0x1234, 0x5678,\n+\t/* 0x10 */ 0x1234, 0x5679,\n",
		  2, 0, 0, 0 },
		{ "code after a comment's end is code",
		  "@@ -1,2 +1,2 @@\n \t/* a long\n-\t * note */ if (x)\n+\t * note */ if (y)\n", 2, 0, 0, 0 },
		{ "another USB ID, a neighbour's comment re-worded",
		  "@@ -1,3 +1,4 @@\n \t{ HID_USB_DEVICE(0x1e71, 0x2010) }, /* NZXT RGB & Fan Controller */\n"
		  "-\t{ HID_USB_DEVICE(0x1e71, 0x2019) }, /* NZXT RGB & Fan Controller */\n"
		  "+\t{ HID_USB_DEVICE(0x1e71, 0x2011) }, /* NZXT RGB & Fan Controller (6 RGB) */\n"
		  "+\t{ HID_USB_DEVICE(0x1e71, 0x2019) }, /* NZXT RGB & Fan Controller (6 RGB) */\n"
		  " \t{},\n", 1, 2, 0, 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sm_commit c;

		parse_hunks(&c, cases[i].diff);
		ck_assert_msg(c.diff.code_lines_changed == cases[i].code &&
			      c.diff.comment_lines == cases[i].comments &&
			      c.diff.added_checks == cases[i].checks &&
			      sm_diff_adds_device_ids_only(&c.diff) == cases[i].device_id,
			      "%s: code %u, comments %u, checks %u", cases[i].name,
			      c.diff.code_lines_changed, c.diff.comment_lines, c.diff.added_checks);
		ck_assert(!c.diff.whitespace_only);
		sm_commit_release(&c);
	}
}
END_TEST

/* A diff without "diff --git" lines, as diff -u, quilt (Greg's stable
 * review mails) and Andrew Morton's mm scripts write it, is a diff: its
 * files start at "--- OLD" / "+++ NEW", the first directory and diff -u's
 * time stamp dropped, /dev/null a new or deleted file. */
START_TEST(plain_unified_diff)
{
	static const char *quilt =
		"From: A <a@b>\nSubject: [PATCH 6.1 12/99] USB: serial: option: add Foo\n\n"
		"Add the Foo modem.\n\nSigned-off-by: A <a@b>\n---\n"
		" drivers/usb/serial/option.c |    1 +\n 1 file changed, 1 insertion(+)\n\n"
		"Index: linux-6.1/drivers/usb/serial/option.c\n"
		"===================================================================\n"
		"--- linux-6.1.orig/drivers/usb/serial/option.c\n"
		"+++ linux-6.1/drivers/usb/serial/option.c\n"
		"@@ -10,2 +10,3 @@ static const struct usb_device_id option_ids[] = {\n"
		" \t{ USB_DEVICE(QUECTEL_VENDOR_ID, 0x0100) },\n"
		"+\t{ USB_DEVICE(QUECTEL_VENDOR_ID, 0x6001) },\n"
		" \t{ }\n";
	static const char *diff_u =
		"From: A <a@b>\nSubject: [PATCH] mm: fix a leak in foo\n\n"
		"It leaked; \"--- a/x\" alone in the text is no diff.\n--- a/x\n\n"
		"Signed-off-by: A <a@b>\n\n"
		"--- a/mm/foo.c\t2024-01-02 10:00:00.000000000 +0100\n"
		"+++ b/mm/foo.c\t2024-01-02 11:00:00.000000000 +0100\n"
		"@@ -1,3 +1,4 @@\n \tx = alloc();\n+\tfree(x);\n-\treturn;\n+\treturn 0;\n"
		" }\n"
		"--- /dev/null\n+++ b/mm/new.c\n@@ -0,0 +1,1 @@\n+int y;\n"
		"--- a/mm/old.c\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-int z;\n";
	struct sm_commit c;
	struct sm_verdict v;

	ck_assert_int_eq(sm_commit_parse(&c, quilt, strlen(quilt)), 0);
	ck_assert(c.has_diff && !c.diff.from_stat);
	ck_assert_int_eq(c.nr_files, 1);
	ck_assert_str_eq(c.files[0].path, "drivers/usb/serial/option.c");
	ck_assert(sm_diff_adds_device_ids_only(&c.diff));
	sm_commit_release(&c);
	classify_text(quilt, NULL, &v);
	ck_assert(sm_verdict_has(&v, "device-id"));
	sm_verdict_release(&v);

	ck_assert_int_eq(sm_commit_parse(&c, diff_u, strlen(diff_u)), 0);
	ck_assert(c.has_diff && !c.diff.from_stat);
	ck_assert_int_eq(c.nr_files, 3);
	ck_assert_str_eq(c.files[0].path, "mm/foo.c");
	ck_assert(c.files[0].added == 2 && c.files[0].removed == 1);
	ck_assert_str_eq(c.files[1].path, "mm/new.c");
	ck_assert(c.files[1].is_new && !c.files[1].is_deleted);
	ck_assert_str_eq(c.files[2].path, "mm/old.c");
	ck_assert(c.files[2].is_deleted && !c.files[2].is_new);
	ck_assert(c.diff.added == 3 && c.diff.removed == 2);
	ck_assert(strstr(c.body, "alone in the text") != NULL);
	sm_commit_release(&c);

	/* a git diff is read from its "diff --git" lines, as before */
	ck_assert(sm_find_diff(devid_patch, devid_patch + strlen(devid_patch)) ==
		  strstr(devid_patch, "diff --git"));
	ck_assert(sm_find_diff("--- a/x\nno diff\n", "--- a/x\nno diff\n" + 16) == NULL);
}
END_TEST

/* '#' begins a comment in a Makefile, Kconfig or script, and code in a
 * device tree ("#interrupt-cells", "#include") or Rust ("#[derive]"): a
 * DT fix of its cells was vetoed "comment-only". */
START_TEST(hash_lines_by_language)
{
	static const struct {
		const char *path, *removed, *added;
		int comment_only;
	} cases[] = {
		{ "arch/arm64/boot/dts/qcom/sm8250.dtsi", "\t\t\t#interrupt-cells = <2>;",
		  "\t\t\t#interrupt-cells = <3>;", 0 },
		{ "arch/arm/boot/dts/imx6q.dts", "#include \"imx6q.dtsi\"", "#include \"imx6qp.dtsi\"", 0 },
		{ "arch/arm64/boot/dts/x.dtso", "// old note", "// new note", 1 },
		{ "rust/kernel/x.rs", "#[derive(Debug)]", "#[derive(Debug, Clone)]", 0 },
		{ "drivers/net/Makefile", "# old note", "# new note", 1 },
		{ "drivers/net/Kconfig", "\t# old note", "\t# new note", 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text = xasprintf("From 5555555555555555555555555555555555555555 Mon Sep 17 00:00:00 2001\n"
				       "From: A <a@b>\nSubject: [PATCH] x: fix y\n\nZ.\n---\n"
				       "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,1 +1,1 @@\n-%s\n+%s\n",
				       cases[i].path, cases[i].path, cases[i].path, cases[i].path,
				       cases[i].removed, cases[i].added);
		struct sm_verdict v;

		classify_text(text, NULL, &v);
		ck_assert_msg(!!sm_verdict_has(&v, "comment-only") == cases[i].comment_only, "%s",
			      cases[i].path);
		sm_verdict_release(&v);
		free(text);
	}
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

/* `git log --format=raw`: the raw headers (a signature's and a merge tag's
 * lines going on after a space, one of them a lone space) are headers, not
 * the message; author and committer without their time. */
START_TEST(git_raw_format)
{
	const char *text =
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"tree 1111111111111111111111111111111111111111\n"
		"parent 2222222222222222222222222222222222222222\n"
		"author Jane Dev <jane@example.org> 1462262400 +0200\n"
		"committer Greg Maintainer <greg@example.org> 1462266000 +0200\n"
		"gpgsig -----BEGIN PGP SIGNATURE-----\n"
		" \n"
		" iQIzBAABCAAdFiEE\n"
		" -----END PGP SIGNATURE-----\n"
		"\n"
		"    hwmon: (pmbus) Fix a NULL pointer dereference on probe\n"
		"    \n"
		"    The client data is used before it is set.\n"
		"    \n"
		"    Cc: stable@vger.kernel.org # v5.4+\n"
		"    Signed-off-by: Jane Dev <jane@example.org>\n";
	const char *merge =
		"commit 3333333333333333333333333333333333333333\n"
		"tree 1111111111111111111111111111111111111111\n"
		"parent 2222222222222222222222222222222222222222\n"
		"parent 4444444444444444444444444444444444444444\n"
		"author Linus <torvalds@example.org> 1462262400 -0700\n"
		"committer Linus <torvalds@example.org> 1462262400 -0700\n"
		"mergetag object 4444444444444444444444444444444444444444\n"
		" type commit\n"
		" tag net-6.7-rc2\n"
		" \n"
		" Networking fixes for 6.7-rc2.\n"
		"\n"
		"    Pull networking fixes: a use-after-free in the leak path\n";
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	ck_assert_str_eq(c.id, "0123456789abcdef0123456789abcdef01234567");
	ck_assert_str_eq(c.author, "Jane Dev <jane@example.org>");
	ck_assert_str_eq(c.committer, "Greg Maintainer <greg@example.org>");
	ck_assert_str_eq(c.subject, "hwmon: (pmbus) Fix a NULL pointer dereference on probe");
	ck_assert_int_eq(c.nr_stable, 1);
	ck_assert(!c.is_merge);
	ck_assert_ptr_null(strstr(c.body, "PGP"));
	sm_commit_release(&c);
	ck_assert_int_eq(sm_commit_parse(&c, merge, strlen(merge)), 0);
	ck_assert(c.is_merge);
	ck_assert_str_eq(c.subject, "Pull networking fixes: a use-after-free in the leak path");
	ck_assert_ptr_null(strstr(c.body, "Networking fixes"));
	sm_commit_release(&c);
}
END_TEST

/* `git log --show-signature` (or log.showSignature=true): gpg's or ssh's
 * verdict on the signature sits between the commit line and Author:, as
 * git prints it for a gpg-signed and an ssh-signed commit. */
START_TEST(git_show_signature)
{
	static const char *const verdicts[] = {
		"gpg: Signature made Mon 01 Jan 2024 00:00:00 UTC\n"
		"gpg:                using RSA key 647F28654894E3BD457199BE38DBBDC86092693E\n"
		"gpg: Good signature from \"Greg Kroah-Hartman <gregkh@linuxfoundation.org>\" [full]\n"
		"Primary key fingerprint: 647F 2865 4894 E3BD 4571  99BE 38DB BDC8 6092 693E\n"
		"     Subkey fingerprint: 1111 2222 3333 4444 5555  6666 7777 8888 9999 0000\n",
		"Good \"git\" signature with ED25519 key SHA256:eEgQc/OF1du9/nDb1LefYn+CQi219+V+6KHPXKkTOWo\n"
		"No principal matched.\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(verdicts); i++) {
		char *text = xasprintf("commit 0123456789abcdef0123456789abcdef01234567\n%s"
				       "Author: Jane Dev <jane@example.org>\n"
				       "Date:   Tue May 3 10:00:00 2016 +0200\n\n"
				       "    net: fix a use-after-free in close\n\n"
				       "    Signed-off-by: Jane Dev <jane@example.org>\n", verdicts[i]);
		struct sm_commit c;

		ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
		ck_assert_str_eq(c.subject, "net: fix a use-after-free in close");
		ck_assert_str_eq(c.author, "Jane Dev <jane@example.org>");
		sm_commit_release(&c);
		free(text);
	}
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

/* dir/name holding text, for a test's own rules directory */
static void write_rules_file(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);

	ck_assert(write_file_atomic(p, text, strlen(text)) == 0);
	free(p);
}

START_TEST(bad_rules_file_names_line)
{
	char *dir = make_temp_dir("sm-rules");
	struct sm_rules *r = NULL;

	ck_assert_ptr_nonnull(dir);
	write_rules_file(dir, "thresholds.rules", "candidate 60\n");
	write_rules_file(dir, "authors.rules", "");
	write_rules_file(dir, "keywords.rules", "# c\n10 fix fix\n20 bad (unclosed\n");
	ck_assert_int_eq(sm_rules_load(&r, dir), -1);
	ck_assert_msg(strstr(sm_last_error(), "keywords.rules:3:") != NULL, "%s", sm_last_error());
	/* the offset is the one in the file, not in the wrapped pattern */
	write_rules_file(dir, "keywords.rules", "10 fix fix\n20 bad a)b\n");
	ck_assert_int_eq(sm_rules_load(&r, dir), -1);
	ck_assert_msg(strstr(sm_last_error(), "keywords.rules:2: bad pattern at offset 1:") != NULL,
		      "%s", sm_last_error());
	/* each setting parses, but a maybe tier above candidate is empty */
	write_rules_file(dir, "keywords.rules", "10 fix fix\n");
	write_rules_file(dir, "thresholds.rules", "candidate 60\nmaybe 90\n");
	ck_assert_int_eq(sm_rules_load(&r, dir), -1);
	ck_assert_msg(strstr(sm_last_error(), "thresholds.rules: maybe 90 is above candidate 60") !=
		      NULL, "%s", sm_last_error());
	remove_tree(dir);
	free(dir);
}
END_TEST

/* A rules file is the maintainer's: a pattern may hold capture groups
 * ("(leak|leaks)"), which must match as (?:...) does. */
START_TEST(rules_with_capture_groups)
{
	static const char msg[] = "net: plug a leak in foo_open()\n\nfoo_open() leaks its buffer.\n\n"
				  "Reported-by: syzbot+1234@syzkaller.appspotmail.com\n"
				  "Signed-off-by: A <a@b>\n";
	char *dir = make_temp_dir("sm-rules");
	struct sm_rules *r = NULL;
	struct sm_commit c;
	struct sm_verdict v;

	ck_assert_ptr_nonnull(dir);
	write_rules_file(dir, "thresholds.rules", "candidate 60\nmaybe 20\n");
	write_rules_file(dir, "authors.rules", "15 Reported-by (syzbot|syzkaller)\n");
	write_rules_file(dir, "keywords.rules", "40 leakish (leak(s)?|memleak)\n");
	ck_assert_int_eq(sm_rules_load(&r, dir), 0);
	ck_assert_int_eq(sm_commit_parse(&c, msg, sizeof(msg) - 1), 0);
	sm_classify(r, &c, NULL, &v);
	ck_assert_msg(sm_verdict_has(&v, "keyword:leakish"), "the keyword rule did not match");
	ck_assert_msg(sm_verdict_has(&v, "person:Reported-by"), "the author rule did not match");
	sm_verdict_release(&v);
	sm_commit_release(&c);
	sm_rules_free(r);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* "leak|" (a slip of the pipe) would match every message: refused at
 * load, naming the file and line, for keywords and for people. */
START_TEST(rules_matching_empty_refused)
{
	static const char *const files[][2] = {
		{ "keywords.rules", "40 leak memory[- ]leaks?|leak|\n" },
		{ "authors.rules", "10 Reported-by syzbot|\n" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *dir = make_temp_dir("sm-rules");
		struct sm_rules *r = NULL;
		char *want;

		ck_assert_ptr_nonnull(dir);
		write_rules_file(dir, "thresholds.rules", "candidate 60\n");
		write_rules_file(dir, i ? "keywords.rules" : "authors.rules", "");
		write_rules_file(dir, files[i][0], files[i][1]);
		ck_assert_int_eq(sm_rules_load(&r, dir), -1);
		want = xasprintf("%s:1: pattern", files[i][0]);
		ck_assert_msg(strstr(sm_last_error(), want) && strstr(sm_last_error(), "empty string"),
			      "%s", sm_last_error());
		free(want);
		remove_tree(dir);
		free(dir);
	}
}
END_TEST

START_TEST(json_reader)
{
	struct strbuf sb = STRBUF_INIT;
	const char *j = "{\"cve\": \"CVE-1\", \"n\": [1, {\"a\": \"}\"}], \"description\": \"a\\nb \\u00e9\\ud83d\\ude00\", \"files\": [\"x.c\", \"y.c\"]}";

	ck_assert_int_eq(json_get_string(j, strlen(j), "description", &sb), JSON_FOUND);
	ck_assert_str_eq(sb.buf, "a\nb \xc3\xa9\xf0\x9f\x98\x80");
	strbuf_reset(&sb);
	ck_assert_int_eq(json_get_string(j, strlen(j), "files", &sb), JSON_FOUND);
	ck_assert_str_eq(sb.buf, "x.c\ny.c");
	ck_assert_int_eq(json_get_string(j, strlen(j), "absent", &sb), JSON_ABSENT);
	ck_assert_int_eq(json_get_string("{\"a\": }", 7, "b", &sb), -1);
	ck_assert_int_eq(json_get_string("[1]", 3, "b", &sb), -1);
	/* one object and white space only: a second, or anything after it, is bad */
	{
		static const char *const one[] = { "{\"a\": \"x\"} \r\n", "{\"a\": \"x\"} xyz",
						    "{\"a\": \"x\"}{\"a\": \"y\"}" };

		ck_assert_int_eq(json_get_string(one[0], strlen(one[0]), "a", &sb), JSON_FOUND);
		ck_assert_int_eq(json_get_string(one[1], strlen(one[1]), "a", &sb), -1);
		ck_assert_int_eq(json_get_string(one[2], strlen(one[2]), "a", &sb), -1);
	}
	/* escapes next to the quotes, escaped quotes and backslashes, a
	 * skipped member with escapes, bad and unterminated strings */
	{
		static const char k[] = "{\"s\": \"\\\"x\\\\\\\"\", \"b\": \"\\\\\\n\\\"\"}";

		strbuf_reset(&sb);
		ck_assert_int_eq(json_get_string(k, strlen(k), "b", &sb), JSON_FOUND);
		ck_assert_str_eq(sb.buf, "\\\n\"");
		strbuf_reset(&sb);
		ck_assert_int_eq(json_get_string(k, strlen(k), "s", &sb), JSON_FOUND);
		ck_assert_str_eq(sb.buf, "\"x\\\"");
	}
	{
		/* string and raw members in one pass */
		static const char *const keys[] = { "description", "n", "files" };
		struct strbuf d = STRBUF_INIT, n = STRBUF_INIT, f = STRBUF_INIT;
		struct strbuf *const outs[] = { &d, &n, &f };
		int found[3];

		ck_assert_int_eq(json_get_members(j, strlen(j), keys, outs, found, 3, 1u << 1), 3);
		ck_assert_int_eq(found[0], JSON_FOUND);
		ck_assert_int_eq(found[1], JSON_FOUND);
		ck_assert_int_eq(found[2], JSON_FOUND);
		ck_assert_str_eq(n.buf, "[1, {\"a\": \"}\"}]");
		ck_assert_str_eq(f.buf, "x.c\ny.c");
		strbuf_release(&d);
		strbuf_release(&n);
		strbuf_release(&f);
	}
	{
		static const char *const bad[] = { "{\"a\": \"\\uZZZZ\", \"b\": \"x\"}",
						   "{\"b\": \"x\\\"}", "{\"b\": \"x\\" };

		for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
			ck_assert_int_eq(json_get_string(bad[i], strlen(bad[i]), "b", &sb), -1);
	}
	{
		/* \u0000 would cut the C string; lone surrogates are no
		 * characters: each becomes U+FFFD, a pair stays one */
		static const char k[] = "{\"b\": \"a\\u0000b \\ud800c \\udc00d \\ud83d\\u0041 "
					"\\ud83d\\ude00\"}";

		strbuf_reset(&sb);
		ck_assert_int_eq(json_get_string(k, strlen(k), "b", &sb), JSON_FOUND);
		ck_assert_str_eq(sb.buf, "a\xef\xbf\xbd" "b \xef\xbf\xbd" "c \xef\xbf\xbd"
			"d \xef\xbf\xbd" "A \xf0\x9f\x98\x80");
		ck_assert_uint_eq(sb.len, strlen(sb.buf));
	}
	strbuf_release(&sb);
}
END_TEST

static int collect_element(void *ctx, size_t i, const char *e, size_t n)
{
	struct strbuf *sb = ctx;

	strbuf_addf(sb, "%zu<%.*s>", i, (int)n, e);
	return !strncmp(e, "\"stop\"", n) ? 7 : 0;
}

START_TEST(json_arrays_and_counts)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const bad[] = { "{\"a\": 1}", "[1,]", "[1 2]", "[", "[,1]", "" };

	static const char arr[] = " [ 1, \"a,]\" , {\"x\": [2, 3]}, [] ] ";
	unsigned long n;

	ck_assert_int_eq(json_array_each(arr, strlen(arr), collect_element, &sb), 0);
	ck_assert_str_eq(sb.buf, "0<1>1<\"a,]\">2<{\"x\": [2, 3]}>3<[]>");
	strbuf_reset(&sb);
	ck_assert_int_eq(json_array_each("[]", 2, collect_element, &sb), 0);
	ck_assert_uint_eq(sb.len, 0);
	/* fn's non-zero return stops the walk and is returned */
	ck_assert_int_eq(json_array_each("[1, \"stop\", 3]", 15, collect_element, &sb), 7);
	ck_assert_str_eq(sb.buf, "0<1>1<\"stop\">");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_int_eq(json_array_each(bad[i], strlen(bad[i]), collect_element, &sb), -1);

	ck_assert_int_eq(json_count("0", 1, 10, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(json_count("1000000000", 10, 1000000000, &n), 0);
	ck_assert_uint_eq(n, 1000000000);
	ck_assert_int_eq(json_count("1000000001", 10, 1000000000, &n), -1);
	ck_assert_int_eq(json_count("99999999999999999999999", 23, 1000000000, &n), -1);
	ck_assert_int_eq(json_count("-3", 2, 10, &n), -1);
	ck_assert_int_eq(json_count("1.5", 3, 10, &n), -1);
	ck_assert_int_eq(json_count("1e3", 3, 10000, &n), -1);
	ck_assert_int_eq(json_count("", 0, 10, &n), -1);
	/* a max at the top of unsigned long: no wrap-around on the way */
	{
		char top[32], over[32];

		snprintf(top, sizeof(top), "%lu", ~0ul);
		snprintf(over, sizeof(over), "%lu", ~0ul);
		over[strlen(over) - 1]++;	/* ...615 -> ...616: one more */
		ck_assert_int_eq(json_count(top, strlen(top), ~0ul, &n), 0);
		ck_assert_uint_eq(n, ~0ul);
		ck_assert_int_eq(json_count(over, strlen(over), ~0ul, &n), -1);
	}
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

/* A header given twice: the second wins, the first is freed (the fuzzer
 * found "Commit:" leaking; fuzz/regressions/commit/two-commit-headers-leak). */
START_TEST(repeated_headers_second_wins)
{
	const char *text = "commit 0123456789abcdef0123456789abcdef01234567\n"
			   "Author: A U Thor <a@example.org>\n"
			   "Commit: First <first@example.org>\n"
			   "Commit: Second <second@example.org>\n"
			   "Author: B U Thor <b@example.org>\n"
			   "\n    x86: fix a leak\n";
	struct sm_commit c;

	ck_assert(sm_commit_parse(&c, text, strlen(text)) == 0);
	ck_assert_str_eq(c.committer, "Second <second@example.org>");
	ck_assert_str_eq(c.author, "B U Thor <b@example.org>");
	ck_assert_str_eq(c.subject, "x86: fix a leak");
	sm_commit_release(&c);
}
END_TEST

START_TEST(numstat_input)
{
	const char *text =
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: Jane Dev <jane@example.org>\n"
		"Date:   Tue May 3 10:00:00 2016 +0200\n"
		"\n"
		"    x86/mm: Fix a leak of the page table on the error path\n"
		"    \n"
		"    The error path returns without freeing it.\n"
		"\n"
		"3\t1\tarch/x86/mm/pgtable.c\n"
		"0\t2\tarch/x86/include/asm/pgtable.h\n"
		"-\t-\tfirmware/blob.bin\n";
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	ck_assert_str_eq(c.subject, "x86/mm: Fix a leak of the page table on the error path");
	ck_assert_ptr_null(strstr(c.body, "pgtable.c"));
	ck_assert(c.has_diff);
	ck_assert(c.diff.from_stat);
	ck_assert_int_eq(c.nr_files, 3);
	ck_assert_str_eq(c.files[0].path, "arch/x86/mm/pgtable.c");
	ck_assert_int_eq(c.files[1].removed, 2);
	ck_assert_int_eq(c.diff.added, 3);
	ck_assert_int_eq(c.diff.removed, 3);
	ck_assert_int_eq(c.diff.files, 3);
	sm_commit_release(&c);
}
END_TEST

/* A count too big for an unsigned stops at SM_DIFF_MAX_LINES instead of
 * wrapping around to a small number (4294967297 was 1: a "tiny" diff). */
START_TEST(numstat_counts_do_not_wrap)
{
	const char *text =
		"x86: Fix a leak\n"
		"\n"
		"4294967297\t0\tarch/x86/a.c\n"
		"999999999999999999999\t7\tarch/x86/b.c\n";
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	ck_assert_int_eq(c.nr_files, 2);
	ck_assert_uint_eq(c.files[0].added, SM_DIFF_MAX_LINES);
	ck_assert_uint_eq(c.files[1].added, SM_DIFF_MAX_LINES);
	ck_assert_uint_eq(c.files[1].removed, 7);
	ck_assert_uint_eq(c.diff.added, SM_DIFF_MAX_LINES);
	ck_assert_uint_eq(c.diff.code_lines_changed, SM_DIFF_MAX_LINES);
	sm_commit_release(&c);
}
END_TEST

START_TEST(stat_input)
{
	/* `git log --stat`: bars scaled, the summary line exact; a rename. */
	const char *text =
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: Jane Dev <jane@example.org>\n"
		"\n"
		"    docs: move the stable rules\n"
		"\n"
		" Documentation/{old => process}/stable.rst | 4 ++--\n"
		" Documentation/index.rst                   | 1 +\n"
		" 2 files changed, 3 insertions(+), 2 deletions(-)\n";
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	ck_assert_int_eq(c.nr_files, 2);
	ck_assert_str_eq(c.files[0].path, "Documentation/process/stable.rst");
	ck_assert_int_eq(c.files[0].added, 2);
	ck_assert_int_eq(c.diff.added, 3);
	ck_assert_int_eq(c.diff.removed, 2);
	ck_assert_int_eq(c.diff.doc_files, 2);
	sm_commit_release(&c);
}
END_TEST

START_TEST(stat_line_without_path)
{
	/* Found by fuzz_commit: " | 3 ++-" names no file; it used to give a
	 * path length of SIZE_MAX. It is not a stat line, the next one is. */
	const char *text =
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: Jane Dev <jane@example.org>\n"
		"\n"
		"    x: y\n"
		"\n"
		" | 3 ++-\n"
		" x.c | 1 +\n"
		" 1 file changed, 1 insertion(+)\n";
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	ck_assert_int_eq(c.nr_files, 1);
	ck_assert_str_eq(c.files[0].path, "x.c");
	sm_commit_release(&c);
}
END_TEST

START_TEST(diff_facts)
{
	const char *text =
		"From 6666666666666666666666666666666666666666 Mon Sep 17 00:00:00 2001\n"
		"From: A <a@b>\nSubject: [PATCH] net: x: check the length\n\n---\n"
		"diff --git a/net/x.c b/net/x.c\nnew file mode 100644\n--- /dev/null\n+++ b/net/x.c\n"
		"@@ -0,0 +1,4 @@\n+int f(int n)\n+{\n+\tif (n > 4)\n+\t\treturn -EINVAL;\n";
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	ck_assert_int_eq(c.nr_files, 1);
	ck_assert(c.files[0].is_new);
	ck_assert_int_eq(c.files[0].added, 4);
	ck_assert_int_eq(c.diff.added_checks, 1);
	ck_assert_int_eq(c.diff.added_error_returns, 1);
	ck_assert_int_eq(c.diff.new_files, 1);
	ck_assert(!c.diff.from_stat);
	sm_commit_release(&c);
}
END_TEST

/* Paths as git writes them: C-quoted when a byte is outside printable
 * ASCII (core.quotePath), on one side of a rename or both, with a " b/"
 * inside, or with no prefixes (diff.noprefix, "P P"); the features were
 * "diff:top:\"a" and the headers-only test read "...c\"" before. */
START_TEST(quoted_paths)
{
	static const struct {
		const char *text, *path;
	} cases[] = {
		{ "x: y\n\n---\ndiff --git \"a/drivers/t\\303\\251st.h\" \"b/drivers/t\\303\\251st.h\"\n"
		  "@@ -1 +1 @@\n-a\n+b\n", "drivers/t\xc3\xa9st.h" },
		{ "x: y\n\n---\ndiff --git a/drivers/old.h \"b/drivers/n\\303\\253w.h\"\n"
		  "similarity index 90%\nrename from drivers/old.h\nrename to \"drivers/n\\303\\253w.h\"\n",
		  "drivers/n\xc3\xabw.h" },
		{ "x: y\n\n---\ndiff --git \"a/drivers/t\\303\\251st.h\" b/drivers/new.h\n",
		  "drivers/new.h" },
		{ "x: y\n\n---\ndiff --git a/lib/a b/c.h b/lib/a b/c.h\n@@ -1 +1 @@\n-a\n+b\n",
		  "lib/a b/c.h" },
		/* diff.noprefix=true: "P P" */
		{ "x: y\n\n---\ndiff --git drivers/usb/x.c drivers/usb/x.c\n--- drivers/usb/x.c\n"
		  "+++ drivers/usb/x.c\n@@ -1 +1 @@\n-a\n+b\n", "drivers/usb/x.c" },
		{ "x: y\n\n1\t0\t\"drivers/tab\\there.h\"\n", "drivers/tab\there.h" },
		{ "x: y\n\n0\t0\t\"drivers/t\\303\\251st.c\" => drivers/new.h\n", "drivers/new.h" },
		{ "x: y\n\n \"drivers/n\\303\\253w.h\" | 1 +\n 1 file changed, 1 insertion(+)\n",
		  "drivers/n\xc3\xabw.h" },
		/* a quote that does not close stays as written */
		{ "x: y\n\n1\t0\t\"drivers/open.h\n", "\"drivers/open.h" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sm_commit c;

		ck_assert_int_eq(sm_commit_parse(&c, cases[i].text, strlen(cases[i].text)), 0);
		ck_assert_msg(c.nr_files == 1, "case %zu: %zu files", i, c.nr_files);
		ck_assert_msg(!strcmp(c.files[0].path, cases[i].path), "case %zu: \"%s\"", i,
			      c.files[0].path);
		sm_commit_release(&c);
	}
}
END_TEST

/* The [PATCH ...] tag grammar of the lists (rules/patch_subject.h), which
 * classify and harvest share. */
START_TEST(subject_forms)
{
	struct sm_patch_subject ps;

	ck_assert(sm_patch_subject_parse("[PATCH 4.4 012/100] usb: fix it", &ps));
	ck_assert_str_eq(ps.tree, "4.4");
	ck_assert_uint_eq(ps.nr, 12);
	ck_assert_uint_eq(ps.total, 100);
	ck_assert_str_eq(ps.title, "usb: fix it");
	ck_assert(!ps.is_cover && !ps.is_reply && !ps.autosel);

	ck_assert(sm_patch_subject_parse("[PATCH v3 2/7] mm: thing", &ps));
	ck_assert_uint_eq(ps.version, 3);
	ck_assert_uint_eq(ps.nr, 2);
	ck_assert_uint_eq(ps.total, 7);
	ck_assert_str_eq(ps.tree, "");

	ck_assert(sm_patch_subject_parse("[PATCH AUTOSEL 5.10 03/20] hwmon: x", &ps));
	ck_assert(ps.autosel);
	ck_assert_str_eq(ps.tree, "5.10");
	ck_assert_uint_eq(ps.nr, 3);

	/* AUTOSEL's one mail for the trees of a range, newest first */
	ck_assert(sm_patch_subject_parse("[PATCH AUTOSEL 7.0-6.18] hwmon: (pmbus/isl68137) Add", &ps));
	ck_assert(ps.autosel);
	ck_assert_str_eq(ps.tree, "6.18-7.0");
	ck_assert_str_eq(ps.title, "hwmon: (pmbus/isl68137) Add");
	ck_assert(sm_patch_subject_parse("[PATCH AUTOSEL 6.17-6.1] x: y", &ps));
	ck_assert_str_eq(ps.tree, "6.1-6.17");
	ck_assert(sm_patch_subject_parse("[PATCH 6.1-stable] x: y", &ps));
	ck_assert_str_eq(ps.tree, "6.1");
	ck_assert(sm_patch_subject_parse("[PATCH 6.1-rc3] x: y", &ps));
	ck_assert_str_eq(ps.tree, "");

	ck_assert(sm_patch_subject_parse("[PATCH 6.1.y] net: y", &ps));
	ck_assert_str_eq(ps.tree, "6.1");
	ck_assert_uint_eq(ps.total, 0);

	ck_assert(sm_patch_subject_parse("[PATCH 00/27 5.10.y] backports", &ps));
	ck_assert(ps.is_cover);
	ck_assert_str_eq(ps.tree, "5.10");
	ck_assert_uint_eq(ps.total, 27);

	ck_assert(sm_patch_subject_parse("[PATCH 5.15 00/23] 5.15.160-rc1 review", &ps));
	ck_assert(ps.is_cover);
	ck_assert_str_eq(ps.title, "5.15.160-rc1 review");

	ck_assert(sm_patch_subject_parse("[RFC PATCH net-next 0/3] rework", &ps));
	ck_assert(ps.rfc && ps.is_cover);

	ck_assert(sm_patch_subject_parse("[PATCH RESEND v2] fix", &ps));
	ck_assert(ps.resend);
	ck_assert_uint_eq(ps.version, 2);

	ck_assert(sm_patch_subject_parse("[PATCH 4.19 v1 1/2] hwmon: Introduce", &ps));
	ck_assert_str_eq(ps.tree, "4.19");
	ck_assert_uint_eq(ps.version, 1);
	ck_assert_uint_eq(ps.nr, 1);

	ck_assert(sm_patch_subject_parse("Re: [PATCH 6.6 128/567] hwmon: z", &ps));
	ck_assert(ps.is_reply);
	ck_assert_str_eq(ps.tree, "6.6");

	ck_assert(sm_patch_subject_parse("[PATCH 1 of 3] mercurial style", &ps));
	ck_assert_uint_eq(ps.nr, 1);
	ck_assert_uint_eq(ps.total, 3);

	ck_assert(sm_patch_subject_parse("[PATCH linux dev-6.11] openbmc", &ps));
	ck_assert_str_eq(ps.tree, "");

	/* a colon after the tag; a reply twice over, an [External] between */
	ck_assert(sm_patch_subject_parse("[Patch]: Fix ld pr11138 FAILures on mips*.", &ps));
	ck_assert_str_eq(ps.title, "Fix ld pr11138 FAILures on mips*.");
	ck_assert(sm_patch_subject_parse("Re: [External] Re: [PATCH linux dev-6.0 v3] pmbus: Add mp2971",
					 &ps));
	ck_assert(ps.is_reply);
	ck_assert_uint_eq(ps.version, 3);
	ck_assert_str_eq(ps.title, "pmbus: Add mp2971");
	ck_assert_uint_eq(ps.title_at, strlen("Re: [External] Re: [PATCH linux dev-6.0 v3] "));
	ck_assert(sm_patch_subject_parse("[PATCH-next] x: y", &ps));
	ck_assert(sm_patch_subject_parse("[PATCH 0 of 2] Sample Mercurial patches", &ps));
	ck_assert(ps.is_cover);
	ck_assert(sm_patch_subject_parse("[net,v2,0/2] a series", &ps));
	ck_assert(ps.is_cover);
	/* the kernel test robot numbers a branch's commits, not a series */
	ck_assert(!sm_patch_subject_parse("[groeck-staging:hwmon-next 77/79] drivers/hwmon/tps23861.c: "
					  "sparse: cast to restricted __le16", &ps));

	ck_assert(!sm_patch_subject_parse("FAILED: patch \"[PATCH] x\" failed to apply", &ps));
	ck_assert(!ps.is_notice);
	/* the stable scripts' notices about one patch and one tree: the
	 * patch's title and the tree, no [PATCH] mail of their own */
	ck_assert(!sm_patch_subject_parse("FAILED: patch \"[PATCH] hwmon: (lm90) Fix x\" failed to "
					  "apply to 6.1-stable tree", &ps));
	ck_assert_int_eq(ps.is_notice, SM_SUBJECT_FAILED);
	ck_assert(!ps.is_reply);
	ck_assert_str_eq(ps.title, "hwmon: (lm90) Fix x");
	ck_assert_str_eq(ps.tree, "6.1");
	ck_assert_uint_eq(ps.title_at, 0);
	ck_assert(!sm_patch_subject_parse("Re: FAILED: Patch \"hwmon: (max16065) Use READ/WRITE_ONCE "
					  "\"x\"\" failed to apply to 6.12-stable tree", &ps));
	ck_assert_int_eq(ps.is_notice, SM_SUBJECT_FAILED);
	ck_assert(ps.is_reply);
	ck_assert_str_eq(ps.title, "hwmon: (max16065) Use READ/WRITE_ONCE \"x\"");
	ck_assert_str_eq(ps.tree, "6.12");
	ck_assert_uint_eq(ps.title_at, strlen("Re: "));
	ck_assert(!sm_patch_subject_parse("Patch \"x: y\" has been added to the 5.15-stable tree", &ps));
	ck_assert_int_eq(ps.is_notice, SM_SUBJECT_QUEUED);
	ck_assert_str_eq(ps.title, "x: y");
	ck_assert_str_eq(ps.tree, "5.15");
	/* without the "FAILED:" in front, the words still say it */
	ck_assert(!sm_patch_subject_parse("patch \"x: \"failed to apply\"\" failed to apply to 5.4-stable tree", &ps));
	ck_assert_int_eq(ps.is_notice, SM_SUBJECT_FAILED);
	ck_assert_str_eq(ps.title, "x: \"failed to apply\"");
	ck_assert(!sm_patch_subject_parse("Patch \"x: fix \"failed to apply\" errors\" has been added to "
					  "the 6.6-stable tree", &ps));
	ck_assert_int_eq(ps.is_notice, SM_SUBJECT_QUEUED);
	ck_assert_str_eq(ps.title, "x: fix \"failed to apply\" errors");
	ck_assert(!sm_patch_subject_parse("patch \"x: y\" has been added to the next tree", &ps));
	ck_assert(!ps.is_notice);
	ck_assert_str_eq(ps.title, "patch \"x: y\" has been added to the next tree");
	ck_assert(!sm_patch_subject_parse("[GIT PULL] hwmon fixes", &ps));
	ck_assert(!sm_patch_subject_parse("Re: regression in 6.1", &ps));
}
END_TEST

/* A patch pasted whole into a mail, as git format-patch wrote it, is the
 * commit the mail is about: a stable FAILED notice's original, a reply
 * that ends with the patch it proposes. Not a quoted one, not a "From "
 * line without a mail's headers under it, and one level only. */
START_TEST(pasted_patches)
{
	static const char failed[] =
		"From: Sasha Levin <sashal@kernel.org>\n"
		"To: stable@vger.kernel.org\n"
		"Subject: FAILED: Patch \"hwmon: (max16065) Use READ/WRITE_ONCE to avoid compiler\n"
		" optimization induced race\" failed to apply to 6.12-stable tree\n"
		"Message-ID: <20260301012655.1684387-1-sashal@kernel.org>\n\n"
		"The patch below does not apply to the 6.12-stable tree.\n"
		"If someone wants it applied there, or to any other stable or longterm\n"
		"tree, then please email the backport.\n\nThanks,\nSasha\n\n"
		"------------------ original commit in Linus's tree ------------------\n\n"
		"From 007be4327e443d79c9dd9e56dc16c36f6395d208 Mon Sep 17 00:00:00 2001\n"
		"From: Gui-Dong Han <hanguidong02@gmail.com>\n"
		"Date: Tue, 3 Feb 2026 20:14:43 +0800\n"
		"Subject: [PATCH] hwmon: (max16065) Use READ/WRITE_ONCE to avoid compiler\n"
		" optimization induced race\n\n"
		"Simply copying shared data to a local variable cannot prevent data races.\n\n"
		"Fixes: f5bae2642e3d (\"hwmon: Driver for MAX16065 System Manager and compatibles\")\n"
		"Fixes: b8d5acdcf525 (\"hwmon: (max16065) Use local variable to avoid TOCTOU\")\n"
		"Cc: stable@vger.kernel.org\n"
		"Signed-off-by: Gui-Dong Han <hanguidong02@gmail.com>\n"
		"---\n drivers/hwmon/max16065.c | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n"
		"diff --git a/drivers/hwmon/max16065.c b/drivers/hwmon/max16065.c\n"
		"--- a/drivers/hwmon/max16065.c\n+++ b/drivers/hwmon/max16065.c\n"
		"@@ -1 +1 @@\n-\tint v = data->adc;\n+\tint v = READ_ONCE(data->adc);\n";
	static const char reply[] =
		"From: Roman Gushchin <roman.gushchin@linux.dev>\n"
		"Subject: Re: [linux-next:master] BUILD REGRESSION 6cc11d2a1759275b856e464265823d94aabd5eaf\n"
		"In-Reply-To: <62be3696.+PAAAVlbtWK6G2hk%lkp@intel.com>\n\n"
		"On Fri, Jul 01, 2022 at 07:49:42AM +0800, kbuild test robot wrote:\n"
		"> mm/vmscan.c:637:9: warning: function 'prealloc_shrinker' might be a candidate\n\n"
		"Shrinker-related warnings should be fixed by the following patch.\n\nThanks!\n\n--\n\n"
		"From c399aff65c7745a209397a531c5b28fd404d83c2 Mon Sep 17 00:00:00 2001\r\n"
		"From: Roman Gushchin <roman.gushchin@linux.dev>\n"
		"Date: Fri, 1 Jul 2022 17:38:31 -0700\n"
		"Subject: [PATCH] mm: shrinkers: fix build warnings\n\n"
		"Add __printf(a, b) attributes to shrinker functions.\n\n"
		"Signed-off-by: Roman Gushchin <roman.gushchin@linux.dev>\n---\n"
		"diff --git a/include/linux/shrinker.h b/include/linux/shrinker.h\n"
		"--- a/include/linux/shrinker.h\n+++ b/include/linux/shrinker.h\n"
		"@@ -1 +1 @@\n-int prealloc_shrinker(const char *fmt, ...);\n"
		"+__printf(1, 2) int prealloc_shrinker(const char *fmt, ...);\n";
	/* not pasted patches: a quoted one, a "From " line with prose under
	 * it, a "From " line that is prose */
	static const char *const not_pasted[] = {
		"> From 007be4327e443d79c9dd9e56dc16c36f6395d208 Mon Sep 17 00:00:00 2001\n"
		"> From: A <a@example.org>\n> Subject: [PATCH] x: y\n",
		"From 007be4327e443d79c9dd9e56dc16c36f6395d208 Mon Sep 17 00:00:00 2001\n"
		"was the line git wrote.\n",
		"From now on it reads the limit once:\n"
		"From: A <a@example.org>\nSubject: [PATCH] x: y\n\nBody.\n",
	};
	/* the stable queue's "added" notice: the patch as the queue saved its
	 * mail, an mbox "From " line of a sender and a time */
	static const char added[] =
		"From: Greg KH <gregkh@linuxfoundation.org>\n"
		"Subject: Patch \"f2fs: fix to avoid migrating empty section\" has been added to the\n"
		" 6.12-stable tree\n\n"
		"This is a note to let you know that I've just added the patch titled\n\n"
		"    f2fs: fix to avoid migrating empty section\n\n"
		"to the 6.12-stable tree which can be found at:\n\n\n"
		"From stable+bounces-223179-greg=kroah.com@vger.kernel.org Thu Mar  5 09:48:57 2026\n"
		"From: Robert Garcia <rob_garcia@163.com>\n"
		"Date: Thu,  5 Mar 2026 16:48:03 +0800\n"
		"Subject: f2fs: fix to avoid migrating empty section\n"
		"Message-ID: <20260305084803.210354-1-rob_garcia@163.com>\n\n"
		"From: Chao Yu <chao@kernel.org>\n\n"
		"[ Upstream commit d625a2b08c089397d3a03bff13fa8645e4ec7a01 ]\n\n"
		"It reports a bug from device w/ zufs.\n\n"
		"Fixes: 9703d69d9d15 (\"f2fs: support file pinning for zoned devices\")\n"
		"Signed-off-by: Chao Yu <chao@kernel.org>\n---\n"
		"--- a/fs/f2fs/gc.c\n+++ b/fs/f2fs/gc.c\n@@ -1805,6 +1805,7 @@ static int do_gc\n"
		" a\n b\n c\n+d\n e\n f\n g\n";
	struct sm_commit c;
	struct sm_verdict v;

	ck_assert_int_eq(sm_commit_parse(&c, failed, strlen(failed)), 0);
	ck_assert_str_eq(c.id, "007be4327e443d79c9dd9e56dc16c36f6395d208");
	ck_assert_str_eq(c.subject, "hwmon: (max16065) Use READ/WRITE_ONCE to avoid compiler "
			 "optimization induced race");
	ck_assert_str_eq(c.outer_subject, "FAILED: Patch \"hwmon: (max16065) Use READ/WRITE_ONCE to "
			 "avoid compiler optimization induced race\" failed to apply to 6.12-stable tree");
	ck_assert_str_eq(c.author, "Gui-Dong Han <hanguidong02@gmail.com>");
	ck_assert(c.is_mail && c.has_diff && !c.is_reply);
	ck_assert_uint_eq(c.nr_fixes, 2);
	ck_assert_uint_eq(c.nr_stable, 1);
	ck_assert_ptr_null(strstr(c.body, "Sasha"));
	ck_assert_ptr_null(c.upstream_sha);	/* the commit is the original */
	ck_assert_uint_eq(c.diff.added, 1);
	sm_classify(rules, &c, NULL, &v);
	ck_assert_int_eq(v.kind, SM_CANDIDATE);
	sm_verdict_release(&v);
	sm_commit_release(&c);

	ck_assert_int_eq(sm_commit_parse(&c, added, strlen(added)), 0);
	ck_assert_ptr_null(c.id);	/* a sender, not a commit, names the mbox line */
	ck_assert_str_eq(c.subject, "f2fs: fix to avoid migrating empty section");
	ck_assert_str_eq(c.author, "Chao Yu <chao@kernel.org>");
	ck_assert_str_eq(c.upstream_sha, "d625a2b08c089397d3a03bff13fa8645e4ec7a01");
	ck_assert_str_eq(c.outer_subject, "Patch \"f2fs: fix to avoid migrating empty section\" has "
			 "been added to the 6.12-stable tree");
	ck_assert(c.has_diff && c.diff.added == 1 && c.nr_fixes == 1);
	ck_assert_ptr_null(strstr(c.body, "note to let you know"));
	sm_commit_release(&c);

	ck_assert_int_eq(sm_commit_parse(&c, reply, strlen(reply)), 0);
	ck_assert_str_eq(c.id, "c399aff65c7745a209397a531c5b28fd404d83c2");
	ck_assert_str_eq(c.subject, "mm: shrinkers: fix build warnings");
	ck_assert_str_eq(c.outer_subject, "BUILD REGRESSION 6cc11d2a1759275b856e464265823d94aabd5eaf");
	ck_assert(!c.is_reply && c.has_diff);
	ck_assert_ptr_null(strstr(c.body, "following patch"));
	ck_assert_ptr_null(strstr(c.body, "prealloc_shrinker"));
	sm_commit_release(&c);

	for (size_t i = 0; i < ARRAY_SIZE(not_pasted); i++) {
		char *mail = xasprintf("From: B <b@example.org>\nSubject: Re: [PATCH] x: y\n\n%s\nThanks.\n",
				       not_pasted[i]);

		ck_assert_int_eq(sm_commit_parse(&c, mail, strlen(mail)), 0);
		ck_assert_msg(!c.outer_subject && !c.id && c.is_reply, "%s", not_pasted[i]);
		ck_assert_str_eq(c.subject, "x: y");
		sm_commit_release(&c);
		free(mail);
	}
	/* a format-patch file is its own commit; a patch pasted into a
	 * pasted patch stays in its body */
	{
		const char *inner = strstr(failed, "From 007be");
		char *twice = xasprintf("From: C <c@example.org>\nSubject: Fwd: it\n\nSee below.\n\n"
					"From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
					"From: D <d@example.org>\nSubject: [PATCH] a: b\n\nIt quotes:\n\n%s",
					inner);

		ck_assert_int_eq(sm_commit_parse(&c, inner, strlen(inner)), 0);
		ck_assert_ptr_null(c.outer_subject);
		ck_assert_str_eq(c.id, "007be4327e443d79c9dd9e56dc16c36f6395d208");
		sm_commit_release(&c);
		ck_assert_int_eq(sm_commit_parse(&c, twice, strlen(twice)), 0);
		ck_assert_str_eq(c.id, "1111111111111111111111111111111111111111");
		ck_assert_str_eq(c.subject, "a: b");
		ck_assert_str_eq(c.outer_subject, "it");
		ck_assert_ptr_nonnull(strstr(c.body, "From 007be"));
		sm_commit_release(&c);
		free(twice);
	}
}
END_TEST

/* A series' cover letter is no commit: "[PATCH ... 0/N]" in any form is
 * one (and format-patch's "From <id>" of it, the series' tip, is not its
 * id); the verdict is a veto. So is a pull request ([GIT PULL]) and a reply
 * without a diff; a reply with one (a revised patch inline) is judged. */
START_TEST(cover_letters_and_replies)
{
	static const struct {
		const char *subject;
		int cover, pull;
	} cases[] = {
		{ "[PATCH 0/2] hwmon: Add new pwmX_fan_channel attribute", 1, 0 },
		{ "[PATCH v3 RESEND 0/6] Add support for upcoming chips", 1, 0 },
		{ "[PATCH 6.1 000/150] 6.1.50-rc1 review", 1, 0 },
		{ "[RFC PATCH net-next 00/12] net: a series", 1, 0 },
		{ "[PATCH 0/1]", 1, 0 },
		{ "Re: [PATCH v2 0/3] x: y", 1, 0 },
		{ "[PATCH 10/20] x: fix a leak", 0, 0 },
		{ "[PATCH 1/2] x: fix a leak", 0, 0 },
		{ "[PATCH] x: handle a 0/1 ratio", 0, 0 },
		{ "[PATCH v2] x: 0/3 of them", 0, 0 },
		{ "[PATCH net 0/] x", 0, 0 },
		{ "[GIT PULL] hwmon fixes for v5.19-rc5", 0, 1 },
		{ "[git pull v2] x86/urgent fixes", 0, 1 },
		{ "[PULL REQUEST] i2c-for-6.1-rc5", 0, 1 },
		{ "Re: [GIT PULL] hwmon fixes for v5.19-rc5", 0, 1 },
		{ "[PATCH] pull: fix a leak in git_pull_fn", 0, 0 },
		{ "[PATCH 0 of 2] Sample Mercurial patches", 1, 0 },	/* hg email */
		{ "[PATCH 1 of 2] contrib: fix check-commit", 0, 0 },
		{ "[PATCH] x: 0 of them", 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *mail = xasprintf("From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
				       "From: A <a@b>\nSubject: %s\n\nThe series fixes a leak.\n",
				       cases[i].subject);
		struct sm_commit c;
		struct sm_verdict v;

		ck_assert_int_eq(sm_commit_parse(&c, mail, strlen(mail)), 0);
		ck_assert_msg(c.is_cover_letter == cases[i].cover, "%s", cases[i].subject);
		if (cases[i].cover)
			ck_assert_ptr_null(c.id);
		else
			ck_assert_str_eq(c.id, "1111111111111111111111111111111111111111");
		sm_classify(rules, &c, NULL, &v);
		ck_assert_int_eq(sm_verdict_has(&v, "cover-letter"), cases[i].cover);
		ck_assert_msg(!!sm_verdict_has(&v, "pull-request") == cases[i].pull, "%s",
			      cases[i].subject);
		if (cases[i].cover || cases[i].pull)
			ck_assert_int_eq(v.kind, SM_REJECT);
		sm_verdict_release(&v);
		sm_commit_release(&c);
		free(mail);
	}
	{
		static const char *const replies[] = {
			"From: A <a@b>\nSubject: Re: [PATCH] net: fix a leak\n\n> It leaks.\nReviewed-by: B <b@c>\n",
			"From: A <a@b>\nSubject: AW: [PATCH] net: fix a leak\n\nThanks.\n",
			"From: A <a@b>\nSubject: Fwd: [PATCH] net: fix a leak\n\nFor you.\n",
			"From: A <a@b>\nSubject: Re: [PATCH] net: fix a leak\n\nLike this:\n\n---\n"
			"diff --git a/x.c b/x.c\n@@ -1 +1,2 @@\n a\n+\tkfree(p);\n",
		};

		for (size_t i = 0; i < ARRAY_SIZE(replies); i++) {
			struct sm_commit c;
			struct sm_verdict v;
			int vetoed = i < 3;

			ck_assert_int_eq(sm_commit_parse(&c, replies[i], strlen(replies[i])), 0);
			ck_assert(c.is_reply);
			ck_assert_str_eq(c.subject, "net: fix a leak");
			sm_classify(rules, &c, NULL, &v);
			ck_assert_msg(sm_verdict_has(&v, "reply") == vetoed, "%s", replies[i]);
			if (vetoed)
				ck_assert_int_eq(v.kind, SM_REJECT);
			sm_verdict_release(&v);
			sm_commit_release(&c);
		}
	}
}
END_TEST

/* A mail that carries no change (no diff, no [PATCH] tag, no sign-off) is
 * a report or a conversation: a build robot's "BUILD REGRESSION", a
 * static checker's bug report, spam. Its words may say "use after free";
 * there is still nothing to take. A CVE announcement, a commit mailed
 * without the tag, a patch without its diff and a bare message are not
 * such mails. */
START_TEST(mails_that_carry_no_patch)
{
	static const struct {
		const char *text;
		int vetoed;
	} cases[] = {
		{ "From: kernel test robot <lkp@intel.com>\n"
		  "Subject: [linux-next:master] BUILD REGRESSION 088b9c375534d905a4d337c78db3b3bfbb52c4a0\n\n"
		  "tree/branch: https://git.kernel.org/pub/scm/linux/kernel/git/next/linux-next.git master\n\n"
		  "Error/Warning reports:\n\n"
		  "drivers/gpu/drm/amd/display/dc/core/dc.c:1234:5: warning: variable 'x' set but not used\n"
		  "possible NULL pointer dereference, use-after-free in the error path\n", 1 },
		{ "From: Dan Carpenter <dan.carpenter@oracle.com>\n"
		  "Subject: [bug report] sfp: add SFP module support\n\n"
		  "Hi Russell,\n\nThe patch 73970055450e: \"sfp: add SFP module support\" from Jul 25,\n"
		  "2017, leads to the following Smatch static checker warnings:\n\n"
		  "drivers/net/phy/sfp.c:474 sfp_soft_get_state() warn: passing zero to 'ERR_PTR'\n", 1 },
		{ "From: Mrs A <a@example.com>\nSubject: ATTENTION PLEASE,\n\n"
		  "I will release the funds to you. Reply for details.\n", 1 },
		{ "From: A <a@b>\nSubject:\nIn-Reply-To: <x@y>\n\nFailures: none, thanks\n", 1 },
		/* kept: */
		{ "From: Greg Kroah-Hartman <gregkh@kernel.org>\n"
		  "Subject: CVE-2024-14027: xattr: switch to CLASS(fd)\n\n"
		  "In the Linux kernel, the following vulnerability has been resolved:\n\n"
		  "fs/xattr: missing fdput() in fremovexattr error path\n\n"
		  "It leaks one file reference per call.\n", 0 },
		{ "From: A <a@b>\nSubject: ALSA: timer: Fix leak in SNDRV_TIMER_IOCTL_PARAMS\n\n"
		  "The stack object tread has a leak.\n\nSigned-off-by: A <a@b>\n", 0 },
		{ "From: A <a@b>\nSubject: x: fix a leak\n\nLike this.\n---\n"
		  "diff --git a/x.c b/x.c\n@@ -1 +1,2 @@\n a\n+\tkfree(p);\n", 0 },
		{ "From: A <a@b>\nSubject: [PATCH] x: fix a leak\n\nThe diff is attached.\n", 0 },
		{ "x: fix a leak\n\nThe object leaks on the error path.\n", 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sm_commit c;
		struct sm_verdict v;

		ck_assert_int_eq(sm_commit_parse(&c, cases[i].text, strlen(cases[i].text)), 0);
		sm_classify(rules, &c, NULL, &v);
		ck_assert_msg(sm_verdict_has(&v, "not-a-patch") == cases[i].vetoed, "case %zu", i);
		if (cases[i].vetoed)
			ck_assert_int_eq(v.kind, SM_REJECT);
		else
			ck_assert_int_ne(v.kind, SM_REJECT);
		sm_verdict_release(&v);
		sm_commit_release(&c);
	}
}
END_TEST

/* Mails as other tools and servers write them (patchwork's test mails):
 * an mbox message whose "From " line was split off starts with its
 * server's Delivered-To:; Mercurial and old mailers put a colon after the
 * tag; DaveM's pull requests say "[GIT]" and only their text, git
 * request-pull's, says what they are; a reply may lack its "Re:". A bare
 * message is still no mail. */
START_TEST(mail_headers_other_tools_write)
{
	static const char delivered[] =
		"Delivered-To: dja@axtens.net\n"
		"Received: by 2002:a4a:2812:0:0:0:0:0 with SMTP id h18csp2242ooa;\n"
		"        Wed, 27 Feb 2019 16:37:59 -0800 (PST)\n"
		"From: Andrew Donnellan <andrew.donnellan@au1.ibm.com>\n"
		"Subject: [snowpatch] [PATCH 1/3] Test commit; please ignore\n"
		"Content-Language: en-AU\n\n"
		"Doing some snowpatching.\n";
	static const char colon[] =
		"From: A <a@b>\nSubject: [Patch]: Fix ld pr11138 FAILures on mips*.\n\nThe test fails.\n";
	static const char pull[] =
		"Subject: [GIT] Networking\nFrom:   David Miller <davem@davemloft.net>\n\n"
		"1) Don't leak when removing VLAN ID 0, from Cong Wang.\n\n"
		"Please pull, thanks a lot.\n\n"
		"The following changes since commit ef7f8cec80a0ba7bd00ece46844c8994117dc910:\n\n"
		"  Merge git://git.kernel.org/pub/scm/linux/kernel/git/davem/net (2018-01-08 20:21:39 -0800)\n\n"
		"are available in the Git repository at:\n\n"
		"  git://git.kernel.org/pub/scm/linux/kernel/git/davem/net.git \n";
	static const char bare[] =
		"ALSA: timer: Fix leak\nFrom: the stack object\n\nThe padding leaks.\n";
	/* folded with a tab (the list corpus's 2010 LKML mail), a blank
	 * before the fold too */
	static const char folded[] =
		"From: Stefan Schmidt <stefan@datenfreihafen.org>\n"
		"Subject: [notmuch] [PATCH 1/2] lib/message: Add function to get maildir\n"
		"\tflags.\n\nWith notmuch_message_get_flags().\n";
	static const char folded_after_blank[] = "From: A <a@b>\nSubject: [PATCH] x: a \n   b\n\nc\n";
	struct sm_commit c;
	struct sm_verdict v;

	ck_assert_int_eq(sm_commit_parse(&c, folded, strlen(folded)), 0);
	ck_assert_str_eq(c.subject, "lib/message: Add function to get maildir flags.");
	sm_commit_release(&c);
	ck_assert_int_eq(sm_commit_parse(&c, folded_after_blank, strlen(folded_after_blank)), 0);
	ck_assert_str_eq(c.subject, "x: a b");
	sm_commit_release(&c);

	ck_assert_int_eq(sm_commit_parse(&c, delivered, strlen(delivered)), 0);
	ck_assert_str_eq(c.subject, "Test commit; please ignore");
	ck_assert_str_eq(c.author, "Andrew Donnellan <andrew.donnellan@au1.ibm.com>");
	ck_assert(c.is_mail && c.has_patch_tag);
	ck_assert_str_eq(c.body, "Doing some snowpatching.\n");
	sm_commit_release(&c);

	ck_assert_int_eq(sm_commit_parse(&c, colon, strlen(colon)), 0);
	ck_assert_str_eq(c.subject, "Fix ld pr11138 FAILures on mips*.");
	ck_assert(c.has_patch_tag);
	sm_commit_release(&c);

	ck_assert_int_eq(sm_commit_parse(&c, pull, strlen(pull)), 0);
	ck_assert_str_eq(c.subject, "Networking");
	ck_assert(c.is_pull_request);
	sm_classify(rules, &c, NULL, &v);
	ck_assert(sm_verdict_has(&v, "pull-request"));
	ck_assert_int_eq(v.kind, SM_REJECT);
	sm_verdict_release(&v);
	sm_commit_release(&c);

	ck_assert_int_eq(sm_commit_parse(&c, bare, strlen(bare)), 0);
	ck_assert_str_eq(c.subject, "ALSA: timer: Fix leak From: the stack object");
	ck_assert(!c.is_mail && !c.author);
	sm_commit_release(&c);

	/* One mail as an mbox holds it, from other tools (the patchwork
	 * corpus): its "From SENDER DATE" line opens the headers, whatever
	 * header comes first; a message that begins "From now on" is prose */
	{
		static const char *const from_lines[] = {
			"From mboxrd@z Thu Jan  1 00:00:00 1970\nTo: soc@kernel.org\n",
			"From patchwork Wed Jun  1 20:00:54 2016\nContent-Type: text/plain\n",
			"From linux-kbuild  Sun Apr 07 23:09:09 2019\n",
			"From 5555555555555555555555555555555555555555 Mon Sep 17 00:00:00 2001\n",
			"From 5555555555555555555555555555555555555555\n",
		};

		for (size_t i = 0; i < ARRAY_SIZE(from_lines); i++) {
			char *mail = xasprintf("%sFrom: Petr Vorel <pvorel@suse.cz>\n"
					       "Subject: [PATCH 1/1] kconfig: Make nconf-cfg.sh executable\n"
					       "\nLet's be consistent.\n", from_lines[i]);

			ck_assert_int_eq(sm_commit_parse(&c, mail, strlen(mail)), 0);
			ck_assert_str_eq(c.subject, "kconfig: Make nconf-cfg.sh executable");
			ck_assert_str_eq(c.author, "Petr Vorel <pvorel@suse.cz>");
			ck_assert_msg(i >= 3 ? c.id && !strcmp(c.id, "5555555555555555555555555555555555555555")
					     : !c.id, "case %zu", i);
			sm_commit_release(&c);
			free(mail);
		}
		/* no subject: a patch takes its first paragraph, as git am does
		 * (patchwork's 0016-no-subject.mbox); a reply ("Re:" alone, the
		 * tegra list's 6.15.10-rc1 thread) has none */
		static const char no_subject[] = "From: A <a@b>\nSubject:\n\nRename patches.\n\n"
						 "Signed-off-by: A <a@b>\n";
		static const char re_only[] = "From: J <j@n>\nSubject: Re:\nIn-Reply-To: <x@y>\n\n"
					      "On 14/08/2025 16:36, Greg KH wrote:\n> I've now dropped this.\n\n"
					      "Yes that is causing the test failure.\n";

		ck_assert_int_eq(sm_commit_parse(&c, no_subject, strlen(no_subject)), 0);
		ck_assert_str_eq(c.subject, "Rename patches.");
		sm_commit_release(&c);
		ck_assert_int_eq(sm_commit_parse(&c, re_only, strlen(re_only)), 0);
		ck_assert_str_eq(c.subject, "");
		ck_assert(c.is_reply);
		ck_assert(starts_with(c.body, "On 14/08/2025 16:36, Greg KH wrote:\n"));
		sm_commit_release(&c);

		static const char prose[] = "From now on, the timer is armed once at probe time.\n\n"
					    "It was armed twice.\n";

		ck_assert_int_eq(sm_commit_parse(&c, prose, strlen(prose)), 0);
		ck_assert_str_eq(c.subject, "From now on, the timer is armed once at probe time.");
		sm_commit_release(&c);
	}

	/* b4's "nore" follow-up: a review whose mailer dropped the "Re:" is
	 * a reply; the series' next patch, threaded the same way, is not */
	for (int i = 0; i < 2; i++) {
		char *mail = xasprintf("From: Followup Reviewer1 <r@example.com>\n"
				       "Subject: [PATCH 2/2] net: fix a leak\n"
				       "In-Reply-To: <orig-message@example.com>\n\n%s",
				       i == 0 ? "> This is a simple trailer parsing test.\n\n"
						"Reviewed-by: Followup Reviewer1 <r@example.com>\n"
					      : "> quoted\n\nSigned-off-by: A <a@b>\n---\n"
						"diff --git a/x.c b/x.c\n@@ -1 +1,2 @@\n a\n+\tkfree(p);\n");

		ck_assert_int_eq(sm_commit_parse(&c, mail, strlen(mail)), 0);
		ck_assert_int_eq(c.is_reply, i == 0);
		sm_classify(rules, &c, NULL, &v);
		ck_assert_int_eq(sm_verdict_has(&v, "reply"), i == 0);
		sm_verdict_release(&v);
		sm_commit_release(&c);
		free(mail);
	}
}
END_TEST

struct log_commits {
	struct strbuf all;	/* "n:size:first line|" or "n:size:too big|" each */
};

static int collect_commit(const char *text, size_t len, unsigned n, int too_big, void *ctx)
{
	struct log_commits *lc = ctx;

	if (too_big) {
		ck_assert_ptr_null(text);
		strbuf_addf(&lc->all, "%u:%zu:too big|", n, len);
	} else {
		strbuf_addf(&lc->all, "%u:%zu:%.*s|", n, len, (int)strcspn(text, "\n"), text);
	}
	return 0;
}

static int collect_text(const char *text, size_t len, unsigned n, int too_big, void *ctx)
{
	struct log_commits *lc = ctx;

	(void)n;
	ck_assert(!too_big);
	strbuf_add(&lc->all, text, len);
	return 0;
}

/* `git log` output split at its "commit <id>" lines and nowhere else: not
 * at an indented one in a message, a "+commit" line of a diff, a short id */
START_TEST(git_log_split)
{
	static const char log[] =
		"\n"
		"commit 1111111111111111111111111111111111111111 (HEAD -> master, tag: v1)\n"
		"Author: A <a@b>\n\n"
		"    x: fix a leak\n\n"
		"    commit 2222222222222222222222222222222222222222 upstream.\n\n"
		"diff --git a/x.c b/x.c\n@@ -1 +1 @@\n"
		"-commit 3333333333333333333333333333333333333333\n"
		"+commit 4444444444444444444444444444444444444444\n"
		"commit 555\n"
		"commit 5555555x\n"
		"commit 6666666666666666666666666666666666666666\n"
		"Merge: 1111111 5555555\n\n"
		"    Merge branch 'x'\n"
		"commit 777777777777777777777777777777777777777g\n"
		"commit 5555555 (tag: v0)\n"	/* --abbrev-commit, log.abbrevCommit */
		"Author: A <a@b>\n\n"
		"    x: fix a crash\n"
		"commit 8888888888888888888888888888888888888888";
	struct log_commits lc = { STRBUF_INIT };
	/* each commit's size: from its line to the next one's (the last gets
	 * the '\n' its line lacks) */
	size_t one = (size_t)(strstr(log, "commit 6666") - strstr(log, "commit 1111"));
	size_t two = (size_t)(strstr(log, "commit 5555555 (") - strstr(log, "commit 6666"));
	size_t three = (size_t)(strstr(log, "commit 8888") - strstr(log, "commit 5555555 ("));
	char *want = xasprintf("1:%zu:commit 1111111111111111111111111111111111111111 "
			       "(HEAD -> master, tag: v1)|2:%zu:commit "
			       "6666666666666666666666666666666666666666|3:%zu:commit 5555555 (tag: v0)|"
			       "4:48:commit 8888888888888888888888888888888888888888|", one, two, three);
	char *want_cut = xasprintf("1:%zu:too big|2:%zu:commit "
				   "6666666666666666666666666666666666666666|3:%zu:commit 5555555 (tag: v0)|"
				   "4:48:commit 8888888888888888888888888888888888888888|", one, two, three);

	ck_assert(sm_gitlog_is_header("commit 8888888888888888888888888888888888888888", 47));
	ck_assert(!sm_gitlog_is_header("commit 8888888888888888888888888888888888888888x", 48));
	ck_assert(!sm_gitlog_is_header("commit 88888888888888888888888888888888888888880", 48));
	ck_assert(!sm_gitlog_is_header("    commit 8888888888888888888888888888888888888888", 51));
	ck_assert(sm_gitlog_is_header("commit 8888888888888888888888888888888888888888\r", 48));
	ck_assert(sm_gitlog_is_header("commit 8888", 11));
	ck_assert(sm_gitlog_is_header("commit 8888888\r", 15));
	ck_assert(!sm_gitlog_is_header("commit 888", 10));
	ck_assert(!sm_gitlog_is_header("commit 8888888G", 15));
#define MESSAGELESS(s) sm_gitlog_messageless(s, strlen(s))
#define IS(s, what) ck_assert_ptr_nonnull(strstr(MESSAGELESS(s), what))
	IS("1a2b3c4 net: fix x", "`git log --oneline`");
	IS("1a2b3c4 (HEAD -> master) net: fix x", "`git log --oneline`");
	IS("* commit 8888888888888888888888888888888888888888", "`git log --graph`");
	IS("*   1a2b3c4 Merge branch 'x'", "`git log --graph`");
	IS("+ 8888888888888888888888888888888888888888 net: fix x", "`git cherry`");
	IS("- 8888888888888888888888888888888888888888", "`git cherry`");
	IS("8888888888888888888888888888888888888888", "`git rev-list`");
	IS("1a2b3c4\r", "`git rev-list`");
	ck_assert_ptr_null(MESSAGELESS("defaced the docs"));	/* no digit: a word */
	ck_assert_ptr_null(MESSAGELESS("deadbeef"));
	ck_assert_ptr_null(MESSAGELESS("e1000e: fix a leak"));
	ck_assert_ptr_null(MESSAGELESS("1a2b3c4x"));
	ck_assert_ptr_null(MESSAGELESS("* a list item"));
	ck_assert_ptr_null(MESSAGELESS("- a list item"));
	ck_assert_ptr_null(MESSAGELESS("commit 8888888888888888888888888888888888888888"));
#undef IS
#define STARTS(s) sm_json_records_start(s, strlen(s))
	ck_assert(STARTS("[\n  {\"subject\": \"x\"}\n]"));
	ck_assert(STARTS("  {\"subject\": \"x\"}"));
	ck_assert(STARTS("{\r\n"));
	ck_assert(STARTS("[ ]"));
	ck_assert(STARTS("[[{}]]"));
	ck_assert(!STARTS("[PATCH] net: fix a leak"));
	ck_assert(!STARTS("[net] fix a leak"));
	ck_assert(!STARTS("{foo}: fix"));
	ck_assert(!STARTS("net: fix"));
#undef STARTS
#undef MESSAGELESS
	ck_assert_int_eq(sm_gitlog_split(log, strlen(log), 1 << 20, collect_commit, &lc), 0);
	ck_assert_str_eq(lc.all.buf, want);
	/* over the cap: named with its size, not kept; the next one is */
	strbuf_reset(&lc.all);
	ck_assert_int_eq(sm_gitlog_split(log, strlen(log), 200, collect_commit, &lc), 0);
	ck_assert_str_eq(lc.all.buf, want_cut);
	/* `git log -z --numstat`: NULs end the lines and the commits; a
	 * rename's two paths are NUL-ended fields of their own */
	{
		static const char z[] = "commit 8888888888888888888888888888888888888888\n\n    a: b\n\n"
					"3\t1\tx.c\0" "28\t15\t\0old/y.c\0new/y.c\0-\t-\tz.bin\0"
					"\0commit 9999999999999999999999999999999999999999\n\n    c: d\n";
		struct sm_commit c;

		strbuf_reset(&lc.all);
		ck_assert_int_eq(sm_gitlog_split(z, sizeof(z) - 1, 1 << 20, collect_text, &lc), 0);
		ck_assert_msg(strstr(lc.all.buf, "3\t1\tx.c\n28\t15\told/y.c => new/y.c\n-\t-\tz.bin\n"),
			      "%s", lc.all.buf);
		ck_assert_msg(strstr(lc.all.buf, "\ncommit 9999"), "%s", lc.all.buf);
		ck_assert_ptr_null(memchr(lc.all.buf, '\0', lc.all.len));
		/* the first commit alone */
		ck_assert_int_eq(sm_commit_parse(&c, lc.all.buf,
						 (size_t)(strstr(lc.all.buf, "\ncommit 9999") + 1 - lc.all.buf)), 0);
		ck_assert_int_eq(c.nr_files, 3);
		ck_assert_str_eq(c.files[1].path, "new/y.c");
		sm_commit_release(&c);
	}
	strbuf_release(&lc.all);
	free(want);
	free(want_cut);
}
END_TEST

struct names {
	struct strbuf all;
	unsigned n;
};

static void collect(void *ctx, const char *name, size_t len, uint64_t hash, const char *detail)
{
	struct names *nm = ctx;

	ck_assert(hash == sm_feature_hash(name, len));
	strbuf_add(&nm->all, name, len);
	strbuf_addch(&nm->all, '\n');
	nm->n++;
}

/* A diff saved with CRLF line ends reads as with LF: its empty context
 * line ("\r" alone) once ended the hunk, and the lines after it were not
 * counted; the header's path kept the "\r". */
START_TEST(crlf_diff_reads_as_lf)
{
	static const char lf[] = "x: fix a leak\n\n---\ndiff --git a/x.c b/x.c\n"
				 "--- a/x.c\n+++ b/x.c\n@@ -1,3 +1,4 @@\n a\n\n-b\n+c\n+\tkfree(p);\n";
	struct strbuf crlf = STRBUF_INIT;
	struct sm_commit a, b;

	for (const char *p = lf; *p; p++) {
		if (*p == '\n')
			strbuf_addch(&crlf, '\r');
		strbuf_addch(&crlf, *p);
	}
	ck_assert_int_eq(sm_commit_parse(&a, lf, strlen(lf)), 0);
	ck_assert_int_eq(sm_commit_parse(&b, crlf.buf, crlf.len), 0);
	ck_assert_uint_eq(a.diff.added, 2);
	ck_assert_uint_eq(b.diff.added, a.diff.added);
	ck_assert_uint_eq(b.diff.removed, a.diff.removed);
	ck_assert_uint_eq(b.diff.code_lines_changed, a.diff.code_lines_changed);
	ck_assert_int_eq(b.nr_files, 1);
	ck_assert_str_eq(b.files[0].path, "x.c");
	sm_commit_release(&a);
	sm_commit_release(&b);
	strbuf_release(&crlf);
}
END_TEST

/* --stat cuts a long path's head to ".../": no "diff:top:..." made up */
START_TEST(stat_cut_path_has_no_directory)
{
	const char *text = "x86: fix a leak\n\n"
			   " .../very/long/directory/that/goes/on/file_with_a_long_name.c | 1 +\n"
			   " arch/x86/kernel/a.c                                            | 2 +-\n"
			   " 2 files changed, 2 insertions(+), 1 deletion(-)\n";
	struct names nm = { STRBUF_INIT, 0 };
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	ck_assert_int_eq(c.nr_files, 2);
	sm_features_extract(rules, &c, collect, &nm);
	ck_assert_msg(strstr(nm.all.buf, "\ndiff:top:arch\n"), "%s", nm.all.buf);
	ck_assert_msg(strstr(nm.all.buf, "\ndiff:files:2\n"), "%s", nm.all.buf);
	ck_assert_msg(!strstr(nm.all.buf, "diff:top:...") && !strstr(nm.all.buf, "diff:dir:..."),
		      "%s", nm.all.buf);
	strbuf_release(&nm.all);
	sm_commit_release(&c);
}
END_TEST

/* `git log --shortstat`: the summary line alone says how many files */
START_TEST(shortstat_counts_the_files)
{
	const char *text = "commit 0123456789abcdef0123456789abcdef01234567\n"
			   "Author: Jane Dev <jane@example.org>\n"
			   "\n"
			   "    x86: rework the entry code\n"
			   "\n"
			   " 11 files changed, 157 insertions(+), 155 deletions(-)\n";
	struct names nm = { STRBUF_INIT, 0 };
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	ck_assert(c.has_diff && c.diff.from_stat);
	ck_assert_int_eq(c.nr_files, 0);
	ck_assert_uint_eq(c.diff.files, 11);
	ck_assert_uint_eq(c.diff.added, 157);
	ck_assert_uint_eq(c.diff.removed, 155);
	sm_features_extract(rules, &c, collect, &nm);
	ck_assert_msg(strstr(nm.all.buf, "\ndiff:files:6+\n"), "%s", nm.all.buf);
	ck_assert_msg(strstr(nm.all.buf, "\ntoo-large\n"), "%s", nm.all.buf);
	strbuf_release(&nm.all);
	sm_commit_release(&c);
}
END_TEST

/* With a known set (what a model weighs), the features in it come in the
 * same order and nothing else: every third feature of all (one per line)
 * goes in the set, and exactly the names whose bit it sets come out. */
static void known_features_are_a_subsequence(const struct sm_commit *c, const struct names *all)
{
	uint64_t known[SM_FEATURE_FILTER_BITS / 64] = { 0 };
	struct names got = { STRBUF_INIT, 0 };
	struct strbuf want = STRBUF_INIT;
	unsigned i = 0, in = 0;

	for (const char *p = all->all.buf, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1, i++) {
		if (i % 3 == 0)
			sm_feature_filter_add(known, sm_feature_hash(p, (size_t)(nl - p)));
	}
	for (const char *p = all->all.buf, *nl; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		if (sm_feature_filter_has(known, sm_feature_hash(p, (size_t)(nl - p)))) {
			strbuf_add(&want, p, (size_t)(nl + 1 - p));
			in++;
		}
	}
	ck_assert_uint_ge(in, all->n / 3);
	ck_assert_uint_lt(in, all->n);
	sm_features_extract_known(rules, c, known, 0, collect, &got);
	ck_assert_str_eq(got.all.buf, want.buf);
	strbuf_release(&got.all);
	strbuf_release(&want);
}

START_TEST(features_of_a_commit)
{
	const char *text =
		"commit 0123456789abcdef0123456789abcdef01234567\n"
		"Author: Jane Dev <jane@example.org>\n"
		"\n"
		"    hwmon: (pmbus) Fix a NULL pointer dereference on probe\n"
		"    \n"
		"    The client data is used before it is set. Don't use it.\n"
		"    \n"
		"      BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		"      RIP: 0010:pmbus_probe+0x10/0x20\n"
		"      Call Trace:\n"
		"       <TASK>\n"
		"    \n"
		"    Fixes: abcdefabcdef (\"hwmon: (pmbus) Add driver\")\n"
		"    Reported-by: syzbot+1234@syzkaller.appspotmail.com\n"
		"    Cc: stable@vger.kernel.org # v5.4+\n"
		"    Signed-off-by: Jane Dev <jane@example.org>\n"
		"\n"
		"diff --git a/drivers/hwmon/pmbus/x.c b/drivers/hwmon/pmbus/x.c\n"
		"--- a/drivers/hwmon/pmbus/x.c\n"
		"+++ b/drivers/hwmon/pmbus/x.c\n"
		"@@ -1,2 +1,3 @@\n"
		"+\tif (!data)\n"
		"+\t\treturn -ENODEV;\n";
	static const char *const want[] = {
		"stable-tag", "stable-tag:range", "fixes-tag", "reported-by:syzbot",
		"keyword:null-deref", "subject-keyword:null-deref", "prefix:hwmon: (pmbus)",
		"prefix1:hwmon", "s:fix", "s2:pointer dereference", "b:don't", "b2:client data",
		"author:jane@example.org", "author-domain:example.org", "diff:top:drivers",
		"diff:dir:drivers/hwmon", "diff:added-check", "diff:added-error-return",
		"tiny-diff", "diff:text", "body:quoted-code", "body:log", "trailer:fixes",
	};
	static const char *const not_want[] = { "b:rip", "b:0010", "b:signed", "s:hwmon", "b:abcdefabcdef",
						"b:fixes", "b:syzbot", "b:bug" };
	struct names nm = { STRBUF_INIT, 0 }, again = { STRBUF_INIT, 0 };
	struct sm_commit c;

	ck_assert_int_eq(sm_commit_parse(&c, text, strlen(text)), 0);
	sm_features_extract(rules, &c, collect, &nm);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *line = xasprintf("\n%s\n", want[i]);

		ck_assert_msg(strstr(nm.all.buf, line) || !strncmp(nm.all.buf, line + 1, strlen(line + 1)),
			      "feature %s missing from:\n%s", want[i], nm.all.buf);
		free(line);
	}
	for (size_t i = 0; i < sizeof(not_want) / sizeof(not_want[0]); i++) {
		char *line = xasprintf("\n%s\n", not_want[i]);

		ck_assert_msg(!strstr(nm.all.buf, line), "unexpected feature %s", not_want[i]);
		free(line);
	}
	/* each name once, the same every time */
	sm_features_extract(rules, &c, collect, &again);
	ck_assert_str_eq(nm.all.buf, again.all.buf);
	known_features_are_a_subsequence(&c, &nm);
	strbuf_release(&nm.all);
	strbuf_release(&again.all);
	sm_commit_release(&c);
}
END_TEST

static char *rules_dir_with_model(const char *model)
{
	char *dir = make_temp_dir("sm-model");
	static const char *const names[] = { "keywords.rules", "authors.rules", "thresholds.rules" };

	ck_assert_ptr_nonnull(dir);
	for (size_t i = 0; i < 3; i++) {
		struct strbuf sb = STRBUF_INIT;
		char *src = xasprintf("%s/%s", srcdir_path("rules"), names[i]);
		char *dst = xasprintf("%s/%s", dir, names[i]);

		ck_assert(read_file(src, &sb) == 0);
		ck_assert(write_file_atomic(dst, sb.buf, sb.len) == 0);
		strbuf_release(&sb);
		free(src);
		free(dst);
	}
	if (model)
		write_rules_file(dir, "model.rules", model);
	return dir;
}

/* A Fixes: line with a short id or an unquoted subject (36 of the tip
 * set's, 23 of them stable) still names the commit it fixes: fixes-tag,
 * and fixes-malformed beside it for the form; one with no id is only
 * malformed. The hand rules weigh them the same way. */
START_TEST(fixes_with_a_short_id_is_a_fix)
{
	static const struct {
		const char *line;
		int tag, malformed;
	} cases[] = {
		{ "Fixes: 1c6b39ad3f01 (\"alarmtimers: Return -ENOTSUPP\")", 1, 0 },
		{ "Fixes: bae3a8d3308 (\"x86/apic: Do not initialize LDR and DFR for bigsmp\")", 1, 1 },
		{ "Fixes: 1c6b39ad3f01 (alarmtimers: Return -ENOTSUPP if no RTC device is present)", 1, 1 },
		{ "Fixes: b89997aa88f0b sched/pelt: Fix task util_est update filtering", 1, 1 },
		{ "Fixes: ce99091 (\"perf tools: Move strlcpy() from perf\")", 1, 1 },
		{ "Fixes: 371bf42 (\"sched/rt: Add rt_rq utilization tracking\")", 1, 1 },
		{ "Fixes: 3727e0 (\"sched/dl: Add dl_rq utilization tracking\")", 0, 1 },
		{ "Fixes: Yet another hardware trainwreck", 0, 1 },
	};

	char *dir = rules_dir_with_model(NULL);	/* the hand rules alone */
	struct sm_rules *hand = NULL;

	ck_assert_msg(sm_rules_load(&hand, dir) == 0, "%s", sm_last_error());
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text = xasprintf("x: fix a race\n\nThe lock is dropped too early.\n\n%s\n"
				       "Signed-off-by: A <a@b>\n", cases[i].line);
		struct names nm = { STRBUF_INIT, 0 };
		struct sm_commit c;
		struct sm_verdict v;

		ck_assert_int_eq(sm_commit_parse_message(&c, text, strlen(text)), 0);
		ck_assert_int_eq(c.nr_fixes, 1);
		sm_features_extract(rules, &c, collect, &nm);
		ck_assert_msg(!!strstr(nm.all.buf, "fixes-tag\n") == cases[i].tag, "%s", cases[i].line);
		ck_assert_msg(!!strstr(nm.all.buf, "fixes-malformed\n") == cases[i].malformed, "%s",
			      cases[i].line);
		sm_classify(hand, &c, NULL, &v);
		ck_assert_msg(!!sm_verdict_has(&v, "fixes-tag") == cases[i].tag, "%s", cases[i].line);
		sm_verdict_release(&v);
		strbuf_release(&nm.all);
		sm_commit_release(&c);
		free(text);
	}
	sm_rules_free(hand);
	remove_tree(dir);
	free(dir);
}
END_TEST


/* A feature whose weight rounds to +0 is not listed (it says nothing), and
 * so a hand rule's note of the same code (stable-prereq's "apply X first")
 * is listed once; the weights still add up to the score. */
START_TEST(model_lists_no_zero_weights)
{
	const char *model =
		"format stablemate-model 1\n"
		"bias -2.0\n"
		"candidate 0.5\n"
		"maybe 0.2\n"
		"weight 2.5 stable-tag\n"
		"weight 0.001 stable-prereq\n"
		"weight 0.004 s:in\n"
		"weight 0.3 s:leak\n";
	char *dir = rules_dir_with_model(model);
	struct sm_rules *r = NULL;
	struct sm_commit c;
	struct sm_verdict v;
	const char *msg = "net: fix leak in open\n\nIt leaks.\n\n"
			  "Cc: stable@vger.kernel.org # 5.10+: abcdef123456: net: add a helper\n"
			  "Cc: stable@vger.kernel.org # 5.10+\n";
	int sum = 0, prereqs = 0;

	ck_assert_msg(sm_rules_load(&r, dir) == 0, "%s", sm_last_error());
	sm_commit_parse(&c, msg, strlen(msg));
	sm_classify(r, &c, NULL, &v);
	for (size_t i = 0; i < v.nr_reasons; i++) {
		ck_assert_msg(strcmp(v.reasons[i].code, "s:in"), "s:in listed with +0");
		prereqs += !strcmp(v.reasons[i].code, "stable-prereq");
		sum += v.reasons[i].weight;
	}
	ck_assert_int_eq(prereqs, 1);
	ck_assert(sm_verdict_has(&v, "s:leak"));
	ck_assert(sm_verdict_has(&v, "model:other-features"));	/* s:in and stable-prereq */
	ck_assert_int_eq(v.score, 81);	/* -2.0 + 2.5 + 0.001 + 0.004 + 0.3 */
	ck_assert_int_eq(sum, v.score);
	sm_verdict_release(&v);
	sm_commit_release(&c);
	sm_rules_free(r);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(model_scores_and_explains)
{
	const char *model =
		"# a hand-made model\n"
		"format stablemate-model 1\n"
		"bias -2.0\n"
		"candidate 0.5\n"
		"maybe 0.2\n"
		"weight 1.5 keyword:memory-leak\n"
		"weight 0.25 s:leak\n"
		"weight -0.75 s:cleanup\n"
		"weight 0.01 s:events\n";
	char *dir = rules_dir_with_model(model);
	struct sm_rules *r = NULL;
	struct sm_commit c;
	struct sm_verdict v;
	const char *leak = "ALSA: timer: Fix leak in events\n\nA memory leak.\n";
	int sum = 0;

	ck_assert_msg(sm_rules_load(&r, dir) == 0, "%s", sm_last_error());
	ck_assert_int_eq(sm_rules_candidate_score(r), 0);	/* log-odds of 0.5 */
	ck_assert_int_eq(sm_rules_maybe_score(r), -139);
	sm_commit_parse(&c, leak, strlen(leak));
	sm_classify(r, &c, NULL, &v);
	/* -2.0 + 1.5 + 0.25 + 0.01 = -0.24: a maybe */
	ck_assert_int_eq(v.score, -24);
	ck_assert_int_eq(v.kind, SM_MAYBE);
	ck_assert(sm_verdict_has(&v, "keyword:memory-leak"));
	ck_assert(sm_verdict_has(&v, "s:leak"));
	ck_assert_str_eq(v.reasons[0].code, "model:bias");
	ck_assert_int_eq(v.reasons[0].weight, -200);
	ck_assert_str_eq(v.reasons[1].code, "keyword:memory-leak");
	ck_assert_int_eq(v.reasons[1].weight, 150);
	for (size_t i = 0; i < v.nr_reasons; i++)
		sum += v.reasons[i].weight;
	ck_assert_int_eq(sum, v.score);
	sm_verdict_release(&v);
	sm_commit_release(&c);
	/* hard rules stay on top: a merge is rejected whatever it scores */
	sm_commit_parse(&c, "Merge branch 'x'\n\nA memory leak fix.\n", 36);
	sm_classify(r, &c, NULL, &v);
	ck_assert_int_eq(v.kind, SM_REJECT);
	ck_assert(sm_verdict_has(&v, "merge"));
	sm_verdict_release(&v);
	sm_commit_release(&c);
	sm_rules_free(r);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* The shipped rules as an editor on Windows saves them: a byte-order mark
 * and CRLF line ends. The model's names kept their "\r" and matched no
 * feature, its "format" line was refused; the verdict must not change. */
START_TEST(rules_files_with_crlf_and_bom)
{
	static const char *const files[] = { "keywords.rules", "authors.rules", "thresholds.rules",
					     "model.rules" };
	char *dir = make_temp_dir("sm-rules-crlf");
	struct strbuf seed = STRBUF_INIT;
	struct sm_rules *r = NULL;
	struct sm_commit c;
	struct sm_verdict want, got;

	ck_assert_ptr_nonnull(dir);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
		char *name = xasprintf("rules/%s", files[i]);

		ck_assert(read_file(srcdir_path(name), &in) == 0);
		strbuf_addstr(&out, "\xef\xbb\xbf");
		for (size_t k = 0; k < in.len; k++) {
			if (in.buf[k] == '\n')
				strbuf_addch(&out, '\r');
			strbuf_addch(&out, in.buf[k]);
		}
		write_rules_file(dir, files[i], out.buf);
		strbuf_release(&in);
		strbuf_release(&out);
		free(name);
	}
	ck_assert_msg(sm_rules_load(&r, dir) == 0, "%s", sm_last_error());
	ck_assert(read_file(srcdir_path("sample/commits/seed-e4ec8cc8039a.patch"), &seed) == 0);
	ck_assert_int_eq(sm_commit_parse(&c, seed.buf, seed.len), 0);
	sm_classify(rules, &c, NULL, &want);
	sm_classify(r, &c, NULL, &got);
	ck_assert_int_eq(got.score, want.score);
	ck_assert_uint_eq(got.nr_reasons, want.nr_reasons);
	for (size_t i = 0; i < got.nr_reasons; i++)
		ck_assert_str_eq(got.reasons[i].code, want.reasons[i].code);
	sm_verdict_release(&want);
	sm_verdict_release(&got);
	sm_commit_release(&c);
	strbuf_release(&seed);
	sm_rules_free(r);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(model_file_errors)
{
	char *dir = rules_dir_with_model("format stablemate-model 1\nbias -1\ncandidate 0.5\n"
					 "maybe 0.2\nweight x s:leak\n");
	struct sm_rules *r = NULL;

	ck_assert_int_eq(sm_rules_load(&r, dir), -1);
	ck_assert_msg(strstr(sm_last_error(), "model.rules:5:") != NULL, "%s", sm_last_error());
	remove_tree(dir);
	free(dir);
	dir = rules_dir_with_model("bias -1\n");
	ck_assert_int_eq(sm_rules_load(&r, dir), -1);
	ck_assert_msg(strstr(sm_last_error(), "not a model file") != NULL, "%s", sm_last_error());
	remove_tree(dir);
	free(dir);
	dir = rules_dir_with_model("format stablemate-model 1\nbias -1\ncandidate 0.2\nmaybe 0.5\n");
	ck_assert_int_eq(sm_rules_load(&r, dir), -1);
	ck_assert_msg(strstr(sm_last_error(), "maybe <= candidate") != NULL, "%s", sm_last_error());
	remove_tree(dir);
	free(dir);
	/* Weights past SM_MODEL_MAX_WEIGHT: 1e39 became an infinite float,
	 * 1e30 a score lround() cannot hold; each once scored "net: fix a
	 * leak" as bias alone. 100 itself loads. */
	{
		static const char *const bad[] = { "weight 1e39 s:fix\n", "weight -1e30 s:fix\n",
						   "weight 100.5 s:fix\n", "bias 1e300\n",
						   "missing diff -1e300\n" };

		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
			char *text = xasprintf("format stablemate-model 1\nbias -1\ncandidate 0.5\n"
					       "maybe 0.2\n%s", bad[i]);

			dir = rules_dir_with_model(text);
			ck_assert_int_eq(sm_rules_load(&r, dir), -1);
			ck_assert_msg(strstr(sm_last_error(), "model.rules:5:") &&
				      strstr(sm_last_error(), "at most 100"), "%s: %s", bad[i],
				      sm_last_error());
			remove_tree(dir);
			free(dir);
			free(text);
		}
		dir = rules_dir_with_model("format stablemate-model 1\nbias -1\ncandidate 0.5\n"
					   "maybe 0.2\nweight -100 s:fix\n");
		ck_assert_msg(sm_rules_load(&r, dir) == 0, "%s", sm_last_error());
		sm_rules_free(r);
		remove_tree(dir);
		free(dir);
	}
}
END_TEST

/* A small labelled set: fixes (stable) and features/cleanups (not); the
 * fit must learn the words that separate them, and write the same file
 * twice. */
START_TEST(train_is_deterministic)
{
	static const char *const fixes[] = { "crash", "hang", "leak", "deadlock", "corruption" };
	static const char *const other[] = { "helper", "cleanup", "support", "rename", "tracepoint" };
	struct sm_trainset set;
	struct sm_train_opts o;
	struct sm_train_result res;
	char *dir = make_temp_dir("sm-train");
	char *a = xasprintf("%s/a.rules", dir), *b = xasprintf("%s/b.rules", dir);
	struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
	struct sm_model *m = NULL;

	sm_trainset_init(&set, rules);
	for (int i = 0; i < 120; i++) {
		int stable = i % 4 == 0;
		char *msg = xasprintf("sub%d: %s the %s in widget %d\n\nBody %d.\n",
				      i % 7, stable ? "fix" : "add", stable ? fixes[i % 5] : other[i % 5],
				      i, i);
		struct sm_commit c;

		sm_commit_parse_message(&c, msg, strlen(msg));
		sm_trainset_add(&set, rules, &c, stable);
		sm_commit_release(&c);
		free(msg);
	}
	sm_train_opts_default(&o);
	ck_assert_int_eq(sm_train_fit(&set, &o, &res), 0);
	ck_assert(res.maybe_p <= res.candidate_p);
	ck_assert(res.oof_maybe_recall >= o.maybe_recall);
	ck_assert(res.oof_cand_precision > 0.5);
	ck_assert_int_eq(sm_train_write(&set, &o, &res, "test", a), 0);
	sm_train_result_release(&res);
	ck_assert_int_eq(sm_train_fit(&set, &o, &res), 0);
	ck_assert_int_eq(sm_train_write(&set, &o, &res, "test", b), 0);
	sm_train_result_release(&res);
	ck_assert(read_file(a, &sa) == 0 && read_file(b, &sb) == 0);
	ck_assert_str_eq(sa.buf, sb.buf);
	ck_assert_int_eq(sm_model_load(&m, a), SM_MODEL_LOADED);
	ck_assert(sm_model_weight(m, sm_feature_hash("s:fix", 5)) > 0.3);
	ck_assert(sm_model_weight(m, sm_feature_hash("s:add", 5)) < -0.3);
	sm_model_free(m);
	sm_trainset_release(&set);
	strbuf_release(&sa);
	strbuf_release(&sb);
	free(a);
	free(b);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* A copy of another verdict's reasons keeps every code and text whole, with
 * reasons before it (a veto) and after it (a tree's), strings of every
 * size among them: the copy reserves one block for them all. */
START_TEST(verdict_copies_reasons_whole)
{
	struct sm_verdict from, v;
	char code[32], text[700];

	sm_verdict_init(&from);
	sm_verdict_init(&v);
	for (int i = 0; i < 40; i++) {
		int n = (i * 37) % (int)(sizeof(text) - 1);

		memset(text, 'a' + i % 26, (size_t)n);
		text[n] = '\0';
		snprintf(code, sizeof(code), "model:f%d", i);
		sm_verdict_add(&from, code, i, "%s", text);
	}
	sm_verdict_veto(&v, "merge", "merge commit");
	sm_verdict_add_reasons(&v, &from);
	for (int i = 0; i < 30; i++)
		sm_verdict_add(&v, "tree:late", -i, "added after the copy, %d", i);
	ck_assert_uint_eq(v.nr_reasons, 1 + 40 + 30);
	ck_assert_str_eq(v.reasons[0].code, "merge");
	ck_assert_str_eq(v.reasons[0].text, "merge commit");
	for (int i = 0; i < 40; i++) {
		const struct sm_reason *r = &v.reasons[1 + i];
		size_t n = (size_t)((i * 37) % (int)(sizeof(text) - 1));

		snprintf(code, sizeof(code), "model:f%d", i);
		ck_assert_str_eq(r->code, code);
		ck_assert_int_eq(r->weight, i);
		ck_assert_uint_eq(strlen(r->text), n);
		ck_assert(strspn(r->text, (char[]){ (char)('a' + i % 26), 0 }) == n);
		ck_assert_ptr_ne(r->text, from.reasons[i].text);	/* a copy, not a loan */
	}
	for (int i = 0; i < 30; i++) {
		snprintf(text, sizeof(text), "added after the copy, %d", i);
		ck_assert_str_eq(v.reasons[41 + i].text, text);
	}
	sm_verdict_release(&from);
	/* the copy outlives what it copied */
	ck_assert_str_eq(v.reasons[40].code, "model:f39");
	sm_verdict_release(&v);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *t = add_tcase(s, "stable-tags", SM_TESTS(tag_plain_forms, tag_not_stable,
							tag_from_forms, tag_ranges,
							tag_upto_only, tag_prerequisites,
							tag_conditions, tag_spec_in_prose, tag_noautosel,
							tag_unparsed_is_reported,
							tag_wants_tree));

	tcase_add_checked_fixture(t, NULL, teardown_tag);
	add_tcase(s, "message", SM_TESTS(message_trailers_and_folding, fixes_malformed,
					 upstream_refs, stable_upstream_refs, stable_dep_of,
					 json_reader, json_arrays_and_counts,
					 repeated_headers_second_wins,
					 numstat_input, numstat_counts_do_not_wrap, stat_input,
					 quoted_paths, git_log_split, stat_line_without_path,
					 diff_facts));
	t = add_tcase(s, "classify", SM_TESTS(seed_is_candidate, classify_shared_is_classify,
					      word_boundaries, keyword_scan_is_its_definition,
					      subject_keywords_skip_the_subsystem, memory_leak_is_no_info_leak,
					      tree_out_of_range_rejects,
					      noautosel_never_candidate, merge_rejected, release_commit_rejected,
					      check_relevant_diff_rules, moved_code_is_not_whitespace,
					      stray_semicolons_change_no_code,
					      device_id_entries_span_lines, comment_changed_on_code_line,
					      plain_unified_diff, hash_lines_by_language,
					      large_diff_is_penalised, git_show_format, git_raw_format,
					      git_show_signature,
					      feature_not_flagged, bad_rules_file_names_line,
					      rules_with_capture_groups, rules_matching_empty_refused,
					      fuzz_regressions, features_of_a_commit, fixes_with_a_short_id_is_a_fix,
					      stat_cut_path_has_no_directory, shortstat_counts_the_files, subject_forms,
					      cover_letters_and_replies, pasted_patches,
					      mails_that_carry_no_patch, mail_headers_other_tools_write,
					      crlf_diff_reads_as_lf,
					      model_scores_and_explains, model_lists_no_zero_weights,
					      verdict_copies_reasons_whole,
					      model_file_errors,
					      rules_files_with_crlf_and_bom,
					      train_is_deterministic));
	tcase_add_checked_fixture(t, setup_rules, teardown_rules);
	return s;
}
