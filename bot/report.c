/* report: compose the subscribers' candidate reports into the queue and
 * send the queue over SMTP (see report.h). */
#include "bot/report.h"
#include "bot/compose.h"
#include "bot/recover.h"
#include "bot/smtp.h"
#include "gitnotes/notes.h"
#include "lib/fileio.h"
#include "lib/git.h"
#include "lib/util.h"
#include "trees/part_tree.h"
#include <errno.h>
#include <fnmatch.h>
#include <git2.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* What the mails need of one upstream commit beyond the scan: the patch
 * text, the files it touches and the reviews already in the notes.
 * Computed once per run, on first use. */
struct cand_info {
	int done, failed;
	struct strbuf stat, diff;
	struct strlist files;
	struct strlist reviews;		/* one line per review */
	struct strlist unverified;	/* trailers sent in another's name: no reviews */
	struct strlist notices;		/* the stable queue's: "failed to apply to 6.1 (...)" */
};

struct ctx {
	const struct sm_report_opts *o;
	const struct sm_bot_config *cfg;
	git_repository *repo;
	struct cand_info *info;		/* one per scan item */
	unsigned long maildir_seq;
};

struct pick {
	size_t item, tree;
	unsigned number;		/* patch number in the thread, 0: none */
};

static void short_id(const char *id, char out[13])
{
	snprintf(out, 13, "%.12s", id);
}

/* The commit's patch and stat, and the files it touches, into ci. Diffed
 * on the files it changes alone: a kernel tree's 5,000 subtrees are 20 ms
 * a commit. */
static int diff_commit(git_repository *repo, const char *id, struct cand_info *ci)
{
	git_oid oid;
	git_commit *c = NULL, *parent = NULL;
	git_tree *t = NULL, *pt = NULL;
	git_diff *d = NULL;
	git_diff_options opts;
	int ret = -1;

	if (git_oid_fromstr(&oid, id) || git_commit_lookup(&c, repo, &oid) ||
	    git_commit_tree(&t, c))
		goto out;
	if (git_commit_parentcount(c) &&
	    (git_commit_parent(&parent, c, 0) || git_commit_tree(&pt, parent)))
		goto out;
	sm_diff_options_init(&opts);
	if (sm_diff_changed_files(&d, repo, pt, t, &opts))
		goto out;
	for (size_t i = 0; i < git_diff_num_deltas(d); i++) {
		const git_diff_delta *dl = git_diff_get_delta(d, i);

		strlist_append(&ci->files, dl->new_file.path ? dl->new_file.path : dl->old_file.path);
		if (dl->old_file.path && dl->new_file.path && strcmp(dl->old_file.path, dl->new_file.path))
			strlist_append(&ci->files, dl->old_file.path);
	}
	if (sm_diff_show(d, &ci->stat, &ci->diff))
		goto out;
	ret = 0;
out:
	if (ret) {
		sm_git_fail("%s: cannot diff", id);
	}
	git_diff_free(d);
	git_tree_free(pt);
	git_tree_free(t);
	git_commit_free(parent);
	git_commit_free(c);
	return ret;
}

static void read_reviews(struct ctx *x, const char *id, struct cand_info *ci)
{
	struct strbuf note = STRBUF_INIT, line = STRBUF_INIT;
	struct sm_review *rv = NULL;
	size_t nr = 0;
	git_oid oid;

	if (git_oid_fromstr(&oid, id))
		return;
	if (sm_notes_read(x->repo, x->cfg->notes_ref, &oid, &note) != SM_NOTE_FOUND) {
		strbuf_release(&note);
		return;
	}
	if (sm_notes_parse(note.buf, &rv, &nr) == 0) {
		for (size_t i = 0; i < nr; i++) {
			strbuf_reset(&line);
			/* Trailers in another's name are shown as such, never as reviews. */
			for (size_t t = 0; t < rv[i].unverified.nr; t++)
				strlist_append(&ci->unverified, rv[i].unverified.items[t]);
			if (sm_review_is_notice(&rv[i])) {
				/* the first few possible dependencies */
				sm_review_notice_line(&rv[i], 4, &line);
				strlist_append(&ci->notices, line.buf);
			}
			if (!sm_review_counts(&rv[i])) {
				sm_review_release(&rv[i]);
				continue;
			}
			for (size_t t = 0; t < rv[i].trailers.nr; t++)
				strbuf_addf(&line, "%s%s", t ? "; " : "", rv[i].trailers.items[t]);
			if (!rv[i].trailers.nr)
				strbuf_addf(&line, "comment from %s", rv[i].author ? rv[i].author : "?");
			if (rv[i].tree && *rv[i].tree)
				strbuf_addf(&line, " (%s)", rv[i].tree);
			strlist_append(&ci->reviews, line.buf);
			sm_review_release(&rv[i]);
		}
		free(rv);
	}
	strbuf_release(&line);
	strbuf_release(&note);
}

