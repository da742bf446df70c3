/* boot: running the stage, step after step, into a run directory. */
#include "qemu/boot.h"
#include "qemu/build_log.h"
#include "qemu/qemu.h"
#include "qemu/run.h"
#include "lib/fileio.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_TARBALL "/usr/src/linux-source-6.1.tar.xz"

void boot_opts_release(struct boot_opts *o)
{
	strlist_clear(&o->configs);
	strlist_clear(&o->tests);
}

void boot_result_release(struct boot_result *r)
{
	free(r->name);
	free(r->run_dir);
	strlist_clear(&r->patches);
	apply_failure_release(&r->apply);
	free(r->build_error);
	free(r->build_log);
	free(r->serial_log);
	free(r->accel);
	free(r->accel_reason);
	strlist_clear(&r->tests);
	strlist_clear(&r->configs);
	serial_log_release(&r->log);
	memset(r, 0, sizeof(*r));
	r->log = (struct serial_log)SERIAL_LOG_INIT;
}

char *boot_default_cache(void)
{
	const char *c = getenv("STABLEMATE_CACHE"), *x = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (c && *c)
		return xstrdup(c);
	if (x && *x)
		return xasprintf("%s/stablemate", x);
	return xasprintf("%s/.cache/stablemate", home && *home ? home : "/tmp");
}

char *boot_datadir(void)
{
	const char *d = getenv("STABLEMATE_DATADIR"), *src = getenv("SM_SRCDIR");
	char *p;

	if (d && *d)
		return xstrdup(d);
	p = xasprintf("%s/qemu/tree.sh", src && *src ? src : SM_SRCDIR);
	if (file_exists(p)) {
		free(p);
		return xasprintf("%s/qemu", src && *src ? src : SM_SRCDIR);
	}
	free(p);
	return xstrdup(SM_DATADIR);
}

