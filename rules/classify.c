/* classify: the rules applied to one parsed commit. The weights and the
 * verdict limits are data (rules/thresholds.rules); this file only says
 * which facts of a commit each rule looks at. */
#include "rules/rules_load.h"
#include "rules/model.h"
#include "rules/features.h"
#include "rules/device_ids.h"
#include "rules/version.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int have_tree(const struct sm_tree_ctx *tree)
{
	return tree && tree->version.major;
}

/* weighted 0 (the model weighs the tags itself): only the notes, the veto
 * and manual_only. */
static void classify_stable_tags(const struct sm_rules *r, const struct sm_commit *c,
				 const struct sm_tree_ctx *tree, struct sm_verdict *v, int weighted)
{
	int counted = 0, wanted = 0, unwanted = 0;
	char spec[96], tv[32], av[32];

	for (size_t i = 0; i < c->nr_stable; i++) {
		const struct sm_stable_tag *t = &c->stable[i];

		sm_stable_tag_trees(t, spec, sizeof(spec));
		if (t->noautosel) {
			v->manual_only = 1;
			if (weighted)
				sm_verdict_add(v, "stable-noautosel", counted ? 0 : r->t.stable_tag,
					       "%s: stable material, but never to be picked automatically",
					       t->address);
			counted = 1;
		} else if (t->kind == SM_STABLE_UNPARSED) {
			if (weighted)
				sm_verdict_add(v, "stable-tag-unparsed", counted ? 0 : r->t.stable_tag,
					       "Cc: %s with a version spec stablemate cannot read: \"%s\"",
					       t->address, t->comment);
			counted = 1;
		} else if (!t->prereq_sha) {
			if (weighted)
				sm_verdict_add(v, "stable-tag", counted ? 0 : r->t.stable_tag,
					       "Cc: %s (%s)%s%s", t->address, spec,
					       t->comment[0] ? ": " : "", t->comment);
			counted = 1;
		}
		if (t->prereq_sha)
			sm_verdict_add(v, "stable-prereq", 0, "apply %s%s%s first (%s)", t->prereq_sha,
				       t->prereq_subject ? " " : "",
				       t->prereq_subject ? t->prereq_subject : "", spec);
		if (t->condition && !t->prereq_sha)
			sm_verdict_add(v, "stable-condition", 0, "tag says: %s", t->condition);
		if (!have_tree(tree))
			continue;
		switch (sm_stable_tag_wants(t, &tree->version)) {
		case 1:
			wanted = 1;
			if (t->adjust_upto.major &&
			    sm_version_cmp_tree(&tree->version, &t->adjust_upto) <= 0)
				sm_verdict_add(v, "needs-adjustment", 0,
					       "the tag says the backport needs adjusting for <= %s",
					       sm_version_str(&t->adjust_upto, av, sizeof(av)));
			break;
		case 0:
			unwanted = 1;
			break;
		default:
			break;
		}
	}
	if (!counted && c->nr_stable && weighted) {
		/* Only prerequisite lines: the commit itself is still tagged. */
		sm_verdict_add(v, "stable-tag", r->t.stable_tag, "Cc: %s with prerequisites",
			       c->stable[0].address);
	}
	if (have_tree(tree) && unwanted && !wanted)
		sm_verdict_veto(v, "tree-out-of-range",
				"the stable tag asks for %s; %s is outside it",
				sm_stable_tag_trees(&c->stable[0], spec, sizeof(spec)),
				sm_version_str(&tree->version, tv, sizeof(tv)));
}

static void classify_fixes(const struct sm_rules *r, const struct sm_commit *c,
			   struct sm_verdict *v)
{
	int counted = 0;

	for (size_t i = 0; i < c->nr_fixes; i++) {
		const struct sm_fixes_tag *f = &c->fixes[i];

		if (!sm_fixes_names_commit(f))
			sm_verdict_add(v, "fixes-malformed", counted ? 0 : r->t.fixes_malformed,
				       "malformed Fixes: %s (%s)", f->line, f->problem);
		else if (f->problem)	/* a short id, an unquoted subject: still a fix of it */
			sm_verdict_add(v, "fixes-tag", counted ? 0 : r->t.fixes,
				       "Fixes: %s (\"%s\"; %s)", f->sha, f->subject ? f->subject : "",
				       f->problem);
		else
			sm_verdict_add(v, "fixes-tag", counted ? 0 : r->t.fixes,
				       "Fixes: %s (\"%s\")", f->sha, f->subject ? f->subject : "");
		counted = 1;
	}
}

