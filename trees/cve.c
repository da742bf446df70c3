/* cve: kernel CVE records by fixing commit (see cve.h). The JSON reader
 * here keeps, of each object, its string members; that is all a record's
 * version ranges and id need. */
#include "trees/cve.h"
#include "lib/util.h"
#include "lib/fileio.h"
#include "lib/json_read.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_MEMBERS 16

struct member {
	char *key, *val;
};

struct parse {
	const char *p, *end;
	struct sm_cve *rec;
	int depth;
};

static void skip_ws(struct parse *ps)
{
	while (ps->p < ps->end && isspace((unsigned char)*ps->p))
		ps->p++;
}

/* A JSON string at ps->p (the opening quote); out may be NULL. */
static int parse_string(struct parse *ps, struct strbuf *out)
{
	return json_read_string(&ps->p, ps->end, out);
}

static const char *member(const struct member *m, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(m[i].key, key))
			return m[i].val;
	return NULL;
}

static int is_sha(const char *s)
{
	return s && strlen(s) == 40 && is_hex_string(s, 40);
}

/* One object's string members are all read: keep what a record needs. */
static void take_object(struct sm_cve *rec, const struct member *m, size_t n)
{
	const char *id = member(m, n, "cveID"), *status = member(m, n, "status");
	const char *version = member(m, n, "version"), *lt = member(m, n, "lessThan");
	const char *type = member(m, n, "versionType");

	if (!id)
		id = member(m, n, "cve");
	if (id && starts_with(id, "CVE-") && !rec->id)
		rec->id = xstrdup(id);
	if (!status || !version)
		return;
	if ((type && !strcmp(type, "git")) || is_sha(version)) {
		if (is_sha(lt) && !strcmp(status, "affected")) {
			char *fix = xstrdup(lt);

			str_to_lower(fix);
			ALLOC_GROW(rec->fixing, rec->nr_fixing, rec->alloc_fixing);
			rec->fixing[rec->nr_fixing++] = fix;
		}
		return;
	}
	{
		const char *le = member(m, n, "lessThanOrEqual");
		struct sm_cve_range *r;

		ALLOC_GROW(rec->ranges, rec->nr_ranges, rec->alloc_ranges);
		r = &rec->ranges[rec->nr_ranges++];
		r->version = xstrdup(version);
		r->less_than = lt ? xstrdup(lt) : NULL;
		r->less_equal = le ? xstrdup(le) : NULL;
		r->affected = !strcmp(status, "affected");
	}
}

static int parse_value(struct parse *ps, struct strbuf *str_out);

static int parse_object(struct parse *ps)
{
	struct member m[MAX_MEMBERS];
	size_t n = 0;
	int ret = -1;

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
		int is_str;

		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != '"' || parse_string(ps, &key) < 0) {
			strbuf_release(&key);
			goto out;
		}
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p++ != ':') {
			strbuf_release(&key);
			goto out;
		}
		skip_ws(ps);
		is_str = ps->p < ps->end && *ps->p == '"';
		if (parse_value(ps, &val) < 0) {
			strbuf_release(&key);
			strbuf_release(&val);
			goto out;
		}
		if (is_str && n < MAX_MEMBERS) {
			m[n].key = strbuf_detach(&key, NULL);
			m[n].val = strbuf_detach(&val, NULL);
			n++;
		} else {
			strbuf_release(&key);
			strbuf_release(&val);
		}
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			break;
		}
		goto out;
	}
	take_object(ps->rec, m, n);
	ret = 0;
out:
	for (size_t i = 0; i < n; i++) {
		free(m[i].key);
		free(m[i].val);
	}
	return ret;
}

static int parse_value(struct parse *ps, struct strbuf *str_out)
{
	int ret = 0;

	skip_ws(ps);
	if (ps->p >= ps->end || ps->depth > 64)
		return -1;
	switch (*ps->p) {
	case '"':
		return parse_string(ps, str_out);
	case '{':
		ps->depth++;
		ret = parse_object(ps);
		ps->depth--;
		return ret;
	case '[':
		ps->depth++;
		ps->p++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
		} else {
			for (;;) {
				if (parse_value(ps, NULL) < 0) {
					ret = -1;
					break;
				}
				skip_ws(ps);
				if (ps->p < ps->end && *ps->p == ',') {
					ps->p++;
					continue;
				}
				if (ps->p < ps->end && *ps->p == ']')
					ps->p++;
				else
					ret = -1;
				break;
			}
		}
		ps->depth--;
		return ret;
	default:
		/* number, true, false, null */
		if (!strchr("-0123456789tfn", *ps->p))
			return -1;
		while (ps->p < ps->end && (isalnum((unsigned char)*ps->p) || strchr("+-.", *ps->p)))
			ps->p++;
		return 0;
	}
}

static void cve_free(struct sm_cve *c)
{
	free(c->id);
	free(c->path);
	for (size_t i = 0; i < c->nr_fixing; i++)
		free(c->fixing[i]);
	free(c->fixing);
	for (size_t i = 0; i < c->nr_ranges; i++)
		FREE_ALL(c->ranges[i].version, c->ranges[i].less_than, c->ranges[i].less_equal);
	free(c->ranges);
}

