/* commit: parse a commit as git or a mail prints it into struct sm_commit. */
#include "rules/commit.h"
#include "rules/patch_subject.h"
#include "rules/line.h"
#include "lib/json.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>

static int line_is(const struct line *l, const char *s)
{
	size_t n = strlen(s);

	return l->len == n && !memcmp(l->p, s, n);
}

static int line_starts(const struct line *l, const char *s)
{
	size_t n = strlen(s);

	return l->len >= n && !memcmp(l->p, s, n);
}

/* "Key: value" with a key we treat as a trailer; sets key/value spans. */
static int trailer_split(const char *p, size_t len, size_t *klen, const char **val)
{
	size_t i = 0;

	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (i)
		return 0;
	if (!len || !isalpha((unsigned char)p[0]))
		return 0;
	while (i < len && (isalnum((unsigned char)p[i]) || p[i] == '-' || p[i] == '_'))
		i++;
	if (i >= len || p[i] != ':')
		return 0;
	if (!sm_is_known_trailer_key(p, i))
		return 0;
	*klen = i;
	*val = p + i + 1;
	return 1;
}

static void add_trailer(struct sm_commit *c, size_t *alloc, const char *key, size_t klen,
			const char *val, size_t vlen, unsigned lineno)
{
	struct sm_trailer *t;
	struct strbuf v = STRBUF_INIT;

	ALLOC_GROW(c->trailers, c->nr_trailers, *alloc);
	t = &c->trailers[c->nr_trailers++];
	t->key = xstrndup(key, klen);
	strbuf_add(&v, val, vlen);
	strbuf_trim(&v);
	t->value = strbuf_detach(&v, NULL);
	t->lineno = lineno;
}

/* Derives stable tags and Fixes: tags from the collected trailers. */
static void interpret_trailers(struct sm_commit *c)
{
	size_t alloc_s = 0, alloc_f = 0;

	for (size_t i = 0; i < c->nr_trailers; i++) {
		struct sm_trailer *t = &c->trailers[i];

		if (!strcasecmp(t->key, "Cc")) {
			struct strbuf line = STRBUF_INIT;
			struct sm_stable_tag tag;

			strbuf_addf(&line, "%s: %s", t->key, t->value);
			if (sm_stable_tag_parse(line.buf, &tag)) {
				tag.lineno = t->lineno;
				ALLOC_GROW(c->stable, c->nr_stable, alloc_s);
				c->stable[c->nr_stable++] = tag;
			}
			strbuf_release(&line);
		} else if (!strcasecmp(t->key, "Fixes")) {
			struct sm_fixes_tag f;

			sm_fixes_tag_parse(t->value, &f);
			f.lineno = t->lineno;
			ALLOC_GROW(c->fixes, c->nr_fixes, alloc_f);
			c->fixes[c->nr_fixes++] = f;
		}
	}
}

static void find_reverts(struct sm_commit *c)
{
	const char *p = c->body ? strstr(c->body, "This reverts commit ") : NULL;
	size_t n = 0;

	if (!p)
		return;
	p += 20;
	while (isxdigit((unsigned char)p[n]))
		n++;
	if (n >= 7)
		c->reverts_sha = xstrndup(p, n);
}

/* Message lines (subject, body) from [start, end), ending at "---" or a diff;
 * indent is stripped from each line (git log prints messages indented). */
