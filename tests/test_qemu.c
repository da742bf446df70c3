/* test_qemu: the boot stage's parts — serial-log parser on real-looking
 * logs, first-build-error finder, `git am` failure report on a real git
 * repository, the process runner and the QEMU timeout path with real QEMU. */
#include "qemu/boot.h"
#include "qemu/build_log.h"
#include "qemu/qemu.h"
#include "qemu/run.h"
#include "qemu/serial_log.h"
#include "qemu/series.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/check_main.h"

static void parse_fixture(struct serial_log *log, const char *name)
{
	char *rel = xasprintf("tests/fixtures/qemu/%s", name);

	ck_assert_int_eq(serial_log_parse_file(log, srcdir_path(rel)), 0);
	free(rel);
}

START_TEST(oops_log)
{
	struct serial_log log = SERIAL_LOG_INIT;

	parse_fixture(&log, "oops.log");
	ck_assert_str_eq(log.kernel_version, "6.1.158");
	ck_assert(log.init_started && log.finished);
	ck_assert(log.boot_seconds > 0.43 && log.boot_seconds < 0.45);
	ck_assert_uint_eq(log.events_nr, 2);
	ck_assert_int_eq(log.events[0].kind, KEV_BUG);
	ck_assert_int_eq(log.events[0].line, 10);
	ck_assert_str_eq(log.events[0].text,
			 "BUG: kernel NULL pointer dereference, address: 0000000000000008");
	ck_assert_int_eq(log.events[1].kind, KEV_OOPS);
	ck_assert_uint_eq(log.tests_nr, 1);
	ck_assert_str_eq(log.tests[0].name, "alsa:timer-tread-padding");
	ck_assert_int_eq(log.tests[0].status, KTAP_FAIL);
	ck_assert_str_eq(log.tests[0].directive, "exit=137");
	ck_assert_str_eq(serial_log_verdict(&log, 0), "fail");
	serial_log_release(&log);
}
END_TEST

START_TEST(panic_log)
{
	struct serial_log log = SERIAL_LOG_INIT;

	parse_fixture(&log, "panic.log");
	ck_assert(!log.init_started && !log.finished);
	ck_assert_uint_eq(log.events_nr, 1);
	ck_assert_int_eq(log.events[0].kind, KEV_PANIC);
	ck_assert_str_eq(serial_log_verdict(&log, 0), "panic");
	/* a panic explains a kill at the deadline better than "timeout" */
	ck_assert_str_eq(serial_log_verdict(&log, 1), "panic");
	serial_log_release(&log);
}
END_TEST

START_TEST(warning_and_skip_log)
{
	struct serial_log log = SERIAL_LOG_INIT;

	parse_fixture(&log, "warning.log");
	ck_assert_int_eq(log.plan, 2);
	ck_assert_uint_eq(log.tests_nr, 2);
	ck_assert_int_eq(log.tests[0].status, KTAP_PASS);
	ck_assert_int_eq(log.tests[0].sub_plan, 4);
	ck_assert_uint_eq(log.tests[0].sub_nr, 4);
	ck_assert_str_eq(log.tests[0].sub[3].name, "tick event padding is zero");
	ck_assert_int_eq(log.tests[0].sub[3].num, 4);
	ck_assert_int_eq(log.tests[1].status, KTAP_SKIP);
	ck_assert_int_eq(log.tests[1].sub_plan, 0);
	ck_assert_str_eq(log.tests[1].skip_reason, "/dev/snd/controlC0: No such file or directory");
	ck_assert_uint_eq(log.events_nr, 1);
	ck_assert_int_eq(log.events[0].kind, KEV_WARNING);
	/* every test passed or skipped, but the kernel WARNed */
	ck_assert_str_eq(serial_log_verdict(&log, 0), "fail");
	serial_log_release(&log);
}
END_TEST

START_TEST(truncated_log_is_timeout)
{
	struct serial_log log = SERIAL_LOG_INIT;

	parse_fixture(&log, "truncated.log");
	ck_assert(log.init_started && !log.finished);
	ck_assert_uint_eq(log.tests_nr, 1);
	ck_assert_int_eq(log.tests[0].status, KTAP_MISSING);
	ck_assert_str_eq(serial_log_verdict(&log, 0), "timeout");
	serial_log_release(&log);
}
END_TEST

