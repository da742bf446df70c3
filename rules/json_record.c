/* json_record: a JSON record read into a commit (see json_record.h). */
#include "rules/json_record.h"
#include "lib/json_read.h"
#include "lib/util.h"
#include <string.h>

/* The kernel CVE team's descriptions open with this line; the commit's
 * own subject follows it. */
static const char cve_preamble[] = "In the Linux kernel, the following vulnerability has been resolved:";

void sm_json_record_release(struct sm_json_record *r)
{
	struct strbuf *const all[] = { &r->desc, &r->msg, &r->subject, &r->body, &r->cve,
				       &r->id, &r->files, &r->scratch };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		strbuf_release(all[i]);
}

/* A record's "id" from its JSON text in id: a string decoded, a number
 * as written ("id": 42 is "42"); anything else names nothing. */
static void record_id(struct strbuf *id, struct strbuf *scratch)
{
	const char *p = id->buf;

	strbuf_reset(scratch);
	if (*p == '"' && !json_read_string(&p, id->buf + id->len, scratch)) {
		strbuf_reset(id);
		strbuf_add(id, scratch->buf, scratch->len);
	} else if (!(*p == '-' || (*p >= '0' && *p <= '9'))) {
		strbuf_reset(id);
	}
}

/* One element of "files": {"file": "drivers/x.c", "added": 3, "removed": 1}. */
struct json_files {
	struct sm_commit *c;
	struct strbuf *err;
	struct strbuf path, added, removed;	/* an element's members, kept */
};

/* A count's JSON text num (found: whether the member was there) into *out. */
static int json_file_count(struct json_files *f, size_t i, const char *key,
			   const struct strbuf *num, int found, unsigned *out)
{
	unsigned long n;

	*out = 0;
	if (!found || !strcmp(num->buf, "null"))
		return 0;
	if (!json_count(num->buf, num->len, SM_DIFF_MAX_LINES, &n)) {
		*out = (unsigned)n;
		return 0;
	}
	strbuf_addf(f->err, "files[%zu]: \"%s\" is %.40s, not a count of lines", i, key, num->buf);
	return -1;
}

static int add_json_file(void *ctx, size_t i, const char *e, size_t len)
{
	static const char *const keys[] = { "file", "added", "removed" };
	struct json_files *f = ctx;
	struct strbuf *const outs[] = { &f->path, &f->added, &f->removed };
	int found[3];
	unsigned added, removed;

	if (e[0] == '"')
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(outs); k++)
		strbuf_reset(outs[k]);
	/* the three members in one pass, the counts as their JSON text */
	if (e[0] != '{' || json_get_members(e, len, keys, outs, found, 3, 1u << 1 | 1u << 2) < 0 ||
	    found[0] != JSON_FOUND || !f->path.len) {
		strbuf_addf(f->err, "files[%zu] is not {\"file\": PATH, \"added\": N, "
			    "\"removed\": N} or a path", i);
		return -1;
	}
	if (json_file_count(f, i, "added", &f->added, found[1], &added) ||
	    json_file_count(f, i, "removed", &f->removed, found[2], &removed))
		return -1;
	sm_commit_add_file(f->c, f->path.buf, f->path.len, added, removed);
	return 0;
}

/* A record's "files" (its JSON text) into c; -1 with the reason in err. */
static int add_json_files(struct sm_commit *c, const struct strbuf *files, struct strbuf *err)
{
	struct json_files f = { c, err, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	int rc;

	if (!strcmp(files->buf, "null"))
		return 0;
	rc = json_array_each(files->buf, files->len, add_json_file, &f);
	if (rc && !err->len)
		strbuf_addstr(err, "\"files\" is not an array");
	strbuf_release(&f.path);
	strbuf_release(&f.added);
	strbuf_release(&f.removed);
	return rc ? -1 : 0;
}

/* The first "en" element's "value" of a CVE record's descriptions array
 * (json_array_each callback); the first element's when none is. */
struct cve_description {
	struct strbuf *out, lang;
	int english;
};

static int cve_description(void *ctx, size_t i, const char *e, size_t n)
{
	struct cve_description *d = ctx;
	int english;

	strbuf_reset(&d->lang);
	english = json_get_string(e, n, "lang", &d->lang) == JSON_FOUND &&
		  !strncmp(d->lang.buf, "en", 2);
	if (i && (d->english || !english))
		return 0;
	strbuf_reset(d->out);
	if (json_get_string(e, n, "value", d->out) == JSON_FOUND)
		d->english = english;
	return 0;
}

/* A CVE JSON 5 record, as the kernel CVE team publishes them (the vulns
 * repository's cve/published/YYYY/CVE-*.json, which scan --cve-dir reads):
 * containers.cna.descriptions' English text into msg and
 * cveMetadata.cveId into cve. 1 when json is one, else 0. */
static int cve5_record(const char *json, size_t len, struct strbuf *msg, struct strbuf *cve)
{
	struct strbuf outer = STRBUF_INIT, inner = STRBUF_INIT;
	struct cve_description d = { msg, STRBUF_INIT, 0 };
	int ok = 0;

	if (json_get_raw(json, len, "containers", &outer) == JSON_FOUND &&
	    json_get_raw(outer.buf, outer.len, "cna", &inner) == JSON_FOUND) {
		strbuf_reset(&outer);
		strbuf_reset(msg);
		if (json_get_raw(inner.buf, inner.len, "descriptions", &outer) == JSON_FOUND &&
		    !json_array_each(outer.buf, outer.len, cve_description, &d) && msg->len)
			ok = 1;
	}
	strbuf_reset(&outer);
	strbuf_reset(cve);
	if (ok && json_get_raw(json, len, "cveMetadata", &outer) == JSON_FOUND &&
	    json_get_string(outer.buf, outer.len, "cveId", cve) != JSON_FOUND)
		json_get_string(outer.buf, outer.len, "cveID", cve);
	strbuf_release(&outer);
	strbuf_release(&inner);
	strbuf_release(&d.lang);
	return ok;
}

/* The error of a record without a message: none of keys[0..n) is there,
 * or one is there as something else than text ({"message": 5}). */
static void not_text_error(const char *json, size_t len, const char *const *keys, size_t n,
			   struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&raw);
		if (json_get_raw(json, len, keys[i], &raw) == JSON_FOUND) {
			/* its first 40 bytes, and of its first line only */
			size_t shown = strcspn(raw.buf, "\r\n");

			if (shown > 40)
				shown = 40;
			strbuf_addf(err, "\"%s\" is %.*s%s, not a string or an array of strings",
				    keys[i], (int)shown, raw.buf, shown < raw.len ? "..." : "");
			strbuf_release(&raw);
			return;
		}
	}
	strbuf_release(&raw);
	strbuf_addstr(err, "no \"description\", \"message\" or \"subject\" member "
		      "(nor a CVE record's containers.cna.descriptions)");
}