static struct cand_info *item_info(struct ctx *x, size_t idx)
{
	struct cand_info *ci = &x->info[idx];
	const char *id = x->o->scan->items[idx].id;

	if (ci->done)
		return ci;
	ci->done = 1;
	if (diff_commit(x->repo, id, ci)) {
		sm_warn("%s", sm_last_error());
		ci->failed = 1;
	}
	read_reviews(x, id, ci);
	return ci;
}

static int path_matches(const struct strlist *globs, const struct strlist *files)
{
	for (size_t g = 0; g < globs->nr; g++) {
		const char *glob = globs->items[g];
		size_t gl = strlen(glob);

		for (size_t f = 0; f < files->nr; f++) {
			if (gl && glob[gl - 1] == '/' && starts_with(files->items[f], glob))
				return 1;
			if (!fnmatch(glob, files->items[f], 0))
				return 1;
		}
	}
	return 0;
}

static int keyword_matches(const struct strlist *kw, const struct sm_scan_item *it,
			   const struct sm_verdict *v)
{
	for (size_t k = 0; k < kw->nr; k++) {
		const char *w = kw->items[k];

		if ((it->commit.subject && strcasestr(it->commit.subject, w)) ||
		    (it->commit.body && strcasestr(it->commit.body, w)))
			return 1;
		for (size_t r = 0; r < v->nr_reasons; r++)
			if (strcasestr(v->reasons[r].code, w))
				return 1;
	}
	return 0;
}

static int wanted(struct ctx *x, struct sm_bot_state *st, const struct sm_bot_subscriber *s,
		  size_t item, size_t tree)
{
	const struct sm_scan_item *it = &x->o->scan->items[item];
	const struct sm_scan_tree_result *tr = &it->trees[tree];
	const char *tname = x->cfg->trees[tree].name;

	if (!sm_bot_subscriber_wants_tree(s, tname) || tr->present ||
	    tr->verdict.kind < s->min_verdict || it->commit.is_merge)
		return 0;
	if (sm_bot_state_known(st, s->name, it->id, tname))
		return 0;
	if (s->keywords.nr && !keyword_matches(&s->keywords, it, &tr->verdict))
		return 0;
	if (s->paths.nr) {
		struct cand_info *ci = item_info(x, item);

		if (!path_matches(&s->paths, &ci->files))
			return 0;
	}
	return 1;
}

static const char *tree_version(const struct sm_bot_tree *t, char buf[32])
{
	return sm_version_str(&t->version, buf, 32);
}

static unsigned width_of(unsigned n)
{
	unsigned w = 2;

	for (unsigned v = 100; v <= n; v *= 10)
		w++;
	return w;
}

void sm_report_patch_subject(struct strbuf *out, const char *version, unsigned i,
			     unsigned n, const char *subject)
{
	unsigned w = width_of(n);

	strbuf_addf(out, "[PATCH %s%s%0*u/%0*u] %s", version ? version : "", version ? " " : "",
		    (int)w, i, (int)w, n, subject);
}

/* Reasons in the tree's verdict that the tree-less verdict does not have:
 * why this tree differs ("Fixes: target not in 5.15", "already present"). */
static void tree_specific(const struct sm_verdict *all, const struct sm_verdict *tv,
			  struct strbuf *out)
{
	int n = 0;

	for (size_t r = 0; r < tv->nr_reasons; r++) {
		int common = 0;

		for (size_t a = 0; a < all->nr_reasons; a++)
			if (!strcmp(all->reasons[a].code, tv->reasons[r].code))
				common = 1;
		if (!common)
			strbuf_addf(out, "%s%s", n++ ? "; " : "", tv->reasons[r].text);
	}
	if (!n)
		sm_verdict_summary(tv, out);
}

/* sep "applies cleanly" / "does NOT apply cleanly", with what the trial
 * found beyond (after the fix's prerequisites; another tree's backport
 * that does); nothing when it was not tried. */
static void append_applies(struct strbuf *b, const char *sep, const struct sm_scan_tree_result *tr)
{
	if (tr->applies < 0)
		return;
	strbuf_addstr(b, sep);
	if (tr->applies == 1 || tr->applies_after_deps == 1 || tr->search == 1) {
		strbuf_addstr(b, "applies cleanly");
		sm_scan_after_deps_text(tr, b);
		sm_scan_search_text(tr, b);
		return;
	}
	strbuf_addstr(b, "does NOT apply cleanly");
	if (tr->backport_applies) {
		strbuf_addstr(b, " (");
		sm_scan_backport_text(tr, "does", b);
		strbuf_addch(b, ')');
	} else if (tr->search == 0 && !tr->search_considered) {
		strbuf_addstr(b, " (a conflict with the tree's own changes)");
	}
}

