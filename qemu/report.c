/* report: a boot result as text, JSON and a mail. */
#include "qemu/boot.h"
#include "lib/json.h"
#include "lib/util.h"
#include <ctype.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void upper(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		strbuf_addch(out, toupper((unsigned char)*s));
}

static void text_tests(const struct boot_result *r, struct strbuf *out)
{
	for (size_t i = 0; i < r->log.tests_nr; i++) {
		const struct boot_test *t = &r->log.tests[i];
		size_t passed = 0;

		for (size_t j = 0; j < t->sub_nr; j++)
			passed += t->sub[j].status == KTAP_PASS;
		strbuf_addf(out, "  test %s: %s", t->name, ktap_status_name(t->status));
		if (t->sub_nr)
			strbuf_addf(out, " (%zu/%zu subtests passed)", passed, t->sub_nr);
		if (t->directive)
			strbuf_addf(out, " # %s", t->directive);
		if (t->skip_reason)
			strbuf_addf(out, " (%s)", t->skip_reason);
		strbuf_addch(out, '\n');
		for (size_t j = 0; j < t->sub_nr; j++)
			strbuf_addf(out, "    %s %d %s%s%s\n",
				    t->sub[j].status == KTAP_FAIL ? "not ok" : "ok",
				    t->sub[j].num, t->sub[j].name,
				    t->sub[j].directive ? " # " : "",
				    t->sub[j].directive ? t->sub[j].directive : "");
	}
	/* programs that were to run but never said a word */
	for (size_t i = r->log.tests_nr; i < r->tests.nr && r->log.init_started; i++)
		strbuf_addf(out, "  test %s: missing\n", r->tests.items[i]);
}

/* One line for the dashboard and the mail: "1 regression", "4/4 tests
 * passed", the build error... */
static void summary(const struct boot_result *r, struct strbuf *out)
{
	size_t passed = 0;

	if (r->base && r->regressions) {
		strbuf_addf(out, "%zu regression%s", r->regressions, r->regressions == 1 ? "" : "s");
		return;
	}
	if (r->apply.patch) {
		strbuf_addf(out, "%s does not apply", base_name(r->apply.patch));
		return;
	}
	if (r->build_error) {
		strbuf_addstr(out, "build failed");
		return;
	}
	for (size_t i = 0; i < r->log.tests_nr; i++)
		passed += r->log.tests[i].status == KTAP_PASS;
	strbuf_addf(out, "%zu/%zu tests passed", passed,
		    r->log.tests_nr > r->tests.nr ? r->log.tests_nr : r->tests.nr);
	if (r->base)
		strbuf_addstr(out, ", no regression");
}

static const char *first_bad(const struct boot_result *r)
{
	return r->first_bad && r->first_bad <= r->patches.nr ?
		base_name(r->patches.items[r->first_bad - 1]) : NULL;
}

static void text_compare(const struct boot_result *r, struct strbuf *out)
{
	size_t count[BOOT_SKIPPED + 1] = { 0 };
	int any = 0;

	for (size_t i = 0; i < r->changes_nr; i++)
		count[r->changes[i].change]++;
	strbuf_addstr(out, "  against the base (linux-6.1 without the series):");
	for (int c = 0; c <= BOOT_SKIPPED; c++) {
		if (!count[c])
			continue;
		strbuf_addf(out, "%s %zu %s", any ? "," : "", count[c],
			    boot_change_name((enum boot_change)c));
		any = 1;
	}
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < r->changes_nr; i++) {
		const struct boot_change_item *c = &r->changes[i];

		if (c->change == BOOT_STILL_PASSING)
			continue;
		strbuf_addf(out, "    %s: %s (%s -> %s)\n", boot_change_name(c->change), c->name,
			    c->base ? c->base : "none", c->series ? c->series : "none");
	}
	strbuf_addf(out, "  base: %s, build %.1f s, boot %.1f s\n",
		    r->base->verdict ? r->base->verdict : "error", r->base->build_seconds,
		    r->base->boot_seconds);
	if (r->bisected) {
		const char *bad = first_bad(r);

		strbuf_addf(out, "  first bad patch: %s (bisection: %zu build%s", bad ? bad : "none found",
			    r->steps_nr, r->steps_nr == 1 ? "" : "s");
		for (size_t i = 0; i < r->steps_nr; i++)
			strbuf_addf(out, "%s%zu patch%s %s", i ? ", " : ": ", r->steps[i].applied,
				    r->steps[i].applied == 1 ? "" : "es",
				    r->steps[i].bad ? "bad" : "good");
		strbuf_addstr(out, ")\n");
	}
}

