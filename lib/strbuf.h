/* strbuf: a growable byte buffer that is always a NUL-terminated C string.
 *
 * Invariants, from STRBUF_INIT or strbuf_init() on:
 *  - buf is never NULL and buf[len] == '\0'; buf may hold NULs before len
 *    (binary data), so use len, not strlen(), for the size.
 *  - alloc == 0 means nothing is allocated: buf points at strbuf_slopbuf,
 *    a shared empty string. Never write into it or free() it; the
 *    functions below grow the buffer before writing.
 *  - The strbuf owns buf: free it with strbuf_release(), or take it with
 *    strbuf_detach(). Do not copy a strbuf by value and use both copies.
 *
 * Reading: sb.buf is the text ("" when empty), sb.len its length.
 * A strbuf inside zeroed memory (calloc, memset) is not initialised: call
 * strbuf_init() on it before use. */
#ifndef SM_STRBUF_H
#define SM_STRBUF_H
#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char strbuf_slopbuf[];
#define STRBUF_INIT { strbuf_slopbuf, 0, 0 }

/* Initialises sb empty, with room for hint bytes (0: allocates nothing). */
void strbuf_init(struct strbuf *sb, size_t hint);
/* Frees the buffer and leaves sb empty and initialised, ready for reuse.
 * Harmless on an empty or already released strbuf. */
void strbuf_release(struct strbuf *sb);
/* Returns the text as a malloc'd NUL-terminated string the caller frees
 * (a fresh "" for an empty strbuf, never the slop buffer), stores its
 * length in *len if len is not NULL, and leaves sb empty. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
/* Makes room for extra more bytes after len (plus the NUL) without
 * changing the text; buf may move. Out of memory aborts (xrealloc). */
void strbuf_grow(struct strbuf *sb, size_t extra);
/* Empties the text, keeping the allocation. */
void strbuf_reset(struct strbuf *sb);
/* Sets len and writes the NUL at buf[len]. To shorten; lengthening is for
 * bytes already written into the grown buffer (strbuf_grow first). */
void strbuf_setlen(struct strbuf *sb, size_t len);
/* Appends len bytes of data (may contain NULs; data may be NULL if len
 * is 0). */
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
/* Appends the NUL-terminated string s (not NULL). */
void strbuf_addstr(struct strbuf *sb, const char *s);
/* Appends one byte (a NUL too, which then counts in len). */
void strbuf_addch(struct strbuf *sb, int c);
/* Appends printf-style formatted text (nothing on an encoding error). */
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* strbuf_addf() with a va_list; ap is used up, as by vprintf(). */
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Appends len bytes of s, each terminal control character in it
 * (control_char_len in lib/util.h) as one '?', as ls shows one in a file
 * name: for text from mail or commits that a terminal will show. */
void strbuf_add_masked(struct strbuf *sb, const char *s, size_t len);
/* Removes leading and trailing whitespace (isspace) in place. */
void strbuf_trim(struct strbuf *sb);

#endif
