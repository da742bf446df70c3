/* reply: trailers and comment of a follow-up mail. */
#include "mail/reply.h"
#include "mail/ident.h"
#include "mail/objection.h"
#include "mail/robot.h"
#include "rules/commit.h"
#include "lib/util.h"
#include "lib/strbuf.h"
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

/* The keys a review can carry, in their canonical spelling. */
static const char *const review_keys[] = {
	"Reviewed-by", "Acked-by", "Tested-by", "Reported-by", "Nacked-by",
	"Suggested-by",
	/* syzbot's answer to "#syz test": its reproducer no longer fires */
	"Reported-and-tested-by",
	"Link", "Closes", "Fixes",
};
#define NR_PERSON_KEYS 7	/* the -by keys come first */

static int is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* "Acked-by: A <a@b> # pci_ids.h": what the ack is for, after the address
 * (the kernel's way, as in stable tags), kept as " # pci_ids.h" after the
 * cleaned person in sb. */
static void add_scope(struct strbuf *sb, const char *v, const char *end)
{
	const char *p = memrchr(v, '>', (size_t)(end - v));

	if (!p)
		return;
	while (++p < end && (*p == ' ' || *p == '\t'))
		;
	if (p + 1 >= end || *p != '#')
		return;
	strbuf_addstr(sb, " #");
	for (p++; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	if (p < end)
		strbuf_addch(sb, ' ');
	for (; p < end; p++)
		strbuf_addch(sb, *p == '\t' ? ' ' : *p);
}

char *sm_review_trailer(const char *line, size_t len, const char *author)
{
	size_t klen = 0, i;
	int spaced;
	const char *v, *end = line + len;
	struct strbuf sb = STRBUF_INIT;

	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	end = line + len;
	while (klen < len && (isalnum((unsigned char)line[klen]) || line[klen] == '-'))
		klen++;
	if (!klen)
		return NULL;
	/* "NAK", "NACK", "Nacked." on a line of its own (maybe with a reason after ':'). */
	if ((klen == 3 && !strncasecmp(line, "NAK", 3)) ||
	    (klen == 4 && !strncasecmp(line, "NACK", 4))) {
		const char *rest = line + klen;

		if (rest == end || (rest + 1 == end && (*rest == '.' || *rest == '!')) ||
		    *rest == ':' || *rest == ',' || *rest == '.') {
			if (*rest == ':') {
				v = rest + 1;
				while (v < end && isspace((unsigned char)*v))
					v++;
				if (v < end && memchr(v, '@', end - v) && memchr(v, '<', end - v)) {
					strbuf_addstr(&sb, "Nacked-by: ");
					strbuf_add(&sb, v, end - v);
					return strbuf_detach(&sb, NULL);
				}
			}
			if (!author || !*author)
				return NULL;
			return xasprintf("Nacked-by: %s", author);
		}
		return NULL;
	}
	/* "Acked By: A <a@b>": a hand-typed -by key with a space for its
	 * hyphen (Greg Rose's acks of 2010) is that key */
	spaced = klen + 4 < len && !strncasecmp(line + klen, " by:", 4);
	if (!spaced && (klen >= len || line[klen] != ':'))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(review_keys); i++)
		if (spaced ? i < NR_PERSON_KEYS && strlen(review_keys[i]) == klen + 3 &&
			     !strncasecmp(line, review_keys[i], klen)
			   : strlen(review_keys[i]) == klen && !strncasecmp(line, review_keys[i], klen))
			break;
	if (i == ARRAY_SIZE(review_keys))
		return NULL;
	v = line + klen + (spaced ? 4 : 1);
	while (v < end && isspace((unsigned char)*v))
		v++;
	if (v == end)
		return NULL;
	if (i < NR_PERSON_KEYS && !memchr(v, '@', end - v))
		return NULL;	/* a -by trailer names a person with an address */
	if (!strcmp(review_keys[i], "Fixes") && !isxdigit((unsigned char)*v))
		return NULL;	/* Fixes: <sha> ("subject") */
	if ((!strcmp(review_keys[i], "Link") || !strcmp(review_keys[i], "Closes")) &&
	    strncmp(v, "http", 4))
		return NULL;
	strbuf_addstr(&sb, review_keys[i]);
	strbuf_addstr(&sb, ": ");
	if (i < NR_PERSON_KEYS) {
		sm_ident_clean(v, (size_t)(end - v), &sb);
		add_scope(&sb, v, end);
	} else
		strbuf_add(&sb, v, end - v);
	return strbuf_detach(&sb, NULL);
}

/* "On Mon, 1 Jan 2024, A wrote:" and its variants that introduce a quote,
 * in the languages of the lists' regulars too ("Le 11/09/2024 à 14:25,
 * Wenliang a écrit :", a no-break space before the colon as French
 * typography has it; Thunderbird's German and Dutch put the name after
 * the verb: "Am 01.01.24 um 10:00 schrieb A:", "Op 1-1-2024 schreef A:";
 * Lotus Notes puts the date after it). */
static int is_attribution(const char *s, size_t len)
{
	static const char *const endings[] = {
		"wrote:", "wrote :", "writes:", "écrit:", "écrit :", "écrit\u00a0:",
		"écrit\u202f:", "schrieb:", "escribió:",
		"scritto:", "schreef:", "skrev:", "kirjoitti:", "napisał:", "napisał(a):",
	};
	static const struct { const char *start, *verb; } name_last[] = {
		{ "Am ", " schrieb " }, { "Op ", " schreef " },
	};

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	for (size_t i = 0; i < ARRAY_SIZE(endings); i++) {
		size_t n = strlen(endings[i]);

		if (len >= n && !strncmp(s + len - n, endings[i], n))
			return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(name_last); i++)
		if (len > 3 && s[len - 1] == ':' && !strncmp(s, name_last[i].start, 3) &&
		    memmem(s, len, name_last[i].verb, strlen(name_last[i].verb)))
			return 1;
	/* Lotus Notes: "A <a@b> wrote on 06/25/2010 04:05:30 PM:" */
	return len > 10 && s[len - 1] == ':' && memmem(s, len, " wrote on ", 10);
}

/* The attributions of mailers that write no verb at the end, when a quote
 * follows on the next line: Sup's "Excerpts from A's message of Thu Nov 26
 * 09:17:15 +0100 2009:" (in the list corpus) and alot's "Quoting A
 * (2023-10-05 03:47:50)", whose words alone could start a sentence of
 * one's own ("Quoting the spec (4.2):"). next: the text after s's line. */
static int is_mailer_attribution(const char *s, size_t len, const char *next)
{
	const char *open;

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (!next || !sm_is_quote_line(next, strcspn(next, "\n")))
		return 0;
	if (len > 14 && !strncmp(s, "Excerpts from ", 14))
		return s[len - 1] == ':' && memmem(s, len, "'s message of ", 14);
	if (len <= 8 || strncmp(s, "Quoting ", 8) || s[len - 1] != ')')
		return 0;
	open = memchr(s, '(', len);	/* the date's, before the closing one */
	return open && isdigit((unsigned char)open[1]);
}

/* The first line of an attribution wrapped before its "wrote:" ("On Fri,
 * 19 Sep 2025 14:11:37 +0200" then "Christian König <...> wrote:", as
 * Claws Mail and Gmail write a long one; Wanderlust's "At Sun, 14 Nov 2010
 * 19:05:02 -0800," then "Joe Perches wrote:") */
static int starts_attribution(const char *s, size_t len)
{
	return len > 3 && (!strncmp(s, "On ", 3) || !strncmp(s, "At ", 3));
}

/* The length of the "Key" of a "Key:" line (letters, digits, '-'),
 * 0 when s[0..len) is not one */
static size_t key_len(const char *s, size_t len)
{
	size_t k = 0;

	while (k < len && (isalnum((unsigned char)s[k]) || s[k] == '-'))
		k++;
	return k && k < len && s[k] == ':' ? k : 0;
}

/* "Key: value", a header's shape */
static int is_header_shaped(const char *s, size_t len)
{
	size_t k = key_len(s, len);

	return k && k + 1 < len && s[k + 1] == ' ';
}

/* David Miller's attribution: the answered mail's "From: A <a@b>" and
 * "Date: ..." lines, a blank line, then the quote. Outlook's block of the
 * same lines is followed by the original unquoted (starts_original).
 * s[0..len) is a "From: " line, next the text after it. */
static int starts_header_attribution(const char *s, size_t len, const char *next)
{
	const char *p = next;
	int headers = 0;

	if (len <= 6 || strncmp(s, "From: ", 6) || !next)
		return 0;
	for (size_t n; *p && is_header_shaped(p, n = strcspn(p, "\n")); p += n + !!p[n])
		headers++;
	for (size_t n; *p && is_blank(p, n = strcspn(p, "\n")); p += n + !!p[n])
		;
	return headers && sm_is_quote_line(p, strcspn(p, "\n"));
}

/* SourceForge's lists put an advert between a rule of dashes and their
 * footer, in one paragraph: comment loses it when it ends so. */
static void drop_list_advert(struct strbuf *comment)
{
	const char *rule = NULL;

	for (const char *p = comment->buf; (p = strchr(p, '-')) != NULL; p++) {
		size_t n = strspn(p, "-");

		if (n >= 20 && (p == comment->buf || p[-1] == '\n') && (!p[n] || p[n] == '\n'))
			rule = p;
		p += n - 1;
	}
	if (rule && !strstr(rule, "\n\n"))
		strbuf_setlen(comment, (size_t)(rule - comment->buf));
}

/* A mailing list's footer under the text (mailman's): a rule of
 * underscores, then "<list> mailing list". s[0..len) is the rule. */
static int starts_list_footer(const char *s, size_t len, const char *next)
{
	size_t n;

	if (len < 10 || strspn(s, "_") < len || !next)
		return 0;
	n = strcspn(next, "\n");
	if (n && next[n - 1] == '\r')
		n--;
	return n > 13 && !strncmp(next + n - 13, " mailing list", 13);
}

/* Where a top-posted reply's own words end: the original follows
 * unquoted, under Outlook's "-----Original Message-----" (or its German,
 * French, Spanish or Italian words; not PGP's "-----BEGIN PGP SIGNED
 * MESSAGE-----") or a header block, a "From: " line with "Sent: " or
 * "Date: " on the next (Outlook on the web, forwarded mail). next: the
 * text after s's line, NULL at the end. */
static int starts_original(const char *s, size_t len, const char *next)
{
	static const char *const words[] = { "original", "ursprüngliche", "origine" };

	if (len >= 10 && !strncmp(s, "-----", 5) && !strncmp(s + len - 5, "-----", 5)) {
		for (size_t w = 0; w < ARRAY_SIZE(words); w++)
			for (size_t i = 5; i + strlen(words[w]) <= len - 5; i++)
				if (!strncasecmp(s + i, words[w], strlen(words[w])))
					return 1;
		return 0;
	}
	if (len <= 6 || strncmp(s, "From: ", 6) || !next)
		return 0;
	return strcspn(next, "\n") > 6 && (!strncmp(next, "Sent: ", 6) || !strncmp(next, "Date: ", 6));
}

/* Outlook on the web's rule above the original's headers */
static int is_rule_line(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && s[i] == '_')
		i++;
	return len >= 10 && i == len;
}

