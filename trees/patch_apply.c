/* patch_apply: see patch_apply.h. */
#include "trees/patch_apply.h"
#include "rules/commit.h"
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

/* Does diff text[0..len) apply to tree? 1 yes, 0 no, -1 unreadable. */
static int applies(git_repository *repo, git_tree *tree, const char *text, size_t len)
{
	git_diff *diff = NULL;
	git_index *index = NULL;
	git_apply_options opts;
	int ret;

	git_apply_options_init(&opts, GIT_APPLY_OPTIONS_VERSION);
	if (git_diff_from_buffer(&diff, text, len) < 0)
		return -1;
	opts.flags = GIT_APPLY_CHECK;
	ret = git_apply_to_tree(&index, repo, tree, diff, &opts) == 0;
	git_index_free(index);
	git_diff_free(diff);
	return ret;
}

enum sm_patch_fit sm_patch_fit(git_repository *repo, git_tree *tree, const char *text, size_t len)
{
	struct strbuf rev = STRBUF_INIT;
	const char *patch;
	size_t n;
	int fwd, back;

	patch = patch_of(text, len, &n);
	if (!patch)
		return SM_PATCH_UNKNOWN;
	fwd = applies(repo, tree, patch, n);
	sm_clear_error();
	if (fwd != 0)
		return fwd > 0 ? SM_PATCH_APPLIES : SM_PATCH_UNKNOWN;
	sm_patch_reverse(patch, n, &rev);
	back = applies(repo, tree, rev.buf, rev.len);
	sm_clear_error();
	strbuf_release(&rev);
	return back > 0 ? SM_PATCH_APPLIED : SM_PATCH_CONFLICTS;
}
