/* run: fork/exec with output collection and a hard deadline. */
#include "qemu/run.h"
#include "lib/util.h"
#include "lib/progress.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void child(const char *const *argv, const struct run_opts *o, int out)
{
	int devnull = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	if (devnull >= 0) {
		dup2(devnull, 0);
		close(devnull);
	}
	dup2(out, 1);
	dup2(out, 2);
	close(out);
	if (o->cwd && chdir(o->cwd) < 0) {
		dprintf(2, "%s: %s\n", o->cwd, strerror(errno));
		_exit(127);
	}
	execvp(argv[0], (char *const *)argv);
	dprintf(2, "%s: cannot run: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Copies what the child wrote to the log and capture buffer. Returns 0 at
 * end of file, 1 when more may come. */
static int drain(int fd, int log_fd, struct strbuf *capture)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	if (log_fd >= 0) {
		ssize_t off = 0;

		while (off < n) {
			ssize_t w = write(log_fd, buf + off, n - off);

			if (w < 0 && errno != EINTR)
				break;
			if (w > 0)
				off += w;
		}
	}
	if (capture)
		strbuf_add(capture, buf, n);
	return 1;
}

int run_command(const char *const *argv, const struct run_opts *o,
		struct run_result *res)
{
	static const struct run_opts none;
	int pipefd[2], log_fd = -1, open_pipe = 1, status = 0;
	double start = run_now(), deadline, stall_at;
	int progressed;
	pid_t pid;

	if (!o)
		o = &none;
	memset(res, 0, sizeof(*res));
	deadline = o->timeout ? start + o->timeout : 0;
	progressed = !o->progress;
	stall_at = start + o->progress_timeout;
	if (o->log_path) {
		log_fd = open(o->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (log_fd < 0)
			return sm_error("%s: %s", o->log_path, strerror(errno));
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		if (log_fd >= 0)
			close(log_fd);
		return sm_error("%s: pipe: %s", argv[0], strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		if (log_fd >= 0)
			close(log_fd);
		return sm_error("%s: fork: %s", argv[0], strerror(errno));
	}
	if (pid == 0)
		child(argv, o, pipefd[1]);
	setpgid(pid, pid);
	close(pipefd[1]);

	for (;;) {
		int timeout_ms = 200;
		pid_t w;

		if (deadline) {
			double left = deadline - run_now();

			if (left <= 0) {
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				res->timed_out = 1;
				waitpid(pid, &status, 0);
				break;
			}
			if (left * 1000 < timeout_ms)
				timeout_ms = (int)(left * 1000) + 1;
		}
		sm_progress_tick(o->meter);
		if (!progressed) {
			progressed = o->progress(o->progress_arg);
			if (!progressed && run_now() >= stall_at) {
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				res->stalled = 1;
				waitpid(pid, &status, 0);
				break;
			}
		}
		if (open_pipe) {
			struct pollfd p = { .fd = pipefd[0], .events = POLLIN };

			if (poll(&p, 1, timeout_ms) > 0)
				open_pipe = drain(pipefd[0], log_fd, o->capture);
			/* The child may exit with a grandchild still holding
			 * the pipe: look at it anyway. */
		} else {
			struct timespec ts = { 0, 20 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
		w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			status = 127 << 8;
			break;
		}
	}
	/* Whatever is still buffered in the pipe, without blocking on a
	 * straggler that keeps it open. */
	fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
	while (open_pipe && !res->timed_out && !res->stalled) {
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };

		if (poll(&p, 1, 0) <= 0)
			break;
		open_pipe = drain(pipefd[0], log_fd, o->capture);
	}
	kill(-pid, SIGKILL);	/* stragglers in the group; ESRCH is fine */
	close(pipefd[0]);
	if (log_fd >= 0)
		close(log_fd);
	if (WIFEXITED(status))
		res->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		res->exit_code = 128 + WTERMSIG(status);
	res->seconds = run_now() - start;
	return 0;
}
