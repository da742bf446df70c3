/* stablemate classify: the verdict on commit messages, mails or a corpus. */
#include "cli/cli.h"
#include "cli/output.h"
#include "lib/fileio.h"
#include "lib/json.h"
#include "lib/progress.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "mail/mbox.h"
#include "mail/plain.h"
#include "mail/records.h"
#include "mail/series_fits.h"
#include "rules/classify.h"
#include "rules/gitlog.h"
#include "rules/json_record.h"
#include "trees/patchid.h"
#include "trees/repo_judge.h"
#include "trees/tree_state.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate classify [--tree VERSION] [--json] [--rules DIR] [FILE|-]...\n"
		    "stablemate classify --repo DIR [--tree BRANCH[=VER] [--check-applies [--series|--alone]]]\n"
		    "                    [--json] [FILE|-]...\n"
		    "stablemate classify --tags [FILE|-]...\n"
		    "stablemate classify --batch FILE [--tree VERSION] [--rules DIR]",
	.description =
"Decides whether a commit is stable material and prints the verdict\n"
"(candidate, maybe or reject), its score and every reason.\n"
"\n"
"FILE (default: standard input) holds a commit as `git show`, `git log`\n"
"or `git format-patch` print it (with the diff, or `--numstat`/`--stat`\n"
"lines), a mail, or a bare commit message; an mbox of several, `git log`\n"
"of several commits, or JSON records (as --batch reads them) are\n"
"classified one by one, and so are several FILEs (`classify\n"
"outgoing/*.patch`).\n"
"\n"
"With --repo, a mainline repository with its release tags (a\n"
"linux-stable clone has them and the stable branches) says what scan\n"
"would: each Fixes: target's first release, and for --tree (a branch\n"
"of DIR; a version such as 6.1 means linux-6.1.y) whether the tree\n"
"has the bug (bug-in-tree, fix-for-fix, or the veto bug-not-in-tree),\n"
"whether it has the patch already (present: by upstream id, patch-id or\n"
"subject), the prerequisites it lacks, and whether it has the files the\n"
"patch changes (the veto file-not-in-tree; a file mainline moved counts\n"
"as there). The patch need not be in DIR:\n"
"a patch mail from the list is judged as it is.\n"
"\n"
"With --check-applies, the patch is tried on the tree too, as git am -3\n"
"would apply it; a numbered patch of a mail thread ([PATCH 2/5] in the\n"
"thread of 1/5) goes onto what the patches of its series before it\n"
"made (--series: every patch given, in order; --alone: each alone).\n",
	.epilog =
"Exit status: 0 when all went well, 1 on an error (a message naming the\n"
"file) or when a record or mail of FILE could not be read (each named;\n"
"the others are classified), 2 on bad usage.\n"
"\n"
"Examples:\n"
"  git show e4ec8cc8039a | stablemate classify --tree 6.1\n"
"  b4 am -o - <msgid> | stablemate classify --repo ~/linux --tree linux-6.1.y\n"
"  stablemate classify --repo ~/linux --tree linux-6.1.y --check-applies ~/Mail/stable/cur/*\n",
};

struct classify_opts {
	struct sm_rules *rules;
	struct sm_tree_ctx tree;
	int json;
	const char *path;	/* the input, for messages about it */
	unsigned nr_mails;	/* of an mbox, so far */
	unsigned nr_bad;	/* of those, unreadable */
	struct cli_cut_paths cut;	/* of the input so far */
	struct sm_repo_judge *judge;	/* --repo, or NULL */
	int check_applies;		/* --check-applies: with judge and a tree */
	int by_thread;			/* and neither --series nor --alone */
	/* by_thread: every input is read first (collecting), and its
	 * series tried (series_fits); the inputs are then judged in their
	 * order. seq numbers the texts both passes read, alike. */
	int collecting;
	size_t seq, seq_now;
	struct sm_series_fits series_fits;
};

/* What --check-applies found of one input (enum sm_patch_fit), printed
 * with its verdict; not_tried when not asked. */
static const int not_tried = -2;

/* One line for an input, not one a commit: the verdicts are right for
 * what it says, but a wider --stat would have said more. */
static void warn_cut_paths(struct classify_opts *o, const char *input)
{
	cli_warn_cut_paths(input, &o->cut, "their directories are unknown (no docs-only, no diff:top)");
}