int sm_json_record_read(struct sm_json_record *r, const char *json, size_t len,
			struct sm_commit *c, const char **id, struct strbuf *err)
{
	static const char *const keys[] = { "description", "message", "subject", "body", "cve",
					     "id", "files" };
	struct strbuf *const outs[] = { &r->desc, &r->msg, &r->subject, &r->body, &r->cve,
					&r->id, &r->files };
	struct strbuf *msg = &r->msg;
	int found[7];
	const char *m;
	int rc;

	*id = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(outs); i++)
		strbuf_reset(outs[i]);
	/* "id" and "files" as their JSON text, in the same pass */
	rc = json_get_members(json, len, keys, outs, found, 7, 1u << 5 | 1u << 6);
	if (rc < 0) {
		strbuf_addstr(err, "not a JSON object");
		return -1;
	}
	if (found[5])
		record_id(&r->id, &r->scratch);
	if (found[0]) {
		msg = &r->desc;
	} else if (!found[1] && found[2]) {
		strbuf_add(msg, r->subject.buf, r->subject.len);
		strbuf_addstr(msg, "\n\n");
		strbuf_add(msg, r->body.buf, r->body.len);
	} else if (!found[1] && cve5_record(json, len, msg, &r->cve)) {
		found[4] = JSON_FOUND;
	} else if (!found[1]) {
		not_text_error(json, len, keys, 3, err);
		return -1;
	}
	if (found[4])	/* "cve" names the record, also when empty */
		*id = r->cve.len ? r->cve.buf : NULL;
	else
		*id = r->id.len ? r->id.buf : NULL;
	m = msg->buf;
	if (!strncmp(m, cve_preamble, sizeof(cve_preamble) - 1))
		m += sizeof(cve_preamble) - 1;
	sm_commit_parse_message(c, m, strlen(m));
	if (found[6] == JSON_FOUND && add_json_files(c, &r->files, err)) {
		sm_commit_release(c);
		return -1;
	}
	return 0;
}

int sm_json_records_start(const char *text, size_t len)
{
	size_t i = 0;
	char open;

	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
		i++;
	if (i == len || (text[i] != '{' && text[i] != '['))
		return 0;
	open = text[i++];
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
		i++;
	if (i == len || text[i] == '\n' || text[i] == '"')
		return 1;
	return open == '{' ? text[i] == '}' : text[i] == '{' || text[i] == '[' || text[i] == ']';
}

struct records_walk {
	const char *text;	/* where line was counted to */
	unsigned long line;
	sm_json_record_fn fn;
	void *ctx;
};

/* line moves on to p */
static void count_lines(struct records_walk *w, const char *p)
{
	for (const char *nl; (nl = memchr(w->text, '\n', (size_t)(p - w->text))); w->text = nl + 1)
		w->line++;
	w->text = p;
}

static int walk_element(void *ctx, size_t i, const char *e, size_t n)
{
	struct records_walk *w = ctx;

	(void)i;
	count_lines(w, e);
	return w->fn(e, n, w->line, w->ctx);
}

int sm_json_records_each(const char *text, size_t len, sm_json_record_fn fn, void *ctx,
			 unsigned long *line)
{
	struct records_walk w = { text, 1, fn, ctx };
	const char *p = text, *end = text + len;

	for (;;) {
		size_t n;
		int rc;

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
			p++;
		if (p == end)
			return 0;
		count_lines(&w, p);
		/* an array's elements as far as they read, as a cut-off file has them */
		rc = *p == '[' ? json_array_each(p, (size_t)(end - p), walk_element, &w) : 0;
		if (!rc && json_value_end(p, (size_t)(end - p), &n) < 0)
			rc = -1;
		if (!rc && *p != '[')
			rc = fn(p, n, w.line, ctx);
		if (rc) {
			*line = w.line;
			return rc;
		}
		p += n;
	}
}
