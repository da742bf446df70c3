/* patch_apply: see patch_apply.h. */
#include "trees/patch_apply.h"
#include "trees/part_tree.h"
#include "trees/patch_offset.h"
#include "trees/pick.h"
#include "trees/repo.h"
#include "trees/trial.h"
#include "trees/tree_files.h"
#include "rules/commit.h"
#include "lib/git.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

/* "index A..B[ MODE]" as "index B..A[ MODE]" into out; 0 (nothing
 * written) when line is no index line. */
static int swap_ids(const char *line, size_t len, struct strbuf *out)
{
	const char *dots = memmem(line, len, "..", 2), *end;

	if (!starts_with(line, "index ") || !dots)
		return 0;
	end = memchr(dots, ' ', len - (size_t)(dots - line));
	if (!end)
		end = line + len;
	strbuf_addstr(out, "index ");
	strbuf_add(out, dots + 2, (size_t)(end - dots - 2));
	strbuf_add(out, "..", 2);
	strbuf_add(out, line + 6, (size_t)(dots - line - 6));
	strbuf_add(out, end, (size_t)(line + len - end));
	return 1;
}

/* A header line of a file's patch with its two sides swapped; the
 * "---"/"+++" pair is swapped by the caller. */
static void reverse_header(const char *line, size_t len, struct strbuf *out)
{
	static const char *const pairs[][2] = {
		{ "new file mode ", "deleted file mode " },
		{ "old mode ", "new mode " },
		{ "rename from ", "rename to " },
		{ "copy from ", "copy to " },
	};

	if (swap_ids(line, len, out))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++)
		for (int k = 0; k < 2; k++)
			if (starts_with(line, pairs[i][k])) {
				size_t n = strlen(pairs[i][k]);

				strbuf_addstr(out, pairs[i][!k]);
				strbuf_add(out, line + n, len - n);
				return;
			}
	if (starts_with(line, "diff --git ")) {
		/* "diff --git a/X b/Y": the names swapped, each keeping the
		 * side's prefix */
		const char *b = memmem(line, len, " b/", 3);

		if (b && starts_with(line + 11, "a/")) {
			strbuf_addstr(out, "diff --git a/");
			strbuf_add(out, b + 3, (size_t)(line + len - b - 3));
			strbuf_addstr(out, " b/");
			strbuf_add(out, line + 13, (size_t)(b - line - 13));
			return;
		}
	}
	strbuf_add(out, line, len);
}

/* "--- a/X" or "+++ b/Y" as the other side's line: the marker and the
 * prefix ("a/", "b/"; /dev/null stays) changed */
static void other_side_name(const char *line, size_t len, struct strbuf *out)
{
	int was_old = line[0] == '-';
	const char *name = line + 4;
	size_t n = len - 4;

	strbuf_addstr(out, was_old ? "+++ " : "--- ");
	if (n >= 2 && (name[0] == 'a' || name[0] == 'b') && name[1] == '/') {
		strbuf_addch(out, was_old ? 'b' : 'a');
		name++;
		n--;
	}
	strbuf_add(out, name, n);
}

