/* stablemate boot: apply, build and boot candidate patches in QEMU. */
#include "cli/cli.h"
#include "qemu/boot.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: stablemate boot (--series DIR | --branch B [--repo R] [--base REV])\n"
	"                       [--config FRAGMENT]... [--test DIR/NAME]... [--timeout S]\n"
	"                       [--test-timeout S] [--accel kvm|tcg] [--cache DIR]\n"
	"                       [--run-dir DIR] [--json | --mail]\n"
	"\n"
	"Resets the cached linux-source-6.1 tree to its base, applies the patches in\n"
	"order with git am, builds tinyconfig + qemu/kernel.config + the fragments,\n"
	"boots the kernel in QEMU with an initramfs of busybox and the test programs\n"
	"(tools/testing/selftests/DIR/NAME.c of the patched tree, built static) and\n"
	"reports each test's KTAP result, kernel oops/BUG/panic/WARNING lines and\n"
	"the boot time.\n"
	"\n"
	"  --series DIR      a directory of format-patch files; DIR/series gives the\n"
	"                    order, DIR/config a kconfig fragment, DIR/tests the tests\n"
	"  --branch B        the commits of branch B above --base (default: the\n"
	"                    latest tag reachable from B) in repository --repo (.)\n"
	"  --config FRAGMENT another kconfig fragment (repeatable)\n"
	"  --test DIR/NAME   the test programs to run (repeatable; default DIR/tests)\n"
	"  --timeout S       kill QEMU after S seconds (default 300)\n"
	"  --test-timeout S  kill one test program in the guest after S s (default 120)\n"
	"  --accel A         kvm or tcg (default: kvm when /dev/kvm works and the\n"
	"                    guest reaches /init within 30 s, else tcg; an explicit\n"
	"                    kvm that does not is an error)\n"
	"  --cache DIR       kernel tree and build cache (default\n"
	"                    ${STABLEMATE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/stablemate})\n"
	"  --run-dir DIR     where the logs of this run go (default CACHE/runs/...)\n"
	"  --json            print the result as JSON\n"
	"  --mail            print the result as a mail (Subject: line, body)\n"
	"\n"
	"Exit status: 0 when the verdict is pass, 1 otherwise (fail, timeout, panic,\n"
	"apply-failed, build-failed, or an error), 2 on a usage error.\n";

static int parse_seconds(const char *arg, unsigned *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v <= 0 || v > 86400)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int cmd_boot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "series", required_argument, NULL, 's' },
		{ "branch", required_argument, NULL, 'b' },
		{ "repo", required_argument, NULL, 'r' },
		{ "base", required_argument, NULL, 'B' },
		{ "config", required_argument, NULL, 'c' },
		{ "test", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "test-timeout", required_argument, NULL, 'U' },
		{ "accel", required_argument, NULL, 'a' },
		{ "cache", required_argument, NULL, 'C' },
		{ "run-dir", required_argument, NULL, 'R' },
		{ "json", no_argument, NULL, 'j' },
		{ "mail", no_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct boot_opts o = BOOT_OPTS_INIT;
	struct boot_result r;
	struct strbuf out = STRBUF_INIT;
	int json = 0, mail = 0, c, ret;

	if (cli_wants_help(argc, argv))
		cli_help(usage);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o.series_dir = optarg; break;
		case 'b': o.branch = optarg; break;
		case 'r': o.repo = optarg; break;
		case 'B': o.base = optarg; break;
		case 'c': strlist_append(&o.configs, optarg); break;
		case 't': strlist_append(&o.tests, optarg); break;
		case 'a':
			if (strcmp(optarg, "kvm") && strcmp(optarg, "tcg")) {
				boot_opts_release(&o);
				return cli_usage_error("boot", "--accel: '%s' is not kvm or tcg", optarg);
			}
			o.accel = optarg;
			break;
		case 'C': o.cache = optarg; break;
		case 'R': o.run_dir = optarg; break;
		case 'j': json = 1; break;
		case 'm': mail = 1; break;
		case 'T':
		case 'U':
			if (parse_seconds(optarg, c == 'T' ? &o.timeout : &o.test_timeout) < 0) {
				boot_opts_release(&o);
				return cli_usage_error("boot", "--%s: '%s' is not a number of seconds",
						       c == 'T' ? "timeout" : "test-timeout", optarg);
			}
			break;
		default:
			boot_opts_release(&o);
			return cli_usage_error("boot", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		boot_opts_release(&o);
		return cli_usage_error("boot", "unexpected argument '%s'", argv[optind]);
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

	ret = boot_run(&o, &r);
	boot_opts_release(&o);
	if (r.accel)
		fprintf(stderr, "stablemate boot: accel %s: %s\n", r.accel,
			r.accel_reason ? r.accel_reason : "");
	if (ret < 0) {
		boot_result_release(&r);
		return cli_fail("boot");
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
	strbuf_release(&out);
	boot_result_release(&r);
	return ret;
}
