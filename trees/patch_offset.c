/* patch_offset: see patch_offset.h. The search is git apply's (apply.c,
 * find_pos): from the line the hunk names, moved by what the hunk before
 * it in the file moved, one line up, one line down, and so on, over the
 * whole file (a hunk may land above the one before it, as in git); a hunk
 * that starts at the file's first line must match there, and one without
 * trailing context at its end. libgit2 applies the hunks one after the
 * other, each at its new-side line in the file as the ones before it left
 * it, so that line is worked out from where those landed. */
#include "trees/patch_offset.h"
#include "trees/repo.h"
#include "rules/commit.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* A line of text, without its "\n". */
struct span {
	const char *s;
	size_t n;
};

/* The tree's file a hunk is looked for in, as lines, and where its hunks
 * so far landed. */
struct file_lines {
	git_blob *blob;		/* NULL: the tree lacks it */
	struct span *line;
	size_t nr, alloc;
	struct placed {
		size_t at, old, new;	/* its first line; its lines before and after */
	} *placed;
	size_t nr_placed, alloc_placed;
};

static void file_release(struct file_lines *f)
{
	git_blob_free(f->blob);
	free(f->line);
	free(f->placed);
	memset(f, 0, sizeof(*f));
}

/* Do lines [at, at + n) take in a line a hunk before changed? */
static int overlaps(const struct file_lines *f, size_t at, size_t n)
{
	for (size_t i = 0; i < f->nr_placed; i++)
		if (at < f->placed[i].at + f->placed[i].old && f->placed[i].at < at + n)
			return 1;
	return 0;
}

/* Where line at of the file is once the hunks so far are applied */
static size_t after_placed(const struct file_lines *f, size_t at)
{
	long shift = 0;

	for (size_t i = 0; i < f->nr_placed; i++)
		if (f->placed[i].at < at)
			shift += (long)f->placed[i].new - (long)f->placed[i].old;
	return (size_t)((long)at + shift);
}

/* f: the file at path in tree (f left empty when the tree lacks it) */
static void file_load(git_repository *repo, git_tree *tree, const char *path,
		      struct file_lines *f)
{
	const char *p, *end;
	git_oid id;

	file_release(f);
	if (sm_tree_blob_at(tree, path, &id) && git_blob_lookup(&f->blob, repo, &id) == 0) {
		p = git_blob_rawcontent(f->blob);
		end = p + git_blob_rawsize(f->blob);
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

			ALLOC_GROW(f->line, f->nr + 1, f->alloc);
			f->line[f->nr].s = p;
			f->line[f->nr++].n = n;
			p += n + (nl != NULL);
		}
	}
	sm_clear_error();
}

/* Does f have old[0..nr) at line at, untouched by the hunks so far? */
static int matches_at(const struct file_lines *f, const struct span *old, size_t nr, size_t at)
{
	if (at + nr > f->nr || overlaps(f, at, nr))
		return 0;
	for (size_t i = 0; i < nr; i++)
		if (f->line[at + i].n != old[i].n || memcmp(f->line[at + i].s, old[i].s, old[i].n))
			return 0;
	return 1;
}

/* The line of f nearest to want where old[0..nr) is; -1 when none.
 * at_start, at_end: only at the file's first line, or ending at its last. */
static long find_lines(const struct file_lines *f, const struct span *old, size_t nr, size_t want,
		       int at_start, int at_end)
{
	if (at_start)
		return (!at_end || nr == f->nr) && matches_at(f, old, nr, 0) ? 0 : -1;
	if (at_end) {
		size_t at = f->nr >= nr ? f->nr - nr : 0;

		return matches_at(f, old, nr, at) ? (long)at : -1;
	}
	for (size_t d = 0; d <= want || want + d <= f->nr; d++) {
		if (want >= d && matches_at(f, old, nr, want - d))
			return (long)(want - d);
		if (d && matches_at(f, old, nr, want + d))
			return (long)(want + d);
	}
	return -1;
}

