/* serial_log: what a boot's serial console says.
 *
 * The log mixes kernel messages ("[    0.512345] ...") with the output of
 * the initramfs's /init, which runs each test program kselftest-runner
 * style: a top-level TAP plan, "# selftests: DIR: NAME", the program's own
 * KTAP with every line prefixed "# ", and one "ok N selftests: DIR: NAME"
 * (or "not ok", "# SKIP") per program. /init also prints
 *	stablemate-init: start uptime=SECONDS
 *	stablemate-init: done
 * so the parser knows the boot time and whether the run finished; a log
 * without the "done" line was cut off (timeout, panic, hang).
 *
 * Kernel problems are found on the kernel's lines only (test output is
 * "# "-prefixed and cannot fake them): oops, BUG, panic, WARNING. */
#ifndef SM_QEMU_SERIAL_LOG_H
#define SM_QEMU_SERIAL_LOG_H
#include <stddef.h>

/* /init's first line: the guest reached user space. */
#define SERIAL_INIT_START "stablemate-init: start"

enum ktap_status {
	KTAP_PASS,
	KTAP_FAIL,
	KTAP_SKIP,
	KTAP_MISSING,		/* started (or planned) but no result line */
};

struct ktap_result {
	int num;
	char *name;
	enum ktap_status status;
	char *directive;	/* text after "# " on the result line, or NULL */
};

struct boot_test {
	char *name;		/* "DIR:NAME", e.g. "alsa:timer-tread-padding" */
	enum ktap_status status;
	char *directive;
	struct ktap_result *sub;	/* the program's own results */
	size_t sub_nr, sub_alloc;
	int sub_plan;		/* its "1..N", -1 if none */
	char *skip_reason;	/* from a "1..0 # SKIP reason" plan */
	int first_line, last_line;	/* 1-based lines of the log */
};

enum kernel_event_kind {
	KEV_OOPS,
	KEV_BUG,
	KEV_PANIC,
	KEV_WARNING,
};

struct kernel_event {
	enum kernel_event_kind kind;
	int line;		/* 1-based */
	char *text;		/* the line, without the printk time stamp */
};

struct serial_log {
	struct boot_test *tests;
	size_t tests_nr, tests_alloc;
	int plan;		/* top-level "1..N", -1 if none */
	struct kernel_event *events;
	size_t events_nr, events_alloc;
	char *kernel_version;	/* from "Linux version X ...", or NULL */
	double boot_seconds;	/* guest uptime when /init started, -1 unknown */
	double last_stamp;	/* last printk time stamp seen, -1 none */
	int init_started;
	int finished;		/* saw "stablemate-init: done" */
	int lines;
};

#define SERIAL_LOG_INIT { NULL, 0, 0, -1, NULL, 0, 0, NULL, -1, -1, 0, 0, 0 }

/* Parses a log (any bytes: CRs, NULs and broken lines are tolerated) into
 * log, which must be SERIAL_LOG_INIT or released. Never fails. */
void serial_log_parse(struct serial_log *log, const char *buf, size_t len);
/* Reads and parses a file; -1 (sm_error naming it) when it cannot be read. */
int serial_log_parse_file(struct serial_log *log, const char *path);
void serial_log_release(struct serial_log *log);

const char *ktap_status_name(enum ktap_status s);
const char *kernel_event_name(enum kernel_event_kind k);

/* The verdict of a boot: "pass" (finished, every program passed or
 * skipped, no kernel problem), "fail" (a test failed or is missing, or the
 * kernel oopsed/BUGged/WARNed), "panic", or "timeout" (killed at the
 * deadline, or the log stops before "done"). */
const char *serial_log_verdict(const struct serial_log *log, int timed_out);

#endif
