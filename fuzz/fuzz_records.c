/* libFuzzer target: the record stream classify --batch and train read
 * (mail/records.h): the choice of JSON lines, a JSON text, git log output
 * or an mbox by the first line, each reader, its size limit, and the
 * classifier on every record. The first byte of an input says how the
 * rest is cut into pieces (a stream may end a piece anywhere, in a UTF-8
 * byte-order mark or the first line too) and whether a bad record stops
 * the reading (train) or is skipped (classify). */
#include "fuzz/fuzz.h"
#include "mail/records.h"
#include "rules/classify.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>

static struct sm_rules *rules;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	sm_set_quiet(1);	/* the warnings naming skipped records */
	if (sm_rules_load(&rules, getenv("STABLEMATE_RULES"))) {
		fprintf(stderr, "fuzz_records: %s\n", sm_last_error());
		abort();
	}
	return 0;
}

static int judge(struct sm_commit *c, const char *name, void *ctx)
{
	struct sm_tree_ctx tree = { "linux-6.1.y", { 6, 1, -1 } };
	struct sm_verdict v;

	(void)name, (void)ctx;
	sm_classify_codes(rules, c, &tree, &v);
	sm_verdict_release(&v);
	sm_commit_release(c);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* small limits, so that records over them come often */
	struct sm_records r = { .path = "fuzz", .max_record = 2048, .fn = judge };

	if (!size)
		return 0;
	r.strict = data[0] >> 7;
	sm_records_read_mem(&r, (const char *)data + 1, size - 1, data[0] & 0x3f);
	sm_clear_error();
	return 0;
}