START_TEST(real_pass_and_leak_logs)
{
	struct serial_log log = SERIAL_LOG_INIT;

	/* serial logs of real boots of kernel-patches/ and kernel-patches/negative/ */
	parse_fixture(&log, "pass.log");
	ck_assert_str_eq(serial_log_verdict(&log, 0), "pass");
	ck_assert_uint_eq(log.tests_nr, 1);
	ck_assert_int_eq(log.tests[0].status, KTAP_PASS);
	ck_assert_uint_eq(log.tests[0].sub_nr, 4);
	ck_assert_uint_eq(log.events_nr, 0);
	ck_assert(log.boot_seconds > 0);
	serial_log_release(&log);

	parse_fixture(&log, "leak.log");
	ck_assert_str_eq(serial_log_verdict(&log, 0), "fail");
	ck_assert_int_eq(log.tests[0].status, KTAP_FAIL);
	ck_assert_int_eq(log.tests[0].sub[0].status, KTAP_PASS);
	ck_assert_int_eq(log.tests[0].sub[2].status, KTAP_FAIL);
	ck_assert_str_eq(log.tests[0].sub[2].name, "resolution event padding is zero");
	serial_log_release(&log);
}
END_TEST

START_TEST(test_output_cannot_fake_kernel_lines)
{
	static const char text[] =
		"stablemate-init: start uptime=1.5\n"
		"1..1\n"
		"# selftests: x: y\n"
		"# BUG: this is the test program talking\n"
		"# Kernel panic - not syncing: neither is this\n"
		"# ok 1 fine # SKIP not today\n"
		"ok 1 selftests: x: y\n"
		"stablemate-init: done\n";
	struct serial_log log = SERIAL_LOG_INIT;

	serial_log_parse(&log, text, sizeof(text) - 1);
	ck_assert_uint_eq(log.events_nr, 0);
	ck_assert_int_eq(log.tests[0].sub[0].status, KTAP_SKIP);
	ck_assert_str_eq(log.tests[0].sub[0].directive, "SKIP not today");
	ck_assert_str_eq(serial_log_verdict(&log, 0), "pass");
	serial_log_release(&log);

	/* a plan of two with one result: the second never ran */
	{
		const char *two = "1..2\nok 1 selftests: a: b\nstablemate-init: done\n";

		serial_log_parse(&log, two, strlen(two));
	}
	ck_assert_str_eq(serial_log_verdict(&log, 0), "fail");
	serial_log_release(&log);

	/* binary junk and an empty log */
	serial_log_parse(&log, "\0\0\xff[ 1.0\n", 9);
	ck_assert_str_eq(serial_log_verdict(&log, 0), "timeout");
	serial_log_release(&log);
	serial_log_parse(&log, "", 0);
	ck_assert_int_eq(log.lines, 0);
	serial_log_release(&log);
}
END_TEST

START_TEST(first_build_error)
{
	static const char cc[] =
		"  CC      sound/core/timer.o\n"
		"sound/core/timer.c: In function 'snd_timer_user_tinterrupt':\n"
		"sound/core/timer.c:1417:16: warning: unused variable 'x' [-Wunused-variable]\n"
		"sound/core/timer.c:1418:9: error: 'r2' undeclared (first use in this function); did you mean 'r1'?\n"
		"sound/core/timer.c:1419:9: error: expected ';' before '}' token\n"
		"make[4]: *** [scripts/Makefile.build:250: sound/core/timer.o] Error 1\n";
	static const char ld[] =
		"  LD      vmlinux.o\n"
		"ld: sound/core/timer.o: in function `snd_timer_open':\n"
		"timer.c:(.text+0x5a1): undefined reference to `snd_missing'\n"
		"make[1]: *** [Makefile:1250: vmlinux] Error 2\n";
	static const char mk[] = "make: *** No rule to make target 'bzImag'.  Stop.\n";
	char *e;

	e = build_log_first_error(cc, sizeof(cc) - 1);
	ck_assert_str_eq(e, "sound/core/timer.c: In function 'snd_timer_user_tinterrupt':\n"
			 "sound/core/timer.c:1418:9: error: 'r2' undeclared (first use in this function); did you mean 'r1'?");
	free(e);
	e = build_log_first_error(ld, sizeof(ld) - 1);
	ck_assert_str_eq(e, "timer.c:(.text+0x5a1): undefined reference to `snd_missing'");
	free(e);
	e = build_log_first_error(mk, sizeof(mk) - 1);
	ck_assert_str_eq(e, "make: *** No rule to make target 'bzImag'.  Stop.");
	free(e);
	ck_assert_ptr_null(build_log_first_error("  CC foo.o\n", 11));
}
END_TEST

