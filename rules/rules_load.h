/* rules_load: the rule data files, loaded and compiled (internal to rules/). */
#ifndef SM_RULES_LOAD_H
#define SM_RULES_LOAD_H
#include "rules/classify.h"
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

struct sm_keyword_rule {
	char *id;		/* "use-after-free" */
	int weight;		/* may be negative ("cleanup") */
	char *pattern;		/* pcre2 syntax, matched with word boundaries, caselessly */
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
	int docs_only, whitespace_only, comment_only, device_id;
	int subject_bonus_pct;		/* extra % of a keyword's weight when in the subject */
	int manual_only_cap;		/* score cap for noautosel commits */
};

struct sm_rules {
	char *dir;
	struct sm_keyword_rule *keywords;
	size_t nr_keywords, alloc_keywords;
	pcre2_code *keywords_re;	/* all keywords, one alternative each, tagged with (*MARK:n) */
	struct sm_author_rule *authors;
	size_t nr_authors, alloc_authors;
	struct sm_thresholds t;
};

#endif
