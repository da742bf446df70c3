/* format.h: internals shared by the gitnotes/ files (not for other areas). */
#ifndef SM_GITNOTES_FORMAT_H
#define SM_GITNOTES_FORMAT_H
#include "gitnotes/notes.h"

/* One line of a note, without its '\n'. */
struct sm_line {
	const char *s;
	size_t len;
};

/* Parses the block starting at lines[start] ("Review: ..."); on success
 * fills r (caller releases) and sets *end to the line after the block.
 * -1 when the lines are not a well-formed block (nothing to release). */
int sm_review_parse_block(const struct sm_line *lines, size_t nr, size_t start,
			  struct sm_review *r, size_t *end);
/* A field's value as stored: one line, trimmed, terminal controls masked
 * ("" for NULL). */
void sm_review_field_value(const char *value, struct strbuf *out);
/* The Message-ID as stored: one line, trimmed, without <>. */
void sm_review_message_id(const char *in, struct strbuf *out);
/* The comment as stored: trailing blanks of lines dropped, blank lines at
 * either end dropped, runs of blank lines made one, terminal controls
 * other than tab masked (strbuf_add_masked). */
void sm_comment_normalize(const char *comment, struct strbuf *out);

#endif