static void parse_message_lines(struct sm_commit *c, const char *start, const char *end,
				size_t indent)
{
	struct strbuf subject = STRBUF_INIT, body = STRBUF_INIT;
	const char *pos = start;
	struct line l;
	int in_subject = 1, seen_subject = 0, last_trailer = 0, para_all_trailers = 0;
	int after_blank = 0;
	size_t para_start = 0;
	size_t trailer_alloc = 0;
	unsigned lineno = 0;

	while (next_line(&pos, end, &l)) {
		lineno++;
		if (indent && l.len >= indent && !memcmp(l.p, "    ", indent)) {
			l.p += indent;
			l.len -= indent;
		}
		if (line_is(&l, "---") || line_starts(&l, "diff --git ") || line_starts(&l, "Index: "))
			break;
		if (in_subject) {
			if (is_blank(&l)) {
				if (seen_subject)
					in_subject = 0;
				continue;
			}
			if (subject.len)
				strbuf_addch(&subject, ' ');
			while (l.len && isspace((unsigned char)*l.p))
				l.p++, l.len--;
			strbuf_add(&subject, l.p, l.len);
			seen_subject = 1;
			continue;
		}
		strbuf_add(&body, l.p, l.len);
		strbuf_addch(&body, '\n');
		if (is_blank(&l)) {
			after_blank = 1;
		} else if (after_blank || body.len == l.len + 1) {
			/* a paragraph starts after blank lines, and at the top;
			 * blank lines after the last one do not start another */
			para_start = body.len - l.len - 1;
			para_all_trailers = 1;
			after_blank = 0;
		}
		{
			size_t klen;
			const char *val;

			if (trailer_split(l.p, l.len, &klen, &val)) {
				add_trailer(c, &trailer_alloc, l.p, klen, val,
					    (size_t)(l.p + l.len - val), lineno);
				last_trailer = 1;
				continue;
			} else if (last_trailer && l.len && (l.p[0] == ' ' || l.p[0] == '\t') && !is_blank(&l)) {
				/* A trailer folded onto the next line (mail does that). */
				struct sm_trailer *t = &c->trailers[c->nr_trailers - 1];
				struct strbuf v = STRBUF_INIT;

				strbuf_addstr(&v, t->value);
				strbuf_addch(&v, ' ');
				strbuf_add(&v, l.p, l.len);
				strbuf_trim(&v);
				free(t->value);
				t->value = strbuf_detach(&v, NULL);
				continue;
			} else {
				last_trailer = 0;
			}
		}
		if (!is_blank(&l))
			para_all_trailers = 0;
	}
	strbuf_trim(&subject);
	c->subject = strbuf_detach(&subject, NULL);
	c->body_text_len = para_all_trailers ? para_start : body.len;
	c->body = strbuf_detach(&body, NULL);
	if (istarts_with(c->subject, "Merge ") && !c->is_merge)
		c->is_merge = 1;
	interpret_trailers(c);
	if (!c->upstream_sha)
		c->upstream_sha = sm_find_upstream_ref(c->body, strlen(c->body));
	find_reverts(c);
}

int sm_commit_parse_message(struct sm_commit *c, const char *msg, size_t len)
{
	memset(c, 0, sizeof(*c));
	parse_message_lines(c, msg, msg + len, 0);
	return 0;
}

/* The title of a mail's subject, its tags and "Re:" dropped
 * (sm_patch_subject_parse), and what they say noted in c: a cover letter
 * (numbered 0 of N), a reply, a patch's tag ("PATCH", "RFC", a counter), a
 * pull request's ("GIT PULL", "PULL REQUEST"). */
static char *strip_subject_prefixes(const char *s, struct sm_commit *c)
{
	struct sm_patch_subject ps;

	sm_patch_subject_parse(s, &ps);
	c->is_cover_letter = ps.is_cover;
	c->is_reply = ps.is_reply;
	c->has_patch_tag = ps.is_patch;
	c->patch_nr = ps.nr;
	c->patch_total = ps.total;
	c->is_pull_request = ps.is_pull;
	return xstrdup(s + ps.title_at);
}

static char *header_value(const char *p, size_t len, size_t keylen)
{
	struct strbuf v = STRBUF_INIT;

	strbuf_add(&v, p + keylen, len - keylen);
	strbuf_trim(&v);
	return strbuf_detach(&v, NULL);
}

/* A header line of `git log --format=raw` ("tree <id>", "parent <id>",
 * "author Name <email> 1700000000 +0100", "gpgsig ..." with its lines that
 * go on after a space), read into c. 1 when l was one (its continuation
 * lines consumed from *pos), else 0. */
