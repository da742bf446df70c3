/* features: one commit's facts as named binary features (see features.h).
 * Words: ASCII case-folded [a-z0-9_] tokens of 2..24 bytes, numbers and
 * commit ids left out; pairs of neighbouring words within a clause. The
 * body's words are read before its trailer block and outside quoted code
 * and logs (indented lines, "[  12.345]" lines): those count as facts of
 * their own ("body:quoted-code", "body:log"). */
#include "rules/features.h"
#include "rules/device_ids.h"
#include "rules/rules_load.h"
#include "lib/fnv.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_TOKEN 24
#define MAX_BODY_WORDS 300
#define SEEN_SLOTS 4096

static inline uint64_t fnv_add(uint64_t h, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = sm_fnv_byte(h, (unsigned char)s[i]);
	return h;
}

uint64_t sm_feature_hash(const char *name, size_t len)
{
	return fnv_add(SM_FNV_BASIS, name, len);
}

struct emitter {
	sm_feature_fn fn;
	void *ctx;
	/* names already reported for this commit: open addressing on the
	 * hash, cleared by bumping gen */
	struct {
		uint64_t h;
		unsigned gen;	/* h counts while gen is the emitter's */
	} seen[SEEN_SLOTS];	/* one cache line a probe */
	unsigned gen;
	unsigned nr_seen;
	int want_detail;	/* 0: detail always NULL */
	const uint64_t *known;	/* NULL, or the only features to report */
	char buf[160];
};

static _Thread_local struct emitter *tl_emitter;

/* Whether the caller asks for the feature with hash h: a model does not
 * for most word pairs, which words() then does not even copy. */
static inline int wanted(const struct emitter *e, uint64_t h)
{
	return !e->known || sm_feature_filter_has(e->known, h);
}

/* name with its hash h (sm_feature_hash) worked out already */
static void emit_hashed(struct emitter *e, const char *name, size_t len, uint64_t h,
			const char *detail)
{
	size_t i = (size_t)(h ^ (h >> 29)) & (SEEN_SLOTS - 1);

	if (!wanted(e, h))
		return;
	if (e->nr_seen >= SEEN_SLOTS / 2)
		return;		/* a pathological message: enough features (of
				 * those asked for: with a known set, a few more
				 * of the set may come than without) */
	while (e->seen[i].gen == e->gen) {
		if (e->seen[i].h == h)
			return;
		i = (i + 1) & (SEEN_SLOTS - 1);
	}
	e->seen[i].gen = e->gen;
	e->seen[i].h = h;
	e->nr_seen++;
	e->fn(e->ctx, name, len, h, e->want_detail ? detail : NULL);
}

static void emit(struct emitter *e, const char *name, size_t len, const char *detail)
{
	emit_hashed(e, name, len, sm_feature_hash(name, len), detail);
}

/* prefix then s (len bytes), cut as emitf cuts */
static void emit2(struct emitter *e, const char *prefix, size_t prefix_len, const char *s,
		  size_t len, const char *detail)
{
	if (len > sizeof(e->buf) - 1 - prefix_len)
		len = sizeof(e->buf) - 1 - prefix_len;
	memcpy(e->buf, prefix, prefix_len);
	memcpy(e->buf + prefix_len, s, len);
	emit(e, e->buf, prefix_len + len, detail);
}

static void emits(struct emitter *e, const char *name, const char *detail)
{
	emit(e, name, strlen(name), detail);
}