static void cover_item(struct ctx *x, struct strbuf *b, unsigned n, size_t item,
		       const struct pick *picks, size_t nr_picks)
{
	const struct sm_bot_config *cfg = x->cfg;
	const struct sm_scan_item *it = &x->o->scan->items[item];
	struct cand_info *ci = item_info(x, item);
	struct strbuf line = STRBUF_INIT;
	const struct sm_scan_tree_result *first = NULL;
	char sid[13], ver[32];

	short_id(it->id, sid);
	strbuf_addf(b, "%u. %s\n", n, it->commit.subject ? it->commit.subject : "(no subject)");
	strbuf_addf(b, "   upstream: %s\n", it->id);
	strbuf_addf(b, "   author:   %s\n", it->commit.author ? it->commit.author : "?");
	for (size_t p = 0; p < nr_picks; p++)
		if (picks[p].item == item) {
			first = &it->trees[picks[p].tree];
			break;
		}
	{
		const struct sm_verdict *v = first ? &first->verdict : &it->verdict;

		strbuf_addf(b, "   why:      %s (score %d)\n", sm_verdict_name(v->kind), v->score);
	}
	if (first) {
		/* the weights, as classify shows them: what counted, and how much */
		sm_verdict_reason_lines(&first->verdict, "           ", b);
		if (first->verdict.manual_only)
			strbuf_addstr(b, "             - marked noautosel: pick by hand only\n");
	}
	if (it->fixes_first_release)
		strbuf_addf(b, "   bug since: %s\n", it->fixes_first_release);
	strbuf_addstr(b, "   trees:\n");
	for (size_t t = 0; t < cfg->nr_trees; t++) {
		const struct sm_scan_tree_result *tr = &it->trees[t];
		unsigned num = 0;

		for (size_t p = 0; p < nr_picks; p++)
			if (picks[p].item == item && picks[p].tree == t)
				num = picks[p].number;
		strbuf_reset(&line);
		if (tr->present) {
			if (tr->present_as)
				strbuf_addf(&line, "already there as %.12s", tr->present_as);
			else	/* by the trial: cherry-picked, it changes nothing */
				strbuf_addstr(&line, "already there (cherry-picked, it changes nothing)");
		} else if (tr->verdict.kind >= SM_MAYBE) {
			strbuf_addstr(&line, tr->verdict.kind == SM_CANDIDATE ? "needs it" : "may need it");
			append_applies(&line, ", ", tr);
			if (num) {
				strbuf_addstr(&line, ": ");
				sm_report_patch_subject(&line, tree_version(&cfg->trees[t], ver), num,
							(unsigned)nr_picks, "");
				strbuf_setlen(&line, line.len - 1);
			}
		} else {
			strbuf_addstr(&line, "not needed: ");
			tree_specific(&it->verdict, &tr->verdict, &line);
		}
		strbuf_addf(b, "     %-14s %s\n", cfg->trees[t].name, line.buf);
	}
	strbuf_addstr(b, "   depends:  ");
	{
		int any = 0;

		for (size_t t = 0; t < cfg->nr_trees; t++) {
			for (size_t d = 0; d < it->trees[t].deps.nr; d++) {
				strbuf_addf(b, "%s%.12s (%s)", any++ ? ", " : "",
					    it->trees[t].deps.items[d], cfg->trees[t].name);
			}
			for (size_t d = 0; d < it->trees[t].search_extra.nr; d++)
				strbuf_addf(b, "%s%.12s (%s, found by the search)", any++ ? ", " : "",
					    it->trees[t].search_extra.items[d], cfg->trees[t].name);
		}
		strbuf_addstr(b, any ? "\n" : "nothing found\n");
	}
	if (ci->files.nr) {
		strbuf_addstr(b, "   files:    ");
		for (size_t f = 0; f < ci->files.nr && f < 4; f++)
			strbuf_addf(b, "%s%s", f ? ", " : "", ci->files.items[f]);
		if (ci->files.nr > 4)
			strbuf_addf(b, " and %zu more", ci->files.nr - 4);
		strbuf_addch(b, '\n');
	}
	if (!ci->reviews.nr) {
		strbuf_addstr(b, "   reviews:  none yet\n");
	} else {
		for (size_t r = 0; r < ci->reviews.nr; r++)
			strbuf_addf(b, "   %s  %s\n", r ? "         " : "reviews:", ci->reviews.items[r]);
	}
	for (size_t r = 0; r < ci->notices.nr; r++)
		strbuf_addf(b, "   stable queue: %s\n", ci->notices.items[r]);
	for (size_t r = 0; r < ci->unverified.nr; r++)
		strbuf_addf(b, "   unverified, not a review: %s\n", ci->unverified.items[r]);
	strbuf_addch(b, '\n');
	strbuf_release(&line);
}