/* " (first released in v6.3)", " (in no release yet)", " (not in the
 * repository)" after a Fixes: tag's id, for --repo; a repository without
 * release tags dates nothing */
static const char *fixes_fact(const struct sm_repo_fixes *f, int tagless, char *buf,
			      size_t size)
{
	if (!f || !f->written)
		return "";
	if (!f->resolved)
		return "  (not in the repository)";
	if (!f->target.first)
		return tagless ? "  (not dated: no release tags in the repository)"
			       : "  (in no release yet)";
	snprintf(buf, size, "  (first released in %s)", f->target.first->name);
	return buf;
}

static void print_tags(const struct sm_commit *c, const struct sm_repo_fixes *fixes,
		       int tagless)
{
	for (size_t i = 0; i < c->nr_stable; i++) {
		const struct sm_stable_tag *t = &c->stable[i];
		char a[32], b[32];

		printf("  stable tag: %s  [%s", t->line, sm_stable_kind_name(t->kind));
		if (t->kind == SM_STABLE_FROM || t->kind == SM_STABLE_RANGE)
			printf(" %s", sm_version_str(&t->from, a, sizeof(a)));
		if (t->kind == SM_STABLE_RANGE || t->kind == SM_STABLE_UPTO || t->kind == SM_STABLE_ONLY)
			printf("%s%s", t->kind == SM_STABLE_RANGE ? "-" : " ",
			       sm_version_str(&t->to, b, sizeof(b)));
		if (t->noautosel)
			printf(", noautosel");
		if (t->prereq_sha)
			printf(", needs %s", t->prereq_sha);
		printf("]\n");
	}
	for (size_t i = 0; i < c->nr_fixes; i++) {
		char fact[80];

		printf("  fixes: %s%s%s%s\n", c->fixes[i].sha ? c->fixes[i].sha : "(none)",
		       fixes_fact(fixes ? &fixes[i] : NULL, tagless, fact, sizeof(fact)),
		       c->fixes[i].problem ? "  malformed: " : "",
		       c->fixes[i].problem ? c->fixes[i].problem : "");
	}
}

/* "fixes_targets": [{"fixes": as written, "id": full or null,
 * "first_release": "v6.3" or null}] for --repo */
static void fixes_json(struct json_writer *w, const struct sm_repo_fixes *fixes, size_t nr)
{
	json_array_begin(w, "fixes_targets");
	for (size_t i = 0; i < nr; i++) {
		const struct sm_repo_fixes *f = &fixes[i];

		if (!f->written)
			continue;
		json_object_begin(w, NULL);
		json_string(w, "fixes", f->written);
		json_string(w, "id", f->resolved ? f->target.hex : NULL);
		json_string(w, "first_release",
			    f->resolved && f->target.first ? f->target.first->name : NULL);
		json_object_end(w);
	}
	json_array_end(w);
}

/* "applies: ..." for --check-applies' answer fit on c, into out */
static void fit_text(int fit, const struct sm_patch_fit_info *info, const struct sm_commit *c,
		     struct strbuf *out)
{
	switch (fit) {
	case SM_PATCH_APPLIES:
		strbuf_addstr(out, "cleanly");
		break;
	case SM_PATCH_MERGES:
		strbuf_addstr(out, "with a three-way merge, as git am -3 takes it ");
		strbuf_addstr(out, info->base_as_is ?
			      "(the tree's file is its base, under another path)" :
			      "(not exactly: the tree's lines around it differ)");
		break;
	case SM_PATCH_CONFLICTS:
		if (!info->three_way) {
			strbuf_addf(out, "no (conflict; no three-way merge: %s)", info->no_three_way);
			break;
		}
		strbuf_addstr(out, "no (conflict in ");
		for (size_t i = 0; i < info->conflicts.nr; i++)
			strbuf_addf(out, "%s%s", i ? ", " : "", info->conflicts.items[i]);
		strbuf_addstr(out, ", in a three-way merge on its base too)");
		break;
	case SM_PATCH_APPLIED:
		strbuf_addstr(out, info->three_way ?
			      "already (a three-way merge on its base changes nothing: the tree has it)" :
			      "already (only its reverse applies: the tree has it)");
		break;
	default:
		strbuf_addstr(out, c->is_cover_letter ? "not checked (a cover letter carries no patch)" :
			      "not checked (no whole patch in git's format)");
	}
	/* where the merge found a file the tree keeps under another path */
	for (size_t i = 0; i + 1 < info->moved.nr; i += 2)
		strbuf_addf(out, "%s %s as %s", i ? "," : "; the tree keeps", info->moved.items[i],
			    info->moved.items[i + 1]);
	if (info->after)
		strbuf_addf(out, "; after the %u patch%s before it", info->after,
			    info->after == 1 ? "" : "es");
	else if (fit == SM_PATCH_CONFLICTS && info->tried_before == 1)
		strbuf_addstr(out, "; onto the tip: the patch of its series before it did not go in");
	else if (fit == SM_PATCH_CONFLICTS && info->tried_before)
		strbuf_addf(out, "; onto the tip: none of the %u patches of its series before it "
			    "went in", info->tried_before);
	else if (fit == SM_PATCH_CONFLICTS && c->patch_nr > 1)
		strbuf_addf(out, "; patch %u/%u, tried alone (--series tries it after the ones "
			    "before it)", c->patch_nr, c->patch_total);
}

