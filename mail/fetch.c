/* fetch: libcurl GET of t.mbox.gz. */
#include "config.h"
#include "mail/fetch.h"
#include "mail/mbox.h"
#include "mail/msgid.h"
#include "lib/util.h"
#include <curl/curl.h>
#include <string.h>

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *data)
{
	strbuf_add(data, ptr, size * nmemb);
	return size * nmemb;
}

int sm_fetch_thread(const char *base_url, const char *msgid, struct strbuf *out)
{
	struct strbuf body = STRBUF_INIT;
	char errbuf[CURL_ERROR_SIZE] = "";
	CURL *curl;
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
	curl = curl_easy_init();
	if (!curl) {
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
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "stablemate/" PACKAGE_VERSION);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 300L);
	rc = curl_easy_perform(curl);
	if (rc != CURLE_OK) {
		sm_error("%s: %s", url, *errbuf ? errbuf : curl_easy_strerror(rc));
		goto out;
	}
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		sm_error("%s: HTTP status %ld", url, status);
		goto out;
	}
	if (body.len >= 2 && (unsigned char)body.buf[0] == 0x1f &&
	    (unsigned char)body.buf[1] == 0x8b)
		ret = sm_gunzip(body.buf, body.len, out, url);
	else if (body.len && !strncmp(body.buf, "From ", 5))
		strbuf_add(out, body.buf, body.len), ret = 0;
	else
		sm_error("%s: the reply is neither a gzip file nor an mbox", url);
out:
	strbuf_release(&body);
	curl_easy_cleanup(curl);
	curl_global_cleanup();
	free(url);
	free(id);
	return ret;
}