/* Are patches a and b (libgit2's format) the same change? Their "index
 * <blob>..<blob>" header lines name the whole files, which differ
 * wherever the tree's file differs from upstream's, near the change or
 * not: those lines are not compared. (A line of a hunk starts with ' ',
 * '+' or '-', never with "index ".) */
static int same_change(const char *a, const char *b)
{
	while (*a && *b) {
		const char *ea = strchrnul(a, '\n'), *eb = strchrnul(b, '\n');
		int ia = starts_with(a, "index "), ib = starts_with(b, "index ");

		if (ia || ib) {
			if (ia != ib)
				return 0;
		} else if (ea - a != eb - b || memcmp(a, b, (size_t)(ea - a))) {
			return 0;
		}
		a = *ea ? ea + 1 : ea;
		b = *eb ? eb + 1 : eb;
	}
	return !*a && !*b;
}

static void patch_body(struct ctx *x, struct strbuf *b, const struct pick *pk)
{
	const struct sm_scan_item *it = &x->o->scan->items[pk->item];
	const struct sm_scan_tree_result *tr = &it->trees[pk->tree];
	const struct sm_bot_tree *t = &x->cfg->trees[pk->tree];
	struct cand_info *ci = item_info(x, pk->item);

	strbuf_addf(b, "commit %s upstream.\n\n", it->id);
	if (it->commit.body && *it->commit.body) {
		strbuf_addstr(b, it->commit.body);
		if (b->buf[b->len - 1] != '\n')
			strbuf_addch(b, '\n');
	}
	strbuf_addstr(b, "---\n");
	strbuf_addf(b, "stablemate: %s: ", t->name);
	sm_verdict_summary(&tr->verdict, b);
	append_applies(b, "; ", tr);
	strbuf_addf(b, "\nAuthor: %s\n", it->commit.author ? it->commit.author : "?");
	for (size_t d = 0; d < tr->deps.nr; d++)
		strbuf_addf(b, "Depends on: %s\n", tr->deps.items[d]);
	for (size_t d = 0; d < tr->search_extra.nr; d++)
		strbuf_addf(b, "Depends on: %s (found by the search)\n", tr->search_extra.items[d]);
	if (ci->failed) {
		strbuf_addf(b, "\n(the diff could not be read from %s)\n", x->cfg->upstream_repo);
		return;
	}
	/* The change as it lands on the tree, when that is not upstream's
	 * change as it stands (other line numbers, context, a file the tree
	 * has under its old name): what the tree gets, and what git am
	 * applies there. Otherwise upstream's patch, whose index lines name
	 * upstream's blobs. */
	if (tr->patch && !same_change(tr->patch, ci->diff.buf)) {
		strbuf_addf(b, "The patch below is the change as it lands on %s (a cherry-pick "
			    "in memory onto its tip); upstream's differs.\n\n", t->name);
		strbuf_addstr(b, tr->patch_stat);
		strbuf_addch(b, '\n');
		strbuf_addstr(b, tr->patch);
	} else {
		strbuf_addch(b, '\n');
		strbuf_addstr(b, ci->stat.buf);
		strbuf_addch(b, '\n');
		strbuf_addstr(b, ci->diff.buf);
	}
	strbuf_addstr(b, "-- \nstablemate\n");
}

/* Delivers msg into maildir/new via maildir/tmp (the maildir protocol). */
static int maildir_deliver(struct ctx *x, const char *msg, size_t len)
{
	const char *md = x->o->maildir;
	char *tmp = NULL, *dst = NULL, *name;
	int ret = 0;

	for (const char *sub = "tmp\0new\0cur\0"; *sub; sub += 4) {
		char *p = xasprintf("%s/%s", md, sub);

		ret = mkdir_p(p, 0700);
		free(p);
		if (ret)
			return -1;
	}
	name = xasprintf("%ld.P%dQ%lu.stablemate", (long)time(NULL), (int)getpid(), ++x->maildir_seq);
	tmp = xasprintf("%s/tmp/%s", md, name);
	dst = xasprintf("%s/new/%s", md, name);
	ret = write_file_atomic(tmp, msg, len);
	if (!ret && rename(tmp, dst))
		ret = sm_error("%s: %s", dst, strerror(errno));
	free(name);
	free(tmp);
	free(dst);
	return ret;
}