void sm_patch_reverse(const char *diff, size_t len, struct strbuf *out)
{
	const char *p = diff, *end = diff + len, *minus = NULL;
	size_t minus_len = 0;
	int old_left = 0, new_left = 0;	/* lines of the hunk still to read */

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int before, after;

		if (old_left > 0 || new_left > 0) {
			/* a hunk's line: a "--- x" here is a removed line */
			char c = n ? p[0] : ' ';

			if (c == '-' || c == '+') {
				strbuf_addch(out, c == '-' ? '+' : '-');
				strbuf_add(out, p + 1, n - 1);
				if (c == '-')
					old_left--;
				else
					new_left--;
			} else {
				strbuf_add(out, p, n);
				if (c != '\\') {
					old_left--;
					new_left--;
				}
			}
		} else if (starts_with(p, "@@ -") && sm_hunk_counts(p, n, &before, &after) == 0) {
			/* "@@ -a,b +c,d @@ rest" -> "@@ -c,d +a,b @@ rest" */
			const char *plus = memchr(p, '+', n), *close;

			close = plus ? memmem(plus, n - (size_t)(plus - p), " @@", 3) : NULL;
			if (!close) {
				strbuf_add(out, p, n);
			} else {
				strbuf_addstr(out, "@@ -");
				strbuf_add(out, plus + 1, (size_t)(close - plus - 1));
				strbuf_addstr(out, " +");
				strbuf_add(out, p + 4, (size_t)(plus - 1 - (p + 4)));
				strbuf_add(out, close, n - (size_t)(close - p));
			}
			old_left = before;
			new_left = after;
		} else if (starts_with(p, "--- ") && n >= 4) {
			minus = p;	/* written once its "+++" is read */
			minus_len = n;
			p += n + (nl != NULL);
			continue;
		} else if (starts_with(p, "+++ ") && minus) {
			other_side_name(p, n, out);
			strbuf_addch(out, '\n');
			other_side_name(minus, minus_len, out);
			minus = NULL;
		} else {
			reverse_header(p, n, out);
		}
		if (nl)
			strbuf_addch(out, '\n');
		p += n + (nl != NULL);
	}
	if (minus)	/* a "--- " line with no "+++": kept as it was */
		strbuf_add(out, minus, minus_len);
}

/* The patch of text: from its first "diff --git " line on. What follows
 * the last hunk (a mail's "-- " signature, a list's footer) libgit2 leaves
 * alone; cutting at the signature would cut a hunk that removes a "- "
 * line. */
static const char *patch_of(const char *text, size_t len, size_t *n)
{
	const char *start = len >= 11 && starts_with(text, "diff --git ") ? text :
			    memmem(text, len, "\ndiff --git ", 12);

	if (!start)
		return NULL;
	if (*start == '\n')
		start++;
	*n = (size_t)(text + len - start);
	return start;
}

/* A plain unified diff (quilt's, diff -u's: "--- a/x" and "+++ b/x" with
 * no "diff --git" line, as the stable review mails are) in git's format,
 * appended to out: the header libgit2 wants before each file, its paths
 * read as patch -p1 reads them. The hunks are copied as they are; lines
 * between files ("Index:", "diff -u", "===") are left out. 1 when text
 * held one, else 0. */
static int plain_to_git(const char *text, size_t len, struct strbuf *out)
{
	const char *p = sm_find_diff(text, text + len), *end = text + len;
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	int left_old = 0, left_new = 0, files = 0;

	if (!p)
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *next = p + n + (nl != NULL);
		int before, after;

		if (left_old > 0 || left_new > 0) {
			char c = n ? p[0] : ' ';

			if (c != '\\') {
				left_old -= c != '+';
				left_new -= c != '-';
			}
			strbuf_add(out, p, (size_t)(next - p));
		} else if (n > 4 && starts_with(p, "--- ") && next < end && starts_with(next, "+++ ")) {
			const char *plus = next, *pnl = memchr(plus, '\n', (size_t)(end - plus));
			size_t pn = pnl ? (size_t)(pnl - plus) : (size_t)(end - plus);
			int has_old = sm_plain_diff_path(p + 4, n - 4, &from);
			int has_new = sm_plain_diff_path(plus + 4, pn - 4, &to);

			if (!has_old && !has_new)
				break;
			strbuf_addf(out, "diff --git a/%s b/%s\n", has_old ? from.buf : to.buf,
				    has_new ? to.buf : from.buf);
			if (!has_old)
				strbuf_addstr(out, "new file mode 100644\n");
			if (!has_new)
				strbuf_addstr(out, "deleted file mode 100644\n");
			strbuf_addf(out, "--- %s%s\n", has_old ? "a/" : "", has_old ? from.buf : "/dev/null");
			strbuf_addf(out, "+++ %s%s\n", has_new ? "b/" : "", has_new ? to.buf : "/dev/null");
			files++;
			next = plus + pn + (pnl != NULL);
		} else if (files && sm_hunk_counts(p, n, &before, &after) == 0) {
			left_old = before;
			left_new = after;
			strbuf_add(out, p, (size_t)(next - p));
		} else if (files && !starts_with(p, "Index: ") && !starts_with(p, "diff ") &&
			   !starts_with(p, "===")) {
			strbuf_add(out, p, (size_t)(next - p));	/* after the last hunk */
		}
		p = next;
	}
	strbuf_release(&from);
	strbuf_release(&to);
	return files > 0;
}

