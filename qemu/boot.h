/* boot: the build-and-boot stage.
 *
 * One run: reset the cached kernel tree to its base, apply the series with
 * `git am`, build tinyconfig + qemu/kernel.config + the series' fragments,
 * compile the test programs statically, pack them with busybox into an
 * initramfs, boot it in QEMU and parse the serial log. Every file of the
 * run (build.log, serial.log, initramfs.cpio, result.json) is kept in the
 * run directory. Runs on one cache take turns (a lock file). */
#ifndef SM_QEMU_BOOT_H
#define SM_QEMU_BOOT_H
#include "qemu/series.h"
#include "qemu/serial_log.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"

struct boot_opts {
	const char *series_dir;		/* a series directory, or */
	const char *branch;		/* the commits of a branch of repo */
	const char *repo;		/* NULL: "." */
	const char *base;		/* NULL: the branch's latest tag */
	struct strlist configs;		/* more kconfig fragments, in order */
	struct strlist tests;		/* "DIR/NAME"; empty: the series' list */
	unsigned timeout;		/* QEMU seconds; 0: 300 */
	unsigned test_timeout;		/* per test program in the guest; 0: 120 */
	const char *cache;		/* NULL: boot_default_cache() */
	const char *datadir;		/* NULL: boot_datadir() */
	const char *tarball;		/* NULL: /usr/src/linux-source-6.1.tar.xz */
	const char *run_dir;		/* NULL: CACHE/runs/<time>-<pid> */
	const char *accel;		/* NULL: kvm when usable, else tcg */
};

#define BOOT_OPTS_INIT { NULL, NULL, NULL, NULL, STRLIST_INIT, STRLIST_INIT, 0, 0, \
			 NULL, NULL, NULL, NULL, NULL }

struct boot_result {
	const char *verdict;	/* pass, fail, timeout, panic,
				 * apply-failed, build-failed */
	char *name;		/* the series directory or branch */
	char *run_dir;
	struct strlist patches;	/* in order */
	size_t applied;
	struct apply_failure apply;	/* when apply-failed */
	char *build_error;	/* when build-failed: the first error */
	char *build_log;
	char *serial_log;	/* path, once booted */
	char *accel;		/* the accelerator that ran, */
	char *accel_reason;	/* and why that one */
	struct strlist tests;	/* the programs that were run */
	struct strlist configs;	/* fragments after qemu/kernel.config */
	double build_seconds;	/* kernel + tests + initramfs */
	double boot_seconds;	/* QEMU start to exit, wall clock */
	int timed_out;
	struct serial_log log;
};

void boot_opts_release(struct boot_opts *o);
void boot_result_release(struct boot_result *r);

/* ${STABLEMATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stablemate}; caller frees. */
char *boot_default_cache(void);
/* Where tree.sh, build-kernel.sh, ... are: $STABLEMATE_DATADIR, else the
 * source tree's qemu/ when present, else the installed data directory. */
char *boot_datadir(void);

/* Runs the stage. Returns 0 when it reached a verdict (r->verdict; a
 * patch that does not apply or a build error is a verdict, not an
 * error) and -1 (sm_error) when it could not run at all. */
int boot_run(const struct boot_opts *o, struct boot_result *r);

/* Renderings of a result. */
void boot_result_text(const struct boot_result *r, struct strbuf *out);
void boot_result_json(const struct boot_result *r, struct strbuf *out);
/* A mail for the bot's report: one subject line and a plain-text body. */
void boot_result_mail(const struct boot_result *r, struct strbuf *subject,
		      struct strbuf *body);

#endif
