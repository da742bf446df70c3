/* terminal: no terminal control characters from the text stablemate prints
 * (see terminal.h). */
#include "cli/terminal.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

struct guard {
	FILE *to;		/* the stream the terminal is on */
	int progress;		/* stderr: a lone CR is the progress line's own,
				 * and the guard's close leaves it open */
	struct strbuf in, out;	/* in: held bytes, then what was written */
};

/* A last byte whose meaning waits on the next one: the lead byte of a
 * UTF-8 C1 control, or (but on stderr) the CR of a CRLF. */
static int waits_for_next(const struct guard *g, char c)
{
	return (unsigned char)c == 0xc2 || (c == '\r' && !g->progress);
}

static void mask(struct guard *g, const char *s, size_t len)
{
	const char *end = s + len, *cr;

	while ((cr = memchr(s, '\r', (size_t)(end - s))) != NULL) {
		strbuf_add_masked(&g->out, s, (size_t)(cr - s));
		/* a CRLF's, or on stderr the progress line's own */
		strbuf_addch(&g->out, g->progress || (cr + 1 < end && cr[1] == '\n') ? '\r' : '?');
		s = cr + 1;
	}
	strbuf_add_masked(&g->out, s, (size_t)(end - s));
}

static int put(struct guard *g)
{
	int ok = fwrite(g->out.buf, 1, g->out.len, g->to) == g->out.len;

	strbuf_reset(&g->out);
	return ok;
}

static ssize_t guard_write(void *cookie, const char *buf, size_t size)
{
	struct guard *g = cookie;
	size_t keep = 0;

	strbuf_add(&g->in, buf, size);
	if (g->in.len && waits_for_next(g, g->in.buf[g->in.len - 1]))
		keep = 1;
	mask(g, g->in.buf, g->in.len - keep);
	memmove(g->in.buf, g->in.buf + g->in.len - keep, keep);
	strbuf_setlen(&g->in, keep);
	/* flushed through: a child (git, make, qemu) writing to the same
	 * terminal comes after what was printed before it started */
	if (!put(g) || fflush(g->to) != 0)
		return 0;	/* fopencookie: 0 is the error */
	return (ssize_t)size;
}

static int guard_close(void *cookie)
{
	struct guard *g = cookie;
	int ok;

	mask(g, g->in.buf, g->in.len);	/* a last lone byte is shown as any */
	ok = put(g);
	if (g->progress ? fflush(g->to) != 0 : fclose(g->to) != 0)
		ok = 0;
	strbuf_release(&g->in);
	strbuf_release(&g->out);
	free(g);
	return ok ? 0 : -1;
}

static FILE *guarded(FILE *to, int progress)
{
	cookie_io_functions_t io = { .write = guard_write, .close = guard_close };
	struct guard *g = xcalloc(1, sizeof(*g));
	FILE *f;

	g->to = to;
	g->progress = progress;
	strbuf_init(&g->in, 0);
	strbuf_init(&g->out, 0);
	f = fopencookie(g, "w", io);
	if (!f) {
		free(g);
		return to;
	}
	/* as the terminal's own stream was: lines for stdout, none for stderr */
	setvbuf(f, NULL, progress ? _IONBF : _IOLBF, 0);
	return f;
}

static FILE *terminal_stderr;	/* stderr under its guard */

/* At exit, after every other handler has had its say on stderr: the
 * guard goes, stderr is the terminal's own stream again. */
static void unguard_stderr(void)
{
	FILE *guard = stderr;

	stderr = terminal_stderr;
	fclose(guard);
}

void cli_guard_terminal(void)
{
	if (isatty(STDOUT_FILENO))
		stdout = guarded(stdout, 0);
	if (isatty(STDERR_FILENO)) {
		terminal_stderr = stderr;
		stderr = guarded(stderr, 1);
		if (stderr != terminal_stderr)
			atexit(unguard_stderr);
	}
}