static void emitf(struct emitter *e, const char *detail, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void emitf(struct emitter *e, const char *detail, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(e->buf, sizeof(e->buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(e->buf))
		n = sizeof(e->buf) - 1;
	emit(e, e->buf, (size_t)n, detail);
}

/* Byte classes for words(): C-locale isalnum() or '_' (a word byte),
 * isalpha(), isdigit(), isxdigit(), and the punctuation that ends a
 * clause (breaks a pair). */
enum { C_TOK = 1, C_ALPHA = 2, C_DIGIT = 4, C_HEX = 8, C_BREAK = 16 };

static const unsigned char byte_class[256] = {
	['\n'] = C_BREAK, ['!'] = C_BREAK, ['"'] = C_BREAK, ['('] = C_BREAK, [')'] = C_BREAK,
	[','] = C_BREAK, ['.'] = C_BREAK, [':'] = C_BREAK, [';'] = C_BREAK, ['?'] = C_BREAK,
	['_'] = C_TOK,
#define D(c) [c] = C_TOK | C_DIGIT | C_HEX
	D('0'), D('1'), D('2'), D('3'), D('4'), D('5'), D('6'), D('7'), D('8'), D('9'),
#undef D
#define X(c) [c] = C_TOK | C_ALPHA | C_HEX, [c - 32] = C_TOK | C_ALPHA | C_HEX
	X('a'), X('b'), X('c'), X('d'), X('e'), X('f'),
#undef X
#define A(c) [c] = C_TOK | C_ALPHA, [c - 32] = C_TOK | C_ALPHA
	A('g'), A('h'), A('i'), A('j'), A('k'), A('l'), A('m'), A('n'), A('o'), A('p'), A('q'),
	A('r'), A('s'), A('t'), A('u'), A('v'), A('w'), A('x'), A('y'), A('z'),
#undef A
};

/* Words and pairs of text as "<ns>:w" and "<ns>2:w1 w2". Returns the
 * number of words read (at most max). This is the hot loop of classify:
 * a word is read once, case-folded into both names and hashed for both
 * (and for the next pair's "<ns>2:w1 " part) as it goes. Words of 2..24
 * bytes, not all digits, not a commit id (7+ hex digits with a digit);
 * "don't", "isn't" stay one word. */
static unsigned words(struct emitter *e, char ns, const char *text, size_t len, unsigned max)
{
	/* one = "<ns>:cur", two = "<ns>2:prev cur"; room for a fixed-size
	 * copy of MAX_TOKEN bytes wherever a word goes */
	char one[2 + 2 * MAX_TOKEN], two[3 + 3 * MAX_TOKEN + 2], cur[2 * MAX_TOKEN];
	const char one_pre[2] = { ns, ':' }, two_pre[3] = { ns, '2', ':' };
	const uint64_t h_one = sm_feature_hash(one_pre, 2), h_two = sm_feature_hash(two_pre, 3);
	uint64_t h_prev = 0;	/* the hash of "<ns>2:prev " */
	size_t prev_len = 0, p = 0;
	const unsigned char *t = (const unsigned char *)text;
	unsigned nr = 0;
	int broken = 1;

	memcpy(one, one_pre, 2);
	memcpy(two, two_pre, 3);
	memset(cur, 0, sizeof(cur));
	while (p < len && nr < max) {
		size_t start, n;
		unsigned all = 0xff, any = 0;
		uint64_t h1 = h_one, h2 = h_prev, h3 = h_two;

		while (p < len && !(byte_class[t[p]] & C_TOK)) {
			broken |= byte_class[t[p]] & C_BREAK;
			p++;
		}
		start = p;
		while (p < len) {
			if (!(byte_class[t[p]] & C_TOK) &&
			    !(t[p] == '\'' && p > start && p + 1 < len && (byte_class[t[p + 1]] & C_ALPHA)))
				break;
			p++;
		}
		n = p - start;
		if (n < 2 || n > MAX_TOKEN) {
			if (n)
				broken = 1;
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			unsigned char ch = t[start + i], k = byte_class[ch];

			all &= k;
			any |= k;
			ch = (unsigned char)(ch | ((k & C_ALPHA) << 4));
			cur[i] = (char)ch;
			h1 = sm_fnv_byte(h1, ch);
			h2 = sm_fnv_byte(h2, ch);
			h3 = sm_fnv_byte(h3, ch);
		}
		if ((all & C_DIGIT) || (n >= 7 && (all & C_HEX) && (any & C_DIGIT))) {
			/* numbers, commit ids */
			broken = 1;
			continue;
		}
		nr++;
		if (wanted(e, h1)) {
			memcpy(one + 2, cur, MAX_TOKEN);
			emit_hashed(e, one, 2 + n, h1, NULL);
		}
		if (!broken && wanted(e, h2)) {
			size_t k = 3 + prev_len + 1;

			memcpy(two + k, cur, MAX_TOKEN);
			emit_hashed(e, two, k + n, h2, NULL);
		}
		memcpy(two + 3, cur, MAX_TOKEN);
		two[3 + n] = ' ';
		h_prev = sm_fnv_byte(h3, ' ');
		prev_len = n;
		broken = 0;
	}
	return nr;
}

/* "[   12.345678] ...", "Call Trace:", " RIP: ...": a log line. */
static int log_line(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < n && s[i] == '[' && i + 3 < n &&
	    (s[i + 1] == ' ' || isdigit((unsigned char)s[i + 1])))
		return 1;
	return (n - i >= 10 && !memcmp(s + i, "Call Trace", 10)) ||
	       (n - i >= 4 && !memcmp(s + i, "RIP:", 4));
}

static void body_features(struct emitter *e, const struct sm_commit *c)
{
	const char *p = c->body ? c->body : "", *end = p + (c->body ? c->body_text_len : 0);
	unsigned quoted = 0, logs = 0, nr = 0, lines = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n && log_line(p, n)) {
			logs++;
		} else if (n && (p[0] == '\t' || (n >= 2 && p[0] == ' ' && p[1] == ' '))) {
			quoted++;
		} else if (nr < MAX_BODY_WORDS) {
			/* a line break inside a paragraph does not end a clause */
			nr += words(e, 'b', p, n, MAX_BODY_WORDS - nr);
		}
		if (n)
			lines++;
		p = nl ? nl + 1 : end;
	}
	if (!lines)
		emits(e, "body:none", "the message has no body");
	else
		emits(e, nr <= 20 ? "body:words:1-20" : nr <= 60 ? "body:words:21-60" :
		      nr <= 150 ? "body:words:61-150" : "body:words:151+", NULL);
	if (quoted >= 2)
		emits(e, "body:quoted-code", "the message quotes code or output");
	if (logs >= 2)
		emits(e, "body:log", "the message quotes a kernel log");
}