static _Thread_local pcre2_match_data *keyword_md;

/* The rules that may match at text[p] (see sm_rules.starts), or NULL.
 * The caller only asks where no word byte precedes. */
static inline const unsigned short *rules_at(const struct sm_rules *r, const unsigned char *t,
					     size_t p, size_t len)
{
	unsigned char a = r->lower[t[p]], b = p + 1 < len ? r->lower[t[p + 1]] : 0;
	unsigned short at;

	if (!a || a > 127 || !b || b > 127)
		at = r->start1[a];
	else if (r->starts3[a][b] && p + 2 < len && t[p + 2] && t[p + 2] < 128)
		at = r->third[r->starts3[a][b]][r->lower[t[p + 2]]];
	else
		at = r->starts[a][b];
	return at ? &r->start_rules[at] : NULL;
}

/* What the rules say of a word, per thread: a word and the byte after it
 * ("the ") that no rule of its start list matches even partially cannot
 * begin a match at all, whatever follows (partial matching, as
 * compute_start_table uses it); one that a rule matches completely,
 * without reading past that byte, is that rule's match whatever follows
 * ("fix ", "crash,"), as long as no rule before it in the list matches
 * even partially. Most words of a message are one or the other, and the
 * same ones again and again, so pcre2 is called only for the rest (a
 * phrase's first word: "use " of "use after free"). Keyed by the word's
 * bytes, case folded (the patterns are caseless); a slot holds one word,
 * the last one asked for there: it only ever saves work, the answer is
 * the same. */
#define WORD_CACHE_SLOTS 4096
#define WORD_CACHE_KEY 16	/* bytes: a word of up to 15 and the byte after */

enum word_state {
	WORD_NONE,	/* no rule of the list begins here */
	WORD_HIT,	/* list[at] matches [from, to) of the key, whatever follows */
	WORD_TRY,	/* list[0..at) cannot match here; try list[at..] on the text */
};

struct word_slot {
	uint64_t key[2];	/* its bytes, case folded, 0 after the end */
	uint32_t len;		/* of key, 0: empty */
	uint8_t state;		/* enum word_state */
	uint8_t at;		/* an index into the start list */
	uint8_t from, to;	/* WORD_HIT: the match, relative to the word */
};

struct word_cache {
	unsigned long serial;	/* the sm_rules it holds words of, 0: none */
	struct word_slot slots[WORD_CACHE_SLOTS];
};

static _Thread_local struct word_cache *word_cache;

/* ASCII upper case folded to lower case in all eight bytes of x at once
 * (no sum carries out of its byte: each stays below 0x100). */
static inline uint64_t fold8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t low7 = x & ~high;
	uint64_t from_a = low7 + ones * (0x80 - 'A');		/* bit 7: >= 'A' */
	uint64_t past_z = low7 + ones * (0x80 - 'Z' - 1);	/* bit 7: > 'Z' */

	return x | ((from_a & ~past_z & ~x & high) >> 2);
}

/* The cache key of t[p..p + n), n <= WORD_CACHE_KEY: its bytes case
 * folded, zero after n, as two words (in the machine's byte order: keys
 * are only compared and hashed). Whole loads, no loop a byte. */
static void word_key(const unsigned char *t, size_t p, size_t len, size_t n, uint64_t key[2])
{
	/* keep + WORD_CACHE_KEY - n: n bytes of 0xff, then zeros */
	static const unsigned char keep[2 * WORD_CACHE_KEY] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	unsigned char buf[WORD_CACHE_KEY];
	uint64_t m[2];

	if (p + WORD_CACHE_KEY <= len) {
		memcpy(buf, t + p, WORD_CACHE_KEY);
	} else {
		memset(buf, 0, WORD_CACHE_KEY);
		memcpy(buf, t + p, len - p);
	}
	memcpy(key, buf, WORD_CACHE_KEY);
	memcpy(m, keep + WORD_CACHE_KEY - n, WORD_CACHE_KEY);
	key[0] = fold8(key[0]) & m[0];
	key[1] = fold8(key[1]) & m[1];
}

