/* dashboard: the static site (see dashboard.h for the layout). */
#include "bot/dashboard.h"
#include "bot/state_view.h"
#include "gitnotes/notes.h"
#include "lib/fileio.h"
#include "lib/html.h"
#include "lib/json_read.h"
#include "lib/util.h"
#include "mail/msgid.h"
#include "trees/repo.h"
#include <string.h>

#define DEFAULT_COMMIT_URL "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/commit/?id=%s"
#define DEFAULT_THREAD_URL "https://lore.kernel.org/r/%s"

/* What the pages need of one upstream commit's notes. */
struct page_reviews {
	struct sm_note note;
	unsigned replies;	/* blocks that count as a review (sm_review_counts) */
	unsigned acks;		/* Reviewed-by, Acked-by, Tested-by (and syzbot's
				 * Reported-and-tested-by) trailers */
	unsigned naks;		/* Nacked-by / NAK */
};

struct site {
	const struct sm_dashboard_opts *o;
	struct sm_dashboard_stats *st;
	git_repository *repo;		/* upstream, for the notes */
	const char *notes_ref;
	struct sm_state_view state;
	struct page_reviews *reviews;	/* per scan item, loaded for listed items */
	char **boot;			/* per tree: one-line boot result or NULL */
};

static const char style_css[] =
"body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}\n"
"header{border-bottom:2px solid #335;margin-bottom:1rem}\n"
"h1{font-size:1.5rem;margin:.8rem 0 .2rem}h2{font-size:1.2rem;margin-top:1.6rem}\n"
"table{border-collapse:collapse;width:100%;margin:.5rem 0}\n"
"th,td{border-bottom:1px solid #ddd;padding:.3rem .4rem;text-align:left;vertical-align:top}\n"
"th{background:#eef}code{font-size:.92em}\n"
".candidate td.verdict{color:#060;font-weight:bold}.maybe td.verdict{color:#850}\n"
".reject td.verdict{color:#900}.nak{color:#900;font-weight:bold}\n"
"pre{background:#f6f6f6;padding:.6rem;overflow-x:auto;white-space:pre-wrap}\n"
".review{border-left:3px solid #99c;padding-left:.7rem;margin:1rem 0}\n"
".unverified{color:#900}.muted{color:#666}\n"
"#filter{width:20rem;padding:.3rem;margin:.4rem 0}\n";

/* Progressive enhancement: without script the tables are complete; with
 * it, one box filters their rows by text. */
static const char filter_js[] =
"document.addEventListener('DOMContentLoaded', function () {\n"
"  var tables = document.querySelectorAll('table.cands');\n"
"  if (!tables.length) return;\n"
"  var box = document.createElement('input');\n"
"  box.id = 'filter'; box.type = 'search';\n"
"  box.placeholder = 'filter: subject, id, reason, verdict';\n"
"  tables[0].parentNode.insertBefore(box, tables[0]);\n"
"  box.addEventListener('input', function () {\n"
"    var q = box.value.toLowerCase();\n"
"    tables.forEach(function (t) {\n"
"      t.querySelectorAll('tbody tr').forEach(function (tr) {\n"
"        tr.hidden = q && tr.textContent.toLowerCase().indexOf(q) < 0;\n"
"      });\n"
"    });\n"
"  });\n"
"});\n";

static void page_begin(struct strbuf *p, const char *title, const char *root,
		       const struct sm_dashboard_opts *o, time_t now)
{
	char stamp[64];
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M UTC", &tm);
	strbuf_addstr(p, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			 "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");
	html_escape(p, title);
	strbuf_addf(p, "</title>\n<link rel=\"stylesheet\" href=\"%sstyle.css\">\n"
		       "<script src=\"%sfilter.js\" defer></script>\n</head>\n<body>\n<header>\n"
		       "<h1><a href=\"%sindex.html\">stablemate</a>: ", root, root, root);
	html_escape(p, title);
	strbuf_addstr(p, "</h1>\n<p class=\"muted\">range <code>");
	html_escape(p, o->range ? o->range : "");
	strbuf_addf(p, "</code> of <code>");
	html_escape(p, o->cfg->upstream_repo);
	strbuf_addf(p, "</code>, generated %s</p>\n</header>\n<main>\n", stamp);
}