static int raw_header(struct sm_commit *c, const struct line *l, const char **pos,
		      const char *end, unsigned *parents)
{
	static const char *const keys[] = { "tree ", "parent ", "author ", "committer ",
					    "encoding ", "gpgsig ", "gpgsig-sha256 ",
					    "mergetag " };
	size_t k = 0;

	while (k < ARRAY_SIZE(keys) && !line_starts(l, keys[k]))
		k++;
	if (k == ARRAY_SIZE(keys))
		return 0;
	if (k == 1 && ++*parents > 1)
		c->is_merge = 1;
	if (k == 2 || k == 3) {
		/* the ident up to its closing '>'; the time and zone after it dropped */
		size_t keylen = strlen(keys[k]), n = l->len;
		char **field = k == 2 ? &c->author : &c->committer;

		while (n > keylen && l->p[n - 1] != '>')
			n--;
		free(*field);
		*field = header_value(l->p, n > keylen ? n : l->len, keylen);
	}
	while (*pos < end && **pos == ' ') {	/* a signature's or a tag's lines */
		struct line cont;

		next_line(pos, end, &cont);
	}
	return 1;
}

/* Where git log or git show ends a message they indent by four spaces:
 * at the first line that is neither blank nor indented. What follows is
 * theirs, not the commit's: the notes ("Notes (<ref>):", as
 * notes.displayRef shows them, which `stablemate notes setup` sets: a
 * reviewer's "this leaks" is not the commit's), --name-only's paths,
 * --name-status, --raw, --dirstat, --summary lines, the stat or diff.
 * NULL: none before end. */
static const char *indented_message_end(const char *pos, const char *end)
{
	struct line l;

	while (next_line(&pos, end, &l))
		if (!is_blank(&l) && (l.len < 4 || memcmp(l.p, "    ", 4)))
			return l.p;
	return NULL;
}

/* The length of l's header name ("Delivered-To" of "Delivered-To: x"),
 * or 0 when l is no "Name: value" line. */
static size_t header_name_len(const struct line *l)
{
	size_t k = 0;

	while (k < l->len && (isalnum((unsigned char)l->p[k]) || l->p[k] == '-'))
		k++;
	return k && k < l->len && l->p[k] == ':' ? k : 0;
}

/* Is the block from pos to the first blank line a mail's header block:
 * header lines and their folded continuations only, a Subject: among
 * them? An mbox message whose "From " line was split off starts with
 * whatever header its server put first (Delivered-To:, ARC-Seal:...); a
 * bare message ("ALSA: timer: ...", perhaps a "From: " line under it) has
 * no Subject:. */
static int mail_header_block(const char *pos, const char *end)
{
	struct line l;
	int named = 0;

	while (next_line(&pos, end, &l) && !is_blank(&l)) {
		if (l.p[0] == ' ' || l.p[0] == '\t')
			continue;
		if (!header_name_len(&l))
			return 0;
		named |= line_starts(&l, "Subject:");
	}
	return named;
}

/* An mbox message's first line, "From SENDER DATE": git format-patch's
 * "From <sha> Mon Sep 17 00:00:00 2001", public-inbox's "From mboxrd@z Thu
 * Jan  1 00:00:00 1970", patchwork's "From patchwork Wed Jun  1 20:00:54
 * 2016", marc.info's "From linux-kbuild  Sun Apr 07 23:09:09 2019". The
 * date's time (hh:mm:ss) tells it from a message that begins "From now
 * on, ..." */
