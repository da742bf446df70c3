/* lockfile: an exclusive lock on a path for the length of a job (the bot's
 * cycle over its state directory), in the spirit of git's lockfile.h and
 * tempfile.h: the file is removed on release, on exit() and on a fatal
 * signal, so a crash of the holder does not block the next run.
 *
 * The lock is a file created at PATH holding one line "PID HOST UNIXTIME"
 * (who holds it, for the messages) and kept under flock(LOCK_EX) while
 * held. The kernel drops the flock when the holder dies, even by kill -9, so
 * a lock file left behind by a dead process is found unlocked and taken over
 * (with a warning naming the pid, host and age it had); a live holder is
 * waited for, up to a bound, and then named in the error. */
#ifndef SM_LOCKFILE_H
#define SM_LOCKFILE_H
#include <signal.h>

struct sm_lockfile {
	char *path;
	int fd;			/* -1: not held */
	int slot;		/* index in the exit/signal clean-up table */
};
#define SM_LOCKFILE_INIT { NULL, -1, -1 }

/* Who a lock file names (all zero / empty when it could not be read). */
struct sm_lock_holder {
	long pid;
	long since;		/* unix time the lock was taken */
	char host[256];
};

/* Takes the lock at path, waiting up to timeout_ms (0: no wait) while
 * another process holds it, and giving up early when *stop (may be NULL)
 * becomes non-zero. Returns 0, or -1 with sm_error, e.g.
 * "state/lock: held by pid 4711 on host build1, taken 12 s ago; gave up after
 * 10 s".
 * A lock file of a process that is gone is taken over with sm_warn. */
int sm_lockfile_acquire(struct sm_lockfile *lk, const char *path, long timeout_ms,
			const volatile sig_atomic_t *stop);
/* Removes the lock file and drops the lock; harmless when not held. */
void sm_lockfile_release(struct sm_lockfile *lk);
/* Reads the holder line of a lock file. 0, or -1 when absent or unreadable. */
int sm_lockfile_holder(const char *path, struct sm_lock_holder *h);

#endif
