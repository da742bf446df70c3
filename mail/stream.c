/* stream: chunked reading, gzip through zlib, bounded lines.
 *
 * zlib rather than gmime's gzip filter: inflate() says when a gzip member
 * has ended and checked its CRC (Z_STREAM_END), so a truncated .gz is told
 * from a complete one, and concatenated members go on; gmime's filter
 * returns whatever it decoded without saying whether the data was whole. */
#include "mail/stream.h"
#include "lib/util.h"
#include <zlib.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 65536

enum { UNDECIDED, PLAIN, GZIP };

struct sm_decoder {
	char *what;
	sm_sink_fn sink;
	void *data;
	int mode;
	unsigned char head[2];
	size_t nhead;
	z_stream z;
	int z_ready;
	int in_member;		/* inside a gzip member that has not ended yet */
	int failed;
	unsigned long long out;
	unsigned char *obuf;
};

struct sm_decoder *sm_decoder_new(const char *what, sm_sink_fn sink, void *data)
{
	struct sm_decoder *d = xcalloc(1, sizeof(*d));

	d->what = xstrdup(what);
	d->sink = sink;
	d->data = data;
	return d;
}

static int pass(struct sm_decoder *d, const char *buf, size_t len)
{
	int rc;

	if (!len)
		return 0;
	d->out += len;
	rc = d->sink(buf, len, d->data);
	if (rc < 0)
		d->failed = rc;
	return rc < 0 ? rc : 0;
}

static int inflate_some(struct sm_decoder *d, const unsigned char *buf, size_t len)
{
	z_stream *z = &d->z;

	z->next_in = (unsigned char *)buf;
	z->avail_in = (uInt)len;
	for (;;) {
		size_t have;
		int r;

		if (!d->in_member) {
			/* Between members: trailing zero padding is allowed (gzip(1) skips it too). */
			while (z->avail_in && !*z->next_in) {
				z->next_in++;
				z->avail_in--;
			}
			if (!z->avail_in)
				return 0;
			inflateReset(z);
			d->in_member = 1;
		}
		z->next_out = d->obuf;
		z->avail_out = CHUNK;
		r = inflate(z, Z_NO_FLUSH);
		have = CHUNK - z->avail_out;
		if (have && pass(d, (const char *)d->obuf, have) < 0)
			return d->failed;
		if (r == Z_STREAM_END) {
			d->in_member = 0;
			continue;
		}
		if (r == Z_BUF_ERROR || (r == Z_OK && !z->avail_in && z->avail_out))
			return 0;	/* all input used: wait for more */
		if (r != Z_OK) {
			d->failed = -1;
			return sm_error("%s: not a valid gzip file (%s at byte %lu of the compressed data)",
					d->what, z->msg ? z->msg : zError(r), (unsigned long)z->total_in);
		}
	}
}

static int start(struct sm_decoder *d)
{
	if (d->nhead == 2 && d->head[0] == 0x1f && d->head[1] == 0x8b) {
		d->mode = GZIP;
		if (inflateInit2(&d->z, 16 + MAX_WBITS) != Z_OK) {
			d->failed = -1;
			return sm_error("%s: cannot start zlib", d->what);
		}
		d->z_ready = 1;
		d->obuf = xmalloc(CHUNK);
		return inflate_some(d, d->head, d->nhead);
	}
	d->mode = PLAIN;
	return pass(d, (const char *)d->head, d->nhead);
}

int sm_decoder_feed(struct sm_decoder *d, const char *buf, size_t len)
{
	if (d->failed)
		return d->failed;
	while (d->mode == UNDECIDED && len) {
		d->head[d->nhead++] = (unsigned char)*buf++;
		len--;
		if (d->nhead == 2 && start(d) < 0)
			return d->failed;
	}
	if (!len)
		return 0;
	if (d->mode == PLAIN)
		return pass(d, buf, len);
	/* zlib's avail_in is an unsigned int: feed huge buffers in pieces. */
	while (len) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;

		if (inflate_some(d, (const unsigned char *)buf, n) < 0)
			return d->failed;
		buf += n;
		len -= n;
	}
	return 0;
}

int sm_decoder_finish(struct sm_decoder *d)
{
	if (d->failed)
		return d->failed;
	if (d->mode == UNDECIDED)
		return start(d);
	if (d->mode == GZIP && d->in_member)
		return sm_error("%s: the gzip data ends early (a truncated file?) after %llu bytes",
				d->what, d->out);
	return 0;
}

unsigned long long sm_decoder_out(const struct sm_decoder *d)
{
	return d->out;
}

void sm_decoder_free(struct sm_decoder *d)
{
	if (!d)
		return;
	if (d->z_ready)
		inflateEnd(&d->z);
	free(d->obuf);
	free(d->what);
	free(d);
}

int sm_stream_file(const char *path, sm_sink_fn sink, void *data)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	struct sm_decoder *d;
	char *buf;
	int ret = 0;

	if (fd < 0)
		return sm_error("%s: %s", path, strerror(errno));
	d = sm_decoder_new(path, sink, data);
	buf = xmalloc(CHUNK);
	for (;;) {
		ssize_t n = read(fd, buf, CHUNK);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = sm_error("%s: read: %s", path, strerror(errno));
			break;
		}
		if (!n) {
			ret = sm_decoder_finish(d);
			break;
		}
		if ((ret = sm_decoder_feed(d, buf, (size_t)n)) < 0)
			break;
	}
	if (fd)
		close(fd);
	free(buf);
	sm_decoder_free(d);
	return ret;
}

void sm_lines_init(struct sm_lines *l, size_t max, sm_line_fn fn, void *data)
{
	memset(l, 0, sizeof(*l));
	strbuf_init(&l->cur, 0);
	l->max = max;
	l->fn = fn;
	l->data = data;
}

static int line_end(struct sm_lines *l)
{
	int too_long = l->cur_len > l->max;
	int rc;

	l->lineno++;
	rc = l->fn(too_long ? NULL : l->cur.buf, l->cur_len, l->lineno, too_long, l->data);
	if (l->cur.alloc > 4 * CHUNK)
		strbuf_release(&l->cur);	/* a long line's memory is not kept for the rest */
	else
		strbuf_reset(&l->cur);
	l->cur_len = 0;
	return rc;
}

int sm_lines_feed(const char *buf, size_t len, void *lines)
{
	struct sm_lines *l = lines;

	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;

		if (l->cur_len + n <= l->max)
			strbuf_add(&l->cur, buf, n);
		else if (l->cur.alloc)
			strbuf_release(&l->cur);
		l->cur_len += n;
		if (!nl)
			break;
		if (line_end(l) < 0)
			return -1;
		buf = nl + 1;
		len -= n + 1;
	}
	return 0;
}

int sm_lines_finish(struct sm_lines *l)
{
	if (!l->cur_len)
		return 0;
	return line_end(l) < 0 ? -1 : 0;
}

void sm_lines_release(struct sm_lines *l)
{
	strbuf_release(&l->cur);
}

int sm_parse_size(const char *s, size_t *out)
{
	unsigned long long v, mul = 1;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': mul = 1ULL << 10; end++; break;
	case 'm': case 'M': mul = 1ULL << 20; end++; break;
	case 'g': case 'G': mul = 1ULL << 30; end++; break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || !v || v > SIZE_MAX / mul)
		return -1;
	*out = (size_t)(v * mul);
	return 0;
}