/* Does diff text[0..len) apply to tree? 1 yes, 0 no, -1 unreadable. With
 * after not NULL, the tree it makes, written to repo (a trial's). It is
 * applied to the patch's files alone (trees/part_tree.h). */
static int applies(git_repository *repo, git_tree *tree, const char *text, size_t len,
		   git_oid *after)
{
	git_diff *diff = NULL;
	git_index *index = NULL;
	git_tree *files = NULL, *result = NULL;
	struct strlist paths = STRLIST_INIT;
	git_oid id;
	git_apply_options opts;
	int ret;

	git_apply_options_init(&opts, GIT_APPLY_OPTIONS_VERSION);
	if (git_diff_from_buffer(&diff, text, len) < 0)
		return -1;
	/* Where libgit2 is laxer than git apply: a new file the tree has
	 * already (git: "already exists"; libgit2 writes over it), and a
	 * file deleted that is not the one the patch names (git wants every
	 * line of it removed; libgit2 deletes whatever is left) */
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		git_oid there;

		if ((d->status == GIT_DELTA_ADDED && sm_tree_blob_at(tree, d->new_file.path, NULL)) ||
		    (d->status == GIT_DELTA_DELETED && d->old_file.id_abbrev &&
		     sm_tree_blob_at(tree, d->old_file.path, &there) &&
		     git_oid_ncmp(&there, &d->old_file.id, d->old_file.id_abbrev))) {
			git_diff_free(diff);
			return 0;
		}
	}
	opts.flags = after ? 0 : GIT_APPLY_CHECK;
	sm_diff_paths(diff, &paths);
	if (sm_part_tree(repo, tree, &paths, &id) < 0 || git_tree_lookup(&files, repo, &id) < 0)
		ret = -1;
	else
		ret = git_apply_to_tree(&index, repo, files, diff, &opts) == 0;
	if (ret > 0 && after &&
	    (git_index_write_tree_to(&id, index, repo) < 0 || git_tree_lookup(&result, repo, &id) < 0 ||
	     sm_part_overlay(repo, tree, result, &paths, after) < 0))
		ret = -1;
	git_index_free(index);
	git_tree_free(result);
	git_tree_free(files);
	git_diff_free(diff);
	strlist_clear(&paths);
	return ret;
}

/* A tree of entries e[0..n) alone (their path, id and mode), written to
 * repo; 0 or a libgit2 error. */
static int tree_of(git_repository *repo, const git_index_entry *e, size_t n, git_oid *out)
{
	git_index *index = NULL;
	int ret = git_index_new(&index);

	for (size_t i = 0; i < n && !ret; i++)
		ret = git_index_add(index, &e[i]);
	if (!ret)
		ret = git_index_write_tree_to(out, index, repo);
	git_index_free(index);
	return ret;
}

/* The blob f's abbreviated "index" id names, when repo holds it (once):
 * its full id into *out, 1; else 0. git_odb_expand_ids does not reload
 * the object store on a miss, as a lookup by prefix does (a readdir and a
 * stat of each pack: a quarter of a list's check, whose bases are mostly
 * in no repository at hand). */
static int base_blob(git_repository *repo, const git_diff_file *f, git_oid *out)
{
	git_odb *odb = NULL;
	git_odb_expand_id q;
	int found;

	memset(&q, 0, sizeof(q));
	git_oid_cpy(&q.id, &f->id);
	q.length = f->id_abbrev;
	q.type = GIT_OBJECT_BLOB;
	found = f->id_abbrev && git_repository_odb(&odb, repo) == 0 &&
		git_odb_expand_ids(odb, &q, 1) == 0 && q.length;
	if (found)
		git_oid_cpy(out, &q.id);
	git_odb_free(odb);
	return found;
}

