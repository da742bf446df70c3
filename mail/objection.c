/* objection: does a reply's line ask for the patch not to be applied (see
 * objection.h)? Matched word by word on a lower-cased copy: the grammar
 * is small on purpose, so that "Please drop the blank line." or "we
 * should not drop this check" are no objections. */
#include "mail/objection.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>

/* A line longer than this is prose, not a request */
#define MAX_OBJECTION 120
/* "from 5.10.y and 5.15.y", "for all stable trees" */
#define MAX_SCOPE 24

static const char *const verbs[] = {
	"drop", "don't apply", "do not apply", "don't backport", "do not backport",
	"don't queue", "do not queue", "don't take", "do not take", "don't pick", "do not pick",
};
/* after the object: "don't pick this up", "Please don't pick this change
 * yet." (an answer to the stable queue's "added to the 6.12-stable tree") */
static const char *const particles[] = { "up", "yet" };
/* longest first: "this patch" before "this" */
static const char *const objects[] = {
	"this patch", "this commit", "this change", "this series", "this one", "the patch",
	"the commit", "the series", "these", "them", "this", "it",
};
/* what comes before a SCOPE */
static const char *const scope_words[] = { "from", "for", "in", "to", "into" };
static const char *const whole_sentences[] = {
	"should not be backported", "shouldn't be backported", "should not go to stable",
	"should not go into stable", "shouldn't go to stable",
};

/* Skips word w (and the blank after it) at *p; 1 when it was there, as a
 * whole word. */
static int skip_word(const char **p, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(*p, w, n) || isalnum((unsigned char)(*p)[n]))
		return 0;
	*p += n;
	while (**p == ' ')
		(*p)++;
	return 1;
}

static int skip_one_of(const char **p, const char *const *words, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (skip_word(p, words[i]))
			return 1;
	return 0;
}

/* At the end of the line but for "." and "!" */
static int at_end(const char *p)
{
	while (*p == '.' || *p == '!' || *p == ' ')
		p++;
	return !*p;
}

/* [please] VERB [OBJECT] [up|yet] [from|for|in|to|into SCOPE] */
static int is_request(const char *p)
{
	const char *scope;

	if (!skip_word(&p, "please"))
		skip_word(&p, "pls");
	if (!skip_one_of(&p, verbs, ARRAY_SIZE(verbs)))
		return 0;
	skip_one_of(&p, objects, ARRAY_SIZE(objects));
	while (skip_one_of(&p, particles, ARRAY_SIZE(particles)))
		;
	if (at_end(p))
		return 1;
	if (!skip_one_of(&p, scope_words, ARRAY_SIZE(scope_words)))
		return 0;
	scope = p;
	p += strlen(p);
	while (p > scope && (p[-1] == '.' || p[-1] == '!' || p[-1] == ' '))
		p--;
	return p > scope && (size_t)(p - scope) <= MAX_SCOPE;
}

/* (this|the) (patch|commit|change) SENTENCE, then the end or ". " */
static int is_statement(const char *p)
{
	static const char *const subjects[] = { "patch", "commit", "change" };

	if (!skip_word(&p, "this") && !skip_word(&p, "the"))
		return 0;
	if (!skip_one_of(&p, subjects, ARRAY_SIZE(subjects)))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(whole_sentences); i++) {
		size_t n = strlen(whole_sentences[i]);

		if (!strncmp(p, whole_sentences[i], n))
			return at_end(p + n) || p[n] == '.' || p[n] == '!';
	}
	return 0;
}

int sm_is_objection(const char *line, size_t len)
{
	char low[MAX_OBJECTION + 1];
	size_t n = 0;

	while (len && isspace((unsigned char)*line))
		line++, len--;
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	if (!len || len > MAX_OBJECTION)
		return 0;
	/* lower case; the apostrophe of "don’t" as typed on a phone */
	for (size_t i = 0; i < len; i++) {
		if (i + 2 < len && !memcmp(line + i, "\xe2\x80\x99", 3)) {
			low[n++] = '\'';
			i += 2;
			continue;
		}
		low[n++] = (char)tolower((unsigned char)line[i]);
	}
	low[n] = '\0';
	return is_request(low) || is_statement(low);
}