static int is_mbox_from_line(const struct line *l)
{
	if (!line_starts(l, "From ") || l->len < 5 + 1 + 8 || l->p[5] == ' ')
		return 0;
	/* git's, its date cut off by some tool */
	if (l->len >= 5 + 40 && is_hex_string(l->p + 5, 40) && (l->len == 45 || l->p[45] == ' '))
		return 1;
	for (size_t i = 6; i + 8 <= l->len; i++)
		if (isdigit((unsigned char)l->p[i]) && isdigit((unsigned char)l->p[i + 1]) &&
		    l->p[i + 2] == ':' && isdigit((unsigned char)l->p[i + 3]) &&
		    isdigit((unsigned char)l->p[i + 4]) && l->p[i + 5] == ':' &&
		    isdigit((unsigned char)l->p[i + 6]) && isdigit((unsigned char)l->p[i + 7]))
			return 1;
	return 0;
}

/* Does text hold a line quoting a mail ("> It leaks.")? */
static int quotes_a_mail(const char *text)
{
	const char *pos = text, *line;
	size_t len;

	while (text && next_text_line(&pos, &line, &len))
		if (len && line[0] == '>')
			return 1;
	return 0;
}

/* Does an "Author:" line come before the next blank line? */
static int author_follows(const char *pos, const char *end)
{
	struct line l;

	while (next_line(&pos, end, &l) && !is_blank(&l))
		if (line_starts(&l, "Author: "))
			return 1;
	return 0;
}

/* A patch pasted whole into a mail's body [pos, end), with its mbox "From "
 * line (is_mbox_from_line: git format-patch's "From <id> Mon Sep 17
 * 00:00:00 2001", or a saved mail's "From stable+bounces-1@vger.kernel.org
 * Thu Mar  5 09:48:57 2026") and a header block under it that has a
 * Subject:. The stable scripts' FAILED and "added to the tree" notices
 * carry the patch so, and a reply may end with the patch it proposes.
 * Where that "From " line starts, or NULL. */
static const char *pasted_patch(const char *pos, const char *end)
{
	const char *p = pos;

	while ((p = memmem(p, (size_t)(end - p), "From ", 5))) {
		const char *next = p;
		struct line l;

		if ((p == pos || p[-1] == '\n') && next_line(&next, end, &l) &&
		    is_mbox_from_line(&l) && mail_header_block(next, end))
			return p;
		p += 5;
	}
	return NULL;
}

char *sm_pasted_patch_subject(const char *text, size_t len, size_t *at)
{
	const char *end = text + len, *diff = sm_find_diff(text, end);
	const char *from = pasted_patch(text, diff ? diff : end), *pos;
	struct strbuf subject = STRBUF_INIT;
	struct line l;
	int in_subject = 0;

	if (!from)
		return NULL;
	*at = (size_t)(from - text);
	pos = from;
	next_line(&pos, end, &l);	/* the mbox "From " line */
	while (next_line(&pos, end, &l) && !is_blank(&l)) {
		if (l.p[0] == ' ' || l.p[0] == '\t') {
			if (in_subject) {	/* a fold is one space, as git am reads it */
				strbuf_addch(&subject, ' ');
				strbuf_add(&subject, l.p, l.len);
			}
			continue;
		}
		in_subject = line_starts(&l, "Subject:");
		if (in_subject)
			strbuf_add(&subject, l.p + 8, l.len - 8);
	}
	squeeze_blanks(subject.buf);
	return strbuf_detach(&subject, NULL);
}

static int parse(struct sm_commit *c, const char *text, size_t len, int may_unwrap);

int sm_commit_parse(struct sm_commit *c, const char *text, size_t len)
{
	return parse(c, text, len, 1);
}

/* may_unwrap: a mail whose body holds a pasted patch is that patch's
 * commit (one level: the pasted patch's own body is taken as it is). */
