/* version: kernel release numbers as stable trees use them (4.4, 6.1.90). */
#ifndef SM_RULES_VERSION_H
#define SM_RULES_VERSION_H

struct sm_version {
	int major, minor;
	int patch;		/* -1 when not given ("4.4", "4.4.x") */
};

/* Parses "v6.1", "6.1.90", "4.4.x", "3.4" at s; sets *end past it (end may be NULL).
 * Returns 0, or -1 when s does not start with a version. No sm_error. */
int sm_version_parse(const char *s, const char **end, struct sm_version *v);
/* Compares major.minor only (a stable tree's identity). */
int sm_version_cmp_tree(const struct sm_version *a, const struct sm_version *b);
/* Compares major.minor.patch (absent patch sorts first). */
int sm_version_cmp(const struct sm_version *a, const struct sm_version *b);
/* "6.1" or "6.1.90" into buf (at least 32 bytes). */
const char *sm_version_str(const struct sm_version *v, char *buf, unsigned size);
/* Release tag name to version: "v6.7" -> 6.7, "v6.7-rc3" -> 6.7 rc 3
 * (*rc = 0 for a final release). Returns -1 for other tag names. */
int sm_version_from_tag(const char *tag, struct sm_version *v, int *rc);
/* The subject of a release commit, which only sets the Makefile's version:
 * "Linux 6.7", "Linux 6.7-rc3", a stable tree's "Linux 6.1.90". Returns 1
 * and fills v and *rc as sm_version_from_tag does, else 0. */
int sm_version_from_release_subject(const char *subject, struct sm_version *v, int *rc);

#endif
