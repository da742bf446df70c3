/* stablemate harvest: list replies -> reviews -> git notes on upstream commits. */
#include "cli/cli.h"
#include "lib/progress.h"
#include "mail/harvest.h"
#include "gitnotes/notes.h"
#include "lib/util.h"
#include "lib/json.h"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const synopsis[] = {
	"stablemate harvest --db DIR -C GIT_DIR [--query Q] [--upstream-ref REF]",
	"                   [--notes-ref REF] [--bot-address ADDR] [--aliases FILE]",
	"                   [--dry-run] [--json]",
	NULL
};

static const struct sm_usage usage = { synopsis,
	"Reads the threads of the notmuch database DIR that match Q (default: the\n"
	"stable and linux-kernel lists) and changed since the last harvest of Q into\n"
	"the same notes ref and repository, links each reply to the patch (or cover\n"
	"letter) it answers, maps the patch to its upstream commit in GIT_DIR and adds\n"
	"the reply's trailers and comment to the review note of that commit (default\n"
	"ref " SM_NOTES_REF_DEFAULT "). Then the database revision read up to is\n"
	"recorded in the database's config (stablemate.harvest-<sha1>); messages are\n"
	"not tagged.\n",
	"SM_HARVEST_CRASH_AFTER_NOTE=1 (tests) exits with 3 right after the first\n"
	"note write, before the revision is recorded.\n"
};

struct out {
	struct json_writer w;
	int json;
};

static void on_event(void *data, const char *ev, const struct sm_review *r,
		     const char *commit, const char *patch_id, const char *subject)
{
	struct out *o = data;

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
	json_object_begin(&o->w, NULL);
	json_string(&o->w, "event", ev);
	if (r) {
		json_string(&o->w, "commit", commit);
		json_string(&o->w, "message_id", r->message_id);
		json_string(&o->w, "author", r->author);
		json_string(&o->w, "date", r->date);
		json_string(&o->w, "tree", r->tree);
		json_string(&o->w, "subject", r->subject);
		json_string(&o->w, "link", r->link);
		json_bool(&o->w, "via_cover", r->via_cover);
		json_array_begin(&o->w, "trailers");
		for (size_t i = 0; i < r->trailers.nr; i++)
			json_string(&o->w, NULL, r->trailers.items[i]);
		json_array_end(&o->w);
		json_array_begin(&o->w, "unverified");
		for (size_t i = 0; i < r->unverified.nr; i++)
			json_string(&o->w, NULL, r->unverified.items[i]);
		json_array_end(&o->w);
		json_string(&o->w, "comment", r->comment);
	} else {
		json_string(&o->w, "patch_message_id", patch_id);
		json_string(&o->w, "subject", subject);
	}
	json_object_end(&o->w);
}

int cmd_harvest(int argc, char **argv)
{
	struct sm_harvest_opts o = { 0 };
	struct sm_harvest_stats st;
	struct strbuf sb = STRBUF_INIT;
	struct out out = { 0 };
	int ret;
	const struct sm_option options[] = {
		OPT_STRING(0, "db", &o.db_path, "DIR", "notmuch database (its mail root)"),
		OPT_REPO(&o.repo, "repository with the upstream commits and the notes"),
		OPT_STRING(0, "query", &o.query, "Q", "notmuch query of the messages to harvest"),
		OPT_STRING(0, "upstream-ref", &o.upstream_ref, "REF",
			   "history patches are mapped against (default HEAD)"),
		OPT_STRING(0, "notes-ref", &o.notes_ref, "REF", "notes ref to write"),
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

	json_init(&out.w, &sb);
	json_object_begin(&out.w, NULL);
	json_array_begin(&out.w, "events");
	o.progress = sm_progress_start("Harvesting messages", 0);
	ret = sm_harvest_report(&o, &st, on_event, &out);
	json_array_end(&out.w);
	if (ret < 0) {
		sm_progress_abort(&o.progress);
		strbuf_release(&sb);
		return cli_fail("harvest");
	}
	sm_progress_stop(&o.progress);
	if (out.json) {
		json_object_begin(&out.w, "stats");
		json_int(&out.w, "messages", st.messages);
		json_int(&out.w, "patches", st.patches);
		json_int(&out.w, "mapped", st.mapped);
		json_int(&out.w, "unmapped", st.unmapped);
		json_int(&out.w, "reviews_added", st.reviews_added);
		json_int(&out.w, "reviews_known", st.reviews_known);
		json_int(&out.w, "skipped_broken", st.skipped_broken);
		json_int(&out.w, "unverified", st.unverified);
		json_int(&out.w, "bad_message_ids", st.bad_ids);
		json_object_end(&out.w);
		json_bool(&out.w, "dry_run", o.dry_run);
		json_object_end(&out.w);
		printf("%s\n", sb.buf);
	} else {
		printf("harvest: %u messages, %u patches (%u mapped, %u unmapped), "
		       "%u reviews %s, %u already known, %u broken mails skipped\n",
		       st.messages, st.patches, st.mapped, st.unmapped, st.reviews_added,
		       o.dry_run ? "to add" : "added", st.reviews_known, st.skipped_broken);
		if (st.unverified || st.bad_ids)
			printf("harvest: %u replies with trailers in another's name (kept as "
			       "Unverified:), %u unusable Message-IDs kept under a derived id\n",
			       st.unverified, st.bad_ids);
	}
	strbuf_release(&sb);
	return 0;
}
