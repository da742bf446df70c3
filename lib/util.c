#include "lib/util.h"
#include "lib/progress.h"
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

static _Thread_local char last_error[1024];
static int quiet;

static void oom(void)
{
	fputs("stablemate: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void free_all(void *const *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i]);
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	return p;
}

/* Keep it one line whatever the caller passed in. */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

int sm_verror(const char *fmt, va_list ap)
{
	char line[sizeof(last_error)];

	/* Formatted aside: the arguments may point into last_error. */
	vsnprintf(line, sizeof(line), fmt, ap);
	one_line(line);
	memcpy(last_error, line, sizeof(last_error));
	return -1;
}

int sm_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sm_verror(fmt, ap);
	va_end(ap);
	return -1;
}

int sm_error_wrap(const char *fmt, ...)
{
	char ctx[sizeof(last_error)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	return sm_error("%s: %s", ctx, sm_last_error());
}

_Static_assert(sizeof(((struct sm_error_state *)0)->msg) == sizeof(last_error),
	       "sm_error_state holds a whole error");

void sm_error_save(struct sm_error_state *st)
{
	memcpy(st->msg, last_error, sizeof(st->msg));
}

int sm_error_restore(const struct sm_error_state *st)
{
	memcpy(last_error, st->msg, sizeof(last_error));
	return -1;
}

const char *sm_last_error(void)
{
	return last_error[0] ? last_error : "unknown error";
}

void sm_clear_error(void)
{
	last_error[0] = '\0';
}

void sm_set_quiet(int q)
{
	quiet = q;
}

int sm_is_quiet(void)
{
	return quiet;
}

void sm_warn(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (char *p = line; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	sm_progress_clear_line();
	fprintf(stderr, "stablemate: warning: %s\n", line);
}

int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int istarts_with(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

int istarts_with_n(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !strncasecmp(s, prefix, k);
}

int ends_with_n(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

int skip_prefix(const char *s, const char *prefix, const char **out)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n))
		return 0;
	*out = s + n;
	return 1;
}

int next_text_line(const char **pos, const char **line, size_t *len)
{
	const char *p = *pos, *nl;

	if (!*p)
		return 0;
	nl = strchr(p, '\n');
	*line = p;
	*len = nl ? (size_t)(nl - p) : strlen(p);
	*pos = nl ? nl + 1 : p + *len;
	return 1;
}

void str_to_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

int is_lower_hex(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return 0;
	return len > 0;
}

int is_hex_string(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return len > 0;
}

size_t utf8_bom_len(const char *s, size_t len)
{
	return len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;
}

#define BINARY_PROBE_BYTES 8000

long binary_nul_offset(const char *s, size_t len)
{
	const char *nul = memchr(s, '\0', len < BINARY_PROBE_BYTES ? len : BINARY_PROBE_BYTES);

	return nul ? (long)(nul - s) : -1;
}

void squeeze_blanks(char *s)
{
	char *start = s, *out = s;
	int blank = 0;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
			blank = 1;
			continue;
		}
		if (blank && out > start)	/* none before the first word */
			*out++ = ' ';
		blank = 0;
		*out++ = *s;
	}
	*out = '\0';
}

size_t control_char_len(const char *s, size_t len)
{
	unsigned char c = len ? (unsigned char)s[0] : 0;

	if (!len || c == '\t' || c == '\n')
		return 0;
	if (c < 0x20 || c == 0x7f)
		return 1;
	if (c == 0xc2 && len >= 2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f)
		return 2;
	return 0;
}

int starts_ansi_escape(const char *s, size_t len)
{
	return len >= 2 && s[0] == '\033' && s[1] == '[';
}

size_t strip_ansi_escapes(char *s, size_t len)
{
	size_t r = 0, w = 0;

	while (r < len) {
		if (starts_ansi_escape(s + r, len - r)) {
			size_t e = r + 2;

			while (e < len && !(s[e] >= '@' && s[e] <= '~'))
				e++;
			r = e < len ? e + 1 : len;
			continue;
		}
		s[w++] = s[r++];
	}
	return w;
}

size_t strip_bom_and_colour(char *s, size_t len)
{
	size_t bom = utf8_bom_len(s, len);

	if (bom) {
		memmove(s, s + bom, len - bom);
		len -= bom;
	}
	return starts_ansi_escape(s, len) ? strip_ansi_escapes(s, len) : len;
}