/* Runs "bash SCRIPT args..." with output appended to log (and capture). */
static int script(const char *datadir, const char *name, const char *const *args,
		  const char *log, struct strbuf *capture, struct run_result *res)
{
	const char *argv[16];
	char *path = xasprintf("%s/%s", datadir, name);
	struct run_opts o = { .log_path = log, .capture = capture };
	size_t n = 0;
	int ret;

	argv[n++] = "bash";
	argv[n++] = path;
	for (size_t i = 0; args[i] && n < ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	ret = run_command(argv, &o, res);
	free(path);
	return ret;
}

static char *last_line(struct strbuf *sb)
{
	char *nl;

	strbuf_trim(sb);
	nl = strrchr(strbuf_str(sb), '\n');
	return xstrdup(nl ? nl + 1 : strbuf_str(sb));
}

/* The commits of o->branch as format-patch files in run/patches. */
static int branch_patches(const struct boot_opts *o, const char *run,
			  struct boot_result *r)
{
	const char *repo = o->repo ? o->repo : ".";
	char *dir = xasprintf("%s/patches", run), *range;
	struct strbuf out = STRBUF_INIT;
	struct run_result res;
	char *base = o->base ? xstrdup(o->base) : NULL;
	int ret = -1;

	if (!base) {
		const char *argv[] = { "git", "-C", repo, "describe", "--tags",
				       "--abbrev=0", o->branch, NULL };

		if (run_command(argv, &(struct run_opts){ .capture = &out }, &res) < 0)
			goto out;
		if (res.exit_code) {
			sm_error("%s: %s: no tag below the branch to start from (give --base)",
				 repo, o->branch);
			goto out;
		}
		base = last_line(&out);
		strbuf_reset(&out);
	}
	range = xasprintf("%s..%s", base, o->branch);
	{
		const char *argv[] = { "git", "-C", repo, "format-patch", "-q", "-o", dir,
				       range, NULL };

		if (run_command(argv, &(struct run_opts){ .capture = &out }, &res) < 0) {
			free(range);
			goto out;
		}
		if (res.exit_code) {
			strbuf_trim(&out);
			sm_error("%s: git format-patch %s: %s", repo, range, strbuf_str(&out));
			free(range);
			goto out;
		}
	}
	if (mkdir_p(dir, 0755) < 0 || series_read(dir, &r->patches) < 0) {
		sm_error("%s: %s: no commits to boot", repo, range);
		free(range);
		goto out;
	}
	free(range);
	ret = 0;
out:
	free(base);
	free(dir);
	strbuf_release(&out);
	return ret;
}

/* Compiles each test program statically against the patched tree's
 * kselftest.h and the built kernel's uapi headers. Returns 0, 1 (a build
 * failure recorded in r) or -1. */
static int build_tests(const char *tree, const char *obj, const char *run,
		       struct boot_result *r)
{
	struct strbuf list = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < r->tests.nr && !ret; i++) {
		const char *t = r->tests.items[i];
		char *src = xasprintf("%s/tools/testing/selftests/%s.c", tree, t);
		char *bin = xasprintf("%s/tests/%s", run, t);
		char *bindir = xstrdup(bin), *slash = strrchr(bindir, '/');
		char *inc = xasprintf("%s/usr/include", obj);
		char *ksft = xasprintf("%s/tools/testing/selftests", tree);
		const char *argv[] = { "gcc", "-static", "-O2", "-Wall", "-isystem", inc,
				       "-I", ksft, "-o", bin, src, NULL };
		struct run_result res;

		*slash = '\0';
		if (!strchr(t, '/') || strstr(t, "..")) {
			ret = sm_error("test %s: not DIR/NAME of tools/testing/selftests", t);
		} else if (!file_exists(src)) {
			r->build_error = xasprintf("test %s: %s not in the patched tree", t,
						   src + strlen(tree) + 1);
			ret = 1;
		} else if (mkdir_p(bindir, 0755) < 0 ||
			   run_command(argv, &(struct run_opts){ .log_path = r->build_log },
				       &res) < 0) {
			ret = -1;
		} else if (res.exit_code) {
			struct strbuf log = STRBUF_INIT;

			read_file(r->build_log, &log);
			r->build_error = build_log_first_error(strbuf_str(&log), log.len);
			if (!r->build_error)
				r->build_error = xasprintf("test %s: gcc failed", t);
			strbuf_release(&log);
			ret = 1;
		} else {
			strbuf_addf(&list, "%s\n", t);
		}
		free(src);
		free(bin);
		free(bindir);
		free(inc);
		free(ksft);
	}
	if (!ret) {
		char *dir = xasprintf("%s/tests", run);
		char *path = xasprintf("%s/list", dir);

		if (mkdir_p(dir, 0755) < 0 ||
		    write_file_atomic(path, strbuf_str(&list), list.len) < 0)
			ret = -1;
		free(dir);
		free(path);
	}
	strbuf_release(&list);
	return ret;
}

static int lock_cache(const char *cache)
{
	char *path = xasprintf("%s/lock", cache);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0) {
		sm_error("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX) < 0) {
		sm_error("%s: lock: %s", path, strerror(errno));
		close(fd);
		fd = -1;
	}
	free(path);
	return fd;
}

static char *new_run_dir(const char *cache)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	return xasprintf("%s/runs/%s-%ld", cache, stamp, (long)getpid());
}

static int write_result(const struct boot_result *r)
{
	struct strbuf json = STRBUF_INIT;
	char *path = xasprintf("%s/result.json", r->run_dir);
	int ret;

	boot_result_json(r, &json);
	strbuf_addch(&json, '\n');
	ret = write_file_atomic(path, json.buf, json.len);
	free(path);
	strbuf_release(&json);
	return ret;
}

