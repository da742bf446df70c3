/* scan_config: the scan of a bot config's trees, as `run` and `dashboard`
 * do it: the config's upstream repository, cache and checkApplies policy. */
#ifndef SM_BOT_SCAN_CONFIG_H
#define SM_BOT_SCAN_CONFIG_H
#include "bot/config.h"
#include "trees/scan.h"

/* The tree as a scan or a steal takes it: the strings are t's. */
struct sm_tree_spec sm_bot_tree_spec(const struct sm_bot_tree *t);

/* Scans range (the config's upstream.range when NULL) for every tree of
 * cfg, in cfg's order. 0 or -1 (sm_error; "upstream.range: missing" when
 * there is no range at all). Release out with sm_scan_result_release. */
int sm_bot_scan(const struct sm_bot_config *cfg, const struct sm_rules *rules,
		const char *range, struct sm_scan_result *out);

#endif
