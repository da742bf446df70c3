/* scan_config: scan a bot config's trees (see scan_config.h). */
#include "bot/scan_config.h"
#include "mail/series.h"
#include "lib/util.h"

struct sm_tree_spec sm_bot_tree_spec(const struct sm_bot_tree *t)
{
	struct sm_tree_spec spec = { t->name, t->repo, t->branch, t->version };

	return spec;
}

int sm_bot_scan(const struct sm_bot_config *cfg, const struct sm_rules *rules,
		const char *range, struct sm_scan_result *out)
{
	struct sm_tree_spec *specs;
	struct sm_scan_opts so = { 0 };
	int ret;

	if (!range)
		range = cfg->range;
	if (!range || !*range)
		return sm_error("%s: upstream.range: missing (or give --range)", cfg->path);
	specs = xcalloc(cfg->nr_trees + 1, sizeof(*specs));
	for (size_t i = 0; i < cfg->nr_trees; i++)
		specs[i] = sm_bot_tree_spec(&cfg->trees[i]);
	so.upstream = cfg->upstream_repo;
	so.range = range;
	so.trees = specs;
	so.nr_trees = cfg->nr_trees;
	so.rules = rules;
	so.check_applies = cfg->check_applies;
	so.search = cfg->search_conflicts;	/* config.c: only with check_applies */
	so.tree_patches = cfg->check_applies;	/* the patch mails show each tree's */
	so.cache_dir = cfg->cache_dir;
	so.upstream_ref = cfg->upstream_branch;
	so.min_soak_days = cfg->min_soak_days;
	so.queue_dir = cfg->queue_dir;
	so.cve_dir = cfg->cve_dir;
	so.notes_ref = cfg->notes_ref;	/* harvest's: a NAK for a tree vetoes it there */
	ret = sm_scan(&so, out);
	if (!ret && cfg->notmuch_db) {	/* each candidate's posted series */
		struct sm_series_opts sso = { cfg->notmuch_db, cfg->upstream_branch, cfg->series_whole };
		struct sm_series_stats sst;

		if (sm_series_annotate(&sso, &so, out, &sst)) {
			sm_scan_result_release(out);
			ret = -1;
		}
	}
	free(specs);
	return ret;
}
