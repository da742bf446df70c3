/* progress: see progress.h. */
#include "lib/progress.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Redraws at most this often once shown. */
#define REDRAW_MS 200

struct sm_progress {
	char *title;
	uint64_t total, n;
	uint64_t start_ms;	/* of the meter: the delay runs from here */
	uint64_t phase_ms;	/* of the current phase: a timer counts from here */
	uint64_t due_ms;	/* next redraw */
	uint64_t shown_ms;	/* start_ms + the delay: lines may show from here */
	int timer;		/* the count is seconds since phase_ms */
	int shown;		/* this phase has a line on the terminal */
	int drawn_n_valid;
	uint64_t drawn_n;	/* the count on the line now */
	size_t len;		/* of the line now, to blank what a shorter one leaves */
};

/* The meter with a line on the terminal, for sm_progress_clear_line. */
static struct sm_progress *active;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t delay_ms(void)
{
	const char *v = getenv("SM_PROGRESS_DELAY_MS");
	char *end;
	unsigned long long d;

	if (!v || !*v)
		return 2000;
	d = strtoull(v, &end, 10);
	return *end ? 2000 : (uint64_t)d;
}

static struct sm_progress *start(const char *title, uint64_t total, int timer)
{
	struct sm_progress *p;

	if (sm_is_quiet() || !isatty(STDERR_FILENO))
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->title = xstrdup(title);
	p->total = total;
	p->timer = timer;
	p->start_ms = p->phase_ms = now_ms();
	p->due_ms = p->shown_ms = p->start_ms + delay_ms();
	return p;
}

struct sm_progress *sm_progress_start(const char *title, uint64_t total)
{
	return start(title, total, 0);
}

struct sm_progress *sm_progress_start_timer(const char *title)
{
	return start(title, 0, 1);
}

/* Writes "\r<title>: <count><end>", blanking the rest of a longer line. */
static void draw(struct sm_progress *p, const char *end)
{
	char line[512];
	int len, final = strchr(end, '\n') != NULL;

	if (p->timer)
		len = snprintf(line, sizeof(line), "%s: %llu s%s", p->title,
			       (unsigned long long)p->n, end);
	else if (p->total)
		len = snprintf(line, sizeof(line), "%s: %3u%% (%llu/%llu)%s", p->title,
			       (unsigned)(p->n >= p->total ? 100 : p->n * 100 / p->total),
			       (unsigned long long)p->n, (unsigned long long)p->total, end);
	else
		len = snprintf(line, sizeof(line), "%s: %llu%s", p->title,
			       (unsigned long long)p->n, end);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(line))
		len = sizeof(line) - 1;
	/* The blanks go before a final newline, not after it. */
	if (final)
		len--;
	fprintf(stderr, "\r%.*s", len, line);
	if ((size_t)len < p->len)
		fprintf(stderr, "%*s", (int)(p->len - (size_t)len), "");
	if (final)
		fputc('\n', stderr);
	fflush(stderr);
	p->len = final ? 0 : (size_t)len;
	p->shown = 1;
	p->drawn_n = p->n;
	p->drawn_n_valid = 1;
	active = final ? NULL : p;
}

static void maybe_draw(struct sm_progress *p, uint64_t now)
{
	if (now < p->due_ms || !p->title)
		return;
	if (p->timer)
		p->n = (now - p->phase_ms) / 1000;
	if (!p->drawn_n_valid || p->drawn_n != p->n)
		draw(p, "");
	p->due_ms = now + REDRAW_MS;
}

void sm_progress_update_(struct sm_progress *p, uint64_t n)
{
	p->n = n;
	maybe_draw(p, now_ms());
}

void sm_progress_tick(struct sm_progress *p)
{
	if (p)
		maybe_draw(p, now_ms());
}

void sm_progress_set_total(struct sm_progress *p, uint64_t total)
{
	if (p)
		p->total = total;
}

/* The last line of a phase, when the phase was shown at all. */
static void finish(struct sm_progress *p)
{
	if (p->timer)
		p->n = (now_ms() - p->phase_ms) / 1000;
	if (p->shown && p->title)
		draw(p, ", done.\n");
	if (active == p)
		active = NULL;
}

void sm_progress_phase(struct sm_progress *p, const char *title, uint64_t total)
{
	uint64_t now;

	if (!p)
		return;
	finish(p);
	free(p->title);
	p->title = title ? xstrdup(title) : NULL;
	p->total = total;
	p->n = 0;
	p->shown = 0;
	p->drawn_n_valid = 0;
	now = now_ms();
	p->phase_ms = now;
	/* Past the delay already: show the new phase at its first update. */
	if (p->shown_ms <= now)
		p->due_ms = now;
}

void sm_progress_stop(struct sm_progress **pp)
{
	struct sm_progress *p = *pp;

	if (!p)
		return;
	finish(p);
	free(p->title);
	free(p);
	*pp = NULL;
}

void sm_progress_abort(struct sm_progress **pp)
{
	struct sm_progress *p = *pp;

	if (!p)
		return;
	if (active == p && p->len) {
		fputc('\n', stderr);
		fflush(stderr);
	}
	if (active == p)
		active = NULL;
	free(p->title);
	free(p);
	*pp = NULL;
}

void sm_progress_clear_line(void)
{
	struct sm_progress *p = active;

	if (!p || !p->len)
		return;
	fprintf(stderr, "\r%*s\r", (int)p->len, "");
	p->len = 0;
	p->drawn_n_valid = 0;
	p->due_ms = 0;
	active = NULL;
}
