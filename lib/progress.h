/* progress: one updating line on stderr for a long job, such as
 * "Scanning v6.6..v6.7:  45% (6789/15059)", rewritten in place with '\r' and
 * ended with ", done.". The one part of the library that prints: the cli
 * layer starts it (sm_progress_start returns NULL when stderr is not a
 * terminal or under --quiet) and hands the pointer to library code, which
 * only calls the NULL-safe update functions below.
 *
 * Nothing is printed until the job has run for SM_PROGRESS_DELAY_MS
 * milliseconds (default 2000), so short runs stay silent; after that the
 * line is redrawn at most a few times a second. An update costs one branch
 * when p is NULL and a read of the monotonic clock otherwise. */
#ifndef SM_LIB_PROGRESS_H
#define SM_LIB_PROGRESS_H
#include <stdint.h>

struct sm_progress;

/* Starts a meter titled title ("Scanning v6.6..v6.7") counting to total (0:
 * unknown, a count is shown instead of a percentage). NULL when stderr is
 * not a terminal or sm_set_quiet(1) was called: every function here
 * accepts NULL and does nothing then. */
struct sm_progress *sm_progress_start(const char *title, uint64_t total);
/* As sm_progress_start, for a job counted in seconds: the line shows the
 * time since the start ("Building the kernel: 83 s"). */
struct sm_progress *sm_progress_start_timer(const char *title);

void sm_progress_update_(struct sm_progress *p, uint64_t n);
/* n of total done. */
static inline void sm_progress_update(struct sm_progress *p, uint64_t n)
{
	if (p)
		sm_progress_update_(p, n);
}
/* Redraws the line when due without changing the count (for a timer). */
void sm_progress_tick(struct sm_progress *p);
/* Sets the total once it is known. */
void sm_progress_set_total(struct sm_progress *p, uint64_t total);
/* Ends the current line (", done." when it was shown) and goes on under a
 * new title and total, count 0, on the same meter: for a job of several
 * steps. The delay runs from sm_progress_start, not from here. title NULL
 * ends the current line only: nothing shows until the next phase. */
void sm_progress_phase(struct sm_progress *p, const char *title, uint64_t total);
/* Prints the last line with ", done." when anything was shown, frees the
 * meter and sets *pp to NULL. */
void sm_progress_stop(struct sm_progress **pp);
/* For a job that failed: ends a shown line as it is (no ", done."), frees
 * the meter and sets *pp to NULL, so that the error gets a line of its own. */
void sm_progress_abort(struct sm_progress **pp);
/* Clears a shown line so that a warning gets a line of its own (sm_warn
 * calls it); the meter is redrawn on its next update. */
void sm_progress_clear_line(void);

#endif
