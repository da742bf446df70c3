/* git: the one place libgit2 is set up, and its error text. */
#ifndef SM_GIT_H
#define SM_GIT_H
#include <git2.h>

/* git_libgit2_init() once per process, with the options every user wants
 * (no re-hashing of objects read, kernel-sized trees kept in the cache).
 * Safe to call from anywhere, any number of times. */
void sm_git_init(void);
/* git_error_last()'s message, or "unknown libgit2 error". */
const char *sm_git_error(void);
/* sm_error("<fmt...>: <libgit2's message>"); returns -1. */
int sm_git_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The error for path, which git_repository_open*() refused with code:
 * "PATH: not a git repository (<libgit2's message>)", or, for a repository
 * another user owns (a bot running as its own user on the maintainer's
 * clone), what git says of it and how to allow it (safe.directory).
 * Returns -1. */
int sm_git_open_fail(const char *path, int code);

/* A commit whose "encoding" header names a charset other than UTF-8 (git
 * commit under i18n.commitEncoding: ISO-8859-1 in some old kernel commits)
 * holds its message and its identities' names in that charset. These give
 * them in UTF-8, converted with iconv as `git log` does.
 *
 * sm_commit_utf8: text (c's message, summary or an identity's name, as
 * libgit2 gives them) in UTF-8. Returns text itself when c is UTF-8 or the
 * conversion fails (an unknown charset, bytes it does not hold: the bytes as
 * stored, as git shows them), else a copy, which *owned also holds for the
 * caller to free (NULL otherwise). text NULL: NULL. */
const char *sm_commit_utf8(const git_commit *c, const char *text, char **owned);
/* c's summary (libgit2's: its first paragraph on one line) in UTF-8, each
 * CR or LF left in it made a space; "" when it has none. Caller frees. */
char *sm_commit_subject(const git_commit *c);
/* sig with its name in UTF-8 (c's charset, as above), into *out; free with
 * git_signature_free. Returns 0 or -1 (sm_error). */
int sm_commit_signature_utf8(git_signature **out, const git_commit *c,
			     const git_signature *sig);

/* The options of git's own diff (git show, git log -p, format-patch): the
 * indent heuristic (diff.indentHeuristic, git's default since 2.14), which
 * slides an added or removed block along lines that repeat to where the
 * indentation says it begins: "+\t{ ... +\t}," rather than "+\t}, +\t{ ...".
 * So scan reads a commit's diff as classify reads its git show (device-ID
 * entries, comment and whitespace changes, patch-ids). */
void sm_diff_options_init(git_diff_options *o);
/* d as a patch mail shows a commit: its --stat (full paths, with the
 * summary, 72 columns) appended to stat, then the patch to patch. The bot
 * compares two of these as text: one formatter keeps equal changes equal.
 * 0, or a libgit2 error (nothing said; sm_git_error() tells). */
struct strbuf;
int sm_diff_show(git_diff *d, struct strbuf *stat, struct strbuf *patch);

#endif
