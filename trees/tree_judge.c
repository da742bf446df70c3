/* tree_judge: a stable tree's facts about one commit (see tree_judge.h). */
#include "trees/tree_judge.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

int sm_fixes_target_resolve(struct sm_release_tags *tags, git_repository *repo,
			    const char *abbrev, struct sm_fixes_target *out)
{
	memset(out, 0, sizeof(*out));
	if (sm_release_tags_resolve(tags, repo, abbrev, &out->id) < 0)
		return -1;
	git_oid_tostr(out->hex, sizeof(out->hex), &out->id);
	out->first = sm_first_release(tags, repo, &out->id);
	return 0;
}

/* Whether the tree has the bug: a Fixes: target in the tree's release or
 * an older one, or one the tree took as a backport (then this is a fix
 * for a fix it carries). A target that is in neither is a bug the tree
 * never had, but only when every Fixes: id resolved: an unknown one may
 * be the tree's. Without the tree's release tag on its branch (a clone
 * without tags) no release dates anything for the tree, but its index
 * then holds the branch's whole history: the target itself on it is the
 * bug in the tree, and a target not on it a bug the tree never had. */
static void judge_fixes(const struct sm_rules *r, struct sm_tree_state *t,
			const struct sm_tree_judge_input *in, struct sm_verdict *v)
{
	const struct sm_tree_spec *spec = t->spec;
	const struct sm_fixes_target *ff = NULL, *introduced = NULL, *absent = NULL;
	const struct sm_upstream_entry *ff_entry = NULL, *absent_copy = NULL, *absent_revert = NULL;
	const struct sm_upstream_entry *reverted;
	const struct sm_fixes_target *reverted_target = NULL;
	size_t not_in = 0;
	char vbuf[32], tail[128] = "";

	sm_version_str(&spec->version, vbuf, sizeof(vbuf));
	for (size_t k = 0; k < in->nr_targets; k++) {
		const struct sm_fixes_target *f = in->targets[k];
		const struct sm_upstream_entry *e;

		if (t->has_base && f->first &&
		    sm_version_cmp_tree(&f->first->version, &spec->version) <= 0) {
			if (!introduced)
				introduced = f;
			continue;
		}
		e = sm_upstream_index_find(&t->idx, f->hex, NULL, NULL, NULL);
		/* a backport of the target the tree reverted: the bug went
		 * with it */
		if (e && (reverted = sm_tree_state_revert_of(t, e)) != NULL) {
			if (!absent_revert) {
				absent_revert = reverted;
				absent_copy = e;
				reverted_target = f;
			}
			e = NULL;
		}
		if (e && !t->has_base && !strcmp(e->stable, f->hex)) {
			if (!introduced)
				introduced = f;
		} else if (e) {
			if (!ff) {
				ff = f;
				ff_entry = e;
			}
		} else {
			not_in++;
			if (!absent)
				absent = f;
		}
	}
	if (ff) {
		sm_verdict_add(v, "fix-for-fix", sm_rules_promote_weight(r),
			       "fixes %.12s, which %s carries as %.12s (first released in %s)",
			       ff->hex, spec->name, ff_entry->stable,
			       ff->first ? ff->first->name : "no release yet");
	} else if (introduced && !t->has_base) {
		sm_verdict_add(v, "bug-in-tree", 0, "the Fixes: target %.12s is on %s, so %s has the bug",
			       introduced->hex, spec->name, vbuf);
	} else if (introduced) {
		sm_verdict_add(v, "bug-in-tree", 0, "the Fixes: target %.12s is in %s, so %s has the bug",
			       introduced->hex, introduced->first->name, vbuf);
	} else if (not_in && !in->unresolved) {
		if (absent == reverted_target)
			snprintf(tail, sizeof(tail), "; %s took it as %.12s and reverted it (%.12s)",
				 spec->name, absent_copy->stable, absent_revert->stable);
		if (!t->has_base && *tail)
			sm_verdict_veto(v, "bug-not-in-tree", "the Fixes: target %.12s is not on %s%s",
					absent->hex, spec->name, tail);
		else if (!t->has_base)
			sm_verdict_veto(v, "bug-not-in-tree",
					"the Fixes: target %.12s is not on %s (nor a backport of it)",
					absent->hex, spec->name);
		else if (absent->first)
			sm_verdict_veto(v, "bug-not-in-tree",
					"the Fixes: target %.12s first appeared in %s, after %s%s",
					absent->hex, absent->first->name, vbuf, tail);
		else
			sm_verdict_veto(v, "bug-not-in-tree",
					"the Fixes: target %.12s is in no release yet%s", absent->hex, tail);
	}
}