void boot_result_text(const struct boot_result *r, struct strbuf *out)
{
	strbuf_addf(out, "boot %s: ", r->name ? r->name : "?");
	upper(out, r->verdict ? r->verdict : "error");
	strbuf_addch(out, '\n');
	strbuf_addf(out, "  patches: %zu of %zu applied\n", r->applied, r->patches.nr);
	if (r->arch)
		strbuf_addf(out, "  arch: %s (%s)\n", r->arch, r->compiler ? r->compiler : "gcc");
	if (r->apply.patch) {
		strbuf_addf(out, "  %s does not apply: %s\n", base_name(r->apply.patch),
			    r->apply.message ? r->apply.message : "git am failed");
		if (r->apply.hunk) {
			const char *p = r->apply.hunk;

			strbuf_addf(out, "  hunk not found in %s:\n",
				    r->apply.file ? r->apply.file : "the tree");
			while (*p) {
				const char *eol = strchr(p, '\n');
				size_t n = eol ? (size_t)(eol - p) : strlen(p);

				strbuf_addstr(out, "  | ");
				strbuf_add(out, p, n);
				strbuf_addch(out, '\n');
				p += n + (eol ? 1 : 0);
			}
		}
	}
	if (r->build_error)
		strbuf_addf(out, "  build error: %s\n", r->build_error);
	if (r->build_seconds > 0)
		strbuf_addf(out, "  build: %.1f s\n", r->build_seconds);
	if (r->serial_log && r->accel) {
		strbuf_addf(out, "  boot: %s %.1f s (qemu %s: %s)", r->log.kernel_version ?
			    r->log.kernel_version : "kernel", r->boot_seconds, r->accel,
			    r->accel_reason ? r->accel_reason : "");
		if (r->log.boot_seconds >= 0)
			strbuf_addf(out, ", /init at %.2f s", r->log.boot_seconds);
		if (r->timed_out)
			strbuf_addstr(out, ", killed at the timeout");
		else if (!r->log.finished)
			strbuf_addstr(out, ", log ends before the tests finished");
		strbuf_addch(out, '\n');
		text_tests(r, out);
		for (size_t i = 0; i < r->log.events_nr; i++)
			strbuf_addf(out, "  kernel %s (serial.log:%d): %s\n",
				    kernel_event_name(r->log.events[i].kind),
				    r->log.events[i].line, r->log.events[i].text);
	}
	if (r->base)
		text_compare(r, out);
	if (r->run_dir)
		strbuf_addf(out, "  logs: %s/\n", r->run_dir);
}

