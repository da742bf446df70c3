/* boot: running the stage, step after step, into a run directory. */
#include "qemu/boot.h"
#include "qemu/build_log.h"
#include "qemu/qemu.h"
#include "qemu/run.h"
#include "lib/fileio.h"
#include "lib/util.h"
#include "lib/progress.h"
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
	FREE_ALL(r->build_error, r->build_log, r->serial_log, r->accel, r->accel_reason);
	strlist_clear(&r->tests);
	strlist_clear(&r->configs);
	serial_log_release(&r->log);
	free(r->arch);
	free(r->compiler);
	free(r->patchset_hash);
	if (r->base) {
		boot_result_release(r->base);
		free(r->base);
	}
	for (size_t i = 0; i < r->changes_nr; i++)
		free(r->changes[i].name);
	free(r->changes);
	free(r->steps);
	memset(r, 0, sizeof(*r));
	r->log = (struct serial_log)SERIAL_LOG_INIT;
}

char *boot_default_cache(void)
{
	const char *c = getenv("STABLEMATE_CACHE");

	if (c && *c)
		return xstrdup(c);
	return xdg_path("XDG_CACHE_HOME", ".cache", "stablemate");
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

static char *last_line(struct strbuf *sb)
{
	char *nl;

	strbuf_trim(sb);
	nl = strrchr(sb->buf, '\n');
	return xstrdup(nl ? nl + 1 : sb->buf);
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
			sm_error("%s: git format-patch %s: %s", repo, range, out.buf);
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

/* What differs per architecture. */
struct arch_info {
	const char *name;	/* --arch, ARCH= */
	const char *gcc;	/* the compiler for kernel and tests */
	const char *image;	/* in the build directory */
	const char *fragment;	/* in the data directory, or NULL */
	const char *busybox_env, *busybox;	/* a static busybox of the arch */
};

static const struct arch_info arches[] = {
	{ "x86_64", "gcc", "arch/x86/boot/bzImage", NULL, "SM_BUSYBOX", "/bin/busybox" },
	{ "arm64", "aarch64-linux-gnu-gcc", "arch/arm64/boot/Image", "kernel-arm64.config",
	  "SM_BUSYBOX_ARM64", "/usr/local/lib/stablemate/busybox-arm64" },
};

static const struct arch_info *find_arch(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++)
		if (!strcmp(arches[i].name, name ? name : "x86_64"))
			return &arches[i];
	return NULL;
}

/* One kernel tree of one cache, for all the builds of a run. */
struct stage {
	const struct boot_opts *o;
	const struct arch_info *arch;
	const char *cache, *datadir;
	char *tree, *obj;
	const char *wrap;		/* SM_CC_WRAP: "", "ccache", ... */
	struct strlist env;		/* "VAR=value" for the build */
	char *tests_dir;		/* the compiled test programs */
};

/* Runs "env ENV... bash SCRIPT args..." with output appended to log. */
static int stage_script(const struct stage *st, const char *name, const char *const *args,
			const char *log, struct run_result *res)
{
	struct strlist argv = STRLIST_INIT;
	struct run_opts o = { .log_path = log, .meter = st->o->progress };
	int ret;

	strlist_append(&argv, "env");
	for (size_t i = 0; i < st->env.nr; i++)
		strlist_append(&argv, st->env.items[i]);
	strlist_append(&argv, "bash");
	strlist_append_nodup(&argv, xasprintf("%s/%s", st->datadir, name));
	for (size_t i = 0; args[i]; i++)
		strlist_append(&argv, args[i]);
	strlist_append_nodup(&argv, NULL);
	ret = run_command((const char *const *)argv.items, &o, res);
	strlist_clear(&argv);
	return ret;
}

static void set_build_error(struct boot_result *r, int exit_code, const char *what)
{
	struct strbuf log = STRBUF_INIT;

	read_file(r->build_log, &log);
	r->build_error = build_log_first_error(log.buf, log.len);
	if (!r->build_error)
		r->build_error = xasprintf("%s failed (exit %d), see %s", what, exit_code,
					   r->build_log);
	strbuf_release(&log);
}

/* "env VAR=... [ccache|distcc] GCC" for one compile. */
static void compiler_argv(const struct stage *st, struct strlist *argv)
{
	strlist_append(argv, "env");
	for (size_t j = 0; j < st->env.nr; j++)
		strlist_append(argv, st->env.items[j]);
	if (strstr(st->wrap, "ccache"))
		strlist_append(argv, "ccache");
	else if (*st->wrap)
		strlist_append(argv, st->wrap);
	strlist_append(argv, st->arch->gcc);
}

/* Compiles each test program statically against the patched tree's
 * kselftest.h and the built kernel's uapi headers, into st->tests_dir.
 * Returns 0, 1 (a build failure recorded in r) or -1. */
static int build_tests(const struct stage *st, struct boot_result *r)
{
	struct strbuf list = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < r->tests.nr && !ret; i++) {
		const char *t = r->tests.items[i];
		char *src = xasprintf("%s/tools/testing/selftests/%s.c", st->tree, t);
		char *bin = xasprintf("%s/%s", st->tests_dir, t);
		char *bindir = xstrdup(bin), *slash = strrchr(bindir, '/');
		char *inc = xasprintf("%s/usr/include", st->obj);
		char *ksft = xasprintf("%s/tools/testing/selftests", st->tree);
		struct strlist argv = STRLIST_INIT;
		struct run_result res;

		char *obj = xasprintf("%s.o", bin);

		/* compile (-c, which distcc can send away), then link */
		compiler_argv(st, &argv);
		{
			const char *rest[] = { "-O2", "-Wall", "-isystem", inc, "-I", ksft,
					       "-c", "-o", obj, src };

			for (size_t j = 0; j < ARRAY_SIZE(rest); j++)
				strlist_append(&argv, rest[j]);
		}
		strlist_append_nodup(&argv, NULL);
		*slash = '\0';
		if (!strchr(t, '/') || strstr(t, "..")) {
			ret = sm_error("test %s: not DIR/NAME of tools/testing/selftests", t);
		} else if (!file_exists(src)) {
			r->build_error = xasprintf("test %s: %s not in the patched tree", t,
						   src + strlen(st->tree) + 1);
			ret = 1;
		} else if (mkdir_p(bindir, 0755) < 0 ||
			   run_command((const char *const *)argv.items,
				       &(struct run_opts){ .log_path = r->build_log }, &res) < 0) {
			ret = -1;
		} else if (res.exit_code) {
			set_build_error(r, res.exit_code, st->arch->gcc);
			ret = 1;
		} else {
			const char *link[] = { st->arch->gcc, "-static", "-o", bin, obj, NULL };

			if (run_command(link, &(struct run_opts){ .log_path = r->build_log },
					&res) < 0) {
				ret = -1;
			} else if (res.exit_code) {
				set_build_error(r, res.exit_code, st->arch->gcc);
				ret = 1;
			} else {
				strbuf_addf(&list, "%s\n", t);
			}
			unlink(obj);
		}
		strlist_clear(&argv);
		FREE_ALL(obj, src, bin, bindir, inc, ksft);
	}
	if (!ret) {
		char *path = xasprintf("%s/list", st->tests_dir);

		if (mkdir_p(st->tests_dir, 0755) < 0 ||
		    write_file_atomic(path, list.buf, list.len) < 0)
			ret = -1;
		free(path);
	}
	strbuf_release(&list);
	return ret;
}

