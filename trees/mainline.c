/* mainline: which branch of a repository is mainline (see mainline.h). */
#include "trees/mainline.h"
#include "trees/ancestry.h"
#include "trees/repo.h"
#include "rules/version.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>

int sm_is_stable_branch_name(const char *name)
{
	const char *base = strrchr(name, '/'), *end;
	struct sm_version v;

	base = base ? base + 1 : name;
	/* sm_version_parse reads "6.1.y" whole, as the series 6.1 */
	return !strncmp(base, "linux-", 6) && isdigit((unsigned char)base[6]) &&
	       sm_version_parse(base + 6, &end, &v) == 0 && v.patch < 0 && !*end &&
	       end - base > 8 && !strcmp(end - 2, ".y");
}

/* Whether ref resolves to a commit that is end or a descendant of it;
 * end NULL: whether it resolves at all. */
static int holds(git_repository *repo, const char *ref, const git_oid *end, const char *cache_dir)
{
	git_oid tip;

	if (sm_resolve_commit(repo, ref, &tip) < 0) {
		sm_clear_error();
		return 0;
	}
	return !end || git_oid_equal(&tip, end) ||
	       sm_descendant_of_cached(repo, &tip, end, cache_dir) == 1;
}

/* The first of master, main and each remote's that holds end, or NULL */
static char *mainline_holding(git_repository *repo, const git_oid *end, const char *cache_dir)
{
	static const char *const names[] = { "master", "main" };
	struct strlist remotes = STRLIST_INIT;
	char *found = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (holds(repo, names[i], end, cache_dir))
			return xstrdup(names[i]);
	sm_remote_names(repo, &remotes);
	for (size_t r = 0; r < remotes.nr && !found; r++)
		for (size_t i = 0; i < ARRAY_SIZE(names) && !found; i++) {
			char *name = xasprintf("%s/%s", remotes.items[r], names[i]);

			if (holds(repo, name, end, cache_dir))
				found = name;
			else
				free(name);
		}
	strlist_clear(&remotes);
	return found;
}

/* HEAD's branch, "HEAD" when detached, NULL when unborn */
static char *head_branch(git_repository *repo)
{
	git_reference *head = NULL;
	char *name = NULL;

	if (git_repository_head(&head, repo) == 0)
		name = xstrdup(git_repository_head_detached(repo) == 1 ?
			       "HEAD" : git_reference_shorthand(head));
	git_reference_free(head);
	return name;
}

/* sm_mainline_ref without a range: HEAD's branch unless it is unborn or a
 * stable branch */
static char *mainline_of_head(git_repository *repo, char **note)
{
	char *head = head_branch(repo), *found;

	if (head && !sm_is_stable_branch_name(head))
		return head;
	found = mainline_holding(repo, NULL, NULL);
	if (!found && head) {
		*note = xasprintf("HEAD's %s is a stable branch, and no master or main is here", head);
		return head;
	}
	if (!found)
		return xstrdup("HEAD");
	*note = head ? xasprintf("HEAD's %s is a stable branch", head) : xstrdup("HEAD is unborn");
	free(head);
	return found;
}

char *sm_mainline_ref(git_repository *repo, const git_oid *end, const char *end_name,
		      const char *cache_dir, char **note)
{
	struct strbuf sb = STRBUF_INIT;
	char *head, *found;

	*note = NULL;
	if (!end)
		return mainline_of_head(repo, note);
	head = head_branch(repo);
	if (head && holds(repo, head, end, cache_dir))
		return head;
	found = mainline_holding(repo, end, cache_dir);
	if (!head)
		strbuf_addstr(&sb, "HEAD is unborn");
	else if (!strcmp(head, "HEAD"))
		strbuf_addf(&sb, "the detached HEAD does not hold %s", end_name);
	else
		strbuf_addf(&sb, "HEAD's %s does not hold %s", head, end_name);
	if (!found && head)
		strbuf_addstr(&sb, ", nor does a master or main hold it: nothing past it is read");
	else if (!found)
		strbuf_addf(&sb, " and no master or main holds %s: nothing past it is read", end_name);
	*note = strbuf_detach(&sb, NULL);
	free(head);
	return found ? found : xstrdup(end_name);
}
