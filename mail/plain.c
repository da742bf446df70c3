/* plain: a mail decoded into the plain text a commit parser reads. */
#include "mail/plain.h"
#include "mail/message.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>

static int is_mbox_from_line(const char *p, size_t n)
{
	return n >= 5 && !memcmp(p, "From ", 5);
}

/* Does the header value v (n bytes) begin, after blanks, with word? */
static int value_starts(const char *v, size_t n, const char *word)
{
	while (n && (*v == ' ' || *v == '\t'))
		v++, n--;
	return istarts_with_n(v, n, word);
}

static int has_encoded_word(const char *v, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		if (v[i] == '=' && v[i + 1] == '?')
			return 1;
	return 0;
}

/* Does a Content-Type value (or a folded line of it) name a charset that
 * is neither UTF-8 nor ASCII ("charset=iso-8859-1"), whose bytes the
 * parser would pass on as they are? */
static int has_other_charset(const char *v, size_t n)
{
	static const char *const plain[] = { "utf-8", "utf8", "us-ascii", "ascii" };

	for (size_t i = 0; i + 8 <= n; i++) {
		const char *cs = v + i + 8;
		size_t len = 0;

		if (strncasecmp(v + i, "charset=", 8))
			continue;
		if (cs < v + n && *cs == '"')
			cs++;
		while (cs + len < v + n && (isalnum((unsigned char)cs[len]) || cs[len] == '-' ||
					    cs[len] == '_' || cs[len] == '.' || cs[len] == ':'))
			len++;
		for (size_t k = 0; k < ARRAY_SIZE(plain); k++)
			if (len == strlen(plain[k]) && !strncasecmp(cs, plain[k], len))
				return 0;
		return len > 0;
	}
	return 0;
}

int sm_mail_is_encoded(const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	int in_address = 0;	/* the current header is From: or Subject: */
	int in_type = 0;	/* the current header is Content-Type: */

	for (int first = 1; p < end; first = 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p), k = 0;

		if (n && p[n - 1] == '\r')
			n--;
		if (!n)
			return 0;	/* the end of the headers */
		if (first && is_mbox_from_line(p, n)) {
			/* the separator, not a header */
		} else if (p[0] == ' ' || p[0] == '\t') {
			if ((in_address && has_encoded_word(p, n)) || (in_type && has_other_charset(p, n)))
				return 1;
		} else {
			const char *v;

			while (k < n && (isalnum((unsigned char)p[k]) || p[k] == '-'))
				k++;
			if (!k || k >= n || p[k] != ':')
				return 0;	/* no header block: a message, not a mail */
			v = p + k + 1;
			n -= k + 1;
			in_address = (k == 4 && !strncasecmp(p, "From", 4)) ||
				     (k == 7 && !strncasecmp(p, "Subject", 7));
			if (in_address && has_encoded_word(v, n))
				return 1;
			if (k == 25 && !strncasecmp(p, "Content-Transfer-Encoding", 25) &&
			    (value_starts(v, n, "quoted-printable") || value_starts(v, n, "base64")))
				return 1;
			in_type = k == 12 && !strncasecmp(p, "Content-Type", 12);
			if (in_type && (value_starts(v, n, "multipart/") || has_other_charset(v, n)))
				return 1;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int sm_mail_to_plain(const char *data, size_t len, const char *name, struct strbuf *out)
{
	const char *from_line = NULL, *nl;
	size_t from_len = 0;
	struct sm_mail m;

	if (is_mbox_from_line(data, len) && (nl = memchr(data, '\n', len))) {
		/* gmime reads a message, not an mbox: the separator goes around it */
		from_line = data;
		from_len = (size_t)(nl + 1 - data);
		data += from_len;
		len -= from_len;
	}
	if (sm_mail_parse(&m, data, len, name)) {
		sm_mail_release(&m);
		return -1;
	}
	if (from_line)
		strbuf_add(out, from_line, from_len);
	if (*m.from)
		strbuf_addf(out, "From: %s\n", m.from);
	strbuf_addf(out, "Subject: %s\n\n", m.subject);
	strbuf_addstr(out, m.body);
	sm_mail_release(&m);
	return 0;
}
