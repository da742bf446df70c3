/* branch_cache: the on-disk cache of an index over one branch (the
 * upstream index, trees/upstream_index.h; the lifecycle index,
 * trees/lifecycle.h), and the building of such an index through it.
 *
 * One text file per repository + branch + base, stamped with the tip its
 * entries run to:
 *	<magic>
 *	repo <git_repository_path()>
 *	branch <the branch as given>
 *	base <the base's full id, or "-" for the whole history>
 *	tip <full id>
 *	count <number of entry lines>
 *	<the entry lines, in the index's own format>
 *	end
 * Each index keeps its own magic line and entry format (struct
 * sm_branch_index_ops); this module reads and writes the rest and decides
 * how the index is brought up to the branch's tip: from the file alone
 * (same tip), from the file and the new commits (the tip grew), or from
 * scratch (no file, another key, a rewritten branch, a file that does not
 * parse, which is never trusted). */
#ifndef SM_TREES_BRANCH_CACHE_H
#define SM_TREES_BRANCH_CACHE_H
#include <stddef.h>
#include <git2.h>
#include "trees/cache.h"
#include "lib/strbuf.h"

/* What an index brings of its own; data is the index (or a context around
 * it), handed to each op. */
struct sm_branch_index_ops {
	const char *magic;	/* the first line of its files, without newline */
	const char *subdir;	/* its files are cache_dir/subdir/<SHA-1>.idx */
	const char *what;	/* its files in the write warning ("index cache") */
	/* Adds the entry of one cache line (len bytes before its newline).
	 * Returns 0, or -1 when the line does not parse (no sm_error). */
	int (*read_entry)(void *data, const char *line, size_t len);
	/* Appends every entry's cache line (with its newline) to sb; returns
	 * their number. */
	size_t (*write_entries)(void *data, struct strbuf *sb);
	/* Drops every entry (read from a file that turned out unusable). */
	void (*clear)(void *data);
	/* Adds the entry of one commit of the branch; they come oldest first
	 * (topological order). Returns 0 or -1 (sm_error). */
	int (*add_commit)(void *data, git_repository *repo, const git_oid *id);
};

/* The entry lines of both indexes have four fields, the last running to
 * the end of the line: "<id> <a> <b> <subject>", a or b "-" when empty.
 * sm_branch_cache_add_entry() appends one (with its newline) to sb;
 * sm_branch_cache_split_entry() splits one (len bytes before its newline)
 * at its first three spaces into e, pointing into line: 0, or -1 when it
 * has fewer than three. An a or b written "-" is field NULL, length 0;
 * checking the fields is the index's. */
struct sm_branch_entry_line {
	const char *field[4];
	size_t len[4];
};
void sm_branch_cache_add_entry(struct strbuf *sb, const char *id, const char *a, const char *b,
			       const char *subject);
int sm_branch_cache_split_entry(const char *line, size_t len, struct sm_branch_entry_line *e);

/* What sm_branch_index_build tells an index about its branch and cache. */
struct sm_branch_head {
	char tip[41];			/* the branch's tip */
	char base[41];			/* base's id; "" for the whole history */
	enum sm_cache_state cache_state;
	size_t from_cache;		/* entries read from the file */
	size_t scanned;			/* commits read from the repository */
	char *cache_path;		/* the file; NULL when caching is off */
};

/* Builds an index of refname (any revision naming a commit) over
 * base..refname (base NULL: the whole history) in repo: reads the cache
 * file, hands each commit it lacks to ops->add_commit and writes the file
 * back unless it was a hit. cache_dir NULL means sm_default_cache_dir(),
 * "" turns the cache off. The commits read are counted on progress
 * (lib/progress.h, may be NULL) under the phase "Indexing REFNAME".
 * Fills head; its cache_path is the caller's to free, also on failure.
 * Returns 0, or -1 (sm_error naming refname) when refname does not name a
 * commit, the history cannot be walked or add_commit fails. A file that
 * cannot be written is a warning, not an error. */
/* known (may be NULL): a walk the caller already made of base..tip
 * (topological, oldest first: the order of the walk here), handed to
 * add_commit instead of walking again when the index is built from
 * scratch over that base up to that tip (scan's range, when the upstream
 * ref is its end). */
struct sm_progress;
struct sm_known_walk {
	git_oid base, tip;
	const git_oid *ids;
	size_t nr;
};
int sm_branch_index_build(const struct sm_branch_index_ops *ops, void *data,
			  git_repository *repo, const char *refname, const git_oid *base,
			  const char *cache_dir, struct sm_progress *progress,
			  const struct sm_known_walk *known, struct sm_branch_head *head);

#endif
