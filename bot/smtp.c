/* smtp: libcurl's SMTP client, configured from the bot's [smtp] section. */
#include "bot/smtp.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <curl/curl.h>
#include <string.h>
#include <strings.h>

struct upload {
	const char *buf;
	size_t len, pos;
};

static size_t read_cb(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	struct upload *u = userdata;
	size_t n = size * nmemb;

	if (n > u->len - u->pos)
		n = u->len - u->pos;
	memcpy(ptr, u->buf + u->pos, n);
	u->pos += n;
	return n;
}

static const struct {
	const char *verb;
	enum sm_smtp_step phase;
} verbs[] = {
	{ "EHLO", SM_AT_HELLO }, { "HELO", SM_AT_HELLO }, { "STARTTLS", SM_AT_STARTTLS },
	{ "AUTH", SM_AT_AUTH }, { "MAIL FROM:", SM_AT_MAIL }, { "RCPT TO:", SM_AT_RCPT },
	{ "DATA", SM_AT_DATA },
};

/* Watches the SMTP dialogue: which step it is at (for whose fault a
 * failure is), the server's last reply (for the error), and which RCPT TO
 * the server refused (libcurl, with CURLOPT_MAIL_RCPT_ALLOWFAILS, goes on
 * without saying which). */
static int debug_cb(CURL *h, curl_infotype type, char *data, size_t size, void *userp)
{
	struct sm_smtp *s = userp;

	(void)h;
	if (s->quitting)
		return 0;	/* QUIT ends a failed dialogue too: keep where it failed */
	if (type == CURLINFO_HEADER_OUT && size >= 4 && !strncasecmp(data, "QUIT", 4)) {
		s->quitting = 1;
	} else if (type == CURLINFO_HEADER_OUT) {
		free(s->pending_rcpt);
		s->pending_rcpt = NULL;
		free(s->last_reply);	/* a reply from now on answers this */
		s->last_reply = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(verbs); i++) {
			size_t n = strlen(verbs[i].verb);

			if (size >= n && !strncasecmp(data, verbs[i].verb, n)) {
				s->phase = verbs[i].phase;
				break;
			}
		}
		if (size > 8 && !strncasecmp(data, "RCPT TO:", 8)) {
			const char *b = memchr(data, '<', size), *e = memchr(data, '>', size);

			if (b && e && e > b)
				s->pending_rcpt = xstrndup(b + 1, (size_t)(e - b - 1));
		}
	} else if (type == CURLINFO_HEADER_IN) {
		size_t n = size;

		while (n && (data[n - 1] == '\n' || data[n - 1] == '\r'))
			n--;
		free(s->last_reply);
		s->last_reply = xstrndup(data, n);
		/* A reply's text comes from the server: keep it printable. */
		for (char *p = s->last_reply; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		if (s->phase == SM_AT_DATA && size >= 3 && !strncmp(data, "354", 3))
			s->phase = SM_AT_BODY;
		if (s->pending_rcpt && size >= 3) {
			if (data[0] == '4' || data[0] == '5')
				strlist_append_nodup(&s->refused, xasprintf("%s: %s", s->pending_rcpt,
									    s->last_reply));
			free(s->pending_rcpt);
			s->pending_rcpt = NULL;
		}
	}
	return 0;
}

int sm_smtp_open(struct sm_smtp *s, const struct sm_bot_config *c)
{
	const char *scheme = c->smtp_security == SM_SMTP_TLS ? "smtps" : "smtp";
	char *from = sm_bot_bare_address(c->from);
	const char *at = strrchr(from, '@');

	memset(s, 0, sizeof(*s));
	s->cfg = c;
	if (sm_bot_config_smtp_password(c, &s->password)) {
		free(from);
		return -1;
	}
	/* The URL's path is the name the client greets with (EHLO). */
	s->url = xasprintf("%s://%s:%d/%s", scheme, c->smtp_host, c->smtp_port,
			   at ? at + 1 : "localhost");
	free(from);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	s->curl = curl_easy_init();
	if (!s->curl)
		return sm_error("%s: cannot initialise libcurl", s->url);
	return 0;
}

static void setup(struct sm_smtp *s, CURL *h)
{
	const struct sm_bot_config *c = s->cfg;

	curl_easy_setopt(h, CURLOPT_URL, s->url);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, c->smtp_timeout);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, c->smtp_timeout);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, s->errbuf);
	if (c->smtp_security == SM_SMTP_STARTTLS)
		curl_easy_setopt(h, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	if (c->smtp_security != SM_SMTP_NONE) {
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, c->smtp_verify ? 1L : 0L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, c->smtp_verify ? 2L : 0L);
		if (c->smtp_ca_file)
			curl_easy_setopt(h, CURLOPT_CAINFO, c->smtp_ca_file);
	}
	if (c->smtp_user) {
		curl_easy_setopt(h, CURLOPT_USERNAME, c->smtp_user);
		curl_easy_setopt(h, CURLOPT_PASSWORD, s->password ? s->password : "");
	}
	curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, debug_cb);
	curl_easy_setopt(h, CURLOPT_DEBUGDATA, s);
	curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
	curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(h, CURLOPT_READFUNCTION, read_cb);
#if defined(CURLOPT_MAIL_RCPT_ALLOWFAILS)
	curl_easy_setopt(h, CURLOPT_MAIL_RCPT_ALLOWFAILS, 1L);
