/* rules_load: the rule data files, loaded and compiled (internal to rules/). */
#ifndef SM_RULES_LOAD_H
#define SM_RULES_LOAD_H
#include "rules/classify.h"
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* Start lists index rules by unsigned short and the classifier keeps a
 * seen-flag per rule on the stack: far more than a rules file needs. */
#define SM_MAX_KEYWORD_RULES 1000

struct sm_model;

struct sm_keyword_rule {
	char *id;		/* "use-after-free" */
	int weight;		/* may be negative ("cleanup") */
	char *pattern;		/* pcre2 syntax, matched with word boundaries, caselessly */
	pcre2_code *re;		/* (?:pattern)(?!\w), anchored, caseless, JIT */
};

struct sm_author_rule {
	char *role;		/* "author", "committer", "any", or a trailer key ("Reported-by") */
	int weight;
	char *pattern;
	pcre2_code *re;
};

struct sm_thresholds {
	int candidate, maybe;		/* verdict score limits */
	int max_lines;			/* check_relevant: larger diffs are suspect */
	int tiny_lines;			/* diffs this small get the tiny-diff weight */
	int stable_tag, fixes, fixes_malformed, tiny, large;
	int docs_only, device_id;
	int subject_bonus_pct;		/* extra % of a keyword's weight when in the subject */
	int manual_only_cap;		/* score cap for noautosel commits */
};

enum { SM_SCAN_WORD = 1, SM_SCAN_START = 2 };

struct sm_rules {
	char *dir;
	struct sm_keyword_rule *keywords;
	size_t nr_keywords, alloc_keywords;
	/* Where a keyword can start: starts[a][b] indexes start_rules, a
	 * 0-terminated list (in file order) of the rules whose pattern can
	 * match text beginning with the lower-case ASCII bytes a, b; 0 is
	 * the empty list. Worked out once by partial matching each pattern,
	 * so it is exact for any pattern, and scanning runs only those rules. */
	unsigned short starts[128][128];
	unsigned short *start_rules;
	size_t nr_start_rules, alloc_start_rules;
	/* start1[c]: the rules that can begin with byte c (lower case): the
	 * list where the next byte is no ASCII to narrow it by (NUL, >= 128,
	 * the end of the text) */
	unsigned short start1[256];
	/* A pair with more than one rule, or one beginning with punctuation,
	 * is narrowed by the third byte: third[starts3[a][b]][c] is the
	 * list for a, b, c (row 0 unused). */
	unsigned short starts3[128][128];
	unsigned char word_byte[256];	/* pcre2's \w in byte mode */
	unsigned char lower[256];	/* ASCII lower case, other bytes as they are */
	/* Per byte, for the keyword scan's block masks (classify.c): a \w
	 * byte; a byte some rule can begin with (start1 not empty). */
	unsigned char scan_class[256];
	unsigned short (*third)[128];
	size_t nr_third;
	struct sm_author_rule *authors;
	size_t nr_authors, alloc_authors;
	struct sm_thresholds t;
	struct sm_model *model;		/* model.rules, NULL: hand weights only */
	/* Names this load for the per-thread cache of words no rule can
	 * begin with (classify.c), which it enables unless a pattern holds
	 * "(?<" (a look-behind sees past the word the cache is keyed by). */
	unsigned long serial;
	int word_cache;
};

/* Calls fn once for each keyword rule matching the subject or the body
 * text (before the trailer block), at its first match. A line break in
 * the body reads as a space, so a phrase wrapped over two lines ("use
 * after\nfree") matches; a blank line still parts words. match points
 * into c->subject or c->body, as written (line breaks and all). */
typedef void (*sm_keyword_fn)(void *ctx, size_t rule, int in_subject, const char *match,
			      size_t len);
void sm_keywords_each(const struct sm_rules *r, const struct sm_commit *c, sm_keyword_fn fn,
		      void *ctx);
/* How a reason quotes a keyword match: 'says "use after free"' ('subject
 * says ...' in the subject), line breaks as spaces, cut at 60 bytes. */
void sm_keyword_describe(char *buf, size_t size, int in_subject, const char *match, size_t len);
/* Whom an authors.rules line matches in c ("Name <email>"), or NULL. */
const char *sm_author_rule_who(const struct sm_author_rule *a, const struct sm_commit *c);
/* What a matching rule says of who, for people: "author or committer Linus
 * Torvalds <...>" (role any), "committer ...", "Reported-by: syzbot ...". */
void sm_author_rule_describe(const struct sm_author_rule *a, const char *who, char *buf,
			     size_t size);

#endif