static int parse(struct sm_commit *c, const char *text, size_t len, int may_unwrap)
{
	const char *end = text + len, *pos = text, *body_start = NULL, *diff, *stat = NULL;
	char *mail_subject = NULL;
	struct strbuf hdr = STRBUF_INIT;
	struct line l;
	int headers = 0, git_format = 0, mail_block, in_reply_to = 0;
	unsigned parents = 0;
	size_t indent = 0;

	memset(c, 0, sizeof(*c));
	while (pos < end && isspace((unsigned char)*pos))
		pos++;
	if (pos >= end)
		return sm_error("empty commit text");

	/* Header block: "commit <sha>" or an mbox's "From <sender> <date>",
	 * then Key: value. */
	{
		const char *save = pos;

		if (next_line(&pos, end, &l)) {
			if (line_starts(&l, "commit ") || is_mbox_from_line(&l)) {
				const char *sha = l.p + (l.p[0] == 'c' ? 7 : 5);
				size_t n = 0;

				while (sha + n < l.p + l.len && isxdigit((unsigned char)sha[n]))
					n++;
				/* git abbreviates to 4 at least; an mbox sender is an
				 * id when it is hex alone (format-patch's) */
				if (l.p[0] == 'c' ? n >= 4 : n >= 7 && (sha + n == l.p + l.len || sha[n] == ' '))
					c->id = xstrndup(sha, n);
				git_format = l.p[0] == 'c';
				headers = 1;
			} else {
				pos = save;
			}
		}
	}
	/* Key: value lines (mail or git headers), folded lines joined. */
	mail_block = !headers && mail_header_block(pos, end);
	for (;;) {
		const char *save = pos;

		if (!next_line(&pos, end, &l))
			break;
		if (is_blank(&l)) {
			if (headers || hdr.len)
				break;
			pos = save;
			break;
		}
		if (git_format && raw_header(c, &l, &pos, end, &parents))
			continue;
		if (!header_name_len(&l)) {
			/* `git log --show-signature` (log.showSignature) puts gpg's
			 * lines ("Primary key fingerprint: ...", an ssh key's
			 * 'Good "git" signature ...') between the commit line and
			 * Author: */
			if (git_format && author_follows(pos, end))
				continue;
			pos = save;
			break;
		}
		/* A bare message whose first line looks like "ALSA: timer: ..." is
		 * not a header block: only known header names start one, unless
		 * the block is a mail's (mail_header_block). */
		strbuf_reset(&hdr);
		strbuf_add(&hdr, l.p, l.len);
		while (pos < end && (*pos == ' ' || *pos == '\t') && !git_format) {
			struct line cont;
			size_t lead = 0;

			/* the fold's blanks are one space, as git am reads
			 * them ("maildir\n\tflags." is "maildir flags.") */
			next_line(&pos, end, &cont);
			while (lead < cont.len && (cont.p[lead] == ' ' || cont.p[lead] == '\t'))
				lead++;
			while (hdr.len && (hdr.buf[hdr.len - 1] == ' ' || hdr.buf[hdr.len - 1] == '\t'))
				strbuf_setlen(&hdr, hdr.len - 1);
			strbuf_addch(&hdr, ' ');
			strbuf_add(&hdr, cont.p + lead, cont.len - lead);
		}
		if (istarts_with(hdr.buf, "Author:") || istarts_with(hdr.buf, "From:")) {
			free(c->author);
			c->author = header_value(hdr.buf, hdr.len, strchr(hdr.buf, ':') - hdr.buf + 1);
		} else if (istarts_with(hdr.buf, "Commit:") && git_format) {
			free(c->committer);	/* a second Commit: wins */
			c->committer = header_value(hdr.buf, hdr.len, 7);
		} else if (istarts_with(hdr.buf, "Subject:")) {
			char *v = header_value(hdr.buf, hdr.len, 8);

			free(mail_subject);	/* a second Subject: wins */
			mail_subject = strip_subject_prefixes(v, c);
			free(v);
		} else if (istarts_with(hdr.buf, "Merge:") && git_format) {
			c->is_merge = 1;
		} else if (istarts_with(hdr.buf, "In-Reply-To:")) {
			in_reply_to = 1;
		} else if (!headers && !mail_block && !istarts_with(hdr.buf, "Date:") &&
			   !istarts_with(hdr.buf, "To:") &&
			   !istarts_with(hdr.buf, "Cc:") && !istarts_with(hdr.buf, "Message-ID:") &&
			   !istarts_with(hdr.buf, "References:") &&
			   !istarts_with(hdr.buf, "MIME-Version:") && !istarts_with(hdr.buf, "Content-") &&
			   !istarts_with(hdr.buf, "Repository:") && !istarts_with(hdr.buf, "Return-Path:") &&
			   !istarts_with(hdr.buf, "Received:") && !istarts_with(hdr.buf, "X-")) {
			pos = save;	/* the message itself starts here */
			break;
		}
		headers = 1;
	}
	strbuf_release(&hdr);
	body_start = pos;

	/* git log/show indent the message by four spaces. */
	if (git_format) {
		const char *p = body_start;

		while (p < end && *p == '\n')
			p++;
		if (end - p >= 4 && !memcmp(p, "    ", 4))
			indent = 4;
	}
	diff = sm_find_diff(body_start, end);
	if (mail_subject && may_unwrap) {
		const char *pasted = pasted_patch(body_start, diff ? diff : end);

		if (pasted) {
			int ret;

			sm_commit_release(c);
			ret = parse(c, pasted, (size_t)(end - pasted), 0);
			c->outer_subject = mail_subject;
			return ret;
		}
	}
	/* No diff: `git log --numstat`/`--stat` lines (or a mail's stat after
	 * "---") still give the sizes and paths. */
	if (!diff) {
		stat = sm_find_stat_block(body_start, end);
		if (stat && git_format && stat > body_start && (stat[0] == ' ' && stat[1] == ' '))
			stat = NULL;
	}
	if (c->is_cover_letter) {
		/* format-patch names the series' tip in a cover's "From <id>" */
		free(c->id);
		c->id = NULL;
	}
	if (mail_subject) {
		c->is_mail = 1;
		/* The mail's Subject is the commit subject; the body is the rest.
		 * A "From:" first in the body names the real author. */
		struct strbuf msg = STRBUF_INIT;
		const char *b = body_start;
		struct line fl;
		const char *save = b;
		/* A patch without a subject takes its body's first paragraph
		 * for one, as git am does; a reply's ("Subject: Re:") stays
		 * empty: its first paragraph is an attribution and a quote */
		int no_subject = !*mail_subject && c->is_reply;

		if (next_line(&b, end, &fl) && line_starts(&fl, "From: ")) {
			free(c->author);
			c->author = xstrndup(fl.p + 6, fl.len - 6);
		} else {
			b = save;
		}
		strbuf_addstr(&msg, no_subject ? "-" : mail_subject);
		strbuf_addstr(&msg, "\n\n");
		strbuf_add(&msg, b, (size_t)((diff ? diff : stat ? stat : end) - b));
		parse_message_lines(c, msg.buf, msg.buf + msg.len, 0);
		strbuf_release(&msg);
		if (no_subject) {
			free(c->subject);
			c->subject = xstrdup("");
		}
		free(mail_subject);
		/* git request-pull's words, whatever the subject says ("[GIT]
		 * Networking"): a pull request, no patch */
		if (c->body && strcasestr(c->body, "are available in the git repository at"))
			c->is_pull_request = 1;
	} else {
		const char *msg_end = diff ? diff : stat ? stat : end, *theirs;

		if (indent && (theirs = indented_message_end(body_start, msg_end)))
			msg_end = theirs;
		parse_message_lines(c, body_start, msg_end, indent);
	}
	if (diff)
		sm_commit_parse_diff(c, diff, (size_t)(end - diff));
	else if (stat)
		sm_commit_parse_stat(c, stat, (size_t)(end - stat));
	/* An answer whose mailer dropped the "Re:": it answers a mail, quotes
	 * it and signs nothing off, and a patch always does */
	if (c->is_mail && in_reply_to && !c->has_diff && quotes_a_mail(c->body) &&
	    !sm_commit_trailer(c, "Signed-off-by"))
		c->is_reply = 1;
	return 0;
}