static void print_one(const struct classify_opts *o, const struct sm_commit *c,
		      const struct sm_verdict *v, const struct sm_repo_fixes *fixes, int fit,
		      const struct sm_patch_fit_info *info)
{
	char tv[32];

	if (o->json) {
		struct cli_json j;
		struct json_writer *w = cli_json_begin(&j);

		json_object_begin(w, NULL);
		json_string(w, "id", c->id);
		json_string(w, "subject", c->subject);
		json_string(w, "author", c->author);
		json_string(w, "pasted_in", c->outer_subject);
		json_string(w, "tree", o->tree.version.major ?
			    sm_version_str(&o->tree.version, tv, sizeof(tv)) : NULL);
		json_string(w, "upstream", c->upstream_sha);
		sm_commit_tags_json(c, w);
		if (o->judge)
			fixes_json(w, fixes, c->nr_fixes);
		sm_commit_diff_json(c, w);
		if (fit != not_tried) {
			json_bool_or_null(w, "applies", fit == SM_PATCH_UNKNOWN ? -1 :
					  fit == SM_PATCH_APPLIES || fit == SM_PATCH_MERGES);
			json_bool(w, "applied", fit == SM_PATCH_APPLIED);
			json_bool(w, "three_way", info->three_way);
			json_int(w, "after", info->after);
			json_int(w, "tried_before", info->tried_before);
			json_array_begin(w, "conflicts");
			for (size_t i = 0; i < info->conflicts.nr; i++)
				json_string(w, NULL, info->conflicts.items[i]);
			json_array_end(w);
			json_array_begin(w, "moved");
			for (size_t i = 0; i + 1 < info->moved.nr; i += 2) {
				json_object_begin(w, NULL);
				json_string(w, "from", info->moved.items[i]);
				json_string(w, "to", info->moved.items[i + 1]);
				json_object_end(w);
			}
			json_array_end(w);
		}
		sm_verdict_json(v, w, "verdict");
		json_object_end(w);
		cli_json_end(&j);
		return;
	}
	printf("%s%s%s\n", c->id ? c->id : "", c->id ? "  " : "", c->subject ? c->subject : "");
	if (c->outer_subject)
		printf("  pasted in: %s\n", c->outer_subject);
	printf("  verdict: %s (score %d)%s%s%s\n", sm_verdict_name(v->kind), v->score,
	       o->tree.version.major ? " for " : "",
	       o->tree.version.major ? sm_version_str(&o->tree.version, tv, sizeof(tv)) : "",
	       v->manual_only ? ", pick by hand only (noautosel)" : "");
	print_tags(c, fixes, o->judge && !o->judge->tags.nr);
	{
		struct strbuf lines = STRBUF_INIT;

		sm_verdict_reason_lines(v, "  ", &lines);
		fputs(lines.buf, stdout);
		strbuf_release(&lines);
	}
	if (fit != not_tried) {
		struct strbuf text = STRBUF_INIT;

		fit_text(fit, info, c, &text);
		printf("  applies: %s\n", text.buf);
		strbuf_release(&text);
	}
}

