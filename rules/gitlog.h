/* gitlog: the output of `git log` (plain, --stat, --numstat or -p) split
 * into its commits, from a buffer or fed a line at a time (a stream).
 *
 * A commit starts at an unindented "commit <id>" line (40 hex digits, or
 * 4 to 39 under --abbrev-commit or log.abbrevCommit), maybe followed by
 * " (refs)" or " (from <id>)": git indents the message by four
 * spaces, and every line of a diff starts with ' ', '+', '-', '@', '\' or a
 * keyword of its own, so no other line of the output looks like one. */
#ifndef SM_RULES_GITLOG_H
#define SM_RULES_GITLOG_H
#include <stddef.h>
#include "lib/strbuf.h"

/* One commit's text (its "commit" line included), or, when too_big, NULL
 * and only its size: it is over the cap and was not kept. n counts from 1.
 * A negative return stops the split and is returned. */
typedef int (*sm_gitlog_fn)(const char *text, size_t len, unsigned n, int too_big, void *data);

struct sm_gitlog {
	size_t max;		/* a commit's most bytes kept */
	sm_gitlog_fn fn;
	void *data;
	struct strbuf cur;	/* the commit read so far */
	struct strbuf rename;	/* a -z numstat rename made one line */
	size_t cur_len;		/* its whole size, also past max */
	unsigned n;		/* commits begun */
	char id[41];		/* the current one's id, for fn's messages */
};

/* Is line[0..len) (no '\n') the first line of a commit? */
int sm_gitlog_is_header(const char *line, size_t len);

/* When line[0..len) (an input's first line) starts output of git that
 * holds no message to judge, what it is, for a message ("`git log
 * --oneline` output, which holds no commit messages"); else NULL. Known:
 * --oneline ("1a2b3c4 net: fix x": an id of 7 or more hex digits with a
 * digit in it, so no English first line is taken for one), --graph ("*
 * commit <id>", "* 1a2b3c4 subject"), git cherry ("+ <id>") and a list of
 * ids (git rev-list). */
const char *sm_gitlog_messageless(const char *line, size_t len);

void sm_gitlog_init(struct sm_gitlog *g, size_t max, sm_gitlog_fn fn, void *data);
/* The next line, without its '\n'; line NULL for one too long to keep
 * (len its length: the commit is then too big). A NUL in it breaks it as
 * a newline would (`git log -z`, whose --numstat rename "N\tN\t\0old\0new\0"
 * is read as "N\tN\told => new"). Lines before the first commit line are
 * left out. 0 or fn's < 0. */
int sm_gitlog_line(struct sm_gitlog *g, const char *line, size_t len);
/* The last commit. 0 or fn's < 0. */
int sm_gitlog_finish(struct sm_gitlog *g);
void sm_gitlog_release(struct sm_gitlog *g);

/* The same for a whole text in memory. 0 or fn's < 0. */
int sm_gitlog_split(const char *text, size_t len, size_t max, sm_gitlog_fn fn, void *data);

#endif