int sm_is_quote_line(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < len && (s[i] == '>' || s[i] == '|') && i < 4;
}

size_t sm_quote_markers_len(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '>' || s[i] == '|'))
		i++;
	return i;
}

/* What the quoted lines so far say about the next line of the reply's own */
struct quote_state {
	int seen;		/* a quoted line came */
	int after_trailers;	/* the last one not blank was a trailer */
	int in_diff;		/* the quote reached the patch's diff */
	size_t line_above;	/* the length of the line just above when it
				 * is a quoted one, else 0 */
};

/* A trailer's "Key:" ("Signed-off-by:", "Closes:"), as a commit message
 * ends: the keys the commit parser knows */
static int is_trailer_line(const char *s, size_t len)
{
	size_t k = key_len(s, len);

	return k && sm_is_known_trailer_key(s, k);
}

static void quoted_line(struct quote_state *q, const char *s, size_t len)
{
	size_t i = sm_quote_markers_len(s, len);

	s += i, len -= i;
	q->seen = 1;
	if (!len)
		return;
	if ((len == 3 && !strncmp(s, "---", 3)) || (len >= 11 && !strncmp(s, "diff --git ", 11)) ||
	    (len >= 6 && !strncmp(s, "--- a/", 6)) || (len >= 3 && !strncmp(s, "@@ ", 3)))
		q->in_diff = 1;
	q->after_trailers = is_trailer_line(s, len);
}