/* --check-applies: how the patch of text (the input as read; a mail
 * decoded first) fits the tree, the veto "present" added to v when the
 * tree has it. A numbered patch of a series in its mail thread takes what
 * its series, tried in patch order, found. not_tried when not asked or
 * there is no text. */
static int check_applies(struct classify_opts *o, const char *text, size_t len,
			 struct sm_verdict *v, struct sm_patch_fit_info *info)
{
	struct strbuf plain = STRBUF_INIT;
	enum sm_patch_fit found;
	int fit;

	if (!o->check_applies || !text)
		return not_tried;
	if (o->by_thread && sm_series_fits_take(&o->series_fits, o->seq_now, &found, info)) {
		sm_repo_judge_present(o->judge, o->rules, found, info, v);
		return found;
	}
	if (sm_mail_is_encoded(text, len) && sm_mail_to_plain(text, len, o->path, &plain) == 0) {
		text = plain.buf;
		len = plain.len;
	}
	sm_clear_error();
	fit = sm_repo_judge_apply(o->judge, o->rules, text, len, v, info);
	strbuf_release(&plain);
	return fit;
}

/* Judges c (with --repo, also by the repository and the tree's branch;
 * patch_id: of c's diff, NULL when unknown; text[0..len): the input c was
 * parsed from, for --check-applies, NULL when none), prints the verdict
 * with every reason, and releases c. */
static void judge_and_print(struct classify_opts *o, struct sm_commit *c, const char *patch_id,
			    const char *text, size_t len)
{
	struct sm_verdict v;
	struct sm_repo_fixes *fixes = NULL;
	struct sm_patch_fit_info info = { 0 };
	int fit = not_tried;

	cli_count_cut_paths(&o->cut, c);
	sm_classify(o->rules, c, &o->tree, &v);
	if (o->judge) {
		sm_repo_judge_commit(o->judge, o->rules, c, patch_id, &v, &fixes);
		fit = check_applies(o, text, len, &v, &info);
	}
	print_one(o, c, &v, fixes, fit, &info);
	sm_patch_fit_info_release(&info);
	free(fixes);
	sm_verdict_release(&v);
	sm_commit_release(c);
}

/* With --repo, the patch-id of the diff in text (the tree may carry the
 * patch under another id and message), in out; NULL without a diff. */
static const char *text_patch_id(const struct classify_opts *o, const char *text, size_t len,
				 char out[41])
{
	if (!o->judge)
		return NULL;
	if (sm_patch_id_from_text(text, len, out) < 0) {
		sm_clear_error();
		return NULL;
	}
	return out;
}

/* Numbers the text, one commit or mail, as both passes of by_thread
 * must number it alike (o->seq_now, the number check_applies looks its
 * series' answer up by); collecting, keeps it when it is a patch of a
 * series and says 1: nothing more to do with it in this pass. */
static int numbered_collected(struct classify_opts *o, const char *text, size_t len)
{
	o->seq_now = o->seq++;
	if (!o->collecting)
		return 0;
	sm_series_fits_add(&o->series_fits, text, len, o->seq_now, o->path);
	return 1;
}

/* One commit or mail of o's input; from: its mbox "From " line, or "". */
static int classify_text(struct classify_opts *o, const char *text, size_t len,
			 const char *from)
{
	struct sm_commit c;
	char patch_id[41] = "";

	if (numbered_collected(o, text, len))
		return 0;
	if (sm_record_parse(&c, text, len, o->path, ++o->nr_mails)) {
		sm_warn("%s: message %u: %s (skipped)", o->path, o->nr_mails, sm_last_error());
		o->nr_bad++;
		return 0;
	}
	sm_record_id_from_separator(&c, from);
	judge_and_print(o, &c, text_patch_id(o, text, len, patch_id), text, len);
	return 0;
}

/* A message of an mbox (sm_mbox_msg_fn) */
static int classify_mbox_message(const struct sm_mbox_msg *m, void *ctx)
{
	return classify_text(ctx, m->data, m->len, m->from);
}

/* A commit of `git log` output (sm_gitlog_fn) */
static int classify_log_commit(const char *text, size_t len, unsigned n, int too_big, void *ctx)
{
	(void)n, (void)too_big;	/* nothing is too big: the whole text is in memory */
	return classify_text(ctx, text, len, "");
}