static int load_file(struct sm_cve_db *db, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	struct sm_cve rec;
	struct parse ps;
	int ret;

	if (read_file(path, &text) < 0)
		return -1;
	memset(&rec, 0, sizeof(rec));
	ps.p = text.buf;
	ps.end = ps.p + text.len;
	ps.rec = &rec;
	ps.depth = 0;
	skip_ws(&ps);
	ret = ps.p < ps.end && *ps.p == '{' ? parse_value(&ps, NULL) : -1;
	if (ret == 0) {
		skip_ws(&ps);
		if (ps.p != ps.end)
			ret = -1;
	}
	strbuf_release(&text);
	db->nr_files++;
	if (ret < 0) {
		cve_free(&rec);
		return sm_error("%s: not a JSON CVE record", path);
	}
	if (!rec.id || !rec.nr_fixing) {	/* rejected or reserved: nothing fixes it */
		cve_free(&rec);
		return 0;
	}
	rec.path = xstrdup(path);
	ALLOC_GROW(db->cves, db->nr, db->alloc);
	db->cves[db->nr++] = rec;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* The .json files in dir, and in its subdirectories when depth > 0. */
static int load_dir(struct sm_cve_db *db, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return sm_error("%s: cannot read the CVE directory (%s)", dir, strerror(errno));
	while (!ret && (de = readdir(d))) {
		char *path;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (ends_with(de->d_name, ".json")) {
			ret = load_file(db, path);
		} else if (depth > 0) {
			DIR *sub = opendir(path);

			if (sub) {
				closedir(sub);
				ret = load_dir(db, path, depth - 1);
			}
		}
		free(path);
	}
	closedir(d);
	return ret;
}

int sm_cve_load(struct sm_cve_db *db, const char *dir)
{
	char *top = xasprintf("%s/cve/published", dir);
	int ret;

	memset(db, 0, sizeof(*db));
	if (!file_exists(top)) {
		free(top);
		top = xasprintf("%s/published", dir);
		if (!file_exists(top)) {
			free(top);
			top = xstrdup(dir);
		}
	}
	ret = load_dir(db, top, 1);
	free(top);
	if (ret < 0)
		return -1;
	for (size_t i = 0; i < db->nr; i++)
		for (size_t k = 0; k < db->cves[i].nr_fixing; k++)
			strmap_put(&db->by_fix, db->cves[i].fixing[k], i);
	return 0;
}

void sm_cve_release(struct sm_cve_db *db)
{
	for (size_t i = 0; i < db->nr; i++)
		cve_free(&db->cves[i]);
	free(db->cves);
	strmap_clear(&db->by_fix);
	memset(db, 0, sizeof(*db));
}

const struct sm_cve *sm_cve_find(const struct sm_cve_db *db, const char *id)
{
	size_t i;

	return strmap_get(&db->by_fix, id, &i) ? &db->cves[i] : NULL;
}

/* Is s "X.Y" or "X.Y.*" of tree v? */
static int same_tree(const char *s, const struct sm_version *v)
{
	struct sm_version x;

	return s && sm_version_parse(s, NULL, &x) == 0 && !sm_version_cmp_tree(&x, v);
}

int sm_cve_tree_state(const struct sm_cve *c, const struct sm_version *v, struct strbuf *out)
{
	const char *introduced = NULL;

	for (size_t i = 0; i < c->nr_ranges; i++) {
		const struct sm_cve_range *r = &c->ranges[i];

		if (!r->affected && same_tree(r->version, v) && r->less_equal &&
		    strchr(r->version + strcspn(r->version, ".") + 1, '.')) {
			strbuf_addf(out, "fixed in %s", r->version);
			return 0;
		}
	}
	for (size_t i = 0; i < c->nr_ranges; i++) {
		const struct sm_cve_range *r = &c->ranges[i];
		struct sm_version x;

		if (r->affected && same_tree(r->version, v)) {
			strbuf_addstr(out, "still affected");
			return 1;
		}
		if (r->affected || sm_version_parse(r->version, NULL, &x) < 0)
			continue;
		if (r->less_equal && !strcmp(r->less_equal, "*") && sm_version_cmp_tree(v, &x) >= 0) {
			strbuf_addf(out, "fixed in %s", r->version);
			return 0;
		}
	}
	for (size_t i = 0; i < c->nr_ranges; i++) {
		const struct sm_cve_range *r = &c->ranges[i];
		struct sm_version x;

		if (!r->affected && !strcmp(r->version, "0") && r->less_than &&
		    sm_version_parse(r->less_than, NULL, &x) == 0 && sm_version_cmp_tree(v, &x) < 0)
			introduced = r->less_than;
	}
	if (introduced) {
		strbuf_addf(out, "not affected (introduced in %s)", introduced);
		return 0;
	}
	strbuf_addstr(out, "still affected");
	return 1;
}
