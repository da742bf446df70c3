/* msgid: Message-ID checks, derived ids, URL escaping. */
#include "mail/msgid.h"
#include "lib/util.h"
#include <ctype.h>
#include <glib.h>
#include <string.h>

int sm_msgid_is_key(const char *id)
{
	if (!id || !*id)
		return 0;
	for (const unsigned char *p = (const unsigned char *)id; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == '<' || *p == '>')
			return 0;
	return 1;
}

int sm_msgid_is_address(const char *id)
{
	const char *at;

	if (!sm_msgid_is_key(id))
		return 0;
	at = strrchr(id, '@');
	return at && at != id && at[1];
}

/* notmuch hashes the id with its terminating NUL. */
static char *sha1_id(const char *s)
{
	gchar *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA1, (const guchar *)s,
						 strlen(s) + 1);
	char *id = xasprintf("notmuch-sha1-%s", sum);

	g_free(sum);
	return id;
}

char *sm_msgid_derived(const char *raw)
{
	return sha1_id(raw ? raw : "");
}

char *sm_msgid_notmuch_compressed(const char *id)
{
	return sha1_id(id);
}

void sm_msgid_url_escape(const char *id, struct strbuf *out)
{
	static const char keep[] = "-._~!$&'()*+,;=:@";

	for (const unsigned char *p = (const unsigned char *)id; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr(keep, *p))
			strbuf_addch(out, (char)*p);
		else
			strbuf_addf(out, "%%%02X", *p);
	}
}

static int hex_digit(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* s[0..n) percent-decoded, "<" and ">" around it dropped; NULL unless an
 * address. */
static char *decoded_id(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2])) {
			strbuf_addch(&sb, (char)(hex_digit((unsigned char)s[i + 1]) * 16 +
						 hex_digit((unsigned char)s[i + 2])));
			i += 2;
		} else {
			strbuf_addch(&sb, s[i]);
		}
	}
	if (sb.len >= 2 && sb.buf[0] == '<' && sb.buf[sb.len - 1] == '>') {
		memmove(sb.buf, sb.buf + 1, sb.len - 2);
		strbuf_setlen(&sb, sb.len - 2);
	}
	if (!sm_msgid_is_address(sb.buf)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

char *sm_msgid_from_trailer(const char *line, size_t len)
{
	/* the hosts, and how many path segments come before the id */
	static const struct {
		const char *host;
		int skip;
	} hosts[] = {
		{ "lore.kernel.org/", 1 }, { "lkml.kernel.org/", 1 },
		{ "patch.msgid.link/", 0 }, { "msgid.link/", 0 },
		{ "patchwork.freedesktop.org/patch/msgid/", 0 },	/* DRM's */
	};
	const char *p = line, *end = line + len, *id;

	if (istarts_with_n(p, len, "Message-Id:")) {
		for (p += 11; p < end && isspace((unsigned char)*p); p++)
			;
		while (end > p && isspace((unsigned char)end[-1]))
			end--;
		return decoded_id(p, (size_t)(end - p));
	}
	if (!istarts_with_n(p, len, "Link:"))
		return NULL;
	for (p += 5; p < end && isspace((unsigned char)*p); p++)
		;
	if (istarts_with_n(p, (size_t)(end - p), "https://"))
		p += 8;
	else if (istarts_with_n(p, (size_t)(end - p), "http://"))
		p += 7;
	else
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(hosts); i++) {
		if (!istarts_with_n(p, (size_t)(end - p), hosts[i].host))
			continue;
		id = p + strlen(hosts[i].host);
		for (int s = 0; s < hosts[i].skip; s++) {
			const char *slash = memchr(id, '/', (size_t)(end - id));

			if (!slash)
				return NULL;
			id = slash + 1;
		}
		for (p = id; p < end && *p != '/' && *p != '?' && *p != '#' &&
			     !isspace((unsigned char)*p); p++)
			;
		return decoded_id(id, (size_t)(p - id));
	}
	return NULL;
}
