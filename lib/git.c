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
	/* Directories of a kernel tree are larger than the default 4 KiB
	 * cacheable tree: keep them, a parent's trees are its child's. A
	 * small cache is enough for that (a walk in topological order reads
	 * a commit right after its parent) and keeps memory flat: the
	 * default 256 MiB grew a scan by 24 KiB per commit. */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)1 << 20);
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)8 << 20);
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