/* A hunk header of git's, "@@ -a[,b] +c[,d] @@rest": h read (sm_hunk_header)
 * and 0, or -1 */
static int hunk_header(const char *line, size_t len, struct sm_hunk *h)
{
	return sm_hunk_header(line, len, h) < 0 || len - h->read < 3 ||
	       memcmp(line + h->read, " @@", 3) ? -1 : 0;
}

unsigned sm_patch_at_offsets(git_repository *repo, git_tree *tree, const char *patch, size_t len,
			     struct strbuf *out)
{
	const char *p = patch, *end = patch + len;
	struct file_lines f = { 0 };
	struct strbuf name = STRBUF_INIT;
	struct span *old = NULL;
	size_t alloc_old = 0;
	long offset = 0;	/* of the file's last hunk: where the next is looked for */
	unsigned moved = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p), nr_old = 0;
		const char *body, *q, *rest;
		struct sm_hunk h;
		long left_old, left_new, at = -1;
		int leading = 0, trailing = 0, first = 1;

		if (n >= 4 && !memcmp(p, "--- ", 4)) {
			/* a file's patch begins: its lines as the tree has them */
			if (sm_plain_diff_path(p + 4, n - 4, &name))
				file_load(repo, tree, name.buf, &f);
			else
				file_release(&f);
			offset = 0;
		}
		if (hunk_header(p, n, &h) < 0) {
			strbuf_add(out, p, n + (nl != NULL));
			p += n + (nl != NULL);
			continue;
		}
		/* the hunk's old lines (context and removed), read ahead */
		rest = p + h.read + 3;	/* after " @@" */
		body = q = p + n + (nl != NULL);
		left_old = h.old_lines;
		left_new = h.new_lines;
		while (q < end && (left_old > 0 || left_new > 0)) {
			const char *qn = memchr(q, '\n', (size_t)(end - q));
			size_t m = qn ? (size_t)(qn - q) : (size_t)(end - q);
			char k = m ? q[0] : ' ';

			if (k == ' ' || k == '-') {
				ALLOC_GROW(old, nr_old + 1, alloc_old);
				old[nr_old].s = m ? q + 1 : q;
				old[nr_old++].n = m ? m - 1 : 0;
				left_old--;
			}
			if (k == ' ' || k == '+')
				left_new--;
			if (k != '\\') {
				if (first)
					leading = k == ' ';
				trailing = k == ' ';
				first = 0;
			}
			q += m + (qn != NULL);
		}
		if (f.blob && nr_old && (size_t)h.old_lines == nr_old) {
			long want = (h.old_start > 0 ? h.old_start - 1 : 0) + offset;

			at = find_lines(&f, old, nr_old, want > 0 ? (size_t)want : 0,
					h.old_start <= 1 && !leading, !trailing);
		}
		if (at >= 0) {
			long new_at = (long)after_placed(&f, (size_t)at) + 1;

			if (at + 1 != h.old_start || new_at != h.new_start) {
				strbuf_addf(out, "@@ -%ld,%ld +%ld,%ld @@", at + 1, h.old_lines, new_at,
					    h.new_lines);
				strbuf_add(out, rest, (size_t)(p + n - rest));
				strbuf_addch(out, '\n');
				moved++;
			} else {
				strbuf_add(out, p, n + (nl != NULL));
			}
			offset = at + 1 - h.old_start;
			ALLOC_GROW(f.placed, f.nr_placed + 1, f.alloc_placed);
			f.placed[f.nr_placed++] =
				(struct placed){ (size_t)at, (size_t)h.old_lines, (size_t)h.new_lines };
		} else {
			strbuf_add(out, p, n + (nl != NULL));
		}
		/* the hunk's lines as they are */
		strbuf_add(out, body, (size_t)(q - body));
		p = q;
	}
	file_release(&f);
	strbuf_release(&name);
	free(old);
	return moved;
}
