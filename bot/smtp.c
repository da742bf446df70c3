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

/* Watches the SMTP dialogue to learn which RCPT TO the server refused:
 * libcurl (CURLOPT_MAIL_RCPT_ALLOWFAILS) goes on without saying which. */
static int debug_cb(CURL *h, curl_infotype type, char *data, size_t size, void *userp)
{
	struct sm_smtp *s = userp;

	(void)h;
	if (type == CURLINFO_HEADER_OUT) {
		free(s->pending_rcpt);
		s->pending_rcpt = NULL;
		if (size > 8 && !strncasecmp(data, "RCPT TO:", 8)) {
			const char *b = memchr(data, '<', size), *e = memchr(data, '>', size);

			if (b && e && e > b)
				s->pending_rcpt = xstrndup(b + 1, (size_t)(e - b - 1));
		}
	} else if (type == CURLINFO_HEADER_IN && s->pending_rcpt && size >= 3) {
		if (data[0] == '4' || data[0] == '5') {
			size_t n = size;

			while (n && (data[n - 1] == '\n' || data[n - 1] == '\r'))
				n--;
			strlist_append_nodup(&s->refused, xasprintf("%s: %.*s", s->pending_rcpt, (int)n, data));
		}
		free(s->pending_rcpt);
		s->pending_rcpt = NULL;
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

	/* Message lines end in CRLF on the wire; libcurl adds the dot-stuffing. */
	strbuf_grow(&data, len + len / 32 + 2);
	for (size_t i = 0; i < len; i++) {
		if (msg[i] == '\n' && (i == 0 || msg[i - 1] != '\r'))
			strbuf_addch(&data, '\r');
		strbuf_addch(&data, msg[i]);
	}
	if (!data.len || data.buf[data.len - 1] != '\n')
		strbuf_addstr(&data, "\r\n");
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
	s->errbuf[0] = '\0';
	strlist_clear(&s->refused);
	rc = curl_easy_perform(h);
	if (rc != CURLE_OK && !s->refused.nr) {
		/* A 4xx on MAIL FROM: servers cap the mails per session (OpenSMTPD:
		 * 100, then "452 Too many messages"). Once more on a new connection. */
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
		if (code >= 400 && code < 500) {
			curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 1L);
			up.pos = 0;
			s->errbuf[0] = '\0';
			rc = curl_easy_perform(h);
		}
		code = 0;
	}
	if (rc != CURLE_OK) {
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
		if (code >= 500 && code < 600)
			res = SM_SEND_REFUSED;
		else if (code >= 400 && code < 500)
			res = SM_SEND_DEFERRED;
		else
			res = SM_SEND_DOWN;
		sm_error("%s: %s%s%s (server said %ld)", s->url, curl_easy_strerror(rc),
			 s->errbuf[0] ? ": " : "", s->errbuf, code);
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
	if (s->password) {
		memset(s->password, 0, strlen(s->password));
		free(s->password);
	}
	free(s->url);
	memset(s, 0, sizeof(*s));
	curl_global_cleanup();
}