static void mbox_write(FILE *out, const char *msg, size_t len, time_t now)
{
	const char *p = msg, *end = msg + len;
	char date[64];
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm);
	fprintf(out, "From stablemate %s\n", date);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		const char *q = p;

		while (q < p + n && *q == '>')
			q++;
		if ((size_t)(p + n - q) >= 5 && !memcmp(q, "From ", 5))
			fputc('>', out);
		fwrite(p, 1, n, out);
		p += n;
	}
	if (len && msg[len - 1] != '\n')
		fputc('\n', out);
	fputc('\n', out);
}

/* Writes one composed mail: to the dry-run output or into the queue. */
static int emit(struct ctx *x, struct sm_bot_state *st, const struct sm_bot_subscriber *s,
		const struct sm_outgoing *m, const struct strlist *keys, struct sm_report_stats *stats)
{
	struct strbuf msg = STRBUF_INIT;
	struct strlist rcpts = STRLIST_INIT;
	char *from;
	int ret;

	if (sm_compose(m, &msg)) {
		strbuf_release(&msg);
		return sm_error_wrap("subscriber %s", s->name);
	}
	stats->composed++;
	if (x->o->dry_run) {
		if (x->o->maildir)
			ret = maildir_deliver(x, msg.buf, msg.len);
		else {
			mbox_write(x->o->out ? x->o->out : stdout, msg.buf, msg.len, m->date);
			ret = 0;
		}
		strbuf_release(&msg);
		return ret;
	}
	strlist_append_nodup(&rcpts, sm_bot_bare_address(s->address));
	for (size_t i = 0; i < x->cfg->cc.nr; i++)
		strlist_append_nodup(&rcpts, sm_bot_bare_address(x->cfg->cc.items[i]));
	from = sm_bot_bare_address(x->cfg->from);
	ret = sm_queue_add(st, s->name, from, &rcpts, keys, m->message_id, msg.buf, msg.len, NULL);
	free(from);
	strlist_clear(&rcpts);
	strbuf_release(&msg);
	return ret;
}

static char *key_of(const struct sm_bot_subscriber *s, const char *id, const char *tree)
{
	return xasprintf("%s %s %s", s->name, id, tree);
}

static int report_one(struct ctx *x, struct sm_bot_state *st, const struct sm_bot_subscriber *s,
		      struct sm_report_stats *stats)
{
	const struct sm_bot_config *cfg = x->cfg;
	const struct sm_scan_result *scan = x->o->scan;
	struct pick *picks = NULL;
	size_t nr = 0, alloc = 0, nr_items = 0, one_tree = (size_t)-1;
	struct strbuf body = STRBUF_INIT, subject = STRBUF_INIT, trees = STRBUF_INIT;
	struct strlist keys = STRLIST_INIT;
	struct sm_outgoing m = { 0 };
	char *cover_id = NULL, ver[32];
	time_t now = x->o->now ? x->o->now : time(NULL);
	int ret = 0;

	/* Patches in tree order, then upstream order: [PATCH 6.1 01/..] first. */
	for (size_t t = 0; t < cfg->nr_trees; t++)
		for (size_t i = 0; i < scan->nr; i++)
			if (wanted(x, st, s, i, t)) {
				ALLOC_GROW(picks, nr, alloc);
				picks[nr].item = i;
				picks[nr].tree = t;
				picks[nr].number = s->patches ? (unsigned)nr + 1 : 0;
				nr++;
			}
	if (!nr)
		return 0;
	stats->subscribers++;
	stats->picks += (unsigned)nr;
	for (size_t p = 0; p < nr; p++) {
		int seen = 0;

		for (size_t q = 0; q < p; q++)
			if (picks[q].item == picks[p].item)
				seen = 1;
		nr_items += !seen;
		if (one_tree == (size_t)-1)
			one_tree = picks[p].tree;
		else if (one_tree != picks[p].tree)
			one_tree = (size_t)-2;
		if (!strstr(trees.buf, cfg->trees[picks[p].tree].name))
			strbuf_addf(&trees, "%s%s", trees.len ? ", " : "", cfg->trees[picks[p].tree].name);
		strlist_append_nodup(&keys, key_of(s, scan->items[picks[p].item].id,
						    cfg->trees[picks[p].tree].name));
	}

