/* commit: one commit message (and optionally its diff) parsed once into
 * the structure every other part of stablemate reuses: subject, trailers,
 * stable tags, Fixes: tags, upstream references and diff statistics. */
#ifndef SM_RULES_COMMIT_H
#define SM_RULES_COMMIT_H
#include <stddef.h>
#include "rules/version.h"

struct sm_trailer {
	char *key;		/* as written: "Reviewed-by", "Cc" */
	char *value;		/* unfolded, trimmed */
	unsigned lineno;	/* 1-based line in the message */
};

enum sm_stable_kind {
	SM_STABLE_ALL,		/* no version: every maintained tree */
	SM_STABLE_FROM,		/* 3.4+, 4.4.x, v4.4, 5.10 and later: >= from */
	SM_STABLE_RANGE,	/* 3.10-4.4, v4.1..v4.4: from <= tree <= to */
	SM_STABLE_UPTO,		/* <= 6.3 (only that and older) */
	SM_STABLE_ONLY,		/* "5.10 only" */
	SM_STABLE_UNPARSED,	/* a version comment we could not read */
};

struct sm_stable_tag {
	char *line;		/* the tag as written, folding undone */
	char *address;		/* stable@vger.kernel.org, stable@kernel.org, ... */
	int noautosel;		/* stable+noautosel@: never pick automatically */
	enum sm_stable_kind kind;
	struct sm_version from, to;
	char *prereq_sha;	/* "# 4.9.x: a1f84a3: subject" */
	char *prereq_subject;
	char *condition;	/* "after -rc3", "after 4 weeks in mainline" */
	struct sm_version adjust_upto;	/* "needs adjustments for <= 6.3"; major 0 if none */
	char *comment;		/* the whole version comment, "" if none */
	unsigned lineno;
};

struct sm_fixes_tag {
	char *sha;		/* abbreviated id as written (lower case), NULL if none */
	char *subject;		/* ("subject") without quotes, NULL if absent */
	char *line;
	char *problem;		/* why it is malformed, NULL when well formed */
	unsigned lineno;
};

/* One file a diff (or numstat/stat) touches. */
struct sm_diff_file {
	char *path;		/* the new path ("b/" side) */
	unsigned added, removed;
	unsigned char is_new, is_deleted;
};

struct sm_diffstat {
	unsigned files;
	unsigned added, removed;
	unsigned doc_files;		/* Documentation/, *.rst, *.txt, MAINTAINERS... */
	unsigned code_lines_changed;	/* +/- lines that are neither blank nor comment */
	unsigned id_table_lines;	/* added lines of device-ID entries (device_ids.h) */
	unsigned id_entries;		/* device-ID table entries added */
	unsigned comment_lines;		/* +/- lines that are comments */
	int whitespace_only;		/* code lines changed only in whitespace */
	/* otherwise, only stray semicolons and white space: ";;" for ";",
	 * "};" for "}", a ";" line of its own (rules/diffstat.c loose_c_hash) */
	int semicolons_only;
	unsigned added_checks;		/* added "if (" lines (a new check) */
	unsigned added_error_returns;	/* added "return -E..." / "goto" lines */
	unsigned new_files, deleted_files;
	int from_stat;			/* numbers from numstat/--stat, no diff text */
};