static void page_end(struct strbuf *p)
{
	strbuf_addstr(p, "</main>\n</body>\n</html>\n");
}

/* tmpl with its one "%s" replaced by the value percent-encoded as lore
 * encodes Message-IDs (the one encoder notes and fetch use too). */
static void add_url(struct strbuf *p, const char *tmpl, const char *value)
{
	const char *s = strstr(tmpl, "%s");
	struct strbuf url = STRBUF_INIT;

	if (!s) {
		strbuf_addstr(&url, tmpl);
	} else {
		strbuf_add(&url, tmpl, (size_t)(s - tmpl));
		sm_msgid_url_escape(value, &url);
		strbuf_addstr(&url, s + 2);
	}
	html_escape(p, url.buf);
	strbuf_release(&url);
}

static int write_page(const struct site *s, const char *rel, const struct strbuf *p)
{
	char *path = xasprintf("%s/%s", s->o->out_dir, rel);
	int ret = write_file_atomic(path, p->buf, p->len);

	free(path);
	return ret;
}

static int listed(const struct sm_scan_tree_result *t)
{
	return !t->present && t->verdict.kind != SM_REJECT;
}

static int item_listed(const struct sm_scan_result *r, const struct sm_scan_item *it)
{
	for (size_t t = 0; t < r->nr_trees; t++)
		if (listed(&it->trees[t]))
			return 1;
	return 0;
}

static int load_reviews(struct site *s, const struct sm_scan_item *it, struct page_reviews *pr)
{
	struct strbuf text = STRBUF_INIT;
	git_oid oid;
	int r;

	if (!s->repo || git_oid_fromstr(&oid, it->id))
		return 0;
	r = sm_notes_read(s->repo, s->notes_ref, &oid, &text);
	if (r < 0) {
		strbuf_release(&text);
		return -1;
	}
	if (r == SM_NOTE_FOUND) {
		sm_note_release(&pr->note);
		sm_note_parse(&pr->note, text.buf);
	}
	strbuf_release(&text);
	for (size_t i = 0; i < pr->note.nr; i++) {
		const struct sm_review *rv = &pr->note.reviews[i];

		if (sm_review_counts(rv))
			pr->replies++;
		for (size_t j = 0; j < rv->trailers.nr; j++) {
			if (sm_trailer_is_nak(rv->trailers.items[j]))
				pr->naks++;
			else if (sm_trailer_is_approval(rv->trailers.items[j]))
				pr->acks++;
		}
	}
	return 0;
}

/* "pass", "regressed: 1 test (bisected: 0003-...)"; NULL without a result. */
static char *load_boot(const struct sm_dashboard_opts *o, const char *tree)
{
	struct strbuf slug = STRBUF_INIT, json = STRBUF_INIT, verdict = STRBUF_INIT,
		      summary = STRBUF_INIT, bisected = STRBUF_INIT, line = STRBUF_INIT;
	char *path;

	if (!o->cfg->state_dir)
		return NULL;
	file_slug(&slug, tree);
	path = xasprintf("%s/boot/%s.json", o->cfg->state_dir, slug.buf);
	if (file_exists(path) && !read_file(path, &json) &&
	    json_get_string(json.buf, json.len, "verdict", &verdict) == JSON_FOUND) {
		strbuf_addstr(&line, verdict.buf);
		if (json_get_string(json.buf, json.len, "summary", &summary) == JSON_FOUND &&
		    summary.len)
			strbuf_addf(&line, ": %s", summary.buf);
		if (json_get_string(json.buf, json.len, "bisected", &bisected) == JSON_FOUND &&
		    bisected.len)
			strbuf_addf(&line, " (first bad patch: %s)", bisected.buf);
	}
	sm_clear_error();
	free(path);
	strbuf_release(&slug);
	strbuf_release(&json);
	strbuf_release(&verdict);
	strbuf_release(&summary);
	strbuf_release(&bisected);
	if (!line.len) {
		strbuf_release(&line);
		return NULL;
	}
	return strbuf_detach(&line, NULL);
}