static int starts_git_log(const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);

	return sm_gitlog_is_header(buf, nl ? (size_t)(nl - buf) : len);
}

static int looks_like_mbox(const char *buf, size_t len)
{
	return len > 5 && !memcmp(buf, "From ", 5) && memmem(buf + 5, len - 5, "\nFrom ", 6);
}

/* One JSON line per record, compact, for corpus runs. */
static void batch_line(const struct classify_opts *o, const char *id, const struct sm_commit *c,
		       const struct sm_verdict *v, struct cli_json *out)
{
	struct json_writer *w = &out->w;

	json_object_begin(w, NULL);
	json_string(w, "id", id ? id : c->id);
	json_string(w, "subject", c->subject);
	json_string(w, "verdict", sm_verdict_name(v->kind));
	json_int(w, "score", v->score);
	json_array_begin(w, "reasons");
	for (size_t i = 0; i < v->nr_reasons; i++)
		json_string(w, NULL, v->reasons[i].code);
	json_array_end(w);
	json_object_end(w);
	cli_json_flush(out);
}

/* --batch: one record's verdict (reason codes only) as one JSON line
 * (sm_record_fn) */
struct batch_ctx {
	struct classify_opts *o;
	struct cli_json out;	/* one record's line at a time */
};

static int batch_judge(struct sm_commit *c, const char *name, void *ctx)
{
	struct batch_ctx *b = ctx;
	struct sm_verdict v;

	cli_count_cut_paths(&b->o->cut, c);
	sm_classify_codes(b->o->rules, c, &b->o->tree, &v);
	batch_line(b->o, name, c, &v, &b->out);
	sm_verdict_release(&v);
	sm_commit_release(c);
	return 0;
}

/* Appends the line at p to sb, without its "\n" or "\r\n"; returns the
 * next line, or NULL at the end. */
static char *add_line(struct strbuf *sb, char *p)
{
	char *nl = strchr(p, '\n');
	size_t n = nl ? (size_t)(nl - p) : strlen(p);

	strbuf_add(sb, p, n && p[n - 1] == '\r' ? n - 1 : n);
	return nl ? nl + 1 : NULL;
}

/* --tags: every stable tag line of a file, as parsed. */
static int list_tags(const char *path)
{
	struct strbuf buf = STRBUF_INIT, line = STRBUF_INIT;

	if (read_file(path, &buf))
		return cli_fail("classify");
	for (char *p = buf.buf + utf8_bom_len(buf.buf, buf.len); p && *p; ) {
		struct sm_stable_tag t;
		char a[32] = "-", b[32] = "-";

		strbuf_reset(&line);
		p = add_line(&line, p);
		/* a line folded onto the next; a line of blanks ends it */
		while (p && (*p == ' ' || *p == '\t') && !strchr("\r\n", p[strspn(p, " \t")])) {
			strbuf_addch(&line, ' ');
			p = add_line(&line, p);
		}
		if (!sm_stable_tag_parse(line.buf, &t))
			continue;
		if (t.kind == SM_STABLE_FROM || t.kind == SM_STABLE_RANGE)
			sm_version_str(&t.from, a, sizeof(a));
		if (t.kind == SM_STABLE_RANGE || t.kind == SM_STABLE_UPTO || t.kind == SM_STABLE_ONLY)
			sm_version_str(&t.to, b, sizeof(b));
		printf("%s\t%s\t%s\t%s\t%s\n", t.noautosel ? "noautosel" : sm_stable_kind_name(t.kind), a, b,
		       t.prereq_sha ? t.prereq_sha : "-", t.line);
		sm_stable_tag_release(&t);
	}
	strbuf_release(&line);
	strbuf_release(&buf);
	return 0;
}

static int run_batch(struct classify_opts *o, const char *path, size_t max_record)
{
	struct batch_ctx b = { .o = o };
	struct sm_records in = { .path = path, .max_record = max_record, .fn = batch_judge,
				 .ctx = &b };
	int rc;

	cli_json_begin(&b.out);
	rc = sm_records_read(&in);
	fflush(stdout);
	if (rc >= 0)
		fprintf(stderr, "stablemate classify: %u records, %u unreadable\n", in.records, in.bad);
	cli_json_discard(&b.out);
	/* each unreadable record was named; the status says not all were read */
	return rc < 0 ? cli_fail("classify") : in.bad ? 1 : 0;
}

