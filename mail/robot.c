/* robot: the gist of a kernel test robot report (see robot.h). */
#include "mail/robot.h"
#include "mail/ident.h"
#include "lib/util.h"
#include <string.h>
#include <strings.h>

/* Findings of one section kept; the rest are counted ("[and 3 more]"). */
#define MAX_FINDINGS 20

enum robot_section {
	ROBOT_HEAD,		/* headline, tree, config, compiler */
	ROBOT_NEW_ONES,		/* "All errors (new ones prefixed by >>):" */
	ROBOT_SMATCH,		/* "New smatch warnings:", up to a blank line */
	ROBOT_SKIPPED,		/* "Old smatch warnings:" and the like */
};

struct gist {
	struct strbuf *out;
	enum robot_section section;
	unsigned findings;	/* of the current section */
	int headline;
};

static int is_robot(const char *author)
{
	struct strbuf addr = STRBUF_INIT;
	int robot;

	sm_ident_address(author, &addr);
	robot = istarts_with(author, "kernel test robot") || !strcasecmp(addr.buf, "lkp@intel.com");
	strbuf_release(&addr);
	return robot;
}

static int contains_n(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

/* Where the report's own words end: the signature, the source excerpt
 * ("vim +493 drivers/..."), a performance report's tables, a boot report's
 * reproduction steps. */
static int ends_report(const char *s, size_t len)
{
	return (len == 2 && !memcmp(s, "--", 2)) ||
	       (len == 3 && (!memcmp(s, "-- ", 3) || !memcmp(s, "---", 3))) ||
	       starts_with(s, "vim +") || starts_with(s, "Details are as below") ||
	       starts_with(s, "The kernel config and materials to reproduce");
}

static void add_line(struct gist *g, const char *s, size_t len)
{
	if (g->out->len && g->out->buf[g->out->len - 1] != '\n')
		strbuf_addch(g->out, '\n');
	strbuf_add(g->out, s, len);
}

/* "config: x86_64-allyesconfig (https://download.01.org/...)": the field
 * without the link in parentheses (the report's own link is the note's) */
static void add_field(struct gist *g, const char *s, size_t len)
{
	const char *paren = memmem(s, len, " (http", 6);

	if (!paren)
		paren = memmem(s, len, " (attached as", 13);
	add_line(g, s, paren ? (size_t)(paren - s) : len);
}

static int head_line(struct gist *g, const char *s, size_t len)
{
	static const char *const fields[] = {
		"commit:", "config:", "compiler:", "testcase:", "in testcase:",
	};

	if (!g->headline && (contains_n(s, len, "kernel test robot noticed") ||
			     starts_with(s, "Thank you for the patch!"))) {
		add_line(g, s, len);
		g->headline = 1;
		return 1;
	}
	if (starts_with(s, "[auto build test") || starts_with(s, "[also build test") ||
	    starts_with(s, "[cannot apply to")) {
		add_line(g, s, len);
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (starts_with(s, fields[i])) {
			add_field(g, s, len);
			return 1;
		}
	return 0;
}

/* The findings of a section are over: say how many were left out. */
static void end_section(struct gist *g, enum robot_section next)
{
	if (g->findings > MAX_FINDINGS)
		strbuf_addf(g->out, "\n[and %u more]", g->findings - MAX_FINDINGS);
	g->section = next;
	g->findings = 0;
}

/* A section header: the start of the findings in it. */
static int section_header(struct gist *g, const char *s, size_t len)
{
	enum robot_section next;

	if (ends_with_n(s, len, "(new ones prefixed by >>):") ||
	    ends_with_n(s, len, "(new ones prefixed by >>)"))
		next = ROBOT_NEW_ONES;
	else if (starts_with(s, "New smatch warnings:") || starts_with(s, "smatch warnings:"))
		next = ROBOT_SMATCH;
	else if (starts_with(s, "Old smatch warnings:"))
		next = ROBOT_SKIPPED;
	else
		return 0;
	end_section(g, next);
	if (next != ROBOT_SKIPPED) {
		strbuf_addstr(g->out, "\n\n");
		strbuf_add(g->out, s, len);
	}
	return 1;
}

static void finding(struct gist *g, const char *s, size_t len)
{
	if (++g->findings <= MAX_FINDINGS)
		add_line(g, s, len);
}

int sm_robot_report_gist(const char *author, const char *body, struct strbuf *out)
{
	struct strbuf gist = STRBUF_INIT;
	struct gist g = { .out = &gist, .section = ROBOT_HEAD };
	const char *pos = body, *s;
	size_t len;

	if (!author || !body || !is_robot(author))
		return 0;
	while (next_text_line(&pos, &s, &len)) {
		if (len && s[len - 1] == '\r')
			len--;
		if (ends_report(s, len))
			break;
		if (section_header(&g, s, len))
			continue;
		switch (g.section) {
		case ROBOT_HEAD:
			head_line(&g, s, len);
			break;
		case ROBOT_NEW_ONES:
			if (len >= 2 && !memcmp(s, ">>", 2))
				finding(&g, s, len);
			break;
		case ROBOT_SMATCH:
			if (len)
				finding(&g, s, len);
			else
				end_section(&g, ROBOT_SKIPPED);
			break;
		case ROBOT_SKIPPED:
			break;
		}
	}
	end_section(&g, ROBOT_SKIPPED);
	if (g.headline)
		strbuf_add(out, gist.buf, gist.len);
	strbuf_release(&gist);
	return g.headline;
}