static void add_mail_state(struct strbuf *p, const struct site *s, const char *up, const char *tree)
{
	unsigned c[SM_MAIL_NR_STATES];
	int any = 0;

	sm_state_view_count(&s->state, up, tree, c);
	if (c[SM_MAIL_SENT]) {
		strbuf_addf(p, "sent to %u", c[SM_MAIL_SENT]);
		any = 1;
	}
	if (c[SM_MAIL_QUEUED]) {
		strbuf_addf(p, "%squeued for %u", any ? ", " : "", c[SM_MAIL_QUEUED]);
		any = 1;
	}
	if (c[SM_MAIL_FAILED]) {
		strbuf_addf(p, "%srefused for %u", any ? ", " : "", c[SM_MAIL_FAILED]);
		any = 1;
	}
	/* the bot's replies withdrawing it (bot/state.h: "<tree>:withdrawn") */
	{
		char *mark = xasprintf("%s:withdrawn", tree);

		sm_state_view_count(&s->state, up, mark, c);
		if (c[SM_MAIL_SENT] + c[SM_MAIL_QUEUED]) {
			strbuf_addf(p, "%s<span class=\"nak\">withdrawn for %u</span>", any ? ", " : "",
				    c[SM_MAIL_SENT] + c[SM_MAIL_QUEUED]);
			any = 1;
		}
		free(mark);
	}
	if (!any)
		strbuf_addstr(p, "<span class=\"muted\">not mailed</span>");
}

static void add_review_count(struct strbuf *p, const struct page_reviews *pr)
{
	if (!pr->replies) {
		strbuf_addstr(p, "<span class=\"muted\">none</span>");
		return;
	}
	strbuf_addf(p, "%u repl%s", pr->replies, pr->replies == 1 ? "y" : "ies");
	if (pr->acks)
		strbuf_addf(p, ", %u ack%s", pr->acks, pr->acks == 1 ? "" : "s");
	if (pr->naks)
		strbuf_addf(p, ", <span class=\"nak\">%u NAK</span>", pr->naks);
}

static void add_reason_codes(struct strbuf *p, const struct sm_verdict *v, size_t max)
{
	for (size_t i = 0; i < v->nr_reasons && i < max; i++) {
		if (i)
			strbuf_addstr(p, ", ");
		html_escape(p, v->reasons[i].code);
	}
	if (v->nr_reasons > max)
		strbuf_addf(p, ", +%zu", v->nr_reasons - max);
}

static void add_short_id(struct strbuf *p, const char *id)
{
	strbuf_addf(p, "<code>%.12s</code>", id);
}

static void tree_table(struct site *s, struct strbuf *p, size_t t, const char *root)
{
	const struct sm_scan_result *r = s->o->scan;

	strbuf_addstr(p, "<table class=\"cands\">\n<thead><tr><th>commit</th><th>subject</th>"
			 "<th>verdict</th><th>score</th><th>why</th><th>reviews</th>"
			 "<th>mail</th></tr></thead>\n<tbody>\n");
	/* candidates first, then maybes; each in upstream order */
	for (int pass = 0; pass < 2; pass++) {
		enum sm_verdict_kind want = pass ? SM_MAYBE : SM_CANDIDATE;

		for (size_t i = 0; i < r->nr; i++) {
			const struct sm_scan_item *it = &r->items[i];
			const struct sm_scan_tree_result *tr = &it->trees[t];

			if (!listed(tr) || tr->verdict.kind != want)
				continue;
			strbuf_addf(p, "<tr class=\"%s\"><td><a href=\"%sc/%s.html\">",
				    sm_verdict_name(want), root, it->id);
			add_short_id(p, it->id);
			strbuf_addstr(p, "</a></td><td>");
			html_escape(p, it->commit.subject);
			strbuf_addf(p, "</td><td class=\"verdict\">%s</td><td>%d</td><td>",
				    sm_verdict_name(want), tr->verdict.score);
			add_reason_codes(p, &tr->verdict, 4);
			strbuf_addstr(p, "</td><td>");
			add_review_count(p, &s->reviews[i]);
			strbuf_addstr(p, "</td><td>");
			add_mail_state(p, s, it->id, s->o->cfg->trees[t].name);
			strbuf_addstr(p, "</td></tr>\n");
			s->st->listed++;
		}
	}
	strbuf_addstr(p, "</tbody>\n</table>\n");
}