/* A JSON record of FILE (sm_record_fn), its verdict in full */
static int judge_json_record(struct sm_commit *c, const char *name, void *ctx)
{
	if (!c->id && name)
		c->id = xstrdup(name);
	judge_and_print(ctx, c, NULL, NULL, 0);
	return 0;
}

/* FILE's JSON records, read as --batch reads them (no size limit: FILE
 * is in memory already) */
static void classify_json(struct classify_opts *o, const char *text, size_t len)
{
	struct sm_records in = { .path = o->path, .max_record = SIZE_MAX, .fn = judge_json_record,
				 .ctx = o };

	if (sm_records_read_mem(&in, text, len, 0) < 0) {
		sm_warn("%s", sm_last_error());
		o->nr_bad++;
	}
	o->nr_bad += in.bad;
}

/* FILE (or standard input), read into buf: one commit or mail, an mbox
 * or `git log` of several, or JSON records. Collecting (by_thread's first
 * pass), its texts are only numbered, as the second pass numbers them,
 * and kept when they are patch mails of a series; nothing is said. */
static int classify_buffer(struct classify_opts *o, const char *path, struct strbuf *buf)
{
	struct sm_commit c;
	char patch_id[41];
	int ret = 0;

	if (!buf->len) {
		if (!o->collecting) {
			sm_error("%s: empty input", path);
			ret = cli_fail("classify");
		}
	} else if (sm_records_refuse_messageless(path, buf->buf, strcspn(buf->buf, "\n")) < 0) {
		if (!o->collecting)
			ret = cli_fail("classify");
		sm_clear_error();
	} else if (sm_json_records_start(buf->buf, buf->len)) {
		if (!o->collecting) {
			classify_json(o, buf->buf, buf->len);
			ret = o->nr_bad ? 1 : 0;
		}
	} else if (looks_like_mbox(buf->buf, buf->len)) {
		struct sm_mbox_parser *p = sm_mbox_parser_new(SIZE_MAX, classify_mbox_message, o);

		if (sm_mbox_parser_feed(buf->buf, buf->len, p) >= 0)
			sm_mbox_parser_finish(p);
		sm_mbox_parser_free(p);
		ret = o->nr_bad ? 1 : 0;
	} else if (starts_git_log(buf->buf, buf->len)) {
		/* `git log` of one commit or many: each is judged */
		sm_gitlog_split(buf->buf, buf->len, SIZE_MAX, classify_log_commit, o);
		ret = o->nr_bad ? 1 : 0;
	} else if (!numbered_collected(o, buf->buf, buf->len)) {
		if (sm_record_parse(&c, buf->buf, buf->len, o->path, 0)) {
			sm_error_wrap("%s", path);
			ret = cli_fail("classify");
		} else {
			judge_and_print(o, &c, text_patch_id(o, buf->buf, buf->len, patch_id),
					buf->buf, buf->len);
		}
	}
	return ret;
}

/* FILE (or standard input) into buf, as classify reads it: -1 (said) when
 * it cannot be read */
static int read_input(const char *path, struct strbuf *buf)
{
	if (read_file(path, buf)) {
		cli_fail("classify");
		return -1;
	}
	strbuf_setlen(buf, strip_bom_and_colour(buf->buf, buf->len));
	return 0;
}

/* by_thread's first pass over every input read (bufs[i]; unread[i] when
 * it could not be): each series of a mail thread found, tried in patch
 * order. */
static void try_thread_series(struct classify_opts *o, int argc, char **argv, struct strbuf *bufs,
			      const char *unread)
{
	o->collecting = 1;
	for (int i = 0; i < argc; i++) {
		if (unread[i])
			continue;
		o->path = input_name(argv[i]);
		classify_buffer(o, o->path, &bufs[i]);
	}
	o->collecting = 0;
	o->seq = 0;
	sm_series_fits_try(&o->series_fits, o->judge);
}