/* A quoted line's wrapped-off end, left unquoted between two quoted lines
 * ("> ... the mtime would be a" / "better" / "> > choice ..."): Lotus Notes
 * and Outlook wrap a long quote so. s[0..len) follows a quoted line of
 * above bytes; next is the text after it. One or two words of a sentence
 * or code (no capital: "better", "*dev)") with no blank line around them
 * are not a reply. */
static int is_wrapped_quote_end(const char *s, size_t len, size_t above, const char *next)
{
	size_t words = 0;

	if (above < 60 || !next || !sm_is_quote_line(next, strcspn(next, "\n")) || len > 30 ||
	    !len || !(islower((unsigned char)s[0]) || strchr("([*\"'_/.", s[0])))
		return 0;	/* ("+1" or "-1" is an answer) */
	for (size_t i = 0; i < len; i++)
		words += !isspace((unsigned char)s[i]) && (!i || isspace((unsigned char)s[i - 1]));
	return words <= 2;
}

/* git's scissors line, "-- >8 --" or "--8<--": what follows is a patch
 * for `git am --scissors`, not the replier's words */
static int is_scissors_line(const char *s, size_t len)
{
	size_t dashes = 0, marks = 0;

	for (size_t i = 0; i < len; i++) {
		if (i + 1 < len && (!strncmp(s + i, ">8", 2) || !strncmp(s + i, "8<", 2))) {
			marks++;
			i++;
		} else if (s[i] == '-') {
			dashes++;
		} else if (s[i] != ' ') {
			return 0;
		}
	}
	return marks && dashes >= 4;
}

