/* stablemate boot: apply, build and boot candidate patches in QEMU. */
#include "cli/cli.h"
#include "qemu/boot.h"
#include "lib/fileio.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/progress.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sm_usage usage = {
	.synopsis = "stablemate boot (--series DIR | --branch B [-C REPO] [--base REV])\n"
		    "                [--config FRAGMENT]... [--test DIR/NAME]... [--timeout S]\n"
		    "                [--test-timeout S] [--accel kvm|tcg] [--cache-dir DIR]\n"
		    "                [--run-dir DIR] [--arch x86_64|arm64] [--compare] [--bisect]\n"
		    "                [--kcidb FILE] [--distcc HOSTS] [--ccache] [--json | --mail]",
	.description =
	"Resets the cached linux-source-6.1 tree to its base, applies the patches in\n"
	"order with git am, builds tinyconfig + qemu/kernel.config + the fragments,\n"
	"boots the kernel in QEMU with an initramfs of busybox and the test programs\n"
	"(tools/testing/selftests/DIR/NAME.c of the patched tree, built static) and\n"
	"reports each test's KTAP result, kernel oops/BUG/panic/WARNING lines and\n"
	"the boot time.\n",
	.epilog =
	"Exit status: 0 when the verdict is pass, 1 otherwise (fail, timeout, panic,\n"
	"apply-failed, build-failed, regressed, or an error), 2 on a usage error.\n"
	"With --compare a test that fails on the base too does not make it 1.\n",
};

static int opt_accel(const struct sm_option *opt, const char *arg)
{
	if (strcmp(arg, "kvm") && strcmp(arg, "tcg"))
		return sm_error("--accel: '%s' is not kvm or tcg", arg);
	*(const char **)opt->value = arg;
	return 0;
}

static int opt_arch(const struct sm_option *opt, const char *arg)
{
	if (strcmp(arg, "x86_64") && strcmp(arg, "arm64"))
		return sm_error("--arch: '%s' is not x86_64 or arm64", arg);
	*(const char **)opt->value = arg;
	return 0;
}

static int opt_hosts(const struct sm_option *opt, const char *arg)
{
	if (!*arg)
		return sm_error("--distcc: no hosts");
	*(const char **)opt->value = arg;
	return 0;
}