/* The two sides the three-way merge starts from, as trees of the patch's
 * files alone (the rest of the tree is the same on every side, and a
 * merge of whole trees reads every one of its files: 0.4 s more for a
 * tree of 80,000):
 * - *base: each file the patch changes as it was before the patch (the
 *   blob its "index" line names, found in repo by the abbreviated id), as
 *   `git apply --build-fake-ancestor` makes it for `git am -3`;
 * - *ours: the files at paths (sm_diff_paths of diff) as tree has them:
 *   those the patch changes, and those it adds or renames to when tree
 *   has them.
 * 0, or -1 with the reason in why (size bytes): a base blob repo lacks, or
 * a file the patch changes that the tree lacks at its path (follow_moves
 * has renamed those it found under another path). */
static int patch_sides(git_repository *repo, git_tree *tree, git_diff *diff,
		       const struct strlist *paths, git_oid *base, git_oid *ours, char *why,
		       size_t size)
{
	size_t n = git_diff_num_deltas(diff), nr_base = 0;
	git_index_entry *b = xcalloc(n + 1, sizeof(*b));
	int ret = -1;

	for (size_t i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const git_diff_file *old = &d->old_file;
		char hex[GIT_OID_HEXSZ + 1];

		if (d->status == GIT_DELTA_ADDED)
			continue;
		if (git_oid_is_zero(&old->id) || !old->id_abbrev) {
			snprintf(why, size, "the patch names no base of %s (no \"index\" line)",
				 old->path);
			goto out;
		}
		if (!base_blob(repo, old, &b[nr_base].id)) {
			git_oid_tostr(hex, (size_t)old->id_abbrev + 1, &old->id);
			snprintf(why, size, "its base of %s, blob %s, is not in the repository",
				 old->path, hex);
			goto out;
		}
		b[nr_base].path = old->path;
		b[nr_base++].mode = old->mode ? old->mode : GIT_FILEMODE_BLOB;
		/* the merge would see the tree delete it: a conflict that
		 * says nothing of the patch */
		if (!sm_tree_blob_at(tree, old->path, NULL)) {
			snprintf(why, size, "the tree has no %s, nor a file like it under another path",
				 old->path);
			goto out;
		}
	}
	if (tree_of(repo, b, nr_base, base) < 0 || sm_part_tree(repo, tree, paths, ours) < 0)
		snprintf(why, size, "cannot hold its base (%s)", sm_git_error());
	else
		ret = 0;
out:
	free(b);
	return ret;
}

/* The tree's files named name, their paths appended to found, and those
 * holding blob base, whatever their name, to same_content */
struct same_name {
	const char *name;
	const git_oid *base;
	struct strlist found, same_content;
};

static int collect_same_name(const char *root, const git_tree_entry *e, void *payload)
{
	struct same_name *s = payload;
	const char *name = git_tree_entry_name(e);

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	if (!strcmp(name, s->name))
		strlist_append_nodup(&s->found, xasprintf("%s%s", root, name));
	if (git_oid_equal(git_tree_entry_id(e), s->base))
		strlist_append_nodup(&s->same_content, xasprintf("%s%s", root, name));
	return 0;
}

/* The one file of same_content not taken, when there is one and only
 * one: a blob held by two files (a copy, an empty file) says nothing of
 * which of them was this one. */
static const char *only_other(const struct strlist *same_content, const struct strlist *taken)
{
	const char *only = NULL;

	for (size_t i = 0; i < same_content->nr; i++) {
		if (strlist_contains(taken, same_content->items[i]))
			continue;
		if (only)
			return NULL;
		only = same_content->items[i];
	}
	return only;
}

/* The files of the tree's directory dir (len bytes of a path, with its
 * '/'; 0: the top) whose names end in ext (".c") and are not name,
 * their paths appended to found. */