/* Where a new version pasted into the reply began, as offsets into the
 * comment: its scissors line, or the sign-off block over its "---" (so a
 * "here is v2" reply keeps the words above the patch, not its
 * Signed-off-by, "---" and diffstat) */
struct pasted_patch {
	size_t scissors;	/* SIZE_MAX: none */
	size_t separator;	/* SIZE_MAX: none */
	size_t trailer_run;	/* where the run of trailer lines just above began */
	int in_trailers;
};

/* Notes where a pasted patch would begin if a diff came under the reply's
 * line s[0..len), which would be added to the comment at offset at. */
static void pasted_patch_line(struct pasted_patch *pp, const char *s, size_t len, size_t at)
{
	if (is_scissors_line(s, len) && pp->scissors == SIZE_MAX)
		pp->scissors = at;
	if (len == 3 && !strncmp(s, "---", 3))
		pp->separator = pp->in_trailers ? pp->trailer_run : at;
	if (!is_trailer_line(s, len)) {
		pp->in_trailers = 0;
	} else if (!pp->in_trailers) {
		pp->in_trailers = 1;
		pp->trailer_run = at;
	}
}

/* The comment without the pasted patch's own text above its diff */
static void cut_pasted_patch(struct strbuf *comment, const struct pasted_patch *pp)
{
	size_t at = pp->scissors != SIZE_MAX ? pp->scissors : pp->separator;

	if (at < comment->len)
		strbuf_setlen(comment, at);
}

/* Lines that start a patch pasted into the reply (trailers inside are the patch's). */
static int starts_patch(const char *s, size_t len)
{
	return (len >= 11 && !strncmp(s, "diff --git ", 11)) ||
	       (len >= 7 && !strncmp(s, "Index: ", 7)) ||
	       (len >= 6 && !strncmp(s, "--- a/", 6));
}

/* Does trailer t name the sender? Only person (-by) trailers name anyone;
 * the others (Fixes:, Link:) are the sender's when there is a sender. */
static int names_sender(const char *t, const char *sender,
			const struct sm_aliases *aliases)
{
	const char *v = strchr(t, ':');
	struct strbuf addr = STRBUF_INIT;
	int same;

	if (!*sender)
		return 0;
	if (!v || !strstr(t, "-by:"))
		return 1;
	sm_ident_address(v + 1, &addr);
	same = sm_aliases_same(aliases, addr.buf, sender);
	strbuf_release(&addr);
	return same;
}

void sm_reply_extract(const char *body, const char *author, struct sm_reply_text *out)
{
	sm_reply_extract_verified(body, author, NULL, out);
}