/* The prerequisites the stable tags for this tree name, in or not in it. */
static void judge_prereqs(struct sm_tree_state *t, struct sm_release_tags *tags,
			  git_repository *repo, const struct sm_commit *c, struct sm_verdict *v,
			  struct strlist *deps)
{
	const struct sm_tree_spec *spec = t->spec;
	struct strlist named = STRLIST_INIT;	/* said once each */

	for (size_t k = 0; k < c->nr_stable; k++) {
		const struct sm_stable_tag *st = &c->stable[k];
		const struct sm_upstream_entry *e, *reverted;
		git_oid pid;
		char hex[41];

		if (!st->prereq_sha || sm_stable_tag_wants(st, &spec->version) == 0)
			continue;
		if (sm_release_tags_resolve(tags, repo, st->prereq_sha, &pid) == 0)
			git_oid_tostr(hex, sizeof(hex), &pid);
		else
			snprintf(hex, sizeof(hex), "%s", st->prereq_sha);
		if (strlist_contains(&named, hex))
			continue;
		strlist_append(&named, hex);
		e = sm_upstream_index_find(&t->idx, hex, NULL, st->prereq_subject, NULL);
		reverted = e ? sm_tree_state_revert_of(t, e) : NULL;
		if (!e || reverted)
			strlist_append(deps, hex);
		if (e && !reverted)
			sm_verdict_add(v, "prereq-present", 0, "prerequisite %.12s (%s) is in %s as %.12s",
				       hex, st->prereq_subject ? st->prereq_subject : "?", spec->name,
				       e->stable);
		else if (e)
			sm_verdict_add(v, "prereq", 0,
				       "needs %.12s (%s) first; %s took it as %.12s and reverted it (%.12s)",
				       hex, st->prereq_subject ? st->prereq_subject : "?", spec->name,
				       e->stable, reverted->stable);
		else
			sm_verdict_add(v, "prereq", 0, "needs %.12s (%s) first; %s does not have it", hex,
				       st->prereq_subject ? st->prereq_subject : "?", spec->name);
	}
	strlist_clear(&named);
}

void sm_tree_judge(const struct sm_rules *r, struct sm_tree_state *t,
		   struct sm_release_tags *tags, git_repository *repo,
		   const struct sm_tree_judge_input *in, struct sm_verdict *v,
		   char **present_as, struct strlist *deps)
{
	const struct sm_upstream_entry *e;
	enum sm_match how;

	e = sm_upstream_index_find(&t->idx, in->id, in->patch_id, in->c->subject, &how);
	if (!e && in->outside && (e = sm_upstream_index_find_subject(&t->idx, in->c->subject)))
		how = SM_MATCH_SUBJECT;
	if (e) {
		const struct sm_upstream_entry *revert = sm_tree_state_revert_of(t, e);

		if (present_as)
			*present_as = xstrdup(e->stable);
		/* taken and backed out: still no candidate (the tree had its
		 * reasons), but the reason says so */
		if (revert)
			sm_verdict_veto(v, "present",
					"taken into %s as %.12s and reverted there by %.12s (matched by %s)",
					t->spec->name, e->stable, revert->stable, sm_match_name(how));
		else
			sm_verdict_veto(v, "present", "already in %s as %.12s (matched by %s)",
					t->spec->name, e->stable, sm_match_name(how));
	}
	judge_fixes(r, t, in, v);
	judge_prereqs(t, tags, repo, in->c, v, deps);
}