struct sm_commit {
	char *id;		/* full or abbreviated sha, NULL if unknown */
	char *author;		/* "Name <email>" */
	char *committer;
	char *subject;
	/* The Subject: of the mail this commit was pasted into whole, with
	 * its mbox "From " line and headers (a stable FAILED notice's
	 * "original commit in Linus's tree", the queue's patch in an "added
	 * to the 6.12-stable tree" notice, a reply that ends with the patch
	 * it proposes); NULL when the mail is the commit's own. */
	char *outer_subject;
	char *body;		/* message after the subject line, with trailers */
	size_t body_text_len;	/* length of body before its closing trailer block */
	struct sm_trailer *trailers;
	size_t nr_trailers;
	struct sm_stable_tag *stable;
	size_t nr_stable;
	struct sm_fixes_tag *fixes;
	size_t nr_fixes;
	char *upstream_sha;	/* "commit X upstream.", "[ Upstream commit X ]", ... */
	char *reverts_sha;	/* "This reverts commit X." */
	int is_merge;		/* "Merge ..." subject or more than one parent */
	int is_cover_letter;	/* a mail "[PATCH 0/N]": a series' cover, no commit
				 * (the id of format-patch's "From <id>" line,
				 * the series' tip, is not kept) */
	int is_reply;		/* a mail "Re:", "Aw:" or "Fwd:" */
	int is_pull_request;	/* a mail "[GIT PULL]" or "[PULL REQUEST]" */
	int is_mail;		/* the subject is a mail's Subject: header */
	int has_patch_tag;	/* a mail "[PATCH ...]", "[RFC ...]" */
	unsigned patch_nr, patch_total;	/* "[PATCH 2/7]": 2, 7; 0 when not numbered */
	int has_diff;
	struct sm_diffstat diff;
	struct sm_diff_file *files;	/* in diff order */
	size_t nr_files, alloc_files;
};

/* Parses a whole commit as `git show`, `git log`, `git format-patch` or a
 * mail prints it: headers (commit/Author/Date or From/Subject), message,
 * and the diff if present. Returns 0; -1 (sm_error) only for empty input. */
int sm_commit_parse(struct sm_commit *c, const char *text, size_t len);
/* Parses a bare commit message (subject line, body, trailers), as libgit2's
 * git_commit_message() returns it. */
int sm_commit_parse_message(struct sm_commit *c, const char *msg, size_t len);
/* Adds diff statistics from unified diff text: git's patch format, or a
 * plain "--- OLD" / "+++ NEW" diff as diff -u, quilt and Andrew Morton's
 * mm scripts write it (paths lose their first component, as patch -p1). */
void sm_commit_parse_diff(struct sm_commit *c, const char *diff, size_t len);
/* Where the diff in [text, end) starts: its first "diff --git " line, else
 * the first "--- " line with a "+++ " line and a hunk header after it;
 * NULL when there is none. */
const char *sm_find_diff(const char *text, const char *end);
/* The path of a plain diff's "--- " or "+++ " line (s[0..n) after it),
 * into out (reset first): diff -u's tab and time stamp cut, the first
 * directory dropped ("a/", "linux-6.1.orig/"), as patch -p1 reads it.
 * 1, or 0 for /dev/null. */
struct strbuf;
int sm_plain_diff_path(const char *s, size_t n, struct strbuf *out);
/* A hunk header "@@ -a[,b] +c[,d] @@" (line[0..len)) read into h: each
 * side's first line and count (1 when absent), and how many bytes of line
 * that took (up to the space after "+c[,d]"). 0, or -1 when line is not
 * one. */
struct sm_hunk {
	long old_start, old_lines, new_start, new_lines;
	size_t read;
};
int sm_hunk_header(const char *line, size_t len, struct sm_hunk *h);
/* A hunk header "@@ -a[,b] +c[,d] @@" (line[0..len)): *before = b and
 * *after = d, the lines the hunk holds of each side (1 when absent).
 * Returns 0, or -1 when line is not one. */
int sm_hunk_counts(const char *line, size_t len, int *before, int *after);
/* The most lines a file's count or a commit's total is taken to be: a
 * larger number (a numstat or JSON count that would not fit) stops there. */
#define SM_DIFF_MAX_LINES 1000000000u
/* Adds one file's counts as `git log --numstat` gives them (no diff text);
 * c->diff.from_stat is set. Totals stop at SM_DIFF_MAX_LINES. */
void sm_commit_add_file(struct sm_commit *c, const char *path, size_t len, unsigned added,
			unsigned removed);
/* Did `git log --stat` cut path to ".../rest" to fit its width? Its
 * directories are then unknown: no diff:top:, no docs-only. */
int sm_path_is_cut(const char *path);
/* How many of c's files have such a path. */
unsigned sm_commit_cut_paths(const struct sm_commit *c);
/* If [text, end) starts a `git log --numstat` or `--stat` block (after the
 * message), returns where; else NULL. */
