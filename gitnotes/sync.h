/* sync: sharing review notes between maintainers with plain git remotes.
 *
 * setup configures a repository so that plain `git log` shows the reviews
 * (notes.displayRef) and, for a remote, adds the fetch refspec
 *   +refs/notes/stable-review:refs/notes/remotes/NAME/stable-review
 * sync fetches that refspec of every remote that has one and merges each
 * fetched ref into ours review by review (sm_notes_merge_ref). */
#ifndef SM_GITNOTES_SYNC_H
#define SM_GITNOTES_SYNC_H
#include <git2.h>
#include <stddef.h>
#include "gitnotes/notes.h"

struct sm_notes_setup_result {
	int display_added;	/* notes.displayRef was not there yet */
	int remote_created;	/* the remote did not exist */
	int refspec_added;	/* its notes refspec was not there yet */
};

/* Configures repo's own config (.git/config). remote and url may both be
 * NULL (display only); an existing remote must have the same URL.
 * 0 or -1 (sm_error names the remote or the config key). */
int sm_notes_setup(git_repository *repo, const char *notes_ref, const char *remote,
		   const char *url, struct sm_notes_setup_result *res);

/* "refs/notes/remotes/NAME/<last part of notes_ref>", caller frees. */
char *sm_notes_remote_ref(const char *remote, const char *notes_ref);

struct sm_notes_sync_remote {
	char *name;
	int fetched;		/* the remote had the notes ref */
	int failed;		/* fetch or merge failed: error holds why */
	char *error;
	struct sm_notes_merge_stats merge;
};

struct sm_notes_sync_result {
	struct sm_notes_sync_remote *remotes;
	size_t nr;
};

/* What sm_notes_sync returns when something could be tried (else -1). */
enum sm_sync_status {
	SM_SYNC_ALL = 0,		/* every remote synced */
	SM_SYNC_SOME_FAILED = 1,	/* some did not: their error is in the result */
};

/* Fetches and merges every configured remote whose fetch refspecs include
 * notes_ref. A remote that fails is recorded and the others still synced.
 * Returns SM_SYNC_ALL when every remote synced, SM_SYNC_SOME_FAILED when
 * some failed (their error in the result), -1 when nothing could be tried
 * (sm_error). */
int sm_notes_sync(git_repository *repo, const char *notes_ref, struct sm_notes_sync_result *res);
void sm_notes_sync_result_release(struct sm_notes_sync_result *res);

#endif
