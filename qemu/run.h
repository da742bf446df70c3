/* run: start a program, collect its output, kill it at a deadline.
 * Used for git, the kernel build script, gcc and QEMU. The child gets its
 * own process group so a timeout kills everything it started. */
#ifndef SM_QEMU_RUN_H
#define SM_QEMU_RUN_H
#include "lib/strbuf.h"

struct sm_progress;

struct run_opts {
	const char *cwd;		/* NULL: current directory */
	const char *log_path;		/* stdout+stderr appended here, or NULL */
	struct strbuf *capture;		/* stdout+stderr appended here, or NULL */
	unsigned timeout;		/* seconds, 0: none */
	/* A progress deadline: when progress(progress_arg) has not returned
	 * nonzero within progress_timeout seconds, the program is killed and
	 * res->stalled set. Checked a few times a second until it first
	 * returns nonzero. progress NULL: no such deadline. */
	int (*progress)(void *progress_arg);
	void *progress_arg;
	unsigned progress_timeout;
	/* A meter (lib/progress.h) ticked a few times a second while the
	 * program runs, or NULL. */
	struct sm_progress *meter;
};

struct run_result {
	int exit_code;			/* exit status, or 128+signal */
	int timed_out;			/* killed at the deadline */
	int stalled;			/* killed at the progress deadline */
	double seconds;			/* wall-clock time */
};

/* Runs argv (a NULL-terminated list; argv[0] searched in PATH) with stdin
 * from /dev/null. Returns 0 when it ran (whatever its exit code) and -1
 * (sm_error naming argv[0]) when it could not be started. */
int run_command(const char *const *argv, const struct run_opts *opts,
		struct run_result *res);

/* Seconds on the monotonic clock, for the stage's own timings. */
double run_now(void);

#endif
