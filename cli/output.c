/* output: JSON documents of the subcommands onto stdout. */
#include "cli/cli.h"
#include "cli/output.h"
#include "lib/fileio.h"
#include "lib/util.h"
#include "mail/import.h"
#include "rules/commit.h"
#include "trees/rewrite.h"
#include <stdio.h>
#include <string.h>

struct json_writer *cli_json_begin(struct cli_json *j)
{
	strbuf_init(&j->buf, 0);
	json_init(&j->w, &j->buf);
	return &j->w;
}

struct json_writer *cli_json_begin_streamed(struct cli_json *j)
{
	json_stream_to(cli_json_begin(j), stdout);
	return &j->w;
}

void cli_json_flush(struct cli_json *j)
{
	FILE *sink = j->w.sink;	/* the next document of a streamed one streams too */

	strbuf_addch(&j->buf, '\n');
	fwrite(j->buf.buf, 1, j->buf.len, stdout);
	strbuf_reset(&j->buf);
	json_init(&j->w, &j->buf);
	json_stream_to(&j->w, sink);
}

void cli_json_end(struct cli_json *j)
{
	cli_json_flush(j);
	cli_json_discard(j);
}

void cli_json_discard(struct cli_json *j)
{
	strbuf_release(&j->buf);
}

int cli_rewrite_report(const char *cmd, const char *branch, int status, int json,
		       const struct sm_rewrite_result *r)
{
	if (status < 0)
		return cli_fail(cmd);
	if (json) {
		struct cli_json j;

		sm_rewrite_result_json(r, branch, status, cli_json_begin(&j));
		cli_json_end(&j);
	} else if (status == SM_PICK_CLEAN) {
		printf("%s: %.12s -> %.12s, %zu commit%s replayed; old tip kept in %s\n", branch,
		       r->old_tip, r->new_tip, r->replayed, r->replayed == 1 ? "" : "s",
		       r->backup_ref);
		for (size_t i = 0; i < r->fixed_by.nr; i++)
			printf("  still on %s, a fix of what was yanked: %.12s %s\n", branch,
			       r->fixed_by.items[i], r->fixed_by.items[i] + 41);
	}
	if (status == SM_PICK_CONFLICT)
		return cli_fail(cmd);
	return 0;
}

void cli_import_stats(const char *cmd, const struct sm_import_stats *st, int json,
		      int duplicates)
{
	struct cli_json j;

	if (json) {
		sm_import_stats_json(st, cli_json_begin(&j));
		cli_json_end(&j);
		return;
	}
	printf("%s: %u messages, %u written, %u already there, %u indexed, ", cmd,
	       st->messages, st->written, st->existing, st->indexed);
	if (duplicates)
		printf("%u duplicate Message-IDs, ", st->duplicates);
	printf("%u skipped\n", st->skipped);
}

void cli_count_cut_paths(struct cli_cut_paths *cut, const struct sm_commit *c)
{
	unsigned n = sm_commit_cut_paths(c);

	cut->files += n;
	cut->commits += n > 0;
}

void cli_warn_cut_paths(const char *input, struct cli_cut_paths *cut, const char *unknown)
{
	if (cut->files)
		sm_warn("%s: git --stat cut %u path%s of %u commit%s to \".../\": %s; "
			"`git log --numstat` or `--stat=1000` keeps them",
			input_name(input), cut->files,
			cut->files == 1 ? "" : "s", cut->commits, cut->commits == 1 ? "" : "s", unknown);
	cut->files = cut->commits = 0;
}