static void collect_same_dir(git_tree *tree, const char *dir, size_t len, const char *name,
			     const char *ext, struct strlist *found)
{
	git_tree_entry *at = NULL;
	git_tree *sub = NULL;
	const git_tree *in = tree;
	char *path = xstrndup(dir, len);

	if (len) {
		path[len - 1] = '\0';	/* libgit2 wants the directory without its '/' */
		if (git_tree_entry_bypath(&at, tree, path) || git_tree_entry_type(at) != GIT_OBJECT_TREE ||
		    git_tree_lookup(&sub, git_tree_owner(tree), git_tree_entry_id(at)))
			goto out;
		in = sub;
	}
	for (size_t i = 0, el = strlen(ext); i < git_tree_entrycount(in); i++) {
		const git_tree_entry *e = git_tree_entry_byindex(in, i);
		const char *n = git_tree_entry_name(e);
		size_t nl = strlen(n);

		/* more than the extension: ".c" alone names no file of its kind */
		if (git_tree_entry_type(e) == GIT_OBJECT_BLOB && strcmp(n, name) && nl > el &&
		    ends_with_n(n, nl, ext))
			strlist_append_nodup(found, xasprintf("%.*s%s", (int)len, dir, n));
	}
out:
	git_tree_free(sub);
	git_tree_entry_free(at);
	free(path);
}

/* Where the tree keeps the file the patch calls path, which it lacks at
 * that path: the file most like base (the patch's blob before), when half
 * alike or more, as git calls a rename, and not one of taken, of
 * - the tree's files of the same base name, anywhere: a directory renamed
 *   or a driver moved out of staging, the file keeping its name;
 * - the files of path's own directory with its extension: a file renamed
 *   where it is (sound/core/timer.c, once timer_user.c), which git am -3
 *   finds by content as well;
 * - with gone (NULL: no mainline known), the tree's files of its kind that
 *   mainline lacks at their path: where mainline moved a file from, under
 *   any name (sm_tree_files_most_like), as git am -3's rename detection
 *   finds it among all the tree's files; these are the ones it can be.
 * Ties go to the file of the same name, then to one in its directory.
 * Failing a file that is base itself among those, the one file anywhere
 * that is base, blob for blob (git am -3's exact rename). NULL when none;
 * the caller frees. It reads every directory of the tree, so it is asked
 * only when the patch has no other way in. */
static char *moved_to(git_repository *repo, git_tree *tree, const char *path,
		      const git_oid *base, const struct strlist *taken, struct sm_tree_files *gone)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	const char *ext = strrchr(name, '.'), *identical;
	struct same_name s = { name, base, STRLIST_INIT, STRLIST_INIT };
	git_hashsig *mine = sm_blob_signature(repo, base);
	size_t size = sm_blob_size(repo, base);
	char *best = NULL;
	int best_score = 49;

	/* by likeness with its signature, by its blob with its size (an
	 * empty base, or one not read, is no blob to look for) */
	if ((mine || size) && git_tree_walk(tree, GIT_TREEWALK_PRE, collect_same_name, &s) == 0) {
		/* a name of only an extension (".config") names no kind of file */
		if (ext && ext != name)
			collect_same_dir(tree, path, (size_t)(name - path), name, ext, &s.found);
		for (size_t i = 0; mine && i < s.found.nr; i++) {
			git_oid id;
			git_hashsig *theirs;
			int score;

			if (strlist_contains(taken, s.found.items[i]) ||
			    !sm_tree_blob_at(tree, s.found.items[i], &id) ||
			    !sm_sizes_may_be_alike(size, sm_blob_size(repo, &id)) ||
			    !(theirs = sm_blob_signature(repo, &id)))
				continue;
			score = git_hashsig_compare(mine, theirs);
			git_hashsig_free(theirs);
			if (score > best_score) {
				best_score = score;
				free(best);
				best = xstrdup(s.found.items[i]);
			}
		}
		if (mine && gone && best_score < 100) {
			int score;
			const char *like = sm_tree_files_most_like(gone, path, mine, size, taken,
								   tree, best_score + 1, &score);

			if (like) {
				best_score = score;
				free(best);
				best = xstrdup(like);
			}
		}
		if (size && best_score < 100 && (identical = only_other(&s.same_content, taken))) {
			free(best);
			best = xstrdup(identical);
		}
	}
	sm_clear_error();
	git_hashsig_free(mine);
	strlist_clear(&s.found);
	strlist_clear(&s.same_content);
	return best;
}