static void subject_features(struct emitter *e, const struct sm_commit *c)
{
	const char *s = c->subject ? c->subject : "";
	size_t at, n = sm_subject_prefix(s, &at);

	if (n) {
		char pre[64];
		size_t m = n < sizeof(pre) - 1 ? n : sizeof(pre) - 1, first = 0;

		for (size_t i = 0; i < m; i++)
			pre[i] = (char)tolower((unsigned char)s[i]);
		pre[m] = '\0';
		emit2(e, "prefix:", 7, pre, m, NULL);
		while (first < m && pre[first] != '/' && pre[first] != ':' && pre[first] != ' ')
			first++;
		if (first < m)
			emit2(e, "prefix1:", 8, pre, first, NULL);
	} else {
		emits(e, "prefix:none", "the subject names no subsystem");
	}
	words(e, 's', s + at, strlen(s + at), 64);
}

static void email_of(const char *who, char *out, size_t size)
{
	const char *lt = who ? strchr(who, '<') : NULL, *gt = lt ? strchr(lt, '>') : NULL;
	size_t n = 0;

	out[0] = '\0';
	if (!lt || !gt || gt - lt < 3)
		return;
	for (const char *p = lt + 1; p < gt && n + 1 < size; p++)
		out[n++] = (char)tolower((unsigned char)*p);
	out[n] = '\0';
}

static void people_features(struct emitter *e, const struct sm_rules *r, const struct sm_commit *c)
{
	char mail[96];

	email_of(c->author, mail, sizeof(mail));
	if (mail[0]) {
		const char *at = strchr(mail, '@');

		emit2(e, "author:", 7, mail, strlen(mail), c->author);
		if (at)
			emit2(e, "author-domain:", 14, at + 1, strlen(at + 1), c->author);
	}
	email_of(c->committer, mail, sizeof(mail));
	if (mail[0])
		emit2(e, "committer:", 10, mail, strlen(mail), c->committer);
	for (size_t i = 0; i < r->nr_authors; i++) {
		const struct sm_author_rule *a = &r->authors[i];
		const char *who = sm_author_rule_who(a, c);
		char role[32], first[32], detail[sizeof(e->buf)];
		size_t n = 0;

		if (!who)
			continue;
		for (size_t k = 0; a->role[k] && k + 1 < sizeof(role); k++)
			role[k] = (char)tolower((unsigned char)a->role[k]), role[k + 1] = '\0';
		while (a->pattern[n] && isalnum((unsigned char)a->pattern[n]) && n + 1 < sizeof(first))
			first[n] = (char)tolower((unsigned char)a->pattern[n]), n++;
		first[n] = '\0';
		/* the text only when it is shown (emitf writes its name into e->buf) */
		if (e->want_detail)
			sm_author_rule_describe(a, who, detail, sizeof(detail));
		emitf(e, e->want_detail ? detail : NULL, "person:%s:%s", role, first);
	}
}

