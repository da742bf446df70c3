/* strbuf: a growable NUL-terminated byte buffer (after git's strbuf).
 * buf is always valid and NUL-terminated once initialised; the owner frees it
 * with strbuf_release() or takes it with strbuf_detach(). */
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

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_trim(struct strbuf *sb);

#endif
