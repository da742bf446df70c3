/* message: gmime parsing of one mail into struct sm_mail. */
#include "mail/message.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include "lib/fileio.h"
#include <gmime/gmime.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

static GMimeParserOptions *parser_options;

void sm_mail_library_init(void)
{
	static int done;
	static const char *fallback[] = { "UTF-8", "windows-1252", NULL };

	if (done)
		return;
	done = 1;
	g_mime_init();
	parser_options = g_mime_parser_options_get_default();
	g_mime_parser_options_set_fallback_charsets(parser_options, fallback);
	g_mime_parser_options_set_rfc2047_compliance_mode(parser_options,
							  GMIME_RFC_COMPLIANCE_LOOSE);
}

/* Unfolded, whitespace-collapsed copy; "" for NULL. */
static char *clean_header(const char *s)
{
	char *out = xstrdup(s ? s : "");

	squeeze_blanks(out);
	return out;
}

/* Message-ID text without <> and surrounding blanks, or NULL. */
static char *first_msgid(const char *text)
{
	GMimeReferences *refs;
	char *id = NULL;

	if (!text)
		return NULL;
	refs = g_mime_references_parse(parser_options, text);
	if (refs && g_mime_references_length(refs) > 0)
		id = xstrdup(g_mime_references_get_message_id(refs, 0));
	if (refs)
		g_mime_references_free(refs);
	return id;
}

static void add_references(struct strlist *l, const char *text)
{
	GMimeReferences *refs;
	int i, n;

	if (!text)
		return;
	refs = g_mime_references_parse(parser_options, text);
	if (!refs)
		return;
	n = g_mime_references_length(refs);
	for (i = 0; i < n; i++)
		strlist_append(l, g_mime_references_get_message_id(refs, i));
	g_mime_references_free(refs);
}

static int charset_is_utf8(const char *cs)
{
	return !cs || !strcasecmp(cs, "utf-8") || !strcasecmp(cs, "utf8") ||
	       !strcasecmp(cs, "us-ascii") || !strcasecmp(cs, "ascii");
}

/* Appends [p, p + len) to out without its carriage returns. */
static void add_without_cr(struct strbuf *out, const char *p, size_t len)
{
	const char *end = p + len;

	while (p < end) {
		const char *cr = memchr(p, '\r', (size_t)(end - p));
		size_t n = (size_t)((cr ? cr : end) - p);

		strbuf_add(out, p, n);
		p += n + (cr != NULL);
	}
}

/* Appends len bytes in charset cs to out as valid UTF-8. */
static void add_as_utf8(struct strbuf *out, const char *data, size_t len, const char *cs)
{
	gchar *conv = NULL, *valid;
	gsize outlen = 0;

	if (!data || !len)
		return;	/* an empty part: gmime may hand us no buffer at all */
	if (!charset_is_utf8(cs))
		conv = g_convert(data, len, "UTF-8", cs, NULL, &outlen, NULL);
	/* The usual case: valid UTF-8 already (and so without a NUL byte). */
	if (!conv && g_utf8_validate(data, len, NULL)) {
		add_without_cr(out, data, len);
		return;
	}
	if (!conv)
		/* Unknown or wrong charset: the lists' usual 8-bit one. */
		conv = g_convert(data, len, "UTF-8", "windows-1252", NULL, &outlen, NULL);
	if (conv) {
		data = conv;
		len = outlen;
	}
	/* Text stops at a NUL byte, as it always has. */
	valid = g_utf8_make_valid(data, len);
	add_without_cr(out, valid, strlen(valid));
	g_free(valid);
	g_free(conv);
}

static int ends_with_icase(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcasecmp(s + a - b, suffix);
}

/* Should this leaf part's text go into the body? */
static int wanted_part(GMimeObject *part)
{
	GMimeContentType *ct = g_mime_object_get_content_type(part);
	const char *fn = g_mime_part_get_filename(GMIME_PART(part));
	const char *type = ct ? g_mime_content_type_get_media_type(ct) : "text";
	const char *sub = ct ? g_mime_content_type_get_media_subtype(ct) : "plain";

	if (!type || !sub)
		return 1;
	if (!strcasecmp(type, "text"))
		return strcasecmp(sub, "html") != 0;
	if (fn && (ends_with_icase(fn, ".patch") || ends_with_icase(fn, ".diff")))
		return 1;
	return !strcasecmp(type, "application") &&
	       (!strcasecmp(sub, "x-patch") || !strcasecmp(sub, "x-diff"));
}

static void collect_part(GMimeObject *part, struct strbuf *body)
{
	GMimeDataWrapper *w;
	GMimeStream *mem;
	GByteArray *ba;

	if (!GMIME_IS_PART(part) || !wanted_part(part))
		return;
	w = g_mime_part_get_content(GMIME_PART(part));
	if (!w)
		return;
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(w, mem);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	if (body->len && body->buf[body->len - 1] != '\n')
		strbuf_addch(body, '\n');
	add_as_utf8(body, (const char *)ba->data, ba->len,
		    g_mime_object_get_content_type_parameter(part, "charset"));
	g_object_unref(mem);
}

/* The leaves of part in order, as g_mime_message_foreach() visits them, but
 * at most SM_MIME_MAX_DEPTH multiparts deep. 1 when parts were left out. */