const char *sm_find_stat_block(const char *text, const char *end);
/* Adds the files of a numstat/--stat block (up to a blank line or a diff). */
void sm_commit_parse_stat(struct sm_commit *c, const char *text, size_t len);
/* The length of the subsystem prefix of a subject ("x86/mm: Fix ..." ->
 * "x86/mm", "hwmon: (pmbus) Fix" -> "hwmon: (pmbus)"; 0 when none), and in
 * *words_at where its words start (past ": "; 0 when none). */
size_t sm_subject_prefix(const char *subject, size_t *words_at);
/* The Subject: of a patch pasted whole into a mail's text (above its diff;
 * see outer_subject), folds joined and blanks squeezed, and in *at where
 * its mbox "From " line starts; NULL when text has none. Caller frees. */
char *sm_pasted_patch_subject(const char *text, size_t len, size_t *at);
void sm_commit_release(struct sm_commit *c);
/* c's tags as members of the JSON object open in w: stable_tags[] (line,
 * address, kind, from, to, noautosel, prereq, prereq_subject, condition,
 * comment) and fixes[] (sha, subject, problem). */
struct json_writer;
void sm_commit_tags_json(const struct sm_commit *c, struct json_writer *w);
/* "diff": what was read of the change, null without one: "from" ("diff",
 * or "numstat" for numstat, --stat or JSONL "files" input), the totals,
 * and "files" as JSONL input gives them ({"file", "added", "removed"},
 * "new"/"deleted" when so), so the output can be fed back. */
void sm_commit_diff_json(const struct sm_commit *c, struct json_writer *w);

/* The first trailer with key (case-insensitive), or NULL. */
const struct sm_trailer *sm_commit_trailer(const struct sm_commit *c, const char *key);

/* Lower-level pieces, reused by mail/ for replies and by the fuzzers. */
/* Parses one stable tag line ("Cc: ..." already unfolded). Returns 1 if the
 * line is a stable tag (t filled in; release with sm_stable_tag_release),
 * 0 if it is not one. */
int sm_stable_tag_parse(const char *line, struct sm_stable_tag *t);
void sm_stable_tag_release(struct sm_stable_tag *t);
/* "all", "from", "range", "upto", "only", "unparsed". */
const char *sm_stable_kind_name(enum sm_stable_kind kind);
/* Does the tag ask for this tree? 1 yes, 0 no, -1 unknown (unparsed). */
int sm_stable_tag_wants(const struct sm_stable_tag *t, const struct sm_version *tree);
/* The trees the tag asks for, in words ("all trees", "5.10 and later",
 * "4.19 to 5.4", ...), into buf; returns buf. */
const char *sm_stable_tag_trees(const struct sm_stable_tag *t, char *buf, size_t size);
int sm_fixes_tag_parse(const char *value, struct sm_fixes_tag *f);
/* Does f name the commit it fixes: an id of 7 hex digits or more (git's
 * shortest abbreviation), whether or not the line is well formed? */
int sm_fixes_names_commit(const struct sm_fixes_tag *f);
void sm_fixes_tag_release(struct sm_fixes_tag *f);
/* Finds the upstream id a stable commit names in its message: the first
 * reference in a stable tree's form (below), else the last one (`git
 * cherry-pick -x` appends its line to any the commit had). Caller frees. */
char *sm_find_upstream_ref(const char *msg, size_t len);
/* The same, when that reference is in a form only a stable tree writes
 * ("commit X upstream.", "[ Upstream commit X ]", or "This is upstream
 * commit X." as the body's first line): msg is then a stable branch's
 * commit. Mainline's own "(cherry picked from commit X)" (drm's fixes from
 * -next) and the distributions' forms give NULL. */
char *sm_find_stable_upstream_ref(const char *msg, size_t len);
/* The upstream id of the first "Stable-dep-of: <id> ("subject")" trailer,
 * the line stable trees add to a commit they took only because a later
 * backport needs it: into out, lower case, 7..40 digits as written. 1, or
 * 0 when msg (len bytes) has none. */
int sm_find_stable_dep_of(const char *msg, size_t len, char out[41]);
/* Is key a trailer key this project recognises ("Signed-off-by", ...)? */
int sm_is_known_trailer_key(const char *key, size_t len);

#endif
