/* fetch: libcurl GET of t.mbox.gz, decoded and split as it arrives. */
#include "config.h"
#include "mail/fetch.h"
#include "mail/msgid.h"
#include "mail/stream.h"
#include "lib/util.h"
#include <curl/curl.h>
#include <string.h>

struct download {
	CURL *curl;
	const char *url;
	size_t max;
	unsigned long long raw;
	unsigned char first[5];	/* the reply's first bytes, to check what it is */
	size_t nfirst;
	int checked;
	int failed;		/* an error is set: curl's own message is not wanted */
	struct sm_decoder *dec;
	struct sm_mbox_parser *mbox;
};

/* The decoded bytes: counted against the cap (a small gzip can hold a lot). */
static int decoded(const char *buf, size_t len, void *data)
{
	struct download *d = data;

	if (sm_decoder_out(d->dec) > d->max)
		return sm_error("%s: the reply un-gzips to more than %zu bytes (stopped)", d->url,
				d->max);
	return sm_mbox_parser_feed(buf, len, d->mbox);
}

/* The reply must be a gzip file or an mbox. */
static int check_first(struct download *d)
{
	d->checked = 1;
	if (d->nfirst >= 2 && d->first[0] == 0x1f && d->first[1] == 0x8b)
		return 0;
	if (d->nfirst == 5 && !memcmp(d->first, "From ", 5))
		return 0;
	return sm_error("%s: the reply is neither a gzip file nor an mbox", d->url);
}

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *data)
{
	struct download *d = data;
	size_t n = size * nmemb, take = 0;
	long status = 0;

	curl_easy_getinfo(d->curl, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200)
		return 0;	/* an error page: not read; the status is reported */
	d->raw += n;
	if (d->raw > d->max) {
		sm_error("%s: the reply is larger than %zu bytes (stopped)", d->url, d->max);
		d->failed = 1;
		return 0;
	}
	if (!d->checked) {
		take = sizeof(d->first) - d->nfirst < n ? sizeof(d->first) - d->nfirst : n;
		memcpy(d->first + d->nfirst, ptr, take);
		d->nfirst += take;
		if (d->nfirst < sizeof(d->first))
			return n;
		if (check_first(d) < 0 ||
		    sm_decoder_feed(d->dec, (const char *)d->first, d->nfirst) < 0) {
			d->failed = 1;
			return 0;
		}
	}
	if (n > take && sm_decoder_feed(d->dec, ptr + take, n - take) < 0) {
		d->failed = 1;
		return 0;
	}
	return n;
}

int sm_fetch_thread(const char *base_url, const char *msgid, size_t max_reply,
		    size_t max_message, sm_mbox_msg_fn fn, void *data)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct download d = { 0 };
	CURLcode rc;
	struct strbuf esc = STRBUF_INIT;
	char *id, *url;
	size_t n = strlen(base_url);
	long status = 0;
	int ret = -1;

	while (*msgid == '<')
		msgid++;
	id = xstrdup(msgid);
	if (*id && id[strlen(id) - 1] == '>')
		id[strlen(id) - 1] = '\0';
	if (!*id) {
		free(id);
		return sm_error("empty Message-ID");
	}
	if (!sm_msgid_is_address(id)) {
		sm_error("'%s': not a Message-ID (no local@domain, or white space or <>)", id);
		free(id);
		return -1;
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	d.curl = curl_easy_init();
	if (!d.curl) {
		free(id);
		return sm_error("cannot start libcurl");
	}
	/* Percent-encoded as lore does: '/', '?', '%', '#' can never leave the
	 * id's path segment ("../../x@y" stays one segment). */
	sm_msgid_url_escape(id, &esc);
	while (n && base_url[n - 1] == '/')
		n--;
	url = xasprintf("%.*s/%s/t.mbox.gz", (int)n, base_url, esc.buf);
	strbuf_release(&esc);
	d.url = url;
	d.max = max_reply ? max_reply : SM_FETCH_MAX_REPLY;
	d.mbox = sm_mbox_parser_new(max_message, fn, data);
	/* The decoder feeds the splitter through the cap on decoded bytes. */
	d.dec = sm_decoder_new(url, decoded, &d);
	curl_easy_setopt(d.curl, CURLOPT_URL, url);
	curl_easy_setopt(d.curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(d.curl, CURLOPT_WRITEDATA, &d);
	curl_easy_setopt(d.curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(d.curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(d.curl, CURLOPT_USERAGENT, "stablemate/" PACKAGE_VERSION);
	curl_easy_setopt(d.curl, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(d.curl, CURLOPT_TIMEOUT, 300L);
	/* A Content-Length over the cap is refused before the body is read. */
	curl_easy_setopt(d.curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)d.max);
	rc = curl_easy_perform(d.curl);
	curl_easy_getinfo(d.curl, CURLINFO_RESPONSE_CODE, &status);
	if (d.failed)
		goto out;	/* ours, already said */
	if (status && status != 200) {
		sm_error("%s: HTTP status %ld", url, status);
		goto out;
	}
	if (rc == CURLE_FILESIZE_EXCEEDED) {
		sm_error("%s: the reply is larger than %zu bytes (not read)", url, d.max);
		goto out;
	}
	if (rc != CURLE_OK) {
		sm_error("%s: %s", url, *errbuf ? errbuf : curl_easy_strerror(rc));
		goto out;
	}
	if (!d.checked && (check_first(&d) < 0 ||
			   sm_decoder_feed(d.dec, (const char *)d.first, d.nfirst) < 0))
		goto out;
	if (sm_decoder_finish(d.dec) < 0)
		goto out;	/* a truncated gzip: the partial last message is dropped */
	ret = sm_mbox_parser_finish(d.mbox) < 0 ? -1 : 0;
out:
	sm_decoder_free(d.dec);
	sm_mbox_parser_free(d.mbox);
	curl_easy_cleanup(d.curl);
	curl_global_cleanup();
	free(url);
	free(id);
	return ret;
}