static void sh(const char *dir, const char *cmd)
{
	const char *argv[] = { "sh", "-ec", cmd, NULL };
	struct run_opts o = { .cwd = dir };
	struct run_result res;

	ck_assert_int_eq(run_command(argv, &o, &res), 0);
	ck_assert_msg(res.exit_code == 0, "%s: exit %d", cmd, res.exit_code);
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);

	ck_assert_int_eq(write_file_atomic(p, text, strlen(text)), 0);
	free(p);
}

START_TEST(apply_series_on_real_repo)
{
	char *top = make_temp_dir("sm-test-qemu"), *repo, *ser;
	struct strlist patches = STRLIST_INIT;
	struct apply_failure f;
	struct strbuf out = STRBUF_INIT;
	struct run_result res;

	ck_assert_ptr_nonnull(top);
	repo = xasprintf("%s/repo", top);
	ser = xasprintf("%s/series", top);
	mkdir_p(repo, 0755);
	mkdir_p(ser, 0755);
	sh(repo, "git init -q && git config user.name t && git config user.email t@t && "
	   "printf 'int a;\\nint b;\\nint c;\\n' > timer.c && git add . && git commit -qm base");
	/* a good patch, made by git itself, then reset away */
	sh(repo, "sed -i 's/int b;/int b2;/' timer.c && git commit -qam 'rename b' && "
	   "git format-patch -q -1 -o ../series && git reset -q --hard HEAD~1");
	write_text(ser, "0002-bad.patch",
		   "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
		   "From: t <t@t>\n"
		   "Date: Thu, 3 Dec 2026 09:00:00 +0000\n"
		   "Subject: [PATCH] touch a line that is not there\n"
		   "\n"
		   "---\n"
		   " timer.c | 2 +-\n"
		   "\n"
		   "diff --git a/timer.c b/timer.c\n"
		   "--- a/timer.c\n"
		   "+++ b/timer.c\n"
		   "@@ -2,2 +2,2 @@\n"
		   " int b2;\n"
		   "-int nothere;\n"
		   "+int d;\n"
		   "-- \n2.39.5\n\n");
	sh(ser, "ls 0001-*.patch > order && printf '0002-bad.patch\\n' >> order && "
	   "{ echo '# order'; cat order; } > series && rm order");

	ck_assert_int_eq(series_read(ser, &patches), 0);
	ck_assert_uint_eq(patches.nr, 2);
	ck_assert(strstr(patches.items[0], "/0001-rename-b.patch") != NULL);
	ck_assert_int_eq(series_apply(repo, &patches, &f), 1);
	ck_assert(strstr(f.patch, "0002-bad.patch") != NULL);
	ck_assert_str_eq(f.file, "timer.c");
	ck_assert_int_eq(f.line, 2);
	ck_assert_str_eq(f.hunk, "int b2;\nint nothere;\n");
	ck_assert_str_eq(f.message, "error: patch failed: timer.c:2");
	apply_failure_release(&f);

	/* the first patch is in, the failed am was aborted */
	{
		const char *argv[] = { "git", "-C", repo, "log", "--format=%s", NULL };

		ck_assert_int_eq(run_command(argv, &(struct run_opts){ .capture = &out }, &res), 0);
		ck_assert_str_eq(out.buf, "rename b\nbase\n");
	}
	{
		char *rebase = xasprintf("%s/.git/rebase-apply", repo);

		ck_assert(!file_exists(rebase));
		free(rebase);
	}
	strlist_clear(&patches);

	/* a series naming a missing patch: the series file and line */
	write_text(ser, "series", "0001-rename-b.patch\nnope.patch\n");
	ck_assert_int_eq(series_read(ser, &patches), -1);
	ck_assert(strstr(sm_last_error(), "/series:2: ") != NULL);
	ck_assert(strstr(sm_last_error(), "nope.patch: no such patch") != NULL);
	strlist_clear(&patches);

	strbuf_release(&out);
	remove_tree(top);
	free(repo);
	free(ser);
	free(top);
}
END_TEST