struct tree_counts {
	unsigned candidates, maybes, present;
};

static struct tree_counts count_tree(const struct sm_scan_result *r, size_t t)
{
	struct tree_counts c = { 0, 0, 0 };

	for (size_t i = 0; i < r->nr; i++) {
		const struct sm_scan_tree_result *tr = &r->items[i].trees[t];

		if (tr->present)
			c.present++;
		else if (tr->verdict.kind == SM_CANDIDATE)
			c.candidates++;
		else if (tr->verdict.kind == SM_MAYBE)
			c.maybes++;
	}
	return c;
}

static void add_tree_line(struct strbuf *p, const struct site *s, size_t t)
{
	struct tree_counts c = count_tree(s->o->scan, t);

	strbuf_addf(p, "%u candidate%s, %u maybe, %u already in the tree", c.candidates,
		    c.candidates == 1 ? "" : "s", c.maybes, c.present);
	strbuf_addstr(p, "; boot: ");
	if (s->boot[t])
		html_escape(p, s->boot[t]);
	else
		strbuf_addstr(p, "<span class=\"muted\">no result</span>");
}

static int write_index(struct site *s, time_t now)
{
	const struct sm_bot_config *cfg = s->o->cfg;
	struct strbuf p = STRBUF_INIT;
	int ret;

	page_begin(&p, "candidates", "", s->o, now);
	strbuf_addf(&p, "<p>%zu upstream commits scanned for %zu tree%s.</p>\n", s->o->scan->nr,
		    cfg->nr_trees, cfg->nr_trees == 1 ? "" : "s");
	strbuf_addstr(&p, "<table class=\"trees\">\n<thead><tr><th>tree</th><th>branch</th>"
			  "<th>candidates</th><th>maybe</th><th>already in</th><th>boot</th>"
			  "</tr></thead>\n<tbody>\n");
	for (size_t t = 0; t < cfg->nr_trees; t++) {
		struct tree_counts c = count_tree(s->o->scan, t);
		struct strbuf slug = STRBUF_INIT;

		file_slug(&slug, cfg->trees[t].name);
		strbuf_addf(&p, "<tr><td><a href=\"tree-%s.html\">", slug.buf);
		html_escape(&p, cfg->trees[t].name);
		strbuf_addstr(&p, "</a></td><td><code>");
		html_escape(&p, cfg->trees[t].branch);
		strbuf_addf(&p, "</code></td><td>%u</td><td>%u</td><td>%u</td><td>", c.candidates,
			    c.maybes, c.present);
		if (s->boot[t])
			html_escape(&p, s->boot[t]);
		else
			strbuf_addstr(&p, "<span class=\"muted\">no result</span>");
		strbuf_addstr(&p, "</td></tr>\n");
		strbuf_release(&slug);
	}
	strbuf_addstr(&p, "</tbody>\n</table>\n");
	for (size_t t = 0; t < cfg->nr_trees; t++) {
		strbuf_addstr(&p, "<h2>");
		html_escape(&p, cfg->trees[t].name);
		strbuf_addstr(&p, "</h2>\n<p>");
		add_tree_line(&p, s, t);
		strbuf_addstr(&p, "</p>\n");
		tree_table(s, &p, t, "");
	}
	page_end(&p);
	ret = write_page(s, "index.html", &p);
	strbuf_release(&p);
	return ret;
}

