/* map: a patch mail -> its upstream commit in a git repository.
 * 1. the "commit <sha> upstream." / "[ Upstream commit <sha> ]" line
 *    (rules/commit.h sm_find_upstream_ref), when that commit exists;
 * 2. the mail's Message-ID, against those the recent history's trailers
 *    name ("Link: https://lore.kernel.org/r/ID", patch.msgid.link/ID, DRM's
 *    patchwork, "Message-Id: <ID>"; mail/msgid.h): the very mail the maintainer
 *    applied, whatever became of its subject and diff;
 * 3. the subject, against the summaries of the recent history of the
 *    upstream ref (SM_MAP_HISTORY commits, newest first wins);
 * 4. the patch-id of the mail's diff (trees/patchid.h), against the
 *    patch-ids of the newest SM_MAP_PATCHID_HISTORY commits.
 * The history indexes are built on first need and kept (2 and 3 in one
 * walk). */
#ifndef SM_MAIL_MAP_H
#define SM_MAIL_MAP_H
#include <git2.h>

#define SM_MAP_HISTORY 100000
#define SM_MAP_PATCHID_HISTORY 2000

struct sm_mapper;

/* ref: the upstream ref (NULL: mainline as trees/mainline.h finds it,
 * HEAD's branch unless that is a stable branch). NULL on error (sm_error). */
struct sm_mapper *sm_mapper_open(const char *repo_path, const char *ref);
/* The ref it maps against, and a note on the default's choice (NULL: HEAD's
 * branch taken as it is, or the ref was given; trees/mainline.h). */
const char *sm_mapper_ref(const struct sm_mapper *m);
const char *sm_mapper_ref_note(const struct sm_mapper *m);
/* 1 mapped (*out set), 0 not found, -1 error. title: the subject without
 * tags; msgid: the mail's Message-ID without <> (NULL or "": none). */
int sm_map_patch(struct sm_mapper *m, const char *body, const char *title, const char *msgid,
		 git_oid *out);
git_repository *sm_mapper_repo(struct sm_mapper *m);
/* The commit the upstream ref pointed at when the mapper opened. */
const git_oid *sm_mapper_tip(const struct sm_mapper *m);
void sm_mapper_close(struct sm_mapper *m);

#endif