START_TEST(runner_exit_capture_timeout)
{
	const char *echo[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	const char *hang[] = { "sh", "-c", "sleep 60 & sleep 60", NULL };
	const char *nope[] = { "/nonexistent/prog", NULL };
	struct strbuf out = STRBUF_INIT;
	struct run_result res;

	ck_assert_int_eq(run_command(echo, &(struct run_opts){ .capture = &out }, &res), 0);
	ck_assert_int_eq(res.exit_code, 3);
	ck_assert(!res.timed_out);
	ck_assert(strstr(out.buf, "out\n") && strstr(out.buf, "err\n"));
	ck_assert_int_eq(run_command(hang, &(struct run_opts){ .timeout = 1 }, &res), 0);
	ck_assert(res.timed_out);
	ck_assert_int_eq(res.exit_code, 128 + 9);
	strbuf_reset(&out);
	ck_assert_int_eq(run_command(nope, &(struct run_opts){ .capture = &out }, &res), 0);
	ck_assert_int_eq(res.exit_code, 127);
	ck_assert(strstr(out.buf, "/nonexistent/prog: cannot run") != NULL);
	strbuf_release(&out);
}
END_TEST

START_TEST(qemu_timeout_path)
{
	/* Real QEMU with no kernel: the BIOS finds nothing to boot and the
	 * guest never finishes, like a hung kernel. The deadline must kill it
	 * and the empty log must read as a timeout. */
	char *dir = make_temp_dir("sm-test-qemu"), *log;
	struct qemu_opts q = { .kernel = NULL, .timeout = 2, .accel = "tcg" };
	struct serial_log sl = SERIAL_LOG_INIT;
	struct strbuf out = STRBUF_INIT;
	struct run_result res;

	ck_assert_ptr_nonnull(dir);
	log = xasprintf("%s/serial.log", dir);
	q.log_path = log;
	struct qemu_accel ran;

	ck_assert_int_eq(qemu_boot(&q, &res, &out, &ran), 0);
	ck_assert_msg(res.timed_out, "qemu ended by itself: exit %d: %s", res.exit_code,
		      out.buf);
	ck_assert_str_eq(ran.accel, "tcg");
	ck_assert_str_eq(ran.reason, "asked for");
	qemu_accel_release(&ran);
	ck_assert(file_exists(log));
	ck_assert_int_eq(serial_log_parse_file(&sl, log), 0);
	ck_assert_str_eq(serial_log_verdict(&sl, res.timed_out), "timeout");
	serial_log_release(&sl);
	strbuf_release(&out);
	remove_tree(dir);
	free(log);
	free(dir);
}
END_TEST

/* A qemu-system-x86_64 first on PATH that records each -accel it is given:
 * its KVM guest prints nothing and never ends (the fresh machine whose
 * /dev/kvm opens but whose guests stall), unless DIR/kvm-works exists, then
 * it prints /init's start line and exits; TCG runs the real QEMU. */
static const char qemu_wrapper[] =
	"#!/bin/sh\n"
	"here=$(dirname \"$0\") accel= serial= prev=\n"
	"for a; do\n"
	"\tcase $prev in -accel) accel=$a ;; -serial) serial=${a#file:} ;; esac\n"
	"\tprev=$a\n"
	"done\n"
	"echo \"$accel\" >>\"$here/calls\"\n"
	"if [ \"$accel\" = kvm ]; then\n"
	"\tif [ -e \"$here/kvm-works\" ]; then\n"
	"\t\techo 'stablemate-init: start uptime=0.50' >\"$serial\"\n"
	"\t\texit 0\n"
	"\tfi\n"
	"\texec sleep 600\n"
	"fi\n"
	"PATH=${PATH#*:} exec qemu-system-x86_64 \"$@\"\n";

struct kvm_env {
	char *dir, *bin, *calls, *log, *old_path, *new_path;
};

static void kvm_env_setup(struct kvm_env *e, int device_exists)
{
	char *wrapper, *dev;
	const char *path = getenv("PATH");

	e->dir = make_temp_dir("sm-test-kvm");
	ck_assert_ptr_nonnull(e->dir);
	e->bin = xasprintf("%s/bin", e->dir);
	ck_assert_int_eq(mkdir_p(e->bin, 0755), 0);
	wrapper = xasprintf("%s/qemu-system-x86_64", e->bin);
	ck_assert_int_eq(write_file_atomic(wrapper, qemu_wrapper, strlen(qemu_wrapper)), 0);
	ck_assert_int_eq(chmod(wrapper, 0755), 0);
	e->calls = xasprintf("%s/calls", e->bin);
	e->log = xasprintf("%s/serial.log", e->dir);
	e->old_path = xstrdup(path ? path : "/usr/bin:/bin");
	e->new_path = xasprintf("%s:%s", e->bin, e->old_path);
	setenv("PATH", e->new_path, 1);
	dev = xasprintf("%s/kvm", e->dir);
	if (device_exists)
		ck_assert_int_eq(write_file_atomic(dev, "", 0), 0);
	setenv("SM_KVM_DEVICE", dev, 1);
	unsetenv("SM_BOOT_ACCEL");
	unsetenv("SM_BOOT_KVM_PROBE");
	free(dev);
	free(wrapper);
}

static void kvm_env_release(struct kvm_env *e)
{
	setenv("PATH", e->old_path, 1);
	unsetenv("SM_KVM_DEVICE");
	remove_tree(e->dir);
	free(e->dir);
	free(e->bin);
	free(e->calls);
	free(e->log);
	free(e->old_path);
	free(e->new_path);
}

static char *read_calls(const struct kvm_env *e)
{
	struct strbuf sb = STRBUF_INIT;

	if (file_exists(e->calls))
		ck_assert_int_eq(read_file(e->calls, &sb), 0);
	return strbuf_detach(&sb, NULL);
}

START_TEST(kvm_that_stalls_falls_back_to_tcg)
{
	struct kvm_env e;
	struct qemu_opts q = { .kernel = NULL, .timeout = 3, .kvm_probe = 1,
			       .progress_marker = SERIAL_INIT_START };
	struct qemu_accel ran;
	struct run_result res;
	char *calls;

	kvm_env_setup(&e, 1);
	q.log_path = e.log;
	ck_assert_int_eq(kvm_usable(NULL), 1);
	ck_assert_int_eq(qemu_boot(&q, &res, NULL, &ran), 0);
	ck_assert_str_eq(ran.accel, "tcg");
	ck_assert_str_eq(ran.reason, "KVM guest made no progress (no 'stablemate-init: start' "
			 "on the serial console in 1 s), fell back to tcg");
	ck_assert(res.timed_out);	/* the real TCG run of a kernel-less guest */
	calls = read_calls(&e);
	ck_assert_str_eq(calls, "kvm\ntcg\n");
	free(calls);
	qemu_accel_release(&ran);

	/* asked for by name, the stalling KVM is an error, not a fallback */
	q.accel = "kvm";
	ck_assert_int_eq(qemu_boot(&q, &res, NULL, &ran), -1);
	ck_assert_str_eq(sm_last_error(), "--accel kvm: the guest made no progress: no "
			 "'stablemate-init: start' on the serial console in 1 s");
	ck_assert_ptr_null(ran.accel);
	calls = read_calls(&e);
	ck_assert_str_eq(calls, "kvm\ntcg\nkvm\n");
	free(calls);

	/* a KVM guest that gets to /init keeps KVM */
	{
		char *works = xasprintf("%s/kvm-works", e.bin);

		ck_assert_int_eq(write_file_atomic(works, "", 0), 0);
		free(works);
	}
	q.accel = NULL;
	ck_assert_int_eq(qemu_boot(&q, &res, NULL, &ran), 0);
	ck_assert_str_eq(ran.accel, "kvm");
	ck_assert(!res.timed_out && !res.stalled && res.exit_code == 0);
	qemu_accel_release(&ran);
	kvm_env_release(&e);
}
END_TEST

START_TEST(kvm_missing_means_tcg)
{
	struct kvm_env e;
	struct qemu_opts q = { .kernel = NULL, .timeout = 1,
			       .progress_marker = SERIAL_INIT_START };
	struct qemu_accel ran;
	struct run_result res;
	struct strbuf why = STRBUF_INIT, want = STRBUF_INIT;
	char *calls;

	kvm_env_setup(&e, 0);
	q.log_path = e.log;
	ck_assert_int_eq(kvm_usable(&why), 0);
	strbuf_addf(&want, "%s/kvm: No such file or directory", e.dir);
	ck_assert_str_eq(why.buf, want.buf);
	ck_assert_int_eq(qemu_boot(&q, &res, NULL, &ran), 0);
	ck_assert_str_eq(ran.accel, "tcg");
	strbuf_reset(&want);
	strbuf_addf(&want, "KVM unusable (%s/kvm: No such file or directory)", e.dir);
	ck_assert_str_eq(ran.reason, want.buf);
	calls = read_calls(&e);
	ck_assert_str_eq(calls, "tcg\n");
	free(calls);
	qemu_accel_release(&ran);

	q.accel = "kvm";
	ck_assert_int_eq(qemu_boot(&q, &res, NULL, &ran), -1);
	strbuf_reset(&want);
	strbuf_addf(&want, "--accel kvm: %s/kvm: No such file or directory", e.dir);
	ck_assert_str_eq(sm_last_error(), want.buf);
	calls = read_calls(&e);
	ck_assert_str_eq(calls, "tcg\n");	/* QEMU not even started */
	free(calls);
	strbuf_release(&why);
	strbuf_release(&want);
	kvm_env_release(&e);
}
END_TEST

START_TEST(qemu_command_line)
{
	struct qemu_opts q = { .kernel = "bz", .initrd = "i.cpio", .log_path = "s.log",
			       .accel = "tcg", .append = "quiet" };
	struct strlist argv = STRLIST_INIT;
	struct strbuf all = STRBUF_INIT;

	qemu_argv(&q, "tcg", &argv);
	for (size_t i = 0; i < argv.nr; i++)
		strbuf_addf(&all, "%s ", argv.items[i]);
	ck_assert_str_eq(all.buf, "qemu-system-x86_64 -nographic -no-reboot -monitor none "
			 "-nic none -m 256 -accel tcg -serial file:s.log -kernel bz "
			 "-initrd i.cpio -append console=ttyS0 panic=-1 rdinit=/init quiet ");
	strlist_clear(&argv);
	strbuf_reset(&all);
	q.arch = "arm64";
	q.kernel = "Image";
	qemu_argv(&q, "tcg", &argv);
	for (size_t i = 0; i < argv.nr; i++)
		strbuf_addf(&all, "%s ", argv.items[i]);
	ck_assert_str_eq(all.buf, "qemu-system-aarch64 -M virt -nographic -no-reboot -monitor none "
			 "-nic none -m 256 -accel tcg -cpu cortex-a57 -serial file:s.log -kernel Image "
			 "-initrd i.cpio -append console=ttyAMA0 panic=-1 rdinit=/init quiet ");
	strlist_clear(&argv);
	strbuf_release(&all);
}
END_TEST

START_TEST(result_renderings)
{
	struct boot_result r;
	struct strbuf text = STRBUF_INIT, json = STRBUF_INIT, subj = STRBUF_INIT, body = STRBUF_INIT;

	memset(&r, 0, sizeof(r));
	r.log = (struct serial_log)SERIAL_LOG_INIT;
	parse_fixture(&r.log, "oops.log");
	r.name = xstrdup("kernel-patches");
	r.verdict = serial_log_verdict(&r.log, 0);
	strlist_append(&r.patches, "/x/0001-a.patch");
	r.applied = 1;
	r.serial_log = xstrdup("/run/serial.log");
	r.accel = xstrdup("tcg");
	boot_result_text(&r, &text);
	ck_assert(starts_with(text.buf, "boot kernel-patches: FAIL\n"));
	ck_assert(strstr(text.buf, "  test alsa:timer-tread-padding: fail # exit=137\n") != NULL);
	ck_assert(strstr(text.buf, "  kernel oops (serial.log:14): Oops: 0000 [#1] PREEMPT NOPTI\n") != NULL);
	boot_result_json(&r, &json);
	ck_assert(strstr(json.buf, "\"verdict\":\"fail\"") != NULL);
	ck_assert(strstr(json.buf, "{\"kind\":\"bug\",\"line\":10,") != NULL);
	ck_assert(strstr(json.buf, "\"patches\":[{\"patch\":\"0001-a.patch\",\"applied\":true}]") != NULL);
	boot_result_mail(&r, &subj, &body);
	ck_assert_str_eq(subj.buf, "[stablemate boot] FAIL: kernel-patches (1 patch) on linux-6.1");
	ck_assert(strstr(body.buf, "  applied 0001-a.patch\n") != NULL);
	boot_result_release(&r);
	strbuf_release(&text);
	strbuf_release(&json);
	strbuf_release(&subj);
	strbuf_release(&body);
}
END_TEST

/* A result as the stage leaves it, from a real serial log. */
static struct boot_result *fixture_result(const char *log, const char *name)
{
	struct boot_result *r = xcalloc(1, sizeof(*r));

	r->log = (struct serial_log)SERIAL_LOG_INIT;
	parse_fixture(&r->log, log);
	r->verdict = r->series_verdict = serial_log_verdict(&r->log, 0);
	r->name = xstrdup(name);
	r->arch = xstrdup("x86_64");
	r->compiler = xstrdup("gcc");
	r->accel = xstrdup("tcg");
	r->run_dir = xstrdup("/cache/runs/20261203T180000Z-42");
	r->build_log = xstrdup("/cache/runs/20261203T180000Z-42/build.log");
	r->serial_log = xstrdup("/cache/runs/20261203T180000Z-42/serial log");
	r->start_time = 1796320800;
	r->build_seconds = 12.5;
	r->boot_seconds = 2.25;
	strlist_append(&r->tests, "alsa/timer-tread-padding");
	strlist_append(&r->configs, "/src/qemu/kernel.config");
	return r;
}

static void free_result(struct boot_result *r)
{
	boot_result_release(r);
	free(r);
}

START_TEST(compare_base_and_series)
{
	/* base: the selftest passes (pass.log); series: it leaks (leak.log) */
	struct boot_result *base = fixture_result("pass.log", "base");
	struct boot_result *r = fixture_result("leak.log", "kernel-patches/negative");
	struct strbuf text = STRBUF_INIT, json = STRBUF_INIT, subj = STRBUF_INIT, body = STRBUF_INIT;
	size_t still = 0;

	boot_compare(base, r);
	ck_assert_uint_eq(r->regressions, 3);
	ck_assert_str_eq(r->changes[0].name, "boot");
	ck_assert_int_eq(r->changes[0].change, BOOT_STILL_PASSING);
	ck_assert_str_eq(r->changes[1].name, "alsa:timer-tread-padding");
	ck_assert_int_eq(r->changes[1].change, BOOT_REGRESSED);
	ck_assert_str_eq(r->changes[4].name,
			 "alsa:timer-tread-padding: resolution event padding is zero");
	ck_assert_int_eq(r->changes[4].change, BOOT_REGRESSED);
	for (size_t i = 0; i < r->changes_nr; i++)
		still += r->changes[i].change == BOOT_STILL_PASSING;
	ck_assert_uint_eq(still, 3);	/* boot and the two "received" subtests */

	/* the other way round everything that failed is fixed */
	boot_compare(r, base);
	ck_assert_uint_eq(base->regressions, 0);
	ck_assert_int_eq(base->changes[1].change, BOOT_FIXED);
	ck_assert_int_eq(base->changes[2].change, BOOT_STILL_PASSING);

	/* a series whose boot panics regresses the boot and every test */
	{
		struct boot_result *p = fixture_result("panic.log", "panics");

		boot_compare(base, p);
		ck_assert_str_eq(p->changes[0].name, "boot");
		ck_assert_int_eq(p->changes[0].change, BOOT_REGRESSED);
		ck_assert_uint_eq(p->regressions, 6);
		free_result(p);
	}

	/* the renderings, with a bisection that found patch 2 in one build */
	boot_compare(base, r);
	r->verdict = "regressed";
	r->base = base;
	strlist_append(&r->patches, "/s/0001-selftests-alsa-check.patch");
	strlist_append(&r->patches, "/s/0002-DO-NOT-APPLY-leak.patch");
	r->applied = 2;
	r->bisected = 1;
	r->first_bad = 2;
	r->steps = xcalloc(1, sizeof(*r->steps));
	r->steps[0] = (struct bisect_step){ 1, 0, "pass", 3.0, 2.0 };
	r->steps_nr = 1;
	boot_result_text(r, &text);
	ck_assert(starts_with(text.buf, "boot kernel-patches/negative: REGRESSED\n"));
	ck_assert_msg(strstr(text.buf, "  against the base (linux-6.1 without the series): "
			     "3 still passing, 3 regressed\n") != NULL, "%s", text.buf);
	ck_assert(strstr(text.buf, "    regressed: alsa:timer-tread-padding: tick event padding "
			 "is zero (pass -> fail)\n") != NULL);
	ck_assert(strstr(text.buf, "  first bad patch: 0002-DO-NOT-APPLY-leak.patch "
			 "(bisection: 1 build: 1 patch good)\n") != NULL);
	boot_result_json(r, &json);
	ck_assert(strstr(json.buf, "\"verdict\":\"regressed\",\"series_verdict\":\"fail\","
			 "\"summary\":\"3 regressions\",\"bisected\":\"0002-DO-NOT-APPLY-leak.patch\"")
		  != NULL);
	ck_assert(strstr(json.buf, "{\"name\":\"alsa:timer-tread-padding\",\"change\":\"regressed\","
			 "\"base\":\"pass\",\"series\":\"fail\"}") != NULL);
	ck_assert(strstr(json.buf, "\"bisect\":{\"first_bad\":\"0002-DO-NOT-APPLY-leak.patch\","
			 "\"first_bad_index\":2,\"builds\":1,") != NULL);
	boot_result_mail(r, &subj, &body);
	ck_assert_str_eq(subj.buf, "[stablemate boot] REGRESSED: kernel-patches/negative "
			 "(2 patches) on linux-6.1, first bad: 0002-DO-NOT-APPLY-leak.patch");
	ck_assert(starts_with(body.buf, "The series regressed 3 regressions against linux-6.1 "
			      "without it.\nFirst bad patch (bisected): 0002-DO-NOT-APPLY-leak.patch\n"));
	r->base = NULL;
	free_result(base);
	free_result(r);
	strbuf_release(&text);
	strbuf_release(&json);
	strbuf_release(&subj);
	strbuf_release(&body);
}
END_TEST

/* Runs the validator on a document; returns its exit code and output. */
static int kcidb_validate(const char *doc, struct strbuf *out)
{
	char *dir = make_temp_dir("sm-test-kcidb"), *path;
	const char *argv[] = { "python3", srcdir_path("tests/kcidb_validate.py"),
			       srcdir_path("tests/fixtures/kcidb/kcidb-io-v4.0.schema.json"),
			       NULL, NULL };
	struct run_result res;

	ck_assert_ptr_nonnull(dir);
	path = xasprintf("%s/kcidb.json", dir);
	ck_assert_int_eq(write_file_atomic(path, doc, strlen(doc)), 0);
	argv[3] = path;
	ck_assert_int_eq(run_command(argv, &(struct run_opts){ .capture = out }, &res), 0);
	remove_tree(dir);
	free(path);
	free(dir);
	return res.exit_code;
}

START_TEST(kcidb_document_validates)
{
	struct boot_result *base = fixture_result("pass.log", "base");
	struct boot_result *r = fixture_result("leak.log", "kernel-patches/negative");
	struct strbuf doc = STRBUF_INIT, out = STRBUF_INIT;
	char *bad;

	strlist_append(&r->patches, "/s/0001-selftests-alsa-check.patch");
	r->applied = 1;
	r->patchset_hash = xstrdup("0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9");
	boot_compare(base, r);
	r->base = base;
	boot_result_kcidb(r, "stablemate", &doc);
	ck_assert_msg(kcidb_validate(doc.buf, &out) == 0, "%s\n%s", out.buf, doc.buf);
	ck_assert_str_eq(out.buf, "ok: 2 checkouts, 2 builds, 12 tests\n");
	ck_assert(starts_with(doc.buf, "{\"version\":{\"major\":4,\"minor\":0},\"checkouts\":[{\"id\":"
			      "\"stablemate:1796320800-20261203T180000Z-42-series\",\"origin\":\"stablemate\""));
	ck_assert(strstr(doc.buf, "\"path\":\"kselftest.alsa.timer-tread-padding."
			 "resolution_event_padding_is_zero\",\"status\":\"FAIL\"") != NULL);
	ck_assert(strstr(doc.buf, "\"log_url\":\"file:///cache/runs/20261203T180000Z-42/serial%20log\"")
		  != NULL);
	ck_assert(strstr(doc.buf, "\"architecture\":\"x86_64\",\"compiler\":\"gcc\"") != NULL);

	/* the check can fail: a status KCIDB does not know */
	bad = xstrdup(doc.buf);
	memcpy(strstr(bad, "\"status\":\"FAIL\"") + 10, "OOPS", 4);
	strbuf_reset(&out);
	ck_assert_int_eq(kcidb_validate(bad, &out), 1);
	ck_assert_msg(strstr(out.buf, "'OOPS' is not one of") != NULL, "%s", out.buf);
	free(bad);
	r->base = NULL;
	free_result(base);
	free_result(r);
	strbuf_release(&doc);
	strbuf_release(&out);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("qemu");

	add_tcase(s, "serial_log", SM_TESTS(oops_log, panic_log, warning_and_skip_log,
					    truncated_log_is_timeout, real_pass_and_leak_logs,
					    test_output_cannot_fake_kernel_lines));
	add_tcase(s, "stage", SM_TESTS(first_build_error, apply_series_on_real_repo,
				       runner_exit_capture_timeout, qemu_timeout_path,
				       qemu_command_line, kvm_that_stalls_falls_back_to_tcg,
				       kvm_missing_means_tcg, compare_base_and_series,
				       kcidb_document_validates, result_renderings));
	return s;
}
