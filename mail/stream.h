/* stream: input read in chunks, never whole: a file or standard input,
 * un-gzipped on the way when it starts with the gzip magic (zlib), and cut
 * into lines of bounded length. Memory stays at one chunk plus one line. */
#ifndef SM_MAIL_STREAM_H
#define SM_MAIL_STREAM_H
#include <stddef.h>
#include "lib/strbuf.h"

/* Receives the bytes of a stream in order. 0 to go on; a negative value
 * stops the stream and is returned by whoever fed it (the sink has set
 * the error with sm_error). */
typedef int (*sm_sink_fn)(const char *buf, size_t len, void *data);

/* A decoder: bytes in (a file's, an HTTP body's), plain bytes out to the
 * sink. The first bytes decide: the gzip magic (1f 8b) means gzip (one or
 * more members, as gzip(1) writes them concatenated), anything else is
 * passed through. what names the input in errors. */
struct sm_decoder;
struct sm_decoder *sm_decoder_new(const char *what, sm_sink_fn sink, void *data);
/* 0, -1 (sm_error "what: not a valid gzip file ..."), or the sink's < 0. */
int sm_decoder_feed(struct sm_decoder *d, const char *buf, size_t len);
/* The input ended: -1 when a gzip member was cut short (a truncated file:
 * "what: the gzip data ends early ..."), else 0. */
int sm_decoder_finish(struct sm_decoder *d);
/* Bytes handed to the sink so far. */
unsigned long long sm_decoder_out(const struct sm_decoder *d);
void sm_decoder_free(struct sm_decoder *d);

/* Reads path ("-": standard input) through a decoder into sink, 64 KiB at
 * a time. 0, -1 (sm_error naming path), or the sink's < 0. */
int sm_stream_file(const char *path, sm_sink_fn sink, void *data);

/* Lines of at most max bytes (the '\n' excluded); a longer line is not
 * kept: the callback gets it with too_long set, line NULL and len its full
 * length, so the caller can name and skip it. lineno counts from 1. */
typedef int (*sm_line_fn)(const char *line, size_t len, unsigned long lineno, int too_long,
			  void *data);
struct sm_lines {
	size_t max;
	sm_line_fn fn;
	void *data;
	struct strbuf cur;
	size_t cur_len;		/* the current line's full length so far */
	unsigned long lineno;
};
void sm_lines_init(struct sm_lines *l, size_t max, sm_line_fn fn, void *data);
/* An sm_sink_fn: data is the struct sm_lines. */
int sm_lines_feed(const char *buf, size_t len, void *lines);
/* The last line when the input does not end in '\n'. 0 or the callback's < 0. */
int sm_lines_finish(struct sm_lines *l);
void sm_lines_release(struct sm_lines *l);

/* "64M", "512k", "1G", "1000": bytes (K, M, G are 1024-based). 0, or -1
 * for anything else or zero. */
int sm_parse_size(const char *s, size_t *out);

#endif