	/* The cover: the report itself. */
	if (s->patches)
		sm_report_patch_subject(&subject, one_tree < cfg->nr_trees ?
					tree_version(&cfg->trees[one_tree], ver) : NULL, 0,
					(unsigned)nr, "");
	strbuf_addf(&subject, "stablemate: %zu new stable candidate%s for %s", nr_items,
		    nr_items == 1 ? "" : "s", trees.buf);
	strbuf_addf(&body, "stablemate found %zu new stable candidate%s for %s\n"
		    "in %s of %s (%s).\n\n", nr_items, nr_items == 1 ? "" : "s", trees.buf,
		    x->o->range ? x->o->range : "?", cfg->upstream_repo, cfg->upstream_branch);
	if (s->patches)
		strbuf_addf(&body,
			    "Each candidate follows as a reply to this mail, one per tree (%zu in all).\n"
			    "Answer a patch with Reviewed-by:, Acked-by:, Tested-by: or NAK: and a\n"
			    "comment: stablemate files the reply as a review note on the upstream\n"
			    "commit (git log --notes=stable-review).\n\n", nr);
	/* The boot of each tree of the report ([boot]). */
	for (size_t t = 0; x->o->boot && t < cfg->nr_trees; t++) {
		const struct sm_bot_boot_result *br = sm_bot_boot_find(x->o->boot, cfg->trees[t].name);
		int in = 0;

		for (size_t p = 0; p < nr && !in; p++)
			in = picks[p].tree == t;
		if (!in || !br)
			continue;
		sm_bot_boot_block(br, &body);
		strbuf_addch(&body, '\n');
	}
	for (size_t p = 0, n = 0; p < nr; p++) {
		int seen = 0;

		for (size_t q = 0; q < p; q++)
			if (picks[q].item == picks[p].item)
				seen = 1;
		if (!seen)
			cover_item(x, &body, (unsigned)++n, picks[p].item, picks, nr);
	}
	strbuf_addstr(&body, "-- \nstablemate: candidates for stable kernels\n");
	cover_id = sm_compose_message_id(cfg->from);
	m.from = cfg->from;
	m.to = s->address;
	m.cc = &cfg->cc;
	m.subject = subject.buf;
	m.message_id = cover_id;
	m.list_id = cfg->list_id;
	m.tree = trees.buf;
	m.subscriber = s->name;
	m.date = now;
	m.body = body.buf;
	/* The sent.log keys go with the patches, or with the cover without them. */
	ret = emit(x, st, s, &m, s->patches ? NULL : &keys, stats);

	/* The patches, replies to the cover. */
	for (size_t p = 0; !ret && s->patches && p < nr; p++) {
		const struct sm_scan_item *it = &scan->items[picks[p].item];
		const struct sm_bot_tree *t = &cfg->trees[picks[p].tree];
		struct strlist one = STRLIST_INIT;
		char *id = sm_compose_message_id(cfg->from);

		strbuf_reset(&subject);
		strbuf_reset(&body);
		sm_report_patch_subject(&subject, tree_version(t, ver), picks[p].number, (unsigned)nr,
					it->commit.subject ? it->commit.subject : "(no subject)");
		patch_body(x, &body, &picks[p]);
		strlist_append(&one, keys.items[p]);
		m.subject = subject.buf;
		m.message_id = id;
		m.in_reply_to = cover_id;
		m.upstream = it->id;
		m.tree = t->name;
		m.body = body.buf;
		ret = emit(x, st, s, &m, &one, stats);
		strlist_clear(&one);
		free(id);
	}
	free(cover_id);
	free(picks);
	strlist_clear(&keys);
	strbuf_release(&body);
	strbuf_release(&subject);
	strbuf_release(&trees);
	return ret;
}

/* Why a candidate mailed for a tree should be dropped after all: the
 * tree's verdict has a NAK for it now (trees/tree_reviews.h), or mainline
 * reverted it; NULL when neither. */
static const struct sm_reason *withdrawal_reason(const struct sm_verdict *v)
{
	for (size_t r = 0; r < v->nr_reasons; r++)
		if (!strcmp(v->reasons[r].code, "nak") || !strcmp(v->reasons[r].code, "reverted"))
			return &v->reasons[r];
	return NULL;
}

static void withdrawal_body(const struct sm_scan_item *it, const struct sm_bot_tree *t,
			    const struct sm_reason *why, const char *sent, struct strbuf *body)
{
	strbuf_addf(body, "stablemate withdraws this candidate for %s: %s\n\n", t->name,
		    !strcmp(why->code, "nak") ? "a NAK came in for the tree" : "mainline reverted it");
	strbuf_addf(body, "  upstream: %s\n  subject:  %s\n  tree:     %s\n  why:      %s\n\n",
		    it->id, it->commit.subject ? it->commit.subject : "(no subject)", t->name,
		    why->text);
	strbuf_addf(body,
		    "It was offered in <%s>. If you took it, drop it or revert it;\n"
		    "stablemate will not offer it again for %s.\n\n", sent, t->name);
	strbuf_addstr(body, "-- \nstablemate: candidates for stable kernels\n");
}