int cmd_boot(int argc, char **argv)
{
	struct boot_opts o = BOOT_OPTS_INIT;
	struct boot_result r;
	struct strbuf out = STRBUF_INIT;
	const char *kcidb = NULL;
	int json = 0, mail = 0, bisect = 0, ret;
	const struct sm_option options[] = {
		OPT_STRING(0, "series", &o.series_dir, "DIR",
			   "a directory of format-patch files; DIR/series gives the\n"
			   "order, DIR/config a kconfig fragment, DIR/tests the tests"),
		OPT_STRING(0, "branch", &o.branch, "B",
			   "the commits of branch B above --base (default: the\n"
			   "latest tag reachable from B) in repository -C (.)"),
		OPT_REPO(&o.repo, "the repository of --branch (default: .)"),
		OPT_STRING(0, "base", &o.base, "REV", "where --branch's commits start"),
		OPT_STRING_LIST(0, "config", &o.configs, "FRAGMENT", "another kconfig fragment (repeatable)"),
		OPT_STRING_LIST(0, "test", &o.tests, "DIR/NAME",
				"the test programs to run (repeatable; default DIR/tests)"),
		OPT_SECONDS("timeout", &o.timeout, "kill QEMU after S seconds (default 300)"),
		OPT_SECONDS("test-timeout", &o.test_timeout,
			    "kill one test program in the guest after S s (default 120)"),
		OPT_CALLBACK(0, "accel", &o.accel, "A", "kvm or tcg (default: kvm when /dev/kvm works and the\n"
			     "guest reaches /init within 30 s, else tcg; an explicit\n"
			     "kvm that does not is an error)",
			     opt_accel),
		OPT_STRING(0, "cache-dir", &o.cache, "DIR",
			   "kernel tree and build cache (default\n"
			   "${STABLEMATE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/stablemate})"),
		OPT_ALIAS(0, "cache", "cache-dir"),
		OPT_STRING(0, "run-dir", &o.run_dir, "DIR",
			   "where the logs of this run go (default CACHE/runs/...)"),
		OPT_CALLBACK(0, "arch", &o.arch, "A",
			     "x86_64 (default) or arm64 (aarch64-linux-gnu-gcc, booted\n"
			     "in qemu-system-aarch64 -M virt); a tree and build per arch",
			     opt_arch),
		OPT_BOOL(0, "compare", &o.compare,
			 "also build and boot the base (the tree without the series)\n"
			 "with the same test programs; per test: still passing,\n"
			 "fixed, regressed, still failing, new; the verdict is\n"
			 "regressed when a test or the boot went from pass to fail"),
		OPT_BOOL(0, "bisect", &bisect,
			 "with --compare: on a regression, find the first bad patch"),
		OPT_STRING(0, "kcidb", &kcidb, "FILE",
			   "also write the run as KCIDB JSON (schema v4.0) to FILE"),
		OPT_CALLBACK(0, "distcc", &o.distcc, "HOSTS",
			     "compile with distcc on HOSTS (DISTCC_HOSTS syntax, e.g.\n"
			     "\"build1/8 build2/8\"), -j from `distcc -j`", opt_hosts),
		OPT_BOOL(0, "ccache", &o.ccache, "compile through ccache"),
		OPT_JSON(&json),
		OPT_BOOL(0, "mail", &mail, "print the result as a mail (Subject: line, body)"),
		OPT_QUIET(NULL),
		OPT_END()
	};

	argc = cli_parse_options("boot", argc, argv, options, &usage, 0);
	if (argc > 0) {
		boot_opts_release(&o);
		return cli_usage_error("boot", "unexpected argument '%s'", argv[0]);
	}
	if (!o.series_dir == !o.branch) {
		boot_opts_release(&o);
		return cli_usage_error("boot", "give exactly one of --series DIR or --branch B");
	}
	if ((o.repo || o.base) && !o.branch) {
		boot_opts_release(&o);
		return cli_usage_error("boot", "--repo and --base go with --branch");
	}
	if (json && mail) {
		boot_opts_release(&o);
		return cli_usage_error("boot", "--json and --mail exclude each other");
	}

	if (bisect)
		o.bisect = o.compare = 1;
	o.progress = sm_progress_start_timer("Preparing the tree");
	ret = boot_run(&o, &r);
	if (ret < 0)
		sm_progress_abort(&o.progress);
	sm_progress_stop(&o.progress);
	boot_opts_release(&o);
	if (r.accel)
		fprintf(stderr, "stablemate boot: accel %s: %s\n", r.accel,
			r.accel_reason ? r.accel_reason : "");
	if (ret < 0) {
		boot_result_release(&r);
		return cli_fail("boot");
	}
	if (kcidb) {
		struct strbuf doc = STRBUF_INIT;

		boot_result_kcidb(&r, "stablemate", &doc);
		if (write_file_atomic(kcidb, doc.buf, doc.len) < 0) {
			strbuf_release(&doc);
			boot_result_release(&r);
			return cli_fail("boot");
		}
		strbuf_release(&doc);
	}
	if (json) {
		boot_result_json(&r, &out);
		strbuf_addch(&out, '\n');
	} else if (mail) {
		struct strbuf subject = STRBUF_INIT, body = STRBUF_INIT;

		boot_result_mail(&r, &subject, &body);
		strbuf_addf(&out, "Subject: %s\n\n%s", subject.buf, body.buf);
		strbuf_release(&subject);
		strbuf_release(&body);
	} else {
		boot_result_text(&r, &out);
	}
	fputs(out.buf, stdout);
	ret = strcmp(r.verdict, "pass") ? 1 : 0;
	if (r.base && !r.regressions && strcmp(r.verdict, "build-failed"))
		ret = 0;	/* --compare: failing on the base too is no regression */
	strbuf_release(&out);
	boot_result_release(&r);
	return ret;
}
