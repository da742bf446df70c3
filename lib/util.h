/* util: allocation that cannot fail, and the error convention.
 *
 * Library code never prints. A failing call records one line with
 * sm_error() (which returns -1 so it can be returned directly) and the
 * command-line layer prints sm_last_error() as "stablemate: <line>". */
#ifndef SM_UTIL_H
#define SM_UTIL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow an array of nr used elements to hold at least one more. */
#define ALLOC_GROW(arr, nr, alloc) \
	do { \
		if ((nr) >= (alloc)) { \
			(alloc) = (alloc) ? (alloc) * 2 : 8; \
			(arr) = xrealloc((arr), sizeof(*(arr)) * (alloc)); \
		} \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* free() each of n pointers (NULL ones too): the malloc'd members a
 * *_release() frees in a row, as FREE_ALL(m->file, m->from, m->subject). */
void free_all(void *const *p, size_t n);
#define FREE_ALL(...) \
	free_all((void *const[]){ __VA_ARGS__ }, \
		 sizeof((void *const[]){ __VA_ARGS__ }) / sizeof(void *))

/* Records one line as the current error; returns -1. The arguments may
 * include sm_last_error() itself (the text is formatted aside first). */
int sm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int sm_verror(const char *fmt, va_list ap);
/* Puts "<fmt...>: " in front of the current error and returns -1, the way a
 * caller adds its context (the file, the step) to its callee's error:
 * sm_error("x: y") then sm_error_wrap("%s", "bot.conf") gives "bot.conf: x: y". */
int sm_error_wrap(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The current error, or "unknown error"; valid until the next sm_error*. */
const char *sm_last_error(void);
void sm_clear_error(void);

/* Keeps an error across cleanup code that may record errors of its own
 * (libgit2's git_error_save/restore): save, clean up, restore. */
struct sm_error_state {
	char msg[1024];
};
void sm_error_save(struct sm_error_state *st);
/* Makes the saved error current again; returns -1. */
int sm_error_restore(const struct sm_error_state *st);

/* Non-fatal diagnostics for a long run (a skipped mail, a malformed tag):
 * a one-line message on stderr, prefixed "stablemate: warning: ". The CLI
 * may silence them with sm_set_quiet(1). */
void sm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sm_set_quiet(int quiet);
int sm_is_quiet(void);

int starts_with(const char *s, const char *prefix);
int istarts_with(const char *s, const char *prefix);
/* s[0..n) starts with prefix, in any case (s need not end at n) */
int istarts_with_n(const char *s, size_t n, const char *prefix);
/* s[0..n) ends with suffix (s need not end at n) */
int ends_with_n(const char *s, size_t n, const char *suffix);
/* Skip a prefix; returns 1 and sets *out past it when s starts with it. */
int skip_prefix(const char *s, const char *prefix, const char **out);
int is_hex_string(const char *s, size_t len);
/* The lines of a NUL-terminated text, one a call: *pos starts at the text.
 * Returns 1 with *line and *len (without the '\n') set to the next line and
 * *pos moved past it, or 0 at the end. A last line without '\n' counts. */
int next_text_line(const char **pos, const char **line, size_t *len);
/* s in lower case (ASCII letters), in place: ids, addresses, keys. */
void str_to_lower(char *s);
/* s[0..len) is not empty and all lowercase hex digits, as git writes ids. */
int is_lower_hex(const char *s, size_t len);
/* 3 when s[0..len) starts with a UTF-8 byte-order mark (some editors write
 * one at the start of a file; it is no text), else 0. */
size_t utf8_bom_len(const char *s, size_t len);
/* Binary data as git tells it (buffer_is_binary): the offset of a NUL byte
 * in the first 8,000 bytes of s[0..len), else -1. A commit, a mail or JSON
 * has none. */
long binary_nul_offset(const char *s, size_t len);
/* s with each run of blanks (space, tab, CR, LF) made one space and none
 * at either end, in place: a header as one line, a subject as git mailinfo
 * reads it. */
void squeeze_blanks(char *s);
/* The length (1 or 2) of a terminal control character at s[0..len), else
 * 0: a C0 control other than tab and newline, DEL, or a C1 control as
 * UTF-8 encodes it (U+0080..U+009F). Text from mail and commits is
 * anyone's: ESC starts colour, title and clipboard sequences, CR writes
 * over a line. A lone 0xC2 at the end of s is 0 (its second byte is
 * unknown). */
size_t control_char_len(const char *s, size_t len);
/* Does s[0..len) start with a terminal escape sequence (ESC '[')? As
 * `git log` writes under color.ui=always. */
int starts_ansi_escape(const char *s, size_t len);
/* Removes the terminal escape sequences (ESC '[' parameters, a final byte
 * '@'..'~': colours) from s[0..len) in place; returns the new length. */
size_t strip_ansi_escapes(char *s, size_t len);
/* A text read whole, s[0..len), without what an editor or git puts around
 * it: a UTF-8 byte-order mark first, and the terminal escapes of a text
 * that starts with one (git under color.ui=always). In place; returns the
 * new length. */
size_t strip_bom_and_colour(char *s, size_t len);

#endif