/* The patch with the file from renamed to to in its headers ("diff --git
 * a/X b/X", and the "--- a/X" and "+++ b/X" before its first hunk),
 * appended to out. */
static void retarget(const char *patch, size_t len, const char *from, const char *to,
		     struct strbuf *out)
{
	const char *p = patch, *end = patch + len;
	char *git_line = xasprintf("diff --git a/%s b/%s", from, from);
	char *old_line = xasprintf("--- a/%s", from), *new_line = xasprintf("+++ b/%s", from);
	int in_header = 0;	/* between its "diff --git" and its first "@@" */

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

#define IS(line) (n == strlen(line) && !memcmp(p, line, n))
		if (IS(git_line)) {
			strbuf_addf(out, "diff --git a/%s b/%s", to, to);
			in_header = 1;
		} else if (in_header && IS(old_line)) {
			strbuf_addf(out, "--- a/%s", to);
		} else if (in_header && IS(new_line)) {
			strbuf_addf(out, "+++ b/%s", to);
		} else {
			if (starts_with(p, "@@ ") || starts_with(p, "diff --git "))
				in_header = 0;
			strbuf_add(out, p, n);
		}
#undef IS
		if (nl)
			strbuf_addch(out, '\n');
		p += n + (nl != NULL);
	}
	free(git_line);
	free(old_line);
	free(new_line);
}

/* The files the patch changes in place that the tree lacks at their path
 * but keeps under another (moved_to): the patch (*diff, parsed from
 * patch[0..n)) is renamed to the tree's paths, *diff parsed again, and
 * each pair appended to info->moved. 0, or -1 when the renamed patch
 * cannot be read. */