void sm_reply_extract_verified(const char *body, const char *author,
			       const struct sm_aliases *aliases, struct sm_reply_text *out)
{
	struct strbuf comment = STRBUF_INIT, sender = STRBUF_INIT;
	const char *p = body ? body : "", *nl;
	int in_patch = 0, blank_pending = 0;
	int in_header_attribution = 0;	/* in starts_header_attribution's lines */
	size_t last_line = 0;	/* where the comment's last line starts */
	int last_adjacent = 0, was_adjacent;	/* it is the line just before */
	struct quote_state quote = { 0 };
	struct pasted_patch pasted = { SIZE_MAX, SIZE_MAX, 0, 0 };

	memset(out, 0, sizeof(*out));
	/* A build robot's report: its gist, and no trailers (the tags it
	 * names are for a later fix to carry, not a review of this patch) */
	if (sm_robot_report_gist(author, body, &comment)) {
		out->comment = strbuf_detach(&comment, NULL);
		return;
	}
	sm_ident_address(author, &sender);
	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		size_t len, quote_above;
		const char *next;	/* the text after this line, NULL at the end */
		char *t;

		nl = strchr(p, '\n');
		next = nl ? nl + 1 : NULL;
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && p[len - 1] == '\r')
			len--;
		/* a quoted line just above (is_wrapped_quote_end) */
		quote_above = quote.line_above;
		quote.line_above = 0;
		/* The signature ends the reply's own text, and so does the
		 * unquoted original under a top-posted one. */
		if ((len == 3 && !strncmp(p, "-- ", 3)) || (len == 2 && !strncmp(p, "--", 2)))
			break;
		if (starts_list_footer(p, len, next)) {
			drop_list_advert(&comment);
			break;
		}
		if (starts_header_attribution(p, len, next)) {
			in_header_attribution = 1;
			continue;
		}
		if (in_header_attribution && is_header_shaped(p, len))
			continue;
		in_header_attribution = 0;
		if (starts_original(p, len, next))
			break;
		if (is_rule_line(p, len))
			continue;
		was_adjacent = last_adjacent;
		last_adjacent = 0;
		if (sm_is_quote_line(p, len)) {
			quoted_line(&quote, p, len);
			quote.line_above = len;
			continue;
		}
		if (quote_above && is_wrapped_quote_end(p, len, quote_above, next))
			continue;
		if (starts_patch(p, len)) {
			in_patch = 1;
			cut_pasted_patch(&comment, &pasted);
		}
		if (in_patch)
			continue;
		pasted_patch_line(&pasted, p, len, comment.len);
		if (!out->objection && !quote.in_diff && (!quote.seen || quote.after_trailers) &&
		    sm_is_objection(p, len))
			out->objection = xstrndup(p, len);
		t = sm_review_trailer(p, len, sender.len ? author : NULL);
		if (t) {
			if (names_sender(t, sender.buf, aliases)) {
				if (!strlist_contains(&out->trailers, t))
					strlist_append_nodup(&out->trailers, t);
				else
					free(t);
			} else {
				char *u = sender.len ? xasprintf("%s (sent by %s)", t, author)
						     : xasprintf("%s (sent without a usable From:)", t);

				free(t);
				if (!strlist_contains(&out->unverified, u))
					strlist_append_nodup(&out->unverified, u);
				else
					free(u);
			}
			continue;
		}
		if (is_attribution(p, len) || is_mailer_attribution(p, len, next)) {
			if (was_adjacent && starts_attribution(comment.buf + last_line,
							       comment.len - last_line)) {
				strbuf_setlen(&comment, last_line);
				while (comment.len && comment.buf[comment.len - 1] == '\n')
					strbuf_setlen(&comment, comment.len - 1);
				/* a paragraph break where the quote was */
				blank_pending = comment.len > 0;
			}
			continue;
		}
		if (is_blank(p, len)) {
			blank_pending = comment.len > 0;
			continue;
		}
		if (blank_pending)
			strbuf_addstr(&comment, "\n\n");
		else if (comment.len)
			strbuf_addch(&comment, '\n');
		blank_pending = 0;
		last_line = comment.len;
		last_adjacent = 1;
		strbuf_add(&comment, p, len);
		if (!nl)
			break;
	}
	strbuf_trim(&comment);
	out->comment = strbuf_detach(&comment, NULL);
	strbuf_release(&sender);
}

void sm_reply_text_release(struct sm_reply_text *r)
{
	strlist_clear(&r->trailers);
	strlist_clear(&r->unverified);
	free(r->comment);
	free(r->objection);
	memset(r, 0, sizeof(*r));
}
