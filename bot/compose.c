/* compose: mails built with gmime (see compose.h). */
#include "bot/compose.h"
#include "lib/util.h"
#include <gmime/gmime.h>
#include <string.h>

static int add_addresses(GMimeMessage *msg, GMimeAddressType type, const char *s)
{
	InternetAddressList *l = internet_address_list_parse(NULL, s);

	if (!l || !internet_address_list_length(l)) {
		if (l)
			g_object_unref(l);
		return sm_error("not a mail address: \"%s\"", s);
	}
	/* Encoded words in UTF-8, not the smallest charset that fits. */
	for (int i = 0; i < internet_address_list_length(l); i++)
		internet_address_set_charset(internet_address_list_get_address(l, i), "UTF-8");
	internet_address_list_append(g_mime_message_get_addresses(msg, type), l);
	g_object_unref(l);
	return 0;
}

char *sm_compose_message_id(const char *addr)
{
	const char *at = strrchr(addr, '@');
	char *domain = xstrdup(at ? at + 1 : "stablemate.invalid");
	char *gt = strchr(domain, '>'), *id, *ret;

	if (gt)
		*gt = '\0';
	g_mime_init();
	id = g_mime_utils_generate_message_id(domain);
	ret = xstrdup(id);
	g_free(id);
	free(domain);
	return ret;
}

/* 7bit or 8bit when every line fits SMTP's 998 bytes (patches stay
 * readable and `git am`-able as sent), quoted-printable otherwise. */
static GMimeContentEncoding body_encoding(const char *body)
{
	size_t col = 0;
	int eight = 0;

	for (const char *p = body; *p; p++) {
		if (*p == '\n') {
			col = 0;
			continue;
		}
		if (++col > 998)
			return GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE;
		if ((unsigned char)*p >= 0x80)
			eight = 1;
	}
	return eight ? GMIME_CONTENT_ENCODING_8BIT : GMIME_CONTENT_ENCODING_7BIT;
}

/* The body as UTF-8 bytes, as given: g_mime_text_part_set_text() would
 * convert it to the smallest charset that fits (latin-1). */
static void set_body(GMimeTextPart *part, const char *body)
{
	GMimeStream *s = g_mime_stream_mem_new_with_buffer(body, strlen(body));
	GMimeDataWrapper *w = g_mime_data_wrapper_new_with_stream(s, GMIME_CONTENT_ENCODING_DEFAULT);

	g_mime_part_set_content(GMIME_PART(part), w);
	g_mime_text_part_set_charset(part, "utf-8");
	g_object_unref(w);
	g_object_unref(s);
}

int sm_compose(const struct sm_outgoing *m, struct strbuf *out)
{
	GMimeMessage *msg;
	GMimeTextPart *part;
	GMimeObject *obj;
	GDateTime *dt;
	char *text, *hdr;
	int ret = -1;

	g_mime_init();
	msg = g_mime_message_new(TRUE);
	obj = GMIME_OBJECT(msg);
	if (add_addresses(msg, GMIME_ADDRESS_TYPE_FROM, m->from) ||
	    add_addresses(msg, GMIME_ADDRESS_TYPE_TO, m->to))
		goto out;
	for (size_t i = 0; m->cc && i < m->cc->nr; i++)
		if (add_addresses(msg, GMIME_ADDRESS_TYPE_CC, m->cc->items[i]))
			goto out;
	g_mime_message_set_subject(msg, m->subject, "utf-8");
	dt = g_date_time_new_from_unix_local(m->date);
	g_mime_message_set_date(msg, dt);
	g_date_time_unref(dt);
	g_mime_message_set_message_id(msg, m->message_id);
	if (m->in_reply_to) {
		hdr = xasprintf("<%s>", m->in_reply_to);
		g_mime_object_set_header(obj, "In-Reply-To", hdr, NULL);
		g_mime_object_set_header(obj, "References", hdr, NULL);
		free(hdr);
	}
	if (m->list_id)
		g_mime_object_set_header(obj, "List-Id", m->list_id, NULL);
	if (m->upstream)
		g_mime_object_set_header(obj, "X-Stablemate-Upstream", m->upstream, NULL);
	if (m->tree)
		g_mime_object_set_header(obj, "X-Stablemate-Tree", m->tree, NULL);
	if (m->subscriber)
		g_mime_object_set_header(obj, "X-Stablemate-Subscriber", m->subscriber, NULL);

	part = g_mime_text_part_new_with_subtype("plain");
	set_body(part, m->body);
	g_mime_part_set_content_encoding(GMIME_PART(part), body_encoding(m->body));
	g_mime_message_set_mime_part(msg, GMIME_OBJECT(part));
	g_object_unref(part);

	text = g_mime_object_to_string(obj, NULL);
	strbuf_addstr(out, text);
	g_free(text);
	ret = 0;
out:
	g_object_unref(msg);
	return ret;
}
