/* msgid: Message-ID checks, derived ids, URL escaping. */
#include "mail/msgid.h"
#include "lib/util.h"
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
