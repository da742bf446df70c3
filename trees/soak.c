/* soak: stable-tag soak conditions against the tag graph and commit dates. */
#include "trees/soak.h"
#include "trees/repo.h"
#include "lib/util.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int rc_cb(const char *refname, void *payload)
{
	struct sm_soak *s = payload;
	struct sm_version v;
	const char *name;
	int rc;

	if (!skip_prefix(refname, "refs/tags/", &name))
		return 0;
	if (sm_version_from_tag(name, &v, &rc) < 0 || rc <= 0)
		return 0;
	ALLOC_GROW(s->rcs, s->nr, s->alloc);
	s->rcs[s->nr].version = v;
	s->rcs[s->nr].rc = rc;
	s->nr++;
	return 0;
}

int sm_soak_load(struct sm_soak *s, git_repository *repo, time_t now)
{
	memset(s, 0, sizeof(*s));
	s->now = now;
	if (git_reference_foreach_name(repo, rc_cb, s) < 0)
		return sm_error("%s: cannot list tags (%s)", git_repository_path(repo), sm_git_error());
	return 0;
}

void sm_soak_release(struct sm_soak *s)
{
	free(s->rcs);
	memset(s, 0, sizeof(*s));
}

static const char *day(time_t t, char buf[32])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%d", &tm);
	return buf;
}

/* The highest -rc of version v, 0 when none is tagged. */
static int highest_rc(const struct sm_soak *s, const struct sm_version *v)
{
	int best = 0;

	for (size_t i = 0; i < s->nr; i++)
		if (!sm_version_cmp_tree(&s->rcs[i].version, v) && s->rcs[i].rc > best)
			best = s->rcs[i].rc;
	return best;
}

static int check_rc(const struct sm_soak *s, struct sm_release_tags *tags, git_repository *repo,
		    const git_oid *id, const struct sm_version *explicit_v, int want,
		    struct strbuf *out)
{
	const struct sm_release *first = sm_first_release(tags, repo, id);
	struct sm_version cycle;
	char vb[32];

	if (explicit_v) {
		cycle = *explicit_v;
		cycle.patch = -1;
		if (sm_release_find(tags, &cycle)) {
			strbuf_addf(out, "v%s is released", sm_version_str(&cycle, vb, sizeof(vb)));
			return 1;
		}
	} else if (first) {
		strbuf_addf(out, "in %s, released after its -rc%d", first->name, want);
		return 1;
	} else {
		/* Not in a release yet: the cycle is the one the newest -rc tags
		 * belong to, or the one after the newest release. */
		memset(&cycle, 0, sizeof(cycle));
		cycle.patch = -1;
		for (size_t i = 0; i < s->nr; i++)
			if (sm_version_cmp_tree(&s->rcs[i].version, &cycle) > 0)
				cycle = s->rcs[i].version;
		if (tags->nr && sm_version_cmp_tree(&tags->tags[tags->nr - 1].version, &cycle) >= 0) {
			cycle = tags->tags[tags->nr - 1].version;
			cycle.minor++;
		}
		cycle.patch = -1;
	}
	sm_version_str(&cycle, vb, sizeof(vb));
	if (highest_rc(s, &cycle) >= want) {
		strbuf_addf(out, "v%s-rc%d is tagged", vb, want);
		return 1;
	}
	strbuf_addf(out, "waits for v%s-rc%d", vb, want);
	return 0;
}

int sm_soak_check(const struct sm_soak *s, struct sm_release_tags *tags, git_repository *repo,
		  const git_oid *id, time_t when, const char *condition, struct strbuf *out)
{
	const char *rc = strstr(condition, "-rc");
	char b1[32], b2[32];

	if (rc && isdigit((unsigned char)rc[3])) {
		struct sm_version v;
		const char *end;
		int have_v = 0;

		for (const char *p = condition; p < rc && !have_v; p++)
			if ((p == condition || !isalnum((unsigned char)p[-1])) &&
			    sm_version_parse(p, &end, &v) == 0 && end == rc)
				have_v = 1;
		return check_rc(s, tags, repo, id, have_v ? &v : NULL, atoi(rc + 3), out);
	}
	for (const char *p = condition; *p; p++) {
		char *end;
		long n;
		int days;

		if (!isdigit((unsigned char)*p) || (p > condition && isalnum((unsigned char)p[-1])))
			continue;
		n = strtol(p, &end, 10);
		while (*end == ' ')
			end++;
		if (istarts_with(end, "week"))
			days = (int)n * 7;
		else if (istarts_with(end, "day"))
			days = (int)n;
		else
			continue;
		if (when + (time_t)days * 86400 <= s->now) {
			strbuf_addf(out, "in mainline since %s, %d days ago", day(when, b1),
				    (int)((s->now - when) / 86400));
			return 1;
		}
		strbuf_addf(out, "waits until %s (in mainline since %s)",
			    day(when + (time_t)days * 86400, b1), day(when, b2));
		return 0;
	}
	return -1;
}
