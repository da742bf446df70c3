/* patch-id as `git patch-id --stable` computes it: the SHA-1 of each
 * file's part of the patch with all whitespace removed, hunk headers'
 * line numbers and "index" lines left out, and the per-file hashes added
 * together as 160-bit numbers so the file order does not matter.
 * SHA-1 comes from GLib (a dependency of gmime), not from our own code. */
#include "trees/patchid.h"
#include "trees/repo.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include <ctype.h>
#include <glib.h>
#include <string.h>

struct pid_state {
	GChecksum *sha;
	unsigned char sum[20];
	size_t hashed;		/* bytes hashed in the current file */
	size_t total;
};

static void flush_file(struct pid_state *st)
{
	guint8 digest[20];
	gsize len = sizeof(digest);
	unsigned carry = 0;

	g_checksum_get_digest(st->sha, digest, &len);
	g_checksum_reset(st->sha);
	for (int i = 0; i < 20; i++) {
		carry += st->sum[i] + digest[i];
		st->sum[i] = carry & 0xff;
		carry >>= 8;
	}
	st->hashed = 0;
}

static void hash_line(struct pid_state *st, const char *line, size_t len)
{
	char buf[256];
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (isspace((unsigned char)line[i]))
			continue;
		buf[n++] = line[i];
		if (n == sizeof(buf)) {
			g_checksum_update(st->sha, (const guchar *)buf, n);
			st->total += n;
			n = 0;
		}
	}
	if (n)
		g_checksum_update(st->sha, (const guchar *)buf, n);
	st->total += n;
	st->hashed += n;
}

int sm_patch_id_from_text(const char *diff, size_t len, char out[41])
{
	struct pid_state st;
	const char *p = diff, *end = diff + len;
	int before = -1, after = -1, in_patch = 0;
	static const char hex[] = "0123456789abcdef";

	memset(&st, 0, sizeof(st));
	st.sha = g_checksum_new(G_CHECKSUM_SHA1);
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *line = p;
		size_t l = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		p += l;
		/* "\ No newline at end of file" is not part of the change. */
		if (l > 12 && line[0] == '\\' && line[1] == ' ')
			continue;
		if (!in_patch) {
			if (l < 5 || memcmp(line, "diff ", 5))
				continue;
			in_patch = 1;
		}
		if (before == -1) {
			if (l >= 6 && !memcmp(line, "index ", 6))
				continue;
			if (l >= 4 && !memcmp(line, "--- ", 4))
				before = after = 1;
			else if (!isalpha((unsigned char)line[0]))
				break;
		}
		if (before == 0 && after == 0) {
			if (l >= 4 && !memcmp(line, "@@ -", 4)) {
				if (sm_hunk_counts(line, l, &before, &after) < 0)
					break;
				continue;
			}
			if (l < 5 || memcmp(line, "diff ", 5))
				break;
			flush_file(&st);
			before = after = -1;
		}
		if (line[0] == '-' || line[0] == ' ')
			before--;
		if (line[0] == '+' || line[0] == ' ')
			after--;
		hash_line(&st, line, l);
	}
	if (!in_patch || !st.total) {
		g_checksum_free(st.sha);
		return sm_error("no diff in the text given for a patch-id");
	}
	flush_file(&st);
	g_checksum_free(st.sha);
	for (int i = 0; i < 20; i++) {
		out[2 * i] = hex[st.sum[i] >> 4];
		out[2 * i + 1] = hex[st.sum[i] & 15];
	}
	out[40] = '\0';
	return 0;
}

int sm_patch_id_commit(git_repository *repo, const git_oid *id, char out[41])
{
	git_commit *c = NULL;
	struct strbuf diff = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	int ret;

	git_oid_tostr(hex, sizeof(hex), id);
	if (git_commit_lookup(&c, repo, id) < 0)
		return sm_error("commit %s: not found in %s", hex, sm_repo_name(repo));
	ret = sm_commit_diff_text(repo, c, &diff);
	git_commit_free(c);
	if (!ret && sm_patch_id_from_text(diff.buf, diff.len, out) < 0)
		ret = sm_error("commit %s: empty diff, no patch-id", hex);
	strbuf_release(&diff);
	return ret;
}
