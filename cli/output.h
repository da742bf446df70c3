/* output: how a subcommand prints a result as JSON. The result type owns its
 * shape (a *_json() function next to its *_release(), e.g.
 * sm_scan_result_json, sm_verdict_json); the command only frames it:
 *
 *	struct cli_json j;
 *
 *	sm_missing_result_json(&r, cli_json_begin(&j));
 *	cli_json_end(&j);
 *
 * One document is one line on stdout. A write error is not checked here:
 * main() checks stdout once at exit (exit 128, one line on stderr). */
#ifndef SM_CLI_OUTPUT_H
#define SM_CLI_OUTPUT_H
#include "lib/json.h"
#include "lib/strbuf.h"

struct cli_json {
	struct strbuf buf;
	struct json_writer w;
};

/* Starts an empty document in j; returns its writer. */
struct json_writer *cli_json_begin(struct cli_json *j);
/* The same for a long document made from a finished result (scan,
 * missing): it goes to stdout as it grows (json_stream_to), so
 * cli_json_discard can no longer take it back. */
struct json_writer *cli_json_begin_streamed(struct cli_json *j);
/* Writes the document and a newline to stdout, and empties j for the next
 * document (the buffer is kept: a loop of records reuses it). */
void cli_json_flush(struct cli_json *j);
/* cli_json_flush, then frees j's buffer. */
void cli_json_end(struct cli_json *j);
/* Frees j's buffer without writing anything (an error came up mid-way). */
void cli_json_discard(struct cli_json *j);

/* import and fetch: st as JSON, or as the line "CMD: N messages, N written,
 * ..." (naming the duplicate Message-IDs when duplicates is set). */
struct sm_import_stats;
void cli_import_stats(const char *cmd, const struct sm_import_stats *st, int json,
		      int duplicates);

/* yank and insert: prints the outcome status of sm_yank/sm_insert on branch
 * (the JSON of r, or a line when rewritten; a conflict or an error as
 * "stablemate CMD: <error>" on stderr). Returns the exit code, 0 or 1. */
struct sm_rewrite_result;
int cli_rewrite_report(const char *cmd, const char *branch, int status, int json,
		       const struct sm_rewrite_result *r);

/* classify and train: the paths of an input that `git log --stat` cut to
 * ".../" to fit its width (sm_commit_cut_paths), counted commit by commit */
struct sm_commit;
struct cli_cut_paths {
	unsigned files, commits;
};
void cli_count_cut_paths(struct cli_cut_paths *cut, const struct sm_commit *c);
/* One line on stderr when there were any, saying what stays unknown of
 * them and which git options keep them whole; cut is emptied for the next
 * input. */
void cli_warn_cut_paths(const char *input, struct cli_cut_paths *cut, const char *unknown);

#endif