static int collect_parts(GMimeObject *part, struct strbuf *body, int depth)
{
	int n, cut = 0;

	if (!GMIME_IS_MULTIPART(part)) {
		collect_part(part, body);
		return 0;
	}
	if (depth >= SM_MIME_MAX_DEPTH)
		return 1;
	n = g_mime_multipart_get_count(GMIME_MULTIPART(part));
	for (int i = 0; i < n; i++)
		cut |= collect_parts(g_mime_multipart_get_part(GMIME_MULTIPART(part), i), body,
				     depth + 1);
	return cut;
}

int sm_text_has_diff(const char *t)
{
	const char *p;

	if (!t)
		return 0;
	for (p = t; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (starts_with(p, "diff --git ") || starts_with(p, "Index: "))
			return 1;
		if (starts_with(p, "--- ")) {
			const char *nl = strchr(p, '\n');
			if (nl && starts_with(nl + 1, "+++ "))
				return 1;
		}
	}
	return 0;
}

/* The subject as gmime decodes it; when that leaves nothing of a subject
 * that has text ("=?UTF-8?B?!!!?=", base64 gmime cannot read), the
 * header as it was sent: a mail read as subject-less would have the first
 * line of its body taken for its title. */
static char *subject_of(GMimeMessage *msg)
{
	char *subject = clean_header(g_mime_message_get_subject(msg));
	GMimeHeader *h;

	if (*subject)
		return subject;
	h = g_mime_header_list_get_header(g_mime_object_get_header_list(GMIME_OBJECT(msg)),
					  "Subject");
	if (h && g_mime_header_get_raw_value(h)) {
		free(subject);
		subject = clean_header(g_mime_header_get_raw_value(h));
	}
	return subject;
}

static void fill_from(struct sm_mail *m, GMimeMessage *msg)
{
	InternetAddressList *l = g_mime_message_get_from(msg);
	InternetAddress *ia;
	const char *name, *addr;

	m->from = xstrdup("");
	m->from_addr = xstrdup("");
	if (!l || internet_address_list_length(l) < 1)
		return;
	ia = internet_address_list_get_address(l, 0);
	if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
		return;
	addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
	name = internet_address_get_name(ia);
	free(m->from);
	free(m->from_addr);
	if (name && *name)
		m->from = xasprintf("%s <%s>", name, addr ? addr : "");
	else
		m->from = xstrdup(addr ? addr : "");
	m->from_addr = clean_header(addr);
	str_to_lower(m->from_addr);
}

int sm_mail_parse(struct sm_mail *m, const char *data, size_t len, const char *name)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	GMimeObject *obj;
	GDateTime *dt;
	struct strbuf body = STRBUF_INIT;
	const char *what = name ? name : "<message>";
	const char *id;

	memset(m, 0, sizeof(*m));
	if (name)
		m->file = xstrdup(name);
	sm_mail_library_init();
	stream = g_mime_stream_mem_new_with_buffer(data, len);
	parser = g_mime_parser_new_with_stream(stream);
	msg = g_mime_parser_construct_message(parser, parser_options);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!msg)
		return sm_error("%s: gmime cannot parse it as a mail message", what);
	obj = GMIME_OBJECT(msg);
	if (g_mime_header_list_get_count(g_mime_object_get_header_list(obj)) == 0 ||
	    (!g_mime_object_get_header(obj, "From") &&
	     !g_mime_object_get_header(obj, "Message-ID") &&
	     !g_mime_object_get_header(obj, "Subject"))) {
		g_object_unref(msg);
		return sm_error("%s: not a mail message (no From, Subject or Message-ID header)",
				what);
	}

	id = g_mime_message_get_message_id(msg);
	if (id && *id) {
		m->message_id = clean_header(id);
	} else {
		/* As notmuch names a message without one. */
		gchar *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA1,
							 (const guchar *)data, len);
		m->message_id = xasprintf("notmuch-sha1-%s", sum);
		g_free(sum);
	}
	m->subject = subject_of(msg);
	m->date = clean_header(g_mime_object_get_header(obj, "Date"));
	dt = g_mime_message_get_date(msg);
	m->time = dt ? (time_t)g_date_time_to_unix(dt) : 0;
	fill_from(m, msg);
	m->in_reply_to = first_msgid(g_mime_object_get_header(obj, "In-Reply-To"));
	add_references(&m->references, g_mime_object_get_header(obj, "References"));

	if (g_mime_message_get_mime_part(msg) &&
	    collect_parts(g_mime_message_get_mime_part(msg), &body, 0)) {
		m->mime_too_deep = 1;
		sm_warn("<%s> (%s): MIME parts nested more than %d deep; the parts below "
			"are not read", m->message_id, what, SM_MIME_MAX_DEPTH);
	}
	for (size_t i = 0; i < body.len; i++)
		if (!body.buf[i])
			body.buf[i] = ' ';
	m->body = strbuf_detach(&body, NULL);
	m->has_diff = sm_text_has_diff(m->body);
	g_object_unref(msg);
	return 0;
}

const char *sm_mail_thread_root(const struct sm_mail *m)
{
	if (m->references.nr)
		return m->references.items[0];
	return m->in_reply_to ? m->in_reply_to : m->message_id;
}

int sm_mail_parse_file(struct sm_mail *m, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (read_file(path, &sb) < 0) {
		memset(m, 0, sizeof(*m));
		strbuf_release(&sb);
		return -1;
	}
	ret = sm_mail_parse(m, sb.buf, sb.len, path);
	strbuf_release(&sb);
	return ret;
}

void sm_mail_release(struct sm_mail *m)
{
	FREE_ALL(m->file, m->message_id, m->from, m->from_addr, m->date, m->subject,
		 m->in_reply_to);
	strlist_clear(&m->references);
	free(m->body);
	memset(m, 0, sizeof(*m));
}
