/* git: libgit2 set up once, and its error text. */
#include "lib/git.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

int sm_git_open_fail(const char *path, int code)
{
	char *abs;
	int ret;

	/* libgit2 1.5 says GIT_EOWNER only when some safe.directory is set;
	 * with none at all, the failed look-up of it is the error */
	if (code != GIT_EOWNER && !strstr(sm_git_error(), "'safe.directory'"))
		return sm_error("%s: not a git repository (%s)", path, sm_git_error());
	abs = path_absolute(path);
	ret = sm_error("%s: owned by another user, which git refuses (dubious ownership); "
		       "if you trust it: git config --global --add safe.directory %s", path, abs);
	free(abs);
	return ret;
}

static int is_utf8_name(const char *charset)
{
	return !charset || !strcasecmp(charset, "UTF-8") || !strcasecmp(charset, "UTF8");
}

/* text converted from charset to UTF-8, or NULL when iconv does not know
 * charset or text has bytes it does not hold. */
static char *reencode(const char *text, const char *charset)
{
	iconv_t cd = iconv_open("UTF-8", charset);
	char *in = (char *)text, *res, *out;
	size_t in_left = strlen(text), size = in_left * 2 + 16, out_left;

	if (cd == (iconv_t)-1)
		return NULL;
	res = out = xmalloc(size);
	out_left = size - 1;	/* room for the NUL */
	for (;;) {
		size_t r = in_left ? iconv(cd, &in, &in_left, &out, &out_left) : 0;

		if (r != (size_t)-1)	/* the shift back of a stateful charset */
			r = iconv(cd, NULL, NULL, &out, &out_left);
		if (r != (size_t)-1)
			break;
		if (errno != E2BIG) {
			free(res);
			res = NULL;
			goto done;
		}
		size_t used = (size_t)(out - res);

		size *= 2;
		res = xrealloc(res, size);
		out = res + used;
		out_left = size - 1 - used;
	}
	*out = '\0';
done:
	iconv_close(cd);
	return res;
}

const char *sm_commit_utf8(const git_commit *c, const char *text, char **owned)
{
	const char *charset = git_commit_message_encoding(c);

	*owned = NULL;
	if (!text || is_utf8_name(charset))
		return text;
	*owned = reencode(text, charset);
	return *owned ? *owned : text;
}

char *sm_commit_subject(const git_commit *c)
{
	char *owned;
	const char *summary = sm_commit_utf8(c, git_commit_summary((git_commit *)c), &owned);
	char *res = owned ? owned : xstrdup(summary ? summary : "");

	for (char *p = res; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return res;
}

int sm_commit_signature_utf8(git_signature **out, const git_commit *c,
			     const git_signature *sig)
{
	char *name;
	int ret;

	sm_commit_utf8(c, sig->name, &name);
	/* Unconverted, a copy as it is: git_signature_new would refuse the
	 * empty name or e-mail some old commits have. */
	ret = name ? git_signature_new(out, name, sig->email, sig->when.time, sig->when.offset)
		   : git_signature_dup(out, sig);
	free(name);
	return ret < 0 ? sm_git_fail("identity \"%s <%s>\"", sig->name, sig->email) : 0;
}

void sm_diff_options_init(git_diff_options *o)
{
	git_diff_options_init(o, GIT_DIFF_OPTIONS_VERSION);
	o->flags |= GIT_DIFF_INDENT_HEURISTIC;
}

int sm_diff_show(git_diff *d, struct strbuf *stat, struct strbuf *patch)
{
	git_diff_stats *ds = NULL;
	git_buf buf = { 0 };
	int ret;

	ret = git_diff_get_stats(&ds, d);
	if (!ret)
		ret = git_diff_stats_to_buf(&buf, ds,
					    GIT_DIFF_STATS_FULL | GIT_DIFF_STATS_INCLUDE_SUMMARY, 72);
	if (!ret) {
		strbuf_add(stat, buf.ptr, buf.size);
		git_buf_dispose(&buf);
		ret = git_diff_to_buf(&buf, d, GIT_DIFF_FORMAT_PATCH);
	}
	if (!ret)
		strbuf_add(patch, buf.ptr, buf.size);
	git_buf_dispose(&buf);
	git_diff_stats_free(ds);
	return ret;
}