/* What the rules of list say of text[p], a word of n bytes followed by a
 * byte (n < WORD_CACHE_KEY): a copy of its slot. */
static struct word_slot word_lookup(const struct sm_rules *r, const unsigned short *list,
				    const unsigned char *t, size_t p, size_t len, size_t n)
{
	struct word_cache *wc = word_cache;
	struct word_slot *s;
	uint64_t key[2], h;

	if (!wc || wc->serial != r->serial) {
		if (!wc)
			wc = word_cache = xmalloc(sizeof(*wc));
		memset(wc, 0, sizeof(*wc));
		wc->serial = r->serial;
	}
	n++;	/* the byte after the word */
	word_key(t, p, len, n, key);
	h = (key[0] ^ (key[1] * 0xc2b2ae3d27d4eb4full)) * 0x9e3779b97f4a7c15ull;
	s = &wc->slots[h >> 52];
	if (s->len == n && s->key[0] == key[0] && s->key[1] == key[1])
		return *s;
	s->len = (uint32_t)n;
	s->key[0] = key[0];
	s->key[1] = key[1];
	s->state = WORD_NONE;
	/* PCRE2_PARTIAL_HARD reports a partial match as soon as a path of
	 * the pattern reaches the end of the key, before trying any later
	 * one: so a complete match is one no text after the key can change,
	 * and no match is none on any text. */
	for (uint8_t i = 0; list[i]; i++) {
		int rc = pcre2_jit_match(r->keywords[list[i] - 1].re, t + p, n, 0, PCRE2_PARTIAL_HARD,
					 keyword_md, NULL);

		if (rc == PCRE2_ERROR_PARTIAL) {
			s->state = WORD_TRY;
			s->at = i;
			break;
		}
		if (rc >= 0) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(keyword_md);

			s->state = WORD_HIT;
			s->at = i;
			s->from = (uint8_t)ov[0];
			s->to = (uint8_t)ov[1];
			break;
		}
	}
	return *s;
}

/* The first rule (in file order) matching at text[p], its match in
 * [*from, *to). word: the length of the word that starts at p (0: none). */
static const unsigned short *match_at(const struct sm_rules *r, const unsigned char *t,
				      size_t p, size_t len, size_t word, size_t *from, size_t *to)
{
	const unsigned short *list = rules_at(r, t, p, len);

	if (!list)
		return NULL;
	/* A word of two bytes or more: the key (the word and the byte after
	 * it) holds the three bytes list was chosen by, so the answer
	 * depends on the key alone. */
	if (word >= 2 && p + word < len && word < WORD_CACHE_KEY && r->word_cache) {
		struct word_slot s = word_lookup(r, list, t, p, len, word);

		if (s.state == WORD_NONE)
			return NULL;
		if (s.state == WORD_HIT) {
			*from = p + s.from;
			*to = p + s.to;
			return list + s.at;
		}
		list += s.at;
	}
	/* >= 0: a pattern's own capture groups do not fit the one pair of
	 * keyword_md, and pcre2 says so by returning 0 for a match */
	for (; *list; list++)
		if (pcre2_jit_match(r->keywords[*list - 1].re, t, len, p, 0, keyword_md, NULL) >= 0) {
			PCRE2_SIZE *ov = pcre2_get_ovector_pointer(keyword_md);

			*from = ov[0];
			*to = ov[1];
			return list;
		}
	return NULL;
}

/* Bit i of the result is bit `bit` of byte i of x: the eight bytes'
 * flags gathered into one byte by a multiply (each byte's bit lands on
 * its own bit of the top byte, no carries). */