static int write_tree_page(struct site *s, size_t t, time_t now)
{
	const struct sm_bot_tree *tree = &s->o->cfg->trees[t];
	struct strbuf p = STRBUF_INIT, slug = STRBUF_INIT, rel = STRBUF_INIT;
	unsigned before = s->st->listed;
	int ret;

	page_begin(&p, tree->name, "", s->o, now);
	strbuf_addstr(&p, "<p>");
	add_tree_line(&p, s, t);
	strbuf_addstr(&p, "</p>\n");
	tree_table(s, &p, t, "");
	s->st->listed = before;	/* counted once, on the index */
	page_end(&p);
	file_slug(&slug, tree->name);
	strbuf_addf(&rel, "tree-%s.html", slug.buf);
	ret = write_page(s, rel.buf, &p);
	strbuf_release(&p);
	strbuf_release(&slug);
	strbuf_release(&rel);
	return ret;
}

static void add_review(struct site *s, struct strbuf *p, const struct sm_review *rv)
{
	const char *thread_url = s->o->thread_url ? s->o->thread_url : DEFAULT_THREAD_URL;

	strbuf_addstr(p, "<article class=\"review\">\n<p><b>");
	html_escape(p, rv->author);
	strbuf_addstr(p, "</b> <span class=\"muted\">");
	html_escape(p, rv->date);
	if (rv->tree && *rv->tree) {
		strbuf_addstr(p, ", for ");
		html_escape(p, rv->tree);
	}
	if (rv->via_cover)
		strbuf_addstr(p, ", a reply to the cover letter");
	strbuf_addstr(p, "</span>");
	/* a stable queue's notice: what happened to the patch there */
	if (sm_review_is_notice(rv)) {
		strbuf_addstr(p, " <span class=\"notice\">stable queue: ");
		html_escape(p, rv->notice);
		strbuf_addstr(p, "</span>");
	}
	if (rv->message_id && *rv->message_id) {
		strbuf_addstr(p, " &middot; <a href=\"");
		add_url(p, thread_url, rv->message_id);
		strbuf_addstr(p, "\">thread</a>");
	}
	strbuf_addstr(p, "</p>\n");
	if (rv->trailers.nr) {
		strbuf_addstr(p, "<ul class=\"trailers\">\n");
		for (size_t j = 0; j < rv->trailers.nr; j++) {
			strbuf_addf(p, "<li%s>", sm_trailer_is_nak(rv->trailers.items[j]) ? " class=\"nak\"" : "");
			html_escape(p, rv->trailers.items[j]);
			strbuf_addstr(p, "</li>\n");
		}
		strbuf_addstr(p, "</ul>\n");
	}
	/* Trailers sent in someone else's name: shown, so a forgery is seen,
	 * but marked and never counted as a review (see the note format). */
	if (rv->unverified.nr) {
		strbuf_addstr(p, "<ul class=\"trailers unverified\">\n");
		for (size_t j = 0; j < rv->unverified.nr; j++) {
			strbuf_addstr(p, "<li>unverified, not counted: ");
			html_escape(p, rv->unverified.items[j]);
			strbuf_addstr(p, "</li>\n");
		}
		strbuf_addstr(p, "</ul>\n");
	}
	if (rv->comment && *rv->comment) {
		strbuf_addstr(p, "<pre>");
		html_escape(p, rv->comment);
		strbuf_addstr(p, "</pre>\n");
	}
	strbuf_addstr(p, "</article>\n");
	if (sm_review_counts(rv))
		s->st->reviews++;
}