size_t sm_subject_prefix(const char *s, size_t *words_at)
{
	size_t end = 0, p = 0, len = strlen(s);

	for (;;) {
		size_t q = p;

		if (q < len && s[q] == '(' && end) {
			while (q < len && s[q] != ')')
				q++;
			if (q >= len)
				break;
			end = ++q;
			while (q < len && s[q] == ' ')
				q++;
			p = q;
			continue;
		}
		while (q < len && s[q] != ' ' && s[q] != ':')
			q++;
		if (q < len && s[q] == ':' && q > p && (q + 1 == len || s[q + 1] == ' ')) {
			end = q;
			p = q + 1;
			while (p < len && s[p] == ' ')
				p++;
			continue;
		}
		break;
	}
	*words_at = end ? p : 0;
	return end;
}

void sm_commit_release(struct sm_commit *c)
{
	for (size_t i = 0; i < c->nr_trailers; i++) {
		free(c->trailers[i].key);
		free(c->trailers[i].value);
	}
	free(c->trailers);
	for (size_t i = 0; i < c->nr_stable; i++)
		sm_stable_tag_release(&c->stable[i]);
	free(c->stable);
	for (size_t i = 0; i < c->nr_fixes; i++)
		sm_fixes_tag_release(&c->fixes[i]);
	FREE_ALL(c->fixes, c->id, c->author, c->committer, c->subject, c->outer_subject, c->body,
		 c->upstream_sha, c->reverts_sha);
	for (size_t i = 0; i < c->nr_files; i++)
		free(c->files[i].path);
	free(c->files);
	memset(c, 0, sizeof(*c));
}