static int contains_ci(const char *hay, const char *needle)
{
	return hay && strcasestr(hay, needle) != NULL;
}

static void trailer_features(struct emitter *e, const struct sm_commit *c)
{
	unsigned cc = 0, sob = 0;

	for (size_t i = 0; i < c->nr_trailers; i++) {
		const struct sm_trailer *t = &c->trailers[i];
		char key[32];
		size_t n = 0;

		for (; t->key[n] && n + 1 < sizeof(key); n++)
			key[n] = (char)tolower((unsigned char)t->key[n]);
		key[n] = '\0';
		if (!strcmp(key, "cc")) {
			if (!contains_ci(t->value, "stable@"))
				cc++;
			continue;
		}
		if (!strcmp(key, "signed-off-by"))
			sob++;
		emit2(e, "trailer:", 8, key, n, NULL);
		if (!strcmp(key, "reported-by") || !strcmp(key, "reported-and-tested-by")) {
			if (contains_ci(t->value, "syzbot") || contains_ci(t->value, "syzkaller"))
				emits(e, "reported-by:syzbot", t->value);
			else if (contains_ci(t->value, "kernel test robot") ||
				 contains_ci(t->value, "lkp@intel.com"))
				emits(e, "reported-by:robot", t->value);
			else
				emits(e, "reported-by:person", t->value);
		} else if (!strcmp(key, "link") || !strcmp(key, "closes") ||
			   !strcmp(key, "bugzilla") || !strcmp(key, "buglink")) {
			if (contains_ci(t->value, "bugzilla") || contains_ci(t->value, "syzkaller") ||
			    contains_ci(t->value, "/bug") || contains_ci(t->value, "/issues/") ||
			    strcmp(key, "link"))
				emits(e, "link:bug", t->value);
		}
	}
	if (c->nr_trailers)
		emits(e, cc == 0 ? "cc:0" : cc <= 2 ? "cc:1-2" : "cc:3+", NULL);
	if (sob >= 3)
		emits(e, "signed-off-by:3+", "three or more sign-offs");
}

