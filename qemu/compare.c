/* compare: what changed per test between the base and the series. */
#include "qemu/boot.h"
#include "lib/util.h"
#include <string.h>

const char *boot_change_name(enum boot_change c)
{
	switch (c) {
	case BOOT_STILL_PASSING: return "still passing";
	case BOOT_FIXED: return "fixed";
	case BOOT_REGRESSED: return "regressed";
	case BOOT_STILL_FAILING: return "still failing";
	case BOOT_NEW: return "new";
	case BOOT_SKIPPED: return "skipped";
	}
	return "?";
}

struct outcome {
	char *name;
	const char *status;	/* pass, fail, skip */
};

static const char *status_of(enum ktap_status s)
{
	return s == KTAP_PASS ? "pass" : s == KTAP_SKIP ? "skip" : "fail";
}

static void push(struct outcome **o, size_t *n, size_t *alloc, char *name, const char *status)
{
	ALLOC_GROW(*o, *n, *alloc);
	(*o)[(*n)++] = (struct outcome){ name, status };
}

/* "boot", then each test and subtest of a result, in log order. The boot
 * passes when the log got to /init's end without an oops, BUG, panic or
 * WARNING (a kernel that does not build does not boot either). */
static size_t outcomes(const struct boot_result *r, struct outcome **out)
{
	size_t n = 0, alloc = 0;
	struct outcome *o = NULL;
	int boot_ok = r->verdict && strcmp(r->verdict, "build-failed") &&
		      strcmp(r->verdict, "apply-failed") && r->log.finished &&
		      !r->timed_out && r->log.events_nr == 0;

	push(&o, &n, &alloc, xstrdup("boot"), boot_ok ? "pass" : "fail");
	for (size_t i = 0; i < r->log.tests_nr; i++) {
		const struct boot_test *t = &r->log.tests[i];

		push(&o, &n, &alloc, xstrdup(t->name), status_of(t->status));
		for (size_t j = 0; j < t->sub_nr; j++)
			push(&o, &n, &alloc, xasprintf("%s: %s", t->name, t->sub[j].name),
			     status_of(t->sub[j].status));
	}
	*out = o;
	return n;
}

static const char *find(const struct outcome *o, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(o[i].name, name))
			return o[i].status;
	return NULL;
}

static enum boot_change change(const char *base, const char *series)
{
	if (!strcmp(series, "skip"))
		return BOOT_SKIPPED;
	if (!base || !strcmp(base, "skip"))
		return BOOT_NEW;
	if (!strcmp(base, "pass"))
		return !strcmp(series, "pass") ? BOOT_STILL_PASSING : BOOT_REGRESSED;
	return !strcmp(series, "pass") ? BOOT_FIXED : BOOT_STILL_FAILING;
}

void boot_compare(const struct boot_result *base, struct boot_result *r)
{
	struct outcome *b, *s;
	size_t bn = outcomes(base, &b), sn = outcomes(r, &s), alloc = 0;

	for (size_t i = 0; i < r->changes_nr; i++)
		free(r->changes[i].name);
	free(r->changes);
	r->changes = NULL;
	r->changes_nr = r->regressions = 0;
	for (size_t i = 0; i < sn; i++) {
		const char *bs = find(b, bn, s[i].name);
		struct boot_change_item *c;

		ALLOC_GROW(r->changes, r->changes_nr, alloc);
		c = &r->changes[r->changes_nr++];
		c->name = xstrdup(s[i].name);
		c->base = bs;
		c->series = s[i].status;
		c->change = change(bs, s[i].status);
		r->regressions += c->change == BOOT_REGRESSED;
	}
	/* what the base ran and the series did not get to is a failure */
	for (size_t i = 0; i < bn; i++) {
		struct boot_change_item *c;

		if (find(s, sn, b[i].name))
			continue;
		ALLOC_GROW(r->changes, r->changes_nr, alloc);
		c = &r->changes[r->changes_nr++];
		c->name = xstrdup(b[i].name);
		c->base = b[i].status;
		c->series = NULL;
		c->change = change(b[i].status, "fail");
		r->regressions += c->change == BOOT_REGRESSED;
	}
	for (size_t i = 0; i < bn; i++)
		free(b[i].name);
	for (size_t i = 0; i < sn; i++)
		free(s[i].name);
	free(b);
	free(s);
}