static int opt_tree(const struct sm_option *opt, const char *arg)
{
	struct sm_tree_ctx *tree = opt->value;
	const char *end;

	tree->name = arg;
	if (!sm_version_parse(arg, &end, &tree->version) && !*end)
		return 0;
	/* a branch name, as scan takes it: linux-6.1.y */
	if (strchr(arg, '.') && !sm_tree_version_from_name(arg, &tree->version))
		return 0;
	return sm_error("--tree %s: neither a kernel version such as 6.1 nor a stable branch "
			"such as linux-6.1.y", arg);
}

/* --repo DIR with the --tree given (none: the Fixes: targets' releases
 * only). --tree is a branch of DIR as scan takes it (BRANCH or
 * BRANCH=VERSION); a version alone means the branch linux-VERSION.y, as
 * kernel.org's linux-stable names them. */
static int open_judge(struct sm_repo_judge *judge, const char *repo, struct sm_tree_ctx *tree,
		      const char *cache_dir)
{
	static char arg[256];	/* the spec borrows from it for the whole run */
	struct sm_tree_spec spec;
	struct sm_version v;
	struct sm_progress *progress;
	const char *end;
	int ret;

	if (tree->version.major) {
		if (!sm_version_parse(tree->name, &end, &v) && !*end)
			snprintf(arg, sizeof(arg), "linux-%d.%d.y", v.major, v.minor);
		else if (strlen(tree->name) < sizeof(arg))
			snprintf(arg, sizeof(arg), "%s", tree->name);
		else
			return sm_error("--tree %.40s...: too long for a branch name", tree->name);
		if (sm_tree_spec_parse(&spec, arg, NULL) < 0)
			return -1;
		tree->name = spec.name;
		tree->version = spec.version;
	}
	progress = sm_progress_start("Indexing", 0);
	ret = sm_repo_judge_open(judge, repo, tree->version.major ? &spec : NULL, cache_dir,
				 progress);
	if (ret < 0)
		sm_progress_abort(&progress);
	sm_progress_stop(&progress);
	if (ret < 0)
		return ret;
	/* the verdicts stay right (the tree's whole branch is indexed), but
	 * say once why no Fixes: target has a release */
	if (!judge->tags.nr)
		sm_warn("%s: no release tags (v6.1, ...): no Fixes: target is dated "
			"(git fetch --tags)", repo);
	if (judge->has_tree) {
		struct strbuf sb = STRBUF_INIT;

		/* a repository without any tag has none on the branch: said above */
		sm_tree_caveats(&tree->version, judge->tree.has_base || !judge->tags.nr,
				judge->tree.behind, judge->tree.upstream, &sb);
		if (sb.len)
			sm_warn("%s: %s", tree->name, sb.buf);
		strbuf_release(&sb);
	}
	return 0;
}

