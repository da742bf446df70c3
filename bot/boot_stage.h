/* boot_stage: the bot's [boot] step. For each tree the config boots, the
 * cycle makes the branch `stablemate steal` would (the tree's candidates
 * of the range cherry-picked onto its tip), named stablemate-boot/TREE in
 * the tree's repository and replaced each run, then boots it with the
 * library `stablemate boot --branch` uses (qemu/boot.h) and records the
 * result atomically in STATE/boot/SLUG.json (SLUG: file_slug of the tree's
 * name; the dashboard reads "verdict", "summary" and "bisected" there).
 *
 * A tree whose candidates, tip and settings are those of the recorded
 * result is not booted again: the result is reused. Whatever goes wrong for
 * one tree (steal, a missing source, the build, a timeout) is that tree's
 * verdict ("error" when the stage could not run at all), warned about in
 * one line, and the other trees go on. A dry run steals and boots nothing:
 * it shows the recorded results. */
#ifndef SM_BOT_BOOT_STAGE_H
#define SM_BOT_BOOT_STAGE_H
#include <signal.h>
#include "bot/config.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "rules/classify.h"

struct sm_bot_boot_result {
	char *tree;
	char *verdict;		/* boot's verdict (pass, fail, regressed, timeout,
				 * panic, apply-failed, build-failed), "error",
				 * or "none" (no candidate to boot) */
	char *summary;		/* "2 regressions", "4/4 tests passed", the error */
	char *bisected;		/* the first bad patch's file name, or NULL */
	char *bisected_upstream;	/* its upstream commit, or NULL */
	char *arch;
	long patches;		/* the candidates booted */
	struct strlist regressions;	/* the tests that went from pass to fail */
	int reused;		/* recorded by an earlier run */
};

struct sm_bot_boot_results {
	struct sm_bot_boot_result *items;
	size_t nr;
	unsigned booted, reused, failed;
};

/* Boots (or, in a dry run, reads) every tree of cfg->boot_trees until
 * *stop. Never fails as a whole: see above. */
void sm_bot_boot(const struct sm_bot_config *cfg, const struct sm_rules *rules,
		 const char *range, int dry_run, volatile sig_atomic_t *stop,
		 struct sm_bot_boot_results *out);
void sm_bot_boot_results_release(struct sm_bot_boot_results *r);
const struct sm_bot_boot_result *sm_bot_boot_find(const struct sm_bot_boot_results *r,
						  const char *tree);
/* The lines of a report mail about one tree's boot:
 * "Boot linux-6.1.y: REGRESSED: 2 regressions (3 candidates, x86_64)" and
 * one line per regression and for the first bad patch. */
void sm_bot_boot_block(const struct sm_bot_boot_result *r, struct strbuf *out);

#endif
