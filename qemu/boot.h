/* boot: the build-and-boot stage.
 *
 * One run: reset the cached kernel tree of the architecture to its base,
 * apply the series with `git am`, build tinyconfig + qemu/kernel.config (+
 * qemu/kernel-ARCH.config) + the series' fragments, compile the test
 * programs statically, pack them with busybox into an initramfs, boot it in
 * QEMU and parse the serial log. With compare, the base (the tree without
 * the series) is built and booted with the same test programs and each
 * test's change is reported; with bisect, a regression is narrowed to the
 * first patch that shows it (each step checks out one commit of the
 * applied series, so kbuild rebuilds only the files that differ). Every
 * file of the run (build.log, serial.log, initramfs.cpio, result.json,
 * base/, bisect-N/) is kept in the run directory. Runs of one architecture
 * on one cache take turns (a lock file). */
#ifndef SM_QEMU_BOOT_H
#define SM_QEMU_BOOT_H
#include "qemu/series.h"
#include "qemu/serial_log.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"

struct sm_progress;

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
	const char *arch;		/* "x86_64" (NULL) or "arm64" */
	int compare;			/* also boot the base; per-test changes */
	int bisect;			/* a regression: find the first bad patch
					 * (implies compare) */
	const char *distcc;		/* distcc hosts (DISTCC_HOSTS), or NULL */
	int ccache;			/* compile through ccache */
	/* A timer meter (lib/progress.h) showing the kernel build's and the
	 * boot's time, or NULL. */
	struct sm_progress *progress;
};

#define BOOT_OPTS_INIT { NULL, NULL, NULL, NULL, STRLIST_INIT, STRLIST_INIT, 0, 0, \
			 NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, NULL, 0, NULL }

/* A test's change from the base to the series (--compare). */
enum boot_change {
	BOOT_STILL_PASSING,
	BOOT_FIXED,
	BOOT_REGRESSED,
	BOOT_STILL_FAILING,
	BOOT_NEW,		/* no result on the base (or skipped there) */
	BOOT_SKIPPED,		/* skipped with the series */
};

struct boot_change_item {
	char *name;		/* "boot", "TEST" or "TEST: SUBTEST" */
	enum boot_change change;
	const char *base;	/* pass, fail, skip or NULL (absent) */
	const char *series;
};

struct bisect_step {
	size_t applied;		/* the first N patches */
	int bad;		/* shows a regression of the series */
	const char *verdict;
	double build_seconds, boot_seconds;
};

struct boot_result {
	const char *verdict;	/* pass, fail, timeout, panic,
				 * apply-failed, build-failed; with
				 * compare: regressed when a test or the
				 * boot went from pass to fail */
	const char *series_verdict;	/* the series' own verdict */
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
	char *arch;		/* x86_64, arm64 */
	char *compiler;		/* e.g. "ccache aarch64-linux-gnu-gcc" */
	char *patchset_hash;	/* KCIDB's: sha256 of the patches' sha256s */
	long long start_time;	/* Unix time the run started */
	/* --compare */
	struct boot_result *base;	/* the run without the series */
	struct boot_change_item *changes;
	size_t changes_nr, regressions;
	/* --bisect */
	int bisected;		/* bisection ran */
	size_t first_bad;	/* 1-based index in patches; 0: not found */
	struct bisect_step *steps;
	size_t steps_nr;	/* = the builds bisection needed */
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

/* The changes from base to series (for --compare and its tests): fills
 * r->changes and r->regressions. */
void boot_compare(const struct boot_result *base, struct boot_result *r);
const char *boot_change_name(enum boot_change c);

/* Renderings of a result. */
void boot_result_text(const struct boot_result *r, struct strbuf *out);
void boot_result_json(const struct boot_result *r, struct strbuf *out);
/* A mail for the bot's report: one subject line and a plain-text body. */
void boot_result_mail(const struct boot_result *r, struct strbuf *subject,
		      struct strbuf *body);
/* The run as a KCIDB (KernelCI database) I/O document, schema v4.0:
 * one checkout (the base plus the patchset), one build per kernel built
 * for the series (and the base), and a test per KTAP test and subtest
 * (path "DIR.NAME[.SUBTEST]", plus "boot"). origin names the submitter
 * (KCIDB origin, [a-z0-9_]+). */
void boot_result_kcidb(const struct boot_result *r, const char *origin, struct strbuf *out);

#endif