int cmd_classify(int argc, char **argv)
{
	struct classify_opts o = { 0 };
	static const char *const default_input[] = { "-", NULL };
	const char *rules_dir = NULL, *batch = NULL, *repo = NULL, *cache_dir = NULL;
	struct sm_repo_judge judge;
	int series = 0, alone = 0;
	int ret = 0, tags = 0;
	size_t max_record = SM_MBOX_MAX_MESSAGE;
	const struct sm_option options[] = {
		OPT_CALLBACK('t', "tree", &o.tree, "VERSION",
			     "judge for one stable tree (6.1 or linux-6.1.y):\n"
			     "a stable tag whose version range excludes it\n"
			     "rejects the commit", opt_tree),
		OPT_BOOL('j', "json", &o.json, "print JSON instead of text"),
		OPT_STRING('r', "rules", &rules_dir, "DIR",
			   "read keywords.rules, authors.rules, thresholds.rules\n"
			   "and model.rules (the learned weights) from DIR\n"
			   "(default: $STABLEMATE_RULES, then the installed rules)"),
		OPT_STRING('b', "batch", &batch, "FILE",
			   "classify a corpus in one process: FILE is JSONL (one\n"
			   "object a line, with \"description\" or \"message\", or\n"
			   "\"subject\" and \"body\"; \"cve\"/\"id\" names the\n"
			   "record; also a JSON array of them, jq's output, or\n"
			   "the kernel CVE team's CVE JSON 5 records),\n"
			   "an mbox or `git log` output (any format with the\n"
			   "messages), gzipped or not; prints one JSON verdict\n"
			   "line per record. Read as a stream: one record in\n"
			   "memory at a time (other JSON than JSONL whole)"),
		OPT_SIZE("max-record-size", &max_record,
			 "with --batch: name and skip a record (JSONL line or\n"
			 "mail) larger than SIZE (K, M, G; default 64M)"),
		OPT_REPO(&repo, "judge against this mainline repository too: its\n"
			 "release tags date each Fixes: target, and --tree\n"
			 "names a stable branch in it (6.1: linux-6.1.y)"),
		OPT_CACHE_DIR(&cache_dir),
		OPT_BOOL(0, "check-applies", &o.check_applies,
			 "with --repo and --tree: does the patch apply to the\n"
			 "tree's tip (git apply --check; else a three-way merge\n"
			 "on the patch's base, as git am -3), or is it there\n"
			 "already (only its reverse applies, or the merge changes\n"
			 "nothing: the veto present)"),
		OPT_BOOL(0, "series", &series,
			 "with --check-applies: try each patch (of an mbox, of\n"
			 "the FILEs in order) onto the tree the ones before it\n"
			 "made, as git am applies a series (default: only the\n"
			 "numbered patches of one mail thread, in turn)"),
		OPT_BOOL(0, "alone", &alone,
			 "with --check-applies: try every patch alone onto the\n"
			 "tree's tip, as git apply --check does, also a patch\n"
			 "whose thread holds the patches before it"),
		OPT_BOOL(0, "tags", &tags,
			 "only list the stable tags found in FILE, one a line:\n"
			 "kind, from, to, prerequisite, the tag; a line folded\n"
			 "onto the next (as mail folds it) is joined first"),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("classify", argc, argv, options, &usage, 0);
	if (batch && argc)
		return cli_usage_error("classify", "--batch reads the FILE it names, not %s too",
				       argv[0]);
	if (o.check_applies && (!repo || !o.tree.version.major))
		return cli_usage_error("classify", "--check-applies needs --repo and --tree");
	if ((series || alone) && !o.check_applies)
		return cli_usage_error("classify", "--%s needs --check-applies",
				       series ? "series" : "alone");
	if (series && alone)
		return cli_usage_error("classify", "--series and --alone: choose one");
	if (repo && (batch || tags))
		return cli_usage_error("classify", "--repo judges commits one by one: not with %s",
				       batch ? "--batch" : "--tags");
	if (!argc) {
		argv = (char **)default_input;
		argc = 1;
	}
	/* each FILE in turn; the exit status is the worst */
	if (tags) {
		for (int i = 0; i < argc; i++)
			ret |= list_tags(argv[i]);
		return ret;
	}
	if (sm_rules_load(&o.rules, rules_dir))
		return cli_fail("classify");
	if (repo) {
		if (open_judge(&judge, repo, &o.tree, cache_dir) < 0) {
			sm_rules_free(o.rules);
			return cli_fail("classify");
		}
		o.judge = &judge;
		judge.in_order = series;
		o.by_thread = o.check_applies && !series && !alone;
	}
	if (batch) {
		ret = run_batch(&o, batch, max_record);
		warn_cut_paths(&o, batch);
	}
	if (!batch) {
		/* by_thread: every input is read first, and held */
		struct strbuf *bufs = xcalloc((size_t)argc, sizeof(*bufs));
		char *unread = xcalloc((size_t)argc, 1);

		for (int i = 0; i < argc; i++) {
			strbuf_init(&bufs[i], 0);
			if (o.by_thread && read_input(argv[i], &bufs[i]) < 0)
				unread[i] = 1;
		}
		if (o.by_thread)
			try_thread_series(&o, argc, argv, bufs, unread);
		for (int i = 0; i < argc; i++) {
			o.path = input_name(argv[i]);
			o.nr_mails = o.nr_bad = 0;
			if (unread[i] || (!o.by_thread && read_input(argv[i], &bufs[i]) < 0))
				ret = 1;	/* said when read */
			else
				ret |= classify_buffer(&o, o.path, &bufs[i]);
			strbuf_release(&bufs[i]);
			warn_cut_paths(&o, argv[i]);
		}
		free(unread);
		free(bufs);
		sm_series_fits_release(&o.series_fits);
	}
	if (o.judge)
		sm_repo_judge_close(o.judge);
	sm_rules_free(o.rules);
	return ret;
}
