/* lockfile: flock-guarded lock files removed on release, exit and fatal
 * signals (see lockfile.h). */
#include "lib/lockfile.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The lock files this process holds, for the exit and signal handlers:
 * a fixed table, so the handler walks no list that is being changed. */
#define MAX_LOCKS 16
static char *held_path[MAX_LOCKS];
static volatile sig_atomic_t held_active[MAX_LOCKS];
static pid_t held_owner[MAX_LOCKS];
static int handlers_installed;
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };

static void remove_held(void)
{
	for (int i = 0; i < MAX_LOCKS; i++)
		if (held_active[i] && held_owner[i] == getpid()) {
			held_active[i] = 0;
			unlink(held_path[i]);
		}
}

static void on_fatal_signal(int sig)
{
	remove_held();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Once: remove the lock files at exit(), and on the fatal signals nobody
 * handles (a daemon that catches SIGTERM to stop cleanly releases its lock
 * itself). */
static void install_handlers(void)
{
	if (handlers_installed)
		return;
	handlers_installed = 1;
	atexit(remove_held);
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
		struct sigaction old, sa;

		if (sigaction(fatal_signals[i], NULL, &old) || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal_signals[i], &sa, NULL);
	}
}

static int parse_holder(const char *text, struct sm_lock_holder *h)
{
	memset(h, 0, sizeof(*h));
	if (sscanf(text, "%ld %255s %ld", &h->pid, h->host, &h->since) != 3 || h->pid <= 0) {
		memset(h, 0, sizeof(*h));
		return -1;
	}
	return 0;
}

static int read_holder_fd(int fd, struct sm_lock_holder *h)
{
	char buf[400];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0) {
		memset(h, 0, sizeof(*h));
		return -1;
	}
	buf[n] = '\0';
	return parse_holder(buf, h);
}

int sm_lockfile_holder(const char *path, struct sm_lock_holder *h)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0) {
		memset(h, 0, sizeof(*h));
		return -1;
	}
	ret = read_holder_fd(fd, h);
	close(fd);
	return ret;
}

static void describe(const struct sm_lock_holder *h, struct strbuf *sb)
{
	if (!h->pid) {
		strbuf_addstr(sb, "a process that has not written its name yet");
		return;
	}
	strbuf_addf(sb, "pid %ld on host %s, taken %ld s ago", h->pid, h->host,
		    (long)time(NULL) - h->since);
}

static void my_host(char *buf, size_t len)
{
	if (gethostname(buf, len) || !buf[0])
		snprintf(buf, len, "unknown");
	buf[len - 1] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == ' ' || *p == '\n')
			*p = '_';
}

/* Locked fd still the file at path? (A holder unlinks before it unlocks.) */
static int same_file(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int take(struct sm_lockfile *lk, int fd)
{
	struct sm_lock_holder old;
	char host[256], line[400];
	int n, slot = -1;

	if (read_holder_fd(fd, &old) == 0) {
		struct strbuf sb = STRBUF_INIT;

		describe(&old, &sb);
		sm_warn("%s: taking over a stale lock of %s: that process is gone", lk->path, sb.buf);
		strbuf_release(&sb);
	}
	my_host(host, sizeof(host));
	n = snprintf(line, sizeof(line), "%ld %s %ld\n", (long)getpid(), host, (long)time(NULL));
	if (ftruncate(fd, 0) || pwrite(fd, line, (size_t)n, 0) != n)
		return sm_error("%s: cannot write the lock file: %s", lk->path, strerror(errno));
	for (int i = 0; i < MAX_LOCKS; i++)
		if (!held_active[i]) {
			slot = i;
			break;
		}
	if (slot < 0)
		return sm_error("%s: too many lock files held at once", lk->path);
	install_handlers();
	free(held_path[slot]);
	held_path[slot] = xstrdup(lk->path);
	held_owner[slot] = getpid();
	held_active[slot] = 1;
	lk->slot = slot;
	lk->fd = fd;
	return 0;
}

int sm_lockfile_acquire(struct sm_lockfile *lk, const char *path, long timeout_ms,
			const volatile sig_atomic_t *stop)
{
	struct timespec nap = { 0, 100 * 1000 * 1000 };
	long waited = 0;

	lk->path = xstrdup(path);
	lk->fd = -1;
	lk->slot = -1;
	for (;;) {
		struct sm_lock_holder h;
		struct strbuf sb = STRBUF_INIT;
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

		if (fd < 0) {
			sm_error("%s: cannot create the lock file: %s", path, strerror(errno));
			break;
		}
		if (!flock(fd, LOCK_EX | LOCK_NB)) {
			if (!same_file(fd, path)) {
				close(fd);	/* released and removed meanwhile */
				continue;
			}
			if (take(lk, fd) == 0)
				return 0;
			close(fd);
			break;
		}
		if (errno != EWOULDBLOCK && errno != EINTR) {
			sm_error("%s: cannot lock: %s", path, strerror(errno));
			close(fd);
			break;
		}
		read_holder_fd(fd, &h);
		close(fd);
		if (waited >= timeout_ms || (stop && *stop)) {
			describe(&h, &sb);
			sm_error("%s: held by %s; gave up after %ld s", path, sb.buf, waited / 1000);
			strbuf_release(&sb);
			break;
		}
		nanosleep(&nap, NULL);
		waited += 100;
	}
	free(lk->path);
	lk->path = NULL;
	return -1;
}

void sm_lockfile_release(struct sm_lockfile *lk)
{
	if (lk->fd >= 0) {
		if (lk->slot >= 0)
			held_active[lk->slot] = 0;
		unlink(lk->path);
		close(lk->fd);
	}
	free(lk->path);
	lk->path = NULL;
	lk->fd = -1;
	lk->slot = -1;
}