static void tag_features(struct emitter *e, const struct sm_commit *c)
{
	int tag = 0, ranged = 0;

	for (size_t i = 0; i < c->nr_stable; i++) {
		const struct sm_stable_tag *t = &c->stable[i];

		if (t->noautosel)
			emits(e, "stable-noautosel", t->line);
		else if (!t->prereq_sha)
			tag = 1;
		if (t->prereq_sha)
			emits(e, "stable-prereq", t->line);
		if (t->kind != SM_STABLE_ALL && !t->noautosel)
			ranged = 1;
	}
	if (tag || (c->nr_stable && !c->stable[0].noautosel))
		emits(e, "stable-tag", c->stable[0].line);
	if (ranged)
		emits(e, "stable-tag:range", c->stable[0].line);
	for (size_t i = 0; i < c->nr_fixes; i++) {
		/* a short id or an unquoted subject still names the commit fixed */
		if (sm_fixes_names_commit(&c->fixes[i]))
			emits(e, "fixes-tag", c->fixes[i].line);
		if (c->fixes[i].problem)
			emits(e, "fixes-malformed", c->fixes[i].line);
		if (i == 1)
			emits(e, "fixes-tag:many", "more than one Fixes: tag");
	}
	if (c->reverts_sha)
		emits(e, "revert", c->reverts_sha);
	if (c->upstream_sha)
		emits(e, "backport", c->upstream_sha);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void diff_features(struct emitter *e, const struct sm_rules *r, const struct sm_commit *c)
{
	const struct sm_diffstat *d = &c->diff;
	unsigned lines = d->added + d->removed;
	int headers = 1, build = 1, tests = 1;
	char detail[64];

	if (!c->has_diff)
		return;		/* the model's "missing diff" stands for it */
	if (!d->from_stat)
		emits(e, "diff:text", NULL);
	emitf(e, NULL, "diff:lines:%s", lines <= 1 ? "1" : lines <= 3 ? "2-3" : lines <= 10 ? "4-10" :
	      lines <= 30 ? "11-30" : lines <= 100 ? "31-100" : lines <= 300 ? "101-300" : "301+");
	emitf(e, NULL, "diff:files:%s", d->files <= 1 ? "1" : d->files == 2 ? "2" :
	      d->files <= 5 ? "3-5" : "6+");
	snprintf(detail, sizeof(detail), "%u line%s changed", lines, lines == 1 ? "" : "s");
	if (lines > (unsigned)r->t.max_lines)
		emits(e, "too-large", detail);
	else if (lines <= (unsigned)r->t.tiny_lines)
		emits(e, "tiny-diff", detail);
	if (!d->removed)
		emits(e, "diff:adds-only", "only adds lines");
	else if (!d->added)
		emits(e, "diff:removes-only", "only removes lines");
	for (size_t i = 0; i < c->nr_files; i++) {
		const char *p = c->files[i].path, *s1 = strchr(p, '/'), *s2;
		const char *b = base_name(p);
		size_t bl = strlen(b);

		if (sm_path_is_cut(p)) {
			/* --stat cut a long path's head: its directories are unknown */
		} else if (s1) {
			emit2(e, "diff:top:", 9, p, (size_t)(s1 - p), NULL);
			s2 = strchr(s1 + 1, '/');
			if (s2)
				emit2(e, "diff:dir:", 9, p, (size_t)(s2 - p), NULL);
		} else {
			emits(e, "diff:top:(root)", NULL);
		}
		if (!(bl > 2 && b[bl - 2] == '.' && b[bl - 1] == 'h'))
			headers = 0;
		if (strcmp(b, "Kconfig") && strcmp(b, "Makefile") && strcmp(b, "Kbuild") &&
		    !starts_with(b, "Kconfig.") && !starts_with(b, "Makefile."))
			build = 0;
		if (!starts_with(p, "tools/testing/") && !strstr(p, "selftests/"))
			tests = 0;
	}
	if (c->nr_files && headers)
		emits(e, "diff:headers-only", "changes headers only");
	if (c->nr_files && build)
		emits(e, "diff:build-only", "changes Kconfig/Makefiles only");
	if (c->nr_files && tests)
		emits(e, "diff:tests-only", "changes selftests only");
	if (d->files && d->doc_files == d->files)
		emits(e, "docs-only", "changes documentation only");
	if (d->new_files)
		emits(e, "diff:new-file", "adds a file");
	if (d->deleted_files)
		emits(e, "diff:deleted-file", "deletes a file");
	if (sm_diff_adds_device_ids_only(d)) {
		snprintf(detail, sizeof(detail), "adds %u device-ID table entr%s", d->id_entries,
			 d->id_entries == 1 ? "y" : "ies");
		emits(e, "device-id", detail);
	}
	if (d->added_checks)
		emits(e, "diff:added-check", "adds an if () check");
	if (d->added_error_returns)
		emits(e, "diff:added-error-return", "adds an error return or goto");
}

struct kw_ctx {
	struct emitter *e;
	const struct sm_rules *r;
};

static void keyword_feature(void *ctx, size_t rule, int in_subject, const char *match, size_t len)
{
	struct kw_ctx *k = ctx;
	const char *id = k->r->keywords[rule].id;
	char detail[96];

	detail[0] = '\0';
	if (k->e->want_detail)
		sm_keyword_describe(detail, sizeof(detail), in_subject, match, len);
	emit2(k->e, "keyword:", 8, id, strlen(id), detail);
	if (in_subject)
		emit2(k->e, "subject-keyword:", 16, id, strlen(id), detail);
}

void sm_features_thread_release(void)
{
	free(tl_emitter);
	tl_emitter = NULL;
}

static void extract(const struct sm_rules *r, const struct sm_commit *c, sm_feature_fn fn,
		    void *ctx, int want_detail, const uint64_t *known)
{
	struct emitter *e = tl_emitter;
	struct kw_ctx kw;

	if (!e) {
		/* one per thread, kept: the seen table is too big for the stack */
		e = tl_emitter = xcalloc(1, sizeof(*e));
	}
	e->fn = fn;
	e->ctx = ctx;
	e->want_detail = want_detail;
	e->known = known;
	e->nr_seen = 0;
	if (++e->gen == 0) {
		memset(e->seen, 0, sizeof(e->seen));
		e->gen = 1;
	}
	tag_features(e, c);
	trailer_features(e, c);
	kw.e = e;
	kw.r = r;
	sm_keywords_each(r, c, keyword_feature, &kw);
	subject_features(e, c);
	body_features(e, c);
	people_features(e, r, c);
	diff_features(e, r, c);
}

void sm_features_extract(const struct sm_rules *r, const struct sm_commit *c, sm_feature_fn fn,
			 void *ctx)
{
	extract(r, c, fn, ctx, 1, NULL);
}

void sm_features_extract_known(const struct sm_rules *r, const struct sm_commit *c,
			       const uint64_t *known, int want_detail, sm_feature_fn fn,
			       void *ctx)
{
	extract(r, c, fn, ctx, want_detail, known);
}

int sm_feature_is_open(const char *name, size_t len)
{
	static const char *const open[] = { "s:", "s2:", "b:", "b2:", "prefix:", "prefix1:",
					    "author:", "author-domain:", "committer:",
					    "diff:top:", "diff:dir:", "trailer:" };

	for (size_t i = 0; i < ARRAY_SIZE(open); i++) {
		size_t n = strlen(open[i]);

		if (len >= n && !memcmp(name, open[i], n))
			return 1;
	}
	return 0;
}

static int name_starts(const char *name, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(name, prefix, n);
}

static int name_is(const char *name, size_t len, const char *s)
{
	return strlen(s) == len && !memcmp(name, s, len);
}

void sm_feature_describe(const char *name, size_t len, const char *detail, struct strbuf *out)
{
	static const struct {
		const char *prefix, *what;
	} kinds[] = {
		{ "s2:", "words \"%.*s\" in the subject" }, { "s:", "word \"%.*s\" in the subject" },
		{ "b2:", "words \"%.*s\" in the message" }, { "b:", "word \"%.*s\" in the message" },
		{ "prefix:", "subsystem %.*s" }, { "prefix1:", "subsystem %.*s" },
		{ "author:", "author %.*s" }, { "author-domain:", "author at %.*s" },
		{ "committer:", "committer %.*s" }, { "diff:top:", "touches %.*s/" },
		{ "diff:dir:", "touches %.*s/" }, { "diff:lines:", "%.*s lines changed" },
		{ "diff:files:", "%.*s files changed" }, { "trailer:", "has a %.*s: trailer" },
		{ "body:words:", "%.*s words of explanation" }, { "cc:", "%.*s Cc: trailers besides stable" },
	};

	if (detail && *detail) {
		strbuf_addstr(out, detail);
		return;
	}
	/* the buckets of one */
	if (name_is(name, len, "diff:files:1") || name_is(name, len, "diff:lines:1")) {
		strbuf_addstr(out, name[5] == 'f' ? "1 file changed" : "at most 1 line changed");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].prefix);

		if (len >= n && !memcmp(name, kinds[i].prefix, n)) {
			strbuf_addf(out, kinds[i].what, (int)(len - n), name + n);
			return;
		}
	}
	strbuf_add(out, name, len);
}