static int follow_moves(git_repository *repo, git_tree *tree, git_diff **diff, const char *patch,
			size_t n, struct sm_tree_files *gone, struct sm_patch_fit_info *info)
{
	struct strbuf cur = STRBUF_INIT, next = STRBUF_INIT, swap;
	/* no file the patch itself names, nor one already moved to, can be
	 * where another of its files went: a patch to two near copies (x1.c,
	 * x2.c) on a tree without x1.c would have both its parts on x2.c */
	struct strlist taken = STRLIST_INIT;
	int ret = 0;

	sm_diff_paths(*diff, &taken);
	strbuf_add(&cur, patch, n);
	for (size_t i = 0; i < git_diff_num_deltas(*diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(*diff, i);
		git_oid base;
		char *to;

		if (d->status != GIT_DELTA_MODIFIED || strcmp(d->old_file.path, d->new_file.path) ||
		    sm_tree_blob_at(tree, d->old_file.path, NULL) || !base_blob(repo, &d->old_file, &base))
			continue;
		to = moved_to(repo, tree, d->old_file.path, &base, &taken, gone);
		if (!to)
			continue;
		strlist_append(&taken, to);
		strlist_append(&info->moved, d->old_file.path);
		strlist_append_nodup(&info->moved, to);
		strbuf_reset(&next);
		retarget(cur.buf, cur.len, d->old_file.path, to, &next);
		swap = cur;
		cur = next;
		next = swap;
	}
	sm_clear_error();
	if (info->moved.nr) {
		git_diff_free(*diff);
		*diff = NULL;
		ret = git_diff_from_buffer(diff, cur.buf, cur.len);
	}
	strlist_clear(&taken);
	strbuf_release(&cur);
	strbuf_release(&next);
	return ret;
}

/* `git am -3`: the patch applied to its base, and the change from the
 * base to that merged into onto, a tree of t's repository (patch_sides:
 * on the patch's files alone). SM_PATCH_MERGES (with after not NULL,
 * the tree it makes into *after), SM_PATCH_APPLIED when the merge
 * changes nothing, SM_PATCH_CONFLICTS (info says where, or why no merge
 * was tried). What it writes goes to t's in-memory store. */
static enum sm_patch_fit three_way(struct sm_trial *t, git_tree *onto, const char *patch,
				   size_t n, struct sm_tree_files *gone,
				   struct sm_patch_fit_info *info, git_oid *after)
{
	git_diff *diff = NULL;
	git_tree *base = NULL, *ours = NULL, *theirs = NULL, *merged = NULL;
	git_index *applied = NULL;
	struct strlist paths = STRLIST_INIT;
	git_oid base_id, ours_id, id;
	enum sm_patch_fit fit = SM_PATCH_CONFLICTS;
	char *why = info->no_three_way;
	size_t size = sizeof(info->no_three_way);
	int r;

	if (git_diff_from_buffer(&diff, patch, n) < 0) {
		snprintf(why, size, "cannot read the patch (%s)", sm_git_error());
		goto out;
	}
	if (follow_moves(t->repo, onto, &diff, patch, n, gone, info) < 0) {
		snprintf(why, size, "cannot read the patch on the tree's paths (%s)", sm_git_error());
		goto out;
	}
	sm_diff_paths(diff, &paths);
	if (patch_sides(t->repo, onto, diff, &paths, &base_id, &ours_id, why, size) < 0)
		goto out;
	if (git_tree_lookup(&base, t->repo, &base_id) < 0 ||
	    git_tree_lookup(&ours, t->repo, &ours_id) < 0 ||
	    git_apply_to_tree(&applied, t->repo, base, diff, NULL) < 0) {
		snprintf(why, size, "it does not apply to its own base either");
		goto out;
	}
	if (git_index_write_tree_to(&id, applied, t->repo) < 0 ||
	    git_tree_lookup(&theirs, t->repo, &id) < 0) {
		snprintf(why, size, "cannot hold the patched base (%s)", sm_git_error());
		goto out;
	}
	r = sm_merge_change(t->repo, base, ours, theirs, &id, &info->conflicts, NULL);
	if (r < 0) {
		snprintf(why, size, "the three-way merge failed (%s)", sm_git_error());
		goto out;
	}
	if (r == SM_PICK_CLEAN && after) {
		if (git_tree_lookup(&merged, t->repo, &id) < 0 ||
		    sm_part_overlay(t->repo, onto, merged, &paths, after) < 0) {
			snprintf(why, size, "cannot hold the merged tree (%s)", sm_git_error());
			goto out;
		}
	}
	info->three_way = 1;
	info->base_as_is = info->moved.nr && git_oid_equal(&base_id, &ours_id);
	/* the patch's files as the tree has them: it has the change already */
	if (r == SM_PICK_CLEAN)
		fit = git_oid_equal(&id, &ours_id) ? SM_PATCH_APPLIED : SM_PATCH_MERGES;
out:
	git_tree_free(merged);
	git_index_free(applied);
	strlist_clear(&paths);
	git_tree_free(theirs);
	git_tree_free(ours);
	git_tree_free(base);
	git_diff_free(diff);
	sm_clear_error();
	return fit;
}

void sm_patch_fit_info_release(struct sm_patch_fit_info *info)
{
	strlist_clear(&info->conflicts);
	strlist_clear(&info->moved);
	memset(info, 0, sizeof(*info));
}

/* How the patch of text fits onto, a tree of t's repository (gone: see
 * moved_to); with after not NULL, the tree it makes there when it applies
 * or merges. */
static enum sm_patch_fit fit_onto(struct sm_trial *t, const git_oid *onto, const char *text,
				  size_t len, struct sm_tree_files *gone,
				  struct sm_patch_fit_info *info, git_oid *after)
{
	struct strbuf rev = STRBUF_INIT, moved = STRBUF_INIT, git_fmt = STRBUF_INIT;
	enum sm_patch_fit fit;
	git_tree *tree = NULL;
	const char *patch;
	size_t n;
	int fwd, back;

	patch = patch_of(text, len, &n);
	if (!patch && plain_to_git(text, len, &git_fmt)) {
		patch = git_fmt.buf;
		n = git_fmt.len;
	}
	if (!patch) {
		strbuf_release(&git_fmt);
		return SM_PATCH_UNKNOWN;
	}
	if (git_tree_lookup(&tree, t->repo, onto) < 0) {
		snprintf(info->no_three_way, sizeof(info->no_three_way), "cannot read the tree (%s)",
			 sm_git_error());
		sm_clear_error();
		strbuf_release(&git_fmt);
		return SM_PATCH_UNKNOWN;
	}
	/* each hunk where the tree has its lines, as git apply finds them */
	sm_patch_at_offsets(t->repo, tree, patch, n, &moved);
	fwd = applies(t->repo, tree, moved.buf, moved.len, after);
	sm_clear_error();
	if (fwd != 0) {
		fit = fwd > 0 ? SM_PATCH_APPLIES : SM_PATCH_UNKNOWN;
		goto out;
	}
	sm_patch_reverse(patch, n, &rev);
	strbuf_reset(&moved);
	sm_patch_at_offsets(t->repo, tree, rev.buf, rev.len, &moved);
	back = applies(t->repo, tree, moved.buf, moved.len, NULL);
	sm_clear_error();
	fit = back > 0 ? SM_PATCH_APPLIED : three_way(t, tree, patch, n, gone, info, after);
out:
	strbuf_release(&rev);
	strbuf_release(&moved);
	strbuf_release(&git_fmt);
	git_tree_free(tree);
	return fit;
}

enum sm_patch_fit sm_patch_fit(git_repository *repo, git_tree *tree, const char *text, size_t len,
			       struct sm_tree_files *gone, struct sm_patch_fit_info *info)
{
	struct sm_patch_fit_info mine;
	struct sm_trial t;
	enum sm_patch_fit fit;

	if (!info)
		info = &mine;
	memset(info, 0, sizeof(*info));
	if (sm_trial_open(&t, repo) < 0) {
		sm_clear_error();
		return SM_PATCH_UNKNOWN;
	}
	/* no tree after it: nothing goes onto it */
	fit = fit_onto(&t, git_tree_id(tree), text, len, gone, info, NULL);
	sm_trial_release(&t);
	if (info == &mine)
		sm_patch_fit_info_release(&mine);
	return fit;
}

int sm_patch_series_open(struct sm_patch_series *s, git_repository *repo, const git_oid *tree,
			 struct sm_tree_files *gone)
{
	memset(s, 0, sizeof(*s));
	s->gone = gone;
	if (sm_trial_open(&s->trial, repo) < 0)
		return -1;
	git_oid_cpy(&s->tree, tree);
	return 0;
}

enum sm_patch_fit sm_patch_series_next(struct sm_patch_series *s, const char *text, size_t len,
				       struct sm_patch_fit_info *info)
{
	struct sm_patch_fit_info mine;
	enum sm_patch_fit fit;
	git_oid after;

	if (!info)
		info = &mine;
	memset(info, 0, sizeof(*info));
	info->after = s->applied;
	info->tried_before = s->tried;
	fit = fit_onto(&s->trial, &s->tree, text, len, s->gone, info, &after);
	if (fit != SM_PATCH_UNKNOWN)	/* a cover letter is no patch */
		s->tried++;
	if (fit == SM_PATCH_APPLIES || fit == SM_PATCH_MERGES) {
		git_oid_cpy(&s->tree, &after);
		s->applied++;
	}
	if (info == &mine)
		sm_patch_fit_info_release(&mine);
	return fit;
}

void sm_patch_series_release(struct sm_patch_series *s)
{
	sm_trial_release(&s->trial);	/* and what it held in memory */
	memset(s, 0, sizeof(*s));
}