static inline uint64_t gather8(uint64_t x, unsigned bit)
{
	return (((x >> bit) & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56;
}

/* The scan_class of eight bytes, one a byte, in one word. */
static inline uint64_t classes8(const unsigned char *cls, const unsigned char *t)
{
	return (uint64_t)cls[t[0]] | (uint64_t)cls[t[1]] << 8 | (uint64_t)cls[t[2]] << 16 |
	       (uint64_t)cls[t[3]] << 24 | (uint64_t)cls[t[4]] << 32 | (uint64_t)cls[t[5]] << 40 |
	       (uint64_t)cls[t[6]] << 48 | (uint64_t)cls[t[7]] << 56;
}

/* The scan_class masks of up to 64 bytes of text from t: bit i of
 * *word and *start for t[i]. Branch-free, so the scan pays no
 * misprediction at every word end as a byte loop would. */
static void block_masks(const struct sm_rules *r, const unsigned char *t, size_t n,
			uint64_t *word, uint64_t *start)
{
	uint64_t w = 0, s = 0;
	size_t g = 0;

	for (;; g += 8) {
		uint64_t x;

		if (g + 8 <= n) {
			x = classes8(r->scan_class, t + g);
		} else {
			/* the last few bytes; the rest of the word stays 0 */
			x = 0;
			for (size_t i = g; i < n; i++)
				x |= (uint64_t)r->scan_class[t[i]] << (8 * (i - g));
		}
		w |= gather8(x, 0) << g;
		s |= gather8(x, 1) << g;
		if (g + 8 >= n)
			break;
	}
	*word = w;
	*start = s;
}

/* Calls fn once for each rule that matches text, at its first match, and
 * marks it in seen. A match may start only where no word byte precedes
 * ((?<!\w) in effect) and at a byte some rule can begin with: the text
 * is read 64 bytes at a time into masks of those, and only the positions
 * both allow are tried, in order, as a byte-by-byte scan would. */
static void match_keywords(const struct sm_rules *r, const char *text, const char *written,
			   size_t len, unsigned char *seen, int in_subject, sm_keyword_fn fn,
			   void *ctx)
{
	const unsigned char *t = (const unsigned char *)text;
	size_t next = 0;	/* no match starts before: the end of the last one */
	uint64_t carry = 0;	/* 1: the byte before the block is a word byte */

	if (!keyword_md)
		keyword_md = pcre2_match_data_create(1, NULL);
	for (size_t base = 0; base < len; base += 64) {
		size_t n = len - base < 64 ? len - base : 64;
		uint64_t word, start, cand;

		block_masks(r, t + base, n, &word, &start);
		cand = start & ~((word << 1) | carry);
		carry = word >> 63;
		for (; cand; cand &= cand - 1) {
			size_t i = (size_t)__builtin_ctzll(cand), p = base + i, end, from, to;
			const unsigned short *hit;
			uint64_t rest = ~(word >> i);

			if (p < next)
				continue;
			/* the word that starts at p, which may run past the block */
			end = p + (rest ? (size_t)__builtin_ctzll(rest) : 64 - i);
			if (end == base + 64)
				while (end < len && r->word_byte[t[end]])
					end++;
			hit = match_at(r, t, p, len, end - p, &from, &to);
			if (hit) {
				if (!seen[*hit - 1]) {
					seen[*hit - 1] = 1;
					fn(ctx, (size_t)(*hit - 1), in_subject, written + from, to - from);
				}
				if (to > p)
					next = to;
			}
		}
	}
}

/* The body as the keyword scan reads it (per thread, reused) */
static _Thread_local struct strbuf unwrapped_body = STRBUF_INIT;

/* text[0..len) with each line break a space: wrapping a paragraph at 72
 * columns splits one phrase in six or so ("a NULL\npointer dereference"),
 * and the patterns' spaces are spaces. A blank line becomes two spaces,
 * which no pattern's single space matches. */
static const char *unwrap_lines(const char *text, size_t len)
{
	char *p, *end;

	strbuf_reset(&unwrapped_body);
	strbuf_add(&unwrapped_body, text, len);
	end = unwrapped_body.buf + len;
	for (p = unwrapped_body.buf; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		*p = ' ';
	return unwrapped_body.buf;
}

void sm_keywords_each(const struct sm_rules *r, const struct sm_commit *c, sm_keyword_fn fn,
		      void *ctx)
{
	unsigned char seen[SM_MAX_KEYWORD_RULES];

	memset(seen, 0, r->nr_keywords);
	/* The subject's words, not its subsystem: "locking/lockdep:" says
	 * nothing of a deadlock, "x86/crash:" of a crash (the prefix is a
	 * feature of its own) */
	if (c->subject) {
		size_t at;

		sm_subject_prefix(c->subject, &at);
		match_keywords(r, c->subject + at, c->subject + at, strlen(c->subject + at), seen, 1,
			       fn, ctx);
	}
	/* The closing trailer block (Signed-off-by, Link: URLs, names) says
	 * nothing about the change; the people rules read it instead. */
	if (c->body)
		match_keywords(r, unwrap_lines(c->body, c->body_text_len), c->body,
			       c->body_text_len, seen, 0, fn, ctx);
}

void sm_keyword_describe(char *buf, size_t size, int in_subject, const char *match, size_t len)
{
	int n = snprintf(buf, size, "%s \"%.*s\"", in_subject ? "subject says" : "says",
			 (int)(len > 60 ? 60 : len), match);

	for (char *p = buf; n > 0 && (p = strchr(p, '\n')) != NULL; p++)
		*p = ' ';
}

struct keyword_reasons {
	const struct sm_rules *r;
	struct sm_verdict *v;
};

static void keyword_reason(void *ctx, size_t rule, int in_subject, const char *match, size_t len)
{
	struct keyword_reasons *kr = ctx;
	const struct sm_keyword_rule *k = &kr->r->keywords[rule];
	int w = k->weight;
	char *code = xasprintf("keyword:%s", k->id), text[96] = "";

	if (in_subject && w > 0)
		w += w * kr->r->t.subject_bonus_pct / 100;
	if (!kr->v->codes_only)	/* the batch line prints codes only */
		sm_keyword_describe(text, sizeof(text), in_subject, match, len);
	sm_verdict_add(kr->v, code, w, "%s", text);
	free(code);
}

static void classify_keywords(const struct sm_rules *r, const struct sm_commit *c,
			      struct sm_verdict *v)
{
	struct keyword_reasons kr = { r, v };

	sm_keywords_each(r, c, keyword_reason, &kr);
}

static _Thread_local pcre2_match_data *author_md;

static int rule_matches(const struct sm_author_rule *a, const char *s)
{
	if (!s)
		return 0;
	if (!author_md)
		author_md = pcre2_match_data_create(1, NULL);
	/* >= 0: 0 is a match whose groups did not fit the one pair */
	return pcre2_match(a->re, (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0, 0, author_md, NULL) >= 0;
}

const char *sm_author_rule_who(const struct sm_author_rule *a, const struct sm_commit *c)
{
	if (!strcmp(a->role, "author") || !strcmp(a->role, "any")) {
		if (rule_matches(a, c->author))
			return c->author;
	}
	if (!strcmp(a->role, "committer") || !strcmp(a->role, "any")) {
		if (rule_matches(a, c->committer))
			return c->committer;
	}
	for (size_t j = 0; j < c->nr_trailers; j++)
		if (!strcasecmp(c->trailers[j].key, a->role) && rule_matches(a, c->trailers[j].value))
			return c->trailers[j].value;
	return NULL;
}

void sm_author_rule_describe(const struct sm_author_rule *a, const char *who, char *buf,
			     size_t size)
{
	if (!strcmp(a->role, "any"))
		snprintf(buf, size, "author or committer %s", who);
	else if (!strcmp(a->role, "author") || !strcmp(a->role, "committer"))
		snprintf(buf, size, "%s %s", a->role, who);
	else
		snprintf(buf, size, "%s: %s", a->role, who);
}

static void classify_people(const struct sm_rules *r, const struct sm_commit *c,
			    struct sm_verdict *v)
{
	for (size_t i = 0; i < r->nr_authors; i++) {
		const struct sm_author_rule *a = &r->authors[i];
		const char *who = sm_author_rule_who(a, c);
		char *code, text[200];

		if (!who)
			continue;
		code = xasprintf("person:%s", a->role);
		sm_author_rule_describe(a, who, text, sizeof(text));
		sm_verdict_add(v, code, a->weight, "%s", text);
		free(code);
	}
}

static void diff_vetoes(const struct sm_commit *c, struct sm_verdict *v)
{
	const struct sm_diffstat *d = &c->diff;

	if (!c->has_diff || (d->files && d->doc_files == d->files))
		return;
	/* stable-kernel-rules.rst: no trivial changes (comments, whitespace,
	 * a stray semicolon) whatever the message says, so these reject
	 * outright. */
	if (!d->code_lines_changed && d->comment_lines)
		sm_verdict_veto(v, "comment-only", "changes comments only");
	else if (d->whitespace_only)
		sm_verdict_veto(v, "whitespace-only", "changes whitespace only");
	else if (d->semicolons_only)
		sm_verdict_veto(v, "semicolons-only",
				"changes stray semicolons only (\";;\", \"};\", a \";\" line): the code stays the same");
}

static void classify_diff(const struct sm_rules *r, const struct sm_commit *c,
			  struct sm_verdict *v)
{
	const struct sm_diffstat *d = &c->diff;
	unsigned lines = d->added + d->removed;

	if (!c->has_diff)
		return;
	if (lines > (unsigned)r->t.max_lines)
		sm_verdict_add(v, "too-large", r->t.large, "%u lines changed, over %d", lines,
			       r->t.max_lines);
	else if (lines <= (unsigned)r->t.tiny_lines)
		sm_verdict_add(v, "tiny-diff", r->t.tiny, "%u line%s changed", lines, lines == 1 ? "" : "s");
	if (d->files && d->doc_files == d->files)
		sm_verdict_add(v, "docs-only", r->t.docs_only, "changes documentation only");
	diff_vetoes(c, v);
	if (sm_diff_adds_device_ids_only(d))
		sm_verdict_add(v, "device-id", r->t.device_id,
			       "adds %u device-ID table entr%s (allowed in stable)", d->id_entries,
			       d->id_entries == 1 ? "y" : "ies");
}

/* A series' cover letter tells of the patches after it, and a reply
 * without a diff of the patch it answers; each patch is judged on its own
 * (a reply with a diff, a revised patch inline, is one). */
#define COVER_LETTER "the cover letter of a series ([PATCH 0/N]), not a patch"
#define REPLY "a reply with no diff of its own, not a patch"
#define PULL_REQUEST "a pull request ([GIT PULL]): each commit it names is judged on its own"

#define NOT_A_PATCH \
	"a mail with no diff, no [PATCH] tag and no Signed-off-by: a report or a conversation, not a change"

/* "CVE-2024-26581: netfilter: ...": the kernel CVE team's announcement,
 * which describes a fix (as its JSON record does) without carrying it. */
static int names_cve(const char *subject)
{
	return subject && !strncmp(subject, "CVE-", 4) && isdigit((unsigned char)subject[4]);
}

/* A mail that carries nothing to apply: a build robot's report, a bug
 * report, spam, a question. Whatever its words say, there is no commit
 * to take (a bare commit message, from git or JSON, is no mail). */
static int mail_is_no_patch(const struct sm_commit *c)
{
	return c->is_mail && !c->has_diff && !c->has_patch_tag &&
	       !sm_commit_trailer(c, "Signed-off-by") && !names_cve(c->subject);
}

static void mail_vetoes(const struct sm_commit *c, struct sm_verdict *v)
{
	if (c->is_cover_letter)
		sm_verdict_veto(v, "cover-letter", COVER_LETTER);
	else if (c->is_pull_request)	/* or a reply to one: no patch either */
		sm_verdict_veto(v, "pull-request", PULL_REQUEST);
	else if (c->is_reply && !c->has_diff)
		sm_verdict_veto(v, "reply", REPLY);
	else if (mail_is_no_patch(c))
		sm_verdict_veto(v, "not-a-patch", NOT_A_PATCH);
}

/* "Linux 6.7-rc3" with the Makefile's version as its whole change (or,
 * read without a diff, no words past the subject): the commit that names
 * a release, in every mainline range, with nothing in it a stable tree
 * could take. */
static int is_release_commit(const struct sm_commit *c)
{
	struct sm_version ver;
	int rc;

	if (c->is_mail || !c->subject || !sm_version_from_release_subject(c->subject, &ver, &rc))
		return 0;
	if (!c->has_diff) {
		for (size_t i = 0; c->body && i < c->body_text_len; i++)
			if (!isspace((unsigned char)c->body[i]))
				return 0;
		return 1;
	}
	for (size_t i = 0; i < c->nr_files; i++)
		if (strcmp(c->files[i].path, "Makefile"))
			return 0;
	return c->nr_files > 0;
}

static void commit_vetoes(const struct sm_commit *c, struct sm_verdict *v)
{
	if (c->is_merge)
		sm_verdict_veto(v, "merge", "merge commit");
	else if (is_release_commit(c))
		sm_verdict_veto(v, "release", "%s: the commit that sets the release's version in the Makefile",
				c->subject);
}

/* The verdict with the learned model: its weights score, the hard rules
 * (merge, stable tags, diff vetoes) stay on top. The model's reasons are
 * explained into v, or copied from model when one is given
 * (sm_classify_shared). v is initialised by the caller. */
static void classify_with_model(const struct sm_rules *r, const struct sm_commit *c,
				const struct sm_tree_ctx *tree, const struct sm_verdict *model,
				struct sm_verdict *v)
{
	commit_vetoes(c, v);
	mail_vetoes(c, v);
	classify_stable_tags(r, c, tree, v, 0);
	if (model)
		sm_verdict_add_reasons(v, model);
	else
		sm_model_explain(r, r->model, c, v);
	diff_vetoes(c, v);
	sm_verdict_finish(r, v);
}

void sm_classify_model(const struct sm_rules *r, const struct sm_commit *c,
		       struct sm_verdict *model)
{
	if (r->model && !model->nr_reasons)
		sm_model_explain(r, r->model, c, model);
}

void sm_classify_thread_release(void)
{
	pcre2_match_data_free(keyword_md);
	pcre2_match_data_free(author_md);
	keyword_md = author_md = NULL;
	strbuf_release(&unwrapped_body);
	free(word_cache);
	word_cache = NULL;
	sm_features_thread_release();
}

void sm_classify_shared(const struct sm_rules *r, const struct sm_commit *c,
			const struct sm_tree_ctx *tree, struct sm_verdict *model,
			struct sm_verdict *v)
{
	if (!r->model) {
		sm_classify(r, c, tree, v);
		return;
	}
	if (!model->nr_reasons)
		sm_model_explain(r, r->model, c, model);
	sm_verdict_init(v);
	classify_with_model(r, c, tree, model, v);
}

static void classify(const struct sm_rules *r, const struct sm_commit *c,
		     const struct sm_tree_ctx *tree, struct sm_verdict *v, int codes_only)
{
	sm_verdict_init(v);
	v->codes_only = codes_only;
	if (r->model) {
		classify_with_model(r, c, tree, NULL, v);
		return;
	}
	commit_vetoes(c, v);
	mail_vetoes(c, v);
	classify_stable_tags(r, c, tree, v, 1);
	classify_fixes(r, c, v);
	classify_keywords(r, c, v);
	classify_people(r, c, v);
	classify_diff(r, c, v);
	if (c->reverts_sha)
		sm_verdict_add(v, "revert", 0, "reverts %s", c->reverts_sha);
	sm_verdict_finish(r, v);
}

void sm_classify(const struct sm_rules *r, const struct sm_commit *c,
		 const struct sm_tree_ctx *tree, struct sm_verdict *v)
{
	classify(r, c, tree, v, 0);
}

void sm_classify_codes(const struct sm_rules *r, const struct sm_commit *c,
		       const struct sm_tree_ctx *tree, struct sm_verdict *v)
{
	classify(r, c, tree, v, 1);
}