enum sm_feature_part sm_feature_part(const char *name, size_t len)
{
	if (name_starts(name, len, "diff:") || name_is(name, len, "tiny-diff") ||
	    name_is(name, len, "too-large") || name_is(name, len, "docs-only") ||
	    name_is(name, len, "device-id"))
		return SM_PART_DIFF;
	if (name_starts(name, len, "trailer:") || name_starts(name, len, "reported-by:") ||
	    name_starts(name, len, "link:") || name_starts(name, len, "cc:") ||
	    name_starts(name, len, "signed-off-by:") || name_starts(name, len, "fixes-") ||
	    name_starts(name, len, "stable-") || name_starts(name, len, "person:"))
		return SM_PART_TRAILERS;
	if (name_starts(name, len, "author:") || name_starts(name, len, "author-domain:") ||
	    name_starts(name, len, "committer:"))
		return SM_PART_PEOPLE;
	return SM_PART_TEXT;
}

unsigned sm_commit_missing_parts(const struct sm_commit *c)
{
	unsigned m = 0;

	if (!c->has_diff)
		m |= 1u << SM_PART_DIFF;
	if (!c->nr_trailers)
		m |= 1u << SM_PART_TRAILERS;
	if (!c->author)
		m |= 1u << SM_PART_PEOPLE;
	return m;
}

const char *sm_feature_part_name(enum sm_feature_part part)
{
	static const char *const names[] = { "text", "diff", "trailers", "author" };

	return part < SM_NR_PARTS ? names[part] : "?";
}