static int write_candidate_page(struct site *s, size_t i, time_t now)
{
	const struct sm_scan_result *r = s->o->scan;
	const struct sm_scan_item *it = &r->items[i];
	const struct page_reviews *pr = &s->reviews[i];
	const char *commit_url = s->o->commit_url ? s->o->commit_url : DEFAULT_COMMIT_URL;
	struct strbuf p = STRBUF_INIT, rel = STRBUF_INIT;
	int ret;

	page_begin(&p, it->commit.subject ? it->commit.subject : it->id, "../", s->o, now);
	strbuf_addstr(&p, "<dl>\n<dt>upstream commit</dt><dd><a href=\"");
	add_url(&p, commit_url, it->id);
	strbuf_addf(&p, "\"><code>%s</code></a></dd>\n<dt>author</dt><dd>", it->id);
	html_escape(&p, it->commit.author);
	strbuf_addstr(&p, "</dd>\n");
	if (it->fixes_first_release) {
		strbuf_addstr(&p, "<dt>fixes a commit first released in</dt><dd>");
		html_escape(&p, it->fixes_first_release);
		strbuf_addstr(&p, "</dd>\n");
	}
	strbuf_addstr(&p, "</dl>\n<h2>Per tree</h2>\n<table class=\"pertree\">\n<thead><tr>"
			  "<th>tree</th><th>verdict</th><th>score</th><th>reasons</th>"
			  "<th>applies</th><th>mail</th></tr></thead>\n<tbody>\n");
	for (size_t t = 0; t < r->nr_trees; t++) {
		const struct sm_scan_tree_result *tr = &it->trees[t];
		const char *kind = tr->present ? "present" : sm_verdict_name(tr->verdict.kind);

		strbuf_addf(&p, "<tr class=\"%s\"><td>", kind);
		html_escape(&p, s->o->cfg->trees[t].name);
		strbuf_addf(&p, "</td><td class=\"verdict\">%s</td><td>%d</td><td>",
			    tr->present ? "already in the tree" : kind, tr->verdict.score);
		if (tr->present && tr->present_as) {
			strbuf_addstr(&p, "as ");
			add_short_id(&p, tr->present_as);
		} else {
			strbuf_addstr(&p, "<ul>");
			for (size_t k = 0; k < tr->verdict.nr_reasons; k++) {
				const struct sm_reason *rs = &tr->verdict.reasons[k];

				strbuf_addstr(&p, "<li><code>");
				html_escape(&p, rs->code);
				strbuf_addf(&p, "</code> (%+d) ", rs->weight);
				html_escape(&p, rs->text);
				strbuf_addstr(&p, "</li>");
			}
			strbuf_addstr(&p, "</ul>");
			if (tr->deps.nr) {
				strbuf_addstr(&p, "apply first:");
				for (size_t k = 0; k < tr->deps.nr; k++) {
					strbuf_addch(&p, ' ');
					add_short_id(&p, tr->deps.items[k]);
				}
			}
		}
		strbuf_addf(&p, "</td><td>%s",
			    tr->applies < 0 ? "not checked" : tr->applies ? "cleanly" :
			    tr->applies_after_deps == 1 || tr->search == 1 ? "cleanly" : "conflicts");
		if (tr->applies_after_deps == 1) {
			strbuf_addstr(&p, tr->deps.nr == 1 ? " after its prerequisite" :
				      " after its prerequisites");
			for (size_t k = 0; k < tr->deps.nr; k++) {
				strbuf_addstr(&p, k ? ", " : " ");
				add_short_id(&p, tr->deps.items[k]);
			}
		}
		if (tr->search == 1) {
			for (size_t k = 0; k < tr->deps.nr; k++) {
				strbuf_addstr(&p, k ? ", " : " after ");
				add_short_id(&p, tr->deps.items[k]);
			}
			for (size_t k = 0; k < tr->search_extra.nr; k++) {
				strbuf_addstr(&p, k ? ", " : tr->deps.nr ? " and also " : " after also taking ");
				add_short_id(&p, tr->search_extra.items[k]);
			}
			strbuf_addstr(&p, " (found by the search of the files in conflict)");
		} else if (tr->search == 0 && !tr->search_considered) {
			strbuf_addstr(&p, " (with the tree's own changes)");
		}
		if (tr->backport_applies) {
			strbuf_addstr(&p, "; ");
			html_escape(&p, tr->backport_tree);
			strbuf_addstr(&p, "'s backport ");
			add_short_id(&p, tr->backport_applies);
			strbuf_addstr(&p, " applies");
			for (size_t k = 0; k < tr->backport_prereqs.nr; k++) {
				strbuf_addstr(&p, k ? ", " : " after ");
				add_short_id(&p, tr->backport_prereqs.items[k]);
			}
			if (tr->backport_prereqs.nr)
				strbuf_addstr(&p, ", which that tree took first");
		}
		strbuf_addstr(&p, "</td><td>");
		add_mail_state(&p, s, it->id, s->o->cfg->trees[t].name);
		strbuf_addstr(&p, "</td></tr>\n");
	}
	strbuf_addstr(&p, "</tbody>\n</table>\n<h2>Reviews</h2>\n");
	if (!pr->note.nr)
		strbuf_addstr(&p, "<p class=\"muted\">No review in the notes yet.</p>\n");
	for (size_t k = 0; k < pr->note.nr; k++)
		add_review(s, &p, &pr->note.reviews[k]);
	strbuf_addstr(&p, "<h2>Commit message</h2>\n<pre class=\"message\">");
	html_escape(&p, it->commit.subject);
	strbuf_addstr(&p, "\n\n");
	html_escape(&p, it->commit.body);
	strbuf_addstr(&p, "</pre>\n");
	page_end(&p);
	strbuf_addf(&rel, "c/%s.html", it->id);
	ret = write_page(s, rel.buf, &p);
	strbuf_release(&p);
	strbuf_release(&rel);
	if (!ret)
		s->st->pages++;
	return ret;
}

