/* cve: the kernel CVE team's records (cve/published/YYYY/CVE-*.json, CVE
 * JSON 5 as the vulns repository publishes it, or the reduced form with
 * top-level "cve", "git" and "versions"), indexed by fixing commit. */
#ifndef SM_TREES_CVE_H
#define SM_TREES_CVE_H
#include <stddef.h>
#include "trees/strmap.h"
#include "rules/version.h"
#include "lib/strbuf.h"

struct sm_cve_range {
	char *version, *less_than, *less_equal;	/* NULL when absent */
	int affected;				/* status "affected" (else unaffected) */
};

struct sm_cve {
	char *id;			/* "CVE-2024-14027" */
	char *path;
	char **fixing;			/* full commit ids (the git "lessThan" ends) */
	size_t nr_fixing, alloc_fixing;
	struct sm_cve_range *ranges;	/* the release ranges */
	size_t nr_ranges, alloc_ranges;
};

struct sm_cve_db {
	struct sm_cve *cves;
	size_t nr, alloc;
	struct strmap by_fix;		/* fixing id -> cve */
	size_t nr_files;
};

/* Reads DIR/cve/published/ * / *.json (or DIR/published/..., or DIR/ * / *.json).
 * A file that is not JSON is an error naming it. 0 or -1 (sm_error). */
int sm_cve_load(struct sm_cve_db *db, const char *dir);
void sm_cve_release(struct sm_cve_db *db);
/* The CVE that commit id (full) fixes, or NULL. */
const struct sm_cve *sm_cve_find(const struct sm_cve_db *db, const char *id);
/* What the record says about tree v: 1 still affected, 0 not affected or
 * fixed; out gets "fixed in 6.6.133", "not affected (introduced in 6.11)"
 * or "still affected". */
int sm_cve_tree_state(const struct sm_cve *c, const struct sm_version *v, struct strbuf *out);

#endif
