/* libFuzzer target: the commit/mail text parser (stable tags, trailers,
 * Fixes:, upstream references, diff statistics), the classifier, and the
 * split of `git log` output into commits. */
#include "fuzz/fuzz.h"
#include "rules/classify.h"
#include "rules/gitlog.h"
#include "lib/util.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static struct sm_rules *rules;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (sm_rules_load(&rules, getenv("STABLEMATE_RULES"))) {
		fprintf(stderr, "fuzz_commit: %s\n", sm_last_error());
		abort();
	}
	return 0;
}

/* a commit of the split: parsed, as classify --batch parses it */
static int parse_log_commit(const char *text, size_t len, unsigned n, int too_big, void *ctx)
{
	struct sm_commit c;

	(void)n, (void)ctx;
	if (!too_big && !sm_commit_parse(&c, text, len))
		sm_commit_release(&c);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sm_commit c;
	struct sm_verdict v;
	struct sm_tree_ctx tree = { "linux-6.1.y", { 6, 1, -1 } };
	/* The parsers take NUL-terminated text; keep embedded NULs as they are. */
	char *text = xstrndup((const char *)data, size);

	if (!sm_commit_parse(&c, text, size)) {
		sm_classify(rules, &c, &tree, &v);
		sm_verdict_release(&v);
		sm_commit_release(&c);
	}
	sm_commit_parse_message(&c, text, size);
	sm_commit_release(&c);
	sm_gitlog_split(text, size, 4096, parse_log_commit, NULL);
	free(text);
	return 0;
}