static int run_stage(const struct boot_opts *o, struct boot_result *r,
		     const char *cache, const char *datadir)
{
	char *obj = xasprintf("%s/build-x86_64", cache), *tree = NULL;
	char *kernel = NULL, *initrd = NULL, *prep_log;
	struct strbuf out = STRBUF_INIT;
	struct run_result res;
	double t0;
	int ret = -1, st;

	/* 1. the tree, reset to its base */
	prep_log = xasprintf("%s/prepare.log", r->run_dir);
	{
		const char *args[] = { cache, o->tarball ? o->tarball : DEFAULT_TARBALL, NULL };

		if (script(datadir, "tree.sh", args, prep_log, &out, &res) < 0)
			goto out;
		if (res.exit_code) {
			struct strbuf log = STRBUF_INIT;
			char *err;

			read_file(prep_log, &log);
			err = build_log_first_error(strbuf_str(&log), log.len);
			sm_error("%s", err ? err : "tree.sh: cannot prepare the kernel tree");
			free(err);
			strbuf_release(&log);
			goto out;
		}
		tree = last_line(&out);
	}

	/* 2. the patches */
	if (o->branch && branch_patches(o, r->run_dir, r) < 0)
		goto out;
	st = series_apply(tree, &r->patches, &r->apply);
	if (st < 0)
		goto out;
	if (st > 0) {
		for (size_t i = 0; i < r->patches.nr; i++)
			if (!strcmp(r->patches.items[i], r->apply.patch))
				r->applied = i;
		r->verdict = "apply-failed";
		ret = 0;
		goto out;
	}
	r->applied = r->patches.nr;

	/* 3. the kernel */
	t0 = run_now();
	{
		const char *args[16];
		char *frag = xasprintf("%s/kernel.config", datadir);
		size_t n = 0;

		if (r->configs.nr > ARRAY_SIZE(args) - 4) {
			free(frag);
			sm_error("%zu config fragments: at most %zu", r->configs.nr,
				 ARRAY_SIZE(args) - 4);
			goto out;
		}

		args[n++] = tree;
		args[n++] = obj;
		args[n++] = frag;
		for (size_t i = 0; i < r->configs.nr && n < ARRAY_SIZE(args) - 1; i++)
			args[n++] = r->configs.items[i];
		args[n] = NULL;
		st = script(datadir, "build-kernel.sh", args, r->build_log, NULL, &res);
		free(frag);
		if (st < 0)
			goto out;
	}
	if (res.exit_code) {
		struct strbuf log = STRBUF_INIT;

		read_file(r->build_log, &log);
		r->build_error = build_log_first_error(strbuf_str(&log), log.len);
		if (!r->build_error)
			r->build_error = xasprintf("kernel build failed (exit %d), see %s",
						   res.exit_code, r->build_log);
		strbuf_release(&log);
		r->verdict = "build-failed";
		r->build_seconds = run_now() - t0;
		ret = 0;
		goto out;
	}
	kernel = xasprintf("%s/arch/x86/boot/bzImage", obj);

	/* 4. test programs and initramfs */
	st = build_tests(tree, obj, r->run_dir, r);
	if (st < 0)
		goto out;
	if (st > 0) {
		r->verdict = "build-failed";
		r->build_seconds = run_now() - t0;
		ret = 0;
		goto out;
	}
	initrd = xasprintf("%s/initramfs.cpio", r->run_dir);
	{
		char *tests = xasprintf("%s/tests", r->run_dir);
		char *limit = xasprintf("%u", o->test_timeout ? o->test_timeout : 120);
		const char *args[] = { initrd, tests, limit, NULL };

		st = script(datadir, "mkinitramfs.sh", args, r->build_log, NULL, &res);
		free(tests);
		free(limit);
		if (st < 0)
			goto out;
		if (res.exit_code) {
			sm_error("%s: mkinitramfs.sh failed, see %s", initrd, r->build_log);
			goto out;
		}
	}
	r->build_seconds = run_now() - t0;

	/* 5. boot */
	{
		struct qemu_opts q = {
			.kernel = kernel, .initrd = initrd, .log_path = r->serial_log,
			.timeout = o->timeout ? o->timeout : 300, .accel = o->accel,
			.progress_marker = SERIAL_INIT_START,
		};
		struct qemu_accel ran;
		struct strbuf qout = STRBUF_INIT;

		st = qemu_boot(&q, &res, &qout, &ran);
		r->accel = ran.accel;
		r->accel_reason = ran.reason;
		if (st < 0) {
			strbuf_release(&qout);
			goto out;
		}
		r->boot_seconds = res.seconds;
		r->timed_out = res.timed_out;
		if (!res.timed_out && res.exit_code && qout.len) {
			/* QEMU itself failed (bad image, no such accel) */
			strbuf_trim(&qout);
			sm_error("%s: %s", qemu_program(q.arch), qout.buf);
			strbuf_release(&qout);
			goto out;
		}
		strbuf_release(&qout);
	}
	if (serial_log_parse_file(&r->log, r->serial_log) < 0)
		goto out;
	r->verdict = serial_log_verdict(&r->log, r->timed_out);
	ret = 0;
out:
	if (ret == 0 && write_result(r) < 0)
		ret = -1;
	strbuf_release(&out);
	free(prep_log);
	free(tree);
	free(obj);
	free(kernel);
	free(initrd);
	return ret;
}