static int write_static(const struct site *s)
{
	struct strbuf p = STRBUF_INIT;
	int ret;

	strbuf_addstr(&p, style_css);
	ret = write_page(s, "style.css", &p);
	strbuf_reset(&p);
	strbuf_addstr(&p, filter_js);
	if (!ret)
		ret = write_page(s, "filter.js", &p);
	strbuf_release(&p);
	return ret;
}

int sm_dashboard_write(const struct sm_dashboard_opts *o, struct sm_dashboard_stats *st)
{
	const struct sm_scan_result *r = o->scan;
	struct site s;
	time_t now = o->now ? o->now : time(NULL);
	char *cdir = xasprintf("%s/c", o->out_dir);
	int ret = -1;

	memset(st, 0, sizeof(*st));
	memset(&s, 0, sizeof(s));
	s.o = o;
	s.st = st;
	s.notes_ref = o->cfg->notes_ref ? o->cfg->notes_ref : SM_NOTES_REF_DEFAULT;
	if (mkdir_p(cdir, 0755))
		goto out;
	if (o->cfg->state_dir && sm_state_view_load(&s.state, o->cfg->state_dir))
		goto out;
	if (sm_repo_open(&s.repo, o->cfg->upstream_repo))
		goto out;
	s.reviews = xcalloc(r->nr + 1, sizeof(*s.reviews));
	s.boot = xcalloc(o->cfg->nr_trees + 1, sizeof(*s.boot));
	for (size_t t = 0; t < o->cfg->nr_trees; t++)
		s.boot[t] = load_boot(o, o->cfg->trees[t].name);
	for (size_t i = 0; i < r->nr; i++) {
		if (item_listed(r, &r->items[i]) && load_reviews(&s, &r->items[i], &s.reviews[i]))
			goto out;
	}
	st->trees = (unsigned)o->cfg->nr_trees;
	if (write_static(&s) || write_index(&s, now))
		goto out;
	for (size_t t = 0; t < o->cfg->nr_trees; t++)
		if (write_tree_page(&s, t, now))
			goto out;
	for (size_t i = 0; i < r->nr; i++)
		if (item_listed(r, &r->items[i]) && write_candidate_page(&s, i, now))
			goto out;
	ret = 0;
out:
	if (s.reviews)
		for (size_t i = 0; i < r->nr; i++)
			sm_note_release(&s.reviews[i].note);
	free(s.reviews);
	if (s.boot)
		for (size_t t = 0; t < o->cfg->nr_trees; t++)
			free(s.boot[t]);
	free(s.boot);
	sm_state_view_release(&s.state);
	git_repository_free(s.repo);
	free(cdir);
	return ret;
}