#elif LIBCURL_VERSION_NUM >= 0x074500
	curl_easy_setopt(h, CURLOPT_MAIL_RCPT_ALLLOWFAILS, 1L);
#endif
}

void sm_smtp_crlf(struct strbuf *out, const char *msg, size_t len)
{
	strbuf_grow(out, len + len / 32 + 2);
	for (size_t i = 0; i < len; i++) {
		if (msg[i] == '\r') {
			strbuf_addstr(out, "\r\n");
			if (i + 1 < len && msg[i + 1] == '\n')
				i++;
		} else if (msg[i] == '\n') {
			strbuf_addstr(out, "\r\n");
		} else {
			strbuf_addch(out, msg[i]);
		}
	}
	if (out->len < 2 || memcmp(out->buf + out->len - 2, "\r\n", 2))
		strbuf_addstr(out, "\r\n");
}

static const char *const phase_names[] = {
	[SM_AT_CONNECT] = "connecting", [SM_AT_HELLO] = "EHLO",
	[SM_AT_STARTTLS] = "STARTTLS", [SM_AT_AUTH] = "AUTH",
	[SM_AT_MAIL] = "MAIL FROM", [SM_AT_RCPT] = "RCPT TO",
	[SM_AT_DATA] = "DATA", [SM_AT_BODY] = "the end of the message",
};

/* Whose fault a failed transfer is, from the step it failed at. */
static enum sm_send_result classify(const struct sm_smtp *s, CURLcode rc, long code)
{
	if (rc == CURLE_LOGIN_DENIED || s->phase < SM_AT_RCPT)
		return SM_SEND_DOWN;
	if (code >= 400 && code < 500)
		return SM_SEND_DEFERRED;
	if (code >= 500 && code < 600 && (s->phase == SM_AT_BODY || s->refused.nr))
		return SM_SEND_REFUSED;
	return SM_SEND_DOWN;
}

static void send_error(const struct sm_smtp *s, CURLcode rc)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s: ", s->url);
	if (s->phase == SM_AT_AUTH || rc == CURLE_LOGIN_DENIED)
		strbuf_addf(&sb, "authentication as %s failed", s->cfg->smtp_user ? s->cfg->smtp_user : "?");
	else if (s->phase == SM_AT_CONNECT)
		strbuf_addstr(&sb, "cannot connect");
	else
		strbuf_addf(&sb, "%s failed", phase_names[s->phase]);
	strbuf_addf(&sb, ": %s", curl_easy_strerror(rc));
	if (s->errbuf[0] && strcmp(s->errbuf, curl_easy_strerror(rc)))
		strbuf_addf(&sb, " (%s)", s->errbuf);
	if (s->last_reply && *s->last_reply)
		strbuf_addf(&sb, "; the server said \"%s\"", s->last_reply);
	else if (s->phase != SM_AT_CONNECT)
		strbuf_addstr(&sb, "; the server sent no reply");
	sm_error("%s", sb.buf);
	strbuf_release(&sb);
}

static CURLcode perform(struct sm_smtp *s, CURL *h)
{
	s->errbuf[0] = '\0';
	s->phase = SM_AT_CONNECT;
	s->quitting = 0;
	free(s->last_reply);
	s->last_reply = NULL;
	strlist_clear(&s->refused);
	return curl_easy_perform(h);
}

enum sm_send_result sm_smtp_send(struct sm_smtp *s, const char *from,
				 const struct strlist *rcpts, const char *msg, size_t len)
{
	CURL *h = s->curl;
	struct curl_slist *rl = NULL;
	struct strbuf data = STRBUF_INIT, mf = STRBUF_INIT;
	struct upload up;
	CURLcode rc;
	long code = 0;
	enum sm_send_result res = SM_SEND_OK;

	/* CRLF line ends on the wire; libcurl adds the dot-stuffing. */
	sm_smtp_crlf(&data, msg, len);
	up.buf = data.buf;
	up.len = data.len;
	up.pos = 0;
	strbuf_addf(&mf, "<%s>", from);
	for (size_t i = 0; i < rcpts->nr; i++) {
		char *r = xasprintf("<%s>", rcpts->items[i]);

		rl = curl_slist_append(rl, r);
		free(r);
	}
	curl_easy_reset(h);
	setup(s, h);
	curl_easy_setopt(h, CURLOPT_MAIL_FROM, mf.buf);
	curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rl);
	curl_easy_setopt(h, CURLOPT_READDATA, &up);
	rc = perform(s, h);
	if (rc != CURLE_OK && s->phase == SM_AT_MAIL) {
		/* A 4xx on MAIL FROM: servers cap the mails per session (OpenSMTPD:
		 * 100, then "452 Too many messages"). Once more on a new connection. */
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
		if (code >= 400 && code < 500) {
			curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 1L);
			up.pos = 0;
			rc = perform(s, h);
		}
		code = 0;
	}
	if (rc != CURLE_OK) {
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
		res = classify(s, rc, code);
		send_error(s, rc);
	}
	curl_slist_free_all(rl);
	strbuf_release(&mf);
	strbuf_release(&data);
	return res;
}

void sm_smtp_close(struct sm_smtp *s)
{
	if (s->curl)
		curl_easy_cleanup(s->curl);
	strlist_clear(&s->refused);
	free(s->pending_rcpt);
	free(s->last_reply);
	if (s->password) {
		memset(s->password, 0, strlen(s->password));
		free(s->password);
	}
	free(s->url);
	memset(s, 0, sizeof(*s));
	curl_global_cleanup();
}
