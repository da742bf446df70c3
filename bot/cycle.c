/* cycle: scan -> harvest -> boot -> report, and the daemon loop. */
#include "bot/cycle.h"
#include "bot/boot_stage.h"
#include "bot/config.h"
#include "bot/scan_config.h"
#include "lib/fileio.h"
#include "lib/json.h"
#include "lib/lockfile.h"
#include "lib/util.h"
#include <errno.h>
#include <string.h>
#include <time.h>

volatile sig_atomic_t sm_bot_stop;

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int step_error(const char *step)
{
	return sm_error_wrap("%s", step);
}

int sm_bot_cycle(const struct sm_cycle_opts *o, struct sm_cycle_stats *st)
{
	struct sm_bot_config cfg;
	struct sm_rules *rules = NULL;
	struct sm_scan_result scan = { 0 };
	struct sm_bot_state state;
	struct sm_report_opts ro = { 0 };
	struct sm_lockfile lock = SM_LOCKFILE_INIT;
	struct sm_bot_boot_results boot = { 0 };
	const char *range;
	double t0;
	int ret = -1, state_open = 0;

	memset(st, 0, sizeof(*st));
	if (sm_bot_config_load(&cfg, o->config))
		return -1;
	range = o->range ? o->range : cfg.range;
	if (!range || !*range) {
		sm_error("%s: upstream.range: missing (or give --range)", cfg.path);
		goto out;
	}
	if (sm_rules_load(&rules, cfg.rules_dir)) {
		step_error("rules");
		goto out;
	}
	/* One cycle at a time per state directory (a daemon and a cron run may
	 * share it): held from before the state is read until it is saved. A
	 * dry run records nothing and takes no lock. */
	if (!o->dry_run) {
		char *lockpath = xasprintf("%s/lock", cfg.state_dir);

		ret = mkdir_p(cfg.state_dir, 0755);
		if (!ret)
			ret = sm_lockfile_acquire(&lock, lockpath, cfg.lock_timeout * 1000, &sm_bot_stop);
		free(lockpath);
		if (ret) {
			step_error("state");
			goto out;
		}
		ret = -1;
	}
	/* Queued mails of an earlier run go out even when this run finds nothing;
	 * opening the state first also keeps a dry run from scanning for nothing. */
	if (sm_bot_state_open(&state, cfg.state_dir, o->dry_run)) {
		step_error("state");
		goto out;
	}
	state_open = 1;

	/* The harvest first: a NAK that came in since the last cycle is in the
	 * notes the scan reads (a veto for its tree, a withdrawal to mail). */
	if (o->harvest && cfg.notmuch_db && !sm_bot_stop) {
		struct sm_harvest_opts ho = { 0 };
		char *bot = sm_bot_bare_address(cfg.from);

		ho.db_path = cfg.notmuch_db;
		ho.query = cfg.notmuch_query;
		ho.repo = cfg.upstream_repo;
		ho.upstream_ref = cfg.upstream_branch;
		ho.notes_ref = cfg.notes_ref;
		ho.bot_address = bot;
		ho.dry_run = o->dry_run;
		t0 = now_seconds();
		ret = sm_harvest(&ho, &st->harvest);
		free(bot);
		st->harvest_seconds = now_seconds() - t0;
		st->harvested = 1;
		if (ret) {
			step_error("harvest");
			goto out;
		}
	}

	t0 = now_seconds();
	if (sm_bot_scan(&cfg, rules, range, &scan)) {
		step_error("scan");
		ret = -1;
		goto out;
	}
	st->scan_seconds = now_seconds() - t0;
	st->scanned = scan.nr;

	/* [boot]: under the lock, before the mails that report it. A tree's
	 * failure is its verdict: it never stops the cycle. */
	if (cfg.nr_boot_trees && !sm_bot_stop) {
		t0 = now_seconds();
		sm_bot_boot(&cfg, rules, range, o->dry_run, &sm_bot_stop, &boot);
		st->boot_seconds = now_seconds() - t0;
		st->boot_trees = (unsigned)boot.nr;
		st->booted = boot.booted;
		st->boot_reused = boot.reused;
		st->boot_failed = boot.failed;
	}

	if (!sm_bot_stop) {
		ro.cfg = &cfg;
		ro.boot = &boot;
		ro.scan = &scan;
		ro.range = range;
		ro.dry_run = o->dry_run;
		ro.maildir = o->maildir;
		ro.out = o->out;
		t0 = now_seconds();
		ret = sm_report_compose(&ro, &state, &st->report);
		st->compose_seconds = now_seconds() - t0;
		if (ret) {
			step_error("report");
			goto out;
		}
	}
	ret = 0;
	if (!o->dry_run) {
		t0 = now_seconds();
		ret = sm_report_send(&cfg, &state, &sm_bot_stop, &st->report);
		st->send_seconds = now_seconds() - t0;
		if (ret)
			step_error("send");
	}
out:
	if (state_open)
		sm_bot_state_release(&state);
	sm_lockfile_release(&lock);
	sm_bot_boot_results_release(&boot);
	sm_scan_result_release(&scan);
	if (rules)
		sm_rules_free(rules);
	sm_bot_config_release(&cfg);
	return ret;
}