void sm_commit_diff_json(const struct sm_commit *c, struct json_writer *w)
{
	const struct sm_diffstat *d = &c->diff;

	if (!c->has_diff) {
		json_null(w, "diff");
		return;
	}
	json_object_begin(w, "diff");
	json_string(w, "from", d->from_stat ? "numstat" : "diff");
	json_int(w, "added", d->added);
	json_int(w, "removed", d->removed);
	json_array_begin(w, "files");
	for (size_t i = 0; i < c->nr_files; i++) {
		const struct sm_diff_file *f = &c->files[i];

		json_object_begin(w, NULL);
		json_string(w, "file", f->path);
		json_int(w, "added", f->added);
		json_int(w, "removed", f->removed);
		if (f->is_new)
			json_bool(w, "new", 1);
		if (f->is_deleted)
			json_bool(w, "deleted", 1);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

void sm_commit_tags_json(const struct sm_commit *c, struct json_writer *w)
{
	char a[32];

	json_array_begin(w, "stable_tags");
	for (size_t i = 0; i < c->nr_stable; i++) {
		const struct sm_stable_tag *t = &c->stable[i];

		json_object_begin(w, NULL);
		JSON_STRINGS(w, "line address kind", t->line, t->address,
			     sm_stable_kind_name(t->kind));
		if (t->kind == SM_STABLE_FROM || t->kind == SM_STABLE_RANGE)
			json_string(w, "from", sm_version_str(&t->from, a, sizeof(a)));
		if (t->kind == SM_STABLE_RANGE || t->kind == SM_STABLE_UPTO || t->kind == SM_STABLE_ONLY)
			json_string(w, "to", sm_version_str(&t->to, a, sizeof(a)));
		json_bool(w, "noautosel", t->noautosel);
		JSON_STRINGS(w, "prereq prereq_subject condition comment", t->prereq_sha,
			     t->prereq_subject, t->condition, t->comment);
		json_object_end(w);
	}
	json_array_end(w);
	json_array_begin(w, "fixes");
	for (size_t i = 0; i < c->nr_fixes; i++) {
		const struct sm_fixes_tag *f = &c->fixes[i];

		json_object_begin(w, NULL);
		JSON_STRINGS(w, "sha subject problem", f->sha, f->subject, f->problem);
		json_object_end(w);
	}
	json_array_end(w);
}
