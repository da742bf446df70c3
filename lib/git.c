/* git: libgit2 set up once, and its error text. */
#include "lib/git.h"
#include "lib/util.h"
#include <pthread.h>
#include <stdio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_once(void)
{
	git_libgit2_init();
	/* Like git itself, trust the object store: re-hashing every object
	 * read was a third of a scan's time. */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/* The cache is for the commits: a scan reads each one two or three
	 * times (a revision walk, then an index, then its diff), and the
	 * object cache (raw and parsed) spares the later reads if it still
	 * has them. Trees keep libgit2's default limit (4 KiB): a parent's
	 * trees, its child's old ones, are kept by the diff itself
	 * (sm_tree_keep in trees/repo.h), and big trees in the cache pushed
	 * the commits out. 32 MiB is a bound, so memory stays flat (the
	 * default 256 MiB grew a scan by 24 KiB per commit); with 8 MiB a
	 * cold scan of 15,000 commits did a quarter more work. */
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)32 << 20);
}

void sm_git_init(void)
{
	pthread_once(&once, init_once);
}

const char *sm_git_error(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

int sm_git_fail(const char *fmt, ...)
{
	char ctx[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	return sm_error("%s: %s", ctx, sm_git_error());
}