/* Is the NAK that vetoes tr the subscriber's own? Then they know. */
static int nak_is_theirs(const struct sm_bot_subscriber *s, const struct sm_scan_tree_result *tr)
{
	char *mine, *theirs;
	int same;

	if (!tr->nak || !tr->nak->author || !*tr->nak->author)
		return 0;
	mine = sm_bot_bare_address(s->address);
	theirs = sm_bot_bare_address(tr->nak->author);
	same = mine && theirs && !strcasecmp(mine, theirs);
	free(mine);
	free(theirs);
	return same;
}

/* A reply to each mail that offered s a candidate for a tree, when the
 * scan now vetoes it there for a reason that undoes the offer (a NAK for
 * the tree, a revert upstream). Once: its key is the candidate's with
 * the tree "<tree>:withdrawn" (bot/state.h). Only mails in sent.log are
 * answered: one still queued goes out as it is, and is answered on the
 * next run. A subscriber who gave the NAK is not told of it. */
static int withdraw_one(struct ctx *x, struct sm_bot_state *st, const struct sm_bot_subscriber *s,
			struct sm_report_stats *stats)
{
	const struct sm_scan_result *scan = x->o->scan;
	struct strbuf subject = STRBUF_INIT, body = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; !ret && i < scan->nr; i++) {
		const struct sm_scan_item *it = &scan->items[i];

		for (size_t t = 0; !ret && t < x->cfg->nr_trees; t++) {
			const struct sm_bot_tree *tree = &x->cfg->trees[t];
			const struct sm_reason *why = withdrawal_reason(&it->trees[t].verdict);
			const char *sent;
			struct sm_outgoing m = { 0 };
			struct strlist keys = STRLIST_INIT;
			char *mark, *id, ver[32];

			if (!why || !(sent = sm_bot_state_sent_msgid(st, s->name, it->id, tree->name)) ||
			    nak_is_theirs(s, &it->trees[t]))
				continue;
			mark = xasprintf("%s:withdrawn", tree->name);
			if (sm_bot_state_known(st, s->name, it->id, mark)) {
				free(mark);
				continue;
			}
			strbuf_reset(&subject);
			strbuf_reset(&body);
			strbuf_addf(&subject, "Re: [PATCH %s] %s", tree_version(tree, ver),
				    it->commit.subject ? it->commit.subject : "(no subject)");
			withdrawal_body(it, tree, why, sent, &body);
			id = sm_compose_message_id(x->cfg->from);
			m.from = x->cfg->from;
			m.to = s->address;
			m.cc = &x->cfg->cc;
			m.subject = subject.buf;
			m.message_id = id;
			m.in_reply_to = sent;
			m.list_id = x->cfg->list_id;
			m.upstream = it->id;
			m.tree = tree->name;
			m.subscriber = s->name;
			m.date = x->o->now ? x->o->now : time(NULL);
			m.body = body.buf;
			strlist_append_nodup(&keys, key_of(s, it->id, mark));
			ret = emit(x, st, s, &m, &keys, stats);
			if (!ret)
				stats->withdrawn++;
			strlist_clear(&keys);
			free(mark);
			free(id);
		}
	}
	strbuf_release(&subject);
	strbuf_release(&body);
	return ret;
}

int sm_report_compose(const struct sm_report_opts *o, struct sm_bot_state *st,
		      struct sm_report_stats *stats)
{
	struct ctx x = { o, o->cfg, NULL, NULL, 0 };
	int ret = 0;

	sm_git_init();
	ret = git_repository_open_ext(&x.repo, o->cfg->upstream_repo, 0, NULL);
	if (ret < 0) {
		sm_git_open_fail(o->cfg->upstream_repo, ret);
		ret = sm_error_wrap("%s: upstream.repo", o->cfg->path);
		goto out;
	}
	x.info = xcalloc(o->scan->nr ? o->scan->nr : 1, sizeof(*x.info));
	for (size_t i = 0; i < o->scan->nr; i++) {
		strbuf_init(&x.info[i].stat, 0);
		strbuf_init(&x.info[i].diff, 0);
	}
	for (size_t i = 0; !ret && i < o->cfg->nr_subs; i++) {
		ret = report_one(&x, st, &o->cfg->subs[i], stats);
		if (!ret)
			ret = withdraw_one(&x, st, &o->cfg->subs[i], stats);
	}
	for (size_t i = 0; x.info && i < o->scan->nr; i++) {
		strbuf_release(&x.info[i].stat);
		strbuf_release(&x.info[i].diff);
		strlist_clear(&x.info[i].files);
		strlist_clear(&x.info[i].reviews);
		strlist_clear(&x.info[i].unverified);
		strlist_clear(&x.info[i].notices);
	}
	free(x.info);
out:
	git_repository_free(x.repo);
	return ret;
}

/* Refused recipients of a run, each warned about once with a count:
 * what = "addr: 550 reply", note = what happened to the mails. */
struct refusals {
	struct strlist what, note;
	unsigned *count;
};

