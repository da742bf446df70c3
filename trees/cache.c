/* cache: paths, states and checksums of the cache files (see cache.h). */
#include "trees/cache.h"
#include "lib/fileio.h"
#include "lib/util.h"
#include <glib.h>
#include <stdlib.h>
#include <string.h>

const char *sm_cache_state_name(enum sm_cache_state s)
{
	switch (s) {
	case SM_CACHE_NEW: return "new";
	case SM_CACHE_HIT: return "hit";
	case SM_CACHE_INCREMENTAL: return "incremental";
	case SM_CACHE_REBUILT: return "rebuilt";
	default: return "off";
	}
}

char *sm_default_cache_dir(void)
{
	return xdg_path("XDG_CACHE_HOME", ".cache", "stablemate");
}

char *sm_cache_file(const char *cache_dir, const char *subdir, const char *key,
		    const char *suffix)
{
	char *default_dir = NULL, *path = NULL;
	gchar *sum;

	if (!cache_dir)
		cache_dir = default_dir = sm_default_cache_dir();
	if (*cache_dir) {
		sum = g_compute_checksum_for_string(G_CHECKSUM_SHA1, key, -1);
		path = xasprintf("%s/%s/%s%s", cache_dir, subdir, sum, suffix);
		g_free(sum);
	}
	free(default_dir);
	return path;
}

void sm_cache_add_sum(struct strbuf *sb)
{
	gchar *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA1, (const guchar *)sb->buf, sb->len);

	strbuf_addf(sb, "end %s\n", sum);
	g_free(sum);
}

int sm_cache_check_sum(const char *buf, size_t len, size_t *body)
{
	gchar *sum;
	int ok;

	if (len < SM_CACHE_SUM_LEN || buf[len - 1] != '\n' ||
	    memcmp(buf + len - SM_CACHE_SUM_LEN, "end ", 4))
		return 0;
	sum = g_compute_checksum_for_data(G_CHECKSUM_SHA1, (const guchar *)buf,
					  len - SM_CACHE_SUM_LEN);
	ok = sum && !memcmp(sum, buf + len - SM_CACHE_SUM_LEN + 4, 40);
	g_free(sum);
	if (ok)
		*body = len - SM_CACHE_SUM_LEN;
	return ok;
}
