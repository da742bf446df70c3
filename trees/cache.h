/* cache: what the cache files of trees/ share (the upstream and lifecycle
 * indexes, trees/branch_cache.h; the diff cache, trees/diff_cache.h; the
 * release map, trees/tags.h; the ancestry answers, trees/ancestry.h):
 * where they live, the state a run found one in, and the checksum line
 * that ends the ones that carry binary data or are rewritten often.
 * A cache is never an error: a file that does not check is rebuilt, and
 * one that cannot be written is a warning (write_cache_file, lib/fileio.h). */
#ifndef SM_TREES_CACHE_H
#define SM_TREES_CACHE_H
#include <stddef.h>
#include "lib/strbuf.h"

enum sm_cache_state {
	SM_CACHE_OFF,		/* no cache used */
	SM_CACHE_NEW,		/* no cache file yet: built and written */
	SM_CACHE_HIT,		/* cache tip == branch tip */
	SM_CACHE_INCREMENTAL,	/* cache extended with the new commits */
	SM_CACHE_REBUILT,	/* cache did not match or did not parse */
};

/* "off", "new", "hit", "incremental", "rebuilt". */
const char *sm_cache_state_name(enum sm_cache_state s);

/* The default cache directory: $XDG_CACHE_HOME/stablemate, else
 * ~/.cache/stablemate. Caller frees. */
char *sm_default_cache_dir(void);
/* The path of a cache file: cache_dir/subdir/<SHA-1 of key>suffix, cache_dir
 * NULL meaning sm_default_cache_dir(). NULL when cache_dir is "" (caching
 * off). Caller frees. */
char *sm_cache_file(const char *cache_dir, const char *subdir, const char *key,
		    const char *suffix);

/* The last line of a checksummed cache file: "end <SHA-1 of all before>\n". */
#define SM_CACHE_SUM_LEN (4 + 40 + 1)
/* Appends that line for sb's text to sb. */
void sm_cache_add_sum(struct strbuf *sb);
/* Whether buf (len bytes) ends in that line for the bytes before it; if so
 * *body gets their number (len - SM_CACHE_SUM_LEN). */
int sm_cache_check_sum(const char *buf, size_t len, size_t *body);

#endif