static void tally(struct refusals *r, const char *what, const char *note)
{
	for (size_t i = 0; i < r->what.nr; i++)
		if (!strcmp(r->what.items[i], what) && !strcmp(r->note.items[i], note)) {
			r->count[i]++;
			return;
		}
	strlist_append(&r->what, what);
	strlist_append(&r->note, note);
	r->count = xrealloc(r->count, sizeof(*r->count) * r->what.nr);
	r->count[r->what.nr - 1] = 1;
}

int sm_report_send(const struct sm_bot_config *cfg, struct sm_bot_state *st,
		   volatile sig_atomic_t *stop, struct sm_report_stats *stats)
{
	struct strlist names = STRLIST_INIT;
	struct refusals refusals = { STRLIST_INIT, STRLIST_INIT, NULL };
	struct sm_smtp smtp;
	struct sm_recover_stats rs;
	size_t i;
	int ret = 0;

	/* Mails a crash left half-sent first: recorded, or queued again. */
	if (sm_bot_recover(cfg, st, &rs))
		return -1;
	stats->in_doubt_sent = rs.confirmed;
	stats->in_doubt_resent = rs.requeued;
	if (sm_queue_list(st, &names))
		return -1;
	if (!names.nr)
		return sm_bot_state_fold(st) < 0 ? -1 : 0;
	if (sm_smtp_open(&smtp, cfg)) {
		strlist_clear(&names);
		return -1;
	}
	for (i = 0; i < names.nr && !(stop && *stop); i++) {
		struct sm_queued_mail m;
		enum sm_send_result r;

		if (sm_queue_load(st, names.items[i], &m)) {
			sm_warn("%s (left in the queue)", sm_last_error());
			sm_queued_mail_release(&m);
			stats->left++;
			continue;
		}
		/* Recorded as being sent before the server sees it: a crash from
		 * here to the rename into sent/ leaves it for sm_bot_recover. */
		if (sm_queue_mark_sending(st, m.name)) {
			sm_warn("%s (left in the queue)", sm_last_error());
			sm_queued_mail_release(&m);
			stats->left++;
			continue;
		}
		r = sm_smtp_send(&smtp, m.from, &m.rcpts, m.message, m.message_len);
		if ((r == SM_SEND_DEFERRED || r == SM_SEND_DOWN) && sm_sending_requeue(st, m.name))
			sm_warn("%s", sm_last_error());
		if (r == SM_SEND_OK) {
			if (sm_queue_mark_sent(st, m.name))
				sm_warn("%s", sm_last_error());
			stats->sent++;
			/* Delivered to the others (the list): the refused address is
			 * reported once, and not retried. */
			for (size_t k = 0; k < smtp.refused.nr; k++)
				tally(&refusals, smtp.refused.items[k], "the other recipients have them");
			stats->refused += (unsigned)smtp.refused.nr;
		} else if (r == SM_SEND_REFUSED) {
			if (smtp.refused.nr)
				tally(&refusals, smtp.refused.items[0], "kept in STATE/failed");
			else
				sm_warn("%s: refused: %s (kept in %s/failed)", m.name, sm_last_error(), st->dir);
			if (sm_queue_mark_failed(st, m.name))
				sm_warn("%s", sm_last_error());
			stats->refused++;
		} else if (r == SM_SEND_DEFERRED) {
			tally(&refusals, sm_last_error(), "deferred, kept in the queue");
			stats->deferred++;
		} else {
			sm_queued_mail_release(&m);
			stats->server_down = 1;
			break;
		}
		sm_queued_mail_release(&m);
	}
	for (size_t k = 0; k < refusals.what.nr; k++)
		sm_warn("%s: %u mail%s (%s)", refusals.what.items[k], refusals.count[k],
			refusals.count[k] == 1 ? "" : "s", refusals.note.items[k]);
	strlist_clear(&refusals.what);
	strlist_clear(&refusals.note);
	free(refusals.count);
	stats->left += (unsigned)(names.nr - i) + stats->deferred;
	if (stats->server_down) {
		ret = sm_error("%s (%u mail%s left in %s/queue for the next run)", sm_last_error(),
			       stats->left, stats->left == 1 ? "" : "s", st->dir);
	} else if (stats->left)
		ret = sm_error("%u mail%s left in %s/queue for the next run", stats->left,
			       stats->left == 1 ? "" : "s", st->dir);
	else if (stats->refused)
		ret = sm_error("the server refused %u mail%s to some recipient (see the warnings)",
			       stats->refused, stats->refused == 1 ? "" : "s");
	sm_smtp_close(&smtp);
	strlist_clear(&names);
	if (sm_bot_state_fold(st) < 0)
		ret = -1;
	return ret;
}