static int lock_file(const char *cache, const char *name)
{
	char *path = xasprintf("%s/%s", cache, name);
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

/* The tree reset to its base (tree.sh): st->tree. */
static int prepare_tree(struct stage *st, const char *log)
{
	const char *tarball = st->o->tarball ? st->o->tarball : DEFAULT_TARBALL;
	char *name = !strcmp(st->arch->name, "x86_64") ? xstrdup("linux-6.1")
			: xasprintf("linux-6.1-%s", st->arch->name);
	const char *args[] = { st->cache, tarball, name, NULL };
	const char *argv[8];
	struct strbuf out = STRBUF_INIT;
	struct run_result res;
	char *script = xasprintf("%s/tree.sh", st->datadir);
	int ret = -1;

	argv[0] = "bash";
	argv[1] = script;
	for (size_t i = 0; args[i]; i++)
		argv[i + 2] = args[i];
	argv[5] = NULL;
	if (run_command(argv, &(struct run_opts){ .log_path = log, .capture = &out }, &res) < 0)
		goto out;
	if (res.exit_code) {
		struct strbuf l = STRBUF_INIT;
		char *err;

		read_file(log, &l);
		err = build_log_first_error(l.buf, l.len);
		sm_error("%s", err ? err : "tree.sh: cannot prepare the kernel tree");
		free(err);
		strbuf_release(&l);
		goto out;
	}
	st->tree = last_line(&out);
	ret = 0;
out:
	free(script);
	free(name);
	strbuf_release(&out);
	return ret;
}

static int git_tree(const struct stage *st, const char *const *args, struct strbuf *out)
{
	const char *argv[12] = { "git", "-C", st->tree, "-c", "core.hooksPath=/dev/null" };
	struct run_result res;
	struct strbuf err = STRBUF_INIT;
	size_t n = 5;

	for (size_t i = 0; args[i] && n < ARRAY_SIZE(argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (run_command(argv, &(struct run_opts){ .capture = out ? out : &err }, &res) < 0) {
		strbuf_release(&err);
		return -1;
	}
	if (res.exit_code) {
		strbuf_trim(out ? out : &err);
		sm_error("%s: git %s: %s", st->tree, args[0], (out ? out : &err)->buf);
		strbuf_release(&err);
		return -1;
	}
	strbuf_release(&err);
	return 0;
}

/* Builds the kernel of the tree as it is, the test programs (when
 * compile_tests; else the ones in st->tests_dir), the initramfs, boots and
 * reads the log into r (r->run_dir, build_log, serial_log set). Returns 0
 * with a verdict or -1. */
static int build_and_boot(struct stage *st, struct boot_result *r, int compile_tests)
{
	const struct boot_opts *o = st->o;
	char *kernel = NULL, *initrd = NULL;
	struct run_result res;
	double t0 = run_now();
	int ret = -1, s;

	/* the kernel */
	sm_progress_phase(o->progress, "Building the kernel", 0);
	{
		struct strlist args = STRLIST_INIT;

		strlist_append(&args, st->tree);
		strlist_append(&args, st->obj);
		strlist_append_nodup(&args, xasprintf("%s/kernel.config", st->datadir));
		if (st->arch->fragment)
			strlist_append_nodup(&args, xasprintf("%s/%s", st->datadir,
							      st->arch->fragment));
		for (size_t i = 0; i < r->configs.nr; i++)
			strlist_append(&args, r->configs.items[i]);
		strlist_append_nodup(&args, NULL);
		s = stage_script(st, "build-kernel.sh", (const char *const *)args.items,
				 r->build_log, &res);
		strlist_clear(&args);
		if (s < 0)
			goto out;
	}
	if (res.exit_code) {
		set_build_error(r, res.exit_code, "kernel build");
		r->verdict = "build-failed";
		r->build_seconds = run_now() - t0;
		ret = 0;
		goto out;
	}
	kernel = xasprintf("%s/%s", st->obj, st->arch->image);

	/* test programs and initramfs */
	if (compile_tests) {
		s = build_tests(st, r);
		if (s < 0)
			goto out;
		if (s > 0) {
			r->verdict = "build-failed";
			r->build_seconds = run_now() - t0;
			ret = 0;
			goto out;
		}
	}
	initrd = xasprintf("%s/initramfs.cpio", r->run_dir);
	{
		char *limit = xasprintf("%u", o->test_timeout ? o->test_timeout : 120);
		const char *env = getenv(st->arch->busybox_env);
		const char *args[] = { initrd, st->tests_dir, limit,
				       env && *env ? env : st->arch->busybox, st->arch->name, NULL };

		s = stage_script(st, "mkinitramfs.sh", args, r->build_log, &res);
		free(limit);
		if (s < 0)
			goto out;
		if (res.exit_code) {
			struct strbuf l = STRBUF_INIT;
			char *err;

			read_file(r->build_log, &l);
			err = build_log_first_error(l.buf, l.len);
			sm_error("%s", err ? err : "mkinitramfs.sh failed");
			free(err);
			strbuf_release(&l);
			goto out;
		}
	}
	r->build_seconds = run_now() - t0;

	/* boot */
	{
		struct qemu_opts q = {
			.arch = st->arch->name, .kernel = kernel, .initrd = initrd,
			.log_path = r->serial_log, .timeout = o->timeout ? o->timeout : 300,
			.accel = o->accel, .progress_marker = SERIAL_INIT_START,
		};
		struct qemu_accel ran;
		struct strbuf qout = STRBUF_INIT;

		q.meter = o->progress;
		sm_progress_phase(o->progress, "Booting in QEMU", 0);
		s = qemu_boot(&q, &res, &qout, &ran);
		sm_progress_phase(o->progress, NULL, 0);
		free(r->accel);
		free(r->accel_reason);
		r->accel = ran.accel;
		r->accel_reason = ran.reason;
		if (s < 0) {
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
	free(kernel);
	free(initrd);
	return ret;
}

/* A result for another state of the same tree (the base, a bisect step),
 * with its own directory under the run's. */
static struct boot_result *sub_result(const struct boot_result *r, const char *name)
{
	struct boot_result *b = xcalloc(1, sizeof(*b));

	b->log = (struct serial_log)SERIAL_LOG_INIT;
	b->name = xstrdup(name);
	b->run_dir = xasprintf("%s/%s", r->run_dir, name);
	b->build_log = xasprintf("%s/build.log", b->run_dir);
	b->serial_log = xasprintf("%s/serial.log", b->run_dir);
	b->arch = xstrdup(r->arch);
	b->compiler = xstrdup(r->compiler);
	b->start_time = time(NULL);
	for (size_t i = 0; i < r->tests.nr; i++)
		strlist_append(&b->tests, r->tests.items[i]);
	for (size_t i = 0; i < r->configs.nr; i++)
		strlist_append(&b->configs, r->configs.items[i]);
	return b;
}

static int run_at(struct stage *st, const char *rev, struct boot_result *b)
{
	const char *co[] = { "checkout", "-q", "-f", "--detach", rev, NULL };

	if (mkdir_p(b->run_dir, 0755) < 0 || git_tree(st, co, NULL) < 0)
		return -1;
	unlink(b->build_log);
	return build_and_boot(st, b, 0);
}

/* Does step b show one of the series' regressions? */
static int step_is_bad(const struct boot_result *r, struct boot_result *b)
{
	struct boot_result tmp;
	int bad = 0;

	if (!b->verdict || !strcmp(b->verdict, "build-failed"))
		return 1;
	memset(&tmp, 0, sizeof(tmp));
	tmp.log = b->log;
	tmp.verdict = b->verdict;
	tmp.timed_out = b->timed_out;
	tmp.tests = b->tests;
	boot_compare(r->base, &tmp);
	for (size_t i = 0; i < tmp.changes_nr; i++) {
		if (tmp.changes[i].change != BOOT_REGRESSED)
			continue;
		for (size_t j = 0; j < r->changes_nr && !bad; j++)
			bad = r->changes[j].change == BOOT_REGRESSED &&
			      !strcmp(r->changes[j].name, tmp.changes[i].name);
	}
	for (size_t i = 0; i < tmp.changes_nr; i++)
		free(tmp.changes[i].name);
	free(tmp.changes);
	return bad;
}

/* Binary search for the first patch whose state shows a regression: the
 * base is good, all patches bad. Each step is one build. */
static int bisect(struct stage *st, struct boot_result *r, const struct strlist *commits)
{
	size_t good = 0, bad = commits->nr;

	r->bisected = 1;
	while (bad - good > 1) {
		size_t mid = good + (bad - good) / 2;
		char *name = xasprintf("bisect-%zu", mid);
		struct boot_result *b = sub_result(r, name);
		struct bisect_step *step;
		int ret = run_at(st, commits->items[mid - 1], b);

		free(name);
		if (ret < 0) {
			boot_result_release(b);
			free(b);
			return -1;
		}
		r->steps = xrealloc(r->steps, (r->steps_nr + 1) * sizeof(*r->steps));
		step = &r->steps[r->steps_nr++];
		step->applied = mid;
		step->bad = step_is_bad(r, b);
		step->verdict = b->verdict;
		step->build_seconds = b->build_seconds;
		step->boot_seconds = b->boot_seconds;
		if (write_result(b) < 0) {
			boot_result_release(b);
			free(b);
			return -1;
		}
		if (step->bad)
			bad = mid;
		else
			good = mid;
		boot_result_release(b);
		free(b);
	}
	r->first_bad = bad;
	return 0;
}

/* sha256 of each patch, newline-terminated, then of that list (KCIDB's
 * patchset_hash), with sha256sum. */
static void patchset_hash(struct boot_result *r)
{
	struct strlist argv = STRLIST_INIT;
	struct strbuf out = STRBUF_INIT, list = STRBUF_INIT;
	struct run_result res;
	char *path = xasprintf("%s/patchset.sha256", r->run_dir);

	if (!r->patches.nr)
		goto out;
	strlist_append(&argv, "sha256sum");
	for (size_t i = 0; i < r->patches.nr; i++)
		strlist_append(&argv, r->patches.items[i]);
	strlist_append_nodup(&argv, NULL);
	if (run_command((const char *const *)argv.items, &(struct run_opts){ .capture = &out },
			&res) < 0 || res.exit_code)
		goto out;
	for (const char *p = out.buf; *p;) {
		const char *eol = strchr(p, '\n');

		strbuf_add(&list, p, 64);
		strbuf_addch(&list, '\n');
		if (!eol)
			break;
		p = eol + 1;
	}
	if (write_file_atomic(path, list.buf, list.len) < 0)
		goto out;
	strbuf_reset(&out);
	{
		const char *argv2[] = { "sha256sum", path, NULL };

		if (run_command(argv2, &(struct run_opts){ .capture = &out }, &res) == 0 &&
		    !res.exit_code && out.len >= 64)
			r->patchset_hash = xstrndup(out.buf, 64);
	}
out:
	sm_clear_error();
	strlist_clear(&argv);
	strbuf_release(&out);
	strbuf_release(&list);
	free(path);
}

static int run_stage(struct stage *st, struct boot_result *r)
{
	const struct boot_opts *o = st->o;
	struct strlist commits = STRLIST_INIT;
	char *prep_log = xasprintf("%s/prepare.log", r->run_dir);
	int ret = -1, s;

	/* 1. the tree, reset to its base */
	if (prepare_tree(st, prep_log) < 0)
		goto out;

	/* 2. the patches */
	if (o->branch && branch_patches(o, r->run_dir, r) < 0)
		goto out;
	patchset_hash(r);
	s = series_apply(st->tree, &r->patches, &r->apply);
	if (s < 0)
		goto out;
	if (s > 0) {
		for (size_t i = 0; i < r->patches.nr; i++)
			if (!strcmp(r->patches.items[i], r->apply.patch))
				r->applied = i;
		r->verdict = r->series_verdict = "apply-failed";
		ret = 0;
		goto out;
	}
	r->applied = r->patches.nr;
	if (o->compare || o->bisect) {
		const char *args[] = { "rev-list", "--reverse", "sm-base..HEAD", NULL };
		struct strbuf out = STRBUF_INIT;
		char *save = NULL;

		if (git_tree(st, args, &out) < 0) {
			strbuf_release(&out);
			goto out;
		}
		for (char *p = strtok_r(out.buf, "\n", &save); p;
		     p = strtok_r(NULL, "\n", &save))
			strlist_append(&commits, p);
		strbuf_release(&out);
	}

	/* 3. kernel, tests, initramfs, boot: the series */
	if (build_and_boot(st, r, 1) < 0)
		goto out;
	r->series_verdict = r->verdict;
	if (!(o->compare || o->bisect) || !strcmp(r->verdict, "build-failed")) {
		ret = 0;
		goto out;
	}

	/* 4. the base with the same test programs */
	r->base = sub_result(r, "base");
	if (run_at(st, "sm-base", r->base) < 0 || write_result(r->base) < 0)
		goto out;
	boot_compare(r->base, r);
	if (r->regressions)
		r->verdict = "regressed";

	/* 5. the first bad patch */
	if (o->bisect && r->regressions && commits.nr == r->patches.nr &&
	    bisect(st, r, &commits) < 0)
		goto out;
	ret = 0;
out:
	if (ret == 0 && write_result(r) < 0)
		ret = -1;
	strlist_clear(&commits);
	free(prep_log);
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
	struct stage st;
	const struct arch_info *arch;
	char *cache, *datadir, *tmp;
	int lock = -1, ret = -1;

	absolute_opts(user, &abs, &owned);
	memset(&st, 0, sizeof(st));
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
	if (o->tarball && !file_exists(o->tarball)) {
		sm_error("%s: kernel source tarball not found", o->tarball);
		goto out;
	}
	arch = find_arch(o->arch);
	if (!arch) {
		sm_error("--arch %s: not x86_64 or arm64", o->arch);
		goto out;
	}
	r->arch = xstrdup(arch->name);
	r->start_time = time(NULL);
	if (mkdir_p(cache, 0755) < 0)
		goto out;
	r->run_dir = o->run_dir ? xstrdup(o->run_dir) : new_run_dir(cache);
	if (mkdir_p(r->run_dir, 0755) < 0)
		goto out;
	r->build_log = xasprintf("%s/build.log", r->run_dir);
	r->serial_log = xasprintf("%s/serial.log", r->run_dir);
	unlink(r->build_log);
	st.o = o;
	st.arch = arch;
	st.cache = cache;
	st.datadir = datadir;
	st.tests_dir = xasprintf("%s/tests", r->run_dir);
	st.wrap = o->ccache && o->distcc ? "ccache distcc" : o->ccache ? "ccache"
		: o->distcc ? "distcc" : "";
	st.obj = xasprintf("%s/build-%s%s%s", cache, arch->name, *st.wrap ? "-" : "",
			   o->ccache && o->distcc ? "ccache-distcc" : st.wrap);
	r->compiler = *st.wrap ? xasprintf("%s %s", st.wrap, arch->gcc) : xstrdup(arch->gcc);
	strlist_append_nodup(&st.env, xasprintf("SM_ARCH=%s", arch->name));
	strlist_append_nodup(&st.env, xasprintf("SM_CC_WRAP=%s", st.wrap));
	if (o->distcc)
		strlist_append_nodup(&st.env, xasprintf("DISTCC_HOSTS=%s", o->distcc));
	if (o->ccache && o->distcc)
		strlist_append(&st.env, "CCACHE_PREFIX=distcc");
	/* The x86_64 tree is the cache's first; another architecture's
	 * worktree is added to it once, under its lock, then has its own. */
	if (strcmp(arch->name, "x86_64")) {
		char *script = xasprintf("%s/tree.sh", datadir);
		char *prep_log = xasprintf("%s/prepare.log", r->run_dir);
		char *name = xasprintf("linux-6.1-%s", arch->name);
		const char *argv[] = { "bash", script, cache,
				       o->tarball ? o->tarball : DEFAULT_TARBALL, name, "--add", NULL };
		struct run_result res;
		int s;

		lock = lock_file(cache, "lock");
		s = lock < 0 ? -1 : run_command(argv, &(struct run_opts){ .log_path = prep_log,
								       .meter = o->progress }, &res);
		if (lock >= 0)
			close(lock);
		lock = -1;
		free(script);
		free(prep_log);
		free(name);
		if (s < 0)
			goto out;
		if (res.exit_code) {
			sm_error("tree.sh: cannot add the %s worktree, see %s/prepare.log",
				 arch->name, r->run_dir);
			goto out;
		}
	}
	{
		char *lname = strcmp(arch->name, "x86_64") ? xasprintf("lock-%s", arch->name)
							    : xstrdup("lock");

		lock = lock_file(cache, lname);
		free(lname);
	}
	if (lock < 0)
		goto out;
	ret = run_stage(&st, r);
out:
	if (lock >= 0)
		close(lock);
	free(st.tree);
	free(st.obj);
	free(st.tests_dir);
	strlist_clear(&st.env);
	free(cache);
	free(datadir);
	strlist_clear(&abs.configs);
	strlist_clear(&owned);
	return ret;
}
