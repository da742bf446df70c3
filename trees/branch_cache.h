/* branch_cache: the text cache file of an index over one branch (the
 * upstream index, trees/upstream_index.h; the lifecycle index,
 * trees/lifecycle.h). One file per repository + branch + base, stamped
 * with the tip its entries run to:
 *	<magic>
 *	repo <git_repository_path()>
 *	branch <the branch as given>
 *	base <the base's full id, or "-" for the whole history>
 *	tip <full id>
 *	count <number of entry lines>
 *	<the entry lines, in the index's own format>
 *	end
 * Each index keeps its own magic line and entry format; this module reads
 * and writes the rest and decides how the index is brought up to the
 * branch's tip: from the file alone (same tip), from the file and the new
 * commits (the tip grew), or from scratch (no file, another key, a
 * rewritten branch, a file that does not parse). */
#ifndef SM_TREES_BRANCH_CACHE_H
#define SM_TREES_BRANCH_CACHE_H
#include <stddef.h>
#include <git2.h>
#include "trees/cache.h"
#include "lib/strbuf.h"

/* The header of a cache file. The strings are borrowed: they must outlive
 * the struct, which needs no release. */
struct sm_branch_cache {
	const char *magic;	/* the first line, without its newline */
	const char *repo;	/* key: git_repository_path() of the repository */
	const char *refname;	/* key: the branch as given */
	const char *base;	/* key: the base's full id, or "-" */
	const char *tip;	/* the branch's tip now: full id */
	size_t count;		/* entry lines (only sm_branch_cache_header reads it) */
};

/* The file for c's key: cache_dir/subdir/<SHA-1 of repo, refname, base>.idx
 * (cache_dir as for sm_cache_file: NULL is the default directory). NULL
 * when cache_dir is "" (caching off). Caller frees. */
char *sm_branch_cache_path(const struct sm_branch_cache *c, const char *cache_dir,
			   const char *subdir);

/* An index's entry parser: line is one entry line, len bytes before its
 * newline. Returns 0, or -1 when the line does not parse (no sm_error). */
typedef int (*sm_branch_cache_entry_fn)(void *data, const char *line, size_t len);

/* Reads the file at path, checking its magic line and key against c and
 * handing each entry line to entry(data, ...), and says how the index of
 * c->tip is to be built:
 *  SM_CACHE_NEW          there is no file; entry() was not called.
 *  SM_CACHE_HIT          the file's tip is c->tip: the entries are the index.
 *  SM_CACHE_INCREMENTAL  c->tip descends from the file's tip, stored in
 *                        *cached_tip: the entries cover base..*cached_tip.
 *  SM_CACHE_REBUILT      the file is another key's, does not parse, or its
 *                        tip is no longer on the branch: the caller drops
 *                        what entry() added and reads base..tip.
 * Never an error: an unreadable file is SM_CACHE_REBUILT (sm_error is
 * cleared). */
enum sm_cache_state sm_branch_cache_read(const struct sm_branch_cache *c, const char *path,
					 git_repository *repo, sm_branch_cache_entry_fn entry,
					 void *data, git_oid *cached_tip);

/* Appends c's header (its magic line to its count line) to sb: the start
 * of the text sm_branch_cache_write writes. */
void sm_branch_cache_header(const struct sm_branch_cache *c, struct strbuf *sb);
/* Ends sb (the header, then the entry lines each ending in a newline) with
 * "end" and writes it to path atomically, creating its directory. A file
 * that cannot be written is a warning ("PATH: cannot write the WHAT: ..."),
 * not an error. sb stays the caller's to release. */
void sm_branch_cache_write(const char *path, struct strbuf *sb, const char *what);

#endif
