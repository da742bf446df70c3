/* stablemate harvest: list replies -> reviews -> git notes on upstream commits. */
#include "cli/cli.h"
#include "cli/output.h"
#include "lib/progress.h"
#include "mail/harvest.h"
#include "mail/pending.h"
#include "gitnotes/notes.h"
#include "lib/util.h"
#include "lib/json.h"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate harvest --db DIR -C GIT_DIR [--query Q] [--upstream-ref REF]\n"
		    "                   [--notes-ref REF] [--bot-address ADDR] [--aliases FILE]\n"
		    "                   [--dry-run] [--json]",
	.description =
	"Reads the threads of the notmuch database DIR that match Q (default: the\n"
	"stable, stable-commits and linux-kernel lists) and changed since the last\n"
	"harvest of Q into the same notes ref and repository, links each reply to the\n"
	"patch (or cover letter) it answers, maps the patch to its upstream commit in\n"
	"GIT_DIR and adds the reply's trailers and comment to the review note of that\n"
	"commit (default ref " SM_NOTES_REF_DEFAULT "). The stable queue's\n"
	"notices (\"FAILED: patch ... failed to apply to 6.1-stable tree\", \"Patch ...\n"
	"has been added to the 6.12-stable tree\") are recorded there too, as blocks\n"
	"that are no review. Then the database revision read up to is recorded in the\n"
	"database's config (stablemate.harvest-<sha1>); messages are not tagged.\n"
	"A reviewed patch with no upstream commit yet (reviewed before it was merged)\n"
	"is kept there too (stablemate.harvest-<sha1>.pending) and looked up again\n"
	"each run the upstream ref has moved; found, its thread is read again.\n",
	.epilog =
	"SM_HARVEST_CRASH_AFTER_NOTE=1 (tests) exits with 3 right after the first\n"
	"note write, before the revision is recorded.\n",
};

struct out {
	struct cli_json j;	/* the document, written whether or not --json */
	int json;
};

static void on_event(void *data, const char *ev, const struct sm_review *r,
		     const char *commit, const char *patch_id, const char *subject)
{
	struct out *o = data;
	struct json_writer *w = &o->j.w;

	if (!strcmp(ev, "written")) {
		const char *crash = getenv("SM_HARVEST_CRASH_AFTER_NOTE");

		/* Test hook: die between the note write and the revision record. */
		if (crash && *crash && strcmp(crash, "0")) {
			fprintf(stderr, "stablemate harvest: SM_HARVEST_CRASH_AFTER_NOTE: exiting\n");
			fflush(stdout);
			_exit(3);
		}
		return;
	}
	if (!o->json)
		return;	/* the summary line says it all; --json lists each event */
	json_object_begin(w, NULL);
	json_string(w, "event", ev);
	if (r) {
		JSON_STRINGS(w, "commit message_id author date tree subject link", commit,
			     r->message_id, r->author, r->date, r->tree, r->subject, r->link);
		json_bool(w, "via_cover", r->via_cover);
		json_string(w, "notice", sm_review_is_notice(r) ? r->notice : NULL);
		json_strlist(w, "trailers", &r->trailers);
		json_strlist(w, "unverified", &r->unverified);
		json_string(w, "comment", r->comment);
	} else {
		json_string(w, "patch_message_id", patch_id);
		json_string(w, "subject", subject);
	}
	json_object_end(w);
}

int cmd_harvest(int argc, char **argv)
{
	struct sm_harvest_opts o = { 0 };
	struct sm_harvest_stats st;
	struct json_writer *w;
	struct out out = { 0 };
	int ret;
	const struct sm_option options[] = {
		OPT_STRING(0, "db", &o.db_path, "DIR", "notmuch database (its mail root)"),
		OPT_REPO(&o.repo, "repository with the upstream commits and the notes"),
		OPT_STRING(0, "query", &o.query, "Q", "notmuch query of the messages to harvest"),
		OPT_STRING(0, "upstream-ref", &o.upstream_ref, "REF",
			   "history patches are mapped against (default: HEAD's\n"
			   "branch, or master or main when that is a stable\n"
			   "branch such as linux-6.1.y)"),
		OPT_STRING(0, "notes-ref", &o.notes_ref, "REF",
			   "notes ref to write (default refs/notes/stable-review;\n"
			   "a bare name means refs/notes/NAME, as with git\n"
			   "notes --ref)"),
		OPT_STRING(0, "bot-address", &o.bot_address, "ADDR", "ignore replies sent from ADDR"),
		OPT_STRING(0, "aliases", &o.aliases_file, "FILE",
			   "known alternate addresses, one person a line, each\n"
			   "address in <>, as in git's .mailmap: a trailer counts\n"
			   "as a review only when its address is the sender's\n"
			   "or an alias of it; others are kept as Unverified:"),
		OPT_BOOL(0, "dry-run", &o.dry_run, "parse and map only: no note, no revision recorded"),
		OPT_BOOL(0, "json", &out.json, "print the reviews and counts as JSON"),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("harvest", argc, argv, options, &usage, 0);
	if (argc > 0)
		return cli_usage_error("harvest", "unexpected argument '%s'", argv[0]);
	if (!o.db_path || !o.repo)
		return cli_usage_error("harvest", "--db and -C/--repo are required");

	w = cli_json_begin(&out.j);
	json_object_begin(w, NULL);
	json_array_begin(w, "events");
	o.progress = sm_progress_start("Harvesting messages", 0);
	ret = sm_harvest_report(&o, &st, on_event, &out);
	json_array_end(w);
	if (ret < 0) {
		sm_progress_abort(&o.progress);
		cli_json_discard(&out.j);
		return cli_fail("harvest");
	}
	sm_progress_stop(&o.progress);
	if (out.json) {
		sm_harvest_stats_json(&st, w, "stats");
		json_bool(w, "dry_run", o.dry_run);
		json_object_end(w);
		cli_json_end(&out.j);
	} else {
		printf("harvest: %u messages, %u patches (%u mapped, %u unmapped), "
		       "%u reviews %s, %u already known, %u broken mails skipped\n",
		       st.messages, st.patches, st.mapped, st.unmapped, st.reviews_added,
		       o.dry_run ? "to add" : "added", st.reviews_known, st.skipped_broken);
		if (st.notices_added || st.notices_known)
			printf("harvest: %u stable-queue notice%s %s, %u already known\n",
			       st.notices_added, st.notices_added == 1 ? "" : "s",
			       o.dry_run ? "to record" : "recorded", st.notices_known);
		if (st.pending || st.pending_mapped || st.pending_expired)
			printf("harvest: %u reviewed patch%s wait%s for %s upstream commit; "
			       "%u found now, %u given up after %d days\n",
			       st.pending, st.pending == 1 ? "" : "es", st.pending == 1 ? "s" : "",
			       st.pending == 1 ? "its" : "their", st.pending_mapped,
			       st.pending_expired, SM_PENDING_DAYS);
		if (st.upstream_note[0])
			printf("harvest: patches mapped against %s (%s)\n", st.upstream_ref,
			       st.upstream_note);
		if (st.unverified || st.bad_ids)
			printf("harvest: %u replies with trailers in another's name (kept as "
			       "Unverified:), %u unusable Message-IDs kept under a derived id\n",
			       st.unverified, st.bad_ids);
		cli_json_discard(&out.j);
	}
	return 0;
}