/* o with every path made absolute against the caller's directory: the
 * stage runs git and the build in other directories. The strings are
 * kept in *owned. */
static void absolute_opts(const struct boot_opts *o, struct boot_opts *a,
			  struct strlist *owned)
{
	const char **paths[] = { &a->series_dir, &a->repo, &a->cache, &a->datadir,
				 &a->tarball, &a->run_dir };

	*a = *o;
	a->configs = (struct strlist)STRLIST_INIT;
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		if (!*paths[i])
			continue;
		*paths[i] = path_absolute(*paths[i]);
		strlist_append_nodup(owned, (char *)*paths[i]);
	}
	for (size_t i = 0; i < o->configs.nr; i++)
		strlist_append_nodup(&a->configs, path_absolute(o->configs.items[i]));
}

int boot_run(const struct boot_opts *user, struct boot_result *r)
{
	struct strlist owned = STRLIST_INIT;
	struct boot_opts abs, *o = &abs;
	char *cache, *datadir, *tmp;
	int lock = -1, ret = -1;

	absolute_opts(user, &abs, &owned);
	tmp = o->cache ? xstrdup(o->cache) : boot_default_cache();
	cache = path_absolute(tmp);
	free(tmp);
	tmp = o->datadir ? xstrdup(o->datadir) : boot_datadir();
	datadir = path_absolute(tmp);
	free(tmp);
	memset(r, 0, sizeof(*r));
	r->log = (struct serial_log)SERIAL_LOG_INIT;
	if (!o->series_dir == !o->branch) {
		sm_error("give one of a series directory or a branch");
		goto out;
	}
	r->name = xstrdup(user->series_dir ? user->series_dir : user->branch);
	if (o->series_dir) {
		char *list = xasprintf("%s/tests", o->series_dir);

		if (series_read(o->series_dir, &r->patches) < 0) {
			free(list);
			goto out;
		}
		if (!o->tests.nr && series_read_list(list, &r->tests) < 0) {
			free(list);
			goto out;
		}
		free(list);
	}
	for (size_t i = 0; i < o->tests.nr; i++)
		strlist_append(&r->tests, o->tests.items[i]);
	if (o->series_dir) {
		char *frag = xasprintf("%s/config", o->series_dir);

		if (file_exists(frag))
			strlist_append(&r->configs, frag);
		free(frag);
	}
	for (size_t i = 0; i < o->configs.nr; i++) {
		if (!file_exists(o->configs.items[i])) {
			sm_error("%s: config fragment not found", o->configs.items[i]);
			goto out;
		}
		strlist_append(&r->configs, o->configs.items[i]);
	}
	if (mkdir_p(cache, 0755) < 0)
		goto out;
	r->run_dir = o->run_dir ? xstrdup(o->run_dir) : new_run_dir(cache);
	if (mkdir_p(r->run_dir, 0755) < 0)
		goto out;
	r->build_log = xasprintf("%s/build.log", r->run_dir);
	r->serial_log = xasprintf("%s/serial.log", r->run_dir);
	unlink(r->build_log);
	lock = lock_cache(cache);
	if (lock < 0)
		goto out;
	ret = run_stage(o, r, cache, datadir);
out:
	if (lock >= 0)
		close(lock);
	free(cache);
	free(datadir);
	strlist_clear(&abs.configs);
	strlist_clear(&owned);
	return ret;
}
