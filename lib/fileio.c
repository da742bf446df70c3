#include "lib/fileio.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int read_file(const char *path, struct strbuf *sb)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;

	if (fd < 0)
		return sm_error("%s: %s", path, strerror(errno));
	for (;;) {
		ssize_t n;

		strbuf_grow(sb, 65536);
		n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			if (fd)
				close(fd);
			return sm_error("%s: read: %s", path, strerror(e));
		}
		if (!n)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
	if (fd)
		close(fd);
	return 0;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

char *xdg_path(const char *env, const char *home_default, const char *sub)
{
	const char *x = getenv(env), *home = getenv("HOME");

	if (x && x[0] == '/')
		return xasprintf("%s/%s", x, sub);
	return xasprintf("%s/%s/%s", home && *home ? home : "/tmp", home_default, sub);
}

/* Numbers each temporary file of this process: two threads writing the
 * same path (scan's loader and its main thread both add to the ancestry
 * cache) must not share one, or the second rename finds it gone. */
static atomic_uint tmp_seq;

const char *input_name(const char *path)
{
	return strcmp(path, "-") ? path : "(standard input)";
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%ld.%u", path, (long)getpid(),
			      atomic_fetch_add(&tmp_seq, 1));
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int e;

	if (fd < 0) {
		e = errno;
		free(tmp);
		return sm_error("%s: cannot create: %s", path, strerror(e));
	}
	if (write_all(fd, data, len) || fsync(fd)) {
		e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return sm_error("%s: write: %s", path, strerror(e));
	}
	close(fd);
	if (rename(tmp, path)) {
		e = errno;
		unlink(tmp);
		free(tmp);
		return sm_error("%s: rename: %s", path, strerror(e));
	}
	free(tmp);
	return 0;
}

int write_file_atomic_mkdir(const char *path, const void *data, size_t len)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int ret = 0;

	if (slash && slash != dir) {
		*slash = '\0';
		ret = mkdir_p(dir, 0755);
	}
	if (!ret)
		ret = write_file_atomic(path, data, len);
	free(dir);
	return ret;
}

int write_cache_file(const char *path, const void *data, size_t len, const char *what)
{
	int ret = write_file_atomic_mkdir(path, data, len);

	if (ret < 0)
		sm_warn("%s: cannot write the %s: %s", path, what, sm_last_error());
	return ret;
}

int mkdir_p(const char *path, unsigned mode)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;

			*s = '\0';
			if (mkdir(p, mode) && errno != EEXIST) {
				int e = errno;

				sm_error("%s: mkdir: %s", p, strerror(e));
				free(p);
				return -1;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return 0;
}

int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

char *path_absolute(const char *path)
{
	char *cwd;
	char *abs;

	if (!path)
		return NULL;
	if (path[0] == '/')
		return xstrdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return xstrdup(path);
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	abs = !strcmp(path, ".") || !*path ? xstrdup(cwd) : xasprintf("%s/%s", cwd, path);
	free(cwd);
	return abs;
}

char *make_temp_dir(const char *prefix)
{
	const char *base = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/%s.XXXXXX", base && *base ? base : "/tmp", prefix);

	if (!mkdtemp(tmpl)) {
		sm_error("%s: mkdtemp: %s", tmpl, strerror(errno));
		free(tmpl);
		return NULL;
	}
	return tmpl;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

int remove_tree(const char *path)
{
	if (nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS) && errno != ENOENT)
		return sm_error("%s: cannot remove: %s", path, strerror(errno));
	return 0;
}