void sm_cycle_summary(const struct sm_cycle_stats *st, int dry_run, struct strbuf *out)
{
	const struct sm_report_stats *r = &st->report;

	strbuf_addf(out, "scanned %zu commits", st->scanned);
	if (st->harvested)
		strbuf_addf(out, "; harvested %u messages, %u new reviews", st->harvest.messages,
			    st->harvest.reviews_added);
	if (st->harvested && st->harvest.notices_added)
		strbuf_addf(out, ", %u new stable-queue notice%s", st->harvest.notices_added,
			    st->harvest.notices_added == 1 ? "" : "s");
	if (st->harvested && st->harvest.pending)
		strbuf_addf(out, ", %u reviewed patch%s waiting for %s upstream commit",
			    st->harvest.pending, st->harvest.pending == 1 ? "" : "es",
			    st->harvest.pending == 1 ? "its" : "their");
	if (st->boot_trees)
		strbuf_addf(out, "; booted %u tree%s (%u reused, %u failed)", st->booted,
			    st->booted == 1 ? "" : "s", st->boot_reused, st->boot_failed);
	strbuf_addf(out, "; %u new candidate%s for %u subscriber%s; %u mail%s %s",
		    r->picks, r->picks == 1 ? "" : "s", r->subscribers, r->subscribers == 1 ? "" : "s",
		    r->composed, r->composed == 1 ? "" : "s", dry_run ? "written (dry run)" : "composed");
	if (r->withdrawn)
		strbuf_addf(out, " (%u withdrawing a candidate mailed before)", r->withdrawn);
	if (!dry_run) {
		strbuf_addf(out, ", %u sent", r->sent);
		if (r->refused)
			strbuf_addf(out, ", %u refused", r->refused);
		if (r->left)
			strbuf_addf(out, ", %u left queued", r->left);
	}
}

unsigned sm_daemon_delay(const struct sm_daemon_opts *o, unsigned failures)
{
	unsigned long d;

	if (!failures)
		return o->interval;
	d = o->retry ? o->retry : 1;
	for (unsigned i = 1; i < failures && d < o->max_backoff; i++)
		d *= 2;
	return d > o->max_backoff ? o->max_backoff : (unsigned)d;
}

/* Sleeps up to secs, waking early when a stop is requested. */
static void nap(unsigned secs)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	for (unsigned long ms = 0; ms < (unsigned long)secs * 1000 && !sm_bot_stop; ms += 200)
		nanosleep(&ts, NULL);
}

static void log_line(FILE *f, const char *fmt, const char *a, const char *b)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (!f)
		return;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(f, "%s ", stamp);
	fprintf(f, fmt, a, b);
	fputc('\n', f);
	fflush(f);
}

int sm_bot_daemon(const struct sm_daemon_opts *o)
{
	unsigned failures = 0, cycles = 0;
	int last = 0;

	while (!sm_bot_stop) {
		struct sm_cycle_stats st;
		struct strbuf sb = STRBUF_INIT;
		char delay[64];
		unsigned d;

		last = sm_bot_cycle(&o->cycle, &st);
		cycles++;
		if (last) {
			failures++;
			d = sm_daemon_delay(o, failures);
			snprintf(delay, sizeof(delay), "%u", d);
			log_line(o->log, "cycle failed: %s; retrying in %ss", sm_last_error(), delay);
		} else {
			failures = 0;
			d = o->interval;
			sm_cycle_summary(&st, o->cycle.dry_run, &sb);
			snprintf(delay, sizeof(delay), "%u", d);
			log_line(o->log, "cycle done: %s; next in %ss", sb.buf, delay);
		}
		strbuf_release(&sb);
		if (o->max_cycles && cycles >= o->max_cycles)
			return last ? -1 : 0;
		nap(d);
	}
	log_line(o->log, "%s%sstopped by signal, state saved", "", "");
	return 0;
}

void sm_cycle_stats_json(const struct sm_cycle_stats *st, int dry_run, struct json_writer *w)
{
	json_object_begin(w, NULL);
	json_bool(w, "dry_run", dry_run);
	json_int(w, "scanned", (long long)st->scanned);
	json_double(w, "scan_seconds", st->scan_seconds);
	if (st->harvested) {
		json_object_begin(w, "harvest");
		JSON_INTS(w, "messages reviews_added reviews_known notices_added notices_known "
			  "pending pending_mapped",
			  st->harvest.messages, st->harvest.reviews_added, st->harvest.reviews_known,
			  st->harvest.notices_added, st->harvest.notices_known, st->harvest.pending,
			  st->harvest.pending_mapped);
		json_double(w, "seconds", st->harvest_seconds);
		json_object_end(w);
	}
	if (st->boot_trees) {
		json_object_begin(w, "boot");
		JSON_INTS(w, "trees booted reused failed", st->boot_trees, st->booted,
			  st->boot_reused, st->boot_failed);
		json_double(w, "seconds", st->boot_seconds);
		json_object_end(w);
	}
	json_object_begin(w, "report");
	JSON_INTS(w, "subscribers candidates composed withdrawn sent refused left_queued",
		  st->report.subscribers, st->report.picks, st->report.composed,
		  st->report.withdrawn, st->report.sent, st->report.refused, st->report.left);
	json_double(w, "compose_seconds", st->compose_seconds);
	json_double(w, "send_seconds", st->send_seconds);
	json_object_end(w);
	json_object_end(w);
}