void boot_result_json(const struct boot_result *r, struct strbuf *out)
{
	struct json_writer w;

	json_init(&w, out);
	json_object_begin(&w, NULL);
	json_string(&w, "name", r->name ? r->name : "");
	json_string(&w, "verdict", r->verdict ? r->verdict : "error");
	json_string(&w, "series_verdict", r->series_verdict ? r->series_verdict
			: r->verdict ? r->verdict : "error");
	{
		struct strbuf sum = STRBUF_INIT;

		summary(r, &sum);
		json_string(&w, "summary", sum.buf);
		strbuf_release(&sum);
	}
	json_string(&w, "bisected", first_bad(r));
	json_string(&w, "arch", r->arch ? r->arch : "x86_64");
	json_string(&w, "compiler", r->compiler);
	json_array_begin(&w, "patches");
	for (size_t i = 0; i < r->patches.nr; i++) {
		json_object_begin(&w, NULL);
		json_string(&w, "patch", base_name(r->patches.items[i]));
		json_bool(&w, "applied", i < r->applied);
		json_object_end(&w);
	}
	json_array_end(&w);
	if (r->apply.patch) {
		json_object_begin(&w, "apply_failure");
		json_string(&w, "patch", base_name(r->apply.patch));
		json_string(&w, "file", r->apply.file);
		json_int(&w, "line", r->apply.line);
		json_string(&w, "hunk", r->apply.hunk);
		json_string(&w, "message", r->apply.message ? r->apply.message : "");
		json_object_end(&w);
	} else {
		json_null(&w, "apply_failure");
	}
	json_string(&w, "build_error", r->build_error);
	json_strlist(&w, "configs", &r->configs);
	json_double(&w, "build_seconds", r->build_seconds);
	json_double(&w, "boot_seconds", r->boot_seconds);
	if (r->log.boot_seconds >= 0)
		json_double(&w, "init_uptime_seconds", r->log.boot_seconds);
	else
		json_null(&w, "init_uptime_seconds");
	json_bool(&w, "timed_out", r->timed_out);
	json_bool(&w, "finished", r->log.finished);
	json_string(&w, "accel", r->accel);
	json_string(&w, "accel_reason", r->accel_reason);
	json_string(&w, "kernel_version", r->log.kernel_version);
	json_array_begin(&w, "tests");
	for (size_t i = 0; i < r->log.tests_nr; i++) {
		const struct boot_test *t = &r->log.tests[i];

		json_object_begin(&w, NULL);
		json_string(&w, "name", t->name);
		json_string(&w, "status", ktap_status_name(t->status));
		json_string(&w, "directive", t->directive);
		json_array_begin(&w, "subtests");
		for (size_t j = 0; j < t->sub_nr; j++) {
			json_object_begin(&w, NULL);
			json_int(&w, "num", t->sub[j].num);
			json_string(&w, "name", t->sub[j].name);
			json_string(&w, "status", ktap_status_name(t->sub[j].status));
			json_object_end(&w);
		}
		json_array_end(&w);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_array_begin(&w, "kernel_events");
	for (size_t i = 0; i < r->log.events_nr; i++) {
		json_object_begin(&w, NULL);
		json_string(&w, "kind", kernel_event_name(r->log.events[i].kind));
		json_int(&w, "line", r->log.events[i].line);
		json_string(&w, "text", r->log.events[i].text);
		json_object_end(&w);
	}
	json_array_end(&w);
	if (r->serial_log && r->accel)
		json_string(&w, "serial_log", r->serial_log);
	else
		json_null(&w, "serial_log");
	json_string(&w, "build_log", r->build_log);
	json_string(&w, "run_dir", r->run_dir);
	if (r->base) {
		json_object_begin(&w, "compare");
		json_string(&w, "base_verdict", r->base->verdict ? r->base->verdict : "error");
		json_double(&w, "base_build_seconds", r->base->build_seconds);
		json_double(&w, "base_boot_seconds", r->base->boot_seconds);
		json_int(&w, "regressions", (long long)r->regressions);
		json_array_begin(&w, "changes");
		for (size_t i = 0; i < r->changes_nr; i++) {
			const struct boot_change_item *c = &r->changes[i];

			json_object_begin(&w, NULL);
			json_string(&w, "name", c->name);
			json_string(&w, "change", boot_change_name(c->change));
			json_string(&w, "base", c->base);
			json_string(&w, "series", c->series);
			json_object_end(&w);
		}
		json_array_end(&w);
		json_object_end(&w);
	} else {
		json_null(&w, "compare");
	}
	if (r->bisected) {
		json_object_begin(&w, "bisect");
		if (first_bad(r)) {
			json_string(&w, "first_bad", first_bad(r));
			json_int(&w, "first_bad_index", (long long)r->first_bad);
		} else {
			json_null(&w, "first_bad");
			json_null(&w, "first_bad_index");
		}
		json_int(&w, "builds", (long long)r->steps_nr);
		json_array_begin(&w, "steps");
		for (size_t i = 0; i < r->steps_nr; i++) {
			json_object_begin(&w, NULL);
			json_int(&w, "applied", (long long)r->steps[i].applied);
			json_bool(&w, "bad", r->steps[i].bad);
			json_string(&w, "verdict", r->steps[i].verdict ? r->steps[i].verdict : "error");
			json_double(&w, "build_seconds", r->steps[i].build_seconds);
			json_double(&w, "boot_seconds", r->steps[i].boot_seconds);
			json_object_end(&w);
		}
		json_array_end(&w);
		json_object_end(&w);
	} else {
		json_null(&w, "bisect");
	}
	json_object_end(&w);
}

void boot_result_mail(const struct boot_result *r, struct strbuf *subject,
		      struct strbuf *body)
{
	strbuf_addstr(subject, "[stablemate boot] ");
	upper(subject, r->verdict ? r->verdict : "error");
	strbuf_addf(subject, ": %s (%zu patch%s) on linux-6.1", r->name ? r->name : "?",
		    r->patches.nr, r->patches.nr == 1 ? "" : "es");
	if (r->arch && strcmp(r->arch, "x86_64"))
		strbuf_addf(subject, " (%s)", r->arch);
	if (first_bad(r))
		strbuf_addf(subject, ", first bad: %s", first_bad(r));
	if (r->base && r->regressions) {
		strbuf_addstr(body, "The series regressed ");
		summary(r, body);
		strbuf_addstr(body, " against linux-6.1 without it.\n");
		if (first_bad(r))
			strbuf_addf(body, "First bad patch (bisected): %s\n", first_bad(r));
		strbuf_addch(body, '\n');
	}
	strbuf_addstr(body, "The build-and-boot stage ran on these patches:\n\n");
	for (size_t i = 0; i < r->patches.nr; i++)
		strbuf_addf(body, "  %s %s\n", i < r->applied ? "applied" : "NOT applied",
			    base_name(r->patches.items[i]));
	strbuf_addch(body, '\n');
	boot_result_text(r, body);
	strbuf_addstr(body, "\n-- \nstablemate boot: tinyconfig kernel in QEMU, tests as KTAP on the serial console\n");
}
